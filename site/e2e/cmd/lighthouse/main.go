// Command lighthouse scores the article pages of dist/ with Lighthouse
// (npm lighthouse, pinned in site/e2e/package.json: `npm ci --ignore-scripts` there) in
// Debian's Chromium, in its mobile mode (the default: a mid-range phone,
// simulated slow 4G and 4x slower CPU) and its desktop mode (-preset
// desktop), served by the site's own handler on 127.0.0.1 (no other
// network). `make bench` runs it after wasmbench
// (wasm/playground/bench.sh).
//
// For each page and mode it prints the median of -runs runs: the
// performance, accessibility and best-practices scores, and the metrics
// behind performance (first and largest contentful paint, total
// blocking time, cumulative layout shift, speed index), with the goals of
// issue 16: performance >= 0.95, accessibility and best practices 1.
//
// Lighthouse simulates the phone from a trace taken at the machine's own
// speed, so a busy machine scores lower: the load average is printed
// before and after. With several -dist directories (comma-separated:
// a build before and after a change) the runs alternate between them, so
// that the load falls on both alike.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"retrylab/site/e2e"
)

// pages are the pages scored by default: each article in another
// language, the exercises, and the embed of the calculator that computes
// the most (its page loads the policies module alone).
const pages = "/it/retries/,/es/rate-limits/,/zh/policies/,/zh/exercises/,/it/embed/policies/"

func main() {
	dists := flag.String("dist", "", "the built sites, comma-separated (default: dist/ of the module)")
	pageList := flag.String("pages", pages, "the pages scored, comma-separated URL paths")
	modes := flag.String("modes", "mobile,desktop", "Lighthouse's modes: mobile (its default), desktop (-preset desktop)")
	runs := flag.Int("runs", 3, "runs per page and mode (the median is reported)")
	bin := flag.String("lighthouse", "", "the lighthouse command (default: site/e2e/node_modules/.bin/lighthouse)")
	flag.Parse()
	if err := run(*dists, *pageList, *modes, *bin, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "lighthouse:", err)
		os.Exit(1)
	}
}

// result is one Lighthouse run: the scores (0-1) and the metrics (ms; CLS
// unitless).
type result struct {
	perf, a11y, bp         float64
	fcp, lcp, tbt, cls, si float64
	longest                float64 // the longest main-thread task, ms
}

func run(dists, pageList, modes, bin string, runs int) error {
	root, err := e2e.Root()
	if err != nil {
		return err
	}
	if dists == "" {
		dists = filepath.Join(root, "dist")
	}
	if bin == "" {
		bin = filepath.Join(root, "site", "e2e", "node_modules", ".bin", "lighthouse")
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("no %s: run `npm ci --ignore-scripts` at the module's root", bin)
	}
	type site struct {
		dist, url string
	}
	var sites []site
	for _, d := range strings.Split(dists, ",") {
		if err := e2e.Check(d); err != nil {
			return err
		}
		srv, err := e2e.Serve(d)
		if err != nil {
			return err
		}
		defer srv.Close()
		sites = append(sites, site{d, srv.URL})
	}
	paths := strings.Split(pageList, ",")
	modeList := strings.Split(modes, ",")
	fmt.Printf("Lighthouse (%s), median of %d runs; load average %s\n", version(bin), runs, loadavg())
	results := map[string][]result{}
	key := func(s, p, m string) string { return s + "\x00" + p + "\x00" + m }
	for i := 0; i < runs; i++ {
		for _, p := range paths {
			for _, m := range modeList {
				for _, s := range sites {
					// a trace Lighthouse could not record (NO_NAVSTART, on a
					// busy machine) is tried again, twice at most
					r, err := lighthouse(bin, s.url+p, m)
					for retry := 0; err != nil && retry < 2; retry++ {
						fmt.Fprintf(os.Stderr, "lighthouse: %s %s: %v; again\n", p, m, err)
						r, err = lighthouse(bin, s.url+p, m)
					}
					if err != nil {
						return fmt.Errorf("%s %s (%s): %w", p, m, s.dist, err)
					}
					results[key(s.dist, p, m)] = append(results[key(s.dist, p, m)], r)
				}
			}
		}
	}
	fmt.Printf("%-18s %-7s %5s %5s %5s %7s %7s %7s %6s %7s %8s\n", "page", "mode", "perf", "a11y", "bp", "FCP", "LCP", "TBT", "CLS", "SI", "longest")
	ok := true
	for _, s := range sites {
		if len(sites) > 1 {
			fmt.Println(s.dist)
		}
		for _, p := range paths {
			for _, m := range modeList {
				rs := results[key(s.dist, p, m)]
				med := func(f func(result) float64) float64 {
					v := make([]float64, len(rs))
					for i, r := range rs {
						v[i] = f(r)
					}
					slices.Sort(v)
					return v[len(v)/2]
				}
				r := result{perf: med(func(r result) float64 { return r.perf }), a11y: med(func(r result) float64 { return r.a11y }),
					bp: med(func(r result) float64 { return r.bp }), fcp: med(func(r result) float64 { return r.fcp }),
					lcp: med(func(r result) float64 { return r.lcp }), tbt: med(func(r result) float64 { return r.tbt }),
					cls: med(func(r result) float64 { return r.cls }), si: med(func(r result) float64 { return r.si }),
					longest: med(func(r result) float64 { return r.longest })}
				fmt.Printf("%-18s %-7s %5.2f %5.2f %5.2f %5.0fms %5.0fms %5.0fms %6.3f %5.0fms %6.0fms\n",
					p, m, r.perf, r.a11y, r.bp, r.fcp, r.lcp, r.tbt, r.cls, r.si, r.longest)
				ok = ok && r.perf >= 0.95 && r.a11y == 1 && r.bp == 1
			}
		}
	}
	verdict := "met"
	if !ok {
		verdict = "NOT met"
	}
	fmt.Printf("goal: performance >= 0.95, accessibility and best practices 1, mobile and desktop: %s; load average %s\n", verdict, loadavg())
	return nil
}

