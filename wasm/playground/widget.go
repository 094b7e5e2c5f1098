//go:build js && wasm

package playground

import (
	"retrylab/core/standin"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
	render "retrylab/site/widget"
)

// citation is one <output data-cite="ID.FIELD" data-format="FORMAT"> of
// the prose.
type citation struct {
	_             standin.NoEqual // not comparable
	el            *dom.BasicHTMLElement
	field, format string
}

// widget is one hydrated [data-widget] of the page.
type widget struct {
	app   *app
	id    string
	calc  *calc.Calculator
	root  *dom.BasicHTMLElement
	form  *dom.BasicHTMLElement
	out   *dom.BasicHTMLElement // div[data-output]
	views []string
	cites []citation // output[data-cite^="ID."] anywhere in the page
	specs []citeSpec // their fields and formats

	page      query.Values // the page's values (data-defaults + declared defaults)
	pageCanon query.Values // their canonical text, at the first use (pageCanonical)
	urlDiff   query.Values // the state written into the URL: last good values minus the page's

	decimal  string                 // the page's decimal mark (form[data-decimal]): "." or ","
	controls map[string]dom.Element // parameter → the control holding its value
	sliders  map[string]dom.Element // parameter → its range input
	erring   bool                   // an error is shown

	dirty      bool // an input is waiting for the next animation frame
	forcePanic bool // test hook: every recompute panics (?debug-panic=ID)

	// Recomputes in the worker (remote): see update.
	cost     float64  // ms the last recompute took (in the worker: its compute)
	seq      int      // counts the states asked for; an answer to an older one is stale
	inflight *request // the request the worker is computing, nil when none
	sentAt   float64  // when it was sent (performance.now)
	queued   *request // the newest state, sent when the answer in flight arrives
	answer   js.Func  // receives the worker's answers (syscall/js: the loader's bridge to the worker)
	note     *dom.BasicHTMLElement

	buttons []*dom.BasicHTMLElement // button[data-action], enabled by live
}

// mode says what a new result does to history.
type mode int

const (
	modeNone    mode = iota // apply a state (load, back/forward): history stays
	modeReplace             // a control moves: the current entry follows
	modeCommit              // a change is done: a new entry
)

// request is one recompute sent to the worker.
type request struct {
	seq    int
	values query.Values
	canon  query.Values // the canonical text, for the URL state
	mode   mode
	over   query.Values // the URL's state when applying one (kept in the URL if refused)
}

// frameMS is one frame at 60 Hz: a widget whose last recompute took
// longer computes in the worker.
const frameMS = 16

// heavy are the calculators whose recompute takes more than a frame even
// at the article's values (make bench: dispatch, p95 42 ms at its
// defaults, about a second at its largest; policies, nine simulations of
// 8,400 requests at its defaults, about a second at its largest): they
// always compute in the worker. So do the simulations and the exact
// solves of article 4 (contention, retry-strategies, open-closed,
// metastable: tens of ms natively at their defaults, more in wasm).
var heavy = map[string]bool{"dispatch": true, "policies": true,
	"contention": true, "retry-strategies": true, "open-closed": true, "metastable": true}

// control returns the form control that holds parameter name (nil when
// the form has none).
func (w *widget) control(name string) dom.Element { w.readForm(); return w.controls[name] }

// slider returns the range input mirroring parameter name (nil when there
// is none).
func (w *widget) slider(name string) dom.Element { w.readForm(); return w.sliders[name] }

// readForm finds the form's controls and sliders (formControls) at their
// first use, not as the widget hydrates: a widget that keeps the page's
// values needs none of them until the reader reaches for one, and the
// start-up's queue (hydrateQueued) reads them in a task of their own
// after the hydration's, so that neither task is long (issue 33).
func (w *widget) readForm() {
	if w.controls == nil {
		w.controls, w.sliders = formControls(w.form, w.calc)
	}
}

