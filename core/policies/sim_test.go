package policies

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

const seed = 20261017

func run(t *testing.T, s Scenario, p Policy) Result {
	t.Helper()
	r, err := Run(s, p, seed)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, s, r)
	return r
}

func checkInvariants(t *testing.T, s Scenario, r Result) {
	t.Helper()
	// first attempts sent = requests not throttled at once
	if first := r.Attempts - r.Retries; first > r.Requests || first < r.Requests-r.Throttled {
		t.Errorf("%s: %d attempts, %d retries, %d requests, %d throttled", r.Policy, r.Attempts, r.Retries, r.Requests, r.Throttled)
	}
	if r.Succeeded > r.Requests || r.TimedOut+r.Rejected > r.Attempts {
		t.Errorf("%s: %d succeeded of %d, %d timed out and %d rejected of %d attempts", r.Policy, r.Succeeded, r.Requests, r.TimedOut, r.Rejected, r.Attempts)
	}
	if r.WastedS > r.BusyS+1e-9 || r.WastedS < 0 {
		t.Errorf("%s: wasted %v of busy %v s", r.Policy, r.WastedS, r.BusyS)
	}
	nb := len(r.Queue)
	if nb == 0 || len(r.Offered) != nb || len(r.Goodput) != nb || len(r.RetryRate) != nb || len(r.Share) != nb {
		t.Fatalf("%s: series of %d/%d/%d/%d/%d bins", r.Policy, len(r.Offered), len(r.Goodput), len(r.RetryRate), len(r.Share), nb)
	}
	for b := range nb {
		if r.Queue[b] > s.QueueCap || r.Queue[b] < 0 || r.RetryRate[b] > r.Offered[b] || r.Share[b] > 1 {
			t.Fatalf("%s bin %d: queue %d (cap %d), retries %v of %v offered, share %v", r.Policy, b, r.Queue[b], s.QueueCap, r.RetryRate[b], r.Offered[b], r.Share[b])
		}
	}
	if r.Recovered && (r.RecoveryS < 0 || r.RecoveryS > s.HorizonS) {
		t.Errorf("%s: recovery %v s", r.Policy, r.RecoveryS)
	}
	if max := maxAttempts(r.Policy, s); r.Attempts > r.Requests*max {
		t.Errorf("%s: %d attempts for %d requests, at most %d each", r.Policy, r.Attempts, r.Requests, max)
	}
}

func maxAttempts(p Policy, s Scenario) int {
	q, _ := Find(p)
	u := newRule(q, s.Attempts)
	return u.max()
}

// The claim, at the calculator's defaults: naive retries never
// recover within the horizon, no retries and every budget do; naive
// amplification is at least 2; each budget stays near its share.
func TestDefaultStory(t *testing.T) {
	s := Default()
	for _, p := range All() {
		r := run(t, s, p)
		amp := float64(r.Attempts) / float64(r.Requests)
		want := p != Naive && p != Backoff
		if p == GRPCHedge {
			// hedging adds copies and no budget stops the ones the deadline
			// ends: the service drains slowly (TestHedgeDrainsSlowly)
			continue
		}
		if r.Recovered != want {
			t.Errorf("%s: recovered %v, want %v (recovery %v s)", p, r.Recovered, want, r.RecoveryS)
		}
		// the share each budget allows, over the whole run
		limit := map[Policy]float64{
			None: 1, GRPC: 1.1, AWS: 1.1, SREBudget: 1.1, SREThrottle: 1.1,
			Envoy:   1.25, // 20% of the active requests, which include the retries
			Finagle: 1.2 + 10*s.HorizonS/float64(r.Requests),
		}
		if l, ok := limit[p]; ok && amp > l+0.005 {
			t.Errorf("%s: amplification %.3f above its share %.3f", p, amp, l)
		}
		if p == Naive && amp < 2 {
			t.Errorf("naive amplification %.3f, want >= 2", amp)
		}
		if r.Before < 0.99 {
			t.Errorf("%s: %.3f of requests succeed before the trigger, want about all", p, r.Before)
		}
	}
}

