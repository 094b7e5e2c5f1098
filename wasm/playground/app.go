//go:build js && wasm

package playground

import (
	"runtime"
	"strconv"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
	"retrylab/site/locale"
	render "retrylab/site/widget"
)

// app is the page: its locale, its widgets and the URL state.
type app struct {
	set     *render.Set    // the calculators and views of this module
	loc     *locale.Locale // read from the page at its first use (locale)
	widgets []*widget
	byID    map[string]*widget

	win  dom.Window            // the page's window
	html *dom.BasicHTMLElement // <html>, where the playground looks for elements (find, findAll: unwrap.go)

	frame bool // an animation frame is requested

	// laps, while __retrylabBench runs, are the performance.now() at the
	// end of parse+run and of render, for the breakdown of a recompute.
	perf js.Value // window.performance: dom/v2 has no Performance API
	laps []float64

	// worker is false once the page's loader said that it cannot run the
	// worker (site/assets/app.js, retrylabCompute): every widget then
	// computes on the main thread.
	worker bool

	// memo keeps the policies' runs between recomputes, here and in the
	// worker (calc.Memo: a policy turned on, or the attempts changed,
	// computes only what changed); nil with ?bench=1, whose recomputes
	// time the computation
	memo *calc.Memo

	// lazy hydration (lazy.go): this module's widget roots in the page's
	// order, the state of each, and the queue of the ones to hydrate
	reg   *calc.Registry
	roots []*dom.BasicHTMLElement
	lazy  []lazyState
	queue chan int
	// observer is the IntersectionObserver of the roots (undefined
	// without one); syscall/js: dom/v2 has none
	observer js.Value
}

// lap records the end of step i of a recompute while benchmarking.
func (a *app) lap(i int) {
	if a.laps != nil {
		a.laps[i] = a.now()
	}
}

// now is performance.now(), in ms.
func (a *app) now() float64 { return a.perf.Call("now").Float() }

// mark sets performance.mark("retrylab:"+name), a step of loading that
// `make bench` reports.
func mark(name string) {
	// syscall/js: dom/v2 has no Performance API
	if p := js.Global().Get("performance"); p.Truthy() && p.Get("mark").Truthy() {
		p.Call("mark", "retrylab:"+name)
	}
}

