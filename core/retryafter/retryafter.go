// Package retryafter reads the Retry-After response header field of RFC 9110
// §10.2.3 (https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3):
//
//	Retry-After   = HTTP-date / delay-seconds
//	delay-seconds = 1*DIGIT
//
// and the three forms of HTTP-date of §5.6.7, which a recipient must all
// accept:
//
//	HTTP-date    = IMF-fixdate / obs-date
//	IMF-fixdate  = day-name "," SP date1 SP time-of-day SP GMT  ; Sun, 06 Nov 1994 08:49:37 GMT
//	obs-date     = rfc850-date / asctime-date
//	rfc850-date  = day-name-l "," SP date2 SP time-of-day SP GMT ; Sunday, 06-Nov-94 08:49:37 GMT
//	asctime-date = day-name SP date3 SP time-of-day SP year      ; Sun Nov  6 08:49:37 1994
//	date1 = day SP month SP year ; date2 = day "-" month "-" 2DIGIT
//	date3 = month SP ( 2DIGIT / ( SP DIGIT ) )
//	time-of-day = hour ":" minute ":" second ; all 2DIGIT, year 4DIGIT
//
// HTTP-date is case-sensitive and always in GMT (UTC). A date is turned into
// a wait by comparing it with the moment the response was received, which
// is an argument: the package reads no clock. It imports neither time nor
// fmt, so the browser's module can link it.
//
// Choices the RFC leaves to the recipient, made here: the whitespace
// around a field value (SP and HTAB) is not part of it; the day name of a
// date is checked for spelling, not against the date; second may be 60 (a
// leap second, counted as the first second of the next minute); a
// delay-seconds longer than [MaxDelay] is read as MaxDelay; a date in the
// past asks for no wait.
package retryafter

import (
	"errors"
	"strconv"

	"retrylab/core/standin/errwrap"
)

// Form is the form a Retry-After value was written in.
type Form uint8

const (
	Seconds    Form = iota + 1 // delay-seconds: "120"
	IMFFixdate                 // "Sun, 06 Nov 1994 08:49:37 GMT", the form senders must use
	RFC850                     // obsolete: "Sunday, 06-Nov-94 08:49:37 GMT"
	Asctime                    // obsolete: "Sun Nov  6 08:49:37 1994"
)

// String returns the form's name as the RFC's grammar spells it.
func (f Form) String() string {
	switch f {
	case Seconds:
		return "delay-seconds"
	case IMFFixdate:
		return "IMF-fixdate"
	case RFC850:
		return "rfc850-date"
	case Asctime:
		return "asctime-date"
	}
	return "invalid"
}

// MaxDelay is the longest wait Parse returns, s (2^31, about 68 years): a
// longer delay-seconds, which no int64 may hold, means "not in any
// useful future" just as well.
const MaxDelay int64 = 1 << 31

// Value is a parsed Retry-After.
type Value struct {
	Form Form
	// Delay is the wait it asks for, whole seconds in [0, MaxDelay],
	// counted from the moment the response was received.
	Delay int64
	// Date is the date it names, Unix seconds (UTC); 0 for Seconds.
	Date int64
}

// ErrSyntax is returned (wrapped, with the reason) for a value that is
// neither a delay-seconds nor an HTTP-date.
var ErrSyntax = errors.New("retryafter: not a delay-seconds or an HTTP-date")

// Parse reads field, the value of a Retry-After header field, received at
// now (Unix seconds, UTC). For an rfc850-date, whose year has two digits,
// now also picks the century: a year more than 50 years after now's is
// read as the one a century earlier (RFC 9110 §5.6.7).
func Parse(field string, now int64) (Value, error) {
	s := trimOWS(field)
	if s == "" {
		return Value{}, errwrap.Detail(ErrSyntax, "empty value")
	}
	if isDigit(s[0]) {
		return parseSeconds(s)
	}
	v, err := parseDate(s, now)
	if err != nil {
		return Value{}, err
	}
	if v.Date > now {
		v.Delay = min(v.Date-now, MaxDelay)
	}
	return v, nil
}

func trimOWS(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	return s[i:j]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func parseSeconds(s string) (Value, error) {
	var d int64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return Value{}, errwrap.Detail(ErrSyntax, "delay-seconds holds "+strconv.Quote(s[i:i+1])+" at byte "+strconv.Itoa(i))
		}
		if d < MaxDelay {
			d = d*10 + int64(s[i]-'0')
		}
	}
	return Value{Form: Seconds, Delay: min(d, MaxDelay)}, nil
}

