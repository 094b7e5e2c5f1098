package classroom

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/i18n"
	"retrylab/site/locale"
)

func contentDir(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "content")
}

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  Anna   Rossi ", "anna rossi"},
		{"ANNA\tROSSI", "anna rossi"},
		{"Élodie", "Élodie"},
		{"3B-2026", "3b-2026"},
		{"", ""},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSeedVectors pins the derivation that site/assets/classroom.js
// repeats: a change here must change the script too.
func TestSeedVectors(t *testing.T) {
	for _, c := range []struct {
		code, student string
		seed          uint32
		pick          string
	}{
		{"", "", 0x0f0c6cdd, ""},
		{"3B", "1", 3598916157, ""},
		{"demo", "Anna Rossi", 0, ""},
		{"Liceo Volta 2026", "学生 7", 0, ""},
	} {
		got := Seed(c.code, c.student)
		// Reference values from the JavaScript of classroom.js (node).
		if c.seed != 0 && got != c.seed {
			t.Errorf("Seed(%q, %q) = %#08x, want %#08x", c.code, c.student, got, c.seed)
		}
		t.Logf("Seed(%q, %q) = %d pick %v", c.code, c.student, got, Pick(Exercises(), got))
	}
	// mulberry32(0): the first outputs of the reference implementation.
	r := rng{}
	want := []uint32{1144304738, 1416247, 958946056}
	for i, w := range want {
		if got := r.next(); got != w {
			t.Fatalf("mulberry32(0) output %d = %d, want %d", i, got, w)
		}
	}
}

func TestSameStudentSameVariant(t *testing.T) {
	reg := calc.New()
	a, err := NewVariant(reg, "3B", "Anna Rossi")
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewVariant(reg, " 3b ", "anna   ROSSI")
	if err != nil {
		t.Fatal(err)
	}
	if a.Seed != b.Seed || len(a.Items) != len(b.Items) {
		t.Fatalf("seeds %d and %d", a.Seed, b.Seed)
	}
	for i := range a.Items {
		if a.Items[i].Params.Encode() != b.Items[i].Params.Encode() {
			t.Errorf("item %d: %s vs %s", i, a.Items[i].Params.Encode(), b.Items[i].Params.Encode())
		}
	}
}

func TestStudentsDiffer(t *testing.T) {
	reg := calc.New()
	seen := map[string]string{}
	for _, code := range []string{"3B", "4A"} {
		for s := 1; s <= 40; s++ {
			v, err := NewVariant(reg, code, fmt.Sprint(s))
			if err != nil {
				t.Fatal(err)
			}
			var key strings.Builder
			for _, it := range v.Items {
				key.WriteString(it.Params.Encode() + "|")
			}
			who := code + "/" + fmt.Sprint(s)
			if prev, dup := seen[key.String()]; dup {
				t.Errorf("%s has the same variant as %s", who, prev)
			}
			seen[key.String()] = who
		}
	}
}

func TestAnswersAreCalculatorOutput(t *testing.T) {
	reg := calc.New()
	v, err := NewVariant(reg, "3B", "7")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Items) != len(Exercises()) {
		t.Fatalf("%d exercises, want %d", len(v.Items), len(Exercises()))
	}
	for _, it := range v.Items {
		c, _ := reg.Lookup(it.Exercise.Calc)
		res, err := c.Compute(it.Params)
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(res)
		var m map[string]any
		json.Unmarshal(js, &m)
		for _, a := range it.Answers {
			switch want := m[a.Field].(type) {
			case float64:
				if a.Percent {
					want *= 100
				}
				if a.Value != want {
					t.Errorf("%s.%s = %v, calculator says %v", it.Exercise.ID, a.Field, a.Value, want)
				}
			case string:
				if a.Choice != want {
					t.Errorf("%s.%s = %q, calculator says %q", it.Exercise.ID, a.Field, a.Choice, want)
				}
			default:
				t.Errorf("%s.%s: calculator gives %v", it.Exercise.ID, a.Field, m[a.Field])
			}
		}
	}
}

