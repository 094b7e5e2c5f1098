//go:build js && wasm

package main

import (
	"net/url"
	"strings"

	"honnef.co/go/js/dom/v2"

	"retrylab/calc"
)

// widget is one hydrated [data-widget] of the page.
type widget struct {
	app   *app
	id    string
	calc  *calc.Calculator
	root  dom.Element
	form  dom.Element
	out   dom.Element // div[data-output]
	views []string
	cites []dom.Element // output[data-cite^="ID."] anywhere in the page

	page      url.Values // the page's values (data-defaults + declared defaults)
	pageCanon url.Values // their canonical text
	urlDiff   url.Values // the state written into the URL: last good values minus the page's

	dirty      bool // an input is waiting for the next animation frame
	forcePanic bool // test hook: every recompute panics (?debug-panic=ID)
}

// control returns the form control that holds parameter name.
func (w *widget) control(name string) dom.Element {
	return w.form.QuerySelector(`[name="` + name + `"]`)
}

// slider returns the range input mirroring parameter name, or nil.
func (w *widget) slider(name string) dom.Element {
	return w.form.QuerySelector(`input[data-slider-for="` + name + `"]`)
}

// readControls returns the values the form holds: the text of each
// parameter's control; an empty optional parameter is absent.
func (w *widget) readControls() url.Values {
	v := url.Values{}
	for _, p := range w.calc.Params {
		el := w.control(p.Name)
		if el == nil {
			if pv, ok := w.page[p.Name]; ok {
				v[p.Name] = pv // a parameter the form does not show keeps the page's value
			}
			continue
		}
		var text string
		if p.Kind == calc.Bool {
			if el.Underlying().Get("checked").Bool() {
				text = "true"
			} else {
				text = "false"
			}
		} else {
			text = el.Underlying().Get("value").String()
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
		if el == nil {
			continue
		}
		text := values.Get(p.Name)
		if p.Kind == calc.Bool {
			el.Underlying().Set("checked", boolText(text))
			continue
		}
		el.Underlying().Set("value", text)
		if s := w.slider(p.Name); s != nil && text != "" {
			s.Underlying().Set("value", text)
		}
	}
}

// onInput handles an input event inside the form: mirror a slider and its
// field, then ask for a recompute at the next animation frame.
func (w *widget) onInput(target dom.Element) {
	if target == nil {
		return
	}
	if name := target.GetAttribute("data-slider-for"); name != "" {
		if el := w.control(name); el != nil {
			el.Underlying().Set("value", target.Underlying().Get("value"))
		}
	} else if name := target.GetAttribute("name"); name != "" {
		if s := w.slider(name); s != nil {
			if v := target.Underlying().Get("value").String(); v != "" {
				s.Underlying().Set("value", v) // the range input clamps
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
	res, err := w.calc.Run(a)
	if err != nil {
		w.showError(err)
		return false
	}
	w.app.lap(0)
	html, err := renderOutput(w.calc, a, res, w.views, w.app.loc)
	if err != nil {
		w.showError(err)
		return false
	}
	w.app.lap(1)
	w.out.SetInnerHTML(html)
	for _, c := range w.cites {
		field := strings.TrimPrefix(c.GetAttribute("data-cite"), w.id+".")
		text, value, err := cite(res, field, c.GetAttribute("data-format"), w.app.loc)
		if err != nil {
			continue // the build checked every citation; a field missing from this result keeps its text
		}
		c.SetTextContent(text)
		c.SetAttribute("data-value", value)
	}
	w.clearErrors()
	if record {
		w.urlDiff = diff(w.calc, w.pageCanon, canon)
	}
	return true
}

// clearErrors hides every error slot and the invalid marks.
func (w *widget) clearErrors() {
	for _, el := range w.root.QuerySelectorAll("[data-error-for]") {
		el.SetAttribute("hidden", "")
		el.SetTextContent("")
	}
	for _, el := range w.form.QuerySelectorAll(`[aria-invalid]`) {
		el.RemoveAttribute("aria-invalid")
	}
	w.root.RemoveAttribute("data-error")
	w.root.RemoveAttribute("data-error-detail")
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
	w.showMessage(ce.Param, w.app.loc.Error(ce, w.calc))
	w.root.SetAttribute("data-error", "invalid")
}

// showPanic reports a recovered panic in this widget: the localized
// message in the form's slot, and the panic's own text in the root's
// data-error-detail for a bug report (nothing goes to the console).
func (w *widget) showPanic(r any) {
	defer func() { recover() }() // the DOM itself failing must not end the program
	w.clearErrors()
	w.root.SetAttribute("data-error-detail", panicText(r))
	w.showMessage("", w.app.loc.TOr("widget.error.internal", "This experiment stopped because of an internal error; the other experiments keep working. Reload the page to try again."))
	w.root.SetAttribute("data-error", "internal")
}

func (w *widget) showMessage(param, msg string) {
	slot := w.root.QuerySelector(`[data-error-for="` + param + `"]`)
	if param != "" {
		if slot == nil {
			slot = w.root.QuerySelector(`[data-error-for=""]`)
		} else if el := w.control(param); el != nil {
			el.SetAttribute("aria-invalid", "true")
		}
	}
	if slot == nil {
		return
	}
	slot.SetTextContent(msg)
	slot.RemoveAttribute("hidden")
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
	if el == nil {
		return
	}
	el.Underlying().Set("value", randomSeed())
	if w.recompute() {
		w.app.commit()
	}
}

// hydrate wires the widget's form and buttons.
func (w *widget) hydrate() {
	w.form.AddEventListener("input", false, func(ev dom.Event) {
		w.app.guard(w, func() { w.onInput(ev.Target()) })
	})
	w.form.AddEventListener("change", false, func(ev dom.Event) {
		w.app.guard(w, func() {
			w.onInput(ev.Target())
			if w.recompute() {
				w.app.commit()
			}
		})
	})
	w.form.AddEventListener("submit", false, func(ev dom.Event) {
		ev.PreventDefault()
		w.app.guard(w, func() {
			if w.recompute() {
				w.app.commit()
			}
		})
	})
	for _, b := range w.root.QuerySelectorAll("button[data-action]") {
		b := b
		action := b.GetAttribute("data-action")
		b.AddEventListener("click", false, func(ev dom.Event) {
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
		b.RemoveAttribute("disabled")
	}
	for _, el := range w.root.QuerySelectorAll("[data-static]") {
		el.SetAttribute("hidden", "")
	}
	w.root.SetAttribute("data-live", "")
}

// newWidget reads a [data-widget] root. It returns nil and the reason when
// the root does not follow docs/dom.md.
func newWidget(a *app, root dom.Element, reg *calc.Registry) (*widget, string) {
	name := root.GetAttribute("data-widget")
	c, ok := reg.Lookup(name)
	if !ok {
		return nil, "unknown calculator " + name
	}
	w := &widget{app: a, id: root.ID(), calc: c, root: root, urlDiff: url.Values{}}
	if w.id == "" {
		return nil, "widget without id"
	}
	w.form = root.QuerySelector("form[data-form]")
	w.out = root.QuerySelector("[data-output]")
	if w.form == nil || w.out == nil {
		return nil, "widget without form or output"
	}
	if v := root.GetAttribute("data-views"); v != "" {
		w.views = strings.Split(v, ",")
	}
	defaults, err := url.ParseQuery(root.GetAttribute("data-defaults"))
	if err != nil {
		return nil, "bad data-defaults"
	}
	w.page = pageValues(c, defaults)
	_, w.pageCanon, err = canonical(c, w.page)
	if err != nil {
		return nil, "the page's values are refused: " + err.Error()
	}
	for _, el := range a.doc.QuerySelectorAll(`output[data-cite^="` + w.id + `."]`) {
		w.cites = append(w.cites, el)
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
