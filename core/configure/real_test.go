package configure_test

// The snippets against the real implementations' own parsers, at the
// versions go.mod pins (test-only dependencies, never in a wasm module:
// TestNotInWasm in wasm/playground lists the modules' dependencies):
// grpc-go v1.85.0's service config parser, go-control-plane
// envoy v1.40.0's types and their ValidateAll, aws-sdk-go-v2 v1.48.0's
// standard retryer and token bucket, and its config module's shared-config
// reader.

import (
	"context"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"gopkg.in/yaml.v3"

	"retrylab/core/configure"
)

// snippetTraffics are the traffics whose snippets the parsers read: the
// defaults and corners of every parameter (one attempt: no retry policy;
// a generous amplification; tiny and large traffic).
func snippetTraffics() []configure.Traffic {
	mk := func(f func(*configure.Traffic)) configure.Traffic {
		t := configure.Default()
		f(&t)
		return t
	}
	return []configure.Traffic{
		configure.Default(),
		mk(func(t *configure.Traffic) { t.Attempts = 1 }),
		mk(func(t *configure.Traffic) { t.Attempts, t.MaxAmp, t.FailureRate = 10, 3, 0.5 }),
		mk(func(t *configure.Traffic) { t.RPS, t.Clients, t.OutageS = 1, 1, 10 }),
		mk(func(t *configure.Traffic) { t.RPS, t.Clients, t.MaxAmp, t.OutageS = 4000, 40, 1.001, 5 }),
		mk(func(t *configure.Traffic) { t.TimeoutMS, t.LatencyMS = 1.5, 0.5 }),
	}
}

var planCache struct {
	once  sync.Once
	plans []configure.Plan
	err   error
}

// plans returns the plans of every snippet traffic, computed once.
func plans(t *testing.T) []configure.Plan {
	t.Helper()
	planCache.once.Do(func() {
		for _, tr := range snippetTraffics() {
			r, err := configure.Compute(tr, 1)
			if err != nil {
				planCache.err = err
				return
			}
			planCache.plans = append(planCache.plans, r.Plans...)
		}
	})
	if planCache.err != nil {
		t.Fatal(planCache.err)
	}
	return planCache.plans
}

func setting(t *testing.T, p configure.Plan, name string) string {
	t.Helper()
	for _, s := range p.Settings {
		if s.Name == name {
			return s.Value
		}
	}
	t.Fatalf("%s has no setting %s: %v", p.System, name, p.Settings)
	return ""
}

func grpcAccepts(cfg string) error {
	cc, err := grpc.NewClient("passthrough:///backend", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(cfg))
	if err != nil {
		return err
	}
	return cc.Close()
}

// TestGRPCServiceConfig: grpc-go accepts every emitted service config
// (NewClient parses the default service config and fails on a bad one),
// and refuses one we break on purpose, so the check can fail.
func TestGRPCServiceConfig(t *testing.T) {
	for _, p := range plans(t) {
		if p.System != configure.GRPC {
			continue
		}
		if err := grpcAccepts(p.Snippet); err != nil {
			t.Errorf("grpc-go refuses our service config: %v\n%s", err, p.Snippet)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(p.Snippet), &v); err != nil {
			t.Fatal(err)
		}
		th := v["retryThrottling"].(map[string]any)
		if got := strconv.FormatFloat(th["maxTokens"].(float64), 'f', -1, 64); got != setting(t, p, "retryThrottling.maxTokens") {
			t.Errorf("snippet maxTokens %s, settings %s", got, setting(t, p, "retryThrottling.maxTokens"))
		}
	}
	bad := strings.Replace(plans(t)[0].Snippet, `"maxTokens": `, `"maxTokens": -`, 1)
	if grpcAccepts(bad) == nil {
		t.Errorf("grpc-go accepts a negative maxTokens: the check cannot fail\n%s", bad)
	}
}

// yamlTo decodes YAML into a protobuf message through JSON (protojson
// rejects unknown fields) and runs the message's ValidateAll.
func yamlTo(src string, m interface {
	proto.Message
	ValidateAll() error
}) error {
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		return err
	}
	js, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := protojson.Unmarshal(js, m); err != nil {
		return err
	}
	return m.ValidateAll()
}

// TestEnvoyYAML: every emitted route and cluster decodes into
// go-control-plane's RouteConfiguration and Cluster and passes
// ValidateAll, with the values the settings list; a budget above 100 %
// fails, so the check can fail.
func TestEnvoyYAML(t *testing.T) {
	var last configure.Plan
	for _, p := range plans(t) {
		if p.System != configure.Envoy {
			continue
		}
		last = p
		var rc routev3.RouteConfiguration
		if err := yamlTo(p.Snippet, &rc); err != nil {
			t.Errorf("route: %v\n%s", err, p.Snippet)
			continue
		}
		var c clusterv3.Cluster
		if err := yamlTo(p.Snippet2, &c); err != nil {
			t.Errorf("cluster: %v\n%s", err, p.Snippet2)
			continue
		}
		rb := c.GetCircuitBreakers().GetThresholds()[0].GetRetryBudget()
		if got := strconv.FormatFloat(rb.GetBudgetPercent().GetValue(), 'f', -1, 64); got != setting(t, p, "retry_budget.budget_percent") {
			t.Errorf("budget_percent %s, settings %s", got, setting(t, p, "retry_budget.budget_percent"))
		}
		if got := strconv.Itoa(int(rb.GetMinRetryConcurrency().GetValue())); got != setting(t, p, "retry_budget.min_retry_concurrency") {
			t.Errorf("min_retry_concurrency %s, settings %s", got, setting(t, p, "retry_budget.min_retry_concurrency"))
		}
		if rp := rc.GetVirtualHosts()[0].GetRoutes()[0].GetRoute().GetRetryPolicy(); rp != nil {
			if got := strconv.Itoa(int(rp.GetNumRetries().GetValue())); got != setting(t, p, "retry_policy.num_retries") {
				t.Errorf("num_retries %s, settings %s", got, setting(t, p, "retry_policy.num_retries"))
			}
		} else if setting(t, p, "retry_policy.num_retries") != "0" {
			t.Errorf("no retry_policy, settings %v", p.Settings)
		}
	}
	bad := strings.Replace(last.Snippet2, "{value: ", "{value: 1", 1)
	bad = strings.Replace(bad, "{value: 1", "{value: 150", 1)
	if err := yamlTo(bad, &clusterv3.Cluster{}); err == nil {
		t.Errorf("a budget of 150 %% passes ValidateAll: the check cannot fail\n%s", bad)
	}
}

