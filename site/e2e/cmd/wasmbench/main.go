// Command wasmbench measures the browser playground, in one run (`make
// bench`, wasm/playground/bench.sh), against dist/ as ./build.sh
// wrote it:
//
//   - the size of each module (one per calculator set: each page loads its
//     article's), raw and as served (gzip, brotli), and the code of each Go
//     package in the largest one a page loads (from a build with symbol
//     names);
//   - the time from navigation to <html data-ready="true">, median of five
//     cold loads (HTTP cache disabled), of the page with the most widgets
//     and of a bare Go WebAssembly hello-world (wasm/hello) loaded by the
//     site's own loader from the same handler, in the same browser, twice:
//     in place of the playground on that same page (the page, its style
//     sheets and the loader's start at DOMContentLoaded are the article's,
//     so the ratio is what our module costs) and on an empty page (the bare
//     runtime alone); the loads alternate, and where the time goes (first
//     paint, responses, compile, hydration) is printed for each;
//   - the recompute latency, p50 and p95, of each calculator's widget at
//     the page's values and at its largest allowed parameters, timed in the
//     page with performance.now around window.__retrylabBench (?bench=1),
//     one recompute per animation frame as the playground schedules them
//     (the browser's own work between frames stays out of the timings),
//     with the widget scrolled into view as a reader's is while editing it;
//     beside them, the style and layout each new output costs (read at once
//     after each recompute: off screen the page skips it), and the p95 of
//     the two together; -v prints every run in order.
//
// It prints the goals of issues 5, 16 and 30 beside the numbers: at most 1,050 KB gzip
// for every module a page loads,
// ready within 1.5 times the bare runtime (judged on the same page, the
// empty page's ratio printed beside it), p95 within 16 ms at defaults for
// every calculator, policies included (issue 30; its issue-19 goal of
// 50 ms printed apart), and the same p95 with the style and layout.
// -js-flags passes V8 flags to the browser, to see what an engine setting
// changes.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"iter"
	"math"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"retrylab/core/calc"
	"retrylab/site/assets"
	"retrylab/site/e2e"
	"retrylab/site/wasmflags"
	"retrylab/site/widget"
)

// options are the command's flags.
type options struct {
	dist             string
	runs, iters, top int
	sections         map[string]bool // the parts of the report to run (-only)
	gcPercents       []int           // the GOGC settings compared at the defaults (-gc)
	verbose          bool            // print every recompute's time (-v)
	jsFlags          string          // V8 flags for the browser (-js-flags)
	calcs            map[string]bool // the calculators timed in the latency section (-calc; empty: all)
}

