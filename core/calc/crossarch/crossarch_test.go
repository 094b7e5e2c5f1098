package crossarch

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"retrylab/core/calc"
)

var update = flag.Bool("update", false, "rewrite testdata/calculators.golden (on amd64 only)")

// extra are hand-picked parameter sets, on top of the generated ones:
// the ones of calc's own goldens and some where the maths is delicate
// (tails near the float64 limits, large sums of exponentials).
var extra = []struct{ calc, args string }{
	{"amplification", "attempts=100,100,100,100,100,100,100,100,100,99"},
	{"budget", "requests=1000 attempts=4 tokens=7 processes=3 order=depth"},
	{"jitter", "clients=20 waves=4 strategy=decorrelated cap_ms=500 width_ms=25 seed=-18446744073709551617"},
	{"deadline", "attempts=4 waits_ms=0,100,300 deadline_ms=900 min_attempt_ms=120"},
	{"peak", "clients=2000 bins=100 threshold=40"},
	{"peak", "clients=1000 bins=10 threshold=150"},
	{"peak", "clients=500 bins=50 threshold=30"},
	{"peak", "clients=100000 bins=10000 threshold=40"},
	{"peak", "clients=30 bins=7 threshold=0"},
	{"attempts", "q=0.999 n=50"},
	{"attempts", "q=0.37 n=7"},
	{"attempts", "q=0.9999 n=1000"},
}

type tcase struct{ calc, args string }

// cases lists, for every calculator: its defaults; each numeric parameter
// alone at its slider's (or its range's) low and high end; each choice;
// then the extra sets.
func cases(reg *calc.Registry) []tcase {
	var out []tcase
	for _, c := range reg.List() {
		out = append(out, tcase{c.Name, ""})
		for i := range c.Params {
			p := &c.Params[i]
			for _, v := range edgeValues(p) {
				out = append(out, tcase{c.Name, p.Name + "=" + v})
			}
			for _, ch := range p.Choices {
				if ch != p.Default {
					out = append(out, tcase{c.Name, p.Name + "=" + ch})
				}
			}
		}
	}
	for _, e := range extra {
		out = append(out, tcase(e))
	}
	return out
}

// edgeValues returns the low and high end of a numeric parameter's form
// slider, or of its range where it has no slider, as it would be typed.
func edgeValues(p *calc.Param) []string {
	if p.Kind != calc.Int && p.Kind != calc.Float {
		return nil
	}
	lo, hi := p.SliderMin, p.SliderMax
	if lo == 0 && p.Min.Set {
		lo = p.Min.V
	}
	if hi == 0 && p.Max.Set {
		hi = p.Max.V
	}
	if p.Min.Open && lo == p.Min.V || p.Max.Open && hi == p.Max.V || hi <= lo {
		return nil
	}
	var out []string
	for _, v := range []float64{lo, hi, (lo + hi) / 3} {
		if p.Kind == calc.Int {
			v = float64(int64(v))
		}
		s := calc.FormatFloat(v)
		if s != p.Default && (len(out) == 0 || out[len(out)-1] != s) {
			out = append(out, s)
		}
	}
	return out
}

// run renders one case: the result as compact JSON, or the error.
func run(reg *calc.Registry, tc tcase) string {
	c, ok := reg.Lookup(tc.calc)
	if !ok {
		return "no such calculator"
	}
	a, err := c.ParsePairs(strings.Fields(tc.args))
	if err != nil {
		return "error: " + err.Error()
	}
	res, err := c.Run(a)
	if err != nil {
		return "error: " + err.Error()
	}
	b, err := json.Marshal(res)
	if err != nil {
		return "json error: " + err.Error()
	}
	if len(b) > maxLine {
		return fmt.Sprintf("sha256 %x (%d bytes of JSON)", sha256.Sum256(b), len(b))
	}
	return string(b)
}

// maxLine is the longest result kept verbatim in the golden file; longer
// ones are kept as their SHA-256, to keep the file small.
const maxLine = 2000

func render() []byte {
	reg := calc.New()
	var b bytes.Buffer
	b.WriteString("# every calculator's result, written on amd64 by `go test ./calc/crossarch -update`,\n")
	b.WriteString("# compared byte for byte under GOOS=js GOARCH=wasm by `make wasmtest`.\n")
	for _, tc := range cases(reg) {
		fmt.Fprintf(&b, "== %s %s\n%s\n", tc.calc, tc.args, run(reg, tc))
	}
	return b.Bytes()
}

func TestSameOnEveryArch(t *testing.T) {
	path := filepath.Join("testdata", "calculators.golden")
	got := render()
	if *update {
		if runtime.GOARCH != "amd64" {
			t.Fatalf("the golden file is written natively on amd64, this is %s", runtime.GOARCH)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run on amd64 with -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	g, w := lines(got), lines(want)
	bad := 0
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			bad++
			if bad <= 10 {
				t.Errorf("%s:%d on %s/%s (case %s):\n got %s\nwant %s", path, i+1, runtime.GOOS, runtime.GOARCH, caseOf(w, i), gl, wl)
			}
		}
	}
	t.Errorf("%d lines differ from %s; if a calculator changed on purpose, regenerate it on amd64 with -update", bad, path)
}

func lines(b []byte) []string {
	var out []string
	s := bufio.NewScanner(bytes.NewReader(b))
	s.Buffer(nil, 1<<24)
	for s.Scan() {
		out = append(out, s.Text())
	}
	return out
}

// caseOf returns the "== calc args" header above line i.
func caseOf(l []string, i int) string {
	for ; i >= 0 && i < len(l); i-- {
		if strings.HasPrefix(l[i], "== ") {
			return strings.TrimPrefix(l[i], "== ")
		}
	}
	return "?"
}

// TestCasesCoverRegistry: every calculator has its defaults in the
// golden, and every case is unique.
func TestCasesCoverRegistry(t *testing.T) {
	reg := calc.New()
	seen := map[tcase]bool{}
	byCalc := map[string]int{}
	for _, tc := range cases(reg) {
		if seen[tc] {
			t.Errorf("case %s %q twice", tc.calc, tc.args)
		}
		seen[tc] = true
		byCalc[tc.calc]++
	}
	for _, c := range reg.List() {
		if !seen[tcase{c.Name, ""}] {
			t.Errorf("calculator %s has no defaults case", c.Name)
		}
	}
	if len(byCalc) != len(reg.List()) {
		t.Errorf("cases name %d calculators, the registry has %d", len(byCalc), len(reg.List()))
	}
}