// readControls returns the values the form holds: the text of each
// parameter's control; an empty optional parameter is absent.
func (w *widget) readControls() query.Values {
	v := query.Values{}
	for _, p := range w.calc.Params {
		el := w.control(p.Name)
		if el == nil {
			if pv, ok := w.page[p.Name]; ok {
				v[p.Name] = pv // a parameter the form does not show keeps the page's value
			}
			continue
		}
		var text string
		switch p.Kind {
		case calc.Bool:
			text = boolString(checked(el))
		case calc.Int, calc.Float:
			text = numberText(value(el), w.decimal)
		default:
			text = value(el)
		}
		if strings.TrimSpace(text) == "" && p.Optional {
			continue
		}
		v[p.Name] = []string{text}
	}
	return v
}

// writeControls sets every control (and its slider) to values; an absent
// parameter leaves its control empty.
func (w *widget) writeControls(values query.Values) {
	for _, p := range w.calc.Params {
		el := w.control(p.Name)
		if el == nil {
			continue
		}
		text := query.Get(values, p.Name)
		if p.Kind == calc.Bool {
			setChecked(el, boolText(text))
			continue
		}
		number := p.Kind == calc.Int || p.Kind == calc.Float // an <input type="number">
		if number && !validNumber(text) {
			// The browser would drop it with a warning: a number the
			// calculator reads (" 1", "+1") is shown as the browser
			// writes it, anything else as an empty field (the widget's
			// message names the text).
			t := strings.TrimSpace(text)
			if f, err := strconv.ParseFloat(t, 64); err == nil && !strings.ContainsAny(t, "xX_pP") && validNumber(calc.FormatFloat(f)) {
				text = calc.FormatFloat(f)
			} else {
				text = ""
			}
		}
		if number {
			setValue(el, w.localNumber(text))
		} else {
			setValue(el, text)
		}
		if len(p.Members) > 0 {
			w.writeChips(p.Name, text)
		}
		if s := w.slider(p.Name); s != nil {
			switch {
			case text != "" && validNumber(text):
				setValue(s, text)
			case text == "":
				// an optional parameter left out: the slider goes back to
				// where the page put it
				setValue(s, elem(s).GetAttribute("value"))
			}
		}
	}
}

