//go:build !standin_orig_jsonread

// Package jsonread reads JSON text without decoding it into Go values:
// Unquote decodes a string literal, and SpaceEnd, ValueEnd, Members and
// Elements walk a document that encoding/json's Valid accepts. It stands
// in for encoding/json in the code the browser's module links (package
// core/standin); core/canonjson re-exports it for site/.
package jsonread

import "unicode/utf8"

// Unquote decodes a JSON string literal as encoding/json's Unmarshal
// into a string does: escapes resolved, a surrogate pair joined, a lone surrogate or
// invalid UTF-8 replaced by U+FFFD; ok is false when raw is not a string.
func Unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	r := 0
	for r < len(s) {
		c := s[r]
		if c == '\\' || c == '"' || c < ' ' {
			break
		}
		if c < utf8.RuneSelf {
			r++
			continue
		}
		rr, size := utf8.DecodeRune(s[r:])
		if rr == utf8.RuneError && size == 1 {
			break
		}
		r += size
	}
	if r == len(s) {
		return string(s), true
	}
	b := make([]byte, 0, len(s)+2*utf8.UTFMax)
	b = append(b, s[:r]...)
	for r < len(s) {
		switch c := s[r]; {
		case c == '\\':
			r++
			if r >= len(s) {
				return "", false
			}
			switch s[r] {
			case '"', '\\', '/':
				b = append(b, s[r])
				r++
			case 'b':
				b = append(b, '\b')
				r++
			case 'f':
				b = append(b, '\f')
				r++
			case 'n':
				b = append(b, '\n')
				r++
			case 'r':
				b = append(b, '\r')
				r++
			case 't':
				b = append(b, '\t')
				r++
			case 'u':
				rr := getu4(s[r-1:])
				if rr < 0 {
					return "", false
				}
				r += 5
				if rr >= 0xD800 && rr < 0xE000 {
					if rr < 0xDC00 {
						if lo := getu4(s[r:]); lo >= 0xDC00 && lo < 0xE000 {
							b = utf8.AppendRune(b, 0x10000+(rr-0xD800)<<10+(lo-0xDC00))
							r += 6
							break
						}
					}
					rr = utf8.RuneError
				}
				b = utf8.AppendRune(b, rr)
			default:
				return "", false
			}
		case c == '"' || c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			r += size
			b = utf8.AppendRune(b, rr)
		}
	}
	return string(b), true
}

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// The functions below walk JSON that encoding/json's Valid accepts (and
// canonjson.Valid). On text that is not valid JSON their results are
// unspecified, but they never read outside b.

// SpaceEnd returns the index of the first byte of b at or after i that is
// not JSON whitespace (len(b) when there is none).
func SpaceEnd(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// ValueEnd returns the index just past the JSON value that starts at b[i]:
// after the closing quote of a string, the closing bracket of an array or
// object, the last byte of a number or literal.
func ValueEnd(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			for j++; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
			if depth == 0 {
				return min(j+1, len(b))
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j // a number or literal that ends its array or object
			}
			depth--
			if depth == 0 {
				return j + 1
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return j
			}
		}
	}
	return len(b)
}

// Members calls fn with the key (a string literal, quotes included; see
// Unquote) and the value of each member of the JSON object b, in order,
// until fn returns false. It returns false when b is not an object or fn
// returned false.
func Members(b []byte, fn func(key, val []byte) bool) bool {
	i := SpaceEnd(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = SpaceEnd(b, i+1)
	for i < len(b) && b[i] != '}' {
		kEnd := ValueEnd(b, i)
		key := b[i:kEnd]
		i = SpaceEnd(b, SpaceEnd(b, kEnd)+1) // past ':'
		vEnd := ValueEnd(b, i)
		if !fn(key, b[i:vEnd]) {
			return false
		}
		i = SpaceEnd(b, vEnd)
		if i < len(b) && b[i] == ',' {
			i = SpaceEnd(b, i+1)
		}
	}
	return true
}

// Elements calls fn with each element of the JSON array b, in order,
// until fn returns false. It returns false when b is not an array or fn
// returned false.
func Elements(b []byte, fn func(elem []byte) bool) bool {
	i := SpaceEnd(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = SpaceEnd(b, i+1)
	for i < len(b) && b[i] != ']' {
		end := ValueEnd(b, i)
		if !fn(b[i:end]) {
			return false
		}
		i = SpaceEnd(b, end)
		if i < len(b) && b[i] == ',' {
			i = SpaceEnd(b, i+1)
		}
	}
	return true
}
