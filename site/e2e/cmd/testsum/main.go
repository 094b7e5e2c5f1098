// Command testsum reads `go test -json` on its standard input, writes the
// tests' output as go test writes it (readable, as it comes), and ends
// with what ran: make test's last two lines,
//
//	make test: 96 packages, 2,431 tests and subtests, 412 browser page loads of 61 pages, in 1,498 s
//	2,427 passed, 0 failed, 4 skipped
//
// Several runs add up through a tally file (-tally): make test's
// wasmtest and unit each pipe their go test through testsum with the same
// file; the last (without -quiet) prints the sum. Browser pages are the
// lines "e2e: N browser page loads of M pages" that site/e2e's test
// binary prints (e2e.PageLoadsLine). -since is the Unix time make test
// started at: the time printed runs from it, and a tally written before
// it is from another run (ignored). testsum exits 1 when a test or a
// package failed, or when it read no event at all.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output, build-fail
	Test       string
	Output     string
	Elapsed    float64 // seconds, on a test's pass or fail
}

// Tally is what ran.
type Tally struct {
	Since                    int64 // -since of the run that wrote it
	Packages                 int   // packages that ran (or failed to build)
	Passed, Failed, Skipped  int   // tests and subtests
	PackagesFailed           int
	PageLoads, Pages, Events int
	Slowest                  []Timed // the slowest top-level tests, slowest first (at most slowestN)
}

// Timed is a top-level test and how long it ran, in seconds: the time a
// run's CI spends where (each test of a package runs one after the other
// unless it is parallel, and site/e2e is most of make test).
type Timed struct {
	Test    string // package, a space, test
	Seconds float64
}

// slowestN is how many of the slowest tests the summary names.
const slowestN = 8

// keepSlowest returns the slowestN slowest of ts, slowest first.
func keepSlowest(ts []Timed) []Timed {
	slices.SortStableFunc(ts, func(a, b Timed) int {
		switch {
		case a.Seconds > b.Seconds:
			return -1
		case a.Seconds < b.Seconds:
			return 1
		}
		return strings.Compare(a.Test, b.Test)
	})
	return ts[:min(len(ts), slowestN)]
}

var pageLine = regexp.MustCompile(`^e2e: (\d+) browser page loads of (\d+) pages`)

// read copies the output of the events of r to out as go test without
// -v writes it (a test's output only when it fails, the packages' lines
// as they come) and returns the tally.
func read(r io.Reader, out io.Writer) (Tally, error) {
	var t Tally
	held := map[string][]string{} // package + test → its output so far
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(out, "%s\n", line) // not an event (go vet's or the build's own words)
			continue
		}
		t.Events++
		switch e.Action {
		case "output", "build-output":
			if e.Test != "" {
				k := e.Package + "\x00" + e.Test
				held[k] = append(held[k], e.Output)
			} else if e.Output != "PASS\n" {
				io.WriteString(out, e.Output)
			}
			if m := pageLine.FindStringSubmatch(strings.TrimSpace(e.Output)); m != nil {
				n, _ := strconv.Atoi(m[1])
				p, _ := strconv.Atoi(m[2])
				t.PageLoads += n
				t.Pages = max(t.Pages, p)
			}
		case "build-fail":
			t.Packages++
			t.PackagesFailed++
		case "pass", "fail", "skip":
			if e.Test == "" {
				t.Packages++
				if e.Action == "fail" {
					t.PackagesFailed++
					unfinished(out, held, e.Package)
				}
				continue
			}
			k := e.Package + "\x00" + e.Test
			if e.Action != "skip" && !strings.Contains(e.Test, "/") {
				t.Slowest = keepSlowest(append(t.Slowest, Timed{Test: e.Package + " " + e.Test, Seconds: e.Elapsed}))
			}
			switch e.Action {
			case "pass":
				t.Passed++
			case "fail":
				t.Failed++
				for _, o := range held[k] {
					if !strings.HasPrefix(o, "=== ") {
						io.WriteString(out, o)
					}
				}
			default:
				t.Skipped++
			}
			delete(held, k)
		}
	}
	return t, sc.Err()
}

