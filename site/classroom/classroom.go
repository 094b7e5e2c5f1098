// Package classroom makes the exercises of the classroom page and of
// `retrylab exercises`: one variant per student, derived from the class
// code and the student's name or number by a stable hash, each exercise
// with parameters drawn from a fixed grid and answers computed by the
// calculators (calc.New()), never typed.
//
// The derivation is deliberately small so that the browser repeats it
// bit for bit, from a script generated from this package
// (site/assets/classroom-derive.js, derivejs.go): the text is normalized
// (Normalize), hashed with 32-bit FNV-1a into a seed (Seed), and a
// mulberry32 generator draws, exercise by exercise, the index of one
// option of each exercise's grid. The answers of every option are computed
// when the site is built (Tables), and the page receives of each only
// salted hashes (selfcheck.go), so it checks an answer without any
// network, without WebAssembly and without carrying the answer.
package classroom

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"retrylab/core/calc"
)

// MaxText is the longest class code or student name accepted, in runes.
const MaxText = 80

// Question is one answer an exercise asks for.
type Question struct {
	// Field is the calculator's result field that holds the answer.
	Field string `json:"field"`
	// Choices, when set, make the answer one of these values (a text
	// field of the result); otherwise the answer is a number.
	Choices []string `json:"choices,omitempty"`
	// Percent: the field is a fraction, asked and shown as a percentage.
	Percent bool `json:"percent,omitempty"`
	// Decimals shown in the answer key.
	Decimals int `json:"decimals"`
	// Rel and Abs are the tolerance: an answer x is right when
	// |x - v| <= max(Abs, Rel·|v|), v the value in the unit asked (a
	// percentage for Percent). Zero and zero: exactly v.
	Rel float64 `json:"rel"`
	Abs float64 `json:"abs"`
}

// Exercise is one kind of exercise: a calculator, its fixed parameters,
// the grid of parameters a variant draws from, and the questions.
type Exercise struct {
	ID   string `json:"id"`
	Calc string `json:"calc"`
	// Slug is the article the exercise belongs to ("retries",
	// "rate-limits", "policies"), its calculator's (calc.Articles).
	Slug string `json:"slug"`
	// Fixed parameters, the same for every student.
	Fixed map[string]string `json:"fixed"`
	// Names are the parameters a variant draws; Options lists their
	// values, one tuple (in the order of Names) per option.
	Names     []string   `json:"names"`
	Options   [][]string `json:"options"`
	Questions []Question `json:"questions"`
}

// Params returns the calculator parameters of option i.
func (e *Exercise) Params(i int) url.Values {
	v := url.Values{}
	for k, s := range e.Fixed {
		v.Set(k, s)
	}
	for j, name := range e.Names {
		v.Set(name, e.Options[i][j])
	}
	return v
}

// grid returns every combination of the value lists, the first list
// varying slowest.
func grid(lists ...[]string) [][]string {
	out := [][]string{{}}
	for _, l := range lists {
		var next [][]string
		for _, prefix := range out {
			for _, v := range l {
				next = append(next, append(append([]string(nil), prefix...), v))
			}
		}
		out = next
	}
	return out
}

func seq(from, to, step float64) []string {
	var out []string
	for i := 0; ; i++ {
		v := from + float64(i)*step
		if v > to+step/2 {
			break
		}
		out = append(out, calc.FormatFloat(math.Round(v*1e6)/1e6))
	}
	return out
}

func list(s string) []string { return strings.Split(s, " ") }