// localNumber writes the calculator's text of a number with the page's decimal
// mark, as the field shows it.
func (w *widget) localNumber(s string) string {
	if w.decimal == "," {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// unfinished reports whether a number field's text is a number being
// typed rather than one to compute: a sign alone, a trailing decimal
// mark, an exponent without digits.
func unfinished(s string) bool {
	if s == "-" || s == "+" {
		return true
	}
	for _, end := range []string{".", "e", "E", "e-", "E-", "e+", "E+"} {
		if strings.HasSuffix(s, end) {
			return true
		}
	}
	return false
}

// writeChips checks the toggle chips of set name that text names.
func (w *widget) writeChips(name, text string) {
	on := map[string]bool{}
	for _, m := range strings.Split(text, ",") {
		on[strings.TrimSpace(m)] = true
	}
	for _, c := range findControls(w.form, `input[data-chip-for="`+name+`"]`) {
		setChecked(c, on[elem(c).GetAttribute("value")])
	}
}

// onInput handles an input event inside the form: mirror a slider and its
// field, then ask for a recompute at the next animation frame.
func (w *widget) onInput(target dom.Element) {
	if target == nil {
		return
	}
	t := elem(target)
	if name := t.GetAttribute("data-chip-for"); name != "" {
		// a toggle chip of a set: the hidden control takes the checked
		// members, in the chips' (the registry's) order
		if el := w.control(name); el != nil {
			var on []string
			for _, c := range findControls(w.form, `input[data-chip-for="`+name+`"]`) {
				if checked(c) {
					on = append(on, elem(c).GetAttribute("value"))
				}
			}
			setValue(el, strings.Join(on, ","))
		}
	} else if name := t.GetAttribute("data-slider-for"); name != "" {
		if el := w.control(name); el != nil {
			setValue(el, w.localNumber(value(target)))
		}
	} else if name := t.GetAttribute("name"); name != "" {
		if p := w.calc.Param(name); p != nil && (p.Kind == calc.Int || p.Kind == calc.Float) && unfinished(numberText(value(target), w.decimal)) {
			return // "0," or "-": wait for the next keystroke (change commits it)
		}
		if s := w.slider(name); s != nil {
			if v := numberText(value(target), w.decimal); v != "" {
				if validNumber(v) {
					setValue(s, v) // the range input clamps
				}
			} else {
				// an emptied field (an optional parameter left out): the
				// slider goes back to where the page put it
				setValue(s, elem(s).GetAttribute("value"))
			}
		}
	}
	w.app.schedule(w)
}

// recompute reads the form and updates the widget (see update).
func (w *widget) recompute(m mode) {
	w.dirty = false
	w.update(w.readControls(), m, nil)
}

// remote reports whether the next recompute goes to the worker: the
// calculator is heavy or the last recompute took more than a frame, and
// the page can run the worker.
func (w *widget) remote() bool {
	return w.app.worker && (heavy[w.calc.Name] || w.cost > frameMS)
}

// update recomputes the widget with values, on the main thread or in the
// worker (remote), and then writes history as m says. over is the URL's
// state when applying one: if the calculator refuses it, it stays in the
// URL so that the reader can correct it.
func (w *widget) update(values query.Values, m mode, over query.Values) {
	if w.remote() {
		w.post(values, m, over)
		return
	}
	if w.compute(values, true) {
		w.after(m)
	} else if len(over) > 0 {
		w.urlDiff = over
	}
}

// after writes history for a new result.
func (w *widget) after(m mode) {
	switch m {
	case modeReplace:
		w.app.replace(encodeSearch(w.app.state()))
	case modeCommit:
		w.app.commit()
		w.announce()
	}
}

// announce writes the first row of the results ("requests served: 89%")
// into the widget's polite live region, once per finished change.
func (w *widget) announce() {
	live := find(w.root, "[data-announce]")
	row := find(w.out, "table.widget-table tbody tr")
	if live == nil || row == nil {
		return
	}
	th, td := find(row, "th"), find(row, "td")
	if th == nil || td == nil {
		return
	}
	live.SetTextContent(strings.TrimSpace(th.TextContent()) + ": " + strings.TrimSpace(td.TextContent()))
}

// compute parses values, runs the calculator and renders the output and
// the citations, on the main thread. On bad input it shows the localized
// message beside the field and keeps the last good result. record says
// whether the values become the URL state. It reports whether a new result
// is shown. A panic anywhere in it is recovered and reported in this
// widget only.
func (w *widget) compute(values query.Values, record bool) (ok bool) {
	w.seq++ // an answer of the worker still on its way is now stale
	w.queued = nil
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
	t0 := w.app.now()
	o, err := evaluate(w.app.set, w.calc, a, w.app.memo, w.views, w.specs, w.app.locale(), w.app.lap)
	if err != nil {
		w.showError(err)
		return false
	}
	w.show(o)
	w.cost = w.app.now() - t0
	if record {
		w.urlDiff = diff(w.calc, w.pageCanonical(), canon)
	}
	return true
}

// show writes a rendered result into the output and the citations.
func (w *widget) show(o outcome) {
	w.out.SetInnerHTML(o.html)
	// a player's controls and a copy button come inside
	// <noscript data-fields>, as text (site/widget writePlayer)
	makeFields(w.out)
	for i, c := range w.cites {
		if o.ok[i] {
			c.el.SetTextContent(o.texts[i])
			c.el.SetAttribute("data-value", o.values[i])
		}
	}
	w.clearErrors()
	w.setBusy()
}

// post asks the worker for values. Bad input is refused here at once;
// one request per widget is in flight, and an input that arrives meanwhile
// waits as the newest state (an older waiting one is dropped).
func (w *widget) post(values query.Values, m mode, over query.Values) {
	w.seq++
	r := &request{seq: w.seq, values: values, mode: m, over: over}
	if !w.forcePanic {
		_, canon, err := canonical(w.calc, values)
		if err != nil {
			w.queued = nil
			w.showError(err)
			if len(over) > 0 {
				w.urlDiff = over
			}
			w.setBusy()
			return
		}
		r.canon = canon
	}
	if w.inflight != nil {
		if w.app.now()-w.sentAt > render.RestartMS && w.app.restartWorker(w.calc.Name) {
			// the answer in flight would be dropped: the worker computing
			// it was replaced by a fresh one, which takes r at once
			w.inflight, w.queued = nil, nil
			w.send(r)
			return
		}
		w.queued = r
		w.setBusy()
		return
	}
	w.send(r)
}

// restartWorker asks the loader to replace the worker
// (retrylabRestartWorker in app.js); it does so only when the request in
// flight is the only one pending, and reports whether it did. syscall/js:
// the loader's bridge to the worker. calc names the calculator, whose
// module's worker it is on a page of several modules.
func (a *app) restartWorker(calc string) bool {
	f := js.Global().Get("retrylabRestartWorker")
	return f.Type() == js.TypeFunction && f.Invoke(calc).Truthy()
}

// send hands r to the loader's worker (retrylabCompute in app.js).
// syscall/js: the loader's bridge to the worker.
func (w *widget) send(r *request) {
	req := w.request(r.values, w.forcePanic)
	if w.answer.IsUndefined() {
		w.answer = js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) > 0 {
				w.app.guard(w, func() { w.receive(args[0]) })
			}
			return nil
		})
	}
	f := js.Global().Get("retrylabCompute")
	if f.Type() != js.TypeFunction || !f.Invoke(req, w.answer).Truthy() {
		w.app.worker = false // no worker in this browser: compute here
		w.local(r)
		return
	}
	w.inflight = r
	w.sentAt = w.app.now()
	w.setBusy()
}