// Main hydrates the page's widgets that the calculators of set draw, or,
// in a Web Worker, serves the page's requests for them. It never returns.
//
// The module's GOGC is 400, set by its loader (site/assets/app.js, goEnv)
// in the environment the runtime reads at start (wasm_exec.js's go.env),
// for the page and the worker alike: runtime/debug.SetGCPercent would
// link fmt, os and time. At Go's default (100) a recompute of dispatch at
// the article's values (335 KB, 4,200 allocations) collects about every
// ninth time, backoff's every 25th, and each collection stops the page for
// milliseconds: the p95 of make bench. At 400 the heap, a few MB, may grow
// to five times what is live and collections become rare (wasmbench -gc
// 100,400,100,400, load average 12: peak p95 28.9/17.5 ms against
// 12.0/7.9, backoff 28.5/22.7 against 15.0/14.0, dispatch 12-13
// collections in 100 recomputes against 2).
func Main(set *render.Set) {
	if workerMode() {
		workerMain(set)
		return
	}
	mark("main")
	win := dom.GetWindow()
	a := &app{set: set, byID: map[string]*widget{}, win: win, html: documentElement(), perf: js.Global().Get("performance")}
	// syscall/js: the loader's bridge to the Web Worker (site/assets/app.js)
	a.worker = js.Global().Get("retrylabCompute").Type() == js.TypeFunction
	a.reg = set.Registry()
	for _, root := range findAll(a.html, "[data-widget]") {
		if m := root.GetAttribute("data-module"); m != "" && m != set.Name() {
			// another module's widget: on a page that loads one module
			// per article (the playground) the loader marks each widget
			// with the module that draws it (site/assets/app.js)
			continue
		}
		a.roots = append(a.roots, root)
	}
	a.lazy = make([]lazyState, len(a.roots))
	a.queue = make(chan int, len(a.roots))
	// the runtime's start in a task of its own; then the widgets near the
	// viewport, each in a task of its own (lazy.go)
	a.yield()
	a.observe()
	a.drain()
	q := a.query()
	a.setCommitted(a.search())
	a.syncLinks(encodeSearch(a.state()))
	// on the window itself (syscall/js's Global): dom.Window has no
	// Underlying, and an interface call of AddEventListener would link its
	// wrapper for every type dom/v2 wraps (see elem); listen, not dom/v2's
	// AddEventListener (see listen)
	listen(js.Global(), "popstate", false, func(*dom.BasicEvent) { a.popstate() })
	if _, ok := q["debug-panic"]; ok {
		// syscall/js: a function for the test to call; dom/v2 has no API for it
		// (another module's widgets: the function it set before, if any)
		prev := js.Global().Get("__retrylabPanic")
		js.Global().Set("__retrylabPanic", js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) > 0 {
				if w := a.byID[args[0].String()]; w != nil {
					w.forcePanic = true
					w.recompute(modeNone)
				} else if prev.Type() == js.TypeFunction {
					prev.Invoke(args[0])
				}
			}
			return nil
		}))
	}
	if query.Get(q, "bench") != "1" {
		a.memo = new(calc.Memo)
	} else {
		// syscall/js: a function for make bench to call; dom/v2 has no API for it
		// (another module's widgets: the function it set before, if any)
		prev := js.Global().Get("__retrylabBench")
		js.Global().Set("__retrylabBench", js.FuncOf(func(this js.Value, args []js.Value) any {
			if len(args) > 0 && a.byID[args[0].String()] == nil && prev.Type() == js.TypeFunction {
				vs := make([]any, len(args))
				for i, v := range args {
					vs[i] = v
				}
				return prev.Invoke(vs...)
			}
			return a.bench(this, args)
		}))
	}
	// syscall/js: the loader's bridge to the Web Worker
	if warm := js.Global().Get("retrylabWarm"); a.worker && warm.Type() == js.TypeFunction {
		// once the page is idle, the worker starts and computes every widget
		// at the page's values for a while, so that the engine has
		// compiled and optimized the module's code before the reader's first
		// edit, here and in the worker (site/assets/app.js)
		// (in an embed's frame it only starts the worker, for a heavy widget):
		// the widgets hydrated so far, and the heavy ones not hydrated yet,
		// which compute in the worker whenever the reader reaches them
		// (lazy.go: on a page whose heavy widgets are all below the first
		// screen, no widget is hydrated yet, and the warm-up had nothing
		// to compute)
		var reqs []any
		hasHeavy := false
		for _, r := range a.roots {
			name := r.GetAttribute("data-widget")
			hasHeavy = hasHeavy || heavy[name]
			if w := a.byID[r.ID()]; w != nil { // hydrated (lazy.go)
				reqs = append(reqs, w.request(w.page, false))
			} else if heavy[name] {
				if req, ok := a.pageRequest(r); ok {
					reqs = append(reqs, req)
				}
			}
		}
		warm.Invoke(js.ValueOf(reqs), hasHeavy)
	}
	mark("hydrated")
	// syscall/js: a function for tests and make bench (site/e2e WaitReady)
	// that hydrates every widget at once; dom/v2 has no API for it
	prevAll := js.Global().Get("retrylabHydrateAll")
	js.Global().Set("retrylabHydrateAll", js.FuncOf(func(js.Value, []js.Value) any {
		for i := range a.roots {
			a.enqueue(i)
		}
		if prevAll.Type() == js.TypeFunction {
			prevAll.Invoke()
		}
		return nil
	}))
	// site/assets/app.js clears the widgets' loading state and marks
	// <html data-ready="true">; without the loader, mark it here.
	if ready := js.Global().Get("retrylabReady"); ready.Type() == js.TypeFunction { // syscall/js: the loader's bridge
		ready.Invoke()
	} else {
		a.html.SetAttribute("data-ready", "true")
	}
	// from now on, every widget the reader nears or reaches for
	for i := range a.queue {
		a.hydrateQueued(i)
	}
}

