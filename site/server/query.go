package server

import (
	"fmt"
	"net/url"
	"strings"
)

// parseQuery parses a raw query like url.ParseQuery, but fails on the
// first malformed pair with a message naming it, and accepts only '&' as
// separator.
func parseQuery(raw string) (url.Values, error) {
	v := url.Values{}
	if raw == "" {
		return v, nil
	}
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		k, val, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			return nil, fmt.Errorf("bad escape in query parameter %q", k)
		}
		value, err := url.QueryUnescape(val)
		if err != nil {
			return nil, fmt.Errorf("bad escape in the value of %s", key)
		}
		v[key] = append(v[key], value)
	}
	return v, nil
}
