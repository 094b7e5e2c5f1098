package embed

import (
	"encoding/xml"
	"html/template"
	"io"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/i18n"
	"retrylab/site/locale"
)

func wellFormed(t *testing.T, b []byte) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(b)))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
	}
}

// TestEveryChart draws the default chart of every calculator that has
// one, in every language, as well-formed standalone SVG in that language.
func TestEveryChart(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	locs, err := i18n.LoadAll(filepath.Join(filepath.Dir(file), "..", "..", "content"))
	if err != nil {
		t.Fatal(err)
	}
	reg := calc.New()
	drawn := 0
	for _, lang := range locale.Languages() {
		for _, c := range reg.List() {
			b, err := SVG(reg, locs[lang], c.Name, url.Values{})
			if err != nil {
				if v := ChartView(c); v != "bars" && v != "" {
					t.Errorf("%s %s: %v", lang, c.Name, err)
				}
				continue
			}
			drawn++
			wellFormed(t, b)
			s := string(b)
			if !strings.HasPrefix(s, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<svg xmlns="http://www.w3.org/2000/svg" width="`) {
				t.Errorf("%s %s: head %.120s", lang, c.Name, s)
			}
			ti := strings.Index(s, "<title>")
			if ti < 0 || strings.Index(s, "<desc>") < ti || strings.Index(s, "<style>") < strings.Index(s, "</desc>") {
				t.Errorf("%s %s: title, desc, style out of order", lang, c.Name)
			}
			if strings.Contains(s, "<script") || strings.Contains(s, " style=") {
				t.Errorf("%s %s: script or style attribute", lang, c.Name)
			}
		}
	}
	if drawn < 27 {
		t.Errorf("only %d charts drawn", drawn)
	}
}

func TestSVGErrors(t *testing.T) {
	reg := calc.New()
	_, file, _, _ := runtime.Caller(0)
	es, err := i18n.Load(filepath.Join(filepath.Dir(file), "..", "..", "content"), "es")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, query, param string
	}{
		{"attempts", "q=2", "q"}, {"attempts", "n=0", "n"}, {"jitter", "strategy=nope", "strategy"},
		{"attempts", "zzz=1", "zzz"}, {"nosuch", "", ""}, {"idempotency-key", "", ""},
	} {
		q, _ := url.ParseQuery(c.query)
		_, err := SVG(reg, es, c.name, q)
		e, ok := err.(*Error)
		if !ok || e.Param != c.param || e.Msg == "" {
			t.Errorf("%s?%s: %v", c.name, c.query, err)
		}
	}
	// The message is in the requested language.
	_, err = SVG(reg, es, "attempts", url.Values{"q": {"2"}})
	if !strings.Contains(err.Error(), es.ParamLabel(mustCalc(reg, "attempts"), "q")) {
		t.Errorf("not in Spanish: %v", err)
	}
}

func mustCalc(reg *calc.Registry, name string) *calc.Calculator { c, _ := reg.Lookup(name); return c }

func TestPageAndSnippet(t *testing.T) {
	p := Page{Lang: "it", Title: "T <x>", CSP: "default-src 'self'", Widget: template.HTML(`<section data-widget="attempts" id="attempts"></section>`),
		Data: template.JS(`{"lang":"it"}`), Asset: map[string]string{"style.css": "/a/s.css", "embed.css": "/a/e.css", "embed-frame.js": "/a/f.js", "app.js": "/a/app.js"},
		Article: "/it/retries/", ArticleName: "Da «R»", Chart: "/it/charts/attempts.svg"}
	b, err := p.Render()
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`<html lang="it"`, `<title>T &lt;x&gt;</title>`, `data-embed-error`, `<script src="/a/f.js" defer></script>
<script src="/a/app.js" defer></script>`, `href="/it/retries/" target="_blank" rel="noopener">Da «R»</a>`, `data-widget="attempts"`} {
		if !strings.Contains(s, want) {
			t.Errorf("embed page lacks %s", want)
		}
	}
	sn := Snippet("https://x.org/it/embed/attempts/?q=0.9&n=5", `A "b"`, 1200)
	if sn != `<iframe src="https://x.org/it/embed/attempts/?q=0.9&amp;n=5" title="A &#34;b&#34;" width="100%" height="1200" loading="lazy" style="border:0;max-width:48rem"></iframe>`+"\n"+`<script src="https://x.org/embed.js" defer></script>` {
		t.Errorf("snippet %s", sn)
	}
}