func main() {
	runs := flag.Int("runs", 5, "cold loads per page for the time to ready (the median is reported)")
	iters := flag.Int("n", 50, "recomputes per widget and parameter set")
	top := flag.Int("top", 15, "packages listed in the size table")
	dist := flag.String("dist", "", "the built site (default: dist/ of the module)")
	only := flag.String("only", "size,ready,frames,latency", "the sections to run, comma-separated: size, ready, frames, latency")
	verbose := flag.Bool("v", false, "also print every recompute's time, in order (the first ones run before the browser has optimized the code)")
	gc := flag.String("gc", "", "also time the recomputes at the defaults with these GOGC percents (comma-separated, e.g. 100,400,100,400), each in a page of its own (?bench=1&gogc=N: the loader starts the module with that GOGC)")
	jsFlags := flag.String("js-flags", "", "V8 flags for Chromium's --js-flags, to see what the engine's settings change (e.g. --no-wasm-lazy-compilation)")
	calcs := flag.String("calc", "", "time only these calculators in the latency section (comma-separated names; the goal line then says how many of all were measured)")
	flag.Parse()
	o := options{dist: *dist, runs: *runs, iters: *iters, top: *top, sections: map[string]bool{}, verbose: *verbose, jsFlags: *jsFlags}
	for _, g := range strings.Split(*gc, ",") {
		if g = strings.TrimSpace(g); g != "" {
			var v int
			if _, err := fmt.Sscan(g, &v); err != nil || v < 1 {
				fmt.Fprintln(os.Stderr, "wasmbench: -gc: a percent of at least 1, not", g)
				os.Exit(2)
			}
			o.gcPercents = append(o.gcPercents, v)
		}
	}
	for _, s := range strings.Split(*only, ",") {
		o.sections[strings.TrimSpace(s)] = true
	}
	if *calcs != "" {
		o.calcs = map[string]bool{}
		for _, c := range strings.Split(*calcs, ",") {
			o.calcs[strings.TrimSpace(c)] = true
		}
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "wasmbench:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	dist := o.dist
	root, err := e2e.Root()
	if err != nil {
		return err
	}
	if dist == "" {
		dist = filepath.Join(root, "dist")
	}
	if err := e2e.Check(dist); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "wasmbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	hello, err := goBuild(root, "./wasm/hello", filepath.Join(tmp, "hello.wasm"), true)
	if err != nil {
		return err
	}
	if o.sections["size"] {
		if err := sizes(root, dist, tmp, hello, o.top); err != nil {
			return err
		}
	}
	if !o.sections["ready"] && !o.sections["latency"] && !o.sections["frames"] {
		return nil
	}
	return browse(root, dist, tmp, hello, o)
}

// sizes prints the size of each playground module (wasm/playground/NAME,
// one per calculator set of site/widget), raw and compressed, beside the
// bare runtime's and what dist/ serves, and the code by package of the
// largest module a page of dist/ loads; the goal is judged on that
// module, since each page loads one.
func sizes(root, dist, tmp string, hello []byte, top int) error {
	fmt.Println("## module size (each page loads one module: its article's)")
	fmt.Printf("%-46s %10s %10s %10s  %s\n", "module", "raw", "gzip -9", "brotli", "served in dist/ (gzip, brotli as written by the build)")
	largest, largestGzip := "", -1
	for _, s := range widget.Sets() {
		pkg := "./wasm/playground/" + s.Name()
		b, err := goBuild(root, pkg, filepath.Join(tmp, s.Name()+".wasm"), true)
		if err != nil {
			return err
		}
		gz, br := compress(b)
		servedNote := "not served: no page loads it"
		served, _ := filepath.Glob(filepath.Join(dist, "assets", "playground-"+s.Name()+".*.wasm"))
		if len(served) == 1 {
			raw, _ := os.ReadFile(served[0])
			sgz, _ := os.ReadFile(served[0] + ".gz")
			sbr, _ := os.ReadFile(served[0] + ".br")
			servedNote = fmt.Sprintf("%s, %s", kb(len(sgz)), kb(len(sbr)))
			if !bytes.Equal(raw, b) {
				servedNote += " (another build than the tree's: run ./build.sh)"
			}
			// the goal is on what is served (zopfli's gzip, make build)
			if len(sgz) > largestGzip {
				largest, largestGzip = s.Name(), len(sgz)
			}
		}
		fmt.Printf("%-46s %10s %10s %10s  %s\n", "wasm/playground/"+s.Name()+" ("+strconv.Itoa(len(s.Registry().List()))+" calculators)", kb(len(b)), kb(len(gz)), kb(len(br)), servedNote)
	}
	gz, br := compress(hello)
	fmt.Printf("%-46s %10s %10s %10s\n", "wasm/hello (bare Go runtime)", kb(len(hello)), kb(len(gz)), kb(len(br)))
	if largest == "" {
		return errors.New("dist/ serves no playground module (assets/playground-NAME.*.wasm): run ./build.sh")
	}
	fmt.Printf("goal: gzip <= 1,050 KB as served for every module a page loads: %s (largest: %s, %s)\n", verdict(largestGzip <= 1050*1000), largest, kb(largestGzip))
	if err := pageModules(dist); err != nil {
		return err
	}

	pkg := "./wasm/playground/" + largest
	named, err := goBuild(root, pkg, filepath.Join(tmp, "named.wasm"), false)
	if err != nil {
		return err
	}
	deps, err := goList(root, pkg)
	if err != nil {
		return err
	}
	pkgs, code, data, err := codeByPackage(named, deps)
	if err != nil {
		return err
	}
	fmt.Printf("\nwasm/playground/%s: code section %s, data section %s; code by package (largest first):\n", largest, kb(code), kb(data))
	for i, p := range pkgs {
		if i == top {
			break
		}
		fmt.Printf("  %10s %5d funcs  %s\n", kb(p.Bytes), p.Funcs, p.Pkg)
	}
	fmt.Println()
	return nil
}

// pageModules prints, for each page of dist/ that loads a playground
// module, the module and the bytes it serves gzip-compressed (the .gz the
// build wrote): the article and playground pages one a line, the embed
// pages counted per module.
func pageModules(dist string) error {
	type served struct {
		name string
		gz   int64
	}
	mods := map[string]served{}
	var pages []string
	embeds := map[string]int{}
	err := filepath.WalkDir(dist, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "index.html" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m := e2e.DataWasm.FindSubmatch(b)
		if m == nil {
			return nil
		}
		mod := string(m[1])
		if _, ok := mods[mod]; !ok {
			fi, err := os.Stat(filepath.Join(dist, filepath.FromSlash(strings.TrimPrefix(mod, "/"))+".gz"))
			if err != nil {
				return fmt.Errorf("%s loads %s, which has no .gz: %w", path, mod, err)
			}
			name := strings.TrimPrefix(filepath.Base(mod), "playground-")
			name = name[:strings.IndexByte(name, '.')]
			mods[mod] = served{name, fi.Size()}
		}
		rel, _ := filepath.Rel(dist, filepath.Dir(path))
		page := "/" + filepath.ToSlash(rel) + "/"
		if strings.Contains(page, "/embed/") {
			embeds[mod]++
			return nil
		}
		if bytes.Contains(b, []byte(" data-modules")) { // the playground: every article's module, one after the other
			page += " (+ every article's)"
		}
		pages = append(pages, page+"\x00"+mod)
		return nil
	})
	if err != nil {
		return err
	}
	slices.Sort(pages)
	fmt.Println("\nmodule per page, gzip-compressed as served:")
	for _, p := range pages {
		page, mod, _ := strings.Cut(p, "\x00")
		fmt.Printf("  %-40s %-14s %s\n", page, mods[mod].name, kb(int(mods[mod].gz)))
	}
	var ms []string
	for m := range embeds {
		ms = append(ms, m)
	}
	slices.Sort(ms)
	for _, m := range ms {
		fmt.Printf("  %-40s %-14s %s\n", fmt.Sprintf("%d embed pages", embeds[m]), mods[m].name, kb(int(mods[m].gz)))
	}
	return nil
}