// unfinishedLines bounds what unfinished prints of one test: a timeout's
// panic message and its list of running tests come first, then every
// goroutine's stack.
const unfinishedLines = 80

// unfinished writes the held output of pkg's tests that never ended (the
// binary died: a timeout's panic, a crash), which go test's own output
// would have shown, and forgets it.
func unfinished(out io.Writer, held map[string][]string, pkg string) {
	var keys []string
	for k := range held {
		if strings.HasPrefix(k, pkg+"\x00") {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		lines := held[k]
		fmt.Fprintf(out, "--- UNFINISHED: %s (%d lines of output)\n", strings.TrimPrefix(k, pkg+"\x00"), len(lines))
		for i, o := range lines {
			if i == unfinishedLines {
				fmt.Fprintf(out, "    … %d more lines\n", len(lines)-i)
				break
			}
			io.WriteString(out, o)
		}
		delete(held, k)
	}
}

// add returns the sum of a and b.
func add(a, b Tally) Tally {
	return Tally{
		Since: a.Since, Packages: a.Packages + b.Packages, Passed: a.Passed + b.Passed, Failed: a.Failed + b.Failed,
		Skipped: a.Skipped + b.Skipped, PackagesFailed: a.PackagesFailed + b.PackagesFailed,
		PageLoads: a.PageLoads + b.PageLoads, Pages: max(a.Pages, b.Pages), Events: a.Events + b.Events,
		Slowest: keepSlowest(append(slices.Clone(a.Slowest), b.Slowest...)),
	}
}

// summary is the slowest tests' line (when a test ran) and the last two
// lines.
func summary(t Tally, elapsed time.Duration) string {
	slow := ""
	if len(t.Slowest) > 0 {
		names := make([]string, len(t.Slowest))
		for i, s := range t.Slowest {
			names[i] = fmt.Sprintf("%s %s s", s.Test, group(int(s.Seconds+0.5)))
		}
		slow = "slowest tests: " + strings.Join(names, "; ") + "\n"
	}
	pages := "no browser page"
	if t.PageLoads > 0 {
		pages = fmt.Sprintf("%s browser page loads of %s pages", group(t.PageLoads), group(t.Pages))
	}
	failed := t.Failed
	if t.PackagesFailed > 0 && failed == 0 {
		failed = t.PackagesFailed // a package that failed without a failing test (a build error, a crash)
	}
	return slow + fmt.Sprintf("make test: %s packages, %s tests and subtests, %s, in %s s\n%s passed, %s failed, %s skipped\n",
		group(t.Packages), group(t.Passed+t.Failed+t.Skipped), pages, group(int(elapsed.Seconds()+0.5)),
		group(t.Passed), group(failed), group(t.Skipped))
}

// group writes n with thousands separated by commas.
func group(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func main() {
	tallyFile := flag.String("tally", "", "a file that adds up several runs (read, then rewritten)")
	since := flag.Int64("since", 0, "the Unix time the whole run started (0: now)")
	quiet := flag.Bool("quiet", false, "do not print the summary (a run that another follows)")
	flag.Parse()
	start := time.Now()
	if *since > 0 {
		start = time.Unix(*since, 0)
	}
	t, err := read(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(1)
	}
	t.Since = start.Unix()
	if *tallyFile != "" {
		var prev Tally
		if b, err := os.ReadFile(*tallyFile); err == nil && json.Unmarshal(b, &prev) == nil && prev.Since == t.Since {
			t = add(t, prev)
		} else if err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintln(os.Stderr, "testsum:", err)
		}
		b, _ := json.Marshal(t)
		os.MkdirAll(filepath.Dir(*tallyFile), 0o755)
		if err := os.WriteFile(*tallyFile, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "testsum:", err)
			os.Exit(1)
		}
	}
	if !*quiet {
		fmt.Print(summary(t, time.Since(start)))
	}
	if t.Failed > 0 || t.PackagesFailed > 0 || t.Events == 0 {
		os.Exit(1)
	}
}
