package widget

import (
	"net/url"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// TestEmbedControl: with Spec.Embed the widget offers the iframe code of
// its own values (those that differ from the calculator's defaults), as a
// details element that needs no script; without it, nothing.
func TestEmbedControl(t *testing.T) {
	reg := calc.New()
	c, _ := reg.Lookup("attempts")
	loc := locale.Locale{Lang: "it", Strings: map[string]string{"embed.control": "Incorpora", "widget.attempts.title": "Tentativi"}}
	html, err := Render(Spec{Calc: c, ID: "a", Values: url.Values{"q": {"0.9"}, "n": {"3"}}, Embed: "https://x.org/it/embed/attempts/"}, loc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<details class="widget-embed" data-embed="https://x.org/it/embed/attempts/" data-embed-defaults="n=3&amp;q=0.5" data-embed-title="Tentativi">`,
		`<summary>Incorpora</summary>`,
		`<p class="widget-embed-label" id="a-embed-label">`,
		`<pre id="a-embed" class="widget-embed-code" tabindex="0" role="textbox" aria-readonly="true" aria-multiline="true" aria-labelledby="a-embed-label" data-embed-code data-embed-template="&lt;iframe src=&#34;` + EmbedSrcMark + `&#34; title=&#34;Tentativi&#34;`,
		`&#34; defer&gt;&lt;/script&gt;">&lt;iframe src=&#34;https://x.org/it/embed/attempts/?q=0.9&#34; title=&#34;Tentativi&#34;`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in\n%s", want, html[strings.Index(html, "</form>"):])
		}
	}
	if i, j := strings.Index(html, "</form>"), strings.Index(html, "widget-embed"); j < i {
		t.Error("the embed control is inside the form")
	}
	// no form field in the closed details (Chromium lays each such
	// details out at DOMContentLoaded, issue 33)
	if d := html[strings.Index(html, `<details class="widget-embed"`):]; strings.Contains(d[:strings.Index(d, "</details>")], "<textarea") {
		t.Error("the embed control holds a textarea")
	}
	// the template is the code with EmbedSrcMark for the address
	// (widget-embed.js fills it in)
	tmpl := EmbedSnippet(EmbedSrcMark, "Tentativi", EmbedScript("https://x.org/it/embed/attempts/"), 0)
	if _, rest, ok := strings.Cut(tmpl, EmbedSrcMark); !ok || !strings.Contains(html, esc(strings.SplitN(rest, "height=", 2)[0])) {
		t.Errorf("no template of the code %q", tmpl)
	}
	plain, _ := Render(Spec{Calc: c, ID: "a"}, loc)
	if strings.Contains(plain, "widget-embed") {
		t.Error("an embed control without Spec.Embed")
	}
}