// TestAWSStandardRetryer drives aws-sdk-go-v2's standard retryer with the
// options we emit at 100 % failure: it grants exactly floor(Q/c) retry
// tokens, the count behind the AWS outage bound, and then refuses.
func TestAWSStandardRetryer(t *testing.T) {
	for _, p := range plans(t) {
		if p.System != configure.AWSStandard && p.System != configure.AWSAdaptive {
			continue
		}
		n, _ := strconv.Atoi(setting(t, p, "max_attempts"))
		cost, _ := strconv.ParseFloat(setting(t, p, "RetryCost"), 64)
		capacity, _ := strconv.ParseFloat(setting(t, p, "RateLimiter capacity"), 64)
		std := retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = n
			o.RetryCost = uint(cost)
			o.RateLimiter = ratelimit.NewTokenRateLimit(uint(capacity))
		})
		if std.MaxAttempts() != n {
			t.Errorf("MaxAttempts %d, want %d", std.MaxAttempts(), n)
		}
		opErr := errors.New("boom")
		granted := 0
		for granted <= 100000 {
			if _, err := std.GetRetryToken(context.Background(), opErr); err != nil {
				break
			}
			granted++
		}
		if want := int(math.Floor(capacity / cost)); granted != want {
			t.Errorf("%s: the retryer granted %d retries at 100 %% failure, the bound counts floor(%v/%v) = %d", p.System, granted, capacity, cost, want)
		}
		if p.System == configure.AWSAdaptive {
			ad := retry.NewAdaptiveMode(func(a *retry.AdaptiveModeOptions) {
				a.StandardOptions = append(a.StandardOptions, func(o *retry.StandardOptions) { o.MaxAttempts = n })
			})
			if ad.MaxAttempts() != n {
				t.Errorf("adaptive MaxAttempts %d, want %d", ad.MaxAttempts(), n)
			}
		}
		// the Go snippet is Go: it parses as a function body
		src := "package p\nfunc f() {\n" + p.Snippet2 + "_, _ = cfg, err\n}\n"
		if _, err := parser.ParseFile(token.NewFileSet(), "snippet.go", src, 0); err != nil {
			t.Errorf("%s: the go-v2 snippet does not parse: %v\n%s", p.System, err, p.Snippet2)
		}
	}
}

// TestAWSSharedConfig: aws-sdk-go-v2's config module reads our shared
// config file's retry_mode and max_attempts.
func TestAWSSharedConfig(t *testing.T) {
	for _, k := range []string{"AWS_RETRY_MODE", "AWS_MAX_ATTEMPTS", "AWS_PROFILE", "AWS_CONFIG_FILE"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	for i, p := range plans(t) {
		if p.System != configure.AWSStandard && p.System != configure.AWSAdaptive {
			continue
		}
		path := filepath.Join(t.TempDir(), "config"+strconv.Itoa(i))
		if err := os.WriteFile(path, []byte(p.Snippet), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.LoadDefaultConfig(context.Background(), config.WithSharedConfigFiles([]string{path}),
			config.WithSharedCredentialsFiles([]string{}), config.WithRegion("eu-south-1"))
		if err != nil {
			t.Fatalf("%s: %v\n%s", p.System, err, p.Snippet)
		}
		want := aws.RetryModeStandard
		if p.System == configure.AWSAdaptive {
			want = aws.RetryModeAdaptive
		}
		if cfg.RetryMode != want || strconv.Itoa(cfg.RetryMaxAttempts) != setting(t, p, "max_attempts") {
			t.Errorf("%s: config read retry_mode %q, max_attempts %d; want %q, %s\n%s", p.System, cfg.RetryMode, cfg.RetryMaxAttempts,
				want, setting(t, p, "max_attempts"), p.Snippet)
		}
	}
}

// BenchmarkDefaults is the configure calculator's computation at its
// defaults: every system planned and simulated twice.
func BenchmarkDefaults(b *testing.B) {
	for b.Loop() {
		if _, err := configure.Compute(configure.Default(), 20261017); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDefaultsAllocs guards the simulation's storage: its events live in
// typed FIFOs (evQueue) and its buffers carry over from run to run (about 150
// allocations at the defaults, against 60,000 when each event was boxed
// for container/heap; the bound is generous).
func TestDefaultsAllocs(t *testing.T) {
	n := testing.AllocsPerRun(3, func() {
		if _, err := configure.Compute(configure.Default(), 20261017); err != nil {
			t.Fatal(err)
		}
	})
	if n > 2000 {
		t.Errorf("Compute at the defaults: %.0f allocations, want at most 2000", n)
	}
}
