package query

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Values
		err  string // "" for none
	}{
		{"", Values{}, ""},
		{"a=1", Values{"a": {"1"}}, ""},
		{"a=1&b=2&a=3", Values{"a": {"1", "3"}, "b": {"2"}}, ""},
		{"a", Values{"a": {""}}, ""},
		{"a=", Values{"a": {""}}, ""},
		{"=1", Values{"": {"1"}}, ""},
		{"=", Values{"": {""}}, ""},
		{"&&a=1&", Values{"a": {"1"}}, ""},
		{"a=b=c", Values{"a": {"b=c"}}, ""},
		{"x+y=1+2", Values{"x y": {"1 2"}}, ""},
		{"q=%41%62%2b%2B%20%e2%82%ac", Values{"q": {"Ab++ €"}}, ""},
		{"k=%00%ff", Values{"k": {"\x00\xff"}}, ""},
		{"a.q=0.9&debug-panic=w", Values{"a.q": {"0.9"}, "debug-panic": {"w"}}, ""},
		{"a=%zz&b=2", Values{"b": {"2"}}, `invalid URL escape "%zz"`},
		{"a=%4&b=2", Values{"b": {"2"}}, `invalid URL escape "%4"`},
		{"a=1%", Values{}, `invalid URL escape "%"`},
		{"%gg=1&b=%x1&c=3", Values{"c": {"3"}}, `invalid URL escape "%gg"`},
		{"a=1;b=2&c=3", Values{"c": {"3"}}, "invalid semicolon separator in query"},
		{"a=%zz&b=1;2&c=%yy", Values{}, "invalid semicolon separator in query"},
		{"b=1;2&a=%zz", Values{}, "invalid semicolon separator in query"},
		{strings.Repeat("a=1&", 9999) + "a=2", Values{"a": append(slicesOf("1", 9999), "2")}, ""},
		{strings.Repeat("&", 10000), Values{}, "number of URL query parameters exceeded limit"},
	} {
		got, err := Parse(tc.in)
		name := tc.in
		if len(name) > 40 {
			name = name[:40] + "…"
		}
		if !reflect.DeepEqual(got, tc.want) || errText(err) != tc.err {
			t.Errorf("Parse(%q) = %q, %q; want %q, %q", name, got, errText(err), tc.want, tc.err)
		}
		uv, uerr := url.ParseQuery(tc.in)
		if !reflect.DeepEqual(got, Values(uv)) || errText(err) != errText(uerr) {
			t.Errorf("Parse(%q) = %q, %q; url.ParseQuery: %q, %q", name, got, errText(err), uv, errText(uerr))
		}
	}
}

func slicesOf(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestEncode(t *testing.T) {
	for _, tc := range []struct {
		in   Values
		want string
	}{
		{nil, ""},
		{Values{}, ""},
		{Values{"a": {}}, ""},
		{Values{"b": {"2"}, "a": {"1", "0"}}, "a=1&a=0&b=2"},
		{Values{"": {""}}, "="},
		{Values{"": {""}, "a": {"1"}}, "=&a=1"},
		{Values{"x y": {"1+2 é&=?#;"}}, "x+y=1%2B2+%C3%A9%26%3D%3F%23%3B"},
		{Values{"a.q": {"0.9"}, "jitter-1.cap_ms": {""}}, "a.q=0.9&jitter-1.cap_ms="},
	} {
		got := Encode(tc.in)
		if got != tc.want {
			t.Errorf("Encode(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if u := url.Values(tc.in).Encode(); got != u {
			t.Errorf("Encode(%q) = %q, url.Values.Encode = %q", tc.in, got, u)
		}
	}
}

// TestEscapeBytes escapes every byte alone and between letters.
func TestEscapeBytes(t *testing.T) {
	for c := range 256 {
		for _, s := range []string{string([]byte{byte(c)}), "a" + string([]byte{byte(c)}) + "Z"} {
			if got, want := Escape(s), url.QueryEscape(s); got != want {
				t.Errorf("Escape(%q) = %q, url.QueryEscape = %q", s, got, want)
			}
			e := Escape(s)
			if got, err := unescape(e); got != s || err != nil {
				t.Errorf("unescape(Escape(%q)) = %q, %v", s, got, err)
			}
		}
	}
	if got, want := Escape("a b-_.~/é"), "a+b-_.~%2F%C3%A9"; got != want {
		t.Errorf("Escape = %q, want %q", got, want)
	}
}

func TestUnescape(t *testing.T) {
	for _, s := range []string{"", "abc", "a+b", "%41", "%4a%4A", "%", "%4", "%4g", "%g4", "a%zzzz", "%%41", "+%2B+", "%C3%A9"} {
		got, err := unescape(s)
		want, uerr := url.QueryUnescape(s)
		if got != want || errText(err) != errText(uerr) {
			t.Errorf("unescape(%q) = %q, %q; url.QueryUnescape: %q, %q", s, got, errText(err), want, errText(uerr))
		}
	}
}

// The fuzz targets compare the package with net/url on any input.

func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "a=1&b=2&a=3", "x+y=%41%zz", "a;b=1&c", "==&=a&%", "jitter-1.seed=7&a.q=0.9&debug-panic=", "a=%e2%82%ac&a=%E2%82%AC"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s)
		want, uerr := url.ParseQuery(s)
		if !reflect.DeepEqual(got, Values(want)) || errText(err) != errText(uerr) {
			t.Errorf("Parse(%q) = %q, %q; url.ParseQuery: %q, %q", s, got, errText(err), want, errText(uerr))
		}
	})
}

func FuzzEncode(f *testing.F) {
	f.Add("a", "1", "b", "x y", "a", "2")
	f.Add("", "", "é", "%+&=;#?", "~", "")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2, k3, v3 string) {
		v := Values{}
		for _, kv := range [][2]string{{k1, v1}, {k2, v2}, {k3, v3}} {
			v[kv[0]] = append(v[kv[0]], kv[1])
		}
		got := Encode(v)
		if want := url.Values(v).Encode(); got != want {
			t.Errorf("Encode(%q) = %q, url.Values.Encode = %q", v, got, want)
		}
		back, err := Parse(got)
		if err != nil || !reflect.DeepEqual(back, v) {
			t.Errorf("Parse(Encode(%q)) = %q, %v", v, back, err)
		}
	})
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "abc", "a b", "%zz", "é€\x00\xff", "-_.~!*'()"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if want := url.QueryEscape(s); got != want {
			t.Errorf("Escape(%q) = %q, url.QueryEscape = %q", s, got, want)
		}
		u, err := unescape(s)
		uw, uerr := url.QueryUnescape(s)
		if u != uw || errText(err) != errText(uerr) {
			t.Errorf("unescape(%q) = %q, %q; url.QueryUnescape: %q, %q", s, u, errText(err), uw, errText(uerr))
		}
	})
}

func TestGet(t *testing.T) {
	v := Values{"a": {"1", "2"}, "e": {}, "z": {""}}
	for _, k := range []string{"a", "e", "z", "missing"} {
		if got, want := Get(v, k), url.Values(v).Get(k); got != want {
			t.Errorf("Get(%q) = %q, url.Values.Get = %q", k, got, want)
		}
	}
	if got := Get(v, "a"); got != "1" {
		t.Errorf(`Get("a") = %q, want "1"`, got)
	}
}
