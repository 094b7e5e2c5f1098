//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// firstPages returns, for each language, the first article page (else
// embed page) that holds widgets and whose HTML passes ok; what names
// the condition in the failure when no page does.
func firstPages(t *testing.T, what string, ok func(html string) bool) []Page {
	t.Helper()
	seen := map[string]bool{}
	var out []Page
	for _, embed := range []bool{false, true} { // article pages first
		for _, p := range widgetPages(t) {
			if seen[p.Lang] || strings.Contains(p.Path, "/embed/") != embed {
				continue
			}
			if b, _ := os.ReadFile(p.File); ok(string(b)) {
				seen[p.Lang] = true
				out = append(out, p)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no page holds %s", what)
	}
	return out
}

// openWidgets opens the page in the tab (waiting for the playground)
// and reads the locale it embeds and its widgets.
func openWidgets(t *testing.T, ctx context.Context, p Page, query string) (locale.Locale, []widgetInfo) {
	t.Helper()
	open(t, ctx, p, query)
	loc := pageLocale(t, ctx, p)
	ws, err := widgets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return loc, ws
}

// changeOne types into one control of the widget the edit PlanEdit
// plans from the page's values; it returns the calculator, the page's
// values and the edit.
func changeOne(t *testing.T, ctx context.Context, w widgetInfo) (*calc.Calculator, url.Values, Edit) {
	t.Helper()
	c, page := w.calc(t)
	e, err := PlanEdit(c, page)
	if err != nil {
		t.Fatal(err)
	}
	setValue(t, ctx, w.ID, e.Param, e.Value)
	return c, page, e
}

// editWidget changes one control of the widget (changeOne) and waits
// until it shows the calculator's result for the new values.
func editWidget(t *testing.T, ctx context.Context, w widgetInfo, loc locale.Locale) Edit {
	t.Helper()
	c, _, e := changeOne(t, ctx, w)
	expectWidget(t, ctx, w, c, e.Values, loc)
	return e
}

// expectPanic changes one control of the victim, on a page opened with
// ?debug-panic=ID of it: the widget reports the panic in its own error
// slot, in the page's language (widget.error.internal), and keeps its
// last good result. It returns the victim's page values, the edit and
// the JavaScript expression of the slot.
func expectPanic(t *testing.T, ctx context.Context, p Page, loc locale.Locale, victim widgetInfo) (url.Values, Edit, string) {
	t.Helper()
	c, page, e := changeOne(t, ctx, victim)
	slot := fmt.Sprintf(`document.querySelector('[id=%q] [data-error-for=""]')`, victim.ID)
	waitJS(t, ctx, victim.ID+" reports the panic", fmt.Sprintf(`!%s.hidden && %s.textContent.length > 0`, slot, slot))
	msg := eval[string](t, ctx, slot+".textContent")
	if want, ok := loc.Lookup("widget.error.internal"); ok && msg != want {
		t.Errorf("panic message %q, want the page's %q", msg, want)
	} else if !ok {
		t.Errorf("the %s strings have no widget.error.internal: the panic message %q is not localized", p.Lang, msg)
	}
	expectKept(t, ctx, victim, c, page, loc) // the last good result stays
	return page, e, slot
}

// pickDispatch returns the first dispatch widget and the first widget
// that is neither dispatch nor one of notOther.
func pickDispatch(t *testing.T, ws []widgetInfo, notOther ...string) (disp, other widgetInfo) {
	t.Helper()
	for _, w := range ws {
		if w.Name == "dispatch" {
			if disp.ID == "" {
				disp = w
			}
			continue
		}
		skip := false
		for _, n := range notOther {
			skip = skip || w.Name == n
		}
		if !skip && other.ID == "" {
			other = w
		}
	}
	if disp.ID == "" || other.ID == "" {
		t.Fatalf("no dispatch widget (%q) or no other widget (%q) in the page", disp.ID, other.ID)
	}
	return disp, other
}
