package widget

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"retrylab/calc"
	"retrylab/site/locale"
)

// The package writes its texts without fmt (the browser's module does not
// link it). These tests compare the messages with what fmt's verbs wrote
// before (%q, %d, %s), on values where the verbs matter: quotes,
// backslashes, control characters, non-ASCII text.

func TestErrorTextsAsFmt(t *testing.T) {
	odd := []string{`a"b`, `back\slash`, "tab\there", "ctl\x01", "città", "日本", "bad\xffutf8", ""}
	for _, s := range odd {
		if s == "" {
			continue
		}
		err := CheckID(s)
		want := fmt.Sprintf("widget id %q may hold only lower-case letters, digits and '-'", s)
		if err == nil || err.Error() != want {
			t.Errorf("CheckID(%q) = %v, want %s", s, err, want)
		}
	}
	c, ok := calc.New().Lookup("jitter")
	if !ok {
		t.Fatal("no jitter calculator")
	}
	for _, s := range odd {
		err := CheckViews(c, []string{s})
		want := fmt.Sprintf("calculator %s has no view %q; its views are %s", c.Name, s, strings.Join(Views(c), ", "))
		if err == nil || err.Error() != want {
			t.Errorf("CheckViews(%q) = %v, want %s", s, err, want)
		}
	}
	loc := locale.Locale{Lang: "it"}
	for _, s := range odd {
		if s == "" || strings.ContainsAny(s, "[") {
			continue
		}
		_, _, err := Cite(nil, sample, s, "", loc)
		want := fmt.Sprintf("the result has no field %q; its fields are %s", s, "peak, counts, mean_arrival_ms, single_bin_tail, fits, exact_any_bin, key, rpm_utilization, waits, big, huge, huger")
		if err == nil || err.Error() != want {
			t.Errorf("Cite(%q) = %v\nwant %s", s, err, want)
		}
		_, _, err = Cite(nil, sample, "peak", s, loc)
		want = fmt.Sprintf("peak|%s: unknown format %q: use N, %%N, eN, list or yesno (N a number of digits)", s, s)
		if err == nil || err.Error() != want {
			t.Errorf("Cite(peak|%q) = %v\nwant %s", s, err, want)
		}
	}
	for _, tc := range []struct {
		field, format, want string
	}{
		{"counts[4]", "", fmt.Sprintf("%s: field %q has %d elements (from 0 to %d)", "counts[4]", "counts", 4, 3)},
		{"peak[0]", "", fmt.Sprintf("field %q is not a list, so %s has no element", "peak", "peak[0]")},
		{`x"[0]`, "", fmt.Sprintf("the result has no field %q; its fields are %s", `x"`, "peak, counts, mean_arrival_ms, single_bin_tail, fits, exact_any_bin, key, rpm_utilization, waits, big, huge, huger")},
		{"counts[x]", "", fmt.Sprintf("bad index in %q: write a whole number from 0", "counts[x]")},
		{"[1]", "", fmt.Sprintf("bad field %q: write NAME or NAME[i]", "[1]")},
		{"", "", "the citation names no field"},
		{"peak", "yesno", fmt.Sprintf("%s|%s: yesno needs a true/false value, got %s", "peak", "yesno", "14")},
		{"peak", "list", fmt.Sprintf("%s|%s: list needs a list value, got %s", "peak", "list", "14")},
		{"key", "2", fmt.Sprintf("%s|%s: format %s needs a number, got %s", "key", "2", "2", `"acme:summarize:ab\u003cc\u003e"`)},
	} {
		_, _, err := Cite(nil, sample, tc.field, tc.format, loc)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Cite(%q|%q) = %v\nwant %s", tc.field, tc.format, err, tc.want)
		}
	}
	if _, err := Render(Spec{ID: "x"}, loc); err == nil || err.Error() != "widget: no calculator" {
		t.Errorf("Render without a calculator: %v", err)
	}
}

type sentinelJSON struct{}

var errSentinel = errors.New("refused: a\"quote")

func (sentinelJSON) MarshalJSON() ([]byte, error) { return nil, errSentinel }

type sentinelText struct{}

func (sentinelText) MarshalText() ([]byte, error) { return nil, errSentinel }

// The errors of a MarshalJSON or MarshalText read as encoding/json's and
// wrap the method's error, as its MarshalerError does.
func TestMarshalErrorWraps(t *testing.T) {
	for _, v := range []any{
		sentinelJSON{}, []sentinelJSON{{}}, map[string]any{"a": sentinelJSON{}},
		sentinelText{}, map[string]sentinelText{"k": {}},
	} {
		_, gerr := appendJSON(nil, v)
		_, werr := json.Marshal(v)
		if gerr == nil || werr == nil || gerr.Error() != werr.Error() {
			t.Errorf("%T: error %v, encoding/json's %v", v, gerr, werr)
		}
		if !errors.Is(gerr, errSentinel) {
			t.Errorf("%T: %v does not wrap the method's error", v, gerr)
		}
		var me *marshalError
		if !errors.As(gerr, &me) || me.typ == nil {
			t.Errorf("%T: %v is not a *marshalError", v, gerr)
		}
	}
	// the other errors read as encoding/json's too
	for _, v := range []any{
		map[errTextKey]int{{a: [1]int{1}}: 1},
		json.Number("1."), json.Number(`1"`),
		struct{ F func() }{},
	} {
		_, gerr := appendJSON(nil, v)
		_, werr := json.Marshal(v)
		if gerr == nil || werr == nil || gerr.Error() != werr.Error() {
			t.Errorf("%T: error %v, encoding/json's %v", v, gerr, werr)
		}
	}
}

type stringer struct{}

func (stringer) String() string { return "a stringer" }

func TestPanicText(t *testing.T) {
	for _, tc := range []struct {
		p    any
		want string
	}{
		{errors.New("an error"), "an error"},
		{"a string", "a string"},
		{stringer{}, "a stringer"},
		{42, "panic of type int"},
		{[]int{1}, "panic of type []int"},
	} {
		if got := panicText(tc.p); got != tc.want {
			t.Errorf("panicText(%#v) = %q, want %q", tc.p, got, tc.want)
		}
	}
	// a view that panics writes nothing and reports the panic
	var b strings.Builder
	b.WriteString("before")
	o := &outCtx{b: &b}
	err := o.safe("v", func(o *outCtx) error {
		o.b.WriteString("half-written")
		var s []int
		_ = s[3]
		return nil
	})
	if err == nil || !strings.HasPrefix(err.Error(), "view v: runtime error: index out of range") {
		t.Errorf("safe: %v", err)
	}
	if b.String() != "before" || o.b != &b {
		t.Errorf("safe left %q", b.String())
	}
}

// A chart's caption is written as a figcaption (no calculator sets one yet).
func TestChartCaption(t *testing.T) {
	ch := chart{View: "v", Title: "t", Caption: `a<b & "c"`, Categories: []string{"x"}, Series: []series{{Name: "s", Values: []float64{1}}}}
	var b strings.Builder
	ch.write(&b, locale.Locale{})
	want := fmt.Sprintf("</svg><figcaption>%s</figcaption><table", esc(ch.Caption))
	if !strings.Contains(b.String(), want) {
		t.Errorf("no %s in\n%s", want, b.String())
	}
}
