package pages

import (
	"encoding/xml"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestFeeds parses each language's Atom feed back and checks what RFC 4287
// requires: a feed with id, title, updated and an author (section 4.1.1:
// every entry lacks its own), each entry with id, title, updated, a link
// rel=alternate (no content) and a summary; ids absolute IRIs, dates RFC
// 3339, the feed's updated the newest entry's; every page of the language
// but the index an entry; every page's head linking the feed.
func TestFeeds(t *testing.T) {
	for _, base := range []string{"/", "https://example.org/sub/"} {
		cfg := tree(t, "testdata/site.txtar")
		cfg.BaseURL = base
		s, err := Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for lang, pages := range s.Pages {
			raw, ok := s.Files[lang+"/feed.xml"]
			if !ok {
				t.Fatalf("%s: no %s/feed.xml", base, lang)
			}
			var f struct {
				XMLName xml.Name
				ID      string `xml:"id"`
				Title   string `xml:"title"`
				Updated string `xml:"updated"`
				Author  []struct {
					Name string `xml:"name"`
				} `xml:"author"`
				Entries []struct {
					ID      string `xml:"id"`
					Title   string `xml:"title"`
					Updated string `xml:"updated"`
					Summary string `xml:"summary"`
					Links   []struct {
						Rel  string `xml:"rel,attr"`
						Href string `xml:"href,attr"`
					} `xml:"link"`
				} `xml:"entry"`
			}
			if err := xml.Unmarshal(raw, &f); err != nil {
				t.Fatalf("%s %s: %v", base, lang, err)
			}
			if f.XMLName.Space != atomNS || f.XMLName.Local != "feed" {
				t.Errorf("%s %s: root %v, want {%s}feed", base, lang, f.XMLName, atomNS)
			}
			absIRI := func(what, id string) {
				u, err := url.Parse(id)
				if err != nil || u.Scheme == "" {
					t.Errorf("%s %s: %s %q is not an absolute IRI", base, lang, what, id)
				}
			}
			date := func(what, d string) time.Time {
				tm, err := time.Parse(time.RFC3339, d)
				if err != nil {
					t.Errorf("%s %s: %s %q is not an RFC 3339 date: %v", base, lang, what, d, err)
				}
				return tm
			}
			absIRI("feed id", f.ID)
			if f.Title == "" || len(f.Author) == 0 || f.Author[0].Name == "" {
				t.Errorf("%s %s: feed title %q, author %v: both required", base, lang, f.Title, f.Author)
			}
			updated := date("feed updated", f.Updated)
			if len(f.Entries) != len(pages)-1 {
				t.Errorf("%s %s: %d entries, want one per page but the index (%d)", base, lang, len(f.Entries), len(pages)-1)
			}
			var newest time.Time
			ids := map[string]bool{}
			for _, e := range f.Entries {
				absIRI("entry id", e.ID)
				if ids[e.ID] {
					t.Errorf("%s %s: entry id %s twice", base, lang, e.ID)
				}
				ids[e.ID] = true
				if d := date("entry updated", e.Updated); d.After(newest) {
					newest = d
				}
				alt := ""
				for _, l := range e.Links {
					if l.Rel == "alternate" {
						alt = l.Href
					}
				}
				if alt == "" || e.Title == "" || e.Summary == "" {
					t.Errorf("%s %s: entry %s: alternate %q, title %q, summary %q: all required", base, lang, e.ID, alt, e.Title, e.Summary)
					continue
				}
				slug := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(alt, strings.TrimSuffix(base, "/")), "/"+lang+"/"), "/")
				p := pages[slug]
				if p == nil || p.Meta.Title != e.Title || p.Meta.Description != e.Summary || atomDate(p.Meta.Date) != e.Updated {
					t.Errorf("%s %s: entry %s (%s) does not match its page", base, lang, e.ID, alt)
				}
			}
			if !updated.Equal(newest) {
				t.Errorf("%s %s: feed updated %s, newest entry %s", base, lang, f.Updated, newest)
			}
			link := `<link rel="alternate" type="application/atom+xml" hreflang="` + lang + `" title="`
			for slug := range pages {
				page := string(s.Files[pagePath(lang, slug)+"index.html"])
				i := strings.Index(page, link)
				if i < 0 || !strings.Contains(page[i:], `href="`+strings.TrimPrefix(base, "https://example.org")+lang+`/feed.xml">`) {
					t.Errorf("%s %s/%s: the head links no feed", base, lang, slug)
				}
			}
		}
	}
}
