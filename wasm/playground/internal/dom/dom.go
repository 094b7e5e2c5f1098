//go:build js && wasm

// Package dom is the playground's thin layer over the browser DOM
// (syscall/js): the dozen element, event and window operations the
// playground uses, and nothing else.
//
// It stands in for honnef.co/go/js/dom/v2, which wraps every element and
// event type of the DOM and whose wrappers the linker keeps whole
// (README.md, "Size-driven replacements"); dom/v2's Window.History also
// returns nil.
package dom

import "syscall/js"

// Element is a DOM element; the zero Element (Value undefined) is no
// element, and its methods must not be called.
type Element struct{ js.Value }

// wrap returns el, or the zero Element for null and undefined.
func wrap(v js.Value) Element {
	if v.IsNull() || v.IsUndefined() {
		return Element{}
	}
	return Element{v}
}

// Ok reports whether e is an element.
func (e Element) Ok() bool { return e.Truthy() }

// Document returns window.document.
func Document() Element { return wrap(js.Global().Get("document")) }

// Root returns <html>.
func Root() Element { return wrap(js.Global().Get("document").Get("documentElement")) }

// ByID returns document.getElementById(id).
func ByID(id string) Element {
	return wrap(js.Global().Get("document").Call("getElementById", id))
}

// QuerySelector returns the first element under e that matches sel.
func (e Element) QuerySelector(sel string) Element { return wrap(e.Call("querySelector", sel)) }

// QuerySelectorAll returns every element under e that matches sel, in
// document order (a snapshot).
func (e Element) QuerySelectorAll(sel string) []Element {
	l := e.Call("querySelectorAll", sel)
	out := make([]Element, l.Length())
	for i := range out {
		out[i] = Element{l.Index(i)}
	}
	return out
}

// Attr returns the attribute name, or "" when it is absent.
func (e Element) Attr(name string) string {
	v := e.Call("getAttribute", name)
	if v.IsNull() {
		return ""
	}
	return v.String()
}

// SetAttr sets the attribute name.
func (e Element) SetAttr(name, value string) { e.Call("setAttribute", name, value) }

// RemoveAttr removes the attribute name.
func (e Element) RemoveAttr(name string) { e.Call("removeAttribute", name) }

// Text returns textContent.
func (e Element) Text() string { return e.Get("textContent").String() }

// SetText sets textContent.
func (e Element) SetText(s string) { e.Set("textContent", s) }

// SetHTML sets innerHTML.
func (e Element) SetHTML(s string) { e.Set("innerHTML", s) }

// Prop returns the string property name (value, id).
func (e Element) Prop(name string) string { return e.Get(name).String() }

// Event is a DOM event.
type Event struct{ js.Value }

// Target returns the event's target element.
func (ev Event) Target() Element { return wrap(ev.Get("target")) }

// PreventDefault cancels the event's default action.
func (ev Event) PreventDefault() { ev.Call("preventDefault") }

// On adds a listener for events of type typ on target (an element, the
// window); the listener lives as long as the page.
func On(target js.Value, typ string, f func(Event)) {
	target.Call("addEventListener", typ, js.FuncOf(func(_ js.Value, args []js.Value) any {
		f(Event{args[0]})
		return nil
	}))
}

// OnElement is On for an element.
func (e Element) On(typ string, f func(Event)) { On(e.Value, typ, f) }

// Window returns the global object.
func Window() js.Value { return js.Global() }

// Location returns location.pathname, location.search and location.hash.
func Location() (path, search, hash string) {
	l := js.Global().Get("location")
	return l.Get("pathname").String(), l.Get("search").String(), l.Get("hash").String()
}

// Search returns location.search.
func Search() string { return js.Global().Get("location").Get("search").String() }

// ReplaceState and PushState call history.replaceState and
// history.pushState with a null state.
func ReplaceState(url string) { js.Global().Get("history").Call("replaceState", nil, "", url) }

// PushState: see ReplaceState.
func PushState(url string) { js.Global().Get("history").Call("pushState", nil, "", url) }

// AnimationFrame calls f once, before the next repaint.
func AnimationFrame(f func()) {
	var fn js.Func
	fn = js.FuncOf(func(js.Value, []js.Value) any {
		fn.Release()
		f()
		return nil
	})
	js.Global().Call("requestAnimationFrame", fn)
}
