package embed

import (
	"errors"
	"html"
	"net/url"
	"strconv"
	"strings"

	"retrylab/site/widget"
)

// oEmbed (https://oembed.com/, version 1.0): a blog platform or a chat that
// is given the address of an embed page (BASE/LANG/embed/NAME/) asks the
// site for the code that shows it. Every embed page names its answer in a
// <link rel="alternate" type="application/json+oembed"> (discovery,
// section 4 of the specification); the answer is of type "rich": the
// iframe of the embed at the widget's estimated height and the resize
// script, as the widgets' "embed" control offers (widget.EmbedSnippet).
//
// The build writes each embed's answer as a file, BASE/oembed/LANG/NAME.json,
// which the discovery link names: it works on any static host. The server
// and the Worker also answer the provider endpoint BASE/oembed?url=…
// (site/server), with maxwidth and maxheight, for the site's own embed
// pages only.

// OEmbedPath is the endpoint's path under the site's base (BASE/oembed).
const OEmbedPath = "oembed"

// OEmbedFile is the path, under the site's base, of the build's answer
// for the embed of calculator name in lang.
func OEmbedFile(lang, name string) string { return "oembed/" + lang + "/" + name + ".json" }

// OEmbed is an oEmbed answer of type rich (section 2.3.4 and 2.3.4.4 of
// the specification). Field order is the specification's.
type OEmbed struct {
	Type         string `json:"type"`
	Version      string `json:"version"`
	Title        string `json:"title"`
	ProviderName string `json:"provider_name"`
	ProviderURL  string `json:"provider_url"`
	CacheAge     int    `json:"cache_age"`
	HTML         string `json:"html"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
}

// ErrTooSmall is a maxwidth or maxheight below what an embed can show.
var ErrTooSmall = errors.New("maxwidth must be at least 200 and maxheight at least 100")

// Answer returns the oEmbed answer for the embed page page (its HTML, as
// the build wrote it) at src (its address with the reader's query),
// provider being the site's name and providerURL its root. maxWidth and
// maxHeight (0: none) bound the frame: the width is EmbedWidth or less,
// the height the widget's estimate at that width (widget.EmbedHeight);
// when the estimate is above maxHeight the frame gets maxHeight and no
// resize script, so that it stays within the bound and scrolls.
func Answer(page []byte, src, provider, providerURL string, maxWidth, maxHeight int) (OEmbed, error) {
	if maxWidth != 0 && maxWidth < 200 || maxHeight != 0 && maxHeight < 100 {
		return OEmbed{}, ErrTooSmall
	}
	w := widget.EmbedWidth
	if maxWidth > 0 {
		w = min(w, maxWidth)
	}
	h := widget.EmbedHeight(string(page), w)
	script := widget.EmbedScript(src)
	if maxHeight > 0 && h > maxHeight {
		h, script = maxHeight, ""
	}
	title := pageTitle(page)
	code := `<iframe src="` + html.EscapeString(src) + `" title="` + html.EscapeString(title) + `" width="` + strconv.Itoa(w) +
		`" height="` + strconv.Itoa(h) + `" loading="lazy" style="border:0;width:100%;max-width:` + strconv.Itoa(w) + `px"></iframe>`
	if script != "" {
		code += "\n" + `<script src="` + html.EscapeString(script) + `" defer></script>`
	}
	return OEmbed{Type: "rich", Version: "1.0", Title: title, ProviderName: provider, ProviderURL: providerURL,
		CacheAge: 86400, HTML: code, Width: w, Height: h}, nil
}

// pageTitle is the text of the page's <title>.
func pageTitle(page []byte) string {
	s := string(page)
	i := strings.Index(s, "<title>")
	j := strings.Index(s, "</title>")
	if i < 0 || j < i {
		return ""
	}
	return html.UnescapeString(s[i+len("<title>") : j])
}

// EmbedTarget checks that u is the address of one of the site's embed
// pages: http or https, on host (case-insensitive; "" accepts any, the
// build's own answers), under base, BASE/LANG/embed/NAME/ (or without its
// last slash, or with index.html), lang one of langs. It returns lang,
// name and the address to frame: the scheme and host of u, the canonical
// path, and u's query re-encoded (the calculator's parameters; the embed
// page itself says which it refuses). ok is false for any other address.
func EmbedTarget(u *url.URL, host, base string, langs []string) (lang, name, src string, ok bool) {
	if u == nil || u.Scheme != "http" && u.Scheme != "https" || u.User != nil || u.Host == "" ||
		host != "" && !strings.EqualFold(u.Host, host) {
		return "", "", "", false
	}
	rel, found := strings.CutPrefix(u.Path, base)
	if !found {
		return "", "", "", false
	}
	rel = strings.TrimSuffix(strings.TrimSuffix(rel, "index.html"), "/")
	parts := strings.Split(rel, "/")
	if len(parts) != 3 || parts[1] != "embed" || !isName(parts[2]) {
		return "", "", "", false
	}
	known := false
	for _, l := range langs {
		known = known || l == parts[0]
	}
	if !known {
		return "", "", "", false
	}
	lang, name = parts[0], parts[2]
	src = u.Scheme + "://" + strings.ToLower(u.Host) + base + lang + "/embed/" + name + "/"
	if q, err := url.ParseQuery(u.RawQuery); err == nil && len(q) > 0 {
		src += "?" + q.Encode()
	}
	return lang, name, src, true
}

// isName reports whether s is a calculator's name: lower-case letters,
// digits and single dashes.
func isName(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