// yield lets the browser run what waits (input, paint, the page's own
// scripts) before the program goes on: it blocks until a zero-delay
// timeout fires, and meanwhile the Go runtime returns to the browser's
// event loop. Main hydrates one widget per task this way, so that no task
// of the start-up blocks the page for long (Lighthouse's long tasks:
// wasm/playground/DOM.md).
func (a *app) yield() {
	ch := make(chan struct{})
	a.win.SetTimeout(func() { close(ch) }, 0)
	<-ch
}

// locale returns the page's locale. It is decoded at the first recompute
// or error, not before ready: a page whose widgets keep the article's
// values never needs it.
func (a *app) locale() locale.Locale {
	if a.loc == nil {
		l := a.pageLocale()
		a.loc = &l
	}
	return *a.loc
}

// pageLocale reads the page's strings from
// <script type="application/json" id="retrylab-data">.
func (a *app) pageLocale() locale.Locale {
	el := elementByID("retrylab-data")
	lang := a.html.GetAttribute("lang")
	if el == nil {
		return locale.Locale{Lang: lang}
	}
	return localeFrom(el.TextContent(), lang)
}

// localeFrom decodes the locale of the page data text (wasm/playground/DOM.md) with
// locale.ParsePageData, which reads it as encoding/json would without
// linking encoding/json into the module; lang is the language when the
// data names none.
func localeFrom(text, lang string) locale.Locale {
	l, err := locale.ParsePageData([]byte(text))
	if err != nil {
		return locale.Locale{Lang: lang}
	}
	if l.Lang == "" {
		l.Lang = lang
	}
	return l
}

// query parses location.search.
func (a *app) query() query.Values {
	q, err := query.Parse(trimQ(a.search()))
	if err != nil {
		return query.Values{}
	}
	return q
}

func trimQ(s string) string {
	if len(s) > 0 && s[0] == '?' {
		return s[1:]
	}
	return s
}

// state returns the page's query with every widget's state in it.
func (a *app) state() query.Values {
	q := a.query()
	for _, w := range a.widgets {
		setWidget(q, w.id, w.urlDiff)
	}
	return q
}

// guard runs f for widget w under recover, so that no callback can end
// the program.
func (a *app) guard(w *widget, f func()) {
	defer func() {
		if r := recover(); r != nil && w != nil {
			w.showPanic(r)
		}
	}()
	f()
}

// schedule asks for one recompute of w at the next animation frame; the
// inputs of one frame coalesce into one recompute per widget.
func (a *app) schedule(w *widget) {
	w.dirty = true
	if a.frame {
		return
	}
	a.frame = true
	a.win.RequestAnimationFrame(func(time.Duration) { a.onFrame() })
}

// onFrame recomputes every widget that changed since the last frame and
// writes the live state into the current history entry.
func (a *app) onFrame() {
	a.frame = false
	for _, w := range a.widgets {
		if w.dirty {
			a.guard(w, func() { w.recompute(modeReplace) })
		}
	}
}

// replace writes search into the current history entry (while a control
// moves).
func (a *app) replace(search string) {
	if search == a.search() {
		return
	}
	replaceState(a.href(search))
	a.syncLinks(search)
}

// commit makes the current state a new history entry (a change is done):
// the entry the reader left keeps the state it had when it was committed.
func (a *app) commit() {
	search := encodeSearch(a.state())
	committed := a.getCommitted()
	if search == committed {
		a.replace(search)
		return
	}
	replaceState(a.href(committed))
	pushState(a.href(search))
	a.setCommitted(search)
	a.syncLinks(search)
}

// href is the page's path with search and the current fragment.
func (a *app) href(search string) string {
	l := a.win.Location()
	return l.Pathname() + search + l.Hash()
}

// getCommitted returns location.search of the current history entry as
// it was committed; setCommitted sets it. It lives in the page
// (window.retrylabCommitted), not in the app: on a page that loads one
// module per article (the playground) every module commits to the same
// history. syscall/js: a value the page's modules share, for which dom/v2
// has no API.
func (a *app) getCommitted() string {
	if v := js.Global().Get("retrylabCommitted"); v.Type() == js.TypeString {
		return v.String()
	}
	return a.search()
}

