// Command longtasks attributes the long tasks of the main thread while a
// page of dist/ loads and while the reader scrolls through it, on a phone:
// Chromium at 375×812 with touch and its CPU slowed down -cpu times (4,
// Lighthouse's mobile setting), served by the site's own handler on
// 127.0.0.1. For each page it prints every long task (a task of more than
// 50 ms, the browser's PerformanceLongTaskTiming) in time order, each with
// its start and length and the step of loading it falls in: the last
// retrylab:* mark before it and the first after it (the loader,
// site/assets/app.js, and the playground, wasm/playground, set them:
// app, wasm_exec, compiled, instantiated, main, hydrated);
// then the sum of their time over 50 ms (the blocking time) beside the
// exercises page's (a page without a playground module): the difference
// is ours. Issue 33's goal: no long task of the playground's.
//
// -busy runs the pages again with that many busy loops beside the browser
// (goroutines that spin, as the lighthouse command's): a phone has other
// work to do. By default idle and with two loops. Times are the machine's:
// `make bench` prints them (wasm/playground/bench.sh), no test compares
// them with a number.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"retrylab/core/calc"
	"retrylab/site/e2e"
)

// verbose: -v.
var verbose bool

// exercisesPage is the page without a playground module.
const exercisesPage = "/zh/exercises/"

func defaultPages() string {
	langs := []string{"it", "es", "zh"}
	var ps []string
	for i, a := range calc.Articles() {
		ps = append(ps, "/"+langs[i%len(langs)]+"/"+a.Slug+"/")
	}
	return strings.Join(append(ps, "/es/embed/dispatch/", exercisesPage), ",")
}

func main() {
	pageList := flag.String("pages", defaultPages(), "the pages, comma-separated URL paths")
	busy := flag.String("busy", "0,2", "run the pages once per number of busy loops beside them, comma-separated (0: idle)")
	cpu := flag.Float64("cpu", 4, "Chromium's CPU slowdown (emulation.setCPUThrottlingRate; 1: none)")
	dist := flag.String("dist", "", "the built site (default: dist/ of the module)")
	flag.BoolVar(&verbose, "v", false, "also print every retrylab mark")
	flag.StringVar(&jsFlags, "js-flags", "", "V8's flags for Chromium (--js-flags), for experiments: e.g. --no-wasm-lazy-compilation")
	noWasm := flag.Bool("no-wasm", false, "hide WebAssembly from the pages (the loader leaves them static): the long tasks left are the page's own (style, layout, its other scripts)")
	flag.Parse()
	var loops []int
	for _, b := range strings.Split(*busy, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(b))
		if err != nil || n < 0 || n > 64 {
			fmt.Fprintf(os.Stderr, "longtasks: -busy: %q is not a number of loops from 0 to 64\n", b)
			os.Exit(2)
		}
		loops = append(loops, n)
	}
	if *cpu < 1 || *cpu > 20 {
		fmt.Fprintln(os.Stderr, "longtasks: -cpu: a slowdown from 1 to 20")
		os.Exit(2)
	}
	if *noWasm {
		initScript = hideWasm + initScript
	}
	if err := run(*dist, strings.Split(*pageList, ","), loops, *cpu); err != nil {
		fmt.Fprintln(os.Stderr, "longtasks:", err)
		os.Exit(1)
	}
}

// jsFlags is -js-flags: V8's flags, passed to Chromium as --js-flags.
var jsFlags string

