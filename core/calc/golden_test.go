package calc

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenCases are article-1 computations whose whole JSON result is kept
// in testdata/golden/NAME.json: any change of a number or a field shows in
// review. `go test ./calc -run Golden -update` rewrites them.
var goldenCases = []struct{ file, calc, args string }{
	{"attempts", "attempts", ""},
	{"amplification", "amplification", ""},
	{"amplification-huge", "amplification", "attempts=100,100,100,100,100,100,100,100,100,99"},
	{"budget", "budget", ""},
	{"budget-depth-processes", "budget", "requests=1000 attempts=4 tokens=7 processes=3 order=depth"},
	{"jitter", "jitter", ""},
	{"jitter-fixed", "jitter", "strategy=fixed"},
	{"jitter-waves", "jitter", "clients=20 waves=4 strategy=decorrelated cap_ms=500 width_ms=25 seed=-18446744073709551617"},
	{"deadline", "deadline", ""},
	{"deadline-admission", "deadline", "attempts=4 waits_ms=0,100,300 deadline_ms=900 min_attempt_ms=120"},
	{"peak", "peak", ""},
	{"peak-large", "peak", "clients=2000 bins=100 threshold=40"},
	{"policies-small", "policies", "horizon_s=20 trigger_start_s=5 trigger_s=3 rate_per_s=50 slots=8 queue_cap=300 bin_s=2 policies=none,naive,grpc,aws"},
	{"policies-closed", "policies", "loop=closed clients=40 horizon_s=16 trigger_start_s=4 trigger_s=4 slots=4 bin_s=2 trigger=capacity policies=naive,envoy,finagle,sre-throttle"},
	{"configure", "configure", ""},
	{"configure-envoy-low", "configure", "system=envoy rps=50 clients=5 outage_s=30 failure_rate=0.3"},
}

func TestGolden(t *testing.T) {
	reg := New()
	for _, g := range goldenCases {
		t.Run(g.file, func(t *testing.T) {
			c, ok := reg.Lookup(g.calc)
			if !ok {
				t.Fatalf("no calculator %s", g.calc)
			}
			a, err := c.ParsePairs(strings.Fields(g.args))
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Run(a)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(res, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "golden", g.file+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s differs from %s (run with -update to accept):\n%s", g.calc, g.args, path, firstDiff(got, want))
			}
		})
	}
}

// firstDiff shows the first differing line.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + itoaGolden(i+1) + ": got  " + gl + "\n         want " + wl
		}
	}
	return ""
}

func itoaGolden(n int) string { return FormatFloat(float64(n)) }
