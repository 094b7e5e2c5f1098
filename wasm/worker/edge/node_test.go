//go:build e2e

// The edge layer's JavaScript, run by node: behind the e2e tag, since
// `go test ./...` needs Go alone.

package edge

import (
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/server"
	"retrylab/wasm/internal/nodejs"
	"retrylab/wasm/worker/parity"
)

func node(t *testing.T) string {
	t.Helper()
	return nodejs.Path(t, "test the Worker's edge layer (worker/edge/*.mjs)")
}

// TestNode runs the edge layer's own tests (edge.test.mjs) with node's
// test runner: the LRU's bounds, one entry for equivalent queries, 304
// from the cache, the Cache API keyed by version.
func TestNode(t *testing.T) {
	out, err := exec.Command(node(t), "--test", "edge.test.mjs").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test edge.test.mjs: %v\n%s", err, out)
	}
}

// TestKeysAgreeWithGo runs edge.mjs's canonicalKey on the real
// calculators' table (Data) over every good request of worker/parity, in
// several spellings, and holds it to site/server's APIKey: where edge.mjs
// computes a key it is Go's, and it computes one for every request that
// sets only number, boolean and choice parameters; then 3,000 random
// spellings, some refused, where a key edge.mjs computes must be Go's.
func TestKeysAgreeWithGo(t *testing.T) {
	reg := calc.New()
	dir := t.TempDir()
	d, err := Data(reg, "v1")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("edge.mjs")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "edge.mjs"), src, 0o644)
	os.WriteFile(filepath.Join(dir, RulesFile), Rules(), 0o644)
	os.WriteFile(filepath.Join(dir, "edge-data.mjs"), d, 0o644)
	os.WriteFile(filepath.Join(dir, "keys.mjs"), []byte(`
import { canonicalKey } from "./edge.mjs";
import data from "./edge-data.mjs";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([rest, q]) => canonicalKey(data, rest, q))));
`), 0o644)

	type tc struct {
		rest, query string
		want        string // Go's key; "" when Go refuses the parameters
		simple      bool   // only number, boolean and choice parameters set
	}
	var cases []tc
	add := func(c *calc.Calculator, svg bool, lang string, values url.Values, raw string) {
		rest := c.Name
		if svg {
			rest += ".svg"
		}
		want := ""
		if a, err := c.Parse(values); err == nil {
			want = server.APIKey(c.Name, a, svg, lang)
		}
		simple := true
		for k := range values {
			if p := c.Param(k); p == nil || kind(p.Kind) == "other" || len(values[k]) != 1 {
				simple = false
			}
		}
		cases = append(cases, tc{rest, raw, want, simple})
	}
	for _, c := range reg.List() {
		for _, r := range parity.Good(c) {
			add(c, false, "", r.Query, r.Query.Encode())
			// explicit defaults, reversed order, spaces around
			all := url.Values{}
			var parts []string
			for _, p := range c.Params {
				v := p.Default
				if vs, ok := r.Query[p.Name]; ok {
					v = vs[0]
				}
				if v == "" && p.Optional {
					continue
				}
				all[p.Name] = []string{v}
				parts = append([]string{url.QueryEscape(p.Name) + "=" + url.QueryEscape(" "+v+" ")}, parts...)
			}
			add(c, false, "", all, strings.Join(parts, "&"))
			// numbers in another spelling: +V e0 (and each list element)
			spelled := url.Values{}
			for k, vs := range r.Query {
				v := vs[0]
				if p := c.Param(k); p != nil && p.Kind.IsNumeric() {
					elems := strings.Split(v, ",")
					for i, e := range elems {
						if e != "" && e[0] != '-' {
							elems[i] = "+" + e + "e0"
						}
					}
					v = strings.Join(elems, ",")
				}
				spelled[k] = []string{v}
			}
			add(c, false, "", spelled, spelled.Encode())
			for _, lang := range server.ChartLangs() {
				q := url.Values{}
				for k, v := range r.Query {
					q[k] = v
				}
				add(c, true, lang, r.Query, q.Encode()+"&lang="+lang)
			}
		}
		for _, r := range parity.Bad(c) {
			add(c, false, "", r.Query, r.Query.Encode())
		}
	}
	// Random spellings of number, boolean and choice parameters, some of
	// them refused (out of range, not numbers, repeated, bad escapes).
	rng := rand.New(rand.NewPCG(20, 26))
	for i := 0; i < 3000; i++ {
		c := reg.List()[rng.IntN(len(reg.List()))]
		raw := randomQuery(rng, c)
		values, err := url.ParseQuery(raw)
		if err != nil {
			cases = append(cases, tc{c.Name, raw, "", false})
			continue
		}
		add(c, false, "", values, raw)
		cases[len(cases)-1].simple = false // edge.mjs may leave a spelling to Go
	}
	in := make([][2]string, len(cases))
	for i, c := range cases {
		in[i] = [2]string{c.rest, c.query}
	}
	var got []*string
	nodejs.Exchange(t, "test the Worker's edge layer (worker/edge/*.mjs)", dir, []string{"keys.mjs"}, in, &got)
	if len(got) != len(cases) {
		t.Fatalf("node keys.mjs: %d keys for %d cases", len(got), len(cases))
	}
	computed := 0
	for i, c := range cases {
		switch {
		case got[i] == nil && c.simple && c.want != "":
			t.Errorf("/api/v1/%s?%s: edge.mjs computes no key, Go's is %q", c.rest, c.query, c.want)
		case got[i] != nil && c.want != "" && *got[i] != c.want:
			t.Errorf("/api/v1/%s?%s: edge.mjs key %q, Go's %q", c.rest, c.query, *got[i], c.want)
		case got[i] != nil && c.want == "" && strings.Contains(c.query, "no_such_param"):
			t.Errorf("/api/v1/%s?%s: edge.mjs key %q for an unknown parameter", c.rest, c.query, *got[i])
		case got[i] != nil && c.want == "":
			// Go refuses the values (range, list length): the answer
			// is a 400, which the edge does not keep; a key is harmless.
		case got[i] != nil:
			computed++
		}
	}
	if computed < len(cases)/3 {
		t.Errorf("edge.mjs computed %d keys of %d cases", computed, len(cases))
	}
	t.Logf("%d cases, %d keys computed by edge.mjs and equal to Go's", len(cases), computed)
}

