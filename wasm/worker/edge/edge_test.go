package edge

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/server"
)

// TestData: the table names every calculator and parameter, with the
// canonical text of each default.
func TestData(t *testing.T) {
	reg := calc.New()
	b, err := Data(reg, "v1")
	if err != nil {
		t.Fatal(err)
	}
	js, ok := bytes.CutPrefix(b[bytes.IndexByte(b, '\n')+1:], []byte("export default "))
	if !ok {
		t.Fatalf("edge-data.mjs starts %.80q", b)
	}
	var d data
	if err := json.Unmarshal(bytes.TrimSuffix(js, []byte(";\n")), &d); err != nil {
		t.Fatal(err)
	}
	if d.Version != "v1" || strings.Join(d.Langs, ",") != strings.Join(server.ChartLangs(), ",") || len(d.Calculators) != len(reg.List()) {
		t.Fatalf("version %q, langs %v, %d calculators", d.Version, d.Langs, len(d.Calculators))
	}
	att := d.Calculators["attempts"]
	if len(att) != 2 || att[0].Name != "q" || att[0].Kind != "float" || att[0].Def == nil || *att[0].Def != "0.5" {
		t.Errorf("attempts: %+v", att)
	}
}

func TestVersion(t *testing.T) {
	seen := map[string]string{}
	for _, tc := range []struct {
		name string
		v    string
	}{
		{"a", Version([]byte("a"))},
		{"b", Version([]byte("b"))},
		{"a + strings x", Version([]byte("a"), []byte("x"))},
		{"a + strings y", Version([]byte("a"), []byte("y"))},
		{"ax", Version([]byte("ax"))},
		{"a + x + empty", Version([]byte("a"), []byte("x"), nil)},
	} {
		if len(tc.v) != 12 {
			t.Errorf("%s: Version %q, want 12 hex digits", tc.name, tc.v)
		}
		if prev, ok := seen[tc.v]; ok {
			t.Errorf("%s and %s share Version %s", tc.name, prev, tc.v)
		}
		seen[tc.v] = tc.name
	}
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
