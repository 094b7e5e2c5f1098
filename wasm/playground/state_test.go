package playground

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
)

func attempts(t *testing.T) *calc.Calculator {
	t.Helper()
	c, ok := calc.New().Lookup("attempts")
	if !ok {
		t.Fatal("no attempts calculator")
	}
	return c
}

func TestURLStateRoundTrip(t *testing.T) {
	c := attempts(t)
	page := pageValues(c, query.Values{"q": {"0.9"}})
	if got := query.Encode(page); got != "n=3&q=0.9" {
		t.Fatalf("pageValues = %q, want n=3&q=0.9", got)
	}
	_, pageCanon, err := canonical(c, page)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		form   query.Values
		search string // the URL after writing the state of widget "a" into ?other=1&b.q=0.2
	}{
		{"page values", query.Values{"q": {"0.9"}, "n": {"3"}}, "?b.q=0.2&other=1"},
		{"canonical equal", query.Values{"q": {"0.90"}, "n": {"3.0"}}, "?b.q=0.2&other=1"},
		{"one changed", query.Values{"q": {"0.25"}, "n": {"3"}}, "?a.q=0.25&b.q=0.2&other=1"},
		{"both changed", query.Values{"q": {"1"}, "n": {"7"}}, "?a.n=7&a.q=1&b.q=0.2&other=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, canon, err := canonical(c, tt.form)
			if err != nil {
				t.Fatal(err)
			}
			q := query.Values{"other": {"1"}, "b.q": {"0.2"}, "a.n": {"99"}}
			setWidget(q, "a", diff(c, pageCanon, canon))
			if got := encodeSearch(q); got != tt.search {
				t.Fatalf("search = %q, want %q", got, tt.search)
			}
			// reading the URL back gives the same canonical values
			back := overlay(page, widgetQuery(q, "a"))
			_, canon2, err := canonical(c, back)
			if err != nil {
				t.Fatal(err)
			}
			if query.Encode(canon2) != query.Encode(canon) {
				t.Fatalf("round trip %q, want %q", query.Encode(canon2), query.Encode(canon))
			}
		})
	}
}

func TestOptionalAbsentIsEmptyValue(t *testing.T) {
	c := &calc.Calculator{Name: "x", Params: []calc.Param{
		{Name: "base", Kind: calc.Float, Default: "1"},
		{Name: "cap", Kind: calc.Float, Optional: true},
	}}
	page := pageValues(c, query.Values{"cap": {"5"}})
	cur := query.Values{"base": {"1"}} // the reader cleared cap
	d := diff(c, page, cur)
	if got := query.Encode(d); got != "cap=" {
		t.Fatalf("diff = %q, want cap=", got)
	}
	back := overlay(page, d)
	if _, has := back["cap"]; has || query.Get(back, "base") != "1" {
		t.Fatalf("overlay = %v, want base only", back)
	}
}

func TestWidgetQueryIgnoresOtherPrefixes(t *testing.T) {
	q, _ := query.Parse("a.q=1&ab.q=2&a.=3&a=4&a.n=5&a.n=6")
	got := widgetQuery(q, "a")
	if query.Encode(got) != "n=6&q=1" {
		t.Fatalf("widgetQuery = %q, want n=6&q=1", query.Encode(got))
	}
}

func TestWithSearch(t *testing.T) {
	tests := []struct{ href, search, want string }{
		{"/es/retries/", "?a.q=1", "/es/retries/?a.q=1"},
		{"/es/retries/?old=1#x", "?a.q=1", "/es/retries/?a.q=1#x"},
		{"/es/retries/?old=1", "", "/es/retries/"},
	}
	for _, tt := range tests {
		if got := withSearch(tt.href, tt.search); got != tt.want {
			t.Errorf("withSearch(%q, %q) = %q, want %q", tt.href, tt.search, got, tt.want)
		}
	}
}

func TestBoolText(t *testing.T) {
	for s, want := range map[string]bool{"true": true, "ON": true, "1": true, "false": false, "": false, "no": false} {
		if boolText(s) != want {
			t.Errorf("boolText(%q) = %v", s, !want)
		}
	}
}

