package calc

import (
	"strings"
	"testing"
)

// TestServerCheck: the request and the largest values of each
// heavy calculator are refused by the shared server with CodeServer,
// naming the page and the command line; the defaults and the CLI's own
// refusals are left to Run.
func TestServerCheck(t *testing.T) {
	reg := New()
	tests := []struct {
		pairs   string
		refused bool
		param   string
	}{
		{"dispatch jobs=100000 max_attempts=4 headroom=2 max_output_tokens=13 prompt_tokens=0 tpm_limit=18937700 max_concurrency=160 latency_s=14 base_s=3600 cap_s=86400 p_5xx=1 reconcile_s=0", true, "jobs"},
		{"dispatch jobs=100000 max_attempts=20", false, ""}, // Run's own bound refuses it
		{"dispatch", false, ""},
		{"jitter clients=1000000 waves=5", true, "clients"},
		{"jitter clients=100 base_ms=100000 width_ms=1", true, "clients"}, // 100,000 bins: 0.8 MB
		{"jitter", false, ""},
		{"backoff workers=100000 max_attempts=30 max_elapsed_s=86400 cap_s=86400 width_s=1", true, "workers"},
		{"backoff", false, ""},
		{"peak clients=5000 bins=100 threshold=70", true, "clients"},
		{"peak clients=2000 bins=100 threshold=40", false, ""},
		{"peak clients=100000 bins=10000 threshold=30", false, ""}, // exact values not computed: cheap
		{"attempts n=1000", false, ""},
		// issue 28: the corners that cost seconds before a bound
		{"policies rate_per_s=25000 horizon_s=6 timeout_ms=0.001 trigger_s=3 trigger_start_s=1 attempts=10", true, "horizon_s"},
		{"policies loop=closed clients=100000 think_ms=1000 horizon_s=5 timeout_ms=0.001 attempts=10", true, "horizon_s"},
		{"policies", false, ""},
		{"timeouts calls=100000 max_output_tokens=40", true, "calls"},
		{"timeouts", false, ""},
	}
	for _, tt := range tests {
		f := strings.Fields(tt.pairs)
		c, _ := reg.Lookup(f[0])
		a, err := c.ParsePairs(f[1:])
		if err != nil {
			t.Fatalf("%s: %v", tt.pairs, err)
		}
		e := c.ServerCheck(a, 1, "/it/embed/"+c.Name+"/?x")
		if (e != nil) != tt.refused {
			t.Errorf("%.60s: refused %v, want %v", tt.pairs, e, tt.refused)
			continue
		}
		if e == nil {
			continue
		}
		if e.Code != CodeServer || e.Param != tt.param || !strings.Contains(e.Message, "/it/embed/"+c.Name+"/?x") ||
			!strings.Contains(e.Message, "retrylab calc "+c.Name+" ") || strings.Contains(e.Message, "\n") {
			t.Errorf("%.60s: %s %s %q", tt.pairs, e.Code, e.Param, e.Message)
		}
	}
}

// TestServerCheckScale: a server that accepts half the work refuses at
// half the bound, and says so.
func TestServerCheckScale(t *testing.T) {
	c, _ := New().Lookup("dispatch")
	a, err := c.ParsePairs([]string{"jobs=3000", "max_attempts=4"}) // 24,000 calls with the fallback
	if err != nil {
		t.Fatal(err)
	}
	for _, scale := range []float64{0, 1, 2, -1} {
		if e := c.ServerCheck(a, scale, "/"); e != nil {
			t.Errorf("scale %g: %v", scale, e)
		}
	}
	e := c.ServerCheck(a, 0.5, "/")
	if e == nil || e.Vars["max"] != "20000" || e.Vars["count"] != "24000" {
		t.Errorf("scale 0.5: %v", e)
	}
	// a machine faster than the calibration's may accept more (retrylab
	// serve -work-scale), up to a hundred times
	big, _ := c.ParsePairs([]string{"jobs=7500", "max_attempts=4"}) // 60,000
	for _, tt := range []struct {
		scale   float64
		refused bool
	}{{1, true}, {2, false}, {100, false}, {101, true}} {
		if e := c.ServerCheck(big, tt.scale, "/"); (e != nil) != tt.refused {
			t.Errorf("60,000 at scale %g: %v, want refused %v", tt.scale, e, tt.refused)
		}
	}
}

