package widget

import (
	"html"
	"strings"
	"testing"
)

// escReplacer is esc as it was written before it became a loop; with
// html.EscapeString it is the reference of TestEsc and FuzzEsc.
var escReplacer = strings.NewReplacer(`&`, "&amp;", `'`, "&#39;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;")

func TestEsc(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain text", "plain text"},
		{`&'<>"`, "&amp;&#39;&lt;&gt;&#34;"},
		{"a&b", "a&amp;b"},
		{"&amp;", "&amp;amp;"},
		{`<a href="x">it's</a>`, "&lt;a href=&#34;x&#34;&gt;it&#39;s&lt;/a&gt;"},
		{"<", "&lt;"},
		{"tail>", "tail&gt;"},
		{"ünïcödé 你好 & é", "ünïcödé 你好 &amp; é"},
		{"\xff<\xfe", "\xff&lt;\xfe"},
		{"\x00\n\t", "\x00\n\t"},
	}
	for _, tt := range tests {
		got := esc(tt.in)
		if got != tt.want {
			t.Errorf("esc(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if ref := html.EscapeString(tt.in); got != ref {
			t.Errorf("esc(%q) = %q, html.EscapeString gives %q", tt.in, got, ref)
		}
		if ref := escReplacer.Replace(tt.in); got != ref {
			t.Errorf("esc(%q) = %q, the Replacer gives %q", tt.in, got, ref)
		}
	}
}

func FuzzEsc(f *testing.F) {
	for _, s := range []string{"", "a&b", `&'<>"`, "\xff<é", "&amp;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := esc(s)
		if ref := html.EscapeString(s); got != ref {
			t.Errorf("esc(%q) = %q, html.EscapeString gives %q", s, got, ref)
		}
		if ref := escReplacer.Replace(s); got != ref {
			t.Errorf("esc(%q) = %q, the Replacer gives %q", s, got, ref)
		}
		var b strings.Builder
		if writeEsc(&b, s); b.String() != got {
			t.Errorf("writeEsc(%q) writes %q, esc gives %q", s, b.String(), got)
		}
	})
}

func BenchmarkEsc(b *testing.B) {
	for _, s := range []string{"attempts-1-q", `payload {"b":1,"a":"é"} & <more>`} {
		b.Run("loop", func(b *testing.B) {
			for b.Loop() {
				esc(s)
			}
		})
		b.Run("replacer", func(b *testing.B) {
			for b.Loop() {
				escReplacer.Replace(s)
			}
		})
	}
}
