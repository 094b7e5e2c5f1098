package edge

import (
	"bytes"
	"encoding/json"
	"os"
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
	if d.Version != "v1" || len(d.Calculators) != len(reg.List()) {
		t.Fatalf("version %q, %d calculators", d.Version, len(d.Calculators))
	}
	att := d.Calculators["attempts"]
	if len(att) != 2 || att[0].Name != "q" || att[0].Kind != "float" || att[0].Def == nil || *att[0].Def != "0.5" {
		t.Errorf("attempts: %+v", att)
	}
}

// TestRulesCurrent: edge-rules.mjs is what go generate ./wasm/worker/edge
// writes from Go's declarations today, and names each of them.
func TestRulesCurrent(t *testing.T) {
	b, err := os.ReadFile(RulesFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, Rules()) {
		t.Fatalf("%s is stale: run go generate ./wasm/worker/edge", RulesFile)
	}
	for _, want := range []string{
		`export const API_ROOT = "/` + server.APIRoot + `";`,
		`export const API = "/` + server.APIPath + `";`,
		`export const CHART = "` + server.ChartSuffix + `";`,
		`export const BOOL_TRUE = ["true","1","yes","on"];`,
		`export const PLAIN_MIN = 0.000001;`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", RulesFile, want)
		}
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