func TestCommandLine(t *testing.T) {
	reg := New()
	tests := []struct{ calc, pairs, want string }{
		{"attempts", "q=0.9 n=5", "retrylab calc attempts n=5 q=0.9"},
		{"attempts", "", "retrylab calc attempts"},
		{"idempotency-key", `tenant=it's task=a$b`, `retrylab calc idempotency-key 'task=a$b' 'tenant=it'\''s'`},
		{"amplification", "attempts=1,2", "retrylab calc amplification attempts=1,2"},
	}
	for _, tt := range tests {
		c, _ := reg.Lookup(tt.calc)
		a, err := c.ParsePairs(strings.Fields(tt.pairs))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.CommandLine(a); got != tt.want {
			t.Errorf("%s %s: %q, want %q", tt.calc, tt.pairs, got, tt.want)
		}
	}
}

// TestSmallRefusals: invalid UTF-8 in a text parameter, a seed with too
// many digits.
func TestSmallRefusals(t *testing.T) {
	compute := func(name string, pairs []string) error {
		_, err := New().Compute(name, pairsMap(pairs))
		return err
	}
	checkRefusals(t, compute, []refusal{
		{"idempotency-key", []string{"tenant=\xff"}, "tenant", CodeEncoding},
		{"idempotency-key", []string{"task=ok\xfe"}, "task", CodeEncoding},
		{"idempotency-key", []string{"tenant=\xed\xa0\x80"}, "tenant", CodeEncoding}, // a surrogate
		{"jitter", []string{"seed=" + strings.Repeat("7", 4097)}, "seed", CodeDigits},
		{"backoff", []string{"seed=-" + strings.Repeat("1", 4097)}, "seed", CodeDigits},
	})
	for _, s := range []string{strings.Repeat("7", 4096), "-" + strings.Repeat("7", 4096)} {
		if err := compute("jitter", []string{"seed=" + s}); err != nil {
			t.Errorf("seed of %d bytes: %v", len(s), err)
		}
	}
	if err := compute("idempotency-key", []string{"tenant=città 租户"}); err != nil {
		t.Errorf("valid UTF-8 refused: %v", err)
	}
	_, err := New().Compute("jitter", pairsMap([]string{"seed=" + strings.Repeat("7", 4097)}))
	if e := err.(*Error); e.Vars["max"] != "4096" || e.Vars["count"] != "4097" {
		t.Errorf("digits vars %v", e.Vars)
	}
	_, err = New().Compute("idempotency-key", pairsMap([]string{"tenant=ab\xffc"}))
	if e := err.(*Error); e.Vars["byte"] != "2" {
		t.Errorf("utf8 vars %v", e.Vars)
	}
}

// TestDeadlineWaitsInRange: the waits the result lists when waits_ms is
// not given are values waits_ms accepts, up to 100 attempts.
func TestDeadlineWaitsInRange(t *testing.T) {
	c, _ := New().Lookup("deadline")
	for _, n := range []string{"3", "25", "26", "30", "100"} {
		res, err := c.Compute(pairsMap([]string{"attempts=" + n}))
		if err != nil {
			t.Fatal(err)
		}
		waits := res.(DeadlineResult).WaitsMS
		var texts []string
		for _, w := range waits {
			texts = append(texts, FormatFloat(w))
		}
		if _, err := c.Compute(pairsMap([]string{"attempts=" + n, "waits_ms=" + strings.Join(texts, ",")})); err != nil {
			t.Errorf("attempts=%s: its own waits_ms refused: %v", n, err)
		}
	}
}

func pairsMap(pairs []string) map[string][]string {
	m := map[string][]string{}
	for _, kv := range pairs {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = append(m[k], v)
	}
	return m
}
