package dispatch

import (
	"reflect"
	"testing"
)

// TestTrace: a traced run's Result is Run's; traced whole (a sample of
// every job), its calls, 429s, completions and stops add up to the
// Result's counts; sampled, it holds at most maxJobs jobs spread by the
// stride, each with its calls in time order.
func TestTrace(t *testing.T) {
	naive := Default()
	naive.Mode = ModeNaive
	deadline := Default()
	deadline.Mode = ModeNaive
	deadline.DeadlineS = 30
	faults := Default()
	faults.P5xx, faults.PDrop, faults.Idempotency, faults.Fallback = 0.1, 0.05, true, true
	for name, c := range map[string]Config{"dispatcher": Default(), "naive": naive, "deadline": deadline, "faults": faults} {
		t.Run(name, func(t *testing.T) {
			want, err := Run(c, rng(5))
			if err != nil {
				t.Fatal(err)
			}
			got, tr, err := RunTraced(c, rng(5), c.Jobs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatal("RunTraced's result differs from Run's")
			}
			if tr.Stride != 1 || len(tr.Jobs) != c.Jobs {
				t.Fatalf("stride %d, %d jobs", tr.Stride, len(tr.Jobs))
			}
			calls, r429, done, stopped := 0, 0, 0, 0
			for i, jb := range tr.Jobs {
				calls += len(jb.Calls)
				prev := jb.ArrivalS
				for _, cl := range jb.Calls {
					if cl.StartS < prev || cl.EndS < cl.StartS {
						t.Fatalf("job %d: calls out of order %+v (arrival %v)", i, jb.Calls, jb.ArrivalS)
					}
					prev = cl.EndS
					if cl.Status == StatusRateLimited {
						r429++
					}
				}
				n := len(jb.Calls)
				ok := n > 0 && (jb.Calls[n-1].Status == StatusOK || jb.Calls[n-1].Status == StatusReplay)
				switch {
				case ok && jb.StoppedS < 0:
					done++
				case !ok && jb.StoppedS >= 0:
					stopped++
				default:
					t.Fatalf("job %d: completed %v, stopped at %v", i, ok, jb.StoppedS)
				}
			}
			gaveUp := 0
			for _, n := range got.GaveUp {
				gaveUp += n
			}
			if calls != got.Requests || r429 != got.RateLimited || done != got.Completed || stopped != got.DeadLetters+gaveUp {
				t.Errorf("trace: %d calls, %d 429s, %d completed, %d stopped; result %d, %d, %d, %d+%d",
					calls, r429, done, stopped, got.Requests, got.RateLimited, got.Completed, got.DeadLetters, gaveUp)
			}
			_, small, _ := RunTraced(c, rng(5), 40)
			if len(small.Jobs) > 40 || small.Stride < c.Jobs/40 {
				t.Errorf("sample of 40: %d jobs, stride %d", len(small.Jobs), small.Stride)
			}
			for i, jb := range small.Jobs {
				if jb.Job != i*small.Stride || !reflect.DeepEqual(jb, tr.Jobs[jb.Job]) {
					t.Fatalf("sampled job %d differs from the same job traced whole", jb.Job)
				}
			}
		})
	}
}

// TestTraceAllocs holds a traced naive run at the defaults (the flow
// view's other mode) to its untraced allocations and a few more: the
// trace's calls come from one log, not a growing slice a job (that was
// about 500 allocations more a run, dear in WebAssembly).
func TestTraceAllocs(t *testing.T) {
	c := Default()
	c.Mode = ModeNaive
	plain := testing.AllocsPerRun(2, func() {
		if _, err := Run(c, rng(20261017)); err != nil {
			t.Fatal(err)
		}
	})
	traced := testing.AllocsPerRun(2, func() {
		if _, _, err := RunTraced(c, rng(20261017), 400); err != nil {
			t.Fatal(err)
		}
	})
	if traced > plain+10 {
		t.Errorf("RunTraced: %v allocations, Run %v: want at most 10 more", traced, plain)
	}
}
