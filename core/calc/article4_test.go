package calc

import (
	"math"
	"testing"
)

// The defaults reproduce the shape of Brooker's 2015 figures: exponential
// backoff without jitter is the slowest at 100 clients, and full jitter
// makes far fewer writes than no backoff; calls never fall below one per
// client.
func TestContentionShapes(t *testing.T) {
	r := mustCompute(t, "contention").(ContentionResult)
	if r.Slowest != "exponential" {
		t.Errorf("slowest at %d clients: %s, want exponential (%v)", r.Clients, r.Slowest, r.TimeMS)
	}
	if r.NoneOverFullCalls < 2 {
		t.Errorf("no backoff makes %v times full jitter's writes, want far more", r.NoneOverFullCalls)
	}
	for i, n := range r.ClientsAxis {
		if r.CallsFull[i] < float64(n) || r.CallsNone[i] < float64(n) {
			t.Errorf("%d clients: fewer writes than clients (%v, %v)", n, r.CallsFull[i], r.CallsNone[i])
		}
	}
	if len(r.ClientsAxis) != 10 || r.ClientsAxis[0] != 10 || r.ClientsAxis[9] != 190 {
		t.Errorf("axis %v, want 10, 30, …, 190", r.ClientsAxis)
	}
}

// Brooker 2022's shapes: at full failure N retries multiply the load by
// N+1; the token bucket keeps it near 1 with few large clients and not
// with many small ones.
func TestStrategiesShapes(t *testing.T) {
	few := mustCompute(t, "retry-strategies", "failure_rate=1").(StrategiesResult)
	many := mustCompute(t, "retry-strategies", "failure_rate=1", "clients=5000").(StrategiesResult)
	if few.Load[1] != 4 {
		t.Errorf("3 retries at full failure: load %v, want 4", few.Load[1])
	}
	if few.Load[2] > 1.05 || many.Load[2] < 3 {
		t.Errorf("token bucket at full failure: load %v with 10 clients (want near 1), %v with 5000 (want near 4)", few.Load[2], many.Load[2])
	}
	if few.Load[0] != 1 || few.SuccessRate[1] != 0 {
		t.Errorf("no retries load %v, success %v", few.Load[0], few.SuccessRate[1])
	}
}

// The same backoff cuts the server's work under the open population and
// barely changes it under the closed one.
func TestOpenClosedShape(t *testing.T) {
	r := mustCompute(t, "open-closed").(OpenClosedResult)
	if r.WorkCutOpen < 0.5 || math.Abs(r.WorkCutClosed) > 0.1 {
		t.Errorf("work cut by backoff: open %v (want > 0.5), closed %v (want about 0)", r.WorkCutOpen, r.WorkCutClosed)
	}
	if r.InProgressEnd[0] < 10*r.InProgressEnd[1] {
		t.Errorf("open population without backoff should still be collapsed at the end: %v", r.InProgressEnd)
	}
}

// At the defaults the chain is bistable, the arrival rate lies in the
// metastable region of the sweep, and the simulation's band holds the
// exact drain time; far below the region the queue is unimodal and drains
// fast.
func TestMetastableDefaults(t *testing.T) {
	r := mustCompute(t, "metastable").(MetastableResult)
	if !r.Bimodal || r.RegionFrom == nil || r.RegionTo == nil || *r.RegionFrom > r.Lambda || *r.RegionTo < r.Lambda {
		t.Errorf("bimodal %v, region %v–%v, λ %v", r.Bimodal, r.RegionFrom, r.RegionTo, r.Lambda)
	}
	if !r.ExactInBand || r.SimCensored != 0 {
		t.Errorf("exact %v, simulated %v–%v, %d censored", r.DrainS, *r.SimLowS, *r.SimHighS, r.SimCensored)
	}
	for i := 1; i < len(r.SweepDrainS); i++ {
		if r.SweepDrainS[i] <= r.SweepDrainS[i-1] {
			t.Errorf("drain time falls from λ=%v to %v", r.SweepLambda[i-1], r.SweepLambda[i])
		}
	}
	low := mustCompute(t, "metastable", "lambda=5", "sim_runs=0").(MetastableResult)
	if low.Bimodal || low.DrainS > r.DrainS/5 || low.SimDrainS != nil {
		t.Errorf("λ=5: bimodal %v, drain %v (λ=8.5: %v), sim %v", low.Bimodal, low.DrainS, r.DrainS, low.SimDrainS)
	}
}

func TestArticle4Refusals(t *testing.T) {
	checkRefusals(t, func(name string, pairs []string) error {
		_, err := New().Compute(name, pairsValues(pairs))
		return err
	}, []refusal{
		{"contention", []string{"cap_ms=1", "base_ms=5"}, "cap_ms", CodeConstraint},
		{"contention", []string{"runs=1000", "max_clients=1000", "step=5"}, "runs", CodeWork},
		{"contention", []string{"max_clients=1000", "step=1", "runs=1"}, "step", CodeConstraint},
		{"retry-strategies", []string{"requests=10000000", "points=200", "retries=20"}, "requests", CodeWork},
		{"retry-strategies", []string{"failure_rate=1.5"}, "failure_rate", CodeRange},
		{"open-closed", []string{"slope_s=0.1"}, "slope_s", CodeConstraint},
		{"open-closed", []string{"horizon_s=3600", "peak_per_s=10000", "rate_per_s=10000", "slope_s=0"}, "horizon_s", CodeWork},
		{"metastable", []string{"sweep_to=1"}, "sweep_to", CodeConstraint},
		{"metastable", []string{"queue=2000", "orbit=2000"}, "queue", CodeWork},
	})
}
