//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"retrylab/site/widget"
)

// The heavy widgets compute in a Web Worker (site/assets/playground-worker.js,
// wasm/playground/worker.go): dispatch always does. These tests drive the
// dispatch widget of each language's article at its largest parameters.

// dispatchPages are the article pages (not embeds) that hold a dispatch
// widget and another widget.
func dispatchPages(t *testing.T) []Page {
	t.Helper()
	var out []Page
	for _, p := range widgetPages(t) {
		if strings.Contains(p.Path, "/embed/") {
			continue
		}
		b, _ := os.ReadFile(p.File)
		s := string(b)
		if strings.Contains(s, `data-widget="dispatch"`) && strings.Count(s, "data-widget=") >= 2 {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatal("no article page holds a dispatch widget and another")
	}
	return out
}

// setValues writes every value of values into the widget's controls and
// sends one change event: one recompute with all of them.
func setValues(t *testing.T, ctx context.Context, id string, values url.Values) {
	t.Helper()
	eval[bool](t, ctx, "(() => { "+setValuesJS(id, values)+"; return true })()")
}

// setValuesJS is setValues' JavaScript statement.
func setValuesJS(id string, values url.Values) string {
	var js strings.Builder
	fmt.Fprintf(&js, `{ const f = document.querySelector('[id=%q] form[data-form]'); let last = null;`, id)
	for name := range values {
		// the first control of that name: a segmented control's radios
		// share the name of the hidden input the playground reads
		fmt.Fprintf(&js, `{ const el = f.querySelector('[name=' + JSON.stringify(%q) + ']'); if (el) { if (el.type === 'checkbox') el.checked = %q === 'true'; else el.value = %q; last = el; } }`,
			name, values.Get(name), values.Get(name))
	}
	js.WriteString(`if (last) { last.dispatchEvent(new Event('input', {bubbles: true})); last.dispatchEvent(new Event('change', {bubbles: true})); } }`)
	return js.String()
}

// waitIdle waits until the widget waits for no answer of the worker.
func waitIdle(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	pred := fmt.Sprintf(`() => document.querySelector('[id=%q] [data-output]').getAttribute('aria-busy') !== 'true'`, id)
	if _, err := chromedp.Run(wctx, chromedp.PollFunction[bool](pred, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("%s stays busy: %v", id, err)
	}
}

// recorder counts, in the page, the animation frames run while the
// dispatch widget waits for the worker, the replacements of its output,
// and whether the other widget's output changed meanwhile.
const recorderJS = `((busyID, otherID) => {
	const root = document.querySelector('[id="' + busyID + '"]');
	const out = root.querySelector('[data-output]');
	const other = document.querySelector('[id="' + otherID + '"] [data-output]');
	const busy = () => out.getAttribute('aria-busy') === 'true';
	const r = window.__rec = {busyFrames: 0, replaced: 0, otherWhileBusy: false, sawBusy: false, note: '', busyMS: 0, since: -1};
	const watch = () => {
		const b = busy();
		if (b && r.since < 0) r.since = performance.now();
		if (!b && r.since >= 0) { r.busyMS = Math.max(r.busyMS, performance.now() - r.since); r.since = -1; }
		const n = root.querySelector('[data-computing-note]');
		if (b && n && !n.hidden && !r.note) r.note = n.textContent;
	};
	(function frame() { if (busy()) { r.busyFrames++; r.sawBusy = true; } watch(); requestAnimationFrame(frame); })();
	new MutationObserver(recs => { for (const m of recs) if (m.addedNodes.length) { r.replaced++; return; } }).observe(out, {childList: true});
	new MutationObserver(watch).observe(root, {childList: true, subtree: true, attributes: true, attributeFilter: ['hidden', 'aria-busy']});
	new MutationObserver(() => { if (busy()) r.otherWhileBusy = true; }).observe(other, {childList: true, subtree: true});
	return true;
})`

type record struct {
	BusyFrames     int  `json:"busyFrames"`
	Replaced       int  `json:"replaced"`
	OtherWhileBusy bool `json:"otherWhileBusy"`
	SawBusy        bool `json:"sawBusy"`
	// Note is the text of the "computing…" note the first time it was
	// seen shown while the widget was busy ("" when never).
	Note string `json:"note"`
	// BusyMS is the longest time, in milliseconds, the widget stayed busy.
	BusyMS float64 `json:"busyMS"`
}

// noteDelayMS is how long a widget waits for its answer before it shows
// the "computing…" note; noteSlackMS allows for the timer and a frame or
// two on a loaded machine. restartMS is how long a request must have run
// before a newer input replaces the worker. The page's own constants.
const (
	noteDelayMS = widget.ComputingNoteDelayMS
	noteSlackMS = 250
	restartMS   = widget.RestartMS
)

// TestWorkerKeepsPageLive sets dispatch to its largest parameters: the
// widget shows its localized "computing" state while the worker runs,
// animation frames keep coming and another widget of the page reacts
// meanwhile, and the answer that arrives is the calculator's own.
func TestWorkerKeepsPageLive(t *testing.T) {
	for _, p := range dispatchPages(t) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			disp, other := pickDispatch(t, ws, "backoff")
			dc, dpage := disp.calc(t)
			largest := LargestAccepted(dc, dpage)
			oc, opage := other.calc(t)
			oe, err := PlanEdit(oc, opage)
			if err != nil {
				t.Fatal(err)
			}
			eval[bool](t, ctx, fmt.Sprintf(`%s(%q, %q)`, recorderJS, disp.ID, other.ID))

			setValues(t, ctx, disp.ID, largest)
			waitJS(t, ctx, disp.ID+" computing", fmt.Sprintf(`document.querySelector('[id=%q] [data-output]').getAttribute('aria-busy') === 'true'`, disp.ID))
			// the page keeps reacting: another widget recomputes meanwhile
			setValue(t, ctx, other.ID, oe.Param, oe.Value)
			expectWidget(t, ctx, other, oc, oe.Values, loc)
			// the note says, in the page's language, that it is computing:
			// it shows noteDelayMS after the widget turns busy, so wait
			// for it (or for the answer, if that came first)
			want, ok := loc.Lookup("widget.computing")
			if !ok {
				t.Fatalf("the %s strings have no widget.computing", p.Lang)
			}
			waitJSFor(t, ctx, 90*time.Second, disp.ID+" note or answer", `window.__rec.note !== '' || document.querySelector('[id=`+fmt.Sprintf("%q", disp.ID)+`] [data-output]').getAttribute('aria-busy') !== 'true'`)
			waitIdle(t, ctx, disp.ID)
			expectWidget(t, ctx, disp, dc, largest, loc)
			r := eval[record](t, ctx, `window.__rec`)
			if !r.SawBusy || r.BusyFrames < 2 {
				t.Errorf("%d animation frames ran while %s computed at %s: the main thread was blocked", r.BusyFrames, disp.ID, largest.Encode())
			}
			if !r.OtherWhileBusy {
				t.Errorf("%s did not update while %s computed", other.ID, disp.ID)
			}
			if r.Replaced != 1 {
				t.Errorf("the output of %s was replaced %d times, want once", disp.ID, r.Replaced)
			}
			switch {
			case r.Note != "" && r.Note != want:
				t.Errorf("computing note %q, want %q", r.Note, want)
			case r.Note == "" && r.BusyMS > noteDelayMS+noteSlackMS:
				t.Errorf("%s was busy for %.0f ms and never showed its computing note (due after %d ms)", disp.ID, r.BusyMS, noteDelayMS)
			case r.Note == "":
				// the answer came before the note was due: nothing to see
				t.Logf("%s answered in %.0f ms, before the note was due", disp.ID, r.BusyMS)
			}
		})
	}
}

