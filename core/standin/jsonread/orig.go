//go:build standin_orig_jsonread

// The original in the stand-in's place, for core/standin/bench.sh (what
// jsonread saves) and for running jsonread's tests against
// encoding/json: the same API, each function through a json.Decoder or
// json.Unmarshal.

package jsonread

import (
	"bytes"
	"encoding/json"
)

// Unquote is json.Unmarshal into a string.
func Unquote(raw []byte) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// SpaceEnd skips JSON whitespace.
func SpaceEnd(b []byte, i int) int { return len(b) - len(bytes.TrimLeft(b[i:], " \t\n\r")) }

// ValueEnd is where a json.Decoder stops after the value at b[i].
func ValueEnd(b []byte, i int) int {
	d := json.NewDecoder(bytes.NewReader(b[i:]))
	var v json.RawMessage
	if d.Decode(&v) != nil {
		return len(b)
	}
	return i + int(d.InputOffset())
}

// Members reads an object's members with a json.Decoder; each key is
// json.Marshal's literal of the decoded key.
func Members(b []byte, fn func(key, val []byte) bool) bool {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for d.More() {
		t, err := d.Token()
		k, ok := t.(string)
		if err != nil || !ok {
			return false
		}
		var v json.RawMessage
		if d.Decode(&v) != nil {
			return false
		}
		key, _ := json.Marshal(k)
		if !fn(key, v) {
			return false
		}
	}
	return true
}

// Elements reads an array's elements with a json.Decoder.
func Elements(b []byte, fn func(elem []byte) bool) bool {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('[') {
		return false
	}
	for d.More() {
		var v json.RawMessage
		if d.Decode(&v) != nil || !fn(v) {
			return false
		}
	}
	return true
}