func run(dist string, pages []string, loops []int, cpu float64) error {
	if dist == "" {
		root, err := e2e.Root()
		if err != nil {
			return err
		}
		dist = root + "/dist"
	}
	if err := e2e.Check(dist); err != nil {
		return err
	}
	srv, err := e2e.Serve(dist)
	if err != nil {
		return err
	}
	defer srv.Close()
	var extra []chromedp.ExecAllocatorOption
	if jsFlags != "" {
		extra = append(extra, chromedp.Flag("js-flags", jsFlags))
	}
	browser, cancel, err := e2e.Browser(context.Background(), extra...)
	if err != nil {
		return err
	}
	defer cancel()
	fmt.Printf("## long tasks of the main thread, at 375×812 with touch, CPU %g× slower: loading, then scrolling to the end\n", cpu)
	for _, n := range loops {
		fmt.Printf("\n-- %d busy loops beside the browser (load average %s)\n", n, e2e.LoadAvg())
		stop := e2e.Spin(n)
		blocking := map[string]float64{}
		for _, p := range pages {
			p = strings.TrimSpace(p)
			r, err := measure(browser, srv.URL+p, cpu)
			if err != nil {
				stop()
				return fmt.Errorf("%s: %w", p, err)
			}
			blocking[p] = r.print(p)
		}
		stop()
		if base, ok := blocking[exercisesPage]; ok {
			fmt.Printf("blocking time beside %s's %.0f ms:", exercisesPage, base)
			worst, at := math.Inf(-1), ""
			for _, p := range pages {
				if p = strings.TrimSpace(p); p != exercisesPage {
					fmt.Printf(" %s %+.0f ms;", p, blocking[p]-base)
					if d := blocking[p] - base; d > worst {
						worst, at = d, p
					}
				}
			}
			fmt.Println()
			if at != "" {
				fmt.Printf("goal: no long task of ours while a page loads and scrolls (%d busy loops; blocking time within the exercises page's): %s (the most: %s, %+.0f ms)\n",
					n, verdict(worst <= 0), at, worst)
			}
		}
	}
	return nil
}

// task is one long task: start and duration (ms from navigation start)
// and where the browser says it ran (attribution's container type).
type task struct {
	start, dur float64
	where      string
}

// mark is one retrylab:* performance mark.
type mark struct {
	name string
	at   float64
}

// frame is one long animation frame: start and duration (ms), the style
// and layout at its end (ms), and its longest scripts.
type frame struct {
	start, dur, layout float64
	scripts            string
}

type result struct {
	tasks  []task
	frames []frame
	marks  []mark
	ready  string // data-ready at the end ("" for a page without it)
}

// observeScript records the long tasks of the document from its start
// (buffered), in every new document.
const observeScript = `(() => {
	window.__longtasks = [];
	try {
		new PerformanceObserver(list => {
			for (const e of list.getEntries()) {
				const a = e.attribution && e.attribution[0];
				window.__longtasks.push([e.startTime, e.duration, (a && (a.containerType || a.name)) || e.name || '']);
			}
		}).observe({type: 'longtask', buffered: true});
	} catch (err) {}
	// long animation frames say what filled a frame: the scripts (their
	// entry point and file) and the style and layout after them
	window.__loafs = [];
	try {
		new PerformanceObserver(list => {
			for (const e of list.getEntries()) {
				const layout = e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0;
				const scripts = (e.scripts || []).slice().sort((a, b) => b.duration - a.duration).slice(0, 2)
					.map(x => (x.invoker || x.invokerType || '?').replace(/^https?:\/\/[^/]*/, '') + ' [' + (x.sourceURL || '').replace(/^.*\//, '') + '] ' + Math.round(x.duration) + ' ms' +
						(x.forcedStyleAndLayoutDuration >= 1 ? ' (of which forced style and layout ' + Math.round(x.forcedStyleAndLayoutDuration) + ' ms)' : ''));
				window.__loafs.push([e.startTime, e.duration, layout, scripts.join('; ')]);
			}
		}).observe({type: 'long-animation-frame', buffered: true});
	} catch (err) {}
})();`

// hideWasm makes the loader (site/assets/app.js) find no WebAssembly.
const hideWasm = `try { delete window.WebAssembly; window.WebAssembly = undefined; } catch (err) {}
`

// initScript runs in every new document: observeScript, after hideWasm
// with -no-wasm.
var initScript = observeScript

// readScript reads the long tasks, the retrylab marks and data-ready.
const readScript = `[window.__longtasks || [], window.__loafs || [],
	performance.getEntriesByType('mark').filter(m => m.name.startsWith('retrylab:')).map(m => [m.name, m.startTime]),
	document.documentElement.getAttribute('data-ready') || '']`

// measure loads u in a new tab as a phone with the CPU slowed cpu times,
// waits for the page to settle (data-ready, or the load event and 3 s for
// a page without a module), scrolls to its end a screen at a time (the
// widgets hydrate as they near the viewport), waits 2 s more, and reads
// what the page recorded.
func measure(browser context.Context, u string, cpu float64) (result, error) {
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 812, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		return result{}, err
	}
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: cpu}); err != nil {
		return result{}, err
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: initScript}); err != nil {
		return result{}, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		return result{}, err
	}
	if err := settle(ctx); err != nil {
		return result{}, err
	}
	if err := scroll(ctx); err != nil {
		return result{}, err
	}
	time.Sleep(2 * time.Second)
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](readScript))
	if err != nil {
		return result{}, err
	}
	return parse(raw)
}

