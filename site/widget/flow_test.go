package widget

import (
	"os"
	"testing"

	"retrylab/core/calc"
)

func TestFlowDump(t *testing.T) {
	loc := locales(t)["it"]
	for _, name := range []string{"policies", "jitter", "backoff", "amplification"} {
		c, _ := calc.New().Lookup(name)
		html, err := Render(Spec{Calc: c, ID: "w", Views: []string{"flow"}}, loc)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile("/tmp/flow-"+name+".html", []byte(html), 0o644)
		t.Log(name, len(html))
	}
}