// TestValidNumber holds validNumber to HTML's valid floating-point
// number (what an <input type="number"> keeps without a warning).
func TestValidNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-1": true, "0.5": true, ".5": true, "-.5": true, "1e3": true, "1E-3": true, "1.5e+10": true,
		"": false, "abc": false, "1.": false, "+1": false, "1e": false, "1e+": false, "--1": false, " 1": false,
		"1 ": false, "0x10": false, "1_000": false, "NaN": false, "Infinity": false, "1e400": false, "-": false,
		".": false, "1,5": false, "१": false,
	} {
		if got := validNumber(s); got != want {
			t.Errorf("validNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

// htmlNumber is the HTML standard's grammar of a valid floating-point
// number, as a regular expression.
var htmlNumber = regexp.MustCompile(`^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$`)

// FuzzValidNumber holds validNumber to the grammar (and a finite value).
func FuzzValidNumber(f *testing.F) {
	for _, s := range []string{"0", "-1.5e3", ".5", "1.", "+1", "1e400", "abc", "0x1p3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := htmlNumber.MatchString(s)
		if want {
			v, err := strconv.ParseFloat(s, 64)
			want = err == nil && !math.IsInf(v, 0)
		}
		if got := validNumber(s); got != want {
			t.Fatalf("validNumber(%q) = %v, want %v", s, got, want)
		}
	})
}

// numberTextCases are TestNumberText's table, run also beside player.js'
// fieldText (TestFieldTextMatchesGo, build tag e2e: it needs node).
var numberTextCases = []struct{ in, decimal, want string }{
	{"0,7", ",", "0.7"},
	{"0.7", ",", "0.7"},
	{"0,7", ".", "0.7"},
	{" 12 ", ",", "12"},
	{"300.000", ",", "300000"}, // it, es: as the results table writes it
	{"300,000", ".", "300000"}, // zh
	{"1.234.567,5", ",", "1234567.5"},
	{"-1.500", ",", "-1500"},
	{"1,500.25", ".", "1500.25"},
	{"0.125", ",", "0.125"}, // no group starts with 0
	{"1.5", ",", "1.5"},     // a group has three digits
	{"1.5000", ",", "1.5000"},
	{"1234.567", ",", "1234.567"}, // a first group has at most three
	{"1.23.456", ",", "1.23.456"}, // left to the calculator's message
	{"1,500", ",", "1.500"},       // the page's own decimal mark
	{"", ",", ""},
	{"-", ",", "-"},
}

// TestNumberText: a number field reads the page's decimal mark and the
// other one as a point, and a number grouped as the page writes its
// results (a result copied into a field) whole.
func TestNumberText(t *testing.T) {
	for _, tt := range numberTextCases {
		if got := numberText(tt.in, tt.decimal); got != tt.want {
			t.Errorf("numberText(%q, %q) = %q, want %q", tt.in, tt.decimal, got, tt.want)
		}
	}
}

// FuzzNumberText: any text, on a page of either decimal mark, keeps its
// digits in order, and a comma in it is read (as the point or as a group
// mark).
func FuzzNumberText(f *testing.F) {
	for _, s := range []string{"300.000", "1.234.567,5", "0,7", "-1,500.25", ".", "1..000", "+.000"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, comma bool) {
		decimal := "."
		if comma {
			decimal = ","
		}
		got := numberText(s, decimal)
		digits := func(x string) string {
			return strings.Map(func(r rune) rune { return map[bool]rune{true: r, false: -1}['0' <= r && r <= '9'] }, x)
		}
		if digits(got) != digits(s) {
			t.Errorf("numberText(%q, %q) = %q: digits changed", s, decimal, got)
		}
		if strings.Contains(s, ",") && strings.Count(got, ",") >= strings.Count(s, ",") {
			t.Errorf("numberText(%q, %q) = %q: no comma was read (as the point or as a group mark)", s, decimal, got)
		}
	})
}
