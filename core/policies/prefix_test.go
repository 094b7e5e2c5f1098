package policies

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"retrylab/core/meter"
)

// TestPrefixSameAsRun: RunAll, which simulates once the start that the
// policies' runs share (runPrefix), returns what Run returns policy by
// policy, and tells its meter of as many attempts, on random open-loop
// scenarios: failures before the trigger or none, a queue that refuses
// the first failing call, latency and capacity triggers.
func TestPrefixSameAsRun(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ps := All()
	n := 24
	if testing.Short() {
		n = 6
	}
	for i := range n {
		s := Default()
		s.HorizonS, s.BinS = 30, 1
		s.TriggerStartS, s.TriggerS = float64(2+r.IntN(15)), float64(1+r.IntN(8))
		s.RatePerS = float64(20 + r.IntN(200))
		s.Slots = 1 + r.IntN(30)
		s.ServiceMS = float64(10 + r.IntN(150))
		s.QueueCap = r.IntN(100)
		s.TimeoutMS = float64(100 + r.IntN(1500))
		s.TriggerFactor = 1 + 4*r.Float64()
		s.Attempts = 1 + r.IntN(5)
		if r.IntN(3) == 0 {
			s.Trigger = Capacity
		}
		switch i {
		case 0: // no failure: the prefix is the whole run
			s.RatePerS, s.Slots, s.ServiceMS, s.TimeoutMS, s.TriggerFactor = 50, 20, 50, 2000, 1
		case 1: // the first failure is a refusal, early
			s.RatePerS, s.Slots, s.ServiceMS, s.QueueCap, s.TimeoutMS = 100, 10, 90, 0, 2000
		}
		seed := r.Uint64()
		var shared, alone int64
		all, err := RunAllMeter(s, ps, seed, meter.New(func(n int64) bool { shared += n; return false }))
		if err != nil {
			t.Fatalf("%d: %+v: %v", i, s, err)
		}
		for j, p := range ps {
			one, err := RunAllMeter(s, []Policy{p}, seed, meter.New(func(n int64) bool { alone += n; return false }))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(all[j], one[0]) {
				t.Errorf("%d: %+v, %s: RunAll differs from Run", i, s, p)
			}
		}
		if shared != alone {
			t.Errorf("%d: %+v: RunAll told its meter of %d attempts, the runs one by one %d", i, s, shared, alone)
		}
	}
}

// TestPrefixStops: at the defaults, the shared prefix is the warm-up: it
// stops at the first timeout, after the trigger's start.
func TestPrefixStops(t *testing.T) {
	s := Default()
	p := runPrefix(s, &arrStream{r: rand.New(rand.NewPCG(20261017, 0x61727269766573)), keep: true},
		&svcStream{r: rand.New(rand.NewPCG(20261017, 0x73657276696365)), keep: true}, nil)
	if at := p.m.timeouts.top; at < p.m.trigA || at > p.m.trigB+p.m.timeout {
		t.Errorf("the prefix stopped at %d ns, not at a timeout of the trigger [%d, %d]", at, p.m.trigA, p.m.trigB+p.m.timeout)
	}
}

// TestRequestFits: request's narrow fields hold what they count, for every
// preset at the most attempts a Scenario allows, and it is 32 bytes.
func TestRequestFits(t *testing.T) {
	if n := unsafe.Sizeof(request{}); n != 32 {
		t.Errorf("a request is %d bytes, not 32", n)
	}
	if MaxBins > math.MaxInt16 {
		t.Errorf("MaxBins %d does not fit request.bin", MaxBins)
	}
	for _, q := range Presets() {
		n := q.Name.MaxAttempts(10)
		if n > math.MaxInt16 || (q.HedgeDelayMS > 0 && n > math.MaxUint8) {
			t.Errorf("%s: %d attempts do not fit request.attempts or request.live", q.Name, n)
		}
	}
}
