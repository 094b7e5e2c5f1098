package widget

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
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
		err := All().CheckViews(c, []string{s})
		want := fmt.Sprintf("calculator %s has no view %q; its views are %s", c.Name, s, strings.Join(All().Views(c), ", "))
		if err == nil || err.Error() != want {
			t.Errorf("All().CheckViews(%q) = %v, want %s", s, err, want)
		}
	}
	loc := locale.Locale{Lang: "it"}
	for _, s := range odd {
		if s == "" || strings.ContainsAny(s, "[") {
			continue
		}
		_, _, err := All().Cite(nil, sample, s, "", loc)
		want := fmt.Sprintf("the result has no field %q; its fields are %s", s, "peak, counts, mean_arrival_ms, single_bin_tail, fits, exact_any_bin, key, rpm_utilization, waits, big, huge, huger")
		if err == nil || err.Error() != want {
			t.Errorf("All().Cite(%q) = %v\nwant %s", s, err, want)
		}
		_, _, err = All().Cite(nil, sample, "peak", s, loc)
		want = fmt.Sprintf("peak|%s: unknown format %q: use N, %%N, eN, list or yesno (N a number of digits)", s, s)
		if err == nil || err.Error() != want {
			t.Errorf("All().Cite(peak|%q) = %v\nwant %s", s, err, want)
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
		_, _, err := All().Cite(nil, sample, tc.field, tc.format, loc)
		if err == nil || err.Error() != tc.want {
			t.Errorf("All().Cite(%q|%q) = %v\nwant %s", tc.field, tc.format, err, tc.want)
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

// The errors of a MarshalJSON or MarshalText, and of a map key's
// MarshalText, read as encoding/json's and wrap the method's error, as
// its MarshalerError does.
func TestMarshalErrorWraps(t *testing.T) {
	for _, tc := range []struct {
		v   any
		err error
	}{
		{sentinelJSON{}, &marshalError{"widget.sentinelJSON", "MarshalJSON", errSentinel}},
		{[]sentinelJSON{{}}, &marshalError{"widget.sentinelJSON", "MarshalJSON", errSentinel}},
		{sentinelText{}, &marshalError{"widget.sentinelText", "MarshalText", errSentinel}},
		{map[sentinelText]int{{}: 1}, &mapKeyError{"map[widget.sentinelText]int", errSentinel}},
	} {
		_, werr := json.Marshal(tc.v)
		if werr == nil || tc.err.Error() != werr.Error() {
			t.Errorf("%T: error %v, encoding/json's %v", tc.v, tc.err, werr)
		}
		if !errors.Is(tc.err, errSentinel) {
			t.Errorf("%T: %v does not wrap the method's error", tc.v, tc.err)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, bits := range []int{32, 64} {
			e := &jsonEnc{}
			e.float(f, bits)
			gerr := e.err
			var werr error
			if bits == 32 {
				_, werr = json.Marshal(float32(f))
			} else {
				_, werr = json.Marshal(f)
			}
			if gerr == nil || werr == nil || gerr.Error() != werr.Error() {
				t.Errorf("%v (%d bits): error %v, encoding/json's %v", f, bits, gerr, werr)
			}
		}
	}
}

// A view that panics writes nothing and reports the panic.
func TestSafeView(t *testing.T) {
	var b strings.Builder
	b.WriteString("before")
	o := &outCtx{b: &b}
	err := o.safe("v", func(o *outCtx) error {
		o.b.WriteString("half-written")
		var s []int
		_ = s[3]
		return nil
	})
	if err == nil || err.Error() != "view v panicked" {
		t.Errorf("safe: %v", err)
	}
	if b.String() != "before" || o.b != &b {
		t.Errorf("safe left %q", b.String())
	}
}

func TestWritef(t *testing.T) {
	for _, tc := range []struct {
		format string
		args   []string
		want   string
	}{
		{"", nil, ""},
		{"plain", nil, "plain"},
		{`<a x="%s">%s</a>`, []string{"1", "<b>"}, `<a x="1"><b></a>`},
		{"%s%s", []string{"%s", "x"}, "%sx"}, // an argument is not a template
		{"%s-%s", []string{"a"}, "a-%s"},     // too few: the rest as written
		{"%s", []string{"a", "b"}, "a"},      // too many: the rest dropped
		{"100%", []string{"a"}, "100%"},
		{"%d %s", []string{"a"}, "%d a"}, // only %s
	} {
		var b strings.Builder
		writef(&b, tc.format, tc.args...)
		if b.String() != tc.want {
			t.Errorf("writef(%q, %q) = %q, want %q", tc.format, tc.args, b.String(), tc.want)
		}
		if len(tc.args) == strings.Count(tc.format, "%s") && !strings.Contains(tc.format, "%d") {
			want := fmt.Sprintf(tc.format, anys(tc.args)...)
			if b.String() != want {
				t.Errorf("writef(%q, %q) = %q, fmt.Sprintf %q", tc.format, tc.args, b.String(), want)
			}
		}
	}
}

func anys(s []string) []any {
	a := make([]any, len(s))
	for i, x := range s {
		a[i] = x
	}
	return a
}

// TestWritefCalls is go vet's printf check for writef: every call in the
// package passes a constant template with as many %s as arguments, and no
// other verb (writef knows only %s).
func TestWritefCalls(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "writef" {
				return true
			}
			calls++
			pos := fset.Position(call.Pos())
			format, ok := constString(call.Args[1])
			if !ok {
				t.Errorf("%s: the template is not a constant", pos)
				return true
			}
			if n := strings.Count(format, "%s"); n != len(call.Args)-2 || call.Ellipsis.IsValid() {
				t.Errorf("%s: %d %%s in the template, %d arguments", pos, n, len(call.Args)-2)
			}
			if strings.Count(format, "%") != strings.Count(format, "%s") {
				t.Errorf("%s: a %% that is not %%s in %q", pos, format)
			}
			return true
		})
	}
	if calls < 50 {
		t.Errorf("found %d calls of writef: the test looks in the wrong place", calls)
	}
}

// constString evaluates a string literal or a sum of them.
func constString(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		x, ok1 := constString(e.X)
		y, ok2 := constString(e.Y)
		return x + y, ok1 && ok2 && e.Op == token.ADD
	case *ast.ParenExpr:
		return constString(e.X)
	}
	return "", false
}

// A chart's caption is written as a figcaption, the figure's last child,
// after the data table's closed disclosure (no calculator sets one yet).
func TestChartCaption(t *testing.T) {
	ch := chart{View: "v", Title: "t", Caption: `a<b & "c"`, Categories: []string{"x"}, Series: []series{{Name: "s", Values: []float64{1}}}}
	var b strings.Builder
	ch.write(&b, locale.Locale{})
	want := `</svg><details class="widget-data"><summary>chart data<span class="visually-hidden">: t</span></summary><table tabindex="0" data-chart-data><caption>t</caption>`
	if !strings.Contains(b.String(), want) {
		t.Errorf("no %s in\n%s", want, b.String())
	}
	want = fmt.Sprintf("</table></details><figcaption>%s</figcaption></figure>", esc(ch.Caption))
	if !strings.Contains(b.String(), want) {
		t.Errorf("no %s in\n%s", want, b.String())
	}
}
