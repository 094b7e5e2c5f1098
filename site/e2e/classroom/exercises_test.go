//go:build e2e

package classroom

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"retrylab/core/calc"
	rc "retrylab/site/classroom"
	"retrylab/site/i18n"
	"retrylab/site/locale"
)

func loadLocale(t *testing.T, lang string) locale.Locale {
	t.Helper()
	loc, err := i18n.Load(filepath.Join(env.root, "content"), lang)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// openExercises opens the exercises page of lang and waits for its script.
func openExercises(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	navigate(t, ctx, env.site.URL+"/"+lang+"/exercises/")
	waitJS(t, ctx, "the classroom script", `document.querySelector('[data-classroom]').getAttribute('data-ready') === 'true'`)
}

// show types a class code and a student and asks for the exercises.
func show(t *testing.T, ctx context.Context, code, student string) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const f = document.querySelector('[data-classroom-form]');
		f.elements.code.value = %q; f.elements.student.value = %q;
		f.querySelector('button[type=submit]').click(); return true })()`, code, student))
}

type item struct {
	Exercise string `json:"exercise"`
	Option   string `json:"option"`
	Params   string `json:"params"`
}

func items(t *testing.T, ctx context.Context) (uint32, []item) {
	t.Helper()
	seed := eval[string](t, ctx, `document.querySelector('[data-classroom-sheet]').getAttribute('data-seed')`)
	s, err := strconv.ParseUint(seed, 10, 32)
	if err != nil {
		t.Fatalf("data-seed %q", seed)
	}
	return uint32(s), eval[[]item](t, ctx, `Array.from(document.querySelectorAll('.classroom-item')).map(li => ({
		exercise: li.getAttribute('data-exercise'), option: li.getAttribute('data-option'), params: li.getAttribute('data-params')}))`)
}

// sameVariant checks the page's variant against site/classroom's.
func sameVariant(t *testing.T, ctx context.Context, v *rc.Variant) {
	t.Helper()
	seed, its := items(t, ctx)
	if seed != v.Seed {
		t.Fatalf("the page derives seed %d, Go %d", seed, v.Seed)
	}
	if len(its) != len(v.Items) {
		t.Fatalf("%d exercises on the page, %d in Go", len(its), len(v.Items))
	}
	for i, it := range its {
		q, err := url.ParseQuery(it.Params)
		if err != nil {
			t.Fatal(err)
		}
		if it.Exercise != v.Items[i].Exercise.ID || it.Option != strconv.Itoa(v.Items[i].Option) || q.Encode() != v.Items[i].Params.Encode() {
			t.Errorf("exercise %d: page %s option %s (%s), Go %s option %d (%s)", i+1, it.Exercise, it.Option, q.Encode(),
				v.Items[i].Exercise.ID, v.Items[i].Option, v.Items[i].Params.Encode())
		}
	}
}

// answer types text into a question and checks it; it returns the
// verdict and its message.
func answer(t *testing.T, ctx context.Context, exID, field, text string) (string, string) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const li = document.querySelector('.classroom-item[data-exercise=%q]');
		const el = li.querySelector('[data-field=%q]'); el.value = %q;
		el.dispatchEvent(new Event('input', {bubbles: true}));
		el.parentNode.querySelector('[data-check]').click();
		const out = li.querySelector('[data-verdict-for=%q]');
		return [out.getAttribute('data-verdict') || '', out.textContent, out.hidden ? 'hidden' : 'shown'] })()`, exID, field, text, exID+"."+field)
	r := eval[[]string](t, ctx, js)
	if r[2] != "shown" {
		t.Errorf("%s.%s: the verdict is hidden", exID, field)
	}
	return r[0], r[1]
}

