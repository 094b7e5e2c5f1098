package dispatch

import "testing"

// The cumulative series of 429s and retries run beside the depth series:
// same length, never decreasing, never above the run's totals, and the
// naive run's 429s do show up in them.
func TestCumulativeSeries(t *testing.T) {
	for _, tc := range []struct {
		mode    Mode
		samples int
	}{{ModeDispatcher, 200}, {ModeNaive, 200}, {ModeNaive, 7}, {ModeDispatcher, 2}} {
		c := Default()
		c.Mode, c.Samples = tc.mode, tc.samples
		r := run(t, c, 20261017)
		n := len(r.DepthT)
		if len(r.DepthRateLimited) != n || len(r.DepthRetries) != n || n > tc.samples {
			t.Fatalf("%s/%d: lengths %d %d %d", tc.mode, tc.samples, n, len(r.DepthRateLimited), len(r.DepthRetries))
		}
		for i := 1; i < n; i++ {
			if r.DepthRateLimited[i] < r.DepthRateLimited[i-1] || r.DepthRetries[i] < r.DepthRetries[i-1] {
				t.Fatalf("%s: series decreases at %d", tc.mode, i)
			}
		}
		if n > 0 && (r.DepthRateLimited[n-1] > r.RateLimited || r.DepthRetries[n-1] > r.Retries) {
			t.Errorf("%s: series end above the totals", tc.mode)
		}
		if tc.mode == ModeNaive && tc.samples == 200 && r.DepthRateLimited[n-1] == 0 {
			t.Errorf("naive: no 429 in the series, %d in the run", r.RateLimited)
		}
	}
}