// browse measures, in Chromium, the time to ready and the recompute
// latency.
func browse(root, dist, tmp string, hello []byte, o options) error {
	runs, iters := o.runs, o.iters
	// 2. Time to ready.
	helloDir := filepath.Join(tmp, "hello-site")
	if err := helloSite(helloDir, hello, filepath.Join(root, "build", "wasm_exec.js")); err != nil {
		return err
	}
	srv, err := e2e.Serve(dist)
	if err != nil {
		return err
	}
	defer srv.Close()
	hsrv, err := e2e.Serve(helloDir)
	if err != nil {
		return err
	}
	defer hsrv.Close()
	var extra []chromedp.ExecAllocatorOption
	if o.jsFlags != "" {
		extra = append(extra, chromedp.Flag("js-flags", o.jsFlags))
	}
	browser, cancel, err := e2e.Browser(context.Background(), extra...)
	if err != nil {
		return err
	}
	defer cancel()

	pages, err := e2e.Pages(dist)
	if err != nil {
		return err
	}
	heavy, widgets := heaviestPage(pages)
	if heavy.Path == "" {
		return errors.New("no page of dist/ holds a widget")
	}
	if o.sections["ready"] {
		fmt.Printf("## time from navigation to data-ready (cold, cache disabled, median of %d)\n", runs)
		ssrv, err := samePageServer(dist, filepath.Join(tmp, "same-page"), hello)
		if err != nil {
			return err
		}
		defer ssrv.Close()
		t, b, err := readyTimes(browser, []string{srv.URL + heavy.Path, ssrv.URL + heavy.Path, hsrv.URL + "/"}, runs)
		if err != nil {
			return err
		}
		tp, ts, th := t[0], t[1], t[2]
		bp, bs, bh := b[0], b[1], b[2]
		mp, mh, ms := median(tp), median(th), median(ts)
		fmt.Printf("%-40s %8.1f ms  (runs: %s)\n", heavy.Path+fmt.Sprintf(" (%d widgets)", widgets), mp, msList(tp))
		fmt.Printf("%-40s %8.1f ms  (runs: %s)\n", "wasm/hello, the same page", ms, msList(ts))
		fmt.Printf("%-40s %8.1f ms  (runs: %s)\n", "wasm/hello, an empty page", mh, msList(th))
		fmt.Printf("goal: ready <= 1.5 x bare runtime on the same page: %s (%.2f x; %.2f x an empty page's)\n",
			verdict(mp <= 1.5*ms), mp/ms, mp/mh)
		fmt.Println("\nwhere the time goes: ms from navigation start, median of the runs (-: not marked)")
		printBreakdown(heavy.Path, bp)
		printBreakdown("wasm/hello, the same page", bs)
		printBreakdown("wasm/hello, an empty page", bh)
	}
	if o.sections["frames"] {
		if err := playFrames(browser, srv.URL, pages); err != nil {
			return err
		}
		if err := flowFrames(browser, srv.URL, pages); err != nil {
			return err
		}
	}
	if !o.sections["latency"] {
		return nil
	}

	// 3. Recompute latency.
	fmt.Printf("\n## recompute latency in the page (parse and run, render to HTML, DOM update), up to %d runs\n", iters)
	fmt.Println("   after the page's warm-up (data-warm); first: the first recompute, timed apart")
	fmt.Println("   layout: the style and layout of the new output, read at once after each recompute (not in p50/p95);")
	fmt.Println("   +layout p95: the 95th percentile of each recompute plus its layout, the main thread's whole work for it")
	fmt.Printf("%-16s %-9s %4s %8s %8s %8s %8s %8s %8s %8s %8s %8s %6s %4s  %s\n", "calculator", "params", "runs", "first ms", "p50 ms", "p95 ms", "run p50", "html p50", "dom p50", "layout", "+layout", "KB/op", "allocs", "GCs", "values")
	reg := calc.New()
	worst, measured := 0.0, 0
	worstAll := 0.0  // the worst p95 of a recompute with its layout, over the calculators held to frameMS
	var own []string // the goal lines of calculators with a goal of their own
	var slow []slowWidget
	for _, c := range reg.List() {
		if o.calcs != nil && !o.calcs[c.Name] {
			continue
		}
		p, id, defaults, ok := findWidget(pages, c.Name)
		if !ok {
			fmt.Printf("%-16s (no widget in dist/)\n", c.Name)
			continue
		}
		pageVals, err := e2e.PageValues(c, defaults)
		if err != nil {
			return err
		}
		largest := e2e.LargestAccepted(c, pageVals)
		ctx, tcancel := chromedp.NewContext(browser)
		err = chromedp.Do(ctx, chromedp.Navigate(srv.URL+p.Path+"?bench=1"), e2e.WaitReady(30*time.Second))
		if err != nil {
			tcancel()
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		// as a reader who starts editing once the page has settled: after
		// the warm-up in the worker (app.js retrylabWarm), at most 10 s
		warm, err := chromedp.Run(ctx, chromedp.Evaluate[string](waitWarm, chromedp.EvalAwaitPromise))
		if err != nil {
			tcancel()
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		if warm != "done" {
			fmt.Printf("%-16s (%s: the warm-up did not end within 10 s)\n", c.Name, p.Path)
		}
		for _, set := range []struct {
			name   string
			values url.Values
		}{{"defaults", pageVals}, {"largest", largest}} {
			n := iters
			if set.name == "largest" {
				n = adaptN(ctx, id, set.values, iters)
			}
			// the first recompute apart: it pays for lazy initialisation
			// (maps, the first large allocation, code the engine compiles
			// on first use), and is printed as "first"
			first, err := benchWidget(ctx, id, set.values, 1)
			if err != nil {
				fmt.Printf("%-16s %-9s %s\n", c.Name, set.name, err)
				continue
			}
			r, err := benchWidget(ctx, id, set.values, n)
			if err != nil {
				fmt.Printf("%-16s %-9s %s\n", c.Name, set.name, err)
				continue
			}
			p95 := percentile(r.MS, 95)
			if g, why, ok := ownGoalMS(c.Name); ok && set.name == "defaults" {
				own = append(own, fmt.Sprintf("goal: %s p95 <= %.0f ms at defaults (%s; over the %.0f ms of the others: %v): %s (%.2f ms)",
					c.Name, g, why, frameMS, p95 > frameMS, verdict(p95 <= g), p95))
			}
			withLayout := percentile(plus(r.MS, r.Layout), 95)
			if set.name == "defaults" { // every calculator, policies included (issue 30)
				measured++
				worst = max(worst, p95)
				worstAll = max(worstAll, withLayout)
			}
			fmt.Printf("%-16s %-9s %4d %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.1f %6.0f %4d  %s\n", c.Name, set.name, len(r.MS),
				first.MS[0], median(r.MS), p95, median(r.Run), median(r.Render), median(r.DOM), median(r.Layout), withLayout, r.Bytes/1000, r.Allocs, r.GCs, short(set.values.Encode(), 50))
			if o.verbose {
				fmt.Println("   runs:", msList(r.MS))
			}
			if set.name == "defaults" {
				for _, g := range o.gcPercents {
					rg, err := benchGOGC(browser, srv.URL+p.Path, g, id, set.values, n)
					if err != nil {
						fmt.Printf("%-16s %-9s %s\n", "", fmt.Sprintf("gc=%d", g), err)
						continue
					}
					fmt.Printf("%-16s %-9s %4d %8s %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.1f %6.0f %4d\n", "", fmt.Sprintf("gc=%d", g), len(rg.MS), "",
						median(rg.MS), percentile(rg.MS, 95), median(rg.Run), median(rg.Render), median(rg.DOM), median(rg.Layout), percentile(plus(rg.MS, rg.Layout), 95), rg.Bytes/1000, rg.Allocs, rg.GCs)
				}
			}
			if set.name == "largest" && median(r.MS) > frameMS {
				slow = append(slow, slowWidget{c.Name, p.Path, id, set.values, pageVals, median(r.MS)})
			}
		}
		tcancel()
	}
	general := len(reg.List()) // the calculators held to frameMS: all (issue 30), a goal of their own besides
	fmt.Printf("goal: p95 <= %.0f ms at defaults: %s (worst %.2f ms over %d of %d calculators)\n",
		frameMS, verdict(worst <= frameMS && measured == general), worst, measured, general)
	fmt.Printf("      with the style and layout each recompute causes: worst p95 %.2f ms (%s)\n",
		worstAll, verdict(worstAll <= frameMS && measured == general))
	for _, line := range own {
		fmt.Println(line)
	}

	// 4. The page while a slow widget computes.
	fmt.Printf("\n## input to result through the form, widgets slower than a frame at their largest parameters (%d inputs each)\n", interactions)
	fmt.Println("   longest frame: the longest gap between animation frames meanwhile (the main thread blocked)")
	fmt.Printf("%-16s %-12s %10s %10s %14s  %s\n", "calculator", "path", "p50 ms", "max ms", "longest frame", "runs (ms, frame)")
	for _, sw := range slow {
		for _, worker := range []bool{true, false} {
			rs, err := interact(browser, srv.URL+sw.path+"?bench=1", sw.id, sw.values, worker)
			name := "worker"
			if !worker {
				name = "main thread"
			}
			if err != nil {
				fmt.Printf("%-16s %-12s %s\n", sw.calc, name, err)
				continue
			}
			var ms, gaps []float64
			var runs []string
			for _, r := range rs {
				ms = append(ms, r.MS)
				gaps = append(gaps, r.MaxGap)
				runs = append(runs, fmt.Sprintf("%.0f/%.0f", r.MS, r.MaxGap))
			}
			fmt.Printf("%-16s %-12s %10.1f %10.1f %11.1f ms  %s\n", sw.calc, name, median(ms), percentile(ms, 100), percentile(gaps, 100), strings.Join(runs, " "))
		}
	}

	// 5. A newer input while a long request runs.
	fmt.Printf("\n## a newer input %d ms after an edit to the largest parameters: from it to its result (worker replaced, or its answer awaited)\n", supersedeAfterMS)
	for _, sw := range slow {
		if sw.ms < 2*supersedeAfterMS {
			continue
		}
		for _, restart := range []bool{true, false} {
			ms, err := supersede(browser, srv.URL+sw.path+"?bench=1", sw, restart)
			name := "replace the worker"
			if !restart {
				name = "await the answer"
			}
			if err != nil {
				fmt.Printf("%-16s %-20s %s\n", sw.calc, name, err)
				continue
			}
			fmt.Printf("%-16s %-20s p50 %7.1f ms  (runs: %s)\n", sw.calc, name, median(ms), msList(ms))
		}
	}
	return nil
}

// frameMS is issue 16's recompute goal at the defaults, p95: a frame. A
// widget slower than it at its largest parameters is also timed through
// the form, with the Web Worker and without.
const frameMS = 16.0

// ownGoalMS returns a recompute goal at the defaults, in ms, that an
// issue set for one calculator besides issue 16's 16 ms (a frame), and
// the issue; ok is false for the others. The policies calculator
// simulates nine policies on one outage, some 75,000 requests: issue 19
// asked <= 50 ms p95 of it, its own line; issue 30 holds it to the 16 ms
// of every calculator too, so it counts in the general goal as well.
func ownGoalMS(calc string) (ms float64, why string, ok bool) {
	switch calc {
	case "policies":
		return 50, "issue 19", true
	}
	return 0, "", false
}

// supersedeAfterMS is when the newer input follows the slow one.
const supersedeAfterMS = 300

// supersedeScript edits widget id to q1, then after ms to q2, and
// resolves with the time from the second edit to the widget's idle state.
const supersedeScript = `((id, q1, q2, after) => new Promise(resolve => {
	const root = document.getElementById(id), f = root.querySelector('form[data-form]'), out = root.querySelector('[data-output]');
	const edit = q => {
		let last = null;
		for (const [k, v] of new URLSearchParams(q)) {
			const el = f.elements[k];
			if (!el) continue;
			if (el.type === 'checkbox') el.checked = v === 'true'; else el.value = v;
			last = el;
		}
		last.dispatchEvent(new Event('input', {bubbles: true}));
		last.dispatchEvent(new Event('change', {bubbles: true}));
	};
	edit(q1);
	setTimeout(() => {
		const t0 = performance.now();
		edit(q2);
		const check = () => { if (out.getAttribute('aria-busy') === 'true') { setTimeout(check, 2); return; } resolve(performance.now() - t0); };
		check();
	}, after);
}))`

// supersede times interactions of supersedeScript in a fresh tab, with
// the loader's retrylabRestartWorker or without it.
func supersede(browser context.Context, u string, sw slowWidget, restart bool) ([]float64, error) {
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(u), e2e.WaitReady(60*time.Second)); err != nil {
		return nil, err
	}
	if !restart {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.retrylabRestartWorker = undefined, true)`)); err != nil {
			return nil, err
		}
	}
	// the worker starts, and warms up, when the page is idle
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](waitWarm, chromedp.EvalAwaitPromise)); err != nil {
		return nil, err
	}
	var out []float64
	for i := 0; i < interactions; i++ {
		q2 := e2eClone(sw.page)
		if _, ok := q2["seed"]; ok {
			q2.Set("seed", fmt.Sprint(7+i))
		}
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(`%s(%q, %q, %q, %d)`, supersedeScript, sw.id, sw.values.Encode(), q2.Encode(), supersedeAfterMS), chromedp.EvalAwaitPromise))
		if err != nil {
			return nil, err
		}
		out = append(out, ms)
	}
	return out, nil
}

// slowWidget is a widget whose recompute at its largest parameters takes
// more than a frame.
type slowWidget struct {
	calc, path, id string
	values, page   url.Values
	ms             float64 // p50 of a recompute at values, on the main thread
}

// interactions is the number of inputs timed per widget and path.
const interactions = 5

// interactScript sets a widget's form to a query and sends one change
// event, as a reader's edit does; it resolves when the widget waits for
// no answer, with the time from the event and the longest gap between
// animation frames meanwhile.
const interactScript = `((id, query) => new Promise(resolve => {
	const root = document.getElementById(id), f = root.querySelector('form[data-form]'), out = root.querySelector('[data-output]');
	let last = null;
	for (const [k, v] of new URLSearchParams(query)) {
		const el = f.elements[k];
		if (!el) continue;
		if (el.type === 'checkbox') el.checked = v === 'true'; else el.value = v;
		last = el;
	}
	let gap = 0, prev = 0, running = true;
	const frame = () => { const now = performance.now(); if (prev) gap = Math.max(gap, now - prev); prev = now; if (running) requestAnimationFrame(frame); };
	requestAnimationFrame(() => {
		prev = performance.now();
		requestAnimationFrame(frame);
		const t0 = performance.now();
		last.dispatchEvent(new Event('input', {bubbles: true}));
		last.dispatchEvent(new Event('change', {bubbles: true}));
		const check = () => {
			if (out.getAttribute('aria-busy') === 'true') { setTimeout(check, 2); return; }
			const ms = performance.now() - t0;
			requestAnimationFrame(() => { frame(); running = false; resolve({ms: ms, maxGap: gap}); });
		};
		check();
	});
}))`

// noWorker hides Worker from the page, so that the loader offers no
// worker and every widget computes on the main thread.
const noWorker = `Object.defineProperty(window, 'Worker', {value: undefined, configurable: true});`

type interaction struct {
	MS     float64 `json:"ms"`
	MaxGap float64 `json:"maxGap"`
}

// interact times interactions edits of widget id to values in a fresh tab,
// with the page's worker or without it.
func interact(browser context.Context, u, id string, values url.Values, worker bool) ([]interaction, error) {
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	if !worker {
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: noWorker}); err != nil {
			return nil, err
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(u), e2e.WaitReady(60*time.Second)); err != nil {
		return nil, err
	}
	if worker { // the worker starts, and warms up, when the page is idle
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](waitWarm, chromedp.EvalAwaitPromise)); err != nil {
			return nil, err
		}
	}
	var out []interaction
	for i := 0; i < interactions; i++ {
		r, err := chromedp.Run(ctx, chromedp.Evaluate[interaction](fmt.Sprintf(`%s(%q, %q)`, interactScript, id, values.Encode()), chromedp.EvalAwaitPromise))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// goBuild compiles a wasm command as build.sh does: with the flags of its
// buildflags file if it has one (wasm/playground, whose file serves its
// modules wasm/playground/NAME too), else -trimpath and
// -ldflags="-s -w"; without -ldflags when strip is false (the name section
// that codeByPackage reads).
func goBuild(root, pkg, out string, strip bool) ([]byte, error) {
	dir := pkg
	if strings.HasPrefix(pkg, "./wasm/playground/") {
		dir = "./wasm/playground" // the modules share the playground's flags
	}
	flags, env, err := buildFlags(filepath.Join(root, dir, "buildflags"))
	if err != nil {
		return nil, err
	}
	args := []string{"build", "-o", out}
	for _, f := range flags {
		if strip || !strings.HasPrefix(f, "-ldflags=") {
			args = append(args, f)
		}
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), "GOOS=js", "GOARCH=wasm"), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return os.ReadFile(out)
}

// buildFlags reads a buildflags file as build.sh does
// (wasmflags.Read). Without the file the flags are -trimpath
// and -ldflags=-s -w.
func buildFlags(path string) (flags, env []string, err error) {
	flags, env, err = wasmflags.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{"-trimpath", "-ldflags=-s -w"}, nil, nil
	}
	return flags, env, err
}

func goList(root, pkg string) ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %w\n%s", pkg, err, stderr.Bytes())
	}
	return append(strings.Fields(string(b)), "main"), nil
}

// compress returns b as gzip -9 and brotli 11.
func compress(b []byte) (gz, br []byte) {
	var g, r bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	bw := brotli.NewWriterLevel(&r, brotli.BestCompression)
	bw.Write(b)
	bw.Close()
	return g.Bytes(), r.Bytes()
}

// helloSite writes the baseline page: wasm/hello loaded by the site's own
// loader (site/assets/app.js) from the same handler, with the module
// precompressed as the build does, and the same <head> as an article
// with widgets (site/pages/templates/layout.html): the same preloads and
// the loader's async tag that names the module.
func helloSite(dir string, hello []byte, wasmExec string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	app, err := fs.ReadFile(assets.FS, "app.js")
	if err != nil {
		return err
	}
	we, err := os.ReadFile(wasmExec)
	if err != nil {
		return fmt.Errorf("%w (run ./build.sh)", err)
	}
	gz, br := compress(hello)
	page := `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hello</title>
<link rel="preload" href="/hello.wasm" as="fetch" type="application/wasm" crossorigin>
<link rel="preload" href="/wasm_exec.js" as="script">
<script src="/app.js" async data-wasm="/hello.wasm" data-wasm-exec="/wasm_exec.js"></script>
<script type="application/json" id="retrylab-data">{"lang":"en","wasm":"/hello.wasm","wasm_exec":"/wasm_exec.js"}</script></head>
<body><div data-widget="hello" hidden></div></body></html>
`
	for name, b := range map[string][]byte{"index.html": []byte(page), "app.js": app, "wasm_exec.js": we,
		"hello.wasm": hello, "hello.wasm.gz": gz, "hello.wasm.br": br} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// samePageServer serves a copy of dist/ in dir in which the playground
// modules (assets/playground-NAME.*.wasm and their .gz and .br) are wasm/hello:
// the page, its style sheets, the loader and the moment it starts the
// module (DOMContentLoaded) are the article's, so that the time to ready
// of this copy against the article's is what the playground's own module
// costs, the page's weight apart.
func samePageServer(dist, dir string, hello []byte) (*httptest.Server, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.CopyFS(dir, os.DirFS(dist)); err != nil {
		return nil, err
	}
	served, _ := filepath.Glob(filepath.Join(dir, "assets", "playground-*.wasm"))
	if len(served) == 0 {
		return nil, fmt.Errorf("%s: no assets/playground-NAME.*.wasm (run ./build.sh)", dist)
	}
	gz, br := compress(hello)
	for _, m := range served {
		for name, b := range map[string][]byte{m: hello, m + ".gz": gz, m + ".br": br} {
			if err := os.WriteFile(name, b, 0o644); err != nil {
				return nil, err
			}
		}
	}
	return e2e.Serve(dir)
}

// readyScript records, in every new document, the time (performance.now,
// from navigation start) at which <html data-ready="true"> appears.
const readyScript = `(() => {
	const mark = () => { if (document.documentElement && document.documentElement.getAttribute('data-ready') === 'true' && !window.__readyAt) window.__readyAt = performance.now(); };
	new MutationObserver(mark).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-ready']});
})();`

// breakdownScript reads, after ready, when each step of loading ended
// (performance.now, from navigation start): the HTML response, the style
// sheet's, the end of parsing (domInteractive), the first contentful
// paint, app.js
// starting, the wasm_exec.js and wasm responses (Resource Timing), the
// marks the loader (site/assets/app.js) and the playground (main.go) set,
// and ready. -1: the step was not marked.
const breakdownScript = `(() => {
	const nav = performance.getEntriesByType('navigation')[0] || {};
	const mark = n => { const e = performance.getEntriesByName(n, 'mark'); return e.length ? e[0].startTime : -1; };
	const res = performance.getEntriesByType('resource');
	const find = re => res.find(r => re.test(r.name));
	const wasm = find(/\.wasm(\?|$)/), exec = find(/wasm_exec[^/]*\.js/);
	const css = find(/style[^/]*\.css/);
	const fcp = performance.getEntriesByName('first-contentful-paint')[0];
	return [nav.responseEnd || -1, css ? css.responseEnd : -1, nav.domInteractive || -1, fcp ? fcp.startTime : -1, mark('retrylab:app'),
		exec ? exec.responseEnd : -1, mark('retrylab:wasm_exec'),
		wasm ? wasm.startTime : -1, wasm ? wasm.responseEnd : -1,
		mark('retrylab:compiled'), mark('retrylab:instantiated'),
		mark('retrylab:main'), mark('retrylab:hydrated'), window.__readyAt || -1];
})()`

// breakdownSteps names the columns of breakdownScript.
var breakdownSteps = []string{"html", "style.css", "parsed", "first paint", "app.js", "exec resp", "exec run", "wasm req", "wasm resp",
	"compiled", "instantiated", "main()", "hydrated", "ready"}

// readyTimes loads each of urls runs times, each in its own tab with the
// cache disabled, in rounds (one load of each url per round, so that what
// else the machine does falls on all of them alike), after one round that
// only warms the server and the browser; it returns, per url, each time
// to ready in ms and the breakdown of each load.
func readyTimes(browser context.Context, urls []string, runs int) ([][]float64, [][][]float64, error) {
	tabs := make([]context.Context, len(urls))
	for i := range urls {
		ctx, cancel := chromedp.NewContext(browser)
		defer cancel()
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return nil, nil, err
		}
		if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
			return nil, nil, err
		}
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: readyScript}); err != nil {
			return nil, nil, err
		}
		tabs[i] = ctx
	}
	times := make([][]float64, len(urls))
	steps := make([][][]float64, len(urls))
	for round := 0; round < runs+1; round++ {
		for i, u := range urls {
			ctx := tabs[i]
			if err := chromedp.Do(ctx, chromedp.Navigate(u), e2e.WaitReady(60*time.Second)); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", u, err)
			}
			ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.__readyAt || -1`))
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", u, err)
			}
			if ms < 0 {
				return nil, nil, fmt.Errorf("%s: data-ready was not observed", u)
			}
			b, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](breakdownScript))
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", u, err)
			}
			if round > 0 {
				times[i] = append(times[i], ms)
				steps[i] = append(steps[i], b)
			}
		}
	}
	return times, steps, nil
}