// TestExercises: in every language, the page derives the variant Go
// derives for a class and a student (and the same one for the same
// student written otherwise); the answers the calculators give, typed as
// the key writes them, are right; a wrong number or choice is wrong and
// comes with the exercise's hint (the page holds hashes, not the
// answers: it cannot say too high or too low).
func TestExercises(t *testing.T) {
	reg := calc.New()
	for _, c := range []struct{ lang, code, student, again string }{
		{"it", "3B Liceo Volta", "Anna Rossi", "  anna   ROSSI "},
		{"es", "4A-2026", "17", "17"},
		{"zh", "高一(3)班", "王小明", " 王小明 "},
	} {
		t.Run(c.lang, func(t *testing.T) {
			loc := loadLocale(t, c.lang)
			ctx, _ := tab(t)
			openExercises(t, ctx, c.lang)
			// The page's first variant (no JavaScript needed) is the block's.
			v0, err := rc.NewVariant(reg, "demo", "1")
			if err != nil {
				t.Fatal(err)
			}
			sameVariant(t, ctx, v0)
			v, err := rc.NewVariant(reg, c.code, c.student)
			if err != nil {
				t.Fatal(err)
			}
			show(t, ctx, c.code, c.student)
			sameVariant(t, ctx, v)
			// The statements read as site/classroom writes them.
			texts := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('.classroom-text')).map(p => p.textContent)`)
			for i, it := range v.Items {
				if i < len(texts) && texts[i] != rc.Statement(loc, it) {
					t.Errorf("%s: the page writes\n%q\nGo writes\n%q", it.Exercise.ID, texts[i], rc.Statement(loc, it))
				}
			}
			for _, it := range v.Items {
				hint := loc.T("classroom.ex." + it.Exercise.ID + ".hint")
				for _, a := range it.Answers {
					right := strings.TrimSuffix(rc.AnswerText(loc, a), " %")
					wrong := ""
					if a.Choices != nil {
						right = a.Choice
						for _, ch := range a.Choices {
							if ch != a.Choice {
								wrong = ch
							}
						}
					} else {
						wrong = loc.MaxFrac(a.Value*1.5+1, 3)
					}
					if got, msg := answer(t, ctx, it.Exercise.ID, a.Field, right); got != "right" || msg != loc.T("classroom.verdict.right") {
						t.Errorf("%s.%s: the right answer %q gives %s %q", it.Exercise.ID, a.Field, right, got, msg)
					}
					got, msg := answer(t, ctx, it.Exercise.ID, a.Field, wrong)
					want := "wrong"
					if got != want || !strings.Contains(msg, hint) {
						t.Errorf("%s.%s: the wrong answer %q gives %s %q (want %s with the hint)", it.Exercise.ID, a.Field, wrong, got, msg, want)
					}
					if a.Choices == nil {
						// beyond the tolerance by more than the grid step that
						// the page's check may add (site/classroom's SelfCheck)
						step := a.SelfCheck(it.Exercise.ID, it.Option).Step
						low := loc.MaxFrac(a.Value-a.Tolerance()-step-math.Max(1, math.Abs(a.Value))*0.02, 4)
						if got, _ := answer(t, ctx, it.Exercise.ID, a.Field, low); got != "wrong" {
							t.Errorf("%s.%s: %q gives %s, want wrong", it.Exercise.ID, a.Field, low, got)
						}
						if got, _ := answer(t, ctx, it.Exercise.ID, a.Field, "abc"); got != "syntax" {
							t.Errorf("%s.%s: abc gives %s", it.Exercise.ID, a.Field, got)
						}
					}
				}
			}
			// The same student written otherwise, after another one.
			show(t, ctx, c.code, "someone else")
			show(t, ctx, strings.ToLower(c.code), c.again)
			sameVariant(t, ctx, v)
			// An empty student is refused with a message.
			show(t, ctx, c.code, "   ")
			waitJS(t, ctx, "the message for an empty name", `!document.querySelector('[data-classroom-error]').hidden`)
			sameVariant(t, ctx, v)
		})
	}
}

var pageObj = regexp.MustCompile(`/Type\s*/Page[^s]`)

// printPDF prints the tab as Chromium prints it (A4 from the page's
// @page rule) into build/e2e-out/classroom/name and returns the page count.
func printPDF(t *testing.T, ctx context.Context, name string) int {
	t.Helper()
	yes := true
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PreferCSSPageSize: &yes, PaperWidth: 8.27, PaperHeight: 11.69})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(env.out, name)
	if err := os.WriteFile(p, res.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(res.Data, []byte("%PDF-")) {
		t.Fatalf("%s is not a PDF", p)
	}
	// The page size: A4 is 595.3 × 841.9 points.
	box := regexp.MustCompile(`/MediaBox\s*\[\s*0\s+0\s+([0-9.]+)\s+([0-9.]+)\s*\]`).FindSubmatch(res.Data)
	if box == nil {
		t.Errorf("%s: no MediaBox", name)
	} else if w, _ := strconv.ParseFloat(string(box[1]), 64); math.Abs(w-595.3) > 2 {
		t.Errorf("%s: page width %s pt, want A4 (595.3)", name, box[1])
	}
	n := len(pageObj.FindAll(res.Data, -1))
	t.Logf("%s: %d pages, %d bytes", p, n, len(res.Data))
	return n
}

// TestPrint prints the worksheet of each language: A4 pages, the
// worksheet on at most two of them with nothing wider than the printable
// width; the page has no answer key to print (retrylab exercises writes
// it) and its note for the teacher is not printed.
func TestPrint(t *testing.T) {
	for _, lang := range []string{"it", "es", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx, _ := tab(t)
			openExercises(t, ctx, lang)
			show(t, ctx, "3B", "Anna Rossi")
			// The printable width of A4 with 15 mm margins: 180 mm.
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(680, 1000)); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
				t.Fatal(err)
			}
			eval[bool](t, ctx, `document.documentElement.setAttribute('data-print', 'sheet'), true`)
			vis := eval[[]bool](t, ctx, `[getComputedStyle(document.querySelector('[data-classroom-sheet]')).display !== 'none',
				getComputedStyle(document.querySelector('[data-classroom-form]')).display !== 'none',
				getComputedStyle(document.querySelector('.classroom-name')).display !== 'none']`)
			if !vis[0] || vis[1] || !vis[2] {
				t.Errorf("printing the worksheet: sheet %v, form %v, name line %v", vis[0], vis[1], vis[2])
			}
			over := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-classroom-sheet] *')).filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(e => e.tagName + '.' + e.className)`)
			if len(over) > 0 || eval[bool](t, ctx, `document.documentElement.scrollWidth > document.documentElement.clientWidth + 1`) {
				t.Errorf("the printed worksheet overflows the A4 width: %v", over)
			}
			if shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil { // 100: PNG
				os.WriteFile(filepath.Join(env.out, "worksheet-"+lang+".png"), shot, 0o644)
			}
			// about six exercises fit an A4 page; a worksheet that needs
			// more pages than that breaks an exercise across pages or
			// wastes paper
			maxPages := (len(rc.Exercises()) + 5) / 6
			if n := printPDF(t, ctx, "worksheet-"+lang+".pdf"); n < 1 || n > maxPages {
				t.Errorf("the worksheet of %d exercises takes %d A4 pages, want 1 to %d", len(rc.Exercises()), n, maxPages)
			}
			// The answer key is not on the student's page: a note says
			// where the teacher gets it, and it is not printed.
			if n := eval[int](t, ctx, `document.querySelectorAll('[data-classroom-key], [data-print="key"], input[name=students]').length`); n != 0 {
				t.Errorf("the student's page still has %d pieces of an answer key", n)
			}
			if vis := eval[bool](t, ctx, `getComputedStyle(document.querySelector('[data-classroom-key-note]')).display !== 'none'`); vis {
				t.Errorf("the teacher's note is printed on the worksheet")
			}
			_ = time.Second
		})
	}
}