// lighthouse runs Lighthouse once on url in mode (mobile or desktop).
func lighthouse(bin, url, mode string) (result, error) {
	args := []string{url, "--quiet", "--output=json", "--output-path=stdout",
		"--only-categories=performance,accessibility,best-practices",
		"--chrome-flags=--headless --no-sandbox --disable-gpu"}
	switch mode {
	case "mobile":
	case "desktop":
		args = append(args, "--preset=desktop")
	default:
		return result{}, fmt.Errorf("unknown mode %q (mobile, desktop)", mode)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "CHROME_PATH="+e2e.Chromium)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return result{}, fmt.Errorf("%v\n%s", err, stderr.Bytes())
	}
	return parse(out)
}

// report is the part of Lighthouse's JSON report read here.
type report struct {
	RuntimeError *struct{ Code, Message string } `json:"runtimeError"`
	Categories   map[string]struct {
		Score *float64 `json:"score"`
	} `json:"categories"`
	Audits map[string]struct {
		NumericValue float64 `json:"numericValue"`
		Details      struct {
			Items []struct {
				Duration float64 `json:"duration"`
			} `json:"items"`
		} `json:"details"`
	} `json:"audits"`
}

// parse reads a Lighthouse JSON report.
func parse(out []byte) (result, error) {
	var rep report
	if err := json.Unmarshal(out, &rep); err != nil {
		return result{}, fmt.Errorf("reading Lighthouse's report: %w", err)
	}
	if rep.RuntimeError != nil && rep.RuntimeError.Code != "" {
		return result{}, fmt.Errorf("lighthouse: %s: %s", rep.RuntimeError.Code, rep.RuntimeError.Message)
	}
	score := func(c string) (float64, error) {
		s := rep.Categories[c].Score
		if s == nil {
			return 0, errors.New("no score for " + c)
		}
		return *s, nil
	}
	var r result
	var err error
	if r.perf, err = score("performance"); err != nil {
		return r, err
	}
	if r.a11y, err = score("accessibility"); err != nil {
		return r, err
	}
	if r.bp, err = score("best-practices"); err != nil {
		return r, err
	}
	r.fcp = rep.Audits["first-contentful-paint"].NumericValue
	r.lcp = rep.Audits["largest-contentful-paint"].NumericValue
	r.tbt = rep.Audits["total-blocking-time"].NumericValue
	r.cls = rep.Audits["cumulative-layout-shift"].NumericValue
	r.si = rep.Audits["speed-index"].NumericValue
	for _, t := range rep.Audits["long-tasks"].Details.Items {
		r.longest = max(r.longest, t.Duration)
	}
	return r, nil
}

// version is Lighthouse's version.
func version(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "version unknown"
	}
	return strings.TrimSpace(string(out))
}

// loadavg is the machine's load average over 1, 5 and 15 minutes.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
