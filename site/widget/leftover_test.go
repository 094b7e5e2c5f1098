package widget

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// leftover finds what a reader should never see of a string table's
// syntax: a {name} or {name|ONE|OTHER} left unfilled, a plural's '#', or a
// Markdown code span's backquote.
var leftover = regexp.MustCompile("\\{[a-z_][a-z0-9_.]*(\\|[^{}]*)?\\}|\\|#|#\\||`")

// readerText returns the text of an HTML fragment a reader sees or hears:
// its text nodes and the attributes a browser shows or speaks (title,
// alt, placeholder, aria-label, aria-valuetext), not the templates and
// values of data-* attributes, which the scripts read, nor ids and names;
// without the content of script, style, code, pre and textarea (code may
// hold braces).
func readerText(s string) []string {
	for _, tag := range []string{"script", "style", "code", "pre", "textarea"} {
		s = regexp.MustCompile(`(?s)<`+tag+`\b[^>]*>.*?</`+tag+`>`).ReplaceAllString(s, "<"+tag+">")
	}
	var out []string
	attr := regexp.MustCompile(`\s([a-zA-Z-]+)="([^"]*)"`)
	for len(s) > 0 {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			out = append(out, html.UnescapeString(s))
			break
		}
		if i > 0 {
			out = append(out, html.UnescapeString(s[:i]))
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		for _, m := range attr.FindAllStringSubmatch(s[i:i+j], -1) {
			switch m[1] {
			case "title", "alt", "placeholder", "aria-label", "aria-valuetext", "aria-roledescription":
				out = append(out, html.UnescapeString(m[2]))
			}
		}
		s = s[i+j+1:]
	}
	return out
}

// TestNoTemplateLeftovers renders every view of every calculator in each
// language and fails on template syntax in what the reader sees: a
// plural form the Go side could not fill (the idempotency key's
// "({bytes|# byte|# byte})"), a placeholder no view fills, a backquote.
func TestNoTemplateLeftovers(t *testing.T) {
	all := locales(t)
	for _, c := range calc.New().List() {
		for _, lang := range locale.Languages() {
			out, err := Render(Spec{Calc: c, ID: c.Name + "-1", Views: All().Views(c)}, all[lang])
			if err != nil {
				t.Fatalf("%s %s: %v", c.Name, lang, err)
			}
			for _, text := range readerText(out) {
				if m := leftover.FindString(text); m != "" {
					t.Errorf("%s %s: %q left in %q", c.Name, lang, m, text)
				}
			}
		}
	}
}

func TestReaderText(t *testing.T) {
	got := strings.Join(readerText(`<p title="a {x}" data-live-template="{n|# a|# b}">b &amp; <code>{c}</code><script>{d}</script>e</p>`), "/")
	if want := "a {x}/b & /e"; got != want {
		t.Errorf("readerText = %q, want %q", got, want)
	}
}

func TestCodeSpans(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"run `retrylab calc policies -h` now", "run <code>retrylab calc policies -h</code> now"},
		{"`a<b>` & `c`", "<code>a&lt;b&gt;</code> &amp; <code>c</code>"},
		{"no code", "no code"},
		{"one ` alone", "one ` alone"},
		{"empty `` pair", "empty `` pair"},
	} {
		if got := codeSpans(tc.in); got != tc.want {
			t.Errorf("codeSpans(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A list's control is a stepper per item, with buttons to add and remove
// one; a set's, a row of chips. Their help lines say what the values
// mean, not how to type them ("separati da virgole: 3,3,3" was left from
// the text field).
func TestListHelp(t *testing.T) {
	all := locales(t)
	typing := regexp.MustCompile(`(?i)virgol|\bcomas?\b|逗号|\d,\d`)
	n := 0
	for _, c := range calc.New().List() {
		for _, p := range c.Params {
			if !p.Kind.IsList() && len(p.Members) == 0 {
				continue
			}
			n++
			for _, lang := range locale.Languages() {
				help := all[lang].T(c.LabelKey(p.Name) + ".help")
				if m := typing.FindString(help); m != "" {
					t.Errorf("%s %s.%s: the help line tells the reader to type a list (%q): %s", lang, c.Name, p.Name, m, help)
				}
			}
		}
	}
	if n < 3 {
		t.Errorf("%d list or set parameters: amplification's attempts, deadline's waits_ms and policies' policies at least", n)
	}
}

// Each widget names one thing with one word, the word its language's
// articles use: a term in avoid is the other word for the same thing,
// which the widget must not show beside it.
func TestOneTermPerWidget(t *testing.T) {
	all := locales(t)
	for _, tc := range []struct {
		lang, calc string
		avoid      *regexp.Regexp
	}{
		{"it", "budget", regexp.MustCompile(`\btoken\b`)},                 // gettoni
		{"es", "budget", regexp.MustCompile(`\btokens?\b`)},               // fichas
		{"zh", "budget", regexp.MustCompile(`token`)},                     // 令牌
		{"it", "jitter", regexp.MustCompile(`fissa \(|decorrelat[oa]\b`)}, // full, equal, decorrelated jitter; senza jitter
		{"es", "jitter", regexp.MustCompile(`fija \(|decorrelad[oa]\b`)},
		{"it", "contention", regexp.MustCompile(`jitter decorrelato`)},
		{"es", "contention", regexp.MustCompile(`jitter decorrelado`)},
		{"zh", "contention", regexp.MustCompile(`(^|[^完])全抖动|等分抖动`)},   // 完全抖动, 均等抖动
		{"it", "configure", regexp.MustCompile(`\bclient[ie]\b`)},      // client
		{"zh", "dispatch", regexp.MustCompile(`简单 worker|朴素的 worker`)}, // 朴素 worker
		{"es", "policies", regexp.MustCompile(`caída`)},                // avería
	} {
		c, ok := calc.New().Lookup(tc.calc)
		if !ok {
			t.Fatalf("no calculator %s", tc.calc)
		}
		out, err := Render(Spec{Calc: c, ID: "w", Views: All().Views(c)}, all[tc.lang])
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range readerText(out) {
			if m := tc.avoid.FindString(text); m != "" {
				t.Errorf("%s %s: %q in %q", tc.lang, tc.calc, m, text)
			}
		}
	}
}
