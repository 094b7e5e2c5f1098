package markdown

import (
	"strings"
	"testing"

	"retrylab/core/calc"
)

// TestPlayground: a playground block holds a widget of every calculator
// of the registry, on its defaults, with a list that links to each (its
// title from Options.Title, its name when there is none), and nothing
// else may use the calculators' names as ids.
func TestPlayground(t *testing.T) {
	c := testConverter(nil)
	c.opts.Title = func(name string) string {
		if name == "attempts" {
			return "Tentativi <attesi>"
		}
		return ""
	}
	p, err := c.Convert("content/it/playground.md", []byte(fm+"\nIntro.\n\n```playground\n```\n\nAfter {=backoff.retries}.\n"))
	if err != nil {
		t.Fatal(err)
	}
	all := calc.New().List()
	if len(p.Widgets) != len(all) {
		t.Fatalf("%d widgets, want one per calculator (%d)", len(p.Widgets), len(all))
	}
	html := string(p.HTML)
	last := -1
	for i, cl := range all {
		w := p.Widgets[i]
		if w.Calc.Name != cl.Name || w.ID != cl.Name || w.Kind != "widget" || len(w.Params) != 0 || w.Result == nil {
			t.Errorf("widget %d: %s id %q kind %s params %v: want %s on its defaults", i, w.Calc.Name, w.ID, w.Kind, w.Params, cl.Name)
		}
		link := `<a href="#` + cl.Name + `">`
		at := strings.Index(html, link)
		if at < 0 || at < last {
			t.Errorf("the list has no link %s in registry order", link)
		}
		last = at
		if !strings.Contains(html, `data-widget="`+cl.Name+`" id="`+cl.Name+`"`) {
			t.Errorf("no widget %s in the page", cl.Name)
		}
		if strings.Index(html, `id="`+cl.Name+`"`) < strings.Index(html, "</ul>") {
			t.Errorf("widget %s before the list", cl.Name)
		}
	}
	for _, want := range []string{`<ul class="picker">`, `<a href="#attempts">Tentativi &lt;attesi&gt;</a> <code>attempts</code>`, `<a href="#jitter">jitter</a>`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s:\n%s", want, html)
		}
	}
	if len(p.Citations) != 1 || p.Citations[0].ID != "backoff" {
		t.Errorf("a citation of a playground widget: %+v", p.Citations)
	}
}