// The metastable state: after the trigger is over, naive retries keep the
// queue full and the goodput near zero to the end of the horizon; without
// retries, or with a budget, the queue empties and goodput comes back.
func TestMetastableAfterTrigger(t *testing.T) {
	s := Default()
	end := int(s.TriggerStartS + s.TriggerS)
	tail := func(r Result) (good, queue float64) {
		n := 0
		for b := len(r.Queue) - 10; b < len(r.Queue); b++ {
			good += r.Goodput[b]
			queue += float64(r.Queue[b])
			n++
		}
		return good / float64(n), queue / float64(n)
	}
	naive := run(t, s, Naive)
	g, q := tail(naive)
	if g > 0.2*s.RatePerS || q < 0.9*float64(s.QueueCap) {
		t.Errorf("naive, last 10 s: goodput %.1f/s, queue %.0f; want the storm to last (goodput < %.0f, queue near %d)", g, q, 0.2*s.RatePerS, s.QueueCap)
	}
	// The storm is self-sustained: well after the trigger, most attempts are retries.
	var off, ret float64
	for b := end + 10; b < len(naive.Offered); b++ {
		off += naive.Offered[b]
		ret += naive.RetryRate[b]
	}
	if ret < 0.5*off {
		t.Errorf("naive after the trigger: retries %.0f of %.0f attempts, want most", ret, off)
	}
	for _, p := range []Policy{None, GRPC, Envoy, Finagle, AWS, SREBudget, SREThrottle} {
		r := run(t, s, p)
		g, q := tail(r)
		if g < 0.9*s.RatePerS || q > 5 {
			t.Errorf("%s, last 10 s: goodput %.1f/s, queue %.0f; want recovered (about %.0f/s, empty)", p, g, q, s.RatePerS)
		}
	}
}

// Without the trigger nothing goes wrong, whatever the policy.
func TestNoTriggerNoStorm(t *testing.T) {
	s := Default()
	s.TriggerFactor = 1
	for _, p := range All() {
		r := run(t, s, p)
		if !r.Recovered || r.RecoveryS != 0 || float64(r.Succeeded) < 0.99*float64(r.Requests) {
			t.Errorf("%s without a trigger: recovered %v after %v s, %d of %d succeeded", p, r.Recovered, r.RecoveryS, r.Succeeded, r.Requests)
		}
	}
}

// Open and closed loop (Schroeder et al., NSDI 2006): the same trigger
// and the same naive retries hold an open system down, while a closed
// population, which waits for its answers, cannot send more than one
// request per user at a time and comes back.
func TestOpenVersusClosed(t *testing.T) {
	s := Default()
	open := run(t, s, Naive)
	s.Loop = Closed
	closed := run(t, s, Naive)
	if open.Recovered || !closed.Recovered {
		t.Errorf("naive: open recovered %v, closed recovered %v; want false, true", open.Recovered, closed.Recovered)
	}
	// Each user has one request, with up to Attempts calls queued (the
	// server keeps the ones it gave up on).
	for b, q := range closed.Queue {
		if q > s.Clients*s.Attempts {
			t.Fatalf("closed loop: %d queued at bin %d with %d users", q, b, s.Clients)
		}
	}
	// The closed loop slows down when the service does: fewer requests
	// than the same users send without a trigger.
	calm := s
	calm.TriggerFactor = 1
	if base := run(t, calm, Naive); closed.Requests >= base.Requests {
		t.Errorf("closed loop sent %d requests through the trigger, %d without; want fewer", closed.Requests, base.Requests)
	}
}

// A capacity drop is a trigger too.
func TestCapacityTrigger(t *testing.T) {
	s := Default()
	s.Trigger = Capacity
	if r := run(t, s, Naive); r.Recovered {
		t.Error("naive recovered from a capacity drop")
	}
	if r := run(t, s, None); !r.Recovered {
		t.Error("no retries did not recover from a capacity drop")
	}
}

func TestDeterministic(t *testing.T) {
	s := Default()
	a := run(t, s, SREThrottle)
	b := run(t, s, SREThrottle)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs with one seed differ")
	}
	c, _ := Run(s, SREThrottle, seed+1)
	if reflect.DeepEqual(a, c) {
		t.Fatal("two seeds give one result")
	}
	// Every policy sees the same arrivals.
	if n := run(t, s, None).Requests; n != a.Requests {
		t.Errorf("none saw %d requests, sre-throttle %d", n, a.Requests)
	}
}

func TestValidate(t *testing.T) {
	for name, f := range map[string]func(*Scenario){
		"Loop":          func(s *Scenario) { s.Loop = "half" },
		"RatePerS":      func(s *Scenario) { s.RatePerS = 0 },
		"ThinkMS":       func(s *Scenario) { s.Loop, s.ThinkMS = Closed, 0 },
		"Slots":         func(s *Scenario) { s.Slots = 0 },
		"ServiceMS":     func(s *Scenario) { s.ServiceMS = -1 },
		"QueueCap":      func(s *Scenario) { s.QueueCap = -1 },
		"TimeoutMS":     func(s *Scenario) { s.TimeoutMS = 0 },
		"Trigger":       func(s *Scenario) { s.Trigger = "" },
		"TriggerFactor": func(s *Scenario) { s.TriggerFactor = 0.5 },
		"BinS":          func(s *Scenario) { s.BinS = 0.001 },
		"TriggerStartS": func(s *Scenario) { s.TriggerStartS = 1 },
		"TriggerS":      func(s *Scenario) { s.TriggerS = 200 },
		"Attempts":      func(s *Scenario) { s.Attempts = 0 },
	} {
		s := Default()
		f(&s)
		_, err := Run(s, None, 1)
		fe, ok := errors.AsType[*FieldError](err)
		if !ok || fe.Field != name {
			t.Errorf("%s: error %v", name, err)
		}
	}
	if _, err := Run(Default(), "retry-forever", 1); err == nil {
		t.Error("an unknown policy ran")
	}
}