var (
	dayNames  = [7]string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	dayNamesL = [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	months    = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// scanner reads a date left to right; the first mismatch sets err.
type scanner struct {
	s   string
	i   int
	err error
}

func (p *scanner) fail(what string) {
	if p.err == nil {
		p.err = errwrap.Detail(ErrSyntax, "expected "+what+" at byte "+strconv.Itoa(p.i))
	}
}

func (p *scanner) lit(l string) {
	if p.err != nil {
		return
	}
	if len(p.s)-p.i < len(l) || p.s[p.i:p.i+len(l)] != l {
		p.fail(strconv.Quote(l))
		return
	}
	p.i += len(l)
}

// digits reads exactly n digits.
func (p *scanner) digits(n int, what string) int {
	if p.err != nil {
		return 0
	}
	v := 0
	for k := 0; k < n; k++ {
		if p.i >= len(p.s) || !isDigit(p.s[p.i]) {
			p.fail(what)
			return 0
		}
		v = v*10 + int(p.s[p.i]-'0')
		p.i++
	}
	return v
}

// oneOf reads one of names and returns its index.
func (p *scanner) oneOf(names []string, what string) int {
	if p.err != nil {
		return 0
	}
	for k, n := range names {
		if len(p.s)-p.i >= len(n) && p.s[p.i:p.i+len(n)] == n {
			p.i += len(n)
			return k
		}
	}
	p.fail(what)
	return 0
}

// timeOfDay reads hour ":" minute ":" second.
func (p *scanner) timeOfDay() (h, m, s int) {
	h = p.digits(2, "hour")
	p.lit(":")
	m = p.digits(2, "minute")
	p.lit(":")
	s = p.digits(2, "second")
	return h, m, s
}

func (p *scanner) end() {
	if p.err == nil && p.i != len(p.s) {
		p.fail("the end of the value")
	}
}

func parseDate(s string, now int64) (Value, error) {
	p := &scanner{s: s}
	var (
		form             Form
		year, mon, day   int
		hour, min_, sec_ int
	)
	switch {
	case len(s) > 3 && s[3] == ',': // IMF-fixdate
		form = IMFFixdate
		p.oneOf(dayNames[:], "a day name")
		p.lit(", ")
		day = p.digits(2, "day")
		p.lit(" ")
		mon = p.oneOf(months[:], "a month") + 1
		p.lit(" ")
		year = p.digits(4, "year")
		p.lit(" ")
		hour, min_, sec_ = p.timeOfDay()
		p.lit(" GMT")
	case len(s) > 3 && s[3] == ' ': // asctime-date
		form = Asctime
		p.oneOf(dayNames[:], "a day name")
		p.lit(" ")
		mon = p.oneOf(months[:], "a month") + 1
		p.lit(" ")
		if p.err == nil && p.i < len(s) && s[p.i] == ' ' {
			p.i++
			day = p.digits(1, "day")
		} else {
			day = p.digits(2, "day")
		}
		p.lit(" ")
		hour, min_, sec_ = p.timeOfDay()
		p.lit(" ")
		year = p.digits(4, "year")
	default: // rfc850-date
		form = RFC850
		p.oneOf(dayNamesL[:], "a day name")
		p.lit(", ")
		day = p.digits(2, "day")
		p.lit("-")
		mon = p.oneOf(months[:], "a month") + 1
		p.lit("-")
		yy := p.digits(2, "year")
		p.lit(" ")
		hour, min_, sec_ = p.timeOfDay()
		p.lit(" GMT")
		nowYear := civilYear(now)
		year = nowYear - mod(nowYear, 100) + yy
		if year > nowYear+50 {
			year -= 100
		}
	}
	p.end()
	if p.err != nil {
		return Value{}, p.err
	}
	switch {
	case day < 1 || day > daysIn(year, mon):
		return Value{}, errwrap.Detail(ErrSyntax, "day "+strconv.Itoa(day)+" is not in "+months[mon-1]+" "+strconv.Itoa(year))
	case hour > 23 || min_ > 59 || sec_ > 60:
		return Value{}, errwrap.Detail(ErrSyntax, "time of day out of range")
	}
	t := daysFromCivil(year, mon, day)*86400 + int64(hour*3600+min_*60+sec_)
	return Value{Form: form, Date: t}, nil
}

func mod(a, b int) int { return ((a % b) + b) % b }

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysIn(y, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil returns the days from 1970-01-01 to y-m-d (proleptic
// Gregorian), Howard Hinnant's days_from_civil.
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// civilYear returns the UTC year of Unix time t, s.
func civilYear(t int64) int {
	days := t / 86400
	if t%86400 < 0 {
		days--
	}
	y, _, _ := civilFromDays(days)
	return y
}

// FormatDate writes Unix time t, s (years 0 to 9999), as an IMF-fixdate,
// the form RFC 9110 §5.6.7 asks senders to generate:
// "Sun, 06 Nov 1994 08:49:37 GMT".
func FormatDate(t int64) string {
	days := t / 86400
	sec := int(t % 86400)
	if sec < 0 {
		days--
		sec += 86400
	}
	y, m, d := civilFromDays(days)
	wd := int(mod64(days+3, 7)) // 1970-01-01 was a Thursday (index 3)
	b := make([]byte, 0, 29)
	b = append(b, dayNames[wd]...)
	b = append(b, ", "...)
	b = pad(b, d, 2)
	b = append(b, ' ')
	b = append(b, months[m-1]...)
	b = append(b, ' ')
	b = pad(b, y, 4)
	b = append(b, ' ')
	b = pad(b, sec/3600, 2)
	b = append(b, ':')
	b = pad(b, sec/60%60, 2)
	b = append(b, ':')
	b = pad(b, sec%60, 2)
	return string(append(b, " GMT"...))
}

func mod64(a, b int64) int64 { return ((a % b) + b) % b }

// pad appends v >= 0 in n digits, zero-padded.
func pad(b []byte, v, n int) []byte {
	var d [4]byte
	for k := n - 1; k >= 0; k-- {
		d[k] = byte('0' + v%10)
		v /= 10
	}
	return append(b, d[:n]...)
}

// civilFromDays returns the date of day z from 1970-01-01 (Hinnant's
// civil_from_days).
func civilFromDays(z int64) (y, m, d int) {
	z += 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	m = int(mp + 3)
	if m > 12 {
		m -= 12
	}
	y = int(yoe + era*400)
	if m <= 2 {
		y++
	}
	return y, m, d
}