// printBreakdown prints the median of each step of the loads.
func printBreakdown(name string, loads [][]float64) {
	fmt.Printf("  %s\n", name)
	for j, step := range breakdownSteps {
		var col []float64
		for _, l := range loads {
			if j < len(l) && l[j] >= 0 {
				col = append(col, l[j])
			}
		}
		if len(col) == 0 {
			fmt.Printf("    %-13s %8s\n", step, "-")
			continue
		}
		fmt.Printf("    %-13s %8.1f ms\n", step, median(col))
	}
}

// heaviestPage is the page with the most widgets.
func heaviestPage(pages []e2e.Page) (e2e.Page, int) {
	var best e2e.Page
	n := 0
	for _, p := range pages {
		b, _ := os.ReadFile(p.File)
		if c := strings.Count(string(b), "data-widget="); c > n {
			best, n = p, c
		}
	}
	return best, n
}

// findWidget finds a widget of calculator name in dist/ (the first
// article page, in path order, else the first page): its page, id and
// data-defaults. Embed pages come last: their script keeps only the
// calculator's parameters in the query, so ?bench=1 does not reach the
// playground there.
func findWidget(pages []e2e.Page, name string) (e2e.Page, string, string, bool) {
	for w := range builtWidgets(pages, name) {
		if w.id != "" {
			return w.page, w.id, htmlUnescape(attr(w.tag, "data-defaults")), true
		}
	}
	return e2e.Page{}, "", "", false
}

