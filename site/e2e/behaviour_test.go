//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"retrylab/core/calc"
)

// firstWidgetPages returns, for each language, the first article page
// (else embed page) with at least min widgets.
func firstWidgetPages(t *testing.T, min int) []Page {
	t.Helper()
	return firstPages(t, fmt.Sprintf("%d widgets", min), func(html string) bool {
		return strings.Count(html, "data-widget=") >= min
	})
}

// TestBackForward: two changes make two history entries; back and
// forward restore the controls and the results of each.
func TestBackForward(t *testing.T) {
	for _, p := range firstWidgetPages(t, 1) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			w := ws[0]
			c, page := w.calc(t)
			e1, err := PlanEdit(c, page)
			if err != nil {
				t.Fatal(err)
			}
			e2, err := PlanEdit(c, e1.Values)
			if err != nil {
				t.Fatal(err)
			}
			controlIs := func(e Edit) {
				t.Helper()
				want := e.Values.Get(e.Param)
				waitJS(t, ctx, fmt.Sprintf("%s.%s = %s", w.ID, e.Param, want),
					fmt.Sprintf(`%s === %q`, controlValue(w.ID, e.Param), want))
			}
			setValue(t, ctx, w.ID, e1.Param, e1.Value)
			expectWidget(t, ctx, w, c, e1.Values, loc)
			setValue(t, ctx, w.ID, e2.Param, e2.Value)
			expectWidget(t, ctx, w, c, e2.Values, loc)

			eval[bool](t, ctx, "history.back(), true")
			controlIs(Edit{Param: e2.Param, Values: e1.Values})
			expectWidget(t, ctx, w, c, e1.Values, loc)
			eval[bool](t, ctx, "history.back(), true")
			controlIs(Edit{Param: e1.Param, Values: page})
			expectWidget(t, ctx, w, c, page, loc)
			if s := eval[string](t, ctx, "location.search"); s != "" {
				t.Errorf("back at the page's values, the URL still has %q", s)
			}
			eval[bool](t, ctx, "history.forward(), true")
			controlIs(Edit{Param: e1.Param, Values: e1.Values})
			expectWidget(t, ctx, w, c, e1.Values, loc)
		})
	}
}

