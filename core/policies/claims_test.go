package policies

import "testing"

// articleScenarios are the outages whose verdicts the third article
// states (content/<lang>/policies.md: the widgets and calc blocks storm,
// closed, long and short, and the capacity trigger of its exercises).
func articleScenarios() map[string]Scenario {
	storm := Default()
	closed := Default()
	closed.Loop = Closed
	long := Default()
	long.TriggerS = 15
	short := long
	short.QueueCap = 200
	capacity := Default()
	capacity.Trigger = Capacity
	return map[string]Scenario{"storm": storm, "closed": closed, "long": long, "short": short, "capacity": capacity}
}

// TestClaimsHold: every verdict the article can state (recovered or not,
// for every preset in every scenario it shows) is the same with three
// times the horizon, and with twice the warm-up before the trigger. A
// verdict that flips depends on where the run stops or on how empty the
// windows were, not on the policy.
func TestClaimsHold(t *testing.T) {
	for name, s := range articleScenarios() {
		base, err := RunAll(s, All(), seed)
		if err != nil {
			t.Fatal(err)
		}
		longer := s
		longer.HorizonS = 3 * s.HorizonS
		warmer := s
		warmer.TriggerStartS = 2 * s.TriggerStartS
		warmer.HorizonS = s.HorizonS + s.TriggerStartS
		for _, v := range []struct {
			what string
			s    Scenario
		}{{"3× the horizon", longer}, {"twice the warm-up", warmer}} {
			rs, err := RunAll(v.s, All(), seed)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range rs {
				if r.Policy == GRPCHedge {
					continue // no verdict stated: TestHedgeDrainsSlowly
				}
				if r.Recovered != base[i].Recovered {
					t.Errorf("%s, %s: recovered %v, with %s %v", name, r.Policy, base[i].Recovered, v.what, r.Recovered)
				}
			}
		}
	}
}

// TestEarlyArtefact: the article's "early" block (content/<lang>/policies.md)
// reruns the 15-second outage with the old timing, the trigger after 10 s
// and a 60-second run, and says that Envoy's and Finagle's budgets are
// still draining when it stops and that adaptive throttling, with ten
// seconds of history, has not recovered; with the default warm-up and
// horizon every one of them recovers, and so they do with the old start
// and three times the horizon.
func TestEarlyArtefact(t *testing.T) {
	ps := []Policy{None, Envoy, Finagle, SREThrottle}
	early := Default()
	early.TriggerStartS, early.TriggerS, early.HorizonS, early.BinS = 10, 15, 60, 1
	rs, err := RunAll(early, ps, seed)
	if err != nil {
		t.Fatal(err)
	}
	if !rs[0].Recovered || rs[1].Recovered || !rs[1].Draining || rs[2].Recovered || !rs[2].Draining || rs[3].Recovered {
		t.Errorf("60 s from t = 10 s: recovered %v %v %v %v, draining %v %v", rs[0].Recovered, rs[1].Recovered, rs[2].Recovered, rs[3].Recovered, rs[1].Draining, rs[2].Draining)
	}
	longer := early
	longer.HorizonS = 3 * early.HorizonS
	long := Default()
	long.TriggerS = 15
	for _, s := range []Scenario{longer, long} {
		rs, err := RunAll(s, ps, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if !r.Recovered {
				t.Errorf("trigger at %v s, horizon %v s: %s does not recover", s.TriggerStartS, s.HorizonS, r.Policy)
			}
		}
	}
}

// TestHedgeDrainsSlowly: A6's hedging example (a copy every 0.5 s, up to
// four, within a 1 s deadline) on the default outage keeps the queue long
// well after the trigger: calls that end by the deadline are
// DEADLINE_EXCEEDED, which the throttle does not count, so nothing stops
// the copies. It is not recovered at the default horizon and recovers at
// three times it: its verdict depends on the horizon, and the article
// states none (the methods page says so); the test holds both facts.
func TestHedgeDrainsSlowly(t *testing.T) {
	s := Default()
	r := run(t, s, GRPCHedge)
	if r.Recovered || r.Attempts <= r.Requests {
		t.Errorf("hedging at the default horizon: recovered %v, %d attempts for %d requests", r.Recovered, r.Attempts, r.Requests)
	}
	s.HorizonS *= 3
	if r := run(t, s, GRPCHedge); !r.Recovered {
		t.Error("hedging does not recover at three times the horizon")
	}
}
