//go:build js && wasm

package main

import (
	"net/url"
	"strings"

	"retrylab/calc"
	"retrylab/wasm/playground/internal/dom"
)

// citation is one <output data-cite="ID.FIELD" data-format="FORMAT"> of
// the prose.
type citation struct {
	el            dom.Element
	field, format string
}

// widget is one hydrated [data-widget] of the page.
type widget struct {
	app   *app
	id    string
	calc  *calc.Calculator
	root  dom.Element
	form  dom.Element
	out   dom.Element // div[data-output]
	views []string
	cites []citation // output[data-cite^="ID."] anywhere in the page

	page      url.Values // the page's values (data-defaults + declared defaults)
	pageCanon url.Values // their canonical text
	urlDiff   url.Values // the state written into the URL: last good values minus the page's

	controls map[string]dom.Element // parameter → the control holding its value
	sliders  map[string]dom.Element // parameter → its range input
	erring   bool                   // an error is shown

	dirty      bool // an input is waiting for the next animation frame
	forcePanic bool // test hook: every recompute panics (?debug-panic=ID)
}

// control returns the form control that holds parameter name (Ok false
// when the form has none).
func (w *widget) control(name string) dom.Element { return w.controls[name] }

// slider returns the range input mirroring parameter name (Ok false when
// there is none).
func (w *widget) slider(name string) dom.Element { return w.sliders[name] }

// readControls returns the values the form holds: the text of each
// parameter's control; an empty optional parameter is absent.
func (w *widget) readControls() url.Values {
	v := url.Values{}
	for _, p := range w.calc.Params {
		el := w.control(p.Name)
		if !el.Ok() {
			if pv, ok := w.page[p.Name]; ok {
				v[p.Name] = pv // a parameter the form does not show keeps the page's value
			}
			continue
		}
		var text string
		if p.Kind == calc.Bool {
			if el.Get("checked").Bool() {
				text = "true"
			} else {
				text = "false"
			}
		} else {
			text = el.Prop("value")
		}
		if strings.TrimSpace(text) == "" && p.Optional {
			continue
		}
		v.Set(p.Name, text)
	}
	return v
}

// writeControls sets every control (and its slider) to values; an absent
// parameter leaves its control empty.
func (w *widget) writeControls(values url.Values) {
	for _, p := range w.calc.Params {
		el := w.control(p.Name)
		if !el.Ok() {
			continue
		}
		text := values.Get(p.Name)
		if p.Kind == calc.Bool {
			el.Set("checked", boolText(text))
			continue
		}
		el.Set("value", text)
		if s := w.slider(p.Name); s.Ok() && text != "" {
			s.Set("value", text)
		}
	}
}

// onInput handles an input event inside the form: mirror a slider and its
// field, then ask for a recompute at the next animation frame.
func (w *widget) onInput(target dom.Element) {
	if !target.Ok() {
		return
	}
	if name := target.Attr("data-slider-for"); name != "" {
		if el := w.control(name); el.Ok() {
			el.Set("value", target.Get("value"))
		}
	} else if name := target.Attr("name"); name != "" {
		if s := w.slider(name); s.Ok() {
			if v := target.Prop("value"); v != "" {
				s.Set("value", v) // the range input clamps
			}
		}
	}
	w.app.schedule(w)
}

// recompute reads the form, computes and renders. It reports whether a new
// result is shown. A panic anywhere in it is recovered and reported in this
// widget only.
func (w *widget) recompute() (ok bool) {
	w.dirty = false
	return w.compute(w.readControls(), true)
}

// compute parses values, runs the calculator and renders the output and
// the citations. On bad input it shows the localized message beside the
// field and keeps the last good result. record says whether the values
// become the URL state.
func (w *widget) compute(values url.Values, record bool) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false
			w.showPanic(r)
		}
	}()
	if w.forcePanic {
		panic("retrylab: panic forced by ?debug-panic=" + w.id)
	}
	a, canon, err := canonical(w.calc, values)
	if err != nil {
		w.showError(err)
		return false
	}
	raw, err := w.calc.Run(a)
	if err != nil {
		w.showError(err)
		return false
	}
	res, err := decode(raw)
	if err != nil {
		panic(err) // a result that does not encode is a bug of the calculator
	}
	w.app.lap(0)
	html, err := renderOutput(w.calc, a, res, w.views, w.app.locale())
	if err != nil {
		w.showError(err)
		return false
	}
	w.app.lap(1)
	w.out.SetHTML(html)
	for _, c := range w.cites {
		text, value, err := cite(res, c.field, c.format, w.app.locale())
		if err != nil {
			continue // the build checked every citation; a field missing from this result keeps its text
		}
		c.el.SetText(text)
		c.el.SetAttr("data-value", value)
	}
	w.clearErrors()
	if record {
		w.urlDiff = diff(w.calc, w.pageCanon, canon)
	}
	return true
}

// clearErrors hides every error slot and the invalid marks.
func (w *widget) clearErrors() {
	if !w.erring {
		return
	}
	w.erring = false
	for _, el := range w.root.QuerySelectorAll("[data-error-for]") {
		el.SetAttr("hidden", "")
		el.SetText("")
	}
	for _, el := range w.form.QuerySelectorAll(`[aria-invalid]`) {
		el.RemoveAttr("aria-invalid")
	}
	w.root.RemoveAttr("data-error")
	w.root.RemoveAttr("data-error-detail")
}

