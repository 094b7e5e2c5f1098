package policies

// The AWS rule against aws-sdk-go-v2 v1.48.0 itself (a test-only
// dependency: no wasm module imports it, TestWasmLacksTestOnlyModules in
// wasm/playground checks): its standard retryer and token bucket, driven
// by the same sequence of outcomes as awsRule, must admit the same retries
// and hold the same quota after every operation.

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
)

// transientErr is a retryable error that is neither a throttle nor a
// timeout for the SDK (RetryableError() true: DefaultRetryables'
// RetryableError check).
type transientErr struct{}

func (transientErr) Error() string        { return "transient" }
func (transientErr) RetryableError() bool { return true }

// outcome of one attempt in the scripts.
type outcome uint8

const (
	okOut outcome = iota
	failOut
	timeoutOut
)

// awsScript returns n operations' attempt outcomes, failures clustered in
// an outage (so that the quota drains and refills): each operation has
// attempts outcomes, of which the rule and the SDK read what they use.
func awsScript(seed uint64, n, attempts int, timeouts bool) [][]outcome {
	r := rand.New(rand.NewPCG(seed, 7))
	ops := make([][]outcome, n)
	for i := range ops {
		pFail := 0.05
		if i > n/4 && i < n/2 {
			pFail = 0.9 // the outage
		}
		ops[i] = make([]outcome, attempts)
		for k := range ops[i] {
			switch {
			case r.Float64() >= pFail:
				ops[i][k] = okOut
			case timeouts && r.IntN(2) == 0:
				ops[i][k] = timeoutOut
			default:
				ops[i][k] = failOut
			}
		}
	}
	return ops
}

// sdkRun drives the SDK's Standard retryer as its retry middleware does
// (aws/retry/middleware.go, Attempt.handleAttempt at v1.48.0): the first
// attempt's token adds NoRetryIncrement on success; before each retry
// GetRetryToken takes the cost (a quota error ends the operation); a
// retry token is released with the retry's outcome (a refund on success).
// It returns, per operation, the attempts made and the quota after it.
func sdkRun(t *testing.T, s *retry.Standard, rl *ratelimit.TokenRateLimit, ops [][]outcome) (attempts []int, quota []uint) {
	ctx := context.Background()
	errOf := func(o outcome) error {
		if o == okOut {
			return nil
		}
		return transientErr{} // a timeout costs the same since 2026 (standard.go: RetryTimeoutCost unused)
	}
	for _, op := range ops {
		n := 1
		err := errOf(op[0])
		// the first attempt's token (GetAttemptToken: GetInitialToken's
		// successor, the same release for the first attempt of an operation)
		rel, aerr := s.GetAttemptToken(ctx)
		if aerr != nil || rel(err) != nil {
			t.Fatal("initial token release failed")
		}
		for err != nil && s.IsErrorRetryable(err) && n < s.MaxAttempts() {
			rel, terr := s.GetRetryToken(ctx, err)
			if terr != nil {
				var q ratelimit.QuotaExceededError
				if !errors.As(terr, &q) {
					t.Fatalf("GetRetryToken: %v", terr)
				}
				break
			}
			err = errOf(op[n])
			n++
			if rerr := rel(err); rerr != nil {
				t.Fatal(rerr)
			}
		}
		attempts = append(attempts, n)
		quota = append(quota, rl.Remaining())
	}
	return attempts, quota
}

// ruleRun drives awsRule the way the simulation does.
func ruleRun(p Preset, ops [][]outcome) (attempts []int, quota []uint) {
	u := newRule(p, 3)
	for _, op := range ops {
		n := 1
		o := op[0]
		u.done(0, false, o == okOut, o == timeoutOut, 0)
		for o != okOut && n < u.max() {
			ok, cost := u.retry(0, o == timeoutOut)
			if !ok {
				break
			}
			o = op[n]
			n++
			u.done(0, true, o == okOut, o == timeoutOut, cost)
		}
		attempts = append(attempts, n)
		quota = append(quota, uint(u.aws.quota))
	}
	return attempts, quota
}

func TestAWSAgainstSDK(t *testing.T) {
	for _, c := range []struct {
		name     string
		preset   Policy
		opts     func(*retry.StandardOptions)
		timeouts bool // the script holds timeouts (the SDK's 2026 cost is the same for them)
	}{
		// aws: standard mode as v1.48.0 ships it, every default kept.
		{"aws", AWS, func(*retry.StandardOptions) {}, true},
		// aws-2025: the costs before 2026 (5 per retry) set on the same
		// retryer; v1.48.0 no longer charges a timeout differently, so
		// this script has no timeouts (TestAWSQuota covers the 10).
		{"aws-2025", AWS2025, func(o *retry.StandardOptions) { o.RetryCost = 5 }, false},
	} {
		p, _ := Find(c.preset)
		for seed := range uint64(5) {
			ops := awsScript(seed, 2000, 3, c.timeouts)
			rl := ratelimit.NewTokenRateLimit(retry.DefaultRetryRateTokens)
			s := retry.NewStandard(func(o *retry.StandardOptions) { o.RateLimiter = rl }, c.opts)
			if s.MaxAttempts() != p.Attempts {
				t.Fatalf("%s: SDK attempts %d, preset %d", c.name, s.MaxAttempts(), p.Attempts)
			}
			wantN, wantQ := sdkRun(t, s, rl, ops)
			gotN, gotQ := ruleRun(p, ops)
			drained := false
			for i := range ops {
				if gotN[i] != wantN[i] || gotQ[i] != wantQ[i] {
					t.Fatalf("%s seed %d op %d: rule %d attempts, quota %d; SDK %d attempts, quota %d",
						c.name, seed, i, gotN[i], gotQ[i], wantN[i], wantQ[i])
				}
				drained = drained || wantQ[i] < 14
			}
			if !drained {
				t.Errorf("%s seed %d: the quota never ran out; the script tests too little", c.name, seed)
			}
		}
	}
}