// builtWidget is a widget of a built page: its opening tag from its
// data-widget attribute on, and its markup up to the next widget's.
type builtWidget struct {
	page      e2e.Page
	id        string
	tag, body string
}

// builtWidgets yields the widgets of calculator name in pages, the pages
// before the embeds, each in path order, its widgets in document order.
func builtWidgets(pages []e2e.Page, name string) iter.Seq[builtWidget] {
	return func(yield func(builtWidget) bool) {
		for _, embed := range []bool{false, true} {
			for _, p := range pages {
				if strings.Contains(p.Path, "/embed/") != embed {
					continue
				}
				b, err := os.ReadFile(p.File)
				if err != nil {
					continue
				}
				s := string(b)
				for {
					i := strings.Index(s, `data-widget="`+name+`"`)
					if i < 0 {
						break
					}
					s = s[i:]
					tag := s
					if j := strings.IndexByte(tag, '>'); j >= 0 {
						tag = tag[:j]
					}
					s = s[1:]
					body := s
					if next := strings.Index(s, `data-widget="`); next >= 0 {
						body = s[:next]
					}
					if !yield(builtWidget{page: p, id: attr(tag, "id"), tag: tag, body: body}) {
						return
					}
				}
			}
		}
	}
}

func attr(tag, name string) string {
	i := strings.Index(tag, " "+name+`="`)
	if i < 0 {
		return ""
	}
	v := tag[i+len(name)+3:]
	if j := strings.IndexByte(v, '"'); j >= 0 {
		return v[:j]
	}
	return ""
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#34;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">", "&quot;", `"`).Replace(s)
}