// showError writes err's localized message beside its field (or in the
// form's slot) and marks the control invalid.
func (w *widget) showError(err error) {
	w.clearErrors()
	ce, ok := err.(*calc.Error)
	if !ok {
		// a calculator returns *calc.Error for every refusal; anything else
		// is a bug, reported as such.
		w.showPanic(err)
		return
	}
	w.showMessage(ce.Param, w.app.locale().Error(ce, w.calc))
	w.root.SetAttr("data-error", "invalid")
}

// showPanic reports a recovered panic in this widget: the localized
// message in the form's slot, and the panic's own text in the root's
// data-error-detail for a bug report (nothing goes to the console).
func (w *widget) showPanic(r any) {
	defer func() { recover() }() // the DOM itself failing must not end the program
	w.clearErrors()
	w.root.SetAttr("data-error-detail", panicText(r))
	w.showMessage("", w.app.locale().TOr("widget.error.internal", "This experiment stopped because of an internal error; the other experiments keep working. Reload the page to try again."))
	w.root.SetAttr("data-error", "internal")
}

func (w *widget) showMessage(param, msg string) {
	w.erring = true
	slot := w.root.QuerySelector(`[data-error-for="` + param + `"]`)
	if param != "" {
		if !slot.Ok() {
			slot = w.root.QuerySelector(`[data-error-for=""]`)
		} else if el := w.control(param); el.Ok() {
			el.SetAttr("aria-invalid", "true")
		}
	}
	if !slot.Ok() {
		return
	}
	slot.SetText(msg)
	slot.RemoveAttr("hidden")
}

// apply sets the widget to the page's values with the URL's overlay,
// writes them into the form and recomputes without touching history.
// Without URL state and with the form already at the page's values the
// pre-rendered output stays (it is exactly what the computation gives).
func (w *widget) apply(q url.Values, initial bool) {
	over := widgetQuery(q, w.id)
	values := overlay(w.page, over)
	if initial && len(over) == 0 {
		w.urlDiff = url.Values{}
		return
	}
	w.writeControls(values)
	if w.compute(values, true) {
		return
	}
	if len(over) > 0 {
		// the URL's state was refused: it stays in the form with its message,
		// and the URL keeps it so that the reader can correct it.
		w.urlDiff = over
	}
}

// reset returns to the page's values.
func (w *widget) reset() {
	w.writeControls(w.page)
	if w.compute(w.page, true) {
		w.app.commit()
	}
}

// reseed writes a fresh random seed and recomputes.
func (w *widget) reseed() {
	el := w.control("seed")
	if !el.Ok() {
		return
	}
	el.Set("value", randomSeed())
	if w.recompute() {
		w.app.commit()
	}
}

// hydrate wires the widget's form and buttons.
func (w *widget) hydrate() {
	w.form.On("input", func(ev dom.Event) {
		w.app.guard(w, func() { w.onInput(ev.Target()) })
	})
	w.form.On("change", func(ev dom.Event) {
		w.app.guard(w, func() {
			w.onInput(ev.Target())
			if w.recompute() {
				w.app.commit()
			}
		})
	})
	w.form.On("submit", func(ev dom.Event) {
		ev.PreventDefault()
		w.app.guard(w, func() {
			if w.recompute() {
				w.app.commit()
			}
		})
	})
	for _, b := range w.root.QuerySelectorAll("button[data-action]") {
		action := b.Attr("data-action")
		b.On("click", func(ev dom.Event) {
			ev.PreventDefault()
			w.app.guard(w, func() {
				switch action {
				case "reset":
					w.reset()
				case "reseed":
					w.reseed()
				}
			})
		})
		b.RemoveAttr("disabled")
	}
	for _, el := range w.root.QuerySelectorAll("[data-static]") {
		el.SetAttr("hidden", "")
	}
	w.root.SetAttr("data-live", "")
}

// newWidget reads a [data-widget] root. It returns nil and the reason when
// the root does not follow docs/dom.md.
func newWidget(a *app, root dom.Element, reg *calc.Registry) (*widget, string) {
	name := root.Attr("data-widget")
	c, ok := reg.Lookup(name)
	if !ok {
		return nil, "unknown calculator " + name
	}
	w := &widget{app: a, id: root.Prop("id"), calc: c, root: root, urlDiff: url.Values{}}
	if w.id == "" {
		return nil, "widget without id"
	}
	w.form = root.QuerySelector("form[data-form]")
	w.out = root.QuerySelector("[data-output]")
	if !w.form.Ok() || !w.out.Ok() {
		return nil, "widget without form or output"
	}
	w.controls, w.sliders = map[string]dom.Element{}, map[string]dom.Element{}
	for _, p := range c.Params {
		if el := w.form.QuerySelector(`[name="` + p.Name + `"]`); el.Ok() {
			w.controls[p.Name] = el
		}
		if el := w.form.QuerySelector(`input[data-slider-for="` + p.Name + `"]`); el.Ok() {
			w.sliders[p.Name] = el
		}
	}
	if v := root.Attr("data-views"); v != "" {
		w.views = strings.Split(v, ",")
	}
	defaults, err := url.ParseQuery(root.Attr("data-defaults"))
	if err != nil {
		return nil, "bad data-defaults"
	}
	w.page = pageValues(c, defaults)
	_, w.pageCanon, err = canonical(c, w.page)
	if err != nil {
		return nil, "the page's values are refused: " + err.Error()
	}
	for _, el := range dom.Document().QuerySelectorAll(`output[data-cite^="` + w.id + `."]`) {
		w.cites = append(w.cites, citation{el: el,
			field:  strings.TrimPrefix(el.Attr("data-cite"), w.id+"."),
			format: el.Attr("data-format")})
	}
	return w, ""
}

// panicText is the text of a recovered value.
func panicText(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	case interface{ String() string }:
		return v.String()
	}
	return "panic"
}