// request is the worker's request (wasm/playground/DOM.md) for this widget's output
// and citations at values; forcePanic asks the worker to panic in it.
// syscall/js: a message to the worker, not a DOM object.
func (w *widget) request(values query.Values, forcePanic bool) js.Value {
	return newRequest(w.calc.Name, values, w.views, w.specs, forcePanic)
}

// newRequest is the worker's request for calculator name's output in
// views and for citations specs at values.
func newRequest(name string, values query.Values, views []string, specs []citeSpec, forcePanic bool) js.Value {
	req := js.Global().Get("Object").New()
	req.Set("calc", name)
	req.Set("query", query.Encode(values))
	req.Set("views", strings.Join(views, ","))
	cites := make([]any, len(specs))
	for i, c := range specs {
		cites[i] = []any{c.field, c.format}
	}
	req.Set("cites", js.ValueOf(cites))
	req.Set("panic", forcePanic)
	return req
}

// pageRequest is the worker's request for the output of the widget at
// root, not hydrated, at the page's values (its citations left out), for
// the warm-up; false when the root does not follow DOM.md (its
// hydration will say why).
func (a *app) pageRequest(root *dom.BasicHTMLElement) (js.Value, bool) {
	c, page, views, why := declared(a.reg, root)
	if why != "" {
		return js.Value{}, false
	}
	return newRequest(c.Name, page, views, nil, false), true
}

// local computes r on the main thread (the worker could not).
func (w *widget) local(r *request) {
	w.inflight, w.queued = nil, nil
	if w.compute(r.values, true) {
		w.after(r.mode)
	} else if len(r.over) > 0 {
		w.urlDiff = r.over
	}
	w.setBusy()
}

