//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"retrylab/core/calc"
	"retrylab/site/locale"
	"retrylab/site/widget"
)

// widgetInfo is what a test reads of one [data-widget] (wasm/playground/DOM.md).
type widgetInfo struct {
	ID       string     `json:"id"`
	Name     string     `json:"name"`
	Defaults string     `json:"defaults"`
	Live     bool       `json:"live"`
	Error    string     `json:"error"`
	Outs     [][]string `json:"outs"`     // [field, data-value, text]
	Static   bool       `json:"static"`   // the "static page" notice is drawn (not hidden, not display: none)
	Disabled int        `json:"disabled"` // buttons still disabled
}

const widgetsJS = `Array.from(document.querySelectorAll('[data-widget]')).map(w => ({
	id: w.id, name: w.getAttribute('data-widget'), defaults: w.getAttribute('data-defaults') || '',
	live: w.hasAttribute('data-live'), error: w.getAttribute('data-error') || '',
	outs: Array.from(w.querySelectorAll('[data-output] [data-out]')).map(o =>
		[o.getAttribute('data-out'), o.getAttribute('data-value'), o.textContent.trim()]),
	static: Array.from(w.querySelectorAll('[data-static]')).some(e => !e.hidden && getComputedStyle(e).display !== 'none'),
	disabled: Array.from(w.querySelectorAll('button[data-action]')).filter(b => b.disabled).length,
}))`

// citeInfo is one <output data-cite> of the prose.
type citeInfo struct {
	Cite   string `json:"cite"`
	Format string `json:"format"`
	Value  string `json:"value"`
	Text   string `json:"text"`
}

const citesJS = `Array.from(document.querySelectorAll('output[data-cite]')).map(o => ({
	cite: o.getAttribute('data-cite'), format: o.getAttribute('data-format') || '',
	value: o.getAttribute('data-value'), text: o.textContent}))`

func widgets(ctx context.Context) ([]widgetInfo, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]widgetInfo](widgetsJS))
}

func cites(ctx context.Context) ([]citeInfo, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]citeInfo](citesJS))
}

