package canonjson

import "retrylab/core/standin/jsonread"

// The playground's JSON reader (core/standin/jsonread), for the packages
// outside core/ that read JSON in the browser: site/locale (the page's
// data) and site/widget (the results table and citations).

// Unquote decodes a JSON string literal as encoding/json's Unmarshal into
// a string does: escapes resolved, a surrogate pair joined, a lone
// surrogate or invalid UTF-8 replaced by U+FFFD; ok is false when raw is
// not a string literal.
func Unquote(raw []byte) (string, bool) { return jsonread.Unquote(raw) }

// SpaceEnd returns the index of the first byte of b at or after i that is
// not JSON whitespace (len(b) when there is none).
func SpaceEnd(b []byte, i int) int { return jsonread.SpaceEnd(b, i) }

// ValueEnd returns the index just past the JSON value that starts at b[i]
// in a document Valid accepts: after the closing quote of a string, the
// closing bracket of an array or object, the last byte of a number or
// literal.
func ValueEnd(b []byte, i int) int { return jsonread.ValueEnd(b, i) }

// Members calls fn with the key (a string literal, quotes included; see
// Unquote) and the value of each member of the JSON object b, in order,
// until fn returns false. It returns false when b is not an object or fn
// returned false.
func Members(b []byte, fn func(key, val []byte) bool) bool { return jsonread.Members(b, fn) }

// Elements calls fn with each element of the JSON array b, in order,
// until fn returns false. It returns false when b is not an array or fn
// returned false.
func Elements(b []byte, fn func(elem []byte) bool) bool { return jsonread.Elements(b, fn) }