// receive handles the worker's answer to the request in flight: a stale
// answer (a newer state was asked for meanwhile) is dropped and the newest
// state sent; a current one is shown like a local recompute. syscall/js:
// the answer is the worker's message, not a DOM object.
func (w *widget) receive(ans js.Value) {
	r := w.inflight
	w.inflight = nil
	if r == nil {
		return
	}
	if ans.Get("unavailable").Truthy() {
		// the worker could not start: this and every later recompute run here
		w.app.worker = false
		if q := w.queued; q != nil {
			r = q
		}
		if r.seq == w.seq {
			w.local(r)
		}
		w.setBusy()
		return
	}
	if r.seq != w.seq {
		if q := w.queued; q != nil {
			w.queued = nil
			w.send(q)
		}
		w.setBusy()
		return
	}
	w.cost = ans.Get("ms").Float()
	if p := ans.Get("panic"); p.Truthy() {
		w.showPanic(p.String())
		w.setBusy()
		return
	}
	if msg := ans.Get("message"); msg.Truthy() {
		w.clearErrors()
		w.showMessage(ans.Get("param").String(), msg.String())
		w.root.SetAttribute("data-error", "invalid")
		if len(r.over) > 0 {
			w.urlDiff = r.over
		}
		w.setBusy()
		return
	}
	texts, values, oks := ans.Get("texts"), ans.Get("values"), ans.Get("ok")
	o := outcome{html: ans.Get("html").String(), texts: make([]string, len(w.specs)),
		values: make([]string, len(w.specs)), ok: make([]bool, len(w.specs))}
	for i := range w.specs {
		if i < oks.Length() && oks.Index(i).Truthy() {
			o.texts[i], o.values[i], o.ok[i] = texts.Index(i).String(), values.Index(i).String(), true
		}
	}
	w.show(o)
	w.urlDiff = diff(w.calc, w.pageCanonical(), r.canon)
	w.after(r.mode)
}

// setBusy shows whether the widget waits for the worker: aria-busy on
// the output at once (the last good result stays in it), and a
// "computing…" note (widget.computing) when the answer takes longer than
// a glance, so that a quick answer does not flash it.
func (w *widget) setBusy() {
	busy := w.inflight != nil || w.queued != nil
	if !busy {
		if w.out.HasAttribute("aria-busy") {
			w.out.RemoveAttribute("aria-busy")
			w.root.RemoveAttribute("data-computing")
		}
		if w.note != nil {
			w.note.SetAttribute("hidden", "")
		}
		return
	}
	if w.out.GetAttribute("aria-busy") == "true" {
		return
	}
	w.out.SetAttribute("aria-busy", "true")
	w.root.SetAttribute("data-computing", "")
	w.app.win.SetTimeout(func() { w.app.guard(w, w.showNote) }, render.ComputingNoteDelayMS)
}

// showNote unhides the "computing…" note if the widget still waits.
func (w *widget) showNote() {
	if w.inflight == nil && w.queued == nil {
		return
	}
	if w.note == nil {
		el := newElement("p")
		el.SetAttribute("class", "widget-note")
		el.SetAttribute("data-computing-note", "")
		el.SetAttribute("role", "status")
		el.SetTextContent(w.app.locale().TOr("widget.computing", "Computing…"))
		// syscall/js: dom/v2's InsertBefore takes dom.Node interfaces and
		// calls their Underlying, which would link that method for every
		// type dom/v2 wraps (unwrap.go)
		w.out.Get("parentNode").Call("insertBefore", el.Value, w.out.Value)
		w.note = el
	}
	w.note.RemoveAttribute("hidden")
}

