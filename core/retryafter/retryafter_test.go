package retryafter

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// now is the moment the responses below are received: 2026-12-01 14:00:00 UTC.
var now = time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC).Unix()

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in    string
		form  Form
		delay int64
		date  string // RFC 3339, "" for delay-seconds
	}{
		{"120", Seconds, 120, ""},
		{"0", Seconds, 0, ""},
		{"007", Seconds, 7, ""},
		{" \t12 ", Seconds, 12, ""},
		{"99999999999999999999999999", Seconds, MaxDelay, ""},
		{"2147483648", Seconds, MaxDelay, ""},
		{"2147483647", Seconds, MaxDelay - 1, ""},
		// The three forms of the same instant, 30 s after now.
		{"Tue, 01 Dec 2026 14:00:30 GMT", IMFFixdate, 30, "2026-12-01T14:00:30Z"},
		{"Tuesday, 01-Dec-26 14:00:30 GMT", RFC850, 30, "2026-12-01T14:00:30Z"},
		{"Tue Dec  1 14:00:30 2026", Asctime, 30, "2026-12-01T14:00:30Z"},
		{"Tue Dec 01 14:00:30 2026", Asctime, 30, "2026-12-01T14:00:30Z"},
		// A date in the past asks for no wait.
		{"Sun, 06 Nov 1994 08:49:37 GMT", IMFFixdate, 0, "1994-11-06T08:49:37Z"},
		{"Sunday, 06-Nov-94 08:49:37 GMT", RFC850, 0, "1994-11-06T08:49:37Z"},
		{"Sun Nov  6 08:49:37 1994", Asctime, 0, "1994-11-06T08:49:37Z"},
		// Two-digit years: up to 50 years ahead stays in this century.
		{"Monday, 01-Jan-76 00:00:00 GMT", RFC850, 1548928800, "2076-01-01T00:00:00Z"},
		{"Monday, 01-Jan-77 00:00:00 GMT", RFC850, 0, "1977-01-01T00:00:00Z"},
		// Leap day, leap second, year boundary.
		{"Tue, 29 Feb 2028 00:00:00 GMT", IMFFixdate, 39261600, "2028-02-29T00:00:00Z"},
		{"Thu, 31 Dec 2026 23:59:60 GMT", IMFFixdate, 2627999 + 1, "2027-01-01T00:00:00Z"},
		// The day name is not checked against the date.
		{"Mon, 01 Dec 2026 14:01:00 GMT", IMFFixdate, 60, "2026-12-01T14:01:00Z"},
	} {
		v, err := Parse(tc.in, now)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		var date int64
		if tc.date != "" {
			d, err := time.Parse(time.RFC3339, tc.date)
			if err != nil {
				t.Fatal(err)
			}
			date = d.Unix()
		}
		if v.Form != tc.form || v.Delay != tc.delay || v.Date != date {
			t.Errorf("Parse(%q) = %+v (%v), want form %v, delay %d, date %s", tc.in, v, v.Form, tc.form, tc.delay, tc.date)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{
		"", "  ", "-1", "1.5", "12s", "+3", "0x10", "1 2",
		"tue, 01 Dec 2026 14:00:30 GMT",  // case-sensitive
		"Tue, 01 dec 2026 14:00:30 GMT",  // case-sensitive
		"Tue, 01 Dec 2026 14:00:30 UTC",  // only GMT
		"Tue, 1 Dec 2026 14:00:30 GMT",   // day is 2DIGIT
		"Tue, 01 Dec 26 14:00:30 GMT",    // year is 4DIGIT
		"Tue, 01 Dec 2026 14:00 GMT",     // no seconds
		"Tue,01 Dec 2026 14:00:30 GMT",   // SP after the comma
		"Tue, 01 Dec 2026 14:00:30 GMT ", // trimmed: fine; see below
		"Tue, 31 Nov 2026 14:00:30 GMT",  // no 31 November
		"Sun, 29 Feb 2026 14:00:30 GMT",  // 2026 is not a leap year
		"Tue, 00 Dec 2026 14:00:30 GMT",
		"Tue, 01 Dec 2026 24:00:00 GMT",
		"Tue, 01 Dec 2026 23:60:00 GMT",
		"Tue, 01 Dec 2026 23:59:61 GMT",
		"Tue, 01 Dec 2026 14:00:30 GMTx",
		"Tues, 01 Dec 2026 14:00:30 GMT",
		"Tue, 01-Dec-26 14:00:30 GMT", // rfc850 needs the long day name
		"Tuesday, 01-Dec-2026 14:00:30 GMT",
		"Tue Dec 1 14:00:30 2026", // asctime pads a one-digit day with SP
		"Tue Dec  1 14:00:30 GMT",
		"Tue Dec  1 14:00:30 2026 GMT",
		"Tomorrow",
	} {
		if in == "Tue, 01 Dec 2026 14:00:30 GMT " {
			if _, err := Parse(in, now); err != nil {
				t.Errorf("Parse(%q): %v, want the trailing space trimmed", in, err)
			}
			continue
		}
		v, err := Parse(in, now)
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) = %+v, %v; want ErrSyntax", in, v, err)
		}
	}
}

