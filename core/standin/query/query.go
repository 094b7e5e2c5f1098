//go:build !standin_orig_query

// Package query reads and writes URL query strings ("a=1&b=x+y") exactly
// as net/url does: Parse is url.ParseQuery, Encode is url.Values.Encode and
// Escape is url.QueryEscape, with the same results and the same errors for
// every input (the tests compare them byte for byte). It stands in for
// net/url in the code the browser's module links (README.md, "Size-driven
// replacements"). Code that never runs in the browser (site/server,
// site/pages, the command line, the tests) may keep using net/url: a
// url.Values is a Values.
package query

import (
	"errors"
	"strconv"
	"strings"

	"retrylab/core/standin/heapsort"
)

// Values maps a parameter name to its values, in the order given, as
// url.Values does; it is the same type as map[string][]string, so a
// url.Values can be passed where a Values is expected and back.
type Values = map[string][]string

// maxParams is net/url's default limit on the number of parameters of one
// query (Go 1.26; GODEBUG=urlmaxqueryparams changes it there, not here).
const maxParams = 10000

var (
	errTooMany   = errors.New("number of URL query parameters exceeded limit")
	errSemicolon = errors.New("invalid semicolon separator in query")
)

// escapeError is a malformed %-escape: '%' and at most the two bytes that
// follow it. Its text is url.EscapeError's.
type escapeError string

func (e escapeError) Error() string { return "invalid URL escape " + strconv.Quote(string(e)) }

// Parse parses a query string without its '?', as url.ParseQuery does: the
// pairs are separated by '&', the name from the value by the first '=' (a
// pair without '=' has the value ""), '+' means a space and "%XX" the byte
// 0xXX. A pair that contains ';' or a malformed escape is left out and
// parsing goes on; the error returned is then the last ';' error if there
// is one, else the first escape error. A query of more than 10,000 pairs
// (more than 9,999 '&') yields an empty map and an error.
func Parse(s string) (Values, error) {
	m := Values{}
	if strings.Count(s, "&")+1 > maxParams {
		return m, errTooMany
	}
	var err error
	for s != "" {
		var pair string
		pair, s, _ = strings.Cut(s, "&")
		if strings.Contains(pair, ";") {
			err = errSemicolon // replaces an earlier error, as in net/url
			continue
		}
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		k, err1 := unescape(k)
		if err1 == nil {
			v, err1 = unescape(v)
		}
		if err1 != nil {
			if err == nil {
				err = err1
			}
			continue
		}
		m[k] = append(m[k], v)
	}
	return m, err
}

// Get returns the first value of key in v, or "" (url.Values.Get).
func Get(v Values, key string) string {
	if vs := v[key]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// Encode writes v as url.Values.Encode does: "name=value" pairs joined by
// '&', names in sorted order (the values of one name in their order), both
// escaped by Escape; "" for an empty map.
func Encode(v Values) string {
	if len(v) == 0 {
		return ""
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	heapsort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		ke := Escape(k)
		for _, x := range v[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(ke)
			b.WriteByte('=')
			b.WriteString(Escape(x))
		}
	}
	return b.String()
}

// Escape escapes s for a query, as url.QueryEscape does: letters, digits
// and "-_.~" stay, a space becomes '+', every other byte "%XX" (upper-case
// hexadecimal).
func Escape(s string) string {
	n, space := 0, false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' {
			space = true
		} else if shouldEscape(c) {
			n++
		}
	}
	if n == 0 && !space {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			b = append(b, '+')
		case shouldEscape(c):
			b = append(b, '%', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// shouldEscape reports whether c is not one of RFC 3986's unreserved
// characters (2.3), which are all net/url leaves unescaped in a query.
func shouldEscape(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return false
	case c == '-', c == '_', c == '.', c == '~':
		return false
	}
	return true
}

// unescape is url.QueryUnescape: "%XX" becomes the byte 0xXX (either
// case), '+' a space; a '%' not followed by two hexadecimal digits is an
// escapeError of the '%' and at most two bytes after it.
func unescape(s string) (string, error) {
	n, plus := 0, false
	for i := 0; i < len(s); {
		switch s[i] {
		case '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				e := s[i:]
				if len(e) > 3 {
					e = e[:3]
				}
				return "", escapeError(e)
			}
			n++
			i += 3
		case '+':
			plus = true
			i++
		default:
			i++
		}
	}
	if n == 0 && !plus {
		return s, nil
	}
	b := make([]byte, 0, len(s)-2*n)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '%':
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		case '+':
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return string(b), nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// unhex is the value of the hexadecimal digit c (isHex(c) holds).
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