// clearErrors hides every error slot and the invalid marks.
func (w *widget) clearErrors() {
	if !w.erring {
		return
	}
	w.erring = false
	for _, el := range findAll(w.root, "[data-error-for]") {
		el.SetAttribute("hidden", "")
		el.SetTextContent("")
	}
	for _, el := range findAll(w.form, `[aria-invalid]`) {
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
	w.showMessage(ce.Param, w.app.locale().Error(ce, w.calc))
	w.root.SetAttribute("data-error", "invalid")
}

// showPanic reports a recovered panic in this widget: the localized
// message in the form's slot, and the panic's own text in the root's
// data-error-detail for a bug report (nothing goes to the console).
func (w *widget) showPanic(r any) {
	defer func() { recover() }() // the DOM itself failing must not end the program
	w.clearErrors()
	w.root.SetAttribute("data-error-detail", panicText(r))
	w.showMessage("", w.app.locale().TOr("widget.error.internal", "This experiment stopped because of an internal error; the other experiments keep working. Reload the page to try again."))
	w.root.SetAttribute("data-error", "internal")
}

func (w *widget) showMessage(param, msg string) {
	w.erring = true
	slot := find(w.root, `[data-error-for="`+param+`"]`)
	if param != "" {
		if slot == nil {
			slot = find(w.root, `[data-error-for=""]`)
		} else if el := w.control(param); el != nil {
			elem(el).SetAttribute("aria-invalid", "true")
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
// pre-rendered output stays (it is exactly what the computation gives):
// nothing is computed at load.
func (w *widget) apply(q query.Values, initial bool) {
	over := widgetQuery(q, w.id)
	values := overlay(w.page, over)
	if initial && len(over) == 0 {
		w.urlDiff = query.Values{}
		return
	}
	w.writeControls(values)
	w.update(values, modeNone, over)
}

// reset returns to the page's values.
func (w *widget) reset() {
	w.writeControls(w.page)
	w.update(w.page, modeCommit, nil)
}

// reseed writes a fresh random seed and recomputes.
func (w *widget) reseed() {
	el := w.control("seed")
	if el == nil {
		return
	}
	setValue(el, randomSeed())
	w.recompute(modeCommit)
}

// hydrate wires the widget's form and buttons; live then shows it.
func (w *widget) hydrate() {
	listen(w.form.Value, "input", false, func(ev *dom.BasicEvent) {
		w.app.guard(w, func() { w.onInput(target(ev)) })
	})
	listen(w.form.Value, "change", false, func(ev *dom.BasicEvent) {
		w.app.guard(w, func() {
			w.onInput(target(ev))
			w.recompute(modeCommit)
		})
	})
	listen(w.form.Value, "submit", false, func(ev *dom.BasicEvent) {
		ev.PreventDefault()
		w.app.guard(w, func() { w.recompute(modeCommit) })
	})
	for _, b := range findAll(w.root, "button[data-action]") {
		action := b.GetAttribute("data-action")
		listen(b.Value, "click", false, func(ev *dom.BasicEvent) {
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
		w.buttons = append(w.buttons, b)
	}
}

// live shows that the widget is live: its buttons enabled, its "static
// page" notice hidden, data-live on its root.
func (w *widget) live() {
	for _, b := range w.buttons {
		b.RemoveAttribute("disabled")
	}
	for _, el := range findAll(w.root, "[data-static]") {
		el.SetAttribute("hidden", "")
	}
	w.root.SetAttribute("data-live", "")
}

// declared reads what a [data-widget] root declares: its calculator, the
// page's values (data-defaults, then the declared defaults: pageValues)
// and its views; why is the reason when the root does not follow DOM.md.
// The widget's hydration reads it (newWidget), and the warm-up for a root
// not hydrated yet (pageRequest).
func declared(reg *calc.Registry, root *dom.BasicHTMLElement) (c *calc.Calculator, page query.Values, views []string, why string) {
	name := root.GetAttribute("data-widget")
	c, ok := reg.Lookup(name)
	if !ok {
		return nil, nil, nil, "unknown calculator " + name
	}
	defaults, err := query.Parse(root.GetAttribute("data-defaults"))
	if err != nil {
		return nil, nil, nil, "bad data-defaults"
	}
	if v := root.GetAttribute("data-views"); v != "" {
		views = strings.Split(v, ",")
	}
	return c, pageValues(c, defaults), views, ""
}

// newWidget reads a [data-widget] root. It returns nil and the reason when
// the root does not follow wasm/playground/DOM.md.
func newWidget(a *app, root *dom.BasicHTMLElement, reg *calc.Registry) (*widget, string) {
	c, page, views, why := declared(reg, root)
	if why != "" {
		return nil, why
	}
	w := &widget{app: a, id: root.ID(), calc: c, root: root, page: page, views: views, urlDiff: query.Values{}}
	if w.id == "" {
		return nil, "widget without id"
	}
	makeFields(root)
	w.form = find(root, "form[data-form]")
	w.out = find(root, "[data-output]")
	if w.form == nil || w.out == nil {
		return nil, "widget without form or output"
	}
	w.decimal = w.form.GetAttribute("data-decimal")
	for _, el := range findAll(a.html, `output[data-cite^="`+w.id+`."]`) {
		c := citation{el: el, field: strings.TrimPrefix(el.GetAttribute("data-cite"), w.id+"."), format: el.GetAttribute("data-format")}
		w.cites = append(w.cites, c)
		w.specs = append(w.specs, citeSpec{field: c.field, format: c.format})
	}
	return w, ""
}

// formControls returns the form's control of each of c's parameters
// (the first element named for it, in document order) and its slider
// (the first input[data-slider-for] naming it), typed as findControls
// types them: the same elements as a querySelector for each (`[name="P"]`,
// `input[data-slider-for="P"]`), from two querySelectorAll in all. The
// queries for each parameter walked the form twice a parameter: 52 walks
// for the 26 of dispatch, 33 of the 73 ms of /es/embed/dispatch/'s
// hydration at 4x slowdown in a CPU profile (issue 33). e2e
// TestHydrationQueries counts the form's queries.
func formControls(form *dom.BasicHTMLElement, c *calc.Calculator) (controls, sliders map[string]dom.Element) {
	params := make(map[string]bool, len(c.Params))
	for _, p := range c.Params {
		params[p.Name] = true
	}
	controls, sliders = make(map[string]dom.Element, len(c.Params)), map[string]dom.Element{}
	for _, el := range findControls(form, "[name]") {
		if n := elem(el).GetAttribute("name"); params[n] && controls[n] == nil {
			controls[n] = el
		}
	}
	for _, el := range findControls(form, "input[data-slider-for]") {
		if n := elem(el).GetAttribute("data-slider-for"); params[n] && sliders[n] == nil {
			sliders[n] = el
		}
	}
	return controls, sliders
}

// pageCanonical returns the canonical text of the page's values (the
// URL state is what a recompute's canonical values differ from it),
// parsed at its first use, a recompute, not when the widget hydrates: a
// calculator's Parse was 17 of the 242 ms of hydrateAt in a CPU profile
// of /zh/backoff-work/'s load at 4x slowdown (issue 33), and a reader
// may never change the widget. The build computed the page's output at
// these values, so they parse; if they did not, the URL state is the
// difference from them as written.
func (w *widget) pageCanonical() query.Values {
	if w.pageCanon == nil {
		w.pageCanon = w.page
		if _, canon, err := canonical(w.calc, w.page); err == nil {
			w.pageCanon = canon
		}
	}
	return w.pageCanon
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

// value returns the value of a form control: an input, a select or a
// textarea ("" for another element).
func value(el dom.Element) string {
	switch c := el.(type) {
	case *dom.HTMLInputElement:
		return c.Value()
	case *dom.HTMLSelectElement:
		return c.Value()
	case *dom.HTMLTextAreaElement:
		return c.Value()
	}
	return ""
}

// setValue sets the value of a form control (see value).
func setValue(el dom.Element, v string) {
	switch c := el.(type) {
	case *dom.HTMLInputElement:
		c.SetValue(v)
	case *dom.HTMLSelectElement:
		c.SetValue(v)
	case *dom.HTMLTextAreaElement:
		c.SetValue(v)
	}
}

// checked reports whether el is a checked checkbox.
func checked(el dom.Element) bool {
	c, ok := el.(*dom.HTMLInputElement)
	return ok && c.Checked()
}

// setChecked checks or unchecks a checkbox.
func setChecked(el dom.Element, on bool) {
	if c, ok := el.(*dom.HTMLInputElement); ok {
		c.SetChecked(on)
	}
}

// boolString is the text of a checkbox's state, as calc parses it.
func boolString(on bool) string {
	if on {
		return "true"
	}
	return "false"
}
