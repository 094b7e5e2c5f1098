//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"retrylab/core/calc"
)

// Controls that fit their values (site/widget/controls.go, player.js):
// a logarithmic slider, a segmented control, a stepper per item. Each test
// drives the control as a reader does (keys, a pointer), and checks the
// named control's canonical text, the result as the calculator computes
// it and the URL state, then opens the page from that URL.

type found struct {
	ID    string `json:"id"`
	Param string `json:"param"`
}

// locate runs in the page: the first visible element matching sel inside
// a widget, its widget's id and the parameter named by attr.
func locateJS(sel, attr string) string {
	return fmt.Sprintf(`(() => { for (const el of document.querySelectorAll(%q)) {
		if (!el.checkVisibility()) continue;
		const w = el.closest('[data-widget]'); if (!w || !w.hasAttribute('data-live')) continue;
		return {id: w.id, param: el.getAttribute(%q)}; } return null })()`, sel, attr)
}

func widgetByID(t *testing.T, ws []widgetInfo, id string) widgetInfo {
	t.Helper()
	for _, w := range ws {
		if w.ID == id {
			return w
		}
	}
	t.Fatalf("no widget %s", id)
	return widgetInfo{}
}

// urlHas is the predicate "the URL's state of widget id has param=value".
func urlHas(id, param, value string) string {
	return fmt.Sprintf(`new URLSearchParams(location.search).get(%q) === %q`, id+"."+param, value)
}

