//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"retrylab/site/widget"
)

// moduleNameRE takes a module's name out of its address.
var moduleNameRE = regexp.MustCompile(`^.*/(playground-[a-z-]+)\.[0-9a-f]+\.wasm$`)

// playgroundPage is the Italian playground: every calculator, one
// module per article (site/pages, site/assets/app.js).
func playgroundPage(t *testing.T) Page {
	t.Helper()
	return pageAt(t, "/it/playground/")
}

// TestPlaygroundModules opens the playground, which loads the module of
// each article (no module of every calculator): every widget is marked
// with the module that draws it and is live; the page fetched those
// modules and no other; two edits in widgets of two modules make two
// history entries that back and forward restore across the modules; a
// panic forced in a widget of the module loaded last stays in that widget
// while a widget of another module keeps working.
func TestPlaygroundModules(t *testing.T) {
	p := playgroundPage(t)
	ctx := tab(t)
	// the modules the page fetched: its own requests and its workers'
	// (the loader compiles each module in a worker, site/assets/app.js)
	var mu sync.Mutex
	var fetchedURLs []string
	go func() {
		for ev, err := range chromedp.Events(ctx, fetch.RequestPaused) {
			if err != nil {
				return
			}
			mu.Lock()
			fetchedURLs = append(fetchedURLs, ev.Request.URL)
			mu.Unlock()
			go chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		}
	}()
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*.wasm"}}}); err != nil {
		t.Fatal(err)
	}
	loc, ws := openWidgets(t, ctx, p, "")
	marks := eval[map[string]string](t, ctx, `Object.fromEntries(Array.from(document.querySelectorAll('[data-widget]')).map(w => [w.id, w.getAttribute('data-module') || '']))`)
	byModule := map[string][]widgetInfo{}
	for _, w := range ws {
		if !w.Live || w.Error != "" {
			t.Errorf("%s (%s) not live: error %q", w.ID, w.Name, w.Error)
		}
		set := widget.For([]string{w.Name})
		if marks[w.ID] != set.Name() {
			t.Errorf("%s (%s) is marked data-module=%q, want its article's %q", w.ID, w.Name, marks[w.ID], set.Name())
		}
		byModule[marks[w.ID]] = append(byModule[marks[w.ID]], w)
	}
	if len(byModule) != len(widget.Sets()) {
		t.Errorf("the widgets are drawn by %d modules, want one per article (%d)", len(byModule), len(widget.Sets()))
	}
	var fetched []string
	mu.Lock()
	for _, u := range fetchedURLs {
		fetched = append(fetched, moduleNameRE.ReplaceAllString(u, "$1"))
	}
	mu.Unlock()
	sort.Strings(fetched)
	var mods []string
	for _, s := range widget.Sets() {
		mods = append(mods, "playground-"+s.Name())
	}
	sort.Strings(mods)
	if want := strings.Join(mods, " "); strings.Join(fetched, " ") != want {
		t.Errorf("the page fetched the modules %v, want %s", fetched, want)
	}

	// history across two modules
	a, b := byModule["retries"][0], byModule["rate-limits"][0]
	ca, pageA := a.calc(t)
	cb, pageB := b.calc(t)
	ea, err := PlanEdit(ca, pageA)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := PlanEdit(cb, pageB)
	if err != nil {
		t.Fatal(err)
	}
	setValue(t, ctx, a.ID, ea.Param, ea.Value)
	expectWidget(t, ctx, a, ca, ea.Values, loc)
	setValue(t, ctx, b.ID, eb.Param, eb.Value)
	expectWidget(t, ctx, b, cb, eb.Values, loc)
	keyA := url.QueryEscape(a.ID+"."+ea.Param) + "="
	keyB := url.QueryEscape(b.ID+"."+eb.Param) + "="
	waitJS(t, ctx, "both widgets' state in the URL", fmt.Sprintf(`location.search.includes(%q) && location.search.includes(%q)`, keyA, keyB))
	eval[bool](t, ctx, "history.back(), true")
	expectWidget(t, ctx, b, cb, pageB, loc)
	expectWidget(t, ctx, a, ca, ea.Values, loc)
	waitJS(t, ctx, "the first edit's URL", fmt.Sprintf(`location.search.includes(%q) && !location.search.includes(%q)`, keyA, keyB))
	eval[bool](t, ctx, "history.back(), true")
	expectWidget(t, ctx, a, ca, pageA, loc)
	waitJS(t, ctx, "the page's own URL", `location.search === ''`)
	eval[bool](t, ctx, "history.forward(), true")
	expectWidget(t, ctx, a, ca, ea.Values, loc)
	expectWidget(t, ctx, b, cb, pageB, loc)
	eval[bool](t, ctx, "history.forward(), true")
	expectWidget(t, ctx, b, cb, eb.Values, loc)

	// a panic in a widget of one module (?debug-panic=ID: every module
	// reads it, only the one that draws ID acts on it) stays there
	for _, m := range [][2]string{{"policies", "retries"}, {"retries", "rate-limits"}} {
		t.Run("panic-in-"+m[0], func(t *testing.T) {
			ctx := tab(t)
			victim, other := byModule[m[0]][0], byModule[m[1]][0]
			loc, _ := openWidgets(t, ctx, p, "debug-panic="+url.QueryEscape(victim.ID))
			vpage, ve, slot := expectPanic(t, ctx, p, loc, victim)
			editWidget(t, ctx, other, loc)
			setValue(t, ctx, victim.ID, ve.Param, vpage.Get(ve.Param))
			waitJS(t, ctx, victim.ID+" still reports", fmt.Sprintf(`!%s.hidden`, slot))
		})
	}
}
