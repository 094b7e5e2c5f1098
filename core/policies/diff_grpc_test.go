package policies

// The gRPC rule against a real grpc-go v1.85.0 client (a test-only
// dependency, kept out of every wasm module by wasm/playground's
// TestWasmLacksTestOnlyModules): the A6 example's retry policy and
// throttling as a service config, an in-process server (bufconn) that
// answers each attempt from a script, the attempts of each RPC counted on
// the server. grpcRule, fed the same script, must make the same attempts.

import (
	"context"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
)

// scriptServer answers the attempts in arrival order from script: okOut
// (SERVING), failOut (UNAVAILABLE: retryable in the policy) or timeoutOut
// (DEADLINE_EXCEEDED: not retryable, as the deadline's end is for the
// client). It counts the attempts of each RPC by its "rpc" metadata.
type scriptServer struct {
	healthpb.UnimplementedHealthServer
	mu     sync.Mutex
	script []outcome
	next   int
	per    map[string]int
}

func (s *scriptServer) Check(ctx context.Context, _ *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if ids := md.Get("rpc"); len(ids) == 1 {
		s.per[ids[0]]++
	}
	o := okOut
	if s.next < len(s.script) {
		o = s.script[s.next]
	}
	s.next++
	switch o {
	case failOut:
		return nil, status.Error(codes.Unavailable, "scripted")
	case timeoutOut:
		return nil, status.Error(codes.DeadlineExceeded, "scripted")
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

// grpcScript is a sequence of attempt outcomes with an outage in the
// middle, long enough to drain the tokens and, after it, to refill them
// (0.1 per success).
func grpcScript(seed uint64, n int) []outcome {
	r := rand.New(rand.NewPCG(seed, 11))
	out := make([]outcome, n)
	for i := range out {
		pFail, pDeadline := 0.05, 0.05
		if i > n/5 && i < n/3 {
			pFail, pDeadline = 0.6, 0.2
		}
		switch x := r.Float64(); {
		case x < pFail:
			out[i] = failOut
		case x < pFail+pDeadline:
			out[i] = timeoutOut
		}
	}
	return out
}

// ruleAttempts feeds script to the preset's rule, RPC after RPC, as the
// simulation calls it, and returns the attempts of each RPC.
func ruleAttempts(p Preset, script []outcome, rpcs int) []int {
	u := newRule(p, 3)
	next := 0
	take := func() outcome {
		o := okOut
		if next < len(script) {
			o = script[next]
		}
		next++
		return o
	}
	var out []int
	for range rpcs {
		n := 1
		o := take()
		u.done(0, false, o == okOut, o == timeoutOut, 0)
		for o == failOut || (o == timeoutOut && p.RetryTimeouts) {
			if n >= u.max() {
				break
			}
			if ok, _ := u.retry(0, o == timeoutOut); !ok {
				break
			}
			o = take()
			n++
			u.done(0, true, o == okOut, o == timeoutOut, 0)
		}
		out = append(out, n)
	}
	return out
}

func TestGRPCAgainstGRPCGo(t *testing.T) {
	p, _ := Find(GRPCDeadline)
	// The preset's retry policy and throttling, as a service config; the
	// backoff is shortened (the pauses are not what is compared: the
	// decisions are), everything else is the preset's.
	cfg := `{"methodConfig": [{"name": [{"service": "grpc.health.v1.Health"}],
	  "retryPolicy": {"maxAttempts": ` + strconv.Itoa(p.Attempts) + `, "initialBackoff": "0.0001s", "maxBackoff": "0.0001s",
	    "backoffMultiplier": ` + strconv.FormatFloat(p.Backoff.Multiplier, 'g', -1, 64) + `, "retryableStatusCodes": ["UNAVAILABLE"]}}],
	  "retryThrottling": {"maxTokens": ` + strconv.FormatFloat(p.GRPC.MaxTokens, 'g', -1, 64) +
		`, "tokenRatio": ` + strconv.FormatFloat(p.GRPC.TokenRatio, 'g', -1, 64) + `}}`
	const rpcs = 400
	for seed := range uint64(3) {
		script := grpcScript(seed, 4*rpcs)
		lis := bufconn.Listen(1 << 20)
		srv := grpc.NewServer()
		ss := &scriptServer{script: script, per: map[string]int{}}
		healthpb.RegisterHealthServer(srv, ss)
		go srv.Serve(lis)
		conn, err := grpc.NewClient("passthrough:///bufnet",
			grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) { return lis.Dial() }),
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithDefaultServiceConfig(cfg))
		if err != nil {
			t.Fatal(err)
		}
		client := healthpb.NewHealthClient(conn)
		for i := range rpcs {
			ctx := metadata.AppendToOutgoingContext(context.Background(), "rpc", strconv.Itoa(i))
			client.Check(ctx, &healthpb.HealthCheckRequest{}) // the outcome is the server's count
		}
		conn.Close()
		srv.Stop()

		want := ruleAttempts(p, script, rpcs)
		throttled, retried := 0, 0
		for i, n := range want {
			got := ss.per[strconv.Itoa(i)]
			if got != n {
				t.Fatalf("seed %d RPC %d: grpc-go made %d attempts, the rule %d", seed, i, got, n)
			}
			if n > 1 {
				retried++
			}
			if n == 1 && script[sum(want[:i])] == failOut {
				throttled++ // a retryable failure not retried: the throttle
			}
		}
		if throttled == 0 || retried == 0 {
			t.Errorf("seed %d: %d RPCs retried, %d throttled: the script tests too little", seed, retried, throttled)
		}
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