// pageLocale reads the locale the page embeds for the playground.
func pageLocale(t *testing.T, ctx context.Context, p Page) locale.Locale {
	t.Helper()
	data, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById('retrylab-data') || {}).textContent || ''`))
	if err != nil {
		t.Fatalf("%s: reading retrylab-data: %v", p.Path, err)
	}
	if data == "" {
		t.Fatalf("%s: the page has no <script id=retrylab-data>", p.Path)
	}
	loc, err := PageLocale([]byte(data), p.Lang)
	if err != nil {
		t.Fatalf("%s: %v", p.Path, err)
	}
	return loc
}

// mismatches compares a widget's outputs and citations in the page with
// the calculator's result for values; it returns what differs.
// A widget showing an error (data-error) is a mismatch unless allowError
// (the last good result stays beside a refused input).
func mismatches(ctx context.Context, w widgetInfo, c *calc.Calculator, values url.Values, loc locale.Locale, allowError bool) ([]string, error) {
	ex, err := expect(w, c, values)
	if err != nil {
		return nil, err
	}
	return ex.mismatches(ctx, loc, allowError)
}

// expectation is the calculator's result for a widget's values, computed
// once for every poll of expectResult: computed again at each (every
// 20 ms, some 50 ms of policies natively), it took a core from the
// browser it waited for, on a machine of two.
type expectation struct {
	w       widgetInfo
	c       *calc.Calculator
	values  url.Values
	res     any
	fields  map[string]json.RawMessage
	variant any // the comparison's result, at its first citation
}

func expect(w widgetInfo, c *calc.Calculator, values url.Values) (*expectation, error) {
	res, err := c.Compute(values)
	if err != nil {
		return nil, fmt.Errorf("%s: the calculator refuses %s: %w", w.ID, values.Encode(), err)
	}
	fields, err := Fields(res)
	if err != nil {
		return nil, err
	}
	return &expectation{w: w, c: c, values: values, res: res, fields: fields}, nil
}

// mismatches is the package function mismatches for ex's widget and
// values.
func (ex *expectation) mismatches(ctx context.Context, loc locale.Locale, allowError bool) ([]string, error) {
	w, c, values, res, fields := ex.w, ex.c, ex.values, ex.res, ex.fields
	ws, err := widgets(ctx)
	if err != nil {
		return nil, err
	}
	var bad []string
	for _, cur := range ws {
		if cur.ID != w.ID {
			continue
		}
		if cur.Error != "" && !allowError {
			msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`Array.from(document.querySelectorAll('[id=%q] [data-error-for]:not([hidden])')).map(e => e.textContent).join(' / ') + ' (' + (document.getElementById(%q).getAttribute('data-error-detail') || '') + ')'`, w.ID, w.ID)))
			bad = append(bad, fmt.Sprintf("%s: data-error=%q: %s", w.ID, cur.Error, msg))
		}
		if len(cur.Outs) == 0 {
			bad = append(bad, w.ID+": no [data-out] in the output")
		}
		for _, o := range cur.Outs {
			want, ok := fields[o[0]]
			if !ok {
				bad = append(bad, fmt.Sprintf("%s: data-out=%q is not a field of the result", w.ID, o[0]))
				continue
			}
			if !SameJSON(o[1], string(want)) {
				bad = append(bad, fmt.Sprintf("%s: %s data-value=%.80s, calculator %.80s", w.ID, o[0], o[1], want))
			}
			if o[2] == "" && len(want) < 200 {
				bad = append(bad, fmt.Sprintf("%s: %s has no text", w.ID, o[0]))
			}
		}
	}
	cs, err := cites(ctx)
	if err != nil {
		return nil, err
	}
	for _, ci := range cs {
		field, ok := strings.CutPrefix(ci.Cite, w.ID+".")
		if !ok {
			continue
		}
		cres := res
		if f, isCmp := strings.CutPrefix(field, widget.CompareCite); isCmp {
			if ex.variant == nil { // the result of the widget's comparison, for {=ID.compare.FIELD}
				if ex.variant, err = variantOf(ctx, w, c, values); err != nil {
					return nil, err
				}
			}
			cres, field = ex.variant, f
		}
		text, value, err := widget.All().Cite(c, cres, field, ci.Format, loc)
		if err != nil {
			bad = append(bad, fmt.Sprintf("citation %s|%s: %v", ci.Cite, ci.Format, err))
			continue
		}
		if ci.Text != text || !SameJSON(ci.Value, value) {
			bad = append(bad, fmt.Sprintf("citation %s|%s: %q (%s), calculator %q (%s)", ci.Cite, ci.Format, ci.Text, ci.Value, text, value))
		}
	}
	return bad, nil
}

// variantOf computes the comparison the widget asks for in its
// data-views (compare:PARAM=VALUE) for values, as the playground does.
func variantOf(ctx context.Context, w widgetInfo, c *calc.Calculator, values url.Values) (any, error) {
	views, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById(%q).getAttribute('data-views') || ''`, w.ID)))
	if err != nil {
		return nil, err
	}
	a, err := c.Parse(values)
	if err != nil {
		return nil, err
	}
	v, ok, err := widget.Variant(c, a, nil, strings.Split(views, ","))
	if !ok || err != nil {
		return nil, fmt.Errorf("%s: no comparison to cite in data-views %q: %v", w.ID, views, err)
	}
	return v, nil
}

// expectWidget waits (up to 5 s) until the widget shows the calculator's
// result for values in its outputs and citations.
func expectWidget(t *testing.T, ctx context.Context, w widgetInfo, c *calc.Calculator, values url.Values, loc locale.Locale) {
	t.Helper()
	expectResult(t, ctx, w, c, values, loc, false)
}

// expectKept is expectWidget for a widget that shows an error beside its
// last good result.
func expectKept(t *testing.T, ctx context.Context, w widgetInfo, c *calc.Calculator, values url.Values, loc locale.Locale) {
	t.Helper()
	expectResult(t, ctx, w, c, values, loc, true)
}