// Exercises returns the exercises, in the order of the worksheet. The
// order, the option lists and their order are part of the derivation: any
// change gives every student a new variant.
func Exercises() []*Exercise {
	// Amplification: three layers of 2 to 5 attempts each.
	var amp [][]string
	for _, t := range grid(list("2 3 4 5"), list("2 3 4 5"), list("2 3 4 5")) {
		amp = append(amp, []string{strings.Join(t, ",")})
	}
	list := []*Exercise{
		{ID: "attempts", Calc: "attempts",
			Names: []string{"q", "n"}, Options: grid(seq(0.05, 0.95, 0.05), seq(2, 8, 1)),
			Questions: []Question{
				{Field: "expected_attempts", Decimals: 2, Abs: 0.005, Rel: 0.002},
				{Field: "success_probability", Percent: true, Decimals: 1, Abs: 0.05, Rel: 0.002},
			}},
		{ID: "amplification", Calc: "amplification",
			Names: []string{"attempts"}, Options: amp,
			Questions: []Question{{Field: "final_calls"}}},
		{ID: "budget", Calc: "budget",
			Fixed: map[string]string{"processes": "1", "order": "rounds"},
			Names: []string{"requests", "attempts", "tokens"}, Options: grid(list("50 100 200 400"), list("2 3 4 5"), list("0 10 20 50 100")),
			Questions: []Question{{Field: "total_attempts"}, {Field: "unbudgeted_total"}}},
		{ID: "jitter", Calc: "jitter",
			Fixed: map[string]string{"clients": "100", "base_ms": "100", "width_ms": "10", "strategy": "full", "waves": "1"},
			Names: []string{"seed"}, Options: grid(seq(1, 64, 1)),
			Questions: []Question{{Field: "peak"}, {Field: "peak_bin_start_ms"}}},
		{ID: "deadline", Calc: "deadline",
			Fixed: map[string]string{"attempts": "3", "waits_ms": "50,100", "min_attempt_ms": "100"},
			Names: []string{"timeout_ms", "deadline_ms"}, Options: grid(list("100 150 200 250 300"), list("400 500 600 700 800 1000")),
			Questions: []Question{{Field: "worst_case_ms"}, {Field: "attempts_admitted"}}},
		{ID: "peak", Calc: "peak",
			Names: []string{"clients", "bins", "threshold"},
			Options: [][]string{
				{"100", "10", "16"}, {"100", "10", "18"}, {"100", "10", "20"},
				{"200", "10", "30"}, {"200", "10", "32"}, {"200", "10", "35"},
				{"60", "20", "7"}, {"60", "20", "8"}, {"60", "20", "9"},
				{"200", "20", "18"}, {"200", "20", "20"}, {"200", "20", "22"},
			},
			Questions: []Question{{Field: "exact_any_bin", Percent: true, Decimals: 3, Rel: 0.02, Abs: 0.0005}}},
		{ID: "limits", Calc: "limits",
			Names:   []string{"rpm_limit", "tpm_limit", "calls_per_min", "tokens_per_call"},
			Options: grid(list("500 600 1000"), list("200000 300000"), list("300 600 900 1200"), list("100 200 500 1000")),
			Questions: []Question{
				{Field: "binding", Choices: []string{"rpm", "tpm", "both"}},
				{Field: "tpm_utilization", Percent: true, Decimals: 1, Abs: 0.05, Rel: 0.002},
			}},
		{ID: "capacity", Calc: "capacity",
			Fixed:   map[string]string{"rpm_limit": "0"},
			Names:   []string{"tpm_limit", "prompt_tokens", "max_output_tokens"},
			Options: grid(list("60000 90000 120000 240000"), list("1000 2000 4000"), list("500 1000 2000")),
			Questions: []Question{
				{Field: "requests_per_min", Decimals: 2, Abs: 0.005, Rel: 0.002},
				{Field: "seconds_between_requests", Decimals: 2, Abs: 0.005, Rel: 0.002},
			}},
		{ID: "concurrency", Calc: "concurrency",
			Fixed: map[string]string{"max_concurrency": "0"},
			Names: []string{"rpm", "latency_s"}, Options: grid(list("30 60 120 300 600"), list("2 5 10 20 45")),
			Questions: []Question{{Field: "in_flight", Decimals: 1, Abs: 0.05, Rel: 0.002}}},
		// Backoff with Retry-After: every drawn wait (ceilings 0.5, 1 and
		// 2 s) is below the floor, so the retries come at h, 2h, 3h and a
		// worker whose next retry would fall after the time cap gives up.
		{ID: "retry-after", Calc: "backoff", Slug: "rate-limits",
			Fixed: map[string]string{"policy": "custom", "workers": "100", "base_s": "0.5", "cap_s": "20", "max_attempts": "4", "jitter": "true"},
			Names: []string{"retry_after_s", "max_elapsed_s"}, Options: grid(list("2 3 4 5 6 8 10 12 15"), list("10 20 30")),
			Questions: []Question{{Field: "retries"}, {Field: "gave_up"}}},
		// The idempotency key hashes the canonical JSON: keys sorted, no
		// space outside strings; its length in bytes is countable by hand.
		{ID: "idempotency", Calc: "idempotency-key", Slug: "rate-limits",
			Fixed: map[string]string{"tenant": "acme", "task": "summarize"},
			Names: []string{"payload"},
			Options: [][]string{
				{`{"b": 2, "a": 1}`}, {`{"id": "doc-7", "max": 500}`}, {`{"max": 500, "id": "doc-7"}`},
				{`{"style": "brief", "doc": "x-1"}`}, {`{"n": 10, "lang": "it", "doc": "a"}`}, {`{"doc": "report", "pages": [1, 2, 3]}`},
				{`{"z": true, "a": null}`}, {`{"task": {"max": 1000, "style": "short"}}`},
			},
			Questions: []Question{{Field: "bytes"}}},
		// Naive workers against the dispatcher, on the article's provider
		// (600 RPM, 120,000 TPM) and 200 jobs waiting at time 0.
		{ID: "naive", Calc: "dispatch", Slug: "rate-limits",
			Fixed: map[string]string{"mode": "naive", "jobs": "200"},
			Names: []string{"workers", "seed"}, Options: grid(list("10 20 50 100 200"), list("1 2 3")),
			Questions: []Question{{Field: "completed"}, {Field: "rate_limited"}}},
		{ID: "dispatcher", Calc: "dispatch", Slug: "rate-limits",
			Fixed: map[string]string{"mode": "dispatcher", "jobs": "200"},
			Names: []string{"headroom", "max_concurrency"}, Options: grid(list("0.8 0.9 1 1.2 1.5"), list("5 10 20 40")),
			Questions: []Question{{Field: "rate_limited"}, {Field: "queue_wait_p95_s", Decimals: 0, Abs: 1, Rel: 0.01}}},
		// Article 3: the load a retry policy starts from, open and closed
		// loop (one policy, none, keeps the answer key cheap to compute).
		{ID: "open-load", Calc: "policies", Slug: "policies",
			Fixed:   map[string]string{"loop": "open", "policies": "none"},
			Names:   []string{"rate_per_s", "slots", "service_ms"},
			Options: grid(list("50 80 100 140 200"), list("10 20 40"), list("50 100 200")),
			Questions: []Question{
				{Field: "utilization", Percent: true, Decimals: 1, Abs: 0.05, Rel: 0.002},
			}},
		{ID: "closed-load", Calc: "policies", Slug: "policies",
			Fixed:   map[string]string{"loop": "closed", "policies": "none"},
			Names:   []string{"clients", "think_ms", "service_ms", "slots"},
			Options: grid(list("40 80 160 320"), list("500 1000 2000"), list("50 100 200"), list("10 20")),
			Questions: []Question{
				{Field: "utilization", Percent: true, Decimals: 1, Abs: 0.05, Rel: 0.002},
			}},
		// Article 4: the token bucket at full failure, split among few or
		// many clients (each client's bucket starts full with 10 tokens).
		{ID: "bucket-load", Calc: "retry-strategies", Slug: "backoff-work",
			Fixed:   map[string]string{"failure_rate": "1", "requests": "10000", "points": "1"},
			Names:   []string{"clients", "retries"},
			Options: grid(list("1 10 100 1000 5000"), list("1 2 3 5")),
			Questions: []Question{
				{Field: "adaptive_load", Decimals: 3, Abs: 0.001, Rel: 0.001},
			}},
	}
	for _, e := range list {
		e.Slug = articleSlug(e.Calc)
	}
	return list
}