func TestFormString(t *testing.T) {
	for f, want := range map[Form]string{Seconds: "delay-seconds", IMFFixdate: "IMF-fixdate", RFC850: "rfc850-date", Asctime: "asctime-date", 0: "invalid"} {
		if got := f.String(); got != want {
			t.Errorf("Form(%d).String() = %q, want %q", f, got, want)
		}
	}
}

// TestCivil holds the calendar arithmetic to package time over four
// centuries of days around the epoch and the far past.
func TestCivil(t *testing.T) {
	for _, start := range []int64{-400 * 146097, -146097 / 2, 0, 146097} {
		for d := start; d < start+146097; d += 7 {
			u := d*86400 + 3600
			tm := time.Unix(u, 0).UTC()
			if got := daysFromCivil(tm.Year(), int(tm.Month()), tm.Day()); got != d {
				t.Fatalf("daysFromCivil(%v) = %d, want %d", tm, got, d)
			}
			if got := civilYear(u); got != tm.Year() {
				t.Fatalf("civilYear(%d) = %d, want %d", u, got, tm.Year())
			}
		}
	}
}

// FuzzParse checks that Parse never panics, keeps Delay in range, and
// agrees with net/http.ParseTime on the IMF-fixdate and asctime forms it
// accepts (ParseTime reads two-digit years its own way, so rfc850-date is
// left out; it does not accept a leap second).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"120", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
		"Sun Nov  6 08:49:37 1994", "Tue, 29 Feb 2028 00:00:00 GMT", " 7\t", ""} {
		f.Add(s, now)
	}
	f.Fuzz(func(t *testing.T, s string, at int64) {
		at %= 1 << 40 // about 35,000 years either side of 1970
		v, err := Parse(s, at)
		if err != nil {
			if v != (Value{}) {
				t.Fatalf("Parse(%q) = %+v with error %v", s, v, err)
			}
			return
		}
		if v.Delay < 0 || v.Delay > MaxDelay {
			t.Fatalf("Parse(%q): delay %d out of range", s, v.Delay)
		}
		if v.Form != Seconds && v.Delay != min(max(v.Date-at, 0), MaxDelay) {
			t.Fatalf("Parse(%q, %d): delay %d for date %d", s, at, v.Delay, v.Date)
		}
		if v.Form == IMFFixdate || v.Form == Asctime {
			trimmed := s
			for len(trimmed) > 0 && (trimmed[0] == ' ' || trimmed[0] == '\t') {
				trimmed = trimmed[1:]
			}
			for len(trimmed) > 0 && (trimmed[len(trimmed)-1] == ' ' || trimmed[len(trimmed)-1] == '\t') {
				trimmed = trimmed[:len(trimmed)-1]
			}
			if tm, err := http.ParseTime(trimmed); err == nil && tm.Unix() != v.Date {
				t.Fatalf("Parse(%q) date %d, net/http %d", s, v.Date, tm.Unix())
			} else if err != nil && trimmed[len(trimmed)-7:len(trimmed)-5] != "60" && trimmed[len(trimmed)-6:len(trimmed)-4] != "60" {
				t.Fatalf("Parse(%q) = %+v, net/http refuses it: %v", s, v, err)
			}
		}
	})
}

func TestFormatDate(t *testing.T) {
	for _, u := range []int64{0, 784111777, now, 951782400, -1, -86400 * 365 * 1969, 253402300799} {
		want := time.Unix(u, 0).UTC().Format(http.TimeFormat)
		if got := FormatDate(u); got != want {
			t.Errorf("FormatDate(%d) = %q, want %q", u, got, want)
		}
		v, err := Parse(FormatDate(u), now)
		if err != nil || v.Form != IMFFixdate || v.Date != u {
			t.Errorf("Parse(FormatDate(%d)) = %+v, %v", u, v, err)
		}
	}
}

// FuzzFormatDate holds FormatDate to net/http's format and Parse to its
// inverse over years 0 to 9999.
func FuzzFormatDate(f *testing.F) {
	f.Add(int64(0))
	f.Add(now)
	f.Fuzz(func(t *testing.T, u int64) {
		const lo, hi = -62167219200, 253402300799 // 0000-01-01, 9999-12-31T23:59:59
		u = lo + mod64(u, hi-lo+1)
		s := FormatDate(u)
		if want := time.Unix(u, 0).UTC().Format(http.TimeFormat); s != want {
			t.Fatalf("FormatDate(%d) = %q, want %q", u, s, want)
		}
		if v, err := Parse(s, now); err != nil || v.Date != u {
			t.Fatalf("Parse(%q) = %+v, %v; want date %d", s, v, err, u)
		}
	})
}
