package policies

import "testing"

// bigScenario is a 10-minute outage at 1,000 requests per second: 600,000
// requests, about 70% utilization (143 workers of 100 ms), the trigger of
// Default scaled to 30 s from t = 60 s.
func bigScenario() Scenario {
	s := Default()
	s.RatePerS, s.Slots, s.QueueCap, s.HorizonS = 1000, 143, 7000, 600
	s.TriggerStartS, s.TriggerS = 60, 30
	return s
}

// BenchmarkSixHundredThousand runs every policy on bigScenario as the
// calculator does (RunAll): make bench (core/bench/policies.sh) holds it
// to one second per op.
func BenchmarkSixHundredThousand(b *testing.B) {
	s := bigScenario()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunAll(s, All(), 20261017); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDefault runs every policy on Default, as the calculator does
// (RunAll).
func BenchmarkDefault(b *testing.B) {
	s := Default()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunAll(s, All(), 20261017); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOneByOne runs every policy on Default with Run.
func BenchmarkOneByOne(b *testing.B) {
	s := Default()
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range All() {
			if _, err := Run(s, p, 20261017); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkShown runs the policies of the widget's default selection on
// Default, as the calculator does at its defaults (RunAll).
func BenchmarkShown(b *testing.B) {
	s := Default()
	ps := Shown()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunAll(s, ps, 20261017); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShownTraced is BenchmarkShown with the trace the flow view
// draws (RunTraced, 400 marks a policy, site/widget's flowLaneMarks), as
// the policies article's first widget runs it.
func BenchmarkShownTraced(b *testing.B) {
	s := Default()
	ps := Shown()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := RunTraced(s, ps, 20261017, 400); err != nil {
			b.Fatal(err)
		}
	}
}
