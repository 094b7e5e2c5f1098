package openclosed

import (
	"math"
	"testing"
)

func params(closed, backoff bool) Params {
	return Params{Closed: closed, Backoff: backoff, RatePerS: 40, PeakPerS: 80, SpikeStartS: 20, SpikeS: 5,
		HorizonS: 80, Attempts: 3, TimeoutS: 3, ServiceS: 1, SlopeS: 0.01, NetS: 0.1, BackoffBaseS: 10, ThinkS: 1}
}

// The same backoff cuts the work of the open population (without it the
// spike's timeouts feed retries that keep the server past its timeout
// after the spike) and hardly changes the closed one's, which slows down
// by itself when the server does.
func TestBackoffCutsWorkOnlyWhenOpen(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		on, ob := Run(params(false, false), seed), Run(params(false, true), seed)
		cn, cb := Run(params(true, false), seed), Run(params(true, true), seed)
		if ob.ServerS > 0.5*on.ServerS {
			t.Errorf("seed %d: open, server seconds %v with backoff, %v without: not cut", seed, ob.ServerS, on.ServerS)
		}
		if math.Abs(cb.ServerS-cn.ServerS) > 0.1*cn.ServerS {
			t.Errorf("seed %d: closed, server seconds %v with backoff, %v without: not about the same", seed, cb.ServerS, cn.ServerS)
		}
		if last := on.InProgress[len(on.InProgress)-1]; last < 500 {
			t.Errorf("seed %d: open without backoff ends with %d calls in progress, want a collapse", seed, last)
		}
	}
}

// Every request is counted once, with at least one and at most Attempts
// attempts; successes never exceed requests.
func TestCounts(t *testing.T) {
	for _, closed := range []bool{false, true} {
		for _, b := range []bool{false, true} {
			r := Run(params(closed, b), 3)
			if r.Attempts < r.Requests || r.Attempts > 3*r.Requests || r.Successes > r.Requests {
				t.Errorf("closed=%v backoff=%v: %d requests, %d attempts, %d successes", closed, b, r.Requests, r.Attempts, r.Successes)
			}
			sum := 0.0
			for _, a := range r.AttemptsPerS {
				sum += a
			}
			if int(sum) != r.Attempts {
				t.Errorf("bins hold %v attempts, total %d", sum, r.Attempts)
			}
		}
	}
}

// BenchmarkDefaults is the open-closed calculator's four runs at its
// defaults (core/calc openClosedCalc).
func BenchmarkDefaults(b *testing.B) {
	for b.Loop() {
		var r Runner
		for _, c := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			p := params(c[0], c[1])
			p.HorizonS = 60
			r.Run(p, 20261017)
		}
	}
}

// TestHeapOrder: the event heap pops in the order of the classic binary
// heap it replaced (swaps, sift-down towards the earlier child), ties
// included: random pushes and pops on few distinct times, each event told
// apart by its client.
func TestHeapOrder(t *testing.T) {
	var ref []event // the classic heap
	refPush := func(e event) {
		ref = append(ref, e)
		for i := len(ref) - 1; i > 0; {
			p := (i - 1) / 2
			if ref[p].t <= ref[i].t {
				break
			}
			ref[p], ref[i] = ref[i], ref[p]
			i = p
		}
	}
	refPop := func() event {
		top := ref[0]
		n := len(ref) - 1
		ref[0] = ref[n]
		ref = ref[:n]
		for i := 0; ; {
			l := 2*i + 1
			if l >= n {
				break
			}
			m := l
			if r := l + 1; r < n && ref[r].t < ref[l].t {
				m = r
			}
			if ref[i].t <= ref[m].t {
				break
			}
			ref[i], ref[m] = ref[m], ref[i]
			i = m
		}
		return top
	}
	s := &sim{p: Params{HorizonS: math.Inf(1)}}
	x := uint64(1)
	for k := range 200000 {
		x = x*6364136223846793005 + 1442695040888963407
		if len(ref) == 0 || x>>62 != 0 {
			e := event{t: float64(x >> 59), client: int32(k)}
			refPush(e)
			s.push(e)
			continue
		}
		if got, want := s.pop(), refPop(); got != want {
			t.Fatalf("pop %d: %+v, want %+v", k, got, want)
		}
	}
}
