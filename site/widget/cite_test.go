package widget

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

type citeResult struct {
	Peak   int         `json:"peak"`
	Counts []int       `json:"counts"`
	Mean   float64     `json:"mean_arrival_ms"`
	Tail   float64     `json:"single_bin_tail"`
	Fits   bool        `json:"fits"`
	Exact  *float64    `json:"exact_any_bin"`
	Key    string      `json:"key"`
	Util   float64     `json:"rpm_utilization"`
	Waits  []float64   `json:"waits"`
	Big    int64       `json:"big"`
	Huge   json.Number `json:"huge"`
	Huger  json.Number `json:"huger"`
}

// sample is a result with a field of each kind, encoded (Set.Encode
// encodes only the calculators' result types).
var sample = jsonResult(citeResult{Peak: 14, Counts: []int{9, 7, 9, 12}, Mean: 48.43125, Tail: 1.30728e-5, Fits: false,
	Key: "acme:summarize:ab<c>", Util: 1.6666666666666667, Waits: []float64{50, 100.5}, Big: 20261017,
	Huge: "100000000000000000000", Huger: "1000000000000000000000000000000"})

// jsonResult is v encoded as Set.Encode encodes a calculator's result, for
// a type no calculator returns: encoding/json writes it and reads its
// top-level members back in order.
func jsonResult(v any) Encoded {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		panic("not an object")
	}
	r := &result{val: v, index: map[string]int{}}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			panic(err)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			panic(err)
		}
		r.index[k.(string)] = len(r.list)
		r.list = append(r.list, field{Name: k.(string), Raw: raw})
		// what jsonEnc hands the generic bars: a list of numbers, typed
		var n numbers
		if m, ok := v.(map[string]any); ok {
			switch xs := m[k.(string)].(type) {
			case []float64:
				n.f = xs
			case []int:
				n.i = xs
			case []int64:
				n.i64 = xs
			}
		}
		r.nums = append(r.nums, n)
	}
	return Encoded{r}
}

func TestCite(t *testing.T) {
	for _, tc := range []struct {
		lang, field, format, text, value string
	}{
		{"it", "peak", "", "14", "14"},
		{"it", "counts", "list", "9, 7, 9 e\u00a012", "[9,7,9,12]"},
		{"es", "counts", "list", "9, 7, 9 y\u00a012", "[9,7,9,12]"},
		{"zh", "counts", "list", "9、7、9和12", "[9,7,9,12]"},
		{"it", "counts[3]", "", "12", "12"},
		{"it", "counts[0]", "2", "9,00", "9"},
		{"it", "mean_arrival_ms", "", "48,43", "48.43125"},
		{"it", "mean_arrival_ms", "1", "48,4", "48.43125"},
		{"zh", "mean_arrival_ms", "1", "48.4", "48.43125"},
		{"it", "single_bin_tail", "e6", "1,30728×10⁻⁵", "0.0000130728"},
		{"it", "single_bin_tail", "", "1,307×10⁻⁵", "0.0000130728"},
		{"it", "rpm_utilization", "%0", "167%", "1.6666666666666667"},
		{"es", "rpm_utilization", "%1", "166,7\u00a0%", "1.6666666666666667"},
		{"it", "fits", "yesno", "no", "false"},
		{"es", "fits", "", "no", "false"},
		{"it", "exact_any_bin", "e6", "—", "null"},
		{"it", "key", "", "acme:summarize:ab<c>", `"acme:summarize:ab\u003cc\u003e"`},
		{"it", "waits", "list", "50 e\u00a0100,5", "[50,100.5]"},
		{"es", "big", "", "20.261.017", "20261017"},
		{"it", "huge", "", "100.000.000.000.000.000.000", "100000000000000000000"},
		{"it", "huger", "", "1×10³⁰", "1000000000000000000000000000000"},
	} {
		text, value, err := All().Cite(nil, sample, tc.field, tc.format, locale.Locale{Lang: tc.lang})
		if err != nil {
			t.Errorf("%s %s|%s: %v", tc.lang, tc.field, tc.format, err)
			continue
		}
		if text != tc.text || value != tc.value {
			t.Errorf("%s %s|%s = %q %s, want %q %s", tc.lang, tc.field, tc.format, text, value, tc.text, tc.value)
		}
	}
}