// TestParseParity types awkward numbers (grouped, both marks, exponents,
// percent signs, garbage) into the page and compares each verdict of
// classroom.js with site/classroom's Check.Judge for the same answer
// (the same hashes), and Judge with Check wherever Check says right.
func TestParseParity(t *testing.T) {
	for _, lang := range []string{"it", "zh"} {
		t.Run(lang, func(t *testing.T) {
			loc := loadLocale(t, lang)
			ctx, _ := tab(t)
			openExercises(t, ctx, lang)
			show(t, ctx, "parity", "1")
			v, err := rc.NewVariant(nil, "parity", "1")
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, it := range v.Items {
				for _, a := range it.Answers {
					if a.Choices != nil {
						continue
					}
					val := a.Value
					inputs := []string{
						strconv.FormatFloat(val, 'f', -1, 64), strings.Replace(strconv.FormatFloat(val, 'f', -1, 64), ".", ",", 1),
						strconv.FormatFloat(val, 'e', 3, 64), loc.Fixed(val, a.Decimals) + " %", loc.Fixed(val*1000, 0), loc.Fixed(val, 3),
						"1.050", "1,050", "0.013", "0,013", "1.234,5", "1,234.5", "2,7,1", " 12 345 ", "-0", "+.5", "1e999", "NaN", "0x10", "١٢", "",
					}
					ck := a.SelfCheck(it.Exercise.ID, it.Option)
					for _, in := range inputs {
						got, _ := answer(t, ctx, it.Exercise.ID, a.Field, in)
						want := string(ck.Judge(it.Exercise.ID, it.Option, a.Question, in, loc.DecimalMark()))
						if got != want {
							t.Errorf("%s.%s (value %v): %q gives %s in the page, %s in Go", it.Exercise.ID, a.Field, val, in, got, want)
						}
						if a.Check(in, loc.DecimalMark()) == rc.Right && got != "right" {
							t.Errorf("%s.%s (value %v): %q is within the tolerance and gives %s", it.Exercise.ID, a.Field, val, in, got)
						}
						n++
					}
				}
			}
			t.Logf("%d inputs compared", n)
		})
	}
}

