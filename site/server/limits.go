package server

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// apiLang returns the language of the API's error messages and removes
// "lang" from values: ?lang=it|es|zh (once), else the first of those the
// Accept-Language header prefers, else "" (English). A lang that is not
// one of them is an error message (in English).
func apiLang(r *http.Request, values url.Values) (string, string) {
	if lang, given, msg := queryLang(values); given {
		return lang, msg
	}
	return acceptLang(r.Header.Get("Accept-Language")), ""
}

// queryLang removes "lang" from values and reports whether it was given,
// and then the language (one of locale.Languages, once) or the message
// that refuses it: the one reading of ?lang= of the API and the charts.
func queryLang(values url.Values) (lang string, given bool, msg string) {
	vs, ok := values["lang"]
	if !ok {
		return "", false, ""
	}
	delete(values, "lang")
	for _, l := range locale.Languages() {
		if len(vs) == 1 && vs[0] == l {
			return l, true, ""
		}
	}
	return "", true, "lang must be one of " + strings.Join(locale.Languages(), ", ") + " (once)"
}

// QValue is the grammar of a weight (q=) in Accept-Language, RFC 9110
// section 12.4.2: 0 to 1 with at most three decimals ("0.5", "1.000";
// not ".5", "0.5000" or "5e-1"). A tag with another weight is skipped.
// The Worker's entry.mjs reads it from edge-rules.mjs (wasm/worker/edge),
// so that both read a header alike.
const QValue = `^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$`

// qvalue matches QValue, compiled on first use (nothing at start-up:
// TestStartupAllocs).
func qvalue(v string) bool {
	qvalueOnce.Do(func() { qvalueRE = regexp.MustCompile(QValue) })
	return qvalueRE.MatchString(v)
}

var (
	qvalueOnce sync.Once
	qvalueRE   *regexp.Regexp
)

// AcceptLang is acceptLang, for the test that holds entry.mjs's copy to
// it (wasm/worker/cmd/workerassets).
func AcceptLang(header string) string { return acceptLang(header) }

// acceptLang returns the language of locale.Languages that an Accept-Language
// header prefers ("" when it prefers English or none of them): the tag
// with the highest q whose primary subtag is one of them or "en", the
// first of equals.
func acceptLang(header string) string {
	best, bestQ := "", 0.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.ReplaceAll(strings.TrimSpace(params), " ", ""), "q="); ok {
			if !qvalue(v) {
				continue
			}
			q, _ = strconv.ParseFloat(v, 64)
		}
		if q <= bestQ {
			continue
		}
		switch {
		case primary == "en":
			best, bestQ = "", q
		case slices.Contains(locale.Languages(), primary):
			best, bestQ = primary, q
		}
	}
	return best
}

// calcError writes a calculator's refusal: 422 for the shared server's
// work bound (calc.CodeServer), 400 otherwise, its message in lang
// (English when lang is "").
func (h *handler) calcError(w http.ResponseWriter, r *http.Request, c *calc.Calculator, lang string, err error) {
	status, param, code, msg := http.StatusBadRequest, "", "", err.Error()
	if ce, ok := err.(*calc.Error); ok {
		param, code = ce.Param, string(ce.Code)
		if ce.Code == calc.CodeServer {
			status = http.StatusUnprocessableEntity
		}
		if lang != "" {
			loc, _ := h.locale(lang)
			msg = loc.Error(ce, c)
		}
	}
	w.Header().Add("Vary", "Accept-Language")
	writeJSONError(w, r, status, param, code, msg)
}

// serverCheck refuses values above the calculator's work bound for the
// shared server (calc.Calculator.ServerCheck), naming the embed page
// that computes them in the reader's browser.
func (h *handler) serverCheck(c *calc.Calculator, a calc.Args, lang string) error {
	page := lang
	if page == "" {
		page = locale.Languages()[0]
	}
	page = h.base + page + "/embed/" + c.Name + "/"
	if q := url.Values(a.Query()).Encode(); q != "" {
		page += "?" + q
	}
	if e := c.ServerCheck(a, h.work, page); e != nil {
		return e
	}
	return nil
}