func expectResult(t *testing.T, ctx context.Context, w widgetInfo, c *calc.Calculator, values url.Values, loc locale.Locale, allowError bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	ex, err := expect(w, c, values)
	if err != nil {
		t.Fatal(err)
	}
	for {
		bad, err := ex.mismatches(ctx, loc, allowError)
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s after %s:\n  %s", w.ID, values.Encode(), strings.Join(bad, "\n  "))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// clickSeen clicks the element sel as a reader does: once it is on screen
// and drawn. The browser skips drawing an article's blocks off screen
// (style.css, content-visibility: auto) and draws one in the frame after
// it comes into view; a click sent at once, right after chromedp's scroll,
// is hit-tested against the block not yet drawn and lands on the block.
func clickSeen(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	el := fmt.Sprintf(`document.querySelector(%q)`, sel)
	eval[any](t, ctx, el+`.scrollIntoView({block: 'center'}), 0`)
	waitJS(t, ctx, "drawn on screen: "+sel, el+`.checkVisibility({contentVisibilityAuto: true})`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatal(err)
	}
}

// waitJS polls a JavaScript predicate for up to 20 s: a deadline, not a
// delay (it returns as soon as the predicate holds).
func waitJS(t *testing.T, ctx context.Context, what, pred string) {
	t.Helper()
	waitJSFor(t, ctx, 20*time.Second, what, pred)
}

// waitJSFor polls a JavaScript predicate until it holds or d has passed.
func waitJSFor(t *testing.T, ctx context.Context, d time.Duration, what, pred string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.PollFunction[bool]("() => "+pred, chromedp.WithPollingInterval(10*time.Millisecond))); err != nil {
		t.Fatalf("waiting %v for %s (%s): %v", d, what, pred, err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// control is the CSS selector of a widget's parameter control.
func control(id, param string) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(`[id="%s"] [name="%s"]`, id, param))
}

// setValue types value into a control (input and change events follow).
// chromedp.SetValue sends an empty string as undefined (a number input
// then warns that "undefined" cannot be parsed, a text input would hold
// "undefined"), so the empty value is set by a script that dispatches the
// same events.
func setValue(t *testing.T, ctx context.Context, id, param, value string) {
	t.Helper()
	checkbox := eval[bool](t, ctx, fmt.Sprintf(`document.querySelector('[id=%q] [name=%q]').type === 'checkbox'`, id, param))
	if value == "" || checkbox {
		eval[bool](t, ctx, fmt.Sprintf(`(() => { const el = document.querySelector('[id=%q] [name=%q]');
			if (el.type === 'checkbox') el.checked = %q === 'true'; else el.value = '';
			el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, id, param, value))
		return
	}
	if err := chromedp.Do(ctx, chromedp.SetValue(control(id, param), value)); err != nil {
		t.Fatalf("%s.%s = %q: %v", id, param, value, err)
	}
}

// controlValue is the JavaScript expression of a control's text as
// calc.Parse reads it (a checkbox: "true" or "false"; a number field
// shows the page's decimal mark, read back as a point).
func controlValue(id, param string) string {
	return fmt.Sprintf(`((el) => el.type === 'checkbox' ? String(el.checked) : el.closest('[data-kind="int"], [data-kind="float"]') ? el.value.replace(',', '.') : el.value)(document.querySelector('[id=%q] [name=%q]'))`, id, param)
}

func (w widgetInfo) calc(t *testing.T) (*calc.Calculator, url.Values) {
	t.Helper()
	c, ok := env.reg.Lookup(w.Name)
	if !ok {
		t.Fatalf("%s: data-widget=%q is no calculator", w.ID, w.Name)
	}
	page, err := PageValues(c, w.Defaults)
	if err != nil {
		t.Fatalf("%s: data-defaults=%q: %v", w.ID, w.Defaults, err)
	}
	return c, page
}

// TestEveryPageLoads opens every page of every language: the playground
// hydrates every widget (live, buttons enabled, the static notice hidden),
// the pre-rendered numbers are the calculator's, and the console stays
// silent.
func TestEveryPageLoads(t *testing.T) {
	for _, p := range env.pages {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			if !hasWidgets(p) {
				open(t, ctx, p, "")
				return
			}
			loc, ws := openWidgets(t, ctx, p, "")
			for _, w := range ws {
				if !w.Live || w.Error != "" || w.Static || w.Disabled > 0 {
					t.Errorf("%s (%s) not hydrated: live=%v error=%q static notice shown=%v disabled buttons=%d",
						w.ID, w.Name, w.Live, w.Error, w.Static, w.Disabled)
				}
				c, page := w.calc(t)
				expectWidget(t, ctx, w, c, page, loc)
			}
		})
	}
}

// TestWidgetsReact changes one control of every widget on every page:
// the outputs and the prose citations show the calculator's own values
// and the URL holds each widget's state under its id; a new tab opened on
// that one URL shows the same controls and values for every widget; the
// language links keep the query; "reset" returns each widget to the
// page's values and its state leaves the URL.
func TestWidgetsReact(t *testing.T) {
	changedCites := 0
	for _, p := range widgetPages(t) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			before, err := cites(ctx)
			if err != nil {
				t.Fatal(err)
			}
			edits := make([]Edit, len(ws))
			for i, w := range ws {
				c, page := w.calc(t)
				e, err := PlanEdit(c, page)
				if err != nil {
					t.Fatal(err)
				}
				edits[i] = e
				setValue(t, ctx, w.ID, e.Param, e.Value)
				expectWidget(t, ctx, w, c, e.Values, loc)
				// the output just written holds its players' controls and
				// copy buttons as elements (the playground makes them:
				// site/widget writes them as text, noscript[data-fields])
				type made struct{ Text, Snippets, Copies int }
				if m := eval[made](t, ctx, fmt.Sprintf(`(() => { const w = document.getElementById(%q);
					return {Text: w.querySelectorAll('noscript[data-fields]').length, Snippets: w.querySelectorAll('pre[data-snippet]').length, Copies: w.querySelectorAll('button[data-copy]').length}; })()`, w.ID)); m.Text != 0 || m.Copies != m.Snippets {
					t.Errorf("%s: after a recompute %d noscript[data-fields] hold controls as text (want 0); %d copy buttons for %d snippets", w.ID, m.Text, m.Copies, m.Snippets)
				}
				canon, _ := c.Parse(e.Values)
				key := url.QueryEscape(w.ID+"."+e.Param) + "=" + url.QueryEscape(url.Values(canon.Query()).Get(e.Param))
				waitJS(t, ctx, "the URL state "+key, fmt.Sprintf(`location.search.includes(%q)`, key))
			}
			after, err := cites(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for i := range before {
				if i < len(after) && before[i].Value != after[i].Value {
					changedCites++
				}
			}
			search := eval[string](t, ctx, "location.search")
			links := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('a[hreflang]')).map(a => a.getAttribute('href'))`)
			for _, l := range links {
				if !strings.HasSuffix(strings.SplitN(l, "#", 2)[0], search) {
					t.Errorf("language link %q does not keep the state %q", l, search)
				}
			}

			// the shared URL, in a new tab: every widget at once
			t.Run("shared-url", func(t *testing.T) {
				ctx2 := tab(t)
				open(t, ctx2, p, strings.TrimPrefix(search, "?"))
				for i, w := range ws {
					e := edits[i]
					c, _ := w.calc(t)
					if got := eval[string](t, ctx2, controlValue(w.ID, e.Param)); got != e.Value {
						t.Errorf("%s.%s in the shared page = %q, want %q", w.ID, e.Param, got, e.Value)
					}
					expectWidget(t, ctx2, w, c, e.Values, loc)
				}
			})

			for i, w := range ws {
				c, page := w.calc(t)
				clickSeen(t, ctx, fmt.Sprintf(`[id=%q] button[data-action="reset"]`, w.ID))
				expectWidget(t, ctx, w, c, page, loc)
				waitJS(t, ctx, "the state of "+w.ID+" to leave the URL", fmt.Sprintf(`!/[?&]%s\./.test(location.search)`, w.ID))
				if got := eval[string](t, ctx, controlValue(w.ID, edits[i].Param)); got != page.Get(edits[i].Param) {
					t.Errorf("%s.%s after reset = %q, want the page's %q", w.ID, edits[i].Param, got, page.Get(edits[i].Param))
				}
			}
			if s := eval[string](t, ctx, "location.search"); s != "" {
				t.Errorf("every widget reset, the URL still has %q", s)
			}
		})
	}
	if changedCites == 0 {
		t.Error("no citation in the prose changed when its widget changed")
	}
	t.Logf("%d citations followed their widgets", changedCites)
}
