//go:build e2e

package playground

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"retrylab/wasm/internal/nodejs"
)

// TestFieldTextMatchesGo runs player.js' fieldText and parse (the slider
// of a wide-range field follows what the reader types, before the module
// has read it) in node beside numberText, on TestNumberText's table and on
// 20,000 seeded texts of digits, both marks, signs, an exponent and
// spaces: the same text on both sides, and the same number where the
// calculator takes one (a decimal: no hex, no '_', finite), NaN or
// infinite in JavaScript where it does not. Behind the e2e tag: node.
func TestFieldTextMatchesGo(t *testing.T) {
	src, err := os.ReadFile("../../site/assets/player.js")
	if err != nil {
		t.Fatal(err)
	}
	// the two functions, from fieldText's comment to the one after parse
	js := string(src)
	from := strings.Index(js, "  function fieldText(")
	to := strings.Index(js, "  // canon is")
	if from < 0 || to < from {
		t.Fatal("player.js: fieldText (then parse, then canon's comment) not found: this test reads them by name")
	}
	type input struct{ In, Mark string }
	var ins []input
	for _, c := range numberTextCases {
		ins = append(ins, input{c.in, c.decimal})
	}
	// half number-like (spaces, signs, digits in groups of one to four
	// between marks, decimals, an exponent), half any text of those pieces
	r := rand.New(rand.NewPCG(2026, 12))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	for k := range 20000 {
		var b strings.Builder
		if k%2 == 0 {
			b.WriteString(pick("", "", " ", "\t"))
			b.WriteString(pick("", "", "-", "+", "--", "+-"))
			b.WriteString(digits(1 + r.IntN(3)))
			for range r.IntN(4) {
				b.WriteString(pick(".", ",", ".", ",", " ", "_"))
				b.WriteString(digits(pick4(r)))
			}
			b.WriteString(pick("", "", "e3", "E-2", "e", "x", "٣", "."))
			b.WriteString(pick("", "", " "))
		} else {
			for range r.IntN(14) {
				b.WriteString(pick("0", "1", "5", "9", ".", ",", "-", "+", "e", " ", "x", "_", "٣"))
			}
		}
		ins = append(ins, input{b.String(), pick(",", ".")})
	}
	script := js[from:to] + `
const ins = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(ins.map(x => {
  const v = parse(x.In, x.Mark);
  return [fieldText(x.In, x.Mark), isFinite(v) ? v : null];
})));`
	var got [][2]any
	nodejs.Exchange(t, "run player.js' fieldText beside numberText", "", []string{"-e", script}, ins, &got)
	if len(got) != len(ins) {
		t.Fatalf("node wrote %d answers for %d texts", len(got), len(ins))
	}
	bad := 0
	for i, in := range ins {
		want := numberText(in.In, in.Mark)
		text, _ := got[i][0].(string)
		v, finite := got[i][1].(float64)
		wv, ok := calcNumber(want)
		switch {
		case text != want:
			t.Errorf("%q on a page of decimal %q: player.js fieldText %q, numberText %q", in.In, in.Mark, text, want)
		case ok != finite || ok && v != wv:
			t.Errorf("%q on a page of decimal %q: player.js parse %v (finite %v), the calculator %v (takes it: %v)", in.In, in.Mark, got[i][1], finite, wv, ok)
		default:
			continue
		}
		if bad++; bad == 10 {
			t.Fatal("stopped at 10 differences")
		}
	}
}

// calcNumber is the number a calculator's numeric parameter takes from
// the text s (core/calc Param.number before its range checks): a finite
// decimal, without hex floats or digit separators.
func calcNumber(s string) (float64, bool) {
	if s == "" || strings.ContainsAny(s, "xX_pP") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// pick4 is the length of a digit run after a mark: mostly three (a group),
// else one, two or four.
func pick4(r *rand.Rand) int {
	if r.IntN(3) > 0 {
		return 3
	}
	return []int{1, 2, 4}[r.IntN(3)]
}
