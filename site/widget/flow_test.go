package widget

import (
	"os"
	"testing"

	"retrylab/core/calc"
)

func TestFlowDump(t *testing.T) {
	loc := locales(t)["it"]
	c, _ := calc.New().Lookup("policies")
	html, err := Render(Spec{Calc: c, ID: "w", Views: []string{"flow"}}, loc)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/flow.html", []byte(html), 0o644)
	t.Log(len(html))
}