// TestWorkerStaleAnswer asks for the largest parameters and, before the
// answer, for the page's values with another seed: the first answer is
// dropped, and only the newest state is ever shown.
func TestWorkerStaleAnswer(t *testing.T) {
	p := dispatchPages(t)[0]
	ctx := tab(t)
	loc, ws := openWidgets(t, ctx, p, "")
	disp, other := pickDispatch(t, ws)
	dc, dpage := disp.calc(t)
	largest := LargestAccepted(dc, dpage)
	newest := cloneValues(dpage)
	newest.Set("seed", "7")
	eval[bool](t, ctx, fmt.Sprintf(`%s(%q, %q)`, recorderJS, disp.ID, other.ID))
	setValues(t, ctx, disp.ID, largest)
	setValues(t, ctx, disp.ID, newest)
	waitIdle(t, ctx, disp.ID)
	expectWidget(t, ctx, disp, dc, newest, loc)
	// the URL holds the newest state
	if got := eval[string](t, ctx, `location.search`); !strings.Contains(got, url.QueryEscape(disp.ID+".seed")+"=7") && !strings.Contains(got, disp.ID+".seed=7") {
		t.Errorf("location.search %q lacks %s.seed=7", got, disp.ID)
	}
	r := eval[record](t, ctx, `window.__rec`)
	if r.Replaced != 1 {
		t.Errorf("the output of %s was replaced %d times (a stale answer shown?), want once", disp.ID, r.Replaced)
	}

	// the warm-up rounds are over (a warm-up request in flight would keep
	// the page from replacing the worker)
	waitJSFor(t, ctx, 60*time.Second, "the warm-up to end", `document.documentElement.getAttribute('data-warm') === 'done'`)
	// a newer input while the long request has run for a while: the page
	// replaces the worker instead of waiting (app.js
	// retrylabRestartWorker); the answer is the newest state's all the same.
	// Another seed: the largest state's answer, dropped above, is the
	// page's to give again at once (app.js answers)
	largest.Set("seed", "6")
	setValues(t, ctx, disp.ID, largest)
	busyJS := fmt.Sprintf(`document.querySelector('[id=%q] [data-output]').getAttribute('aria-busy') === 'true'`, disp.ID)
	waitJS(t, ctx, disp.ID+" computing", busyJS)
	// past restartMS: wait until the page has
	// seen the widget busy for longer than that (or the answer came)
	waitJSFor(t, ctx, 90*time.Second, disp.ID+" busy past restartMS",
		fmt.Sprintf(`window.__rec.since < 0 || performance.now() - window.__rec.since > %d`, restartMS+100))
	newest.Set("seed", "8")
	// in one task: how often the output was replaced (an answer of the
	// largest state that came before this input was shown, and is counted
	// here), the worker's restarts so far, and the newer input
	type sent struct {
		Replaced, Restarts int
		Busy               bool
	}
	before := eval[sent](t, ctx, fmt.Sprintf(`(() => { const s = {Replaced: window.__rec.replaced, Restarts: parseInt(document.documentElement.getAttribute('data-worker-starts'), 10) || 0, Busy: %s}; %s; return s })()`,
		busyJS, setValuesJS(disp.ID, newest)))
	waitIdle(t, ctx, disp.ID)
	expectWidget(t, ctx, disp, dc, newest, loc)
	starts := eval[int](t, ctx, `parseInt(document.documentElement.getAttribute('data-worker-starts'), 10) || 0`)
	if before.Busy {
		// the largest request was still running, for more than
		// restartMS: the page replaced the worker, and its answer is
		// never shown
		if starts != before.Restarts+1 {
			t.Errorf("%d workers were started for a newer input past restartMS, want one (the replacement)", starts-before.Restarts)
		}
	} else {
		t.Logf("the largest request ended before the newer input: no worker to replace")
	}
	if r := eval[record](t, ctx, `window.__rec`); r.Replaced != before.Replaced+1 {
		t.Errorf("the output of %s was replaced %d times after the newer input, want once (a stale answer shown?)", disp.ID, r.Replaced-before.Replaced)
	}
	// and the new worker serves the next request
	newest.Set("seed", "9")
	setValues(t, ctx, disp.ID, newest)
	waitIdle(t, ctx, disp.ID)
	expectWidget(t, ctx, disp, dc, newest, loc)
}

