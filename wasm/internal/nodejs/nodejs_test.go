//go:build e2e

package nodejs

import "testing"

// TestExchange: a value goes to node as JSON and comes back decoded.
// Behind the e2e tag (the quick loop needs Go alone); without node it
// fails.
func TestExchange(t *testing.T) {
	var got []float64
	Exchange(t, "test the package", "", []string{"-e", `const xs = JSON.parse(require('fs').readFileSync(0, 'utf8')); process.stdout.write(JSON.stringify(xs.map(x => x * 2)))`}, []float64{1, 2.5, -3}, &got)
	if len(got) != 3 || got[0] != 2 || got[1] != 5 || got[2] != -6 {
		t.Errorf("got %v, want [2 5 -6]", got)
	}
	if s := short([]string{"--test", "a.mjs"}); s != "--test a.mjs" {
		t.Errorf("short = %q", s)
	}
}