func TestCiteErrors(t *testing.T) {
	for _, tc := range []struct{ field, format, want string }{
		{"nope", "", `no field "nope"; its fields are peak, counts`},
		{"counts[4]", "", "has 4 elements (from 0 to 3)"},
		{"peak[0]", "", "is not a list"},
		{"counts[x]", "", "bad index"},
		{"counts[-1]", "", "bad index"},
		{"[1]", "", "bad field"},
		{"", "", "names no field"},
		{"peak", "%", "unknown format"},
		{"peak", "e0", "unknown format"},
		{"peak", "x", "unknown format"},
		{"peak", "01", "unknown format"},
		{"peak", "yesno", "yesno needs a true/false value"},
		{"peak", "list", "list needs a list value"},
		{"key", "2", "needs a number"},
		{"counts", "2", "needs a number"},
	} {
		_, _, err := All().Cite(nil, sample, tc.field, tc.format, locale.Locale{Lang: "it"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s|%s: error %v, want %q", tc.field, tc.format, err, tc.want)
		}
	}
	if _, _, err := All().Cite(nil, make(chan int), "x", "", locale.Locale{}); err == nil {
		t.Error("a result that is not JSON: no error")
	}
	if _, _, err := All().Cite(nil, []int{1}, "x", "", locale.Locale{}); err == nil {
		t.Error("a result that is not an object: no error")
	}
}

// FuzzCite: citations come from the articles' text; any field and format
// gives a value or an error, never a panic.
func FuzzCite(f *testing.F) {
	for _, s := range []string{"peak", "counts[2]", "counts[99999999999999999999]", "a[", "]"} {
		for _, fm := range []string{"", "2", "%1", "e6", "list", "yesno", "%-1", "e99"} {
			f.Add(s, fm)
		}
	}
	f.Fuzz(func(t *testing.T, field, format string) {
		text, value, err := All().Cite(nil, sample, field, format, locale.Locale{Lang: "it"})
		if err == nil && value == "" {
			t.Fatalf("%q|%q: no value and no error (text %q)", field, format, text)
		}
	})
}

func ExampleSet_Cite() {
	c, _ := calc.New().Lookup("attempts")
	res, _ := c.Compute(url.Values{"q": {"0.9"}})
	for _, lang := range []string{"it", "es", "zh"} {
		text, value, _ := All().Cite(nil, res, "success_probability", "%1", locale.Locale{Lang: lang})
		fmt.Println(lang, text, value)
	}
	// Output:
	// it 27,1% 0.271
	// es 27,1 % 0.271
	// zh 27.1% 0.271
}

func TestNumListAndListLen(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want []float64
		ok   bool
		n    int
	}{
		{`[]`, []float64{}, true, 0},
		{`[1,2.5,-3e-5]`, []float64{1, 2.5, -3e-5}, true, 3},
		{` [ 1 , 2 ] `, []float64{1, 2}, true, 2},
		{`["a",1]`, nil, false, 2},
		{`[[1],[2]]`, nil, false, 2},
		{`{"a":1}`, nil, false, -1},
		{`[1e400]`, nil, false, 1},
	} {
		got, ok := numList(json.RawMessage(tc.raw))
		if ok != tc.ok || len(got) != len(tc.want) {
			t.Errorf("numList(%s) = %v %v", tc.raw, got, ok)
		}
		for i := range got {
			if i < len(tc.want) && got[i] != tc.want[i] {
				t.Errorf("numList(%s)[%d] = %v", tc.raw, i, got[i])
			}
		}
		n, ok := listLen(json.RawMessage(tc.raw), 10)
		if tc.n >= 0 && (!ok || n != tc.n) || tc.n < 0 && ok {
			t.Errorf("listLen(%s) = %d %v, want %d", tc.raw, n, ok, tc.n)
		}
	}
	if n, _ := listLen(json.RawMessage(`[1,2,3,4,5]`), 2); n != 3 {
		t.Errorf("listLen stops after the limit: got %d, want 3", n)
	}
}

