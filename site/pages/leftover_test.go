package pages

import (
	"html"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// leftover is string-table syntax a reader should never see: a {name}
// or {name|ONE|OTHER} left unfilled, a plural's '#', a Markdown code
// span's backquote (site/widget's TestNoTemplateLeftovers checks every
// view of every calculator; this, every page as built, its widgets as the
// articles set them, the embeds, the chrome).
var leftover = regexp.MustCompile("\\{[a-z_][a-z0-9_.]*(\\|[^{}]*)?\\}|\\|#|#\\||`")

// hiddenText are the elements whose content is not prose: scripts,
// styles, code (which may hold braces) and formulas.
var hiddenText = regexp.MustCompile(`(?s)<(script|style|code|pre|textarea|math)\b[^>]*>.*?</(script|style|code|pre|textarea|math)>`)

// spoken are the attributes a browser shows or speaks.
var spoken = regexp.MustCompile(`\s(title|alt|placeholder|aria-label|aria-valuetext|aria-roledescription)="([^"]*)"`)

func TestRealReaderText(t *testing.T) {
	s := buildReal(t)
	names := make([]string, 0, len(s.Files))
	for name := range s.Files {
		if strings.HasSuffix(name, ".html") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) < 30 {
		t.Fatalf("%d pages: the build lost its pages", len(names))
	}
	for _, name := range names {
		page := hiddenText.ReplaceAllString(string(s.Files[name]), "")
		var texts []string
		for _, tag := range regexp.MustCompile(`<[^>]*>`).FindAllString(page, -1) {
			for _, m := range spoken.FindAllStringSubmatch(tag, -1) {
				texts = append(texts, m[2])
			}
		}
		texts = append(texts, regexp.MustCompile(`<[^>]*>`).Split(page, -1)...)
		seen := map[string]bool{}
		for _, text := range texts {
			text = html.UnescapeString(text)
			if m := leftover.FindString(text); m != "" && !seen[text] {
				seen[text] = true
				t.Errorf("%s: %q left in %q", name, m, strings.TrimSpace(text))
			}
		}
	}
}
