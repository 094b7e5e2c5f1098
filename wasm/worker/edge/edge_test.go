package edge

import (
	"bytes"
	"encoding/json"
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
