package widget

import (
	"net/url"
	"testing"

	"retrylab/core/calc"
)

// TestMemoRendersSame renders the policies widget through a reader's
// edits as the playground does (RunArgs, Run, RenderOutputVariant), with
// one calc.Memo kept across them and without: the outputs are the same at
// every step, so nothing a view does to a result changes the runs the
// memo keeps for the next edit.
func TestMemoRendersSame(t *testing.T) {
	set := Policies()
	c, _ := calc.New().Lookup("policies")
	loc := locales(t)["es"]
	views := []string{"summary", "flow", "timeline", CompareView("attempts=5")}
	memo := new(calc.Memo)
	for _, q := range []string{
		"",
		"policies=none,naive,grpc,envoy",
		"policies=none,naive,grpc,envoy&attempts=4",
		"policies=none,naive,grpc&attempts=4",
		"policies=none,naive,grpc,envoy",
		"",
	} {
		v, _ := url.ParseQuery(q)
		a, err := c.Parse(v)
		if err != nil {
			t.Fatal(err)
		}
		a = set.RunArgs(c, a, views)
		render := func(a calc.Args) string {
			res, err := c.Run(a)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			html, _, _, err := set.RenderOutputVariant(c, a, res, views, loc)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			return html
		}
		if got, want := render(a.WithMemo(memo)), render(a); got != want {
			t.Errorf("%q: the output with the memo differs from the one computed whole", q)
		}
	}
}
