package markdown

import (
	"regexp"
	"testing"
)

func slugRE() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`) }

func TestIsSlug(t *testing.T) {
	re := slugRE()
	for s, want := range map[string]bool{
		"a": true, "retries": true, "rate-limits": true, "a-1-b2": true, "": false, "-a": false, "a-": false,
		"a--b": false, "A": false, "a_b": false, "é": false, "a b": false, "-": false,
	} {
		if got := IsSlug(s); got != want || got != re.MatchString(s) {
			t.Errorf("IsSlug(%q) = %v, want %v (the regexp says %v)", s, got, want, re.MatchString(s))
		}
	}
}

// FuzzIsSlug holds IsSlug to the regular expression it replaces.
func FuzzIsSlug(f *testing.F) {
	for _, s := range []string{"a-b", "a--b", "-", "x9"} {
		f.Add(s)
	}
	re := slugRE()
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IsSlug(s), re.MatchString(s); got != want {
			t.Errorf("IsSlug(%q) = %v, the regexp %v", s, got, want)
		}
	})
}
