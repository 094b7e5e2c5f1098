//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// TestHydrateNearViewport holds the module's request of a long article:
// meanwhile every widget shows its pre-rendered output, with text, and
// none is hydrated. Once the module runs, only the widgets near the
// viewport are hydrated (wasm/playground/lazy.go): <html data-hydrated>
// counts fewer than the page's widgets, and it grows as the page scrolls
// down, one screen at a time, until every widget is hydrated; so do the
// players player.js sets up (retrylabWhenNear). Nothing is
// timed: the test polls, with a deadline, for the state it means.
func TestHydrateNearViewport(t *testing.T) {
	const path = "/it/retries/"
	ctx := tab(t)
	paused := make(chan *fetch.EventRequestPaused, 16)
	go func() {
		defer close(paused)
		for ev, err := range chromedp.Events(ctx, fetch.RequestPaused) {
			if err != nil {
				return
			}
			paused <- &ev
		}
	}()
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*.wasm"}}}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 700), chromedp.Navigate(env.srv.URL+path)); err != nil {
		t.Fatal(err)
	}
	var held *fetch.EventRequestPaused
	select {
	case held = <-paused:
	case <-time.After(30 * time.Second):
		t.Fatal("the page asked for no module within 30 s")
	}
	// the module is held: the page is whole as the build wrote it
	ws, err := widgets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) < 3 {
		t.Fatalf("%s has %d widgets: too few to see lazy hydration", path, len(ws))
	}
	for _, w := range ws {
		if len(w.Outs) == 0 {
			t.Errorf("%s: no pre-rendered output while the module is held", w.ID)
		}
		for _, o := range w.Outs {
			if o[2] == "" {
				t.Errorf("%s: output %s has no text while the module is held", w.ID, o[0])
			}
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-widget][data-hydrated]').length`); n != 0 {
		t.Fatalf("%d widgets hydrated while the module is held", n)
	}
	// player.js sets up a widget's players as it nears the viewport too
	// (retrylabWhenNear): at the top of the page, not all of them
	type players struct{ Shown, Total int }
	const playersJS = `(() => {
		const ws = Array.from(document.querySelectorAll('[data-widget]')).filter(w => w.querySelector('[data-player]'));
		return {Shown: ws.filter(w => w.querySelector('[data-player]:not([hidden])')).length, Total: ws.length};
	})()`
	if p := eval[players](t, ctx, playersJS); p.Total < 2 || p.Shown >= p.Total {
		t.Errorf("players set up at load, before any scroll: %d of %d widgets with players, want fewer than all", p.Shown, p.Total)
	}
	// the fields of the widgets screens away are still text
	// (noscript[data-fields], site/widget/more.go): no closed disclosure
	// holding a field, and few fields for Chromium to visit, when the page
	// parsed; the text is never shown
	type fieldText struct{ Forms, Text, Named, Shown int }
	if f := eval[fieldText](t, ctx, fieldTextJS); f.Text == 0 || f.Named >= f.Forms || f.Shown > 0 {
		t.Errorf("at load, of %d widget forms: %d with fields as text, %d with fields, %d showing a field's markup as text; want some as text, not all with fields, none shown", f.Forms, f.Text, f.Named, f.Shown)
	}
	// let it (and any later module) through
	go func() {
		for ev := range paused {
			if ctx.Err() != nil {
				return
			}
			chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		}
	}()
	if _, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: held.RequestID}); err != nil {
		t.Fatal(err)
	}
	waitJSFor(t, ctx, 60*time.Second, "data-ready", `document.documentElement.getAttribute('data-ready') === 'true'`)
	total := len(ws)
	count := func() int {
		return eval[int](t, ctx, `document.querySelectorAll('[data-widget][data-hydrated]').length`)
	}
	at := count()
	if at >= total {
		t.Fatalf("all %d widgets hydrated at load, before any scroll", total)
	}
	// every widget in the viewport is hydrated, after each screen
	inView := `Array.from(document.querySelectorAll('[data-widget]')).every(w => {
		const r = w.getBoundingClientRect();
		return r.bottom < 0 || r.top > innerHeight || w.hasAttribute('data-hydrated');
	})`
	counts := []int{at}
	for step := 0; step < 200; step++ {
		done := eval[bool](t, ctx, `(scrollY + innerHeight >= document.documentElement.scrollHeight - 1)`)
		waitJSFor(t, ctx, 30*time.Second, fmt.Sprintf("the widgets in view after %d screens", step), inView)
		counts = append(counts, count())
		if done {
			break
		}
		eval[any](t, ctx, `window.scrollBy(0, innerHeight), 0`)
	}
	if last := counts[len(counts)-1]; last != total {
		t.Errorf("at the bottom %d of %d widgets hydrated (counts by screen %v)", last, total, counts)
	}
	grew := 0
	for i := 1; i < len(counts); i++ {
		if counts[i] < counts[i-1] {
			t.Errorf("the hydrated count fell: %v", counts)
		}
		if counts[i] > counts[i-1] {
			grew++
		}
	}
	if grew < 2 {
		t.Errorf("the hydrated count grew in %d steps of the scroll, want at least 2 (counts by screen %v)", grew, counts)
	}
	if p := eval[players](t, ctx, playersJS); p.Shown != p.Total {
		t.Errorf("at the bottom the players of %d of %d widgets are set up", p.Shown, p.Total)
	}
	// every widget came near: its fields and "more parameters" are
	// fields, each with the control the playground reads
	if f := eval[fieldText](t, ctx, fieldTextJS); f.Text != 0 || f.Named != f.Forms {
		t.Errorf("at the bottom, of %d widget forms: %d with fields as text, %d with fields; want none, all", f.Forms, f.Text, f.Named)
	}
	if bad := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('details[data-more]')).filter(d => !d.querySelector('[data-field] [name]')).map(d => d.closest('[data-widget]').id)`); len(bad) > 0 {
		t.Errorf("\"more parameters\" without a field after hydration: %v", bad)
	}
	if h := eval[string](t, ctx, `document.documentElement.getAttribute('data-hydrated') || ''`); h != fmt.Sprint(total) {
		t.Errorf("<html data-hydrated=%q>, want %d", h, total)
	}
}

// fieldTextJS counts the widget forms: those holding fields as the text
// of a noscript (site/widget/more.go), those with a named control, and
// those whose rendered text shows a field's markup.
const fieldTextJS = `(() => {
	const forms = Array.from(document.querySelectorAll('[data-widget] form[data-form]'));
	return {Forms: forms.length, Text: forms.filter(f => f.querySelector('noscript[data-fields]')).length,
		Named: forms.filter(f => f.querySelector('[data-field] [name]')).length,
		Shown: forms.filter(f => f.innerText.includes('widget-field')).length};
})()`

// TestSkipOffScreen holds style.css's skipping of an article's blocks off
// screen (content-visibility: auto, issue 33) to what it promises, on a
// phone, in es/rate-limits:
//   - at the top, the far paragraphs and widgets are skipped
//     (checkVisibility with contentVisibilityAuto is false inside them),
//     the heading, lede and date are not, and no skipped block holds a
//     form control (Chromium's autofill scan would lay it out again per
//     control: a far widget's controls are text until it nears);
//   - a far widget scrolled to hydrates with its controls and is laid
//     out; a link to a far widget lands on it and it stays at the top
//     once it has hydrated;
//   - a skipped paragraph is laid out once scrolled to;
//   - a link to a heading far down lands on it, though the heights of the
//     blocks above it were guesses, and stays there while the widgets near
//     it hydrate;
//   - on paper no block is skipped (print.css).
func TestSkipOffScreen(t *testing.T) {
	const path = "/es/rate-limits/"
	ctx := tab(t)
	if err := Emulate(ctx, LayoutSizes[0], "light"); err != nil {
		t.Fatal(err)
	}
	// not WaitReady: it sets up every widget (retrylabStartAll), as a
	// reader who has not scrolled never does
	if err := chromedp.Do(ctx, chromedp.Navigate(env.srv.URL+path)); err != nil {
		t.Fatal(err)
	}
	waitJSFor(t, ctx, 30*time.Second, "the page loaded", `document.readyState === 'complete'`)
	type skip struct{ Blocks, Auto, TopAuto, ControlsAuto, Far, FarSkipped, FarWidgets, FarWidgetsSkipped int }
	const skipJS = `(() => {
		const kids = [...document.querySelectorAll('article > *')];
		const auto = e => getComputedStyle(e).contentVisibility === 'auto';
		const far = kids.filter(e => e.tagName === 'P' && e.firstElementChild && e.getBoundingClientRect().top > 3 * innerHeight);
		const fw = kids.filter(e => e.matches('.widget') && e.getBoundingClientRect().top > 3 * innerHeight);
		return {Blocks: kids.length, Auto: kids.filter(auto).length, TopAuto: kids.slice(0, 3).filter(auto).length,
			ControlsAuto: kids.filter(e => auto(e) && e.querySelector('input, select, textarea, button')).length,
			Far: far.length, FarSkipped: far.filter(e => !e.firstElementChild.checkVisibility({contentVisibilityAuto: true})).length,
			FarWidgets: fw.length, FarWidgetsSkipped: fw.filter(e => !e.querySelector('.widget-title').checkVisibility({contentVisibilityAuto: true})).length};
	})()`
	s := eval[skip](t, ctx, skipJS)
	if s.Auto < s.Blocks/2 || s.TopAuto != 0 || s.ControlsAuto != 0 || s.Far < 10 || s.FarSkipped != s.Far || s.FarWidgets < 5 || s.FarWidgetsSkipped != s.FarWidgets {
		t.Errorf("at the top of %s, of %d blocks: %d skippable (want at least half), %d of the first three (want 0), %d holding a form control (want 0); %d of %d far paragraphs skipped and %d of %d far widgets (want all, at least 10 and 5)",
			path, s.Blocks, s.Auto, s.TopAuto, s.ControlsAuto, s.FarSkipped, s.Far, s.FarWidgetsSkipped, s.FarWidgets)
	}
	// a far widget, scrolled to, is laid out with its controls
	eval[any](t, ctx, `(() => {
		const fw = [...document.querySelectorAll('article > .widget')].filter(e => e.getBoundingClientRect().top > 3 * innerHeight);
		const w = fw[fw.length >> 1];
		w.setAttribute('data-skip-probe-widget', '');
		w.scrollIntoView();
		return 0;
	})()`)
	waitJSFor(t, ctx, 60*time.Second, "the widget scrolled to hydrated, with its controls, laid out", `(() => {
		const w = document.querySelector('[data-skip-probe-widget]');
		return w.hasAttribute('data-hydrated') && w.querySelector('form button[data-action="reset"]') !== null &&
			w.querySelector('.widget-title').checkVisibility({contentVisibilityAuto: true});
	})()`)
	eval[any](t, ctx, `(() => {
		const far = [...document.querySelectorAll('article > p')].filter(e => e.firstElementChild && e.getBoundingClientRect().top > 3 * innerHeight);
		const p = far[far.length >> 1];
		p.setAttribute('data-skip-probe', '');
		p.scrollIntoView({block: 'center'});
		return 0;
	})()`)
	waitJSFor(t, ctx, 30*time.Second, "the paragraph scrolled to laid out",
		`document.querySelector('[data-skip-probe]').firstElementChild.checkVisibility({contentVisibilityAuto: true})`)

	// a link to a heading near the end (not the last: the page ends), from another page
	id := eval[string](t, ctx, `[...document.querySelectorAll('article > h2[id]')].slice(-3)[0].id`)
	frag := eval[string](t, ctx, `encodeURIComponent(`+strconv.Quote(id)+`)`)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(env.srv.URL+path+"#"+frag), WaitReady(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	at := `document.getElementById(` + strconv.Quote(id) + `).getBoundingClientRect().top`
	waitJSFor(t, ctx, 30*time.Second, "the linked heading at the top", `Math.abs(`+at+`) < 4`)
	if y := eval[float64](t, ctx, `scrollY / innerHeight`); y < 10 {
		t.Errorf("#%s: the page scrolled %.1f screens, want the heading far down (at least 10)", id, y)
	}
	waitJSFor(t, ctx, 60*time.Second, "the widgets within a screen hydrated", `Array.from(document.querySelectorAll('[data-widget]')).every(w => {
		const r = w.getBoundingClientRect();
		return r.bottom < -innerHeight || r.top > 2 * innerHeight || w.hasAttribute('data-hydrated');
	})`)
	if top := eval[float64](t, ctx, at); top < -4 || top > 4 {
		t.Errorf("#%s: after the widgets near it hydrated the heading is at %.0f px, want at the top", id, top)
	}

	// a link to a far widget lands on it, and it stays there while it
	// and the widgets near it hydrate (their controls made inside it)
	wid := eval[string](t, ctx, `[...document.querySelectorAll('article > .widget')].slice(-3)[0].id`)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(env.srv.URL+path+"#"+wid)); err != nil {
		t.Fatal(err)
	}
	wat := `document.getElementById(` + strconv.Quote(wid) + `)`
	waitJSFor(t, ctx, 60*time.Second, "the linked widget hydrated", wat+`.hasAttribute('data-hydrated')`)
	waitJSFor(t, ctx, 30*time.Second, "the widgets within a screen hydrated", `Array.from(document.querySelectorAll('[data-widget]')).every(w => {
		const r = w.getBoundingClientRect();
		return r.bottom < -innerHeight || r.top > 2 * innerHeight || w.hasAttribute('data-hydrated');
	})`)
	if top := eval[float64](t, ctx, wat+`.getBoundingClientRect().top`); top < -4 || top > 4 {
		t.Errorf("#%s: the linked widget is at %.0f px once hydrated, want at the top", wid, top)
	}

	// paper
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	if n := eval[int](t, ctx, `[...document.querySelectorAll('article > *')].filter(e => getComputedStyle(e).contentVisibility !== 'visible').length`); n != 0 {
		t.Errorf("printing, %d blocks may be skipped, want none", n)
	}
}

// queryCountJS counts, from before the page's scripts run, the
// querySelector and querySelectorAll calls made on a widget's form
// (form[data-form]), by widget: the lookups that hydrating a widget costs
// (wasm/playground formControls), and player.js's.
const queryCountJS = `(() => {
	window.retrylabFormQueries = {};
	for (const m of ['querySelector', 'querySelectorAll']) {
		const orig = Element.prototype[m];
		Element.prototype[m] = function (sel) {
			if (this.localName === 'form' && this.hasAttribute('data-form')) {
				const w = this.closest('[data-widget]');
				const id = w ? w.id : '';
				(window.retrylabFormQueries[id] = window.retrylabFormQueries[id] || []).push(sel);
			}
			return orig.apply(this, arguments);
		};
	}
})()`

// TestHydrationQueries holds the lookups of a widget's hydration to a
// number that does not grow with its parameters: the dispatch embed's
// widget has 26, and its form is queried fewer times than that from the
// page's load to the widget live, none of them for one parameter by name
// (`[name="P"]`, `[data-slider-for="P"]`: two walks of the form a
// parameter before formControls, 52 for dispatch, a third of its
// hydration's time at 4x CPU). Counted, not timed.
func TestHydrationQueries(t *testing.T) {
	p := pageAt(t, "/es/embed/dispatch/")
	ctx := tab(t)
	beforeScripts(t, ctx, queryCountJS)
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL(p, ""))); err != nil {
		t.Fatal(err)
	}
	waitJSFor(t, ctx, 60*time.Second, "the widget hydrated", `document.querySelector('[data-widget="dispatch"][data-hydrated]') !== null`)
	id := eval[string](t, ctx, `document.querySelector('[data-widget="dispatch"]').id`)
	c, ok := env.reg.Lookup("dispatch")
	if !ok {
		t.Fatal("no calculator dispatch")
	}
	params := len(c.Params)
	if params < 20 {
		t.Fatalf("dispatch has %d parameters: too few to tell a lookup a parameter from one in all", params)
	}
	qs := eval[[]string](t, ctx, `window.retrylabFormQueries[`+strconv.Quote(id)+`] || []`)
	if len(qs) == 0 {
		t.Fatalf("no query of #%s's form was counted: the counter did not run before the page's scripts", id)
	}
	var named []string
	for _, q := range qs {
		if strings.Contains(q, `name="`) || strings.Contains(q, `slider-for="`) {
			named = append(named, q)
		}
	}
	if len(named) > 0 || len(qs) >= params {
		t.Errorf("#%s's form (%d parameters) was queried %d times to hydrate, %d of them for one parameter by name, want fewer than %d and none by name: %q", id, params, len(qs), len(named), params, qs)
	}
}
