package jsonread

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Members and Elements read, on valid JSON, what encoding/json reads: the
// members of an object in order (a json.Decoder's tokens) and the
// elements of an array (json.Unmarshal into []json.RawMessage).
func FuzzWalk(f *testing.F) {
	for _, s := range []string{`{"a" : [1, {"b":"}"}], "c\"":null ,"d":-1.5e3}`, `[1, "a", [2, 3], {"b": [4]}, null ]`,
		`[]`, `{ }`, `[" ] , \" "]`, `"a"`, `12`, ` {"x":true}`, `[{"k":"v"},[[]],"\\"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		var elems []json.RawMessage
		werr := json.Unmarshal(b, &elems)
		var got [][]byte
		ok := Elements(b, func(e []byte) bool { got = append(got, e); return true })
		if (werr == nil) != ok || len(got) != len(elems) {
			t.Fatalf("Elements(%q) = %q %v; json.Unmarshal: %q %v", b, got, ok, elems, werr)
		}
		for i := range got {
			if !bytes.Equal(got[i], elems[i]) {
				t.Fatalf("Elements(%q)[%d] = %q, json.Unmarshal %q", b, i, got[i], elems[i])
			}
		}
		var keys []string
		var vals [][]byte
		mok := Members(b, func(k, v []byte) bool {
			s, ok := Unquote(k)
			keys, vals = append(keys, s), append(vals, v)
			return ok
		})
		dec := json.NewDecoder(bytes.NewReader(b))
		tok, _ := dec.Token()
		if isObj := tok == json.Delim('{'); isObj != mok {
			t.Fatalf("Members(%q) = %v, want %v", b, mok, isObj)
		}
		if !mok {
			return
		}
		for i := 0; dec.More(); i++ {
			k, _ := dec.Token()
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			if i >= len(keys) || keys[i] != k.(string) || !bytes.Equal(vals[i], v) {
				t.Fatalf("Members(%q): member %d is %q, encoding/json reads %q: %s", b, i, keys, k, v)
			}
		}
	})
}

// ValueEnd finds the end of each kind of value, inside a document and at
// its end.
func TestValueEnd(t *testing.T) {
	for _, tc := range []struct {
		b    string
		i, n int
	}{
		{`"a\"b" ,`, 0, 6}, {`12}`, 0, 2}, {`[1,[2]] `, 0, 7}, {`{"a":{}}`, 5, 7}, {`true`, 0, 4}, {`-1e5,`, 0, 4}, {`"abc`, 0, 4},
	} {
		if got := ValueEnd([]byte(tc.b), tc.i); got != tc.n {
			t.Errorf("ValueEnd(%q, %d) = %d, want %d", tc.b, tc.i, got, tc.n)
		}
	}
}
