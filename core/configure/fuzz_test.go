package configure

import (
	"math"
	"testing"
)

// FuzzBounds: for any traffic the calculator accepts (kept small enough to
// simulate quickly), choosing never panics, every bound is finite and at
// least the first attempts' share, and the simulation at 100 % failure
// never exceeds the outage bound.
func FuzzBounds(f *testing.F) {
	f.Add(1000.0, uint16(20), 50.0, 1000.0, 1.1, 0.05, uint8(3), 30.0)
	f.Add(3.0, uint16(1), 0.5, 1.5, 2.0, 0.5, uint8(10), 5.0)
	f.Add(50.0, uint16(5), 900.0, 1000.0, 1.01, 0.3, uint8(5), 30.0)
	f.Fuzz(func(t *testing.T, rps float64, clients uint16, lat, timeout, amp, fail float64, attempts uint8, outage float64) {
		tr := Traffic{RPS: rps, Clients: int(clients), LatencyMS: lat, TimeoutMS: timeout, Headroom: 1.5, MaxAmp: amp,
			FailureRate: fail, Attempts: int(attempts), OutageS: outage}
		if tr.Validate() != nil || SimWork(tr) > 100_000 || lat > 1e6 || timeout > 1e6 || amp > 10 || outage > 1000 {
			return
		}
		d := derive(tr)
		for _, s := range Systems() {
			p, mk := choose(tr, d, s)
			if math.IsNaN(p.OutageBound) || math.IsInf(p.OutageBound, 0) || math.IsNaN(p.RateBound) || p.RateBound < 1-1e-9 {
				t.Fatalf("%s %+v: bounds %v, %v", s, tr, p.OutageBound, p.RateBound)
			}
			run := simulate(tr, mk(), warmup(s, d.PerClientRPS, d.OKS), 1, 1)
			if got := run.Amplification(); got > p.OutageBound+1e-9 {
				t.Fatalf("%s %+v: simulated %v > outage bound %v (%s)", s, tr, got, p.OutageBound, p.Formula)
			}
		}
	})
}
