package pages

import (
	"encoding/xml"
	"sort"
	"time"
)

// An Atom feed per language (RFC 4287), LANG/feed.xml: one entry per page
// of the language but its index, newest first, each with the page's
// title, its description as the summary and the date of its front matter
// as updated and published. No clock: the feed's own updated is the
// newest entry's date, so two builds of the same tree are byte-identical.

// Atom's namespace (RFC 4287, section 2).
const atomNS = "http://www.w3.org/2005/Atom"

// atomFeed is the atom:feed element with the children RFC 4287 section
// 4.1.1 requires (id, title, updated; author, since not every entry has
// its own) and those we add (link rel=self and rel=alternate, subtitle).
type atomFeed struct {
	XMLName  xml.Name    `xml:"feed"`
	NS       string      `xml:"xmlns,attr"`
	Lang     string      `xml:"xml:lang,attr"`
	ID       string      `xml:"id"`
	Title    string      `xml:"title"`
	Subtitle string      `xml:"subtitle,omitempty"`
	Updated  string      `xml:"updated"`
	Author   atomPerson  `xml:"author"`
	Links    []atomLink  `xml:"link"`
	Entries  []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name string `xml:"name"`
	URI  string `xml:"uri,omitempty"`
}

type atomLink struct {
	Rel      string `xml:"rel,attr,omitempty"`
	Type     string `xml:"type,attr,omitempty"`
	Href     string `xml:"href,attr"`
	HrefLang string `xml:"hreflang,attr,omitempty"`
}

// atomEntry is atom:entry (RFC 4287 section 4.1.2): id, title, updated,
// a link rel=alternate (required there when the entry has no content) and
// a summary.
type atomEntry struct {
	ID        string     `xml:"id"`
	Title     string     `xml:"title"`
	Updated   string     `xml:"updated"`
	Published string     `xml:"published,omitempty"`
	Links     []atomLink `xml:"link"`
	Summary   string     `xml:"summary"`
}

// feedPath is the path of lang's feed, relative to the site root.
func feedPath(lang string) string { return lang + "/feed.xml" }

// atomID returns an Atom id (an absolute IRI, RFC 4287 section 4.2.6) for
// the page at p: its absolute URL when the base has an origin, else a tag
// URI (RFC 4151) naming the same path, which stays the same from build to
// build.
func (b *builder) atomID(p string) string {
	if b.base.origin != "" {
		return b.base.abs(p)
	}
	return "tag:retrylab,2026:" + b.base.href(p)
}

// atomDate turns a front-matter date (YYYY-MM-DD) into an RFC 3339
// date-time at midnight UTC; "" when it is not one (the front matter
// parser already refuses such pages).
func atomDate(iso string) string {
	t, err := time.Parse("2006-01-02", iso)
	if err != nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// feed writes lang's Atom feed.
func (b *builder) feed(lang string) ([]byte, error) {
	loc := b.locales[lang]
	name := loc.T("site.name")
	f := atomFeed{NS: atomNS, Lang: lang, ID: b.atomID(feedPath(lang)),
		Title:    loc.TOr("site.feed_title", name+" ("+lang+")"),
		Subtitle: loc.T("site.tagline"),
		Author:   atomPerson{Name: name, URI: b.base.abs("")},
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: b.base.abs(feedPath(lang))},
			{Rel: "alternate", Type: "text/html", Href: b.base.abs(pagePath(lang, "")), HrefLang: lang},
		}}
	type item struct {
		slug string
		date string
		ord  int
	}
	var items []item
	for slug, p := range b.pages[lang] {
		if slug == "" {
			continue
		}
		items = append(items, item{slug, p.Meta.Date, p.Meta.Order})
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].date != items[j].date {
			return items[i].date > items[j].date
		}
		if items[i].ord != items[j].ord {
			return items[i].ord < items[j].ord
		}
		return items[i].slug < items[j].slug
	})
	for _, it := range items {
		p := b.pages[lang][it.slug]
		d := atomDate(p.Meta.Date)
		if d > f.Updated {
			f.Updated = d
		}
		f.Entries = append(f.Entries, atomEntry{ID: b.atomID(pagePath(lang, it.slug)), Title: p.Meta.Title, Updated: d, Published: d,
			Links:   []atomLink{{Rel: "alternate", Type: "text/html", Href: b.base.abs(pagePath(lang, it.slug)), HrefLang: lang}},
			Summary: p.Meta.Description})
	}
	if f.Updated == "" {
		f.Updated = atomDate(b.pages[lang][""].Meta.Date)
	}
	out, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), out...), '\n'), nil
}

// feedLink is a feed the head of a page links (rel=alternate).
type feedLink struct {
	Lang, Title, Href string
}

// feedLinks returns the feeds a page of lang links: its language's, or
// every language's on a page of all languages (lang "").
func (b *builder) feedLinks(lang string) []feedLink {
	langs := b.langs
	if lang != "" {
		langs = []string{lang}
	}
	var out []feedLink
	for _, l := range langs {
		loc := b.locales[l]
		out = append(out, feedLink{Lang: l, Title: loc.TOr("site.feed_title", loc.T("site.name")+" ("+l+")"), Href: b.base.href(feedPath(l))})
	}
	return out
}