// TestNoAnswersInSource reads, in each language, the exercises page's
// HTML and the scripts it loads as a reader of the source would: no
// answer of any option of any exercise is there in plain form (the
// calculator's number, or the key's text in the page's language, for
// those long enough not to be a parameter or a step too), and the page's
// data holds hashes where the answers were.
func TestNoAnswersInSource(t *testing.T) {
	reg := calc.New()
	for _, lang := range []string{"it", "es", "zh"} {
		t.Run(lang, func(t *testing.T) {
			loc := loadLocale(t, lang)
			src := get(t, env.site.URL+"/"+lang+"/exercises/")
			for _, m := range regexp.MustCompile(`<script src="([^"]+)"`).FindAllStringSubmatch(src, -1) {
				src += "\n" + get(t, env.site.URL+m[1])
			}
			if !strings.Contains(src, `"checks":`) || strings.Contains(src, `"answers":`) {
				t.Errorf("the page's data: checks %v, answers %v", strings.Contains(src, `"checks":`), strings.Contains(src, `"answers":`))
			}
			n := 0
			for _, e := range rc.Exercises() {
				for opt := range e.Options {
					ans, err := rc.Answers(reg, e, opt)
					if err != nil {
						t.Fatal(err)
					}
					for _, a := range ans {
						if a.Choices != nil {
							continue
						}
						for _, plain := range []string{strconv.FormatFloat(a.Value, 'g', -1, 64), strings.TrimSuffix(rc.AnswerText(loc, a), " %")} {
							if digits := strings.Count(plain, "") - 1 - strings.Count(plain, ".") - strings.Count(plain, ","); digits < 5 {
								continue
							}
							n++
							if strings.Contains(src, plain) {
								t.Errorf("%s option %d %s: the source holds the answer %s", e.ID, opt, a.Field, plain)
							}
						}
					}
				}
			}
			t.Logf("%d answers looked for in %d bytes", n, len(src))
		})
	}
}

func get(t *testing.T, u string) string {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("%s: %d %v", u, res.StatusCode, err)
	}
	return string(b)
}

// TestDeriveParity runs classroom-derive.js (generated from site/classroom)
// in the page on many inputs and compares it with Go: the seed of class
// codes and names in several scripts, the options drawn, and the answer
// hash of salts and tokens; a drift between the two fails here.
func TestDeriveParity(t *testing.T) {
	ctx, _ := tab(t)
	openExercises(t, ctx, "zh")
	exs := rc.Exercises()
	var counts []int
	for _, e := range exs {
		counts = append(counts, len(e.Options))
	}
	type vec struct {
		Code    string `json:"code"`
		Student string `json:"student"`
	}
	var vs []vec
	names := []string{"", "1", "Anna Rossi", "  ANNA\tROSSI ", "Élodie", "王小明", "高一(3)班", "José Núñez", "x\u00a0y", "😀"}
	for i, c := range names {
		for j, s := range names {
			vs = append(vs, vec{c, s + strconv.Itoa(i*len(names)+j)})
		}
	}
	js, _ := json.Marshal(vs)
	cj, _ := json.Marshal(counts)
	got := eval[[][]float64](t, ctx, `(() => { const D = window.retrylabDerive; return `+string(js)+`.map(v => {
		const s = D.seed(v.code, v.student); return [s].concat(D.pick(s, `+string(cj)+`)) }) })()`)
	for i, v := range vs {
		seed := rc.Seed(v.Code, v.Student)
		want := []float64{float64(seed)}
		for _, p := range rc.Pick(exs, seed) {
			want = append(want, float64(p))
		}
		if fmt.Sprint(got[i]) != fmt.Sprint(want) {
			t.Errorf("%q / %q: the page draws %v, Go %v", v.Code, v.Student, got[i], want)
		}
	}
	var salts [][2]string
	for _, e := range exs {
		for _, q := range e.Questions {
			for _, tok := range []string{"0", "-1", "271", "9007199254740992", "c:tpm"} {
				salts = append(salts, [2]string{rc.Salt(e.ID, len(e.Options)-1, q.Field), tok})
			}
		}
	}
	sj, _ := json.Marshal(salts)
	hashes := eval[[]string](t, ctx, `(() => `+string(sj)+`.map(p => window.retrylabDerive.answerHash(p[0], p[1])))()`)
	for i, p := range salts {
		if want := rc.AnswerHash(p[0], p[1]); hashes[i] != want {
			t.Errorf("hash of %q %q: page %s, Go %s", p[0], p[1], hashes[i], want)
		}
	}
	t.Logf("%d variants and %d hashes compared", len(vs), len(salts))
}