// TestEveryOptionComputes runs every option of every exercise: the grids
// stay inside the calculators' ranges, and the peak probabilities stay
// large enough to be asked as a percentage.
func TestEveryOptionComputes(t *testing.T) {
	tab, err := Tables(nil)
	if err != nil {
		t.Fatal(err)
	}
	reg := calc.New()
	for i, e := range tab.Exercises {
		if len(tab.Checks[i]) != len(e.Options) {
			t.Errorf("%s: %d checks for %d options", e.ID, len(tab.Checks[i]), len(e.Options))
		}
		if e.ID != "peak" {
			continue
		}
		for opt := range e.Options {
			ans, err := Answers(reg, e, opt)
			if err != nil {
				t.Fatal(err)
			}
			if p := ans[0].Value; p < 0.01 || p > 99.99 {
				t.Errorf("peak option gives %v %%: too extreme to ask", p)
			}
		}
	}
}

func TestCheck(t *testing.T) {
	num := Answer{Question: Question{Field: "expected_attempts", Decimals: 2, Abs: 0.005, Rel: 0.002}, Value: 2.71}
	pct := Answer{Question: Question{Field: "p", Percent: true, Decimals: 3, Rel: 0.02, Abs: 0.0005}, Value: 1.3072803}
	exact := Answer{Question: Question{Field: "final_calls"}, Value: 27}
	choice := Answer{Question: Question{Field: "binding", Choices: []string{"rpm", "tpm", "both"}}, Choice: "tpm"}
	for _, c := range []struct {
		a    Answer
		in   string
		want Verdict
	}{
		{exact, "1.050", High}, {exact, "27,0", Right}, {num, "2.710", High},
		{num, "2.71", Right}, {num, "2,71", Right}, {num, " 2,714 ", Right}, {num, "2.7", Low}, {num, "2.72", High},
		{num, "", Empty}, {num, "due", Syntax}, {num, "2,7,1", Syntax}, {num, "NaN", Syntax}, {num, "1e999", Syntax},
		{pct, "1.31", Right}, {pct, "1,307 %", Right}, {pct, "1.2", Low}, {pct, "1.35", High}, {pct, "0.013", Low},
		{exact, "27", Right}, {exact, "27.0", Right}, {exact, "26", Low}, {exact, "27.5", High}, {exact, "2.7e1", Right},
		{choice, "tpm", Right}, {choice, "TPM", Right}, {choice, "rpm", Wrong}, {choice, "both", Wrong}, {choice, "x", Syntax},
	} {
		if got := c.a.Check(c.in, ","); got != c.want {
			t.Errorf("%s: Check(%q) = %s, want %s", c.a.Field, c.in, got, c.want)
		}
	}
}