// benchResult is what window.__retrylabBench returns: the duration of
// each recompute and of its steps, in ms.
type benchResult struct {
	MS     []float64 `json:"ms"`
	Run    []float64 `json:"run"`
	Render []float64 `json:"render"`
	DOM    []float64 `json:"dom"`
	// Layout is the style and layout the new output costs the browser,
	// forced at once after each recompute (framedScript): the page's
	// work before the next frame, which MS leaves out.
	Layout []float64 `json:"layout"`
	Bytes  float64   `json:"bytes"`  // allocated per recompute
	Allocs float64   `json:"allocs"` // allocations per recompute
	GCs    int       `json:"gcs"`    // collections during the runs
	Error  string    `json:"error"`
}

// framedScript runs n recomputes of a widget the way the playground does
// them, one per animation frame (input events coalesce to one recompute
// per frame), so that what the browser does between frames (its own
// garbage collection, layout) falls between them as in use, not inside a
// recompute. It returns the runs of __retrylabBench concatenated, and
// after each the time a read of the page's layout takes (the style and
// layout of the new output, which the frame would do next: layout). The
// widget is scrolled into view first, as a reader's is while editing it:
// off screen, the page skips its style and layout (content-visibility).
const framedScript = `((id, query, n) => new Promise(resolve => {
	const all = {ms: [], run: [], render: [], dom: [], layout: [], bytes: 0, allocs: 0, gcs: 0};
	const w = document.getElementById(id);
	if (w) w.scrollIntoView({block: 'start'});
	let i = 0;
	const step = () => {
		const r = window.__retrylabBench(id, query, 1);
		if (r.error) { resolve(r); return; }
		const t0 = performance.now();
		document.body.getBoundingClientRect(); document.body.offsetHeight;
		all.layout.push(performance.now() - t0);
		for (const k of ['ms', 'run', 'render', 'dom']) all[k].push(...r[k]);
		all.bytes += r.bytes / n; all.allocs += r.allocs / n; all.gcs += r.gcs;
		if (++i < n) { requestAnimationFrame(step); } else { resolve(all); }
	};
	requestAnimationFrame(() => requestAnimationFrame(step));
}))`

