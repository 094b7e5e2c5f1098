package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"strings"

	"retrylab/core/meter"
	"retrylab/site/embed"
	"retrylab/site/locale"
)

// EmbedCSP is the policy of the embed pages (LANG/embed/…): the pages'
// policy, but any site may frame them. They carry no X-Frame-Options.
const EmbedCSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors *"

// SVGCSP is the policy of a chart image (LANG/charts/NAME.svg and
// /api/v1/NAME.svg): nothing to load, no script, its own style element.
const SVGCSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *"

// ChartLangs returns the languages of /api/v1/NAME.svg's lang parameter,
// the default first (locale.Languages).
func ChartLangs() []string { return locale.Languages() }

// isEmbedPath reports whether rel (relative to the base) is under an
// embed folder: LANG/embed/….
func isEmbedPath(rel string) bool {
	lang, rest, ok := strings.Cut(rel, "/")
	return ok && lang != "" && !strings.Contains(lang, ".") && strings.HasPrefix(rest, "embed/")
}

// frameable relaxes the headers of a response that other sites may frame
// (embed pages) or show as an image (charts).
func frameable(w http.ResponseWriter, csp string) {
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Del("X-Frame-Options")
}

// svg answers GET /api/v1/NAME.svg?lang=LANG&key=value: the chart of the
// calculator's result as a standalone SVG image in LANG (default it),
// drawn by site/widget as in the pages. Bad parameters: 400 with the
// API's JSON error, its message in LANG.
func (h *handler) svg(w http.ResponseWriter, r *http.Request, name string) {
	if _, ok := h.registry().Lookup(name); !ok {
		e := h.registry().UnknownError(name)
		writeJSONError(w, r, http.StatusNotFound, "", string(e.Code), e.Message)
		return
	}
	values, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		writeJSONError(w, r, http.StatusBadRequest, queryParam(err), "syntax", err.Error())
		return
	}
	lang, given, msg := queryLang(values)
	if !given {
		lang = locale.Languages()[0] // the default
	} else if msg != "" {
		writeJSONError(w, r, http.StatusBadRequest, "lang", "lang", msg)
		return
	}
	c, _ := h.registry().Lookup(name)
	if a, err := c.Parse(values); err == nil { // a refusal of Parse is embed.SVG's to word
		if err := h.serverCheck(c, a, lang); err != nil {
			h.calcError(w, r, c, lang, err)
			return
		}
	}
	loc, digest := h.locale(lang)
	if c, ok := h.registry().Lookup(name); ok {
		// The chart's words come from dist/, not from the code: the ETag
		// covers them too.
		if a, err := c.Parse(values); err == nil && h.cacheable(w, r, APIKey(name, a, true, lang)+"\n"+digest) {
			frameable(w, SVGCSP)
			return
		}
	}
	h.stats.Computing.Add(1)
	b, err := embed.SVGPoll(h.registry(), loc, name, values, h.poll(r))
	h.stats.Computing.Add(-1)
	h.count(err)
	if errors.Is(err, meter.ErrStopped) {
		clearCacheable(w)
		stopped(w, r)
		return
	}
	if err != nil {
		clearCacheable(w)
		param := ""
		if e, ok := err.(*embed.Error); ok {
			param = e.Param
		}
		writeJSONError(w, r, http.StatusBadRequest, param, "", err.Error())
		return
	}
	frameable(w, SVGCSP)
	writeBody(w, r, http.StatusOK, "image/svg+xml", b)
}

// svgLocale is what locale keeps of a language.
type svgLocale struct {
	loc    locale.Locale
	digest string // hex SHA-256 of strings.json; "" without it
}

// locale returns the strings of lang that the build wrote for the SVG
// endpoint (LANG/embed/strings.json; without them, English) and the
// digest of that file, which the charts' ETags include.
func (h *handler) locale(lang string) (locale.Locale, string) {
	if v, ok := h.locales.Load(lang); ok {
		l := v.(svgLocale)
		return l.loc, l.digest
	}
	l := svgLocale{loc: locale.Locale{Lang: lang}}
	b, err := fs.ReadFile(h.dist, lang+"/embed/strings.json")
	if err == nil {
		sum := sha256.Sum256(b)
		l.digest = hex.EncodeToString(sum[:])
		var loc locale.Locale
		if json.Unmarshal(b, &loc) == nil && loc.Lang == lang {
			l.loc = loc
		}
	}
	// Kept for the handler's life unless the read failed for another
	// reason than a missing file (the Worker reads through its ASSETS
	// binding, and one Go instance serves many requests): the next
	// request reads again.
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		h.locales.Store(lang, l)
	}
	return l.loc, l.digest
}
