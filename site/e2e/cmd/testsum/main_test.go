package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRead: the output is copied as go test without -v writes it (a
// test's output when it fails, the packages' lines), lines that are not
// events too; packages, tests, subtests, failures, build failures and the
// browser's page loads are counted.
func TestRead(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"a"}`,
		`{"Action":"run","Package":"a","Test":"TestX"}`,
		`{"Action":"output","Package":"a","Test":"TestX","Output":"=== RUN   TestX\n"}`,
		`{"Action":"pass","Package":"a","Test":"TestX/sub","Elapsed":9}`,
		`{"Action":"pass","Package":"a","Test":"TestX","Elapsed":2.5}`,
		`{"Action":"skip","Package":"a","Test":"TestY"}`,
		`{"Action":"pass","Package":"a"}`,
		`{"Action":"output","Package":"e2e","Output":"e2e: 310 browser page loads of 61 pages\n"}`,
		`{"Action":"output","Package":"e2e","Test":"TestZ","Output":"    z_test.go:9: broken\n"}`,
		`{"Action":"fail","Package":"e2e","Test":"TestZ","Elapsed":40}`,
		`{"Action":"output","Package":"a","Output":"PASS\n"}`,
		`{"Action":"output","Package":"a","Output":"ok  \ta\t0.1s\n"}`,
		`{"Action":"fail","Package":"e2e"}`,
		`{"ImportPath":"b","Action":"build-output","Output":"b/x.go:1: syntax error\n"}`,
		`{"ImportPath":"b","Action":"build-fail"}`,
		`# vet said something`,
		`{"Action":"skip","Package":"c"}`,
	}, "\n")
	var out strings.Builder
	got, err := read(strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	// the slowest: top-level tests that passed or failed (not a subtest,
	// not a skipped one), slowest first
	want := Tally{Packages: 4, Passed: 2, Failed: 1, Skipped: 1, PackagesFailed: 2, PageLoads: 310, Pages: 61, Events: 16,
		Slowest: []Timed{{"e2e TestZ", 40}, {"a TestX", 2.5}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tally %+v, want %+v", got, want)
	}
	wantOut := "e2e: 310 browser page loads of 61 pages\n    z_test.go:9: broken\nok  \ta\t0.1s\nb/x.go:1: syntax error\n# vet said something\n"
	if out.String() != wantOut {
		t.Errorf("output %q, want %q", out.String(), wantOut)
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		t    Tally
		d    time.Duration
		want string
	}{
		{Tally{Packages: 96, Passed: 2427, Skipped: 4, PageLoads: 412, Pages: 61}, 1498 * time.Second,
			"make test: 96 packages, 2,431 tests and subtests, 412 browser page loads of 61 pages, in 1,498 s\n2,427 passed, 0 failed, 4 skipped\n"},
		{Tally{Packages: 2, Passed: 3, Slowest: []Timed{{"site/e2e TestLayout", 412.4}, {"site/pages TestBuild", 3.5}}}, 1500 * time.Second,
			"slowest tests: site/e2e TestLayout 412 s; site/pages TestBuild 4 s\nmake test: 2 packages, 3 tests and subtests, no browser page, in 1,500 s\n3 passed, 0 failed, 0 skipped\n"},
		{Tally{Packages: 3, PackagesFailed: 1, Passed: 5}, 2 * time.Second,
			"make test: 3 packages, 5 tests and subtests, no browser page, in 2 s\n5 passed, 1 failed, 0 skipped\n"},
	}
	for _, tt := range tests {
		if got := summary(tt.t, tt.d); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.t, got, tt.want)
		}
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}

// FuzzRead: any input (go test's, or whatever a broken pipe gives) is
// read without a panic, every line that is not an event is copied, and
// the tally counts no more tests and packages than events.
func FuzzRead(f *testing.F) {
	f.Add(`{"Action":"pass","Package":"a","Test":"T"}` + "\n" + `{"Action":"fail","Package":"a"}`)
	f.Add(`{"Action":"output","Package":"e2e","Output":"e2e: 9 browser page loads of 3 pages\n"}`)
	f.Add("not json\n{\"Action\":")
	f.Fuzz(func(t *testing.T, in string) {
		var out strings.Builder
		got, err := read(strings.NewReader(in), &out)
		if err != nil {
			return // a line longer than the scanner's buffer
		}
		if got.Passed+got.Failed+got.Skipped+got.Packages > got.Events || got.PackagesFailed > got.Packages {
			t.Errorf("%q: tally %+v", in, got)
		}
	})
}

// TestReadTimeout: when the test binary dies (go test -timeout's panic),
// the output of the tests still running is printed, bounded, with their
// names: without it a timed-out package says only FAIL.
func TestReadTimeout(t *testing.T) {
	lines := []string{
		`{"Action":"run","Package":"e2e","Test":"TestSlow"}`,
		`{"Action":"output","Package":"e2e","Test":"TestSlow","Output":"=== RUN   TestSlow\n"}`,
		`{"Action":"output","Package":"e2e","Test":"TestSlow","Output":"panic: test timed out after 45m0s\n"}`,
		`{"Action":"output","Package":"e2e","Test":"TestSlow","Output":"\trunning tests:\n"}`,
	}
	for i := 0; i < 200; i++ {
		lines = append(lines, `{"Action":"output","Package":"e2e","Test":"TestSlow","Output":"goroutine\n"}`)
	}
	lines = append(lines, `{"Action":"fail","Package":"e2e"}`)
	var out strings.Builder
	got, err := read(strings.NewReader(strings.Join(lines, "\n")), &out)
	if err != nil {
		t.Fatal(err)
	}
	if got.PackagesFailed != 1 {
		t.Errorf("tally %+v, want one failed package", got)
	}
	o := out.String()
	for _, want := range []string{"--- UNFINISHED: TestSlow (203 lines of output)", "panic: test timed out after 45m0s", "… 123 more lines"} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	if n := strings.Count(o, "\n"); n > unfinishedLines+3 {
		t.Errorf("%d lines printed, want at most %d", n, unfinishedLines+3)
	}
}

// TestAddSlowest: two runs' tallies keep the slowest of both, at most
// slowestN, slowest first.
func TestAddSlowest(t *testing.T) {
	var a, b Tally
	for i := range slowestN {
		a.Slowest = append(a.Slowest, Timed{fmt.Sprintf("a T%d", i), float64(100 - 2*i)})
	}
	b.Slowest = []Timed{{"b Big", 500}, {"b Small", 1}}
	got := add(a, b).Slowest
	if len(got) != slowestN || got[0] != (Timed{"b Big", 500}) || got[1] != (Timed{"a T0", 100}) || got[slowestN-1] != (Timed{"a T6", 88}) {
		t.Errorf("slowest of both runs: %v", got)
	}
	if len(a.Slowest) != slowestN || a.Slowest[0].Test != "a T0" {
		t.Errorf("add changed its argument: %v", a.Slowest)
	}
}
