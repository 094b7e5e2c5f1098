package server

import (
	"net/url"
	"strconv"
	"strings"
)

// queryError is a malformed pair of a query: Param names the parameter
// (its raw text when the name itself is malformed).
type queryError struct {
	Param, Msg string
}

func (e *queryError) Error() string { return e.Msg }

// parseQuery parses a raw query like url.ParseQuery, but fails on the
// first malformed pair with a *queryError naming it, and accepts only '&'
// as separator.
func parseQuery(raw string) (url.Values, error) {
	v := url.Values{}
	if raw == "" {
		return v, nil
	}
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" {
			continue
		}
		k, val, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			return nil, &queryError{Param: k, Msg: "bad escape in query parameter " + strconv.Quote(k)}
		}
		value, err := url.QueryUnescape(val)
		if err != nil {
			return nil, &queryError{Param: key, Msg: "bad escape in the value of " + key}
		}
		v[key] = append(v[key], value)
	}
	return v, nil
}

// queryParam is the parameter a parseQuery error names.
func queryParam(err error) string {
	if e, ok := err.(*queryError); ok {
		return e.Param
	}
	return ""
}