// A Encoded result renders and cites exactly as the value it came from.
func TestEncoded(t *testing.T) {
	if _, err := All().Encode(json.RawMessage(`{"a":1}`)); err == nil {
		t.Error("JSON text: no error")
	}
	c, _ := calc.New().Lookup("jitter")
	a, _ := c.Parse(nil)
	res, _ := c.Run(a)
	dr, err := All().Encode(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []any{res, dr} {
		text, value, err := All().Cite(c, in, "counts", "list", locale.Locale{Lang: "it"})
		if err != nil || text != "9, 7, 9, 12, 14, 14, 7, 11, 6 e\u00a011" || value != "[9,7,9,12,14,14,7,11,6,11]" {
			t.Errorf("%T: %q %q %v", in, text, value, err)
		}
	}
	o1, _ := All().RenderOutput(c, a, res, nil, locale.Locale{Lang: "zh"})
	o2, _ := All().RenderOutput(c, a, dr, nil, locale.Locale{Lang: "zh"})
	if o1 != o2 || !strings.Contains(o1, `data-view="histogram"`) {
		t.Error("RenderOutput of a Encoded result differs")
	}
}

// TestCiteEnumLabel: a text field cited whole in the default format reads
// as the calculator's label of its value (limits' binding), as in the
// widget's table; an unlabelled value, another format or no calculator
// leave the text as the result has it.
func TestCiteEnumLabel(t *testing.T) {
	c, ok := calc.New().Lookup("limits")
	if !ok {
		t.Fatal("no limits calculator")
	}
	loc := locale.Locale{Lang: "it", Strings: map[string]string{
		"field.limits.binding.both": "entrambi",
		"field.limits.binding.rpm":  "richieste (RPM)",
	}}
	run := func(q string) any {
		v, err := url.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		a, err := c.Parse(v)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Run(a)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	both := run("calls_per_min=600&rpm_limit=600&tokens_per_call=100&tpm_limit=60000")
	tpm := run("calls_per_min=100&rpm_limit=600&tokens_per_call=1000&tpm_limit=60000")
	for _, tc := range []struct {
		c          *calc.Calculator
		res        any
		field      string
		text, json string
	}{
		{c, both, "binding", "entrambi", `"both"`},
		{c, tpm, "binding", "tpm", `"tpm"`}, // no label for tpm in this table
		{nil, both, "binding", "both", `"both"`},
		{c, both, "rpm_ok", "sì", "true"},
	} {
		text, value, err := All().Cite(tc.c, tc.res, tc.field, "", loc)
		if err != nil {
			t.Fatalf("%s: %v", tc.field, err)
		}
		if text != tc.text || value != tc.json {
			t.Errorf("All().Cite(%v, %s) = %q, %s; want %q, %s", tc.c != nil, tc.field, text, value, tc.text, tc.json)
		}
	}
}

// TestCiteShown: a list element that the reader's input removed reads as
// the placeholder, not as an error (the browser would keep the old value);
// an element that exists and every other mistake are Cite's.
func TestCiteShown(t *testing.T) {
	set := Retries()
	c, _ := set.Registry().Lookup("deadline")
	for _, tc := range []struct {
		attempts, waits, field, text, value string
		err                                 bool
	}{
		{"3", "50,100", "remaining_before_attempt_ms[2]", "50", "50", false},
		{"2", "50", "remaining_before_attempt_ms[2]", "—", "", false},
		{"2", "50", "attempt_budget_ms[2]", "—", "", false},
		{"2", "50", "remaining_before_attempt_ms", "600 e\u00a0350", "[600,350]", false},
		{"2", "50", "no_such_field[2]", "", "", true},
		{"2", "50", "worst_case_ms[0]", "", "", true},
	} {
		res, err := c.Compute(url.Values{"attempts": {tc.attempts}, "waits_ms": {tc.waits}, "timeout_ms": {"200"}, "deadline_ms": {"600"}})
		if err != nil {
			t.Fatal(err)
		}
		text, value, err := set.CiteShown(c, res, tc.field, "", locale.Locale{Lang: "it"})
		if (err != nil) != tc.err || text != tc.text || value != tc.value {
			t.Errorf("attempts=%s %s = %q %q %v, want %q %q (error: %v)", tc.attempts, tc.field, text, value, err, tc.text, tc.value, tc.err)
		}
		if _, _, err := set.Cite(c, res, tc.field, "", locale.Locale{Lang: "it"}); (err == nil) != (tc.text != "—" && !tc.err) {
			t.Errorf("attempts=%s %s: Cite error %v", tc.attempts, tc.field, err)
		}
	}
}
