package locale

import (
	"math"
	"strconv"
	"strings"
)

// Number formatting follows the CLDR decimal, percent and scientific
// patterns of the language: "#,##0.###" with its own decimal and group
// symbols, CLDR minimumGroupingDigits (2 in Spanish: 1000 but 10.000),
// "#,##0%" (Spanish "#,##0 %" with a no-break space) and "#E0" with the
// exponent as "×10" and superscript digits (1,30728×10⁻⁵), which is what
// golang.org/x/text/number prints for these languages. Rounding is to
// nearest, ties to even, on the exact binary value (as strconv does). A
// result that rounds to zero is written without a sign. NaN is "NaN" and
// infinities "∞" and "-∞".

// Int writes an integer with grouping ("12.345", "1000" in Spanish).
func (l Locale) Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	s = l.group(s)
	if neg {
		return "-" + s
	}
	return s
}

// Digits writes a decimal integer of any size, given as text (an optional
// '-' then digits, as a JSON big integer is written), with grouping; ok is
// false when s is not such an integer.
func (l Locale) Digits(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	d := strings.TrimPrefix(s, "-")
	if d == "" || (len(d) > 1 && d[0] == '0') {
		return "", false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return "", false
		}
	}
	out := l.group(d)
	if neg && d != "0" {
		out = "-" + out
	}
	return out, true
}

// Fixed writes v with exactly decimals digits after the decimal mark
// (decimals in [0, 20]; outside, clamped).
func (l Locale) Fixed(v float64, decimals int) string {
	if s, ok := special(v); ok {
		return s
	}
	decimals = clamp(decimals, 0, 20)
	return l.layout(strconv.FormatFloat(v, 'f', decimals, 64), false)
}

// MaxFrac writes v with at most decimals digits after the decimal mark,
// trailing zeros dropped.
func (l Locale) MaxFrac(v float64, decimals int) string {
	if s, ok := special(v); ok {
		return s
	}
	decimals = clamp(decimals, 0, 20)
	return l.layout(strconv.FormatFloat(v, 'f', decimals, 64), true)
}

// Sig writes v rounded to digits significant digits (in [1, 17]), trailing
// zeros dropped, in positional notation (123457 for 123456.789 and 6
// digits; 0,000130728).
func (l Locale) Sig(v float64, digits int) string {
	if s, ok := special(v); ok {
		return s
	}
	digits = clamp(digits, 1, 17)
	// 'e' rounds to the digits; re-layout positionally.
	e := strconv.FormatFloat(v, 'e', digits-1, 64)
	return l.layout(positional(e), true)
}

// Sci writes v in scientific notation with at most digits significant
// digits (in [1, 17]), trailing zeros dropped: 1,30728×10⁻⁵ (Italian),
// 1.5×10³ (Chinese). Zero is 0×10⁰.
func (l Locale) Sci(v float64, digits int) string {
	if s, ok := special(v); ok {
		return s
	}
	digits = clamp(digits, 1, 17)
	e := strconv.FormatFloat(v, 'e', digits-1, 64) // -d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	if mant == "-0" {
		mant = "0"
	}
	mant = strings.Replace(mant, ".", l.sym().decimal, 1)
	return mant + "×10" + superscript(x)
}

// Percent writes v (a fraction: 0.125 is 12,5 %) as a percentage with
// exactly decimals digits.
func (l Locale) Percent(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		s, _ := special(v)
		return s
	}
	decimals = clamp(decimals, 0, 18)
	// Rounding v to decimals+2 places and moving the point rounds the
	// exact value of v×100 (a float product would add its own error).
	n := l.layout(shiftPoint2(strconv.FormatFloat(v, 'f', decimals+2, 64)), false)
	return strings.Replace(l.sym().percent, "#", n, 1)
}

// NumberDigits is the precision of Number: the significant digits a
// reader is shown of a number that is not an integer (28,57 for 200/7).
// The API, the CLI and every data-value attribute keep the exact value.
const NumberDigits = 4

// Number writes v in the default form of the site: integers (up to 10^15)
// grouped; zero as 0; magnitudes below 10^-4 or from 10^15 up in
// scientific notation with NumberDigits significant digits; others to at
// most NumberDigits significant digits, never fewer than the digits of
// their integer part (12.346 for 12345,6).
func (l Locale) Number(v float64) string {
	if s, ok := special(v); ok {
		return s
	}
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case a < 1e-4 || a >= 1e15:
		return l.Sci(v, NumberDigits)
	case v == math.Trunc(v):
		return l.Int(int64(v))
	}
	digits := NumberDigits
	for p := 1e4; p <= a; p *= 10 { // 1e4 is 10^NumberDigits
		digits++ // powers of ten below 10^15 are exact
	}
	return l.Sig(v, digits)
}

// shiftPoint2 multiplies a plain decimal text with at least two
// fraction digits by 100 ("0.1250" → "12.50").
func shiftPoint2(s string) string {
	ip, fp, _ := strings.Cut(s, ".")
	ip += fp[:2]
	fp = fp[2:]
	neg := strings.HasPrefix(ip, "-")
	ip = strings.TrimLeft(strings.TrimPrefix(ip, "-"), "0")
	if ip == "" {
		ip = "0"
	}
	if neg {
		ip = "-" + ip
	}
	if fp == "" {
		return ip
	}
	return ip + "." + fp
}

// layout writes a plain decimal text ("-1234.50") with the language's
// symbols and grouping; trim drops trailing fraction zeros.
func (l Locale) layout(s string, trim bool) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	ip, fp, _ := strings.Cut(s, ".")
	if trim {
		fp = strings.TrimRight(fp, "0")
	}
	if strings.Trim(ip, "0") == "" && strings.Trim(fp, "0") == "" {
		neg = false // no "-0"
	}
	out := l.group(ip)
	if fp != "" {
		out += l.sym().decimal + fp
	}
	if neg {
		out = "-" + out
	}
	return out
}

// group inserts the group separator into a string of digits.
func (l Locale) group(digits string) string {
	sy := l.sym()
	if len(digits) < 3+sy.minGrouping {
		return digits
	}
	var b strings.Builder
	first := len(digits) % 3
	if first == 0 {
		first = 3
	}
	b.WriteString(digits[:first])
	for i := first; i < len(digits); i += 3 {
		b.WriteString(sy.group)
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// positional turns "-d.ddde±XX" into a plain decimal text.
func positional(e string) string {
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	neg := strings.HasPrefix(mant, "-")
	if neg {
		mant = mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	point := 1 + x // position of the decimal point in digits
	var s string
	switch {
	case point <= 0:
		s = "0." + strings.Repeat("0", -point) + digits
	case point >= len(digits):
		s = digits + strings.Repeat("0", point-len(digits))
	default:
		s = digits[:point] + "." + digits[point:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

var supers = [...]string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

func superscript(x int) string {
	var b strings.Builder
	if x < 0 {
		b.WriteString("⁻")
		x = -x
	}
	for _, c := range strconv.Itoa(x) {
		b.WriteString(supers[c-'0'])
	}
	return b.String()
}

func special(v float64) (string, bool) {
	switch {
	case math.IsNaN(v):
		return "NaN", true
	case math.IsInf(v, 1):
		return "∞", true
	case math.IsInf(v, -1):
		return "-∞", true
	}
	return "", false
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