// waitWarm resolves "done" once <html data-warm="done"> (the loader's
// warm-up in the worker is over), "timeout" after 10 s.
// benchGOGC times n recomputes of widget id with values in a page of its
// own loaded with ?bench=1&gogc=gogc, after its warm-up: the loader
// (site/assets/app.js) starts the Go runtime with GOGC=gogc in its
// environment, the page's and the worker's.
func benchGOGC(browser context.Context, pageURL string, gogc int, id string, values url.Values, n int) (benchResult, error) {
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	ctx, tcancel := context.WithTimeout(ctx, 5*time.Minute)
	defer tcancel()
	u := pageURL + "?bench=1&gogc=" + strconv.Itoa(gogc)
	if err := chromedp.Do(ctx, chromedp.Navigate(u), e2e.WaitReady(30*time.Second)); err != nil {
		return benchResult{}, err
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](waitWarm, chromedp.EvalAwaitPromise)); err != nil {
		return benchResult{}, err
	}
	return benchWidget(ctx, id, values, n)
}

const waitWarm = `new Promise(resolve => {
	const t0 = performance.now();
	const check = () => {
		if (document.documentElement.getAttribute('data-warm') === 'done') { resolve('done'); return; }
		if (performance.now() - t0 > 10000) { resolve('timeout'); return; }
		setTimeout(check, 50);
	};
	check();
})`

