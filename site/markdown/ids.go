package markdown

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
)

// headingIDs makes the ids of headings from their text, keeping letters of
// every script ("il-caso-più-benevolo", "为什么要重试"), so that a link
// to a section reads in the page's language. goldmark's own generator
// keeps ASCII only and names every Chinese heading "heading-N".
type headingIDs struct{ used map[string]bool }

func newHeadingIDs() *headingIDs { return &headingIDs{used: map[string]bool{"main": true}} }

// Generate implements parser.IDs.
func (h *headingIDs) Generate(value []byte, kind ast.NodeKind) []byte {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(string(value)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	id := b.String()
	if id == "" {
		id = "section"
	}
	if h.used[id] {
		for i := 2; ; i++ {
			if c := id + "-" + strconv.Itoa(i); !h.used[c] {
				id = c
				break
			}
		}
	}
	h.used[id] = true
	return []byte(id)
}

// Put implements parser.IDs.
func (h *headingIDs) Put(value []byte) { h.used[string(value)] = true }
