package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestCalcArticle1 runs each article-1 calculator with no parameter and
// checks the article's figure in the JSON the command prints.
func TestCalcArticle1(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"attempts", "q=0.1"}, []string{`"expected_attempts":1.11`, `"success_probability":0.999`}},
		{[]string{"attempts", "q=0.9"}, []string{`"expected_attempts":2.71`, `"success_probability":0.271}`}}, // 1-0.9^3 in float64 is 0.2709999999999999, rounded to 15 digits
		{[]string{"amplification"}, []string{`"calls_per_level":[3,9,27]`, `"final_calls":27`}},
		{[]string{"amplification", "attempts=1,1,3"}, []string{`"final_calls":3,`}},
		{[]string{"budget"}, []string{`"total_attempts":120`, `"attempts_histogram":[80,20,0]`, `"unbudgeted_total":300`}},
		{[]string{"budget", "processes=10"}, []string{`"retries":200`}},
		{[]string{"jitter"}, []string{`"counts":[9,7,9,12,14,14,7,11,6,11]`, `"peak":14,`, `"total":100,`}},
		{[]string{"jitter", "strategy=fixed"}, []string{`"counts":[0,0,0,0,0,0,0,0,0,0,100]`, `"peak_bin_start_ms":100,`}},
		{[]string{"deadline"}, []string{`"worst_case_ms":750`, `"remaining_before_attempt_ms":[600,350,50]`, `"attempt_budget_ms":[200,200,50]`}},
		{[]string{"peak"}, []string{`"single_bin_tail":0.0000130728`, `"union_bound":0.000130728`}},
	} {
		code, out, errOut := runCLI(append([]string{"calc"}, c.args...)...)
		if code != 0 || errOut != "" || !strings.HasSuffix(out, "}\n") || strings.Count(out, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", c.args, code, errOut, out)
			continue
		}
		if !json.Valid([]byte(out)) {
			t.Errorf("%v: not JSON: %s", c.args, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: %s lacks %s", c.args, out, w)
			}
		}
	}
}

// TestCalcBadInput: exit 2, nothing on stdout, exactly one line on stderr
// that names the parameter and, where there is one, its range.
func TestCalcBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string // substrings of the one line
	}{
		{[]string{"attempts", "q=1.5"}, []string{"q", "[0, 1]", `"1.5"`}},
		{[]string{"attempts", "q=abc"}, []string{"q", "number", "[0, 1]"}},
		{[]string{"attempts", "q=NaN"}, []string{"q", "finite", "[0, 1]"}},
		{[]string{"attempts", "q=-Inf"}, []string{"q", "finite"}},
		{[]string{"attempts", "q="}, []string{"q", "[0, 1]"}},
		{[]string{"attempts", "n=2.5"}, []string{"n", "integer", "[1, 1000]"}},
		{[]string{"amplification", "attempts="}, []string{"attempts", "1 to 10 elements"}},
		{[]string{"amplification", "attempts=3,101"}, []string{"attempts", "[1, 100]", `"101"`}},
		{[]string{"budget", "order=random"}, []string{"order", "rounds, depth"}},
		{[]string{"budget", "requests=0"}, []string{"requests", "[1, 1000000]"}},
		{[]string{"jitter", "seed=12.5"}, []string{"seed", "integer"}},
		{[]string{"jitter", "seed=abc"}, []string{"seed", "integer"}},
		{[]string{"jitter", "clients=1000000", "waves=30"}, []string{"clients", "5000000"}},
		{[]string{"jitter", "width_ms=0.00001"}, []string{"width_ms", "100000"}},
		{[]string{"jitter", "width_ms=0"}, []string{"width_ms", "(0, 10000000]"}},
		{[]string{"jitter", "cap_ms=10"}, []string{"cap_ms", "base_ms"}},
		{[]string{"jitter", "speed=3"}, []string{"speed", "clients, base_ms"}},
		{[]string{"jitter", "clients=5", "clients=6"}, []string{"clients", "more than once"}},
		{[]string{"jitter", "clients"}, []string{"key=value"}},
		{[]string{"deadline", "waits_ms=50,100,200"}, []string{"waits_ms", "2 values"}},
		{[]string{"peak", "threshold=200"}, []string{"threshold", "[0, 100]"}},
		{[]string{"peak", "bins=1e9"}, []string{"bins", "[1, 10000]"}},
		{[]string{"nosuch"}, []string{"nosuch", "attempts", "peak"}},
	} {
		code, out, errOut := runCLI(append([]string{"calc"}, c.args...)...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasSuffix(errOut, "\n") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: %q lacks %q", c.args, errOut, w)
			}
		}
		if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
			t.Errorf("%v: %q", c.args, errOut)
		}
	}
}

func TestCalcHelpAndList(t *testing.T) {
	code, out, _ := runCLI("calc")
	for _, name := range []string{"attempts", "amplification", "budget", "jitter", "deadline", "peak"} {
		if code != 0 || !strings.Contains(out, name) {
			t.Fatalf("list: exit %d, %q lacks %s", code, out, name)
		}
	}
	code, out, _ = runCLI("calc", "jitter", "-h")
	for _, w := range []string{"seed", "an integer of any size and sign", "base_ms × 2^(waves-1)", "one of fixed, full, equal, decorrelated", "ms"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Fatalf("help: exit %d, %q lacks %q", code, out, w)
		}
	}
}
