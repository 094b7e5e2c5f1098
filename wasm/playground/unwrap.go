//go:build js && wasm && !standin_orig_unwrap

package playground

import (
	"syscall/js"
	"unsafe"

	"honnef.co/go/js/dom/v2"
)

// The playground calls dom/v2's methods on its concrete types
// (*dom.BasicHTMLElement, *dom.BasicEvent), never through its interfaces
// (dom.Element, dom.Event, dom.Node): the Go linker keeps a method of
// every type converted to an interface once any interface call of that
// method's name and signature is linked, and dom/v2 wraps each element in
// one of some 115 types (wrapHTMLElement), each with its own wrapper of
// every promoted method. One interface call of Underlying (the usual way
// back to the js.Value) links 242 wrappers: 50 KB of code, 14 KB of the
// rate-limits module gzip-compressed. (Events come as *dom.BasicEvent from
// listen, never wrapped: listen.go.)
//
// So elem takes the element apart without a method call. A type switch
// over the 115 types costs 18 KB of code itself (6 KB gzip-compressed), so
// it reads the embedded pointer instead: every type dom/v2's
// wrapHTMLElement returns is a pointer to a struct whose first field is
// the embedded *dom.BasicHTMLElement, but for the few the switch names.
// TestUnwrapCoversDOMv2 checks that layout in dom/v2's source.
// unwrap_orig.go (build tag standin_orig_unwrap) is the usual way, through
// the interface's Underlying, which core/standin/bench.sh builds to
// measure what this file saves.

// elem returns e as a *dom.BasicHTMLElement (nil for nil): the part every
// HTML element type of dom/v2 embeds.
func elem(e dom.Element) *dom.BasicHTMLElement {
	switch e := e.(type) {
	case nil:
		return nil
	case *dom.BasicHTMLElement:
		return e
	case *dom.HTMLAudioElement:
		return e.BasicHTMLElement
	case *dom.HTMLVideoElement:
		return e.BasicHTMLElement
	}
	return *(**dom.BasicHTMLElement)(ifaceData(unsafe.Pointer(&e)))
}

// ifaceData returns the data word of the non-empty interface value at p:
// for a pointer type, the pointer itself.
func ifaceData(p unsafe.Pointer) unsafe.Pointer { return (*[2]unsafe.Pointer)(p)[1] }

// The playground finds elements with find, findAll and findControls, not
// with dom/v2's QuerySelector and QuerySelectorAll: those wrap every
// element they return (wrapHTMLElement), comparing its constructor with
// each of 71 of the page's element classes in turn, a call into JavaScript
// and a string copied into it per comparison (an <output> is the 44th, a
// <noscript> or an SVG element all 71), only for elem to take the
// wrapping off again. A CPU profile of /zh/backoff-work/'s load at 4x
// slowdown put wrapHTMLElement at 54 of the 242 ms of hydrateAt (issue
// 33). These return the same elements as dom/v2's own types
// (*dom.BasicHTMLElement; findControls the *dom.HTMLInputElement,
// *dom.HTMLSelectElement or *dom.HTMLTextAreaElement dom/v2 would return),
// which TestFindAsDOMv2 checks against dom/v2 itself; unwrap_orig.go
// (standin_orig_unwrap) has dom/v2's in their place.

// find returns the first element under root that matches the CSS
// selector sel, nil when none does: root.QuerySelector(sel).
func find(root *dom.BasicHTMLElement, sel string) *dom.BasicHTMLElement {
	return basic(root.Call("querySelector", sel))
}

// findAll returns the elements under root that match sel, in document
// order: root.QuerySelectorAll(sel).
func findAll(root *dom.BasicHTMLElement, sel string) []*dom.BasicHTMLElement {
	list := root.Call("querySelectorAll", sel)
	out := make([]*dom.BasicHTMLElement, list.Length())
	for i := range out {
		out[i] = basic(list.Index(i))
	}
	return out
}

// findControls returns the elements under root that match sel, in
// document order, each form control as dom/v2 types it (value, setValue,
// checked and setChecked switch on the type): an <input>, <select> or
// <textarea> as its own type, another element as *dom.BasicHTMLElement.
func findControls(root *dom.BasicHTMLElement, sel string) []dom.Element {
	els := findAll(root, sel)
	out := make([]dom.Element, len(els))
	for i, el := range els {
		out[i] = control(el)
	}
	return out
}

// target returns the element an event of the form was dispatched to,
// typed as findControls types it: ev.Target() without dom/v2's wrapping,
// for every keystroke and every step of a dragged slider.
func target(ev *dom.BasicEvent) dom.Element {
	return control(basic(ev.Get("target")))
}

// control types el as dom/v2's wrapHTMLElement does for the three
// classes of form control (by its tag name, one call, not by its
// constructor).
func control(el *dom.BasicHTMLElement) dom.Element {
	if el == nil {
		return nil
	}
	switch el.TagName() {
	case "INPUT":
		return &dom.HTMLInputElement{BasicHTMLElement: el}
	case "SELECT":
		return &dom.HTMLSelectElement{BasicHTMLElement: el}
	case "TEXTAREA":
		return &dom.HTMLTextAreaElement{BasicHTMLElement: el}
	}
	return el
}

// documentElement returns the page's <html>: the document's
// DocumentElement without dom/v2's wrapping (its first wrap of the load,
// which compiles wrapHTMLElement's long chain of comparisons: 64 ms of
// /it/retries/'s start-up at 4x slowdown in a CPU profile).
func documentElement() *dom.BasicHTMLElement {
	return basic(js.Global().Get("document").Get("documentElement"))
}

// elementByID returns the element of the page whose id is id (nil when none):
// the document's GetElementByID without dom/v2's wrapping.
func elementByID(id string) *dom.BasicHTMLElement {
	return basic(js.Global().Get("document").Call("getElementById", id))
}

// newElement returns a new HTML element named tag: the document's
// CreateElement without dom/v2's wrapping.
func newElement(tag string) *dom.BasicHTMLElement {
	return basic(js.Global().Get("document").Call("createElement", tag))
}

// basic is the element v as a *dom.BasicHTMLElement (nil for null).
func basic(v js.Value) *dom.BasicHTMLElement {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}