// TestLogSlider: a wide range's slider stops at round values; the arrow
// key moves it one stop, a press at its right end moves it to the top;
// the field, the result and the URL follow; the URL reopens it there.
func TestLogSlider(t *testing.T) {
	p := pagesWith(t, `data-log-for=`)[0]
	ctx := tab(t)
	loc, ws := openWidgets(t, ctx, p, "")
	f, err := chromedp.Run(ctx, chromedp.Evaluate[*found](locateJS(`input[data-log-for]`, "data-log-for")))
	if err != nil || f == nil {
		t.Fatalf("%s: no visible logarithmic slider (%v)", p.Path, err)
	}
	w := widgetByID(t, ws, f.ID)
	c, page := w.calc(t)
	sel := fmt.Sprintf(`[id=%q] input[data-log-for=%q]`, f.ID, f.Param)
	ladder := strings.Split(eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q).getAttribute('data-ladder')`, sel)), ",")
	at := eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q).value`, sel))
	i, _ := strconv.Atoi(at)
	if got := eval[string](t, ctx, controlValue(f.ID, f.Param)); ladder[i] != got {
		t.Errorf("slider at stop %d (%s), field %s", i, ladder[i], got)
	}
	// one key press: the next round value
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(sel)), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	next := ladder[i+1]
	waitJS(t, ctx, "the field to take the next stop", fmt.Sprintf(`%s === %q`, controlValue(f.ID, f.Param), next))
	values := cloneValues(page)
	values.Set(f.Param, next)
	expectWidget(t, ctx, w, c, values, loc)
	waitJS(t, ctx, "the URL state", urlHas(f.ID, f.Param, next))
	if vt := eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q).getAttribute('aria-valuetext')`, sel)); !strings.HasPrefix(vt, loc.Number(mustParse(t, next))) {
		t.Errorf("aria-valuetext %q, want %s", vt, loc.Number(mustParse(t, next)))
	}
	// a pointer at the right end of the track: the top of the range
	type box struct{ X, Y, W, H float64 }
	b := eval[box](t, ctx, fmt.Sprintf(`((r) => ({X: r.x, Y: r.y, W: r.width, H: r.height}))(document.querySelector(%q).getBoundingClientRect())`, sel))
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(b.X+b.W-1, b.Y+b.H/2)); err != nil {
		t.Fatal(err)
	}
	top := ladder[len(ladder)-1]
	values.Set(f.Param, top)
	if _, err := c.Compute(values); err == nil {
		waitJS(t, ctx, "the field to take the top", fmt.Sprintf(`%s === %q`, controlValue(f.ID, f.Param), top))
		expectWidget(t, ctx, w, c, values, loc)
	}
	// typing a value between two stops: the slider goes to the nearest
	setValue(t, ctx, f.ID, f.Param, page.Get(f.Param))
	waitJS(t, ctx, "the slider to follow the field", fmt.Sprintf(`document.querySelector(%q).value === %q`, sel, at))
	// the URL opens the widget there, off the round values too
	mid := strconv.Itoa(int(mustParse(t, ladder[i+1])+mustParse(t, ladder[i+2])) / 2)
	if c.Param(f.Param).Kind == calc.Float || mustParse(t, mid) != float64(int(mustParse(t, mid))) {
		mid = ladder[i+2]
	}
	ctx = tab(t)
	loc, ws = openWidgets(t, ctx, p, url.QueryEscape(f.ID+"."+f.Param)+"="+mid)
	w = widgetByID(t, ws, f.ID)
	values = cloneValues(page)
	values.Set(f.Param, mid)
	expectWidget(t, ctx, w, c, values, loc)
	if got := eval[string](t, ctx, controlValue(f.ID, f.Param)); got != mid {
		t.Errorf("field %q after the URL, want %q", got, mid)
	}
	waitJS(t, ctx, "the slider at the stop nearest the URL's value", fmt.Sprintf(`((s) => { const l = s.getAttribute('data-ladder').split(',').map(Number), v = %s;
		const d = (x) => Math.abs(Math.log(x / v)); return l.every((x) => d(x) >= d(l[+s.value])) })(document.querySelector(%q))`, mid, sel))
}

func mustParse(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSegmented: a choice among a few values is a row of radios, one
// per choice with its localized label (in the three languages), each a
// 44×44 px target; the arrow key checks the next one as in any radio
// group; the hidden control, the result and the URL follow; the URL
// reopens it there.
func TestSegmented(t *testing.T) {
	for _, p := range pagesWith(t, `data-segments-value`) {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := tab(t)
			loc, ws := openWidgets(t, ctx, p, "")
			f, err := chromedp.Run(ctx, chromedp.Evaluate[*found](locateJS(`.widget-segments input[type="radio"]`, "name")))
			if err != nil || f == nil {
				t.Fatalf("%s: no visible segmented control (%v)", p.Path, err)
			}
			w := widgetByID(t, ws, f.ID)
			c, page := w.calc(t)
			prm := c.Param(f.Param)
			type seg struct {
				Value, Label string
				Checked      bool
				W, H         float64
			}
			segs := eval[[]seg](t, ctx, fmt.Sprintf(`Array.from(document.querySelectorAll('[id=%q] input[type="radio"][name=%q]')).map((r) => {
				const l = r.closest('label'), b = l.getBoundingClientRect();
				return {Value: r.value, Label: l.textContent, Checked: r.checked, W: b.width, H: b.height} })`, f.ID, f.Param))
			if len(segs) != len(prm.Choices) {
				t.Fatalf("%d segments, %d choices", len(segs), len(prm.Choices))
			}
			cur := -1
			for i, s := range segs {
				want := loc.TOr(c.LabelKey(prm.Name)+".choice."+prm.Choices[i], prm.Choices[i])
				if s.Value != prm.Choices[i] || s.Label != want {
					t.Errorf("segment %d: %q %q, want %q %q", i, s.Value, s.Label, prm.Choices[i], want)
				}
				if s.W < 44 || s.H < 44 {
					t.Errorf("segment %q is %.0f×%.0f px", s.Value, s.W, s.H)
				}
				if s.Checked {
					cur = i
				}
			}
			if cur < 0 || segs[cur].Value != page.Get(f.Param) && !(page.Get(f.Param) == "" && cur == 0) {
				t.Fatalf("checked %d, page value %q", cur, page.Get(f.Param))
			}
			radio := fmt.Sprintf(`[id=%q] input[type="radio"][name=%q][value=%q]`, f.ID, f.Param, segs[cur].Value)
			if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(radio)), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
				t.Fatal(err)
			}
			next := segs[(cur+1)%len(segs)].Value
			waitJS(t, ctx, "the control to take the next choice", fmt.Sprintf(`%s === %q`, controlValue(f.ID, f.Param), next))
			values := cloneValues(page)
			values.Set(f.Param, next)
			expectWidget(t, ctx, w, c, values, loc)
			waitJS(t, ctx, "the URL state", urlHas(f.ID, f.Param, next))
			// the URL reopens it
			ctx = tab(t)
			loc, ws = openWidgets(t, ctx, p, url.QueryEscape(f.ID+"."+f.Param)+"="+next)
			expectWidget(t, ctx, widgetByID(t, ws, f.ID), c, values, loc)
			waitJS(t, ctx, "the radio of the URL's choice", fmt.Sprintf(`document.querySelector('[id=%q] input[type="radio"][name=%q][value=%q]').checked`, f.ID, f.Param, next))
		})
	}
}

// TestStepper: a list is a stepper per item: + on the first item, add
// an item, remove it; the text field (hidden) keeps the canonical list,
// the result and the URL follow; the URL reopens it with its items.
func TestStepper(t *testing.T) {
	var p Page
	for _, q := range pagesWith(t, `data-stepper-for=`) {
		if q.Lang == "es" {
			p = q
		}
	}
	if p.Path == "" {
		t.Fatal("no Spanish page with a stepper")
	}
	ctx := tab(t)
	loc, ws := openWidgets(t, ctx, p, "")
	f, err := chromedp.Run(ctx, chromedp.Evaluate[*found](locateJS(`[data-widget="amplification"] [data-stepper-for]`, "data-stepper-for")))
	if err != nil || f == nil {
		t.Fatalf("%s: no visible stepper (%v)", p.Path, err)
	}
	w := widgetByID(t, ws, f.ID)
	c, page := w.calc(t)
	box := fmt.Sprintf(`[id=%q] [data-stepper-for=%q]`, f.ID, f.Param)
	if eval[bool](t, ctx, fmt.Sprintf(`document.querySelector('[id=%q] [name=%q]').checkVisibility()`, f.ID, f.Param)) {
		t.Error("the comma-separated field is still shown beside the stepper")
	}
	items := func() []string {
		return eval[[]string](t, ctx, fmt.Sprintf(`Array.from(document.querySelectorAll('%s input[data-role="item"]')).map((i) => i.value.replace(',', '.'))`, box))
	}
	list := strings.Split(page.Get(f.Param), ",")
	if got := items(); strings.Join(got, ",") != strings.Join(list, ",") {
		t.Fatalf("items %v, page %v", got, list)
	}
	prm := c.Param(f.Param)
	step := prm.Step
	if step == 0 {
		step = 1
	}
	click := func(role, i string) {
		t.Helper()
		sel := box + ` button[data-role="` + role + `"]`
		if i != "" {
			sel += `[data-i="` + i + `"]`
		}
		clickSeen(t, ctx, sel)
	}
	check := func(want []string) {
		t.Helper()
		text := strings.Join(want, ",")
		waitJS(t, ctx, "the field to hold "+text, fmt.Sprintf(`%s === %q`, controlValue(f.ID, f.Param), text))
		values := cloneValues(page)
		values.Set(f.Param, text)
		expectWidget(t, ctx, w, c, values, loc)
		waitJS(t, ctx, "the URL state", urlHas(f.ID, f.Param, text))
		if got := items(); strings.Join(got, ",") != text {
			t.Errorf("items %v, want %s", got, text)
		}
	}
	first := mustParse(t, list[0])
	list[0] = calc.FormatFloat(first + step)
	click("inc", "0")
	check(list)
	list = append(list, list[len(list)-1])
	click("add", "")
	check(list)
	list = list[:len(list)-1]
	click("remove", "")
	check(list)
	// the item's label is the parameter's, localized
	want := strings.Replace(loc.TOr(c.LabelKey(prm.Name)+".item", loc.T("widget.item")), "{i}", "1", 1)
	if got := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('%s input[data-role="item"]').getAttribute('aria-label')`, box)); got != want {
		t.Errorf("first item labelled %q, want %q", got, want)
	}
	// the URL reopens it
	text := strings.Join(list[:1], ",")
	ctx = tab(t)
	loc, ws = openWidgets(t, ctx, p, url.QueryEscape(f.ID+"."+f.Param)+"="+url.QueryEscape(text))
	values := cloneValues(page)
	values.Set(f.Param, text)
	expectWidget(t, ctx, widgetByID(t, ws, f.ID), c, values, loc)
	waitJS(t, ctx, "the stepper to show the URL's list", fmt.Sprintf(`Array.from(document.querySelectorAll('%s input[data-role="item"]')).map((i) => i.value.replace(',', '.')).join(',') === %q`, box, text))
}
