package classroom

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
)

// TestSelfCheckTolerance: for every option of every exercise, the page's
// check (Check.Judge, from the hashes alone) accepts every number within
// the question's tolerance (the value, both ends, the floats just inside
// them, points between, and the key's own rounded text) and refuses
// numbers beyond the tolerance by more than a grid step; a choice
// is right only when it is the calculator's. Judge agrees with
// Answer.Check wherever Check says right.
func TestSelfCheckTolerance(t *testing.T) {
	reg := calc.New()
	n := 0
	for _, e := range Exercises() {
		for opt := range e.Options {
			ans, err := Answers(reg, e, opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range ans {
				c := a.SelfCheck(e.ID, opt)
				judge := func(in string) Verdict { return c.Judge(e.ID, opt, a.Question, in, ".") }
				if a.Choices != nil {
					for _, ch := range a.Choices {
						want := Wrong
						if ch == a.Choice {
							want = Right
						}
						if got := judge(strings.ToUpper(ch)); got != want {
							t.Errorf("%s/%d %s: choice %s gives %s, want %s", e.ID, opt, a.Field, ch, got, want)
						}
					}
					continue
				}
				tol := a.Tolerance()
				if len(c.Hashes) > 12 || !c.Exact && c.Step > tol/2 {
					t.Errorf("%s/%d %s: %d hashes, step %v for a tolerance of %v", e.ID, opt, a.Field, len(c.Hashes), c.Step, tol)
				}
				inside := []float64{a.Value, a.Value - tol, a.Value + tol,
					math.Nextafter(a.Value-tol, math.Inf(1)), math.Nextafter(a.Value+tol, math.Inf(-1))}
				for f := -1.0; f <= 1; f += 0.125 {
					inside = append(inside, a.Value+f*tol)
				}
				for _, x := range inside {
					in := strconv.FormatFloat(x, 'g', -1, 64)
					if a.Check(in, ".") != Right {
						continue // Check's own slack is the reference; beyond it the test asks nothing
					}
					n++
					if got := judge(in); got != Right {
						t.Errorf("%s/%d %s (value %v ± %v, step %v): %s is within the tolerance and gives %s", e.ID, opt, a.Field, a.Value, tol, c.Step, in, got)
					}
				}
				// the key's text, as printed
				key := strings.TrimSuffix(strconv.FormatFloat(a.Value, 'f', a.Decimals, 64), "")
				if a.Check(key, ".") == Right && judge(key) != Right {
					t.Errorf("%s/%d %s: the key's %s gives %s", e.ID, opt, a.Field, key, judge(key))
				}
				far := tol + c.Step + math.Max(1e-9, math.Abs(a.Value)*1e-9) + c.Step*1e-6
				if a.Value != 0 || tol > 0 {
					for _, x := range []float64{a.Value + far, a.Value - far, a.Value*1.5 + 1} {
						in := strconv.FormatFloat(x, 'g', -1, 64)
						if got := judge(in); got != Wrong {
							t.Errorf("%s/%d %s (value %v ± %v, step %v): %s is beyond and gives %s", e.ID, opt, a.Field, a.Value, tol, c.Step, in, got)
						}
					}
				}
				if got := judge("abc"); got != Syntax {
					t.Errorf("%s: abc gives %s", e.ID, got)
				}
				if got := judge(" "); got != Empty {
					t.Errorf("%s: blank gives %s", e.ID, got)
				}
			}
		}
	}
	t.Logf("%d answers within the tolerance checked", n)
}

// TestSelfCheckTable is table-driven over hand-made answers: the grid
// step and what checks right.
func TestSelfCheckTable(t *testing.T) {
	for _, c := range []struct {
		a     Answer
		step  float64
		right []string
		wrong []string
	}{
		{Answer{Question: Question{Field: "e", Decimals: 2, Abs: 0.005, Rel: 0.002}, Value: 2.71}, 0.002,
			[]string{"2.71", "2,71", "2,705", "2,715", "2,7149"}, []string{"2.7", "2,7025", "2.72", "2.73", "27.1"}},
		{Answer{Question: Question{Field: "n"}, Value: 27}, 1,
			[]string{"27", "27.0", "2.7e1", "27,000"}, []string{"26", "28", "27.4", "27.5", "270"}},
		{Answer{Question: Question{Field: "p", Percent: true, Decimals: 3, Rel: 0.02, Abs: 0.0005}, Value: 1.3072803}, 0.01,
			[]string{"1,307", "1.31", "1.29", "1,28"}, []string{"1.2", "1.35", "0.013"}},
		{Answer{Question: Question{Field: "w", Decimals: 0, Abs: 1, Rel: 0.01}, Value: 431.6}, 2,
			[]string{"432", "427.3", "435.9"}, []string{"420", "440"}},
		{Answer{Question: Question{Field: "b", Choices: []string{"rpm", "tpm", "both"}}, Choice: "tpm"}, 0,
			[]string{"tpm", " TPM "}, []string{"rpm", "both"}},
	} {
		ck := c.a.SelfCheck("x", 3)
		if ck.Step != c.step {
			t.Errorf("%s: step %v, want %v", c.a.Field, ck.Step, c.step)
		}
		for _, in := range c.right {
			if got := ck.Judge("x", 3, c.a.Question, in, ","); got != Right {
				t.Errorf("%s = %v: %q gives %s, want right", c.a.Field, c.a.Value, in, got)
			}
		}
		for _, in := range c.wrong {
			if got := ck.Judge("x", 3, c.a.Question, in, ","); got != Wrong {
				t.Errorf("%s = %v: %q gives %s, want wrong", c.a.Field, c.a.Value, in, got)
			}
		}
		// another option's salt: the same answer does not check
		if got := ck.Judge("x", 4, c.a.Question, c.right[0], ","); got != Wrong {
			t.Errorf("%s: option 4's salt accepts option 3's answer", c.a.Field)
		}
	}
}

// TestTableHoldsNoAnswer: the JSON the page receives holds, besides the
// exercises, only grid steps and 8-hex-digit hashes, and no answer's
// full text (the float the calculator gave, when it has five characters
// or more: shorter ones are the grids' parameters too) occurs in it.
func TestTableHoldsNoAnswer(t *testing.T) {
	tab, err := Tables(nil)
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(tab.Checks)
	if err != nil {
		t.Fatal(err)
	}
	var raw [][][]map[string]any
	if err := json.Unmarshal(js, &raw); err != nil {
		t.Fatal(err)
	}
	for _, ex := range raw {
		for _, opt := range ex {
			for _, q := range opt {
				for k, v := range q {
					switch k {
					case "step", "exact":
					case "hashes":
						for _, h := range v.([]any) {
							if s, _ := h.(string); len(s) != 8 || strings.Trim(s, "0123456789abcdef") != "" {
								t.Fatalf("hash %v", h)
							}
						}
					default:
						t.Fatalf("the page's check holds %s: %v", k, v)
					}
				}
			}
		}
	}
	all, _ := json.Marshal(tab)
	reg := calc.New()
	for _, e := range tab.Exercises {
		for opt := range e.Options {
			ans, _ := Answers(reg, e, opt)
			for _, a := range ans {
				if a.Choices == nil && a.Value != math.Trunc(a.Value) {
					if s := strconv.FormatFloat(a.Value, 'g', -1, 64); len(s) >= 5 && strings.Contains(string(all), s) {
						t.Errorf("%s/%d %s: the table holds %s", e.ID, opt, a.Field, s)
					}
				}
			}
		}
	}
}

// TestDeriveJSFresh: site/assets/classroom-derive.js is DeriveJS's
// output (go generate ./site/classroom writes it).
func TestDeriveJSFresh(t *testing.T) {
	got, err := os.ReadFile(filepath.Join(contentDir(t), "..", DeriveJSFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != DeriveJS() {
		t.Errorf("%s is stale: run go generate ./site/classroom", DeriveJSFile)
	}
	for _, name := range []string{"FNV_", "MIX1", "MIX2", "MULBERRY_INC", "MAX_TEXT"} {
		if strings.Contains(DeriveJS(), name) {
			t.Errorf("DeriveJS leaves %s unreplaced", name)
		}
	}
	_ = fmt.Sprint
}

// FuzzJudge: any input to the page's check gives a verdict and never
// panics; a number the tolerance accepts is right.
func FuzzJudge(f *testing.F) {
	for _, s := range []string{"2,71", "2.7149", "1e308", "-0", "9007199254740993", "1e-320", "tpm"} {
		f.Add(s)
	}
	a := Answer{Question: Question{Field: "e", Decimals: 2, Abs: 0.005, Rel: 0.002}, Value: 2.71}
	c := a.SelfCheck("e", 0)
	f.Fuzz(func(t *testing.T, s string) {
		got := c.Judge("e", 0, a.Question, s, ",")
		if a.Check(s, ",") == Right && got != Right {
			t.Fatalf("%q: Check says right, Judge %s", s, got)
		}
	})
}
