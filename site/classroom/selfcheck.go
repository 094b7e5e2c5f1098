package classroom

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// The self-check of the exercises page (issue 34). The page must check
// a student's answer without carrying it: for each option of each
// exercise it holds, per question, a Check: a few salted hashes of the
// right answer rounded to a grid (Step), never the answer itself.
//
// A number x is rounded to the grid index k = floor(x/Step + 1/2); the
// page hashes (salt, k) and looks the hash up in the Check's list, which
// holds the hash of every k that an answer within the tolerance rounds
// to. Because the rounding is monotone, every x with |x − v| ≤ tolerance
// rounds into that list: a right answer always checks right. Step is
// the largest of 1, 2 or 5 times a power of ten not above the tolerance,
// so at most a few hashes are kept and an answer up to Step/2 beyond the
// tolerance may check right too. An exact question (no tolerance) keeps
// the one index of its value and accepts only a multiple of the grid.
// A choice keeps the hash of the right choice.
//
// The salt is the exercise, the option and the question: the page
// checks any class code and any student, so it cannot salt with them
// (the build does not know them). The hashes hide the answer from a
// reader of the page's source; they do not stop anyone from trying
// numbers until one checks right (the check itself answers that), nor
// from hashing every candidate of the small grid offline.
//
// The hash and the variant's derivation run in Go here and in the
// browser in classroom-derive.js, generated from this package
// (derivejs.go); TestDeriveParity (site/e2e/classroom) runs both on the
// same inputs.

// Check is what the page holds of one answer of one option.
type Check struct {
	// Step is the grid a number is rounded to (0 for a choice).
	Step float64 `json:"step,omitempty"`
	// Exact: only a multiple of Step is right (questions without a
	// tolerance).
	Exact bool `json:"exact,omitempty"`
	// Hashes of the grid indices (or the choice) that check right,
	// sorted.
	Hashes []string `json:"hashes"`
}

// Constants of the hashes (FNV-1a, 32 bits) and of the murmur3 mix that
// ends the answer hash; derivejs.go writes the same into the script.
const (
	fnvOffset32 = 2166136261
	fnvPrime32  = 16777619
	mix1        = 0x85ebca6b
	mix2        = 0xc2b2ae35
)

// fnv1a is the 32-bit FNV-1a hash of s's bytes.
func fnv1a(s string) uint32 {
	h := uint32(fnvOffset32)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime32
	}
	return h
}

// AnswerHash is the hash the page compares: FNV-1a of salt, a newline
// and token, mixed by murmur3's finalizer, in 8 hex digits.
func AnswerHash(salt, token string) string {
	h := fnv1a(salt + "\n" + token)
	h ^= h >> 16
	h *= mix1
	h ^= h >> 13
	h *= mix2
	h ^= h >> 16
	return fmt.Sprintf("%08x", h)
}

// Salt is the salt of question field of option opt of exercise id.
func Salt(id string, opt int, field string) string {
	return id + "/" + strconv.Itoa(opt) + "/" + field
}

// gridStep is the largest of 1, 2 and 5 times a power of ten that is not
// above half of tol (> 0).
func gridStep(tol float64) float64 {
	tol /= 2
	e := int(math.Floor(math.Log10(tol)))
	for ; ; e-- {
		for _, m := range []float64{5, 2, 1} {
			if s := m * math.Pow10(e); s <= tol {
				return s
			}
		}
	}
}

// gridIndex is the index of x on the grid of step s: floor(x/s + 1/2),
// the same floating-point operations as the script's; ok is false when
// it is not an integer the hash can spell (beyond 2^53).
func gridIndex(x, s float64) (int64, bool) {
	k := math.Floor(x/s + 0.5)
	if math.IsNaN(k) || math.Abs(k) > 1<<53 {
		return 0, false
	}
	return int64(k), true
}

// slack is Check's: the tolerance plus what absorbs binary rounding.
func slack(tol float64) float64 { return tol*(1+1e-9) + 1e-12 }

// SelfCheck is the Check of answer a of option opt of exercise id.
func (a Answer) SelfCheck(id string, opt int) Check {
	salt := Salt(id, opt, a.Field)
	if a.Choices != nil {
		return Check{Hashes: []string{AnswerHash(salt, "c:"+a.Choice)}}
	}
	tol := a.Tolerance()
	if tol == 0 {
		s := math.Pow10(-a.Decimals)
		k, _ := gridIndex(a.Value, s)
		return Check{Step: s, Exact: true, Hashes: []string{AnswerHash(salt, strconv.FormatInt(k, 10))}}
	}
	s := gridStep(tol)
	lo, _ := gridIndex(a.Value-slack(tol), s)
	hi, _ := gridIndex(a.Value+slack(tol), s)
	c := Check{Step: s}
	for k := lo; k <= hi; k++ {
		c.Hashes = append(c.Hashes, AnswerHash(salt, strconv.FormatInt(k, 10)))
	}
	sort.Strings(c.Hashes)
	return c
}

// Judge is the page's verdict on input (written with the decimal mark
// decimal) for question q of option opt of exercise id, from its Check
// alone: Right, Wrong (a number or a choice that is not right), Syntax
// or Empty. classroom.js judges the same way.
func (c Check) Judge(id string, opt int, q Question, input, decimal string) Verdict {
	if strings.TrimSpace(input) == "" {
		return Empty
	}
	salt := Salt(id, opt, q.Field)
	var token string
	if q.Choices != nil {
		in := strings.ToLower(strings.TrimSpace(input))
		known := false
		for _, ch := range q.Choices {
			known = known || ch == in
		}
		if !known {
			return Syntax
		}
		token = "c:" + in
	} else {
		x, ok := ParseNumber(input, decimal)
		if !ok {
			return Syntax
		}
		k, ok := gridIndex(x, c.Step)
		if !ok || c.Exact && math.Abs(x-float64(k)*c.Step) > 1e-9*math.Max(1, math.Abs(x)) {
			return Wrong
		}
		token = strconv.FormatInt(k, 10)
	}
	h := AnswerHash(salt, token)
	for _, w := range c.Hashes {
		if w == h {
			return Right
		}
	}
	return Wrong
}