// TestWorkerPanic forces a panic in the dispatch widget, which computes
// in the worker: the widget reports it in its own slot, localized, with
// the worker's panic text in data-error-detail; the other widgets keep
// working and the dispatch widget still answers.
func TestWorkerPanic(t *testing.T) {
	p := dispatchPages(t)[0]
	ctx := tab(t)
	_, ws := openWidgets(t, ctx, p, "")
	disp, other := pickDispatch(t, ws)
	loc, _ := openWidgets(t, ctx, p, "debug-panic="+url.QueryEscape(disp.ID))
	expectPanic(t, ctx, p, loc, disp)
	detail := eval[string](t, ctx, fmt.Sprintf(`document.getElementById(%q).getAttribute('data-error-detail') || ''`, disp.ID))
	if !strings.Contains(detail, "in the worker") {
		t.Errorf("data-error-detail %q: the panic did not come from the worker", detail)
	}
	editWidget(t, ctx, other, loc)
	waitIdle(t, ctx, disp.ID)
}

// TestWithoutWorker hides Worker from the page: the loader offers no
// worker and the dispatch widget computes on the main thread, with the
// calculator's result.
func TestWithoutWorker(t *testing.T) {
	p := dispatchPages(t)[0]
	ctx := tab(t)
	beforeScripts(t, ctx, `Object.defineProperty(window, 'Worker', {value: undefined, configurable: true});`)
	loc, ws := openWidgets(t, ctx, p, "")
	if eval[bool](t, ctx, `typeof window.retrylabCompute === 'function'`) {
		t.Fatal("the loader offers a worker in a page without Worker")
	}
	// nothing to warm up with: the loader defines no warm-up either (it
	// would start a worker), so no data-warm can come later
	if eval[bool](t, ctx, `typeof window.retrylabWarm === 'function'`) {
		t.Error("the loader offers a warm-up in a page without Worker")
	}
	if warm := eval[string](t, ctx, `document.documentElement.getAttribute('data-warm') || ''`); warm != "" {
		t.Errorf("data-warm=%q in a page without Worker: nothing warms up", warm)
	}
	for _, w := range ws {
		if w.Name != "dispatch" {
			continue
		}
		editWidget(t, ctx, w, loc)
		if busy := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('[id=%q] [data-output]').getAttribute('aria-busy') || ''`, w.ID)); busy != "" {
			t.Errorf("%s: aria-busy=%q after a recompute on the main thread", w.ID, busy)
		}
	}
}

// goEnvHook records the environment each Go program of the page starts
// with: the page's (the run of wasm_exec.js's Go, wrapped as it is
// defined) and the worker's (app.js's compile or init message to it).
const goEnvHook = `(() => {
  window.__goEnvs = [];
  Object.defineProperty(window, 'Go', {configurable: true, set(G) {
    Object.defineProperty(window, 'Go', {configurable: true, writable: true, value: class extends G {
      run(instance) { window.__goEnvs.push('page ' + JSON.stringify(this.env)); return super.run(instance); }
    }});
  }});
  if (window.Worker) {
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (m, ...rest) {
      // init: a worker started from the page's module; compile: the
      // worker that compiles the module and starts the program on it
      if (m && (m.type === 'init' || m.type === 'compile')) { window.__goEnvs.push('worker ' + JSON.stringify(m.env)); }
      return post.call(this, m, ...rest);
    };
  }
})()`

// TestGOGC: the loader starts the module, in the page and in the worker,
// with GOGC=400 in its environment (wasm_exec.js's go.env: the playground
// does not link runtime/debug); only with ?bench=1 does ?gogc=N set
// another (make bench -gc), and the runtime follows it: no collection with
// off, some with 1.
func TestGOGC(t *testing.T) {
	p := dispatchPages(t)[0]
	for _, tc := range []struct {
		query string
		want  string
		gcs   string // a check of __retrylabBench's collections, or ""
	}{
		{"", "400", ""},
		{"gogc=100", "400", ""},
		{"bench=1&gogc=off", "off", "=== 0"},
		{"bench=1&gogc=1", "1", "> 0"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			ctx := tab(t)
			beforeScripts(t, ctx, goEnvHook)
			_, ws := openWidgets(t, ctx, p, tc.query)
			disp, _ := pickDispatch(t, ws)
			// The widgets hydrate lazily (wasm/playground/lazy.go) and the
			// page's warm-up only warms hydrated ones: an edit of the
			// dispatch widget, which always computes in the worker,
			// starts it.
			dc, dpage := disp.calc(t)
			edit, err := PlanEdit(dc, dpage)
			if err != nil {
				t.Fatal(err)
			}
			setValue(t, ctx, disp.ID, edit.Param, edit.Value)
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			if _, err := chromedp.Run(wctx, chromedp.PollFunction[bool](`() => window.__goEnvs.some(e => e.startsWith('worker '))`,
				chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
				t.Fatalf("the worker did not start: %v (%v)", err, eval[[]string](t, ctx, `window.__goEnvs`))
			}
			// one page program and (once started) one worker per module:
			// the playground runs one module per article
			env := fmt.Sprintf(`{"GOGC":%q}`, tc.want)
			modules := eval[int](t, ctx, `new Set(Array.from(document.querySelectorAll('[data-widget]')).map(w => w.getAttribute('data-module') || '')).size`)
			got := eval[[]string](t, ctx, `window.__goEnvs`)
			pages, workers := 0, 0
			for _, g := range got {
				switch g {
				case "page " + env:
					pages++
				case "worker " + env:
					workers++
				default:
					t.Errorf("environment %q, want %q or %q", g, "page "+env, "worker "+env)
				}
			}
			if pages != modules || workers < 1 || workers > modules {
				t.Errorf("environments %q: %d page programs and %d workers, want %d of each (at most, for the workers)", got, pages, workers, modules)
			}
			if tc.gcs != "" {
				expr := fmt.Sprintf(`(() => { const r = window.__retrylabBench(%q, '', 10); return r.error || (r.gcs %s ? 'ok' : 'collections: ' + r.gcs) })()`, disp.ID, tc.gcs)
				if res := eval[string](t, ctx, expr); res != "ok" {
					t.Errorf("10 recomputes of %s with GOGC=%s: %s, want gcs %s", disp.ID, tc.want, res, tc.gcs)
				}
			}
		})
	}
}

// outputsJS returns the HTML of every widget's output, by widget id.
const outputsJS = `Object.fromEntries([...document.querySelectorAll('[data-widget]')].map(w => [w.id, (w.querySelector('[data-output]') || {}).innerHTML || '']))`

// TestWarmUp: once the page is idle the worker computes every widget at
// the page's values for a while (app.js retrylabWarm), then the page says
// <html data-warm="done">. An edit made at once, during the warm-up, gets
// the calculator's own result; the warm-up's answers change no output; and
// the widgets react after it as before.
func TestWarmUp(t *testing.T) {
	for _, p := range dispatchPages(t) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			before := eval[map[string]string](t, ctx, outputsJS)
			// during the warm-up (it starts when the page is idle and runs
			// for up to some seconds here): a real edit is served meanwhile
			first := ws[0]
			editWidget(t, ctx, first, loc)
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			if _, err := chromedp.Run(wctx, chromedp.PollFunction[bool](`() => document.documentElement.getAttribute('data-warm') === 'done'`,
				chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
				t.Fatalf("the warm-up did not end (data-warm=done): %v", err)
			}
			after := eval[map[string]string](t, ctx, outputsJS)
			for id, html := range before {
				if id == first.ID {
					continue
				}
				if after[id] != html {
					t.Errorf("the output of %s changed during the warm-up, with no edit", id)
				}
			}
			for _, w := range ws[1:] {
				editWidget(t, ctx, w, loc)
			}
		})
	}
}

// TestWarmUpFramed: an embed in a frame (a host page may hold several)
// runs no warm-up rounds; its worker starts ahead only for a heavy
// widget (dispatch), and the embed still computes.
func TestWarmUpFramed(t *testing.T) {
	p := dispatchPages(t)[0]
	ctx := tab(t)
	open(t, ctx, p, "")
	base := "/" + p.Lang + "/embed/"
	eval[bool](t, ctx, fmt.Sprintf(`(() => { for (const n of ['attempts', 'dispatch']) { const f = document.createElement('iframe'); f.id = 'warm-' + n; f.title = n; f.src = %q + n + '/'; document.body.appendChild(f); } return true })()`, base))
	frame := func(n string) string { return fmt.Sprintf(`document.getElementById('warm-%s').contentDocument`, n) }
	for _, n := range []string{"attempts", "dispatch"} {
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		pred := fmt.Sprintf(`() => (d => !!d && !!d.documentElement && d.documentElement.getAttribute('data-ready') === 'true' && d.documentElement.getAttribute('data-warm') === 'done')(%s)`, frame(n))
		_, err := chromedp.Run(wctx, chromedp.PollFunction[bool](pred, chromedp.WithPollingInterval(50*time.Millisecond)))
		cancel()
		if err != nil {
			t.Fatalf("the framed %s embed: no data-ready=true and data-warm=done: %v", n, err)
		}
	}
	// data-warm=done is set once the frame has decided whether to start
	// its worker ahead (app.js retrylabWarm); data-worker-starts counts the
	// workers it started
	started := func(n string) int {
		return eval[int](t, ctx, fmt.Sprintf(`parseInt(%s.documentElement.getAttribute('data-worker-starts'), 10) || 0`, frame(n)))
	}
	if n := started("attempts"); n != 0 {
		t.Errorf("a framed embed with no heavy widget started %d workers", n)
	}
	if n := started("dispatch"); n != 1 {
		t.Errorf("a framed dispatch embed started %d workers ahead, want 1", n)
	}
}

// workerHook counts the workers the page constructs and the messages that
// start a Go program in one (compile, init).
const workerHook = `(() => {
  window.__workers = {made: 0, compile: 0, init: 0};
  if (!window.Worker) { return; }
  const W = window.Worker;
  window.Worker = function (...args) { window.__workers.made++; return new W(...args); };
  window.Worker.prototype = W.prototype;
  const post = W.prototype.postMessage;
  W.prototype.postMessage = function (m, ...rest) {
    if (m && (m.type === 'compile' || m.type === 'init')) { window.__workers[m.type]++; }
    return post.call(this, m, ...rest);
  };
})()`

// TestWorkerAdopted: the worker that compiles the module also starts the
// Go program on it before the page does (so that the engine has compiled
// the runtime's start for the page's main thread too: app.js
// compileAside), and the page keeps it as its compute worker: after the
// warm-up and an edit of a heavy widget, one worker per module was made,
// none was started with init, and data-worker-starts counts the adopted
// ones (a page of several modules adopts a module's worker when that
// module first needs one); the edit gets the calculator's result.
func TestWorkerAdopted(t *testing.T) {
	p := dispatchPages(t)[0]
	ctx := tab(t)
	beforeScripts(t, ctx, workerHook)
	loc, ws := openWidgets(t, ctx, p, "")
	waitJSFor(t, ctx, 60*time.Second, "the warm-up to end", `document.documentElement.getAttribute('data-warm') === 'done'`)
	disp, _ := pickDispatch(t, ws)
	editWidget(t, ctx, disp, loc)
	type counts struct{ Made, Compile, Init, Starts, Modules int }
	c := eval[counts](t, ctx, `({Made: window.__workers.made, Compile: window.__workers.compile, Init: window.__workers.init,
		Starts: parseInt(document.documentElement.getAttribute('data-worker-starts'), 10) || 0,
		Modules: new Set(Array.from(document.querySelectorAll('[data-widget]')).map(w => w.getAttribute('data-module') || '')).size})`)
	// a module's worker is adopted when the module first needs one (its
	// warm-up, the edit); until then it waits, its program started
	if c.Compile != c.Modules || c.Made != c.Modules || c.Init != 0 || c.Starts < 1 || c.Starts > c.Modules {
		t.Errorf("%+v: want one worker made per module, each compiling it (message compile), none started with init, and from one to each of them adopted (data-worker-starts)", c)
	}
}

// TestAnswerGivenAgain drives the first policies widget of each
// language's article (it always computes in the worker) to one seed, to
// another, and back: the page answers the state asked again from the
// answers it keeps (app.js), without the worker, with the same output as
// the first time; a state not asked before is computed.
func TestAnswerGivenAgain(t *testing.T) {
	for _, p := range widgetPages(t) {
		if !strings.HasSuffix(p.Path, "/policies/") {
			continue
		}
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			var w widgetInfo
			for _, x := range ws {
				if x.Name == "policies" {
					w = x
					break
				}
			}
			if w.ID == "" {
				t.Fatal("no policies widget")
			}
			c, page := w.calc(t)
			reused := func() int {
				return eval[int](t, ctx, `parseInt(document.documentElement.getAttribute('data-answers-reused'), 10) || 0`)
			}
			output := func() string {
				return eval[string](t, ctx, fmt.Sprintf(`document.querySelector('[id=%q] [data-output]').innerHTML`, w.ID))
			}
			a, b := cloneValues(page), cloneValues(page)
			a.Set("seed", "11")
			b.Set("seed", "12")
			steps := []struct {
				values url.Values
				reused bool
			}{{a, false}, {b, false}, {a, true}}
			var first string
			for i, s := range steps {
				before := reused()
				setValues(t, ctx, w.ID, s.values)
				waitIdle(t, ctx, w.ID)
				expectWidget(t, ctx, w, c, s.values, loc)
				got := reused() - before
				switch {
				case s.reused && got != 1:
					t.Errorf("step %d (seed %s, asked before): %d answers given again, want 1", i, s.values.Get("seed"), got)
				case !s.reused && got != 0:
					t.Errorf("step %d (seed %s, new): %d answers given again, want 0 (computed)", i, s.values.Get("seed"), got)
				}
				switch out := output(); {
				case i == 0:
					first = out
				case s.reused && out != first:
					t.Errorf("step %d: the answer given again differs from the first (%d against %d characters)", i, len(out), len(first))
				}
			}
		})
	}
}

// warmTallyJS wraps the page's Worker before its scripts run: it notes
// the requests of the warm-up (warm), counted by calculator, and tallies
// the answers to them, and those among them that carry an output's HTML.
const warmTallyJS = `(() => {
	const W = window.Worker;
	if (typeof W !== 'function') return;
	const tally = window.__warmTally = {warm: 0, warmWithHTML: 0, calcs: {}};
	window.Worker = function (url, opts) {
		const w = new W(url, opts), warm = new Set(), post = w.postMessage.bind(w);
		w.postMessage = (m, t) => {
			if (m && m.warm) { warm.add(m.id); tally.calcs[m.calc] = (tally.calcs[m.calc] || 0) + 1; }
			return post(m, t);
		};
		w.addEventListener('message', ev => {
			const d = ev.data || {};
			if (d.type === 'result' && warm.has(d.id)) { tally.warm++; if ('html' in d) tally.warmWithHTML++; }
		});
		return w;
	};
	window.Worker.prototype = W.prototype;
})()`

// TestWarmUpAnswersLight: the worker answers the warm-up's requests
// without their output's HTML (playground-worker.js), which the page
// drops, so that its main thread does not copy it out of every message.
// On the Italian embed page of the policies widget, opened by itself: its
// widget is on the screen, so hydrated before the warm-up starts, and
// the warm-up has rounds (none in a frame).
func TestWarmUpAnswersLight(t *testing.T) {
	p := pageAt(t, "/it/embed/policies/")
	ctx := tab(t)
	beforeScripts(t, ctx, warmTallyJS)
	openWidgets(t, ctx, p, "")
	waitJSFor(t, ctx, 60*time.Second, "the warm-up to end", `document.documentElement.getAttribute('data-warm') === 'done'`)
	type tally struct {
		Warm         int `json:"warm"`
		WarmWithHTML int `json:"warmWithHTML"`
	}
	got := eval[tally](t, ctx, `window.__warmTally`)
	if got.Warm == 0 {
		t.Fatalf("no answer to a warm-up request was seen (%+v)", got)
	}
	if got.WarmWithHTML != 0 {
		t.Errorf("%d of the warm-up's %d answers carried an output's HTML, want none", got.WarmWithHTML, got.Warm)
	}
}

// spacerJS puts a block taller than any screen at the top of the page
// before the playground starts: no widget is near the viewport while the
// page loads, so none hydrates (lazy.go) before the warm-up starts.
const spacerJS = `document.addEventListener('DOMContentLoaded', () => {
	const d = document.createElement('div');
	d.style.height = '40000px';
	document.body.prepend(d);
})`

// TestWarmUpBelowTheFold: the warm-up computes the heavy widgets that are
// not hydrated yet, at the page's values (wasm/playground app.go,
// pageRequest), so that the engine has compiled the module's hot code in
// the worker before the reader scrolls to one and edits it. On a dispatch
// page whose widgets are all pushed below the first screen (none
// hydrated when the warm-up ends), the worker answers warm-up requests
// of dispatch. (Before, the warm-up took only the hydrated widgets' and
// had nothing to compute here.)
func TestWarmUpBelowTheFold(t *testing.T) {
	p := dispatchPages(t)[0]
	ctx := tab(t)
	beforeScripts(t, ctx, warmTallyJS, spacerJS)
	if _, err := chromedp.Run(ctx, chromedp.Navigate(pageURL(p, ""))); err != nil {
		t.Fatal(err)
	}
	waitJSFor(t, ctx, 60*time.Second, "the warm-up to end", `document.documentElement.getAttribute('data-warm') === 'done'`)
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-widget][data-hydrated]').length`); n != 0 {
		t.Fatalf("%d widgets hydrated with the page's first screen empty: the test's premise does not hold", n)
	}
	type tally struct {
		Warm  int            `json:"warm"`
		Calcs map[string]int `json:"calcs"`
	}
	got := eval[tally](t, ctx, `window.__warmTally`)
	if got.Calcs["dispatch"] == 0 || got.Warm == 0 {
		t.Errorf("the warm-up asked the worker for no dispatch output (%d answers; requests by calculator %v), with every widget below the first screen", got.Warm, got.Calcs)
	}
	// the page still works: a widget hydrates when the reader reaches it
	eval[bool](t, ctx, `(document.querySelector('[data-widget="dispatch"]').scrollIntoView(), true)`)
	waitJSFor(t, ctx, 30*time.Second, "the dispatch widget to hydrate once scrolled to", `document.querySelector('[data-widget="dispatch"]').hasAttribute('data-hydrated')`)
}