// benchWidget runs n recomputes of widget id in the page, one per
// animation frame (framedScript).
func benchWidget(ctx context.Context, id string, values url.Values, n int) (benchResult, error) {
	expr := fmt.Sprintf(`%s(%q, %q, %d)`, framedScript, id, values.Encode(), n)
	r, err := chromedp.Run(ctx, chromedp.Evaluate[benchResult](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		return r, err
	}
	if r.Error != "" {
		return r, errors.New(r.Error)
	}
	return r, nil
}

// adaptN keeps the runs at the largest parameters within about 3 s.
func adaptN(ctx context.Context, id string, values url.Values, limit int) int {
	r, err := benchWidget(ctx, id, values, 1)
	if err != nil || len(r.MS) == 0 || r.MS[0] <= 0 {
		return limit
	}
	n := int(3000 / r.MS[0])
	return min(limit, max(n, 5))
}

// plus returns a[i]+b[i] for each i of the shorter of a and b.
func plus(a, b []float64) []float64 {
	out := make([]float64, min(len(a), len(b)))
	for i := range out {
		out[i] = a[i] + b[i]
	}
	return out
}

func percentile(ms []float64, p float64) float64 {
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	if len(s) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func median(ms []float64) float64 { return percentile(ms, 50) }

func msList(ms []float64) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%.0f", m)
	}
	return strings.Join(parts, ", ")
}

func kb(n int) string { return fmt.Sprintf("%.1f KB", float64(n)/1000) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

func short(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func e2eClone(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