// setCommitted: see getCommitted.
func (a *app) setCommitted(search string) { js.Global().Set("retrylabCommitted", search) }

// search returns location.search.
func (a *app) search() string { return a.win.Location().Search() }

// replaceState and pushState call history.replaceState and
// history.pushState with a null state. syscall/js: dom/v2's
// Window.History() is unimplemented (it returns nil).
func replaceState(url string) { js.Global().Get("history").Call("replaceState", nil, "", url) }

// pushState: see replaceState (syscall/js for the same reason).
func pushState(url string) { js.Global().Get("history").Call("pushState", nil, "", url) }

// popstate restores the state of the history entry the reader went to.
func (a *app) popstate() {
	a.setCommitted(a.search())
	q := a.query()
	for _, w := range a.widgets {
		a.guard(w, func() { w.apply(q, false) })
	}
	a.syncLinks(a.getCommitted())
}

// syncLinks makes the language switcher keep the state: every link to a
// translation of this page carries the query.
func (a *app) syncLinks(search string) {
	for _, el := range findAll(a.html, "a[hreflang]") {
		el.SetAttribute("href", withSearch(el.GetAttribute("href"), search))
	}
}

// bench is window.__retrylabBench(id, query, n): n recomputes of widget id
// with the parameters of query (without prefix), each timed with
// performance.now. It returns {ms, run, render, dom: [...]}: the whole
// recompute and its steps (parse and run, render to HTML, DOM update); or
// {error: message}. syscall/js: its arguments and result are JavaScript
// values for make bench (e2e/cmd/wasmbench); dom/v2 has no API for them.
func (a *app) bench(_ js.Value, args []js.Value) any {
	result := js.Global().Get("Object").New()
	if len(args) < 3 {
		result.Set("error", "usage: __retrylabBench(id, query, n)")
		return result
	}
	w := a.byID[args[0].String()]
	if w == nil {
		result.Set("error", "no widget "+args[0].String())
		return result
	}
	values, err := query.Parse(args[1].String())
	if err != nil {
		result.Set("error", err.Error())
		return result
	}
	values = overlay(w.page, values)
	a.laps = make([]float64, 2)
	defer func() { a.laps = nil }()
	n := args[2].Int()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	gc0 := m0.NumGC
	arr := func() js.Value { return js.Global().Get("Array").New() }
	ms, run, render, domMS := arr(), arr(), arr(), arr()
	for i := 0; i < n; i++ {
		t0 := a.perf.Call("now").Float()
		ok := w.compute(values, false)
		t1 := a.perf.Call("now").Float()
		if !ok {
			msg := "refused"
			if el := find(w.root, "[data-error-for]:not([hidden])"); el != nil {
				msg = el.TextContent() + " " + w.root.GetAttribute("data-error-detail")
			}
			result.Set("error", msg)
			return result
		}
		ms.Call("push", t1-t0)
		run.Call("push", a.laps[0]-t0)
		render.Call("push", a.laps[1]-a.laps[0])
		domMS.Call("push", t1-a.laps[1])
	}
	runtime.ReadMemStats(&m1)
	if n > 0 {
		result.Set("bytes", float64(m1.TotalAlloc-m0.TotalAlloc)/float64(n))
		result.Set("allocs", float64(m1.Mallocs-m0.Mallocs)/float64(n))
		result.Set("gcs", m1.NumGC-gc0)
	}
	result.Set("ms", ms)
	result.Set("run", run)
	result.Set("render", render)
	result.Set("dom", domMS)
	return result
}

// randomSeed draws a seed from crypto.getRandomValues: 53 bits, so that it
// also reads exactly as a JavaScript number. syscall/js: dom/v2 has no
// Crypto API.
func randomSeed() string {
	buf := js.Global().Get("Uint32Array").New(2)
	js.Global().Get("crypto").Call("getRandomValues", buf)
	hi, lo := uint64(buf.Index(0).Int())&(1<<21-1), uint64(buf.Index(1).Int())
	return strconv.FormatUint(hi<<32|lo, 10)
}
