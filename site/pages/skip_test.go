package pages

import (
	"bytes"
	"path"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// keptLaidOut are the classes of the article's blocks that
// site/assets/style.css lays out at once, not when they near the screen
// (the rule `article > :not(h1, .lede, .page-date, .classroom)`): the
// first screen's lede and date, and the blocks that hold a form control
// when the page parses.
var keptLaidOut = []string{"lede", "page-date", "classroom"}

// TestSkippableBlocks holds style.css's list of the blocks it does not
// skip to the real site: no other block of an article holds a form
// control when the page parses (Chromium's autofill scan lays out again a
// skipped block for each control inside it, issue 33). A widget holds its
// controls as text in <noscript data-fields> until it nears the viewport;
// the parser reads a noscript's content as text, as a browser with
// scripts on does. The list is a class, not :has(input, …), which
// Chromium checked again at every change in the article.
func TestSkippableBlocks(t *testing.T) {
	s := buildReal(t)
	var css string
	for name, b := range s.Files {
		if m, _ := path.Match("assets/style.*.css", name); m {
			css = string(b)
		}
	}
	if !strings.Contains(css, "article > :not(h1, ."+strings.Join(keptLaidOut, ", .")+")") {
		t.Fatalf("style.css does not keep the blocks %v laid out as this test expects", keptLaidOut)
	}
	articles, kept := 0, 0
	for name, b := range s.Files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		art := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Article })
		if art == nil {
			continue
		}
		articles++
		for c := art.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c.DataAtom == atom.H1 {
				continue
			}
			if slices.ContainsFunc(strings.Fields(attr(c, "class")), func(cl string) bool { return slices.Contains(keptLaidOut, cl) }) {
				kept++
				continue
			}
			ctl := find(c, func(n *html.Node) bool {
				switch n.DataAtom {
				case atom.Input, atom.Select, atom.Textarea, atom.Button:
					return true
				}
				return false
			})
			if ctl != nil {
				t.Errorf("%s: an article's block <%s class=%q id=%q> holds a <%s> when the page parses, and style.css skips it off screen: put the control in <noscript data-fields> or add the block's class to the list",
					name, c.Data, attr(c, "class"), attr(c, "id"), ctl.Data)
			}
		}
	}
	// the test saw the site: articles, and the classroom among the kept
	if articles < 10 || kept == 0 {
		t.Fatalf("%d pages with an article, %d blocks kept laid out: the site's pages were not read", articles, kept)
	}
}

// find is the first node under n (n included, depth first) for which ok
// holds.
func find(n *html.Node, ok func(*html.Node) bool) *html.Node {
	if ok(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, ok); f != nil {
			return f
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