// articleSlug is the slug of the article calculator name belongs to
// (calc.Articles), "" for no calculator.
func articleSlug(name string) string {
	for _, a := range calc.Articles() {
		if _, ok := a.Registry().Lookup(name); ok {
			return a.Slug
		}
	}
	return ""
}

// Normalize is the form of a class code or student name that the
// derivation hashes: surrounding space removed, inner runs of white space
// (ASCII) made one space, ASCII letters lower-cased. Other characters are
// kept as they are, so "Anna Rossi", " anna  rossi " and "ANNA ROSSI" are
// the same student, and "Élodie" is not "élodie".
func Normalize(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
			space = true
			continue
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CheckText reports a class code or student name that cannot be used:
// empty after Normalize, longer than MaxText runes, or not UTF-8.
func CheckText(what, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("the %s is not valid UTF-8", what)
	}
	n := Normalize(s)
	if n == "" {
		return fmt.Errorf("the %s is empty", what)
	}
	if c := utf8.RuneCountInString(n); c > MaxText {
		return fmt.Errorf("the %s has %d characters; at most %d", what, c, MaxText)
	}
	return nil
}

// Seed is the 32-bit FNV-1a hash of the UTF-8 bytes of
// Normalize(code) + "\n" + Normalize(student).
func Seed(code, student string) uint32 {
	return fnv1a(Normalize(code) + "\n" + Normalize(student))
}

