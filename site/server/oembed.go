package server

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"

	"retrylab/site/embed"
	"retrylab/site/locale"
)

// oembed answers the oEmbed provider endpoint, GET BASE/oembed?url=…
// [&maxwidth=N][&maxheight=N][&format=json] (https://oembed.com/, section
// 2.2; site/embed/oembed.go): for url one of the site's own embed pages
// (on the request's host, under the base, an embed the build wrote) a
// rich answer whose iframe frames it with url's parameters; any other url
// is 404, a format other than json 501 (the specification's codes), a
// missing url or a bad maxwidth/maxheight 400. The answer is read and
// sized from the embed page in dist/ (widget.EmbedHeight): no calculator
// runs, so the request costs a file read and a scan of it.
func (h *handler) oembed(w http.ResponseWriter, r *http.Request) {
	q, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		writeJSONError(w, r, http.StatusBadRequest, "", "syntax", err.Error())
		return
	}
	if f := q.Get("format"); f != "" && f != "json" {
		writeJSONError(w, r, http.StatusNotImplemented, "format", "format", "only format=json is answered, not "+strconv.Quote(f))
		return
	}
	raw := q.Get("url")
	if raw == "" {
		writeJSONError(w, r, http.StatusBadRequest, "url", "missing", "url is missing: give the address of one of this site's embed pages ("+h.base+"LANG/embed/NAME/)")
		return
	}
	var bounds [2]int
	for i, k := range []string{"maxwidth", "maxheight"} {
		if s := q.Get(k); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n <= 0 {
				writeJSONError(w, r, http.StatusBadRequest, k, "syntax", k+" must be a positive whole number of pixels, got "+strconv.Quote(s))
				return
			}
			bounds[i] = n
		}
	}
	u, err := url.Parse(raw)
	notOurs := func() {
		writeJSONError(w, r, http.StatusNotFound, "url", "not_found", "no embed of this site at "+strconv.Quote(raw)+"; its embeds are at "+h.base+"LANG/embed/NAME/ on "+r.Host)
	}
	if err != nil || len(raw) > 4096 {
		notOurs()
		return
	}
	lang, name, src, ok := embed.EmbedTarget(u, r.Host, h.base, locale.Languages())
	if !ok {
		notOurs()
		return
	}
	page, err := fs.ReadFile(h.dist, lang+"/embed/"+name+"/index.html")
	if err != nil {
		notOurs()
		return
	}
	provider := "retrylab"
	if b, err := fs.ReadFile(h.dist, embed.OEmbedFile(lang, name)); err == nil {
		var built embed.OEmbed
		if json.Unmarshal(b, &built) == nil && built.ProviderName != "" {
			provider = built.ProviderName
		}
	}
	ans, err := embed.Answer(page, src, provider, u.Scheme+"://"+u.Host+h.base, bounds[0], bounds[1])
	if err != nil {
		writeJSONError(w, r, http.StatusBadRequest, "maxwidth", "range", err.Error())
		return
	}
	b, err := json.Marshal(ans)
	if err != nil {
		writeJSONError(w, r, http.StatusInternalServerError, "", "", "cannot encode the answer")
		return
	}
	w.Header().Set("Cache-Control", cacheAPI)
	w.Header().Set("Access-Control-Allow-Origin", "*")
	writeBody(w, r, http.StatusOK, "application/json", append(b, '\n'))
}
