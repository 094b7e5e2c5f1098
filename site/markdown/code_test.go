package markdown

import (
	"os"
	"regexp"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// TestPlainTypes holds which tokens are drawn without a span: those whose
// look in both themes is the page's text, and none that is coloured.
func TestPlainTypes(t *testing.T) {
	for _, tc := range []struct {
		t     chroma.TokenType
		plain bool
	}{
		{chroma.Text, true},
		{chroma.TextWhitespace, true},
		{chroma.Punctuation, true},
		{chroma.NameOther, true},
		{chroma.Keyword, false},
		{chroma.KeywordDeclaration, false},
		{chroma.Operator, false},
		{chroma.NameFunction, false},
		{chroma.LiteralStringDouble, false},
		{chroma.LiteralNumberInteger, false},
		{chroma.CommentSingle, false},
	} {
		if got := plainTypes()[tc.t]; got != tc.plain {
			t.Errorf("%v: plain %v, want %v", tc.t, got, tc.plain)
		}
	}
}

// TestPageInk holds pageInk to the page's text colours in the style sheet.
func TestPageInk(t *testing.T) {
	css, err := os.ReadFile("../assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	fg := regexp.MustCompile(`--fg: (#[0-9a-f]{6});`).FindAllStringSubmatch(string(css), -1)
	if len(fg) < 2 {
		t.Fatalf("style.css: %d --fg colours, want the light and the dark one", len(fg))
	}
	for i, want := range []string{fg[0][1], fg[1][1]} {
		if got := pageInk[i].String(); got != want {
			t.Errorf("pageInk[%d] = %s, style.css --fg = %s", i, got, want)
		}
	}
}
