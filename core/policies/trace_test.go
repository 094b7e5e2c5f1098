package policies

import (
	"reflect"
	"testing"
)

// TestTraceCounters holds the trace's counters to the Result: the last
// frame's totals are the Result's, the queue in every bin is Result.Queue,
// the answers in time added in a bin are the goodput series', and the
// Results themselves are RunAll's (tracing changes nothing).
func TestTraceCounters(t *testing.T) {
	closed := Default()
	closed.Loop = Closed
	capacity := Default()
	capacity.Trigger = Capacity
	small := Default()
	small.QueueCap = 5
	for _, tc := range []struct {
		name string
		s    Scenario
	}{{"default", Default()}, {"closed", closed}, {"capacity", capacity}, {"small queue", small}} {
		t.Run(tc.name, func(t *testing.T) {
			ps := All()
			want, err := RunAll(tc.s, ps, 7)
			if err != nil {
				t.Fatal(err)
			}
			got, trs, err := RunTraced(tc.s, ps, 7, 300)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatal("RunTraced's results differ from RunAll's")
			}
			for i, r := range got {
				c := trs[i].Counters
				n := len(c.TS)
				if c.Served[n-1] != r.Succeeded || c.Retries[n-1] != r.Retries || c.WastedS[n-1] != r.WastedS || c.InFlight[n-1] != 0 || c.Queue[n-1] != 0 {
					t.Errorf("%s: last frame served %d retries %d wasted %v in flight %d queue %d; result %d %d %v",
						r.Policy, c.Served[n-1], c.Retries[n-1], c.WastedS[n-1], c.InFlight[n-1], c.Queue[n-1], r.Succeeded, r.Retries, r.WastedS)
				}
				if n < len(r.Queue) {
					t.Fatalf("%s: %d frames for %d bins", r.Policy, n, len(r.Queue))
				}
				prev := 0
				for b := range r.Queue {
					if c.Queue[b] != r.Queue[b] {
						t.Fatalf("%s: bin %d: queue %d, result %d", r.Policy, b, c.Queue[b], r.Queue[b])
					}
					if d := float64(c.Served[b]-prev) * (1 / tc.s.BinS); d != r.Goodput[b] { // as the result: count × per second
						t.Fatalf("%s: bin %d: %v answers/s, result %v", r.Policy, b, d, r.Goodput[b])
					}
					prev = c.Served[b]
				}
				for k := range c.InFlight {
					if c.InFlight[k] < 0 || c.Queue[k] < 0 || c.Queue[k] > c.InFlight[k]+tc.s.QueueCap {
						t.Fatalf("%s: frame %d: in flight %d queue %d", r.Policy, k, c.InFlight[k], c.Queue[k])
					}
				}
			}
		})
	}
}

// TestTraceSample checks the sample: bounded, spread by the stride, the
// same for a seed, each attempt's times in order and its outcome
// consistent with them.
func TestTraceSample(t *testing.T) {
	s := Default()
	_, a, err := RunTraced(s, []Policy{Naive, Envoy}, 3, 200)
	if err != nil {
		t.Fatal(err)
	}
	_, b, _ := RunTraced(s, []Policy{Naive, Envoy}, 3, 200)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two traces of one seed differ")
	}
	for _, tr := range a {
		if len(tr.Marks) == 0 || len(tr.Marks) > 200 {
			t.Fatalf("%d marks, want 1..200", len(tr.Marks))
		}
		if want := 140 * 60 / 200; tr.Stride < want {
			t.Errorf("stride %d, want at least %d", tr.Stride, want)
		}
		retries := 0
		for i, k := range tr.Marks {
			if k.Req != i*tr.Stride {
				t.Fatalf("mark %d is request %d, want %d", i, k.Req, i*tr.Stride)
			}
			if len(k.Attempts) == 0 {
				t.Fatalf("request %d: no attempt", k.Req)
			}
			for j, at := range k.Attempts {
				if at.Retry != (j > 0) {
					t.Fatalf("request %d attempt %d: retry %v", k.Req, j, at.Retry)
				}
				if !(at.SentS <= at.StartS && at.StartS <= at.EndS && at.SentS <= at.DoneS) {
					t.Fatalf("request %d attempt %d: times out of order %+v", k.Req, j, at)
				}
				if j > 0 && at.SentS < k.Attempts[j-1].DoneS {
					t.Fatalf("request %d attempt %d sent before the previous one ended", k.Req, j)
				}
				if (at.Outcome == Served) != (j == len(k.Attempts)-1 && k.Served()) {
					t.Fatalf("request %d: served attempt %d is not its last", k.Req, j)
				}
				if j > 0 {
					retries++
				}
			}
		}
		if tr.Stride == 0 {
			t.Fatal("stride 0")
		}
		_ = retries
	}
	// naive retries during the storm: the sample holds some
	n := 0
	for _, k := range a[0].Marks {
		n += len(k.Attempts) - 1
	}
	if n == 0 {
		t.Error("naive's sample holds no retry")
	}
}

// TestTracedAllocs holds a traced RunAll of the shown policies at the
// defaults (the policies article's first widget, flow view) to the
// allocations of its results and shared working memory: about 525, where
// a growing slice per sampled request's attempts and per tracer made it
// 4,700 (the collector is far dearer in WebAssembly, issue 30).
func TestTracedAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("a traced run of every shown policy")
	}
	s, ps := Default(), Shown()
	n := testing.AllocsPerRun(1, func() {
		if _, _, err := RunTraced(s, ps, 20261017, 400); err != nil {
			t.Fatal(err)
		}
	})
	if n > 700 {
		t.Errorf("RunTraced at the defaults: %v allocations, want at most 700", n)
	}
}
