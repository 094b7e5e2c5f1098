package locale

import (
	"errors"
	"unicode"
	"unicode/utf8"

	"retrylab/core/canonjson"
)

// ParsePageData reads the page's locale from the JSON of its
// <script type="application/json" id="retrylab-data"> (wasm/playground/DOM.md; site/pages
// writes it): the "locale" object ({"Lang":…,"Strings":{…}}) when there is
// one, else a Locale of the top-level "lang" and "strings". An empty Lang
// means that the data names no language: the caller takes the page's lang
// attribute.
//
// It reads as json.Unmarshal into
//
//	struct{ Lang string; Strings map[string]string; Locale *Locale }
//
// does, without encoding/json (package core/standin):
// names matched without regard to case, other members
// skipped, null leaving a field empty, a repeated member read again into
// what the earlier one filled, and an error wherever json.Unmarshal returns
// one (invalid JSON, a value of the wrong type).
func ParsePageData(b []byte) (Locale, error) {
	if !canonjson.Valid(b) {
		return Locale{}, errors.New("locale: the page data is not valid JSON")
	}
	r := reader{b: b}
	r.space()
	if r.literal("null") {
		return Locale{}, nil
	}
	var lang string
	var strs map[string]string
	var loc *Locale
	err := r.object(func(name string) error {
		switch foldName(name) {
		case "LANG":
			return r.str(&lang)
		case "STRINGS":
			return r.strMap(&strs)
		case "LOCALE":
			if r.literal("null") {
				loc = nil
				return nil
			}
			if loc == nil {
				loc = new(Locale)
			}
			return r.locale(loc)
		}
		r.skip()
		return nil
	})
	if err != nil {
		return Locale{}, err
	}
	if loc != nil {
		return *loc, nil
	}
	return Locale{Lang: lang, Strings: strs}, nil
}

var errType = errors.New("locale: the page data has a value of the wrong type")

// reader walks JSON that canonjson.Valid accepted, with canonjson's
// SpaceEnd, ValueEnd and Unquote.
type reader struct {
	b []byte
	i int
}

func (r *reader) space() { r.i = canonjson.SpaceEnd(r.b, r.i) }

// literal consumes word (null, true, false) when it comes next.
func (r *reader) literal(word string) bool {
	if len(r.b)-r.i >= len(word) && string(r.b[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		r.space()
		return true
	}
	return false
}

// object reads an object, calling member with each name once the reader
// stands at its value; member must consume the value.
func (r *reader) object(member func(name string) error) error {
	if r.i >= len(r.b) || r.b[r.i] != '{' {
		r.skip()
		return errType
	}
	r.i++
	r.space()
	for r.i < len(r.b) && r.b[r.i] != '}' {
		name, ok := canonjson.Unquote(r.b[r.i:r.stringEnd()])
		if !ok {
			return errType // not reached: the document is valid
		}
		r.i = r.stringEnd()
		r.space()
		r.i++ // ':'
		r.space()
		if err := member(name); err != nil {
			return err
		}
		if r.i < len(r.b) && r.b[r.i] == ',' {
			r.i++
			r.space()
		}
	}
	r.i++ // '}'
	r.space()
	return nil
}

// str reads a string (null leaves *dst as it is).
func (r *reader) str(dst *string) error {
	if r.literal("null") {
		return nil
	}
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		r.skip()
		return errType
	}
	end := r.stringEnd()
	s, ok := canonjson.Unquote(r.b[r.i:end])
	if !ok {
		return errType
	}
	*dst = s
	r.i = end
	r.space()
	return nil
}

// strMap reads an object of strings into *m, made when nil (null sets it
// to nil; a null member is "").
func (r *reader) strMap(m *map[string]string) error {
	if r.literal("null") {
		*m = nil
		return nil
	}
	if r.i >= len(r.b) || r.b[r.i] != '{' {
		r.skip()
		return errType
	}
	if *m == nil {
		*m = map[string]string{}
	}
	return r.object(func(name string) error {
		var s string
		if err := r.str(&s); err != nil {
			return err
		}
		(*m)[name] = s
		return nil
	})
}

// locale reads {"Lang":…,"Strings":{…}} into l.
func (r *reader) locale(l *Locale) error {
	return r.object(func(name string) error {
		switch foldName(name) {
		case "LANG":
			return r.str(&l.Lang)
		case "STRINGS":
			return r.strMap(&l.Strings)
		}
		r.skip()
		return nil
	})
}

// stringEnd returns the index just past the string literal at r.i.
func (r *reader) stringEnd() int { return canonjson.ValueEnd(r.b, r.i) }

// skip passes over the value at r.i and the space after it.
func (r *reader) skip() {
	r.i = canonjson.ValueEnd(r.b, r.i)
	r.space()
}

// foldName is encoding/json's folding of member names: ASCII letters in
// upper case, other runes to the smallest rune of their simple folding
// orbit ("ſtrings" matches Strings as it does there).
func foldName(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return string(out)
}