// TestShortestThink runs the closed loop at the shortest think time on a
// server that refuses most calls at once (one worker, no queue): users
// refused come back a moment later, and the run ends. (With ThinkMS 0,
// which Validate refuses, they came back at the same instant forever.)
func TestShortestThink(t *testing.T) {
	s := Default()
	s.Loop, s.Clients, s.ThinkMS, s.Slots, s.QueueCap = Closed, 10, 0.001, 1, 0
	s.HorizonS, s.BinS, s.TriggerStartS, s.TriggerS = 0.01, 0.001, 0.003, 0.003
	for _, p := range All() {
		r := run(t, s, p)
		if r.Rejected == 0 || r.Requests < s.Clients {
			t.Errorf("%s: %d requests, %d rejected: the server was meant to refuse most", p, r.Requests, r.Rejected)
		}
	}
}

// FuzzRun: any scenario Validate accepts runs to the end and keeps the
// invariants.
func FuzzRun(f *testing.F) {
	f.Add(140.0, 20, 100.0, 1000, 1000.0, 3.0, false, false, uint8(1), uint64(1))
	f.Add(5.0, 1, 10.0, 0, 5.0, 1.0, true, true, uint8(8), uint64(7))
	f.Fuzz(func(t *testing.T, rate float64, slots int, svc float64, qcap int, timeout, factor float64, closed, capacity bool, pol uint8, seed uint64) {
		s := Default()
		s.RatePerS, s.Slots, s.ServiceMS, s.QueueCap, s.TimeoutMS, s.TriggerFactor = rate, slots, svc, qcap, timeout, factor
		s.HorizonS, s.TriggerStartS, s.TriggerS = 20, 5, 5
		if closed {
			s.Loop, s.Clients = Closed, min(max(slots, 1), 500)
		}
		if capacity {
			s.Trigger = Capacity
		}
		// bound the work: at most 20,000 requests
		if s.RatePerS > 1000 || s.Slots > 1000 {
			return
		}
		p := All()[int(pol)%len(All())]
		r, err := Run(s, p, seed)
		if err != nil {
			if _, ok := errors.AsType[*FieldError](err); !ok {
				t.Fatalf("error %v is no *FieldError", err)
			}
			return
		}
		checkInvariants(t, s, r)
	})
}

// TestRunAllSameAsRun: RunAll, which draws the arrivals and service times
// once and reuses one run's memory for the next, returns what Run returns
// policy by policy, open and closed loop, latency and capacity triggers,
// in any order of the policies.
func TestRunAllSameAsRun(t *testing.T) {
	closed := Default()
	closed.Loop, closed.Clients, closed.ThinkMS = Closed, 200, 500
	capacity := Default()
	capacity.Trigger, capacity.QueueCap, capacity.BinS = Capacity, 50, 0.25
	rev := All()
	slices.Reverse(rev)
	for _, tc := range []struct {
		name string
		s    Scenario
		ps   []Policy
	}{
		{"default", Default(), All()},
		{"default reversed", Default(), rev},
		{"closed", closed, All()},
		{"capacity reversed", capacity, rev},
	} {
		all, err := RunAll(tc.s, tc.ps, 7)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range tc.ps {
			one, err := Run(tc.s, p, 7)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(all[i], one) {
				t.Errorf("%s, %s: RunAll differs from Run", tc.name, p)
			}
		}
	}
	if _, err := RunAll(Default(), []Policy{None, "nope"}, 1); err == nil {
		t.Error("RunAll accepted an unknown policy")
	}
}

// TestNsOf: nsOf rounds as math.Round on [0, 2^63).
func TestNsOf(t *testing.T) {
	xs := []float64{0, 0.5, 1.5, 2.5, 0.49999999999999994, 1 - 0x1p-53, 1e9 + 0.5, 0x1p52 + 1, 0x1p53, 0x1p62 + 0x1p10, 1e15 + 0.4999}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		xs = append(xs, r.ExpFloat64()*math.Pow(10, float64(r.IntN(15))))
	}
	for _, x := range xs {
		if got, want := nsOf(x), int64(math.Round(x)); got != want {
			t.Errorf("nsOf(%v) = %d, want %d", x, got, want)
		}
	}
}