// mulberryInc is mulberry32's increment (derivejs.go writes it into the
// script).
const mulberryInc = 0x6D2B79F5

// rng is mulberry32: a 32-bit state, one output per step.
type rng struct{ s uint32 }

func (r *rng) next() uint32 {
	r.s += mulberryInc
	t := r.s
	t = (t ^ t>>15) * (t | 1)
	t ^= t + (t^t>>7)*(t|61)
	return t ^ t>>14
}

// Pick returns, for each exercise in order, the index of the option the
// student draws: the next output of mulberry32(seed) modulo the number of
// options.
func Pick(exs []*Exercise, seed uint32) []int {
	r := rng{s: seed}
	out := make([]int, len(exs))
	for i, e := range exs {
		out[i] = int(r.next() % uint32(len(e.Options)))
	}
	return out
}

// Answer is the expected answer of one question.
type Answer struct {
	Question
	// Value is the number in the unit asked (a percentage for Percent).
	Value float64
	// Choice is the expected choice (questions with Choices).
	Choice string
}

// Item is one exercise of a variant.
type Item struct {
	Exercise *Exercise
	Option   int
	Params   url.Values
	Answers  []Answer
}

// Variant is one student's worksheet.
type Variant struct {
	Code, Student string
	Seed          uint32
	Items         []Item
}

// NewVariant derives the variant of student in class code and computes
// its answers with reg (nil: calc.New()).
func NewVariant(reg *calc.Registry, code, student string) (*Variant, error) {
	if err := CheckText("class code", code); err != nil {
		return nil, err
	}
	if err := CheckText("student", student); err != nil {
		return nil, err
	}
	if reg == nil {
		reg = calc.New()
	}
	exs := Exercises()
	v := &Variant{Code: Normalize(code), Student: Normalize(student), Seed: Seed(code, student)}
	for i, opt := range Pick(exs, v.Seed) {
		ans, err := Answers(reg, exs[i], opt)
		if err != nil {
			return nil, err
		}
		v.Items = append(v.Items, Item{Exercise: exs[i], Option: opt, Params: exs[i].Params(opt), Answers: ans})
	}
	return v, nil
}

// Answers runs the exercise's calculator on option opt and returns the
// expected answer of each question.
func Answers(reg *calc.Registry, e *Exercise, opt int) ([]Answer, error) {
	c, ok := reg.Lookup(e.Calc)
	if !ok {
		return nil, fmt.Errorf("classroom: exercise %s: no calculator %s", e.ID, e.Calc)
	}
	res, err := c.Compute(e.Params(opt))
	if err != nil {
		return nil, fmt.Errorf("classroom: exercise %s option %d: %v", e.ID, opt, err)
	}
	js, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var fields map[string]any
	if err := json.Unmarshal(js, &fields); err != nil {
		return nil, err
	}
	out := make([]Answer, len(e.Questions))
	for i, q := range e.Questions {
		out[i].Question = q
		switch v := fields[q.Field].(type) {
		case float64:
			if q.Choices != nil {
				return nil, fmt.Errorf("classroom: exercise %s: field %s is a number, not a choice", e.ID, q.Field)
			}
			if q.Percent {
				v *= 100
			}
			out[i].Value = v
		case string:
			if q.Choices == nil {
				return nil, fmt.Errorf("classroom: exercise %s: field %s is text, not a number", e.ID, q.Field)
			}
			out[i].Choice = v
		default:
			return nil, fmt.Errorf("classroom: exercise %s option %d: field %s is %v, not an answer", e.ID, opt, q.Field, fields[q.Field])
		}
	}
	return out, nil
}