// TestBadInput types a value out of range, then clears the field, into
// one numeric control of every widget on every page: the message in the
// page's language (locale.Locale.Error) appears beside the field, the
// control is aria-invalid, the last good result stays, the URL keeps the
// good state; then the field is corrected and everything recovers.
func TestBadInput(t *testing.T) {
	for _, p := range widgetPages(t) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			for _, w := range ws {
				c, page := w.calc(t)
				bad, err := PlanBadEdit(c, page)
				if err != nil {
					t.Error(err)
					continue
				}
				empty := cloneValues(page)
				empty.Set(bad.Param, "")
				_, emptyErr := c.Parse(empty)
				if prm := c.Param(bad.Param); prm != nil && prm.Optional {
					// an empty optional field is the parameter left out
					// (the widget sends no value), not a refused one
					emptyErr = nil
				}
				for _, tc := range []struct {
					value string
					err   error
				}{{bad.Value, bad.Err}, {"", emptyErr}} {
					if tc.err == nil {
						continue // an optional parameter: empty is allowed
					}
					setValue(t, ctx, w.ID, bad.Param, tc.value)
					want := loc.Error(asCalcError(t, tc.err), c)
					slot := fmt.Sprintf(`document.querySelector('[id=%q] [data-error-for=%q]')`, w.ID, bad.Param)
					waitJS(t, ctx, w.ID+" error message", fmt.Sprintf(`!%s.hidden && %s.textContent === %q`, slot, slot, want))
					if inv := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('[id=%q] [name=%q]').getAttribute('aria-invalid') || ''`, w.ID, bad.Param)); inv != "true" {
						t.Errorf("%s.%s = %q: aria-invalid=%q, want true", w.ID, bad.Param, tc.value, inv)
					}
					expectKept(t, ctx, w, c, page, loc) // the last good result stays
					if s := eval[string](t, ctx, "location.search"); strings.Contains(s, url.QueryEscape(w.ID+"."+bad.Param)) {
						t.Errorf("the refused value went into the URL: %s", s)
					}
				}
				// recover
				setValue(t, ctx, w.ID, bad.Param, page.Get(bad.Param))
				slot := fmt.Sprintf(`document.querySelector('[id=%q] [data-error-for=%q]')`, w.ID, bad.Param)
				waitJS(t, ctx, w.ID+" error cleared", slot+".hidden")
				if inv := eval[bool](t, ctx, fmt.Sprintf(`document.querySelector('[id=%q] [name=%q]').hasAttribute('aria-invalid')`, w.ID, bad.Param)); inv {
					t.Errorf("%s.%s corrected but still aria-invalid", w.ID, bad.Param)
				}
				editWidget(t, ctx, w, loc)
			}
		})
	}
}

// TestPanicIsolation forces a panic in one widget (?debug-panic=ID): that
// widget reports it in its own error slot, keeps its last result, and the
// other widgets of the page keep working; nothing reaches the console.
func TestPanicIsolation(t *testing.T) {
	for _, p := range firstWidgetPages(t, 2) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			_, ws := openWidgets(t, ctx, p, "")
			victim, other := ws[0], ws[1]
			loc, _ := openWidgets(t, ctx, p, "debug-panic="+url.QueryEscape(victim.ID))
			vpage, ve, slot := expectPanic(t, ctx, p, loc, victim)
			editWidget(t, ctx, other, loc)
			// the victim still answers (and still reports)
			setValue(t, ctx, victim.ID, ve.Param, vpage.Get(ve.Param))
			waitJS(t, ctx, victim.ID+" still reports", fmt.Sprintf(`!%s.hidden`, slot))
		})
	}
}

// TestWithoutJavaScript loads every page with scripts disabled: the page
// says it is static, and every widget shows the pre-rendered numbers.
func TestWithoutJavaScript(t *testing.T) {
	ctx := tab(t)
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	for _, p := range widgetPages(t) {
		if err := chromedp.Do(ctx, chromedp.Navigate(pageURL(p, ""))); err != nil {
			t.Fatalf("%s: %v", p.Path, err)
		}
		loc := pageLocale(t, ctx, p)
		if r := eval[string](t, ctx, `document.documentElement.getAttribute('data-ready') || ''`); r != "" {
			t.Errorf("%s: data-ready=%q without JavaScript", p.Path, r)
		}
		// the fields written in noscript[data-fields] (every shown field on
		// an article, "more parameters" everywhere; site/widget/more.go)
		// are the form's fields, laid out as the others
		type fieldState struct{ Forms, Bare, Boxes, Empty, Narrow int }
		if m := eval[fieldState](t, ctx, `(() => {
			const ds = Array.from(document.querySelectorAll('details[data-more]'));
			ds.forEach(d => { d.open = true; });
			const forms = Array.from(document.querySelectorAll('form[data-form]'));
			const fs = forms.flatMap(f => Array.from(f.querySelectorAll('[data-field]')));
			return {Forms: forms.length, Bare: forms.filter(f => !f.querySelector('[data-field] [name]')).length,
				Boxes: ds.length, Empty: ds.filter(d => !d.querySelector('noscript [data-field] [name]')).length,
				Narrow: fs.filter(f => { const c = f.querySelector('[name]'); return !c || !c.form || f.getBoundingClientRect().width < 100; }).length};
		})()`); m.Bare > 0 || m.Empty > 0 || m.Narrow > 0 {
			t.Errorf("%s: %d of %d forms without fields, %d of %d \"more parameters\" without fields, %d fields not in a form or not laid out", p.Path, m.Bare, m.Forms, m.Empty, m.Boxes, m.Narrow)
		}
		ws, err := widgets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ws {
			if !w.Static || w.Live {
				t.Errorf("%s %s: static notice shown=%v, live=%v", p.Path, w.ID, w.Static, w.Live)
			}
			for _, o := range w.Outs {
				if o[1] == "" {
					t.Errorf("%s %s: %s has no data-value", p.Path, w.ID, o[0])
				}
			}
			c, page := w.calc(t)
			if bad, err := mismatches(ctx, w, c, page, loc, false); err != nil || len(bad) > 0 {
				t.Errorf("%s %s without JavaScript: %v %s", p.Path, w.ID, err, strings.Join(bad, "; "))
			}
		}
	}
}

func asCalcError(t *testing.T, err error) *calc.Error {
	t.Helper()
	var ce *calc.Error
	if !errors.As(err, &ce) {
		t.Fatalf("%v is not a *calc.Error", err)
	}
	return ce
}

// axeViolation is one rule axe-core found broken.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axeSource is axe-core's script (site/e2e/node_modules, `make deps`).
func axeSource(t *testing.T) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(env.root, "site", "e2e", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core: %v (run `make deps`: npm ci --ignore-scripts)", err)
	}
	return src
}

// TestAxe runs axe-core on every page, hydrated, every block painted
// (RenderAllJS): every rule of axe's default set in the light scheme, then,
// in the same tab, the rules whose answer depends on the colours
// (AxeSchemeRules) in the dark one. No violation. The rest reads the DOM,
// the same in both schemes but for the theme toggle's aria-pressed (app.js),
// so running it twice (a second page load and every rule again, about
// half of this test's time) checked nothing more.
func TestAxe(t *testing.T) {
	src := axeSource(t)
	for _, p := range env.pages {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			scheme := func(s string) {
				if err := EmulateScheme(ctx, s); err != nil {
					t.Fatal(err)
				}
			}
			scheme("light")
			open(t, ctx, p, "")
			// every block painted: axe reads the colours of none that
			// the browser skips off screen (style.css, issue 33)
			if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](RenderAllJS)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](string(src)+";0")); err != nil {
				t.Fatalf("injecting axe-core: %v", err)
			}
			for _, pass := range []struct{ scheme, opts string }{
				{"light", `{resultTypes: ['violations']}`},
				{"dark", AxeContrast},
			} {
				if pass.scheme != "light" {
					scheme(pass.scheme)
				}
				vs, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, `+pass.opts+`).then(r =>
					r.violations.map(v => ({id: v.id, impact: v.impact || '', help: v.help,
						nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').slice(1).join(' '))})))`,
					chromedp.EvalAwaitPromise))
				if err != nil {
					t.Fatalf("axe.run (%s): %v", pass.scheme, err)
				}
				for _, v := range vs {
					t.Errorf("%s: axe %s (%s): %s\n    %s", pass.scheme, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n    "))
				}
			}
		})
	}
}

// TestBadURLState opens an article with refused values of number
// parameters in its URL state: the widget names each value in its message
// and the number field stays empty, and the browser logs nothing (setting
// an <input type="number"> to "abc" would log that the value "cannot be
// parsed, or is out of range"; tab fails on any console warning).
func TestBadURLState(t *testing.T) {
	page := pageAt(t, "/it/retries/")
	for _, q := range []string{"att.q=abc", "att.n=1e400", "att.n=0x10"} {
		t.Run(q, func(t *testing.T) {
			ctx := tab(t)
			open(t, ctx, page, q)
			slot := `document.querySelector('[id="att"] [data-error-for="` + strings.TrimPrefix(strings.Split(q, "=")[0], "att.") + `"]')`
			waitJS(t, ctx, "the message of the refused value", `!`+slot+`.hidden && `+slot+`.textContent !== ''`)
		})
	}
}
