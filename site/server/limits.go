package server

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

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
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f >= 0 && f <= 1) {
				continue
			}
			q = f
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