// Verdict is the outcome of checking one answer.
type Verdict string

// Verdicts. The page shows the hint of each (classroom.verdict.NAME).
const (
	Right  Verdict = "right"
	High   Verdict = "high"   // a number above the tolerance
	Low    Verdict = "low"    // a number below the tolerance
	Wrong  Verdict = "wrong"  // a wrong choice
	Syntax Verdict = "syntax" // not a number (or not a choice)
	Empty  Verdict = "empty"
)

// ParseNumber reads a student's number written with the decimal mark of
// the page's language (decimal: "," or "."): an optional sign, digits,
// an optional exponent (1.3e-4), an optional trailing '%' (ignored: the
// question says the unit); spaces and apostrophes are ignored. The other
// mark is read as a group separator when it separates groups of three
// digits ("1.050" is 1050 in Italian), else as a decimal mark ("2.71" is
// 2,71 in Italian too); with both marks, the last one is the decimal mark.
func ParseNumber(s, decimal string) (float64, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	s = strings.NewReplacer(" ", "", "\u00a0", "", "\u202f", "", "'", "").Replace(s)
	if s == "" {
		return 0, false
	}
	other := "."
	if decimal != "," {
		decimal, other = ".", ","
	}
	hasDec, hasOther := strings.Contains(s, decimal), strings.Contains(s, other)
	switch {
	case hasDec && hasOther:
		d, o := decimal, other
		if strings.LastIndex(s, other) > strings.LastIndex(s, decimal) {
			d, o = other, decimal
		}
		s = strings.ReplaceAll(s, o, "")
		if strings.Count(s, d) > 1 {
			return 0, false
		}
		s = strings.Replace(s, d, ".", 1)
	case hasOther && groups(s, other):
		s = strings.ReplaceAll(s, other, "")
	case hasDec || hasOther:
		mark := decimal
		if hasOther {
			mark = other
		}
		if strings.Count(s, mark) > 1 {
			return 0, false
		}
		s = strings.Replace(s, mark, ".", 1)
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' || r == 'e' || r == 'E') {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// groups reports whether s is an optional sign and digits grouped by
// three with sep: "1.050", "-12.000.000" (not "0.013").
func groups(s, sep string) bool {
	parts := strings.Split(strings.TrimLeft(s, "+-"), sep)
	if len(parts) < 2 || len(parts[0]) < 1 || len(parts[0]) > 3 || parts[0][0] == '0' {
		return false
	}
	for i, p := range parts {
		if i > 0 && len(p) != 3 {
			return false
		}
		for _, r := range p {
			if r < '0' || r > '9' {
				return false
			}
		}
	}
	return true
}

// Tolerance is the largest distance from a.Value accepted.
func (a Answer) Tolerance() float64 { return math.Max(a.Abs, a.Rel*math.Abs(a.Value)) }

// Check judges a student's input, written with the decimal mark decimal
// ("," or "."), against the answer.
func (a Answer) Check(input, decimal string) Verdict {
	if strings.TrimSpace(input) == "" {
		return Empty
	}
	if a.Choices != nil {
		in := strings.ToLower(strings.TrimSpace(input))
		for _, c := range a.Choices {
			if in == c {
				if c == a.Choice {
					return Right
				}
				return Wrong
			}
		}
		return Syntax
	}
	x, ok := ParseNumber(input, decimal)
	if !ok {
		return Syntax
	}
	d := x - a.Value
	// A tiny slack absorbs the binary rounding of x and of the value.
	if math.Abs(d) <= a.Tolerance()*(1+1e-9)+1e-12 {
		return Right
	}
	if d > 0 {
		return High
	}
	return Low
}
