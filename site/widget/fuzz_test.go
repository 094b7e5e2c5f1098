package widget

import (
	"net/url"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// FuzzRender renders calculators at values from the fuzzer (as a URL
// query, as the playground receives them): any value the calculator
// accepts renders without a panic and with balanced markup; any value it
// refuses is an error, not a page.
func FuzzRender(f *testing.F) {
	for _, s := range []struct{ c, q string }{
		{"attempts", "q=1&n=1000"}, {"attempts", "q=0&n=1"}, {"jitter", "width_ms=0.5&strategy=fixed"},
		{"jitter", "waves=5&strategy=decorrelated"}, {"deadline", "attempts=1&waits_ms="}, {"deadline", "deadline_ms=1"},
		{"peak", "clients=1&bins=1&threshold=0"}, {"peak", "clients=2000&bins=100&threshold=40"},
		{"amplification", "attempts=1"}, {"amplification", "attempts=100,100,100,100,100,100,100,100,100,100"},
		{"budget", "tokens=0&order=depth"}, {"limits", "calls_per_min=0"}, {"backoff", "jitter=false&retry_after_s=3"},
		{"capacity", "rpm_limit=1"}, {"concurrency", "max_concurrency=3"}, {"idempotency-key", "payload=[1,2]"},
	} {
		f.Add(s.c, s.q)
	}
	reg := calc.New()
	loc := locale.Locale{Lang: "es"}
	f.Fuzz(func(t *testing.T, name, query string) {
		c, ok := reg.Lookup(name)
		if !ok || name == "dispatch" { // dispatch's simulation is too slow to fuzz
			return
		}
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		if _, err := Render(Spec{Calc: c, ID: "f"}, loc); err != nil {
			t.Fatalf("%s at its defaults: %v", name, err)
		}
		out, err := Render(Spec{Calc: c, ID: "f", Values: q}, loc)
		if err != nil {
			return
		}
		for _, tag := range []string{"section", "form", "svg", "table", "figure", "div"} {
			if o, c := strings.Count(out, "<"+tag+" ")+strings.Count(out, "<"+tag+">"), strings.Count(out, "</"+tag+">"); o != c {
				t.Fatalf("%s %q: %d <%s> and %d </%s>", name, query, o, tag, c, tag)
			}
		}
		if strings.Contains(out, "NaN") {
			t.Fatalf("%s %q: NaN in the page", name, query)
		}
	})
}
