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
// its text nodes and its attributes but data-* ones (the templates and
// values the scripts read) and value (a field's own text), without the
// content of script, style, code, pre and textarea (code may hold braces).
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
			if !strings.HasPrefix(m[1], "data-") && m[1] != "value" && m[1] != "d" && m[1] != "points" {
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
