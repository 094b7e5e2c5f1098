package dispatch

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden pins whole results of a few runs: any change to the model,
// or to the order of the draws, shows up here as a diff to review. Run
// `go test ./core/dispatch -run Golden -update` after an intended change.
func TestGolden(t *testing.T) {
	cases := map[string]func(*Config){
		"dispatcher": func(c *Config) {},
		"naive":      func(c *Config) { c.Mode = ModeNaive },
		"overbooked": func(c *Config) { c.Headroom, c.Jobs, c.MaxAttempts = 1.5, 300, 2 },
		"drops-without-table": func(c *Config) {
			c.Jobs, c.PDrop, c.Idempotency, c.ArrivalPerMin, c.Samples = 200, 0.2, false, 20, 20
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			c := Default()
			f(&c)
			r := run(t, c, 20261017)
			got, err := json.MarshalIndent(r, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
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
			if string(got) != string(want) {
				t.Errorf("%s differs from %s; if the change is intended, run with -update and review the diff", name, path)
			}
		})
	}
}
