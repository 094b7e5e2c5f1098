package pages

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"retrylab/site/i18n"
	"retrylab/site/locale"
)

// TestSiteKeysDeclared checks that every site.* key the templates and the
// renderer use is in SiteKeys (which the build requires of every language),
// and that every language of content/ defines them all.
func TestSiteKeysDeclared(t *testing.T) {
	used := map[string]bool{}
	for _, f := range []string{"templates/layout.html", "render.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`"(site\.[a-z_.%d]+)"`).FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = true
		}
	}
	if len(used) < 10 {
		t.Fatalf("found only %d keys: the pattern is stale", len(used))
	}
	for k := range used {
		if k == "site.month.%d" {
			continue
		}
		if !slices.Contains(SiteKeys, k) {
			t.Errorf("%s is used but not in SiteKeys", k)
		}
	}
	for _, lang := range locale.Languages() {
		loc, err := i18n.Load("../../content", lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range i18n.Missing(loc, SiteKeys) {
			t.Errorf("content/%s/strings.toml lacks %s", lang, k)
		}
	}
}
