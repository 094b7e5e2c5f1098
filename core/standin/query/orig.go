//go:build standin_orig_query

// The original in the stand-in's place, for core/standin/bench.sh (what
// query saves) and for running query's tests against net/url.

package query

import "net/url"

// Values is url.Values' map type.
type Values = map[string][]string

// Parse is url.ParseQuery.
func Parse(s string) (Values, error) { return url.ParseQuery(s) }

// Get is url.Values.Get.
func Get(v Values, key string) string { return url.Values(v).Get(key) }

// Encode is url.Values.Encode.
func Encode(v Values) string { return url.Values(v).Encode() }

// Escape is url.QueryEscape.
func Escape(s string) string { return url.QueryEscape(s) }

// unescape is url.QueryUnescape (the fuzz test compares the stand-in's).
func unescape(s string) (string, error) { return url.QueryUnescape(s) }
