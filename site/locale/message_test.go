package locale

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"retrylab/core/calc"
)

func attempts(t *testing.T) *calc.Calculator {
	c, ok := calc.New().Lookup("attempts")
	if !ok {
		t.Fatal("no attempts calculator")
	}
	return c
}

func TestError(t *testing.T) {
	c := attempts(t)
	it := Locale{Lang: "it", Strings: map[string]string{
		"err.range":         "{param}: {value} è fuori dall'intervallo {range}",
		"param.attempts.q":  "probabilità di fallimento",
		"err.unknown_param": "parametro sconosciuto {param}; i parametri sono {names}",
	}}
	for _, tc := range []struct {
		l     Locale
		query string
		want  string
	}{
		{it, "q=1.5", `probabilità di fallimento: "1.5" è fuori dall'intervallo [0; 1]`},
		{it, "n=0", `n: "0" è fuori dall'intervallo [1; 1.000]`},
		{it, "z=1", "parametro sconosciuto z; i parametri sono q, n"},
		// not in the table: the English template, with the localized range
		{it, "q=x", `probabilità di fallimento must be a number in [0; 1], got "x"`},
		{Locale{Lang: "zh"}, "q=2", `q must be in [0, 1], got "2"`},
	} {
		q, _ := url.ParseQuery(tc.query)
		_, err := c.Parse(q)
		e, ok := err.(*calc.Error)
		if !ok {
			t.Fatalf("%s: no *calc.Error: %v", tc.query, err)
		}
		if got := tc.l.Error(e, c); got != tc.want {
			t.Errorf("%s %s: got %q, want %q", tc.l.Lang, tc.query, got, tc.want)
		}
	}
}

func TestErrorDetail(t *testing.T) {
	e := calc.Refuse("jitter", "width_ms", calc.CodeWork, "detail.jitter.bins",
		"the histogram would have {bins} bins; at most {max}", "bins", "200000", "max", "100000")
	l := Locale{Lang: "es", Strings: map[string]string{
		"err.work":           "{param}: {detail}",
		"detail.jitter.bins": "el histograma tendría {bins} intervalos; como máximo {max}",
	}}
	want := "width_ms: el histograma tendría 200.000 intervalos; como máximo 100.000"
	if got := l.Error(e, nil); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Without the detail's translation the calculator's English detail stays.
	l2 := Locale{Lang: "es", Strings: map[string]string{"err.work": "{param}: {detail}"}}
	if got := l2.Error(e, nil); !strings.Contains(got, "the histogram would have 200000 bins") {
		t.Errorf("fallback detail: %q", got)
	}
}

func TestRange(t *testing.T) {
	for _, tc := range []struct {
		lang string
		p    calc.Param
		want string
	}{
		{"it", calc.Param{Kind: calc.Float, Min: calc.Excl(0), Max: calc.Incl(1e7)}, "(0; 10.000.000]"},
		{"es", calc.Param{Kind: calc.Float, Min: calc.Incl(0.5)}, "[0,5; +∞)"},
		{"zh", calc.Param{Kind: calc.Int, Min: calc.Incl(1), Max: calc.Incl(1000)}, "[1, 1,000]"},
		{"zh", calc.Param{Kind: calc.Choice, Choices: []string{"fixed", "full", "equal"}}, "fixed、full或equal"},
		{"it", calc.Param{Kind: calc.Float}, "(-∞; +∞)"},
	} {
		if got := (Locale{Lang: tc.lang}).Range(&tc.p); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.lang, got, tc.want)
		}
	}
}

func TestTAndSubset(t *testing.T) {
	l := Locale{Lang: "it", Strings: map[string]string{"widget.reset": "Valori dell'articolo", "site.home": "Inizio"}}
	if got := l.T("widget.reset"); got != "Valori dell'articolo" {
		t.Errorf("T = %q", got)
	}
	if got := l.T("widget.none"); got != "widget.none" {
		t.Errorf("T of a missing key = %q, want the key", got)
	}
	if got := l.TOr("widget.none", "—"); got != "—" {
		t.Errorf("TOr = %q", got)
	}
	s := l.Subset("widget.")
	if len(s.Strings) != 1 || s.Lang != "it" {
		t.Errorf("Subset = %v", s)
	}
}

func Example() {
	it := Locale{Lang: "it"}
	es := Locale{Lang: "es"}
	zh := Locale{Lang: "zh"}
	fmt.Println(it.Number(28.5714), es.Number(0.0466667), es.Number(12345.678), zh.Number(1234.5678))
	fmt.Println(it.Percent(0.875, 1), es.Percent(0.875, 1), zh.Percent(0.875, 1))
	fmt.Println(it.Number(1.30728e-5), zh.Sci(1.30728e-4, 3))
	fmt.Println(it.List([]string{"9", "7", "9"}), es.List([]string{"9", "7", "9"}), zh.List([]string{"9", "7", "9"}))
	fmt.Println(it.YesNo(true), es.YesNo(true), zh.YesNo(true))
	// Output:
	// 28,57 0,04667 12.346 1,235
	// 87,5% 87,5 % 87.5%
	// 1,307×10⁻⁵ 1.31×10⁻⁴
	// 9, 7 e 9 9, 7 y 9 9、7和9
	// sì sí 是
}

// A detail that names a choice shows the choice's label.
func TestErrorChoiceLabel(t *testing.T) {
	c := &calc.Calculator{Name: "backoff", Params: []calc.Param{
		{Name: "policy", Kind: calc.Choice, Default: "custom", Choices: []string{"custom", "batch"}},
		{Name: "max_attempts", Kind: calc.Int, Default: "3"},
	}}
	e := calc.Refuse("backoff", "max_attempts", calc.CodeConstraint, "detail.backoff.preset", "the {policy} policy sets {param}", "policy", "batch")
	l := Locale{Lang: "it", Strings: map[string]string{
		"err.constraint":                    "{param}: {detail}",
		"detail.backoff.preset":             "la politica {policy} fissa già {param}",
		"param.backoff.max_attempts":        "tentativi al massimo",
		"param.backoff.policy.choice.batch": "per lotti",
	}}
	want := "tentativi al massimo: la politica per lotti fissa già tentativi al massimo"
	if got := l.Error(e, c); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
