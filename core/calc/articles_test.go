package calc

import "testing"

// Articles lists every calculator of New once, in New's order, each with
// its article's number.
func TestArticles(t *testing.T) {
	var got []string
	seen := map[int]bool{}
	for _, a := range Articles() {
		if seen[a.Number] || a.Slug == "" {
			t.Errorf("article %d %q: repeated number or no slug", a.Number, a.Slug)
		}
		seen[a.Number] = true
		for _, c := range a.Registry().List() {
			if c.Article != a.Number {
				t.Errorf("%s: Article %d, want %d", c.Name, c.Article, a.Number)
			}
			got = append(got, c.Name)
		}
	}
	all := New().List()
	if len(got) != len(all) {
		t.Fatalf("the articles hold %d calculators, New %d", len(got), len(all))
	}
	for i, c := range all {
		if got[i] != c.Name || c.Article == 0 {
			t.Errorf("calculator %d: the articles list %s, New %s (article %d)", i, got[i], c.Name, c.Article)
		}
	}
}