// randomQuery returns a query of c's number, boolean and choice parameters
// in random spellings.
func randomQuery(rng *rand.Rand, c *calc.Calculator) string {
	var parts []string
	for _, p := range c.Params {
		if kind(p.Kind) == "other" || rng.IntN(3) == 0 {
			continue
		}
		var v string
		switch p.Kind {
		case calc.Bool:
			v = []string{"true", "false", "1", "0", "yes", "No", "ON", "off", "maybe", ""}[rng.IntN(10)]
		case calc.Choice:
			v = p.Choices[rng.IntN(len(p.Choices))]
			if rng.IntN(8) == 0 {
				v = strings.ToUpper(v)
			}
		case calc.IntList, calc.FloatList:
			n := 1 + rng.IntN(4)
			var el []string
			for j := 0; j < n; j++ {
				el = append(el, spellNumber(rng, p.Kind == calc.IntList))
			}
			v = strings.Join(el, ",")
		default:
			v = spellNumber(rng, p.Kind == calc.Int)
		}
		if rng.IntN(6) == 0 {
			v = " " + v + " "
		}
		esc := url.QueryEscape(v)
		if rng.IntN(4) == 0 {
			esc = strings.ReplaceAll(esc, "+", "%20")
		}
		parts = append(parts, url.QueryEscape(p.Name)+"="+esc)
		if rng.IntN(40) == 0 {
			parts = append(parts, parts[len(parts)-1]) // repeated
		}
	}
	switch rng.IntN(40) {
	case 0:
		parts = append(parts, "no_such_param=1")
	case 1:
		parts = append(parts, "q=%zz")
	case 2:
		parts = append(parts, "")
	}
	rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	return strings.Join(parts, "&")
}

// spellNumber returns a number in one of the spellings Go's calc accepts,
// or now and then one it refuses.
func spellNumber(rng *rand.Rand, integer bool) string {
	var x float64
	switch rng.IntN(4) {
	case 0:
		x = float64(rng.IntN(10))
	case 1:
		x = float64(rng.IntN(2000))
	case 2:
		x = rng.Float64()
	default:
		x = rng.Float64() * 100
	}
	if integer {
		x = float64(int(x))
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	switch rng.IntN(12) {
	case 0:
		s = "+" + s
	case 1:
		s += "e0"
	case 2:
		s = strconv.FormatFloat(x, 'e', -1, 64)
	case 3:
		if !strings.Contains(s, ".") {
			s += ".0"
		}
	case 4:
		s = "00" + s
	case 5:
		s = strings.TrimPrefix(s, "0")
	case 6:
		s = []string{"1e400", "0x10", "1_0", "abc", "", "-0", "1e-7", "NaN", "Inf", "9007199254740993", ".", "1e21"}[rng.IntN(12)]
	}
	return s
}
