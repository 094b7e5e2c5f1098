package limits

import (
	"errors"
	"fmt"
	"testing"
)

func TestTrace(t *testing.T) {
	a := Config{RPM: 600, TPM: 300000} // workload A: 1,000 calls of 200 tokens
	b := Config{RPM: 600, TPM: 300000} // workload B: 100 calls of 5,000 tokens
	tests := []struct {
		name        string
		c           Config
		f           Flow
		firstDelayS float64 // the first step with a delayed call ends after this, s
		refused     bool    // some call is refused
		emptyBucket string  // "requests" or "tokens": the bucket that runs dry
	}{
		{"A binds on requests", a, Flow{CallsPerMin: 1000, Tokens: 200, HorizonS: 120, MaxWaitS: 5, Steps: 120}, 89, true, "requests"},
		{"B binds on tokens", b, Flow{CallsPerMin: 100, Tokens: 5000, HorizonS: 120, MaxWaitS: 5, Steps: 120}, 89, true, "tokens"},
		{"within both limits", a, Flow{CallsPerMin: 500, Tokens: 200, HorizonS: 120, MaxWaitS: 5, Steps: 60}, -1, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps, err := tt.c.Trace(tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) != tt.f.Steps || steps[len(steps)-1].T != tt.f.HorizonS {
				t.Fatalf("%d steps ending at %v, want %d ending at %v", len(steps), steps[len(steps)-1].T, tt.f.Steps, tt.f.HorizonS)
			}
			total, admitted, firstDelay, refused := 0, 0, -1.0, 0
			minReq, minTok := 1e18, 1e18
			for _, s := range steps {
				total += s.Admitted + s.Delayed + s.Refused
				admitted += s.Admitted + s.Delayed
				refused += s.Refused
				if s.Delayed > 0 && firstDelay < 0 {
					firstDelay = s.T
				}
				minReq, minTok = min(minReq, s.Requests), min(minTok, s.Tokens)
			}
			if want := int(tt.f.CallsPerMin * tt.f.HorizonS / 60); total != want {
				t.Errorf("%d calls in the trace, want %d", total, want)
			}
			rb, tb := tt.c.Bursts()
			// nothing is admitted beyond the burst plus the refill (a call
			// admitted at the end may wait up to MaxWaitS for it)
			if most := float64(rb) + tt.c.RPM*(tt.f.HorizonS+tt.f.MaxWaitS)/60; float64(admitted) > most {
				t.Errorf("%d calls admitted, more than the request bucket allows (%v)", admitted, most)
			}
			if most := float64(tb) + tt.c.TPM*(tt.f.HorizonS+tt.f.MaxWaitS)/60; float64(admitted*tt.f.Tokens) > most {
				t.Errorf("%d tokens admitted, more than the token bucket allows (%v)", admitted*tt.f.Tokens, most)
			}
			if (tt.firstDelayS < 0) != (firstDelay < 0) || firstDelay >= 0 && firstDelay < tt.firstDelayS {
				t.Errorf("first delay at %v s, want after %v (-1: none)", firstDelay, tt.firstDelayS)
			}
			if (refused > 0) != tt.refused {
				t.Errorf("%d refused, want some: %v", refused, tt.refused)
			}
			switch tt.emptyBucket {
			case "requests":
				if minReq > 1 || minTok < 1 {
					t.Errorf("lowest levels %v requests, %v tokens: the request bucket should run dry alone", minReq, minTok)
				}
			case "tokens":
				if minTok > float64(tt.f.Tokens) || minReq < 1 {
					t.Errorf("lowest levels %v requests, %v tokens: the token bucket should run dry alone", minReq, minTok)
				}
			default:
				if minReq < 1 || minTok < float64(tt.f.Tokens) {
					t.Errorf("lowest levels %v requests, %v tokens: neither should run dry", minReq, minTok)
				}
			}
		})
	}
}

func TestTraceRefuses(t *testing.T) {
	c := Config{RPM: 600, TPM: 300000}
	for _, f := range []Flow{
		{CallsPerMin: 1e9, Tokens: 1, HorizonS: 120, Steps: 10},
		{CallsPerMin: 10, Tokens: 1, HorizonS: 120, Steps: 0},
		{CallsPerMin: 10, Tokens: 1, HorizonS: 120, Steps: MaxTraceSteps + 1},
	} {
		if _, err := c.Trace(f); !errors.Is(err, ErrTraceTooLarge) {
			t.Errorf("%+v: err %v, want ErrTraceTooLarge", f, err)
		}
	}
	for _, f := range []Flow{
		{CallsPerMin: -1, HorizonS: 1, Steps: 1},
		{CallsPerMin: 1, HorizonS: 0, Steps: 1},
		{CallsPerMin: 1, HorizonS: 1, MaxWaitS: -1, Steps: 1},
		{CallsPerMin: 1, Tokens: -1, HorizonS: 1, Steps: 1},
	} {
		if _, err := c.Trace(f); err == nil {
			t.Errorf("%+v: no error", f)
		}
	}
	// a call larger than the token bucket is refused, never waited for
	steps, err := c.Trace(Flow{CallsPerMin: 60, Tokens: 400000, HorizonS: 10, Steps: 1})
	if err != nil || steps[0].Refused != 10 || steps[0].Admitted+steps[0].Delayed != 0 {
		t.Errorf("too large calls: %+v, %v; want 10 refused", steps, err)
	}
}

func ExampleConfig_Trace() {
	// workload A of the article: 1,000 calls a minute against 600 RPM
	c := Config{RPM: 600, TPM: 300000}
	steps, _ := c.Trace(Flow{CallsPerMin: 1000, Tokens: 200, HorizonS: 120, MaxWaitS: 5, Steps: 4})
	for _, s := range steps {
		fmt.Printf("%3.0f s: %4.0f requests left, %d at once, %d after a wait, %d refused\n", s.T, s.Requests, s.Admitted, s.Delayed, s.Refused)
	}
	// Output:
	//  30 s:  400 requests left, 500 at once, 0 after a wait, 0 refused
	//  60 s:  200 requests left, 500 at once, 0 after a wait, 0 refused
	//  90 s:    0 requests left, 498 at once, 2 after a wait, 0 refused
	// 120 s:  -49 requests left, 0 at once, 349 after a wait, 151 refused
}