// TestRightAnswersAccepted: the key's own text, as a student would copy
// it, is accepted for every question of many variants; a value just past
// the tolerance is not.
func TestRightAnswersAccepted(t *testing.T) {
	reg := calc.New()
	loc, err := i18n.Load(contentDir(t), "it")
	if err != nil {
		t.Fatal(err)
	}
	for s := 1; s <= 30; s++ {
		v, err := NewVariant(reg, "verifica", fmt.Sprint(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range v.Items {
			for _, a := range it.Answers {
				in := strings.TrimSuffix(AnswerText(loc, a), " %")
				if a.Choices != nil {
					in = a.Choice
				}
				if got := a.Check(in, loc.DecimalMark()); got != Right {
					t.Errorf("%s.%s: the key's %q gives %s (value %v)", it.Exercise.ID, a.Field, in, got, a.Value)
				}
				if a.Choices == nil {
					off := a.Value + a.Tolerance() + math.Max(1, math.Abs(a.Value))*0.01
					if got := a.Check(fmt.Sprint(off), "."); got != High {
						t.Errorf("%s.%s: %v past the tolerance gives %s", it.Exercise.ID, a.Field, off, got)
					}
				}
			}
		}
	}
}

func TestBadText(t *testing.T) {
	for _, c := range [][2]string{{"", "1"}, {"3B", "   "}, {strings.Repeat("x", MaxText+1), "1"}, {"3B", "\xff"}} {
		if _, err := NewVariant(nil, c[0], c[1]); err == nil {
			t.Errorf("NewVariant(%q, %q) accepted", c[0], c[1])
		}
	}
}

func TestStringsPresent(t *testing.T) {
	for _, lang := range locale.Languages() {
		loc, err := i18n.Load(contentDir(t), lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range Keys() {
			if _, ok := loc.Lookup(k); !ok {
				t.Errorf("content/%s/strings.toml lacks %s", lang, k)
			}
		}
		v, _ := NewVariant(nil, "3B", "1")
		for _, it := range v.Items {
			if s := Statement(loc, it); placeholderRE.MatchString(s) {
				t.Errorf("%s: %s: a placeholder is left: %s", lang, it.Exercise.ID, s)
			}
		}
	}
}

func TestSheet(t *testing.T) {
	loc, err := i18n.Load(contentDir(t), "es")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := NewVariant(nil, "3B", "1")
	sheet := Sheet(loc, []*Variant{v}, false, HTML, "")
	key := Sheet(loc, []*Variant{v}, true, Markdown, "")
	if !strings.Contains(sheet, `<html lang="es">`) || strings.Count(sheet, `class="classroom-item"`) != len(Exercises()) {
		t.Errorf("sheet: %s", sheet)
	}
	for _, it := range v.Items {
		for _, a := range it.Answers {
			if ans := AnswerText(loc, a); strings.Contains(sheet, ">"+ans+"<") && a.Choices == nil && a.Value > 100 {
				t.Errorf("the worksheet shows the answer %s", ans)
			}
			if !strings.Contains(key, AnswerText(loc, a)) {
				t.Errorf("the key lacks %s", AnswerText(loc, a))
			}
		}
	}
}

// FuzzParseNumber: a student's text never panics; a number read is
// finite; a float written by strconv reads back as itself with either
// decimal mark.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"2,71", "1.050", "0.013", "1e-4", "12,5 %", "-3", "1.234,5", "1,234.5", "2,7,1", "'", "+.5", "1e999"} {
		f.Add(s, ",")
		f.Add(s, ".")
	}
	f.Fuzz(func(t *testing.T, s, dec string) {
		v, ok := ParseNumber(s, dec)
		if ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Fatalf("ParseNumber(%q) = %v", s, v)
		}
		if x, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) && !strings.ContainsAny(s, "_xXpPiInN") && dec != "," {
			if got, ok := ParseNumber(s, "."); ok && got != x && !groups(strings.TrimSpace(s), ",") {
				t.Fatalf("ParseNumber(%q, \".\") = %v, strconv says %v", s, got, x)
			}
		}
		a := Answer{Question: Question{Field: "x", Abs: 0.5}, Value: 1}
		_ = a.Check(s, dec)
	})
}

// TestParamText: a JSON payload reaches the statement as it is (its
// commas are not a list), a list of numbers in the language's style.
func TestParamText(t *testing.T) {
	loc := locale.Locale{Lang: "it"}
	for _, tc := range []struct{ name, v, want string }{
		{"payload", `{"b": 2, "a": 1.5}`, `{"b": 2, "a": 1.5}`},
		{"payload", `[1, 2]`, `[1, 2]`},
		{"attempts", "3,4,5", "3, 4 e\u00a05"},
		{"headroom", "0.9", "0,9"},
		{"seed", "20261017", "20261017"},
	} {
		if got := paramText(loc, tc.name, tc.v); got != tc.want {
			t.Errorf("paramText(%s, %q) = %q, want %q", tc.name, tc.v, got, tc.want)
		}
	}
}

// placeholderRE is a {name} left in a statement (a JSON payload's braces
// hold quotes, so they are not one).
var placeholderRE = regexp.MustCompile(`\{[a-z_]+\}`)