// settle waits until <html data-ready> is set, or for a page without a
// playground module (no data-wasm) until 3 s after its load event.
func settle(ctx context.Context) error {
	for {
		state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			const r = document.documentElement.getAttribute('data-ready');
			if (r) return r;
			if (!document.querySelector('[data-wasm]') && document.readyState === 'complete') return 'static';
			return '';
		})()`))
		if err != nil {
			return err
		}
		switch state {
		case "true", "error":
			return nil
		case "":
			if hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof WebAssembly !== 'object' && document.readyState === 'complete'`)); err == nil && hidden {
				time.Sleep(3 * time.Second) // -no-wasm: the page stays static
				return nil
			}
		case "static":
			time.Sleep(3 * time.Second)
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// scroll moves down a screen every 400 ms until the end of the page.
func scroll(ctx context.Context) error {
	for range 400 {
		end, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { window.scrollBy(0, window.innerHeight);
			return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2; })()`))
		if err != nil {
			return err
		}
		time.Sleep(400 * time.Millisecond)
		if end {
			return nil
		}
	}
	return errors.New("the page did not end after 400 screens")
}

func parse(raw []any) (result, error) {
	var r result
	if len(raw) != 4 {
		return r, fmt.Errorf("unexpected reading %v", raw)
	}
	fs, _ := raw[1].([]any)
	for _, f := range fs {
		e, _ := f.([]any)
		if len(e) != 4 {
			continue
		}
		s, _ := e[0].(float64)
		d, _ := e[1].(float64)
		l, _ := e[2].(float64)
		sc, _ := e[3].(string)
		r.frames = append(r.frames, frame{s, d, l, sc})
	}
	raw = append(raw[:1], raw[2:]...)
	ts, _ := raw[0].([]any)
	for _, t := range ts {
		e, _ := t.([]any)
		if len(e) != 3 {
			continue
		}
		s, _ := e[0].(float64)
		d, _ := e[1].(float64)
		w, _ := e[2].(string)
		r.tasks = append(r.tasks, task{s, d, w})
	}
	ms, _ := raw[1].([]any)
	for _, m := range ms {
		e, _ := m.([]any)
		if len(e) != 2 {
			continue
		}
		n, _ := e[0].(string)
		at, _ := e[1].(float64)
		r.marks = append(r.marks, mark{strings.TrimPrefix(n, "retrylab:"), at})
	}
	r.ready, _ = raw[2].(string)
	sort.Slice(r.tasks, func(i, j int) bool { return r.tasks[i].start < r.tasks[j].start })
	sort.Slice(r.marks, func(i, j int) bool { return r.marks[i].at < r.marks[j].at })
	return r, nil
}

// print writes the page's long tasks with their step of loading and
// returns the blocking time (each task's time over 50 ms, summed).
func (r result) print(p string) float64 {
	blocking := 0.0
	for _, t := range r.tasks {
		blocking += max(0, t.dur-50)
	}
	fmt.Printf("%-26s %2d long tasks, blocking %5.0f ms, data-ready %q\n", p, len(r.tasks), blocking, r.ready)
	if verbose {
		for _, m := range r.marks {
			fmt.Printf("    mark %-20s %6.0f ms\n", m.name, m.at)
		}
	}
	for _, t := range r.tasks {
		before, after := phase(r.marks, t)
		fmt.Printf("    at %6.0f ms  %4.0f ms  after %-18s before %-22s %s\n", t.start, t.dur, before, after, t.where)
		// the long animation frame that holds it: its scripts, its layout
		for _, f := range r.frames {
			if f.start <= t.start+1 && t.start+t.dur <= f.start+f.dur+1 {
				fmt.Printf("        frame %4.0f ms: style and layout %4.0f ms; %s\n", f.dur, f.layout, f.scripts)
				break
			}
		}
	}
	return blocking
}

// phase is the step of loading task t falls in: the last mark at or
// before its start ("navigation" when none), and the first after it
// ("—" when none), "(inside)" when that one is set during the task.
// marks are in time order.
func phase(marks []mark, t task) (before, after string) {
	before, after = "navigation", "—"
	for _, m := range marks {
		switch {
		case m.at <= t.start:
			before = m.name
		case after != "—":
		case m.at <= t.start+t.dur:
			after = m.name + " (inside)"
		default:
			after = m.name
		}
	}
	return before, after
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}
