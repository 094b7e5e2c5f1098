package markdown

import (
	"fmt"
	"regexp"
	"sync"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// lazyRegexp is a regular expression compiled on first use, not when the
// program starts; its zero value but src is ready to use.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

// IsSlug reports whether s is lowercase letters and digits in words joined
// by single hyphens: what ^[a-z0-9]+(-[a-z0-9]+)*$ matches (page slugs,
// widget ids).
func IsSlug(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}
