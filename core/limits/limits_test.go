package limits

import (
	"fmt"
	"math"
	"testing"
)

func TestCheckArticleWorkloads(t *testing.T) {
	tests := []struct {
		name         string
		calls, toks  float64
		rpmOK, tpmOK bool
		binding      Binding
		tokensPerMin float64
	}{
		{"A: short classification", 1000, 200, false, true, BindingRPM, 200000},
		{"B: long documents", 100, 5000, true, false, BindingTPM, 500000},
		{"both at the limit", 600, 500, true, true, BindingBoth, 300000},
		{"idle", 0, 0, true, true, BindingBoth, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := Check(600, 300000, tt.calls, tt.toks)
			if u.RPMOK != tt.rpmOK || u.TPMOK != tt.tpmOK || u.Binding != tt.binding || u.TokensPerMin != tt.tokensPerMin {
				t.Errorf("Check(600, 300000, %v, %v) = %+v", tt.calls, tt.toks, u)
			}
		})
	}
}

func TestCapacity(t *testing.T) {
	tests := []struct {
		tpm, rpm        float64
		prompt, out     int
		perMin, spacing float64
		whole           int
		binding         Binding
	}{
		{120000, 0, 4000, 1000, 24, 2.5, 24, BindingTPM},
		{120000, 10, 4000, 1000, 10, 6, 10, BindingRPM},
		{120000, 24, 4000, 1000, 24, 2.5, 24, BindingBoth},
		{100000, 0, 2000, 1000, 100000.0 / 3000, 60 / (100000.0 / 3000), 33, BindingTPM},
		{0, 30, 4000, 1000, 30, 2, 30, BindingRPM},
	}
	for _, tt := range tests {
		c := CapacityOf(tt.tpm, tt.rpm, tt.prompt, tt.out)
		if c.ReservedTokens != tt.prompt+tt.out || c.RequestsPerMin != tt.perMin || c.WholeRequestsPerMin != tt.whole ||
			math.Abs(c.SecondsBetweenRequests-tt.spacing) > 1e-12 || c.Binding != tt.binding {
			t.Errorf("CapacityOf(%v, %v, %d, %d) = %+v", tt.tpm, tt.rpm, tt.prompt, tt.out, c)
		}
	}
	if c := CapacityOf(0, 0, 10, 10); c.Binding != BindingNone || !math.IsInf(c.RequestsPerMin, 1) {
		t.Errorf("no limits: %+v", c)
	}
}

func TestInFlight(t *testing.T) {
	tests := []struct {
		rpm, latency     float64
		cap              int
		inFlight, capped float64
		throughput       float64
		limitedBy        string
	}{
		{60, 20, 0, 20, 20, 60, "rate"},
		{60, 90, 0, 90, 90, 60, "rate"},
		{60, 90, 20, 90, 20, 20 * 60.0 / 90, "concurrency"},
		{60, 20, 20, 20, 20, 60, "rate"},
		{60, 20, 30, 20, 20, 60, "rate"},
	}
	for _, tt := range tests {
		f := InFlight(tt.rpm, tt.latency, tt.cap)
		if f.InFlight != tt.inFlight || f.InFlightCapped != tt.capped || math.Abs(f.ThroughputPerMin-tt.throughput) > 1e-12 || f.LimitedBy != tt.limitedBy {
			t.Errorf("InFlight(%v, %v, %d) = %+v", tt.rpm, tt.latency, tt.cap, f)
		}
	}
}

func ExampleCapacityOf() {
	c := CapacityOf(120000, 0, 4000, 1000)
	fmt.Println(c.ReservedTokens, c.RequestsPerMin, c.SecondsBetweenRequests, c.Binding)
	// Output: 5000 24 2.5 tpm
}

func ExampleInFlight() {
	fmt.Println(InFlight(60, 20, 0).InFlight, InFlight(60, 90, 0).InFlight)
	// Output: 20 90
}

// TestEstimate: an estimate 20 % low admits more than the provider allows
// (the excess is 429s), one 20 % high leaves capacity idle, an exact one
// neither; correction leaves only the calls in flight uncorrected.
func TestEstimate(t *testing.T) {
	for _, tt := range []struct {
		bias                       float64
		reserved, admitted, reject float64
		unused                     float64
	}{
		{0, 5000, 24, 0, 0},
		{-0.2, 4200, 120000.0 / 4200, 120000.0/4200 - 24, 0},
		{0.25, 6000, 20, 0, 1 - 5000.0/6000},
	} {
		e := EstimateOf(120000, 4000, 1000, tt.bias, 20)
		if e.ReservedPerCall != tt.reserved || e.CountedPerCall != 5000 || e.PossiblePerMin != 24 ||
			math.Abs(e.AdmittedPerMin-tt.admitted) > 1e-12 || math.Abs(e.RejectedPerMin-tt.reject) > 1e-12 ||
			math.Abs(e.UnusedShare-tt.unused) > 1e-12 || e.InFlight != 8 {
			t.Errorf("bias %v: %+v", tt.bias, e)
		}
		if want := 8 * math.Max(0, 5000-tt.reserved); e.CorrectedOverrunTokens != want {
			t.Errorf("bias %v: corrected overrun %v, want %v", tt.bias, e.CorrectedOverrunTokens, want)
		}
	}
}
