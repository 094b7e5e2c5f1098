//go:build js && wasm

package playground

import (
	"reflect"
	"syscall/js"
	"testing"

	"honnef.co/go/js/dom/v2"
)

// fakeDOMJS defines, in Node (make wasmtest), the few element classes
// dom/v2's wrapHTMLElement tells apart by constructor, and an element
// whose querySelector and querySelectorAll match by tag name ("*" every
// child) and answer with a NodeList-like object (length and item, not an
// Array: dom/v2 reads a NodeList with item, find with an index).
const fakeDOMJS = `(() => {
	class FakeNodeList {
		constructor(a) { this.a = a; this.length = a.length; a.forEach((x, i) => { this[i] = x; }); }
		item(i) { return i < this.a.length ? this.a[i] : null; }
	}
	class HTMLElement extends EventTarget {
		constructor(tag, kids) { super(); this.tagName = tag; this.kids = kids || []; }
		querySelectorAll(s) { return new FakeNodeList(this.kids.filter(k => s === '*' || k.tagName === s.toUpperCase())); }
		querySelector(s) { const l = this.querySelectorAll(s); return l.length ? l.item(0) : null; }
	}
	const made = {HTMLElement};
	for (const name of ['HTMLInputElement', 'HTMLSelectElement', 'HTMLTextAreaElement', 'HTMLDivElement', 'HTMLOutputElement', 'HTMLButtonElement']) {
		made[name] = class extends HTMLElement {};
		Object.defineProperty(made[name], 'name', {value: name});
	}
	Object.assign(globalThis, made);
	const el = (cls, tag) => new made[cls](tag);
	return new made.HTMLDivElement('DIV', [
		el('HTMLDivElement', 'DIV'), el('HTMLInputElement', 'INPUT'), el('HTMLSelectElement', 'SELECT'),
		el('HTMLTextAreaElement', 'TEXTAREA'), el('HTMLOutputElement', 'OUTPUT'), el('HTMLButtonElement', 'BUTTON'),
		el('HTMLElement', 'NOSCRIPT'), el('HTMLInputElement', 'INPUT'),
	]);
})()`

// TestFindAsDOMv2 holds find, findAll, findControls and target
// (unwrap.go) to dom/v2's QuerySelector, QuerySelectorAll and Target, which they
// replace: the same elements, in the same order; for an <input>, <select>
// or <textarea> the Go type dom/v2's wrapHTMLElement gives it, and for
// another element none of those three types (value, setValue, checked
// and setChecked act on those three only; unwrap.go gives it
// *dom.BasicHTMLElement).
func TestFindAsDOMv2(t *testing.T) {
	names := []string{"HTMLElement", "HTMLInputElement", "HTMLSelectElement", "HTMLTextAreaElement", "HTMLDivElement", "HTMLOutputElement", "HTMLButtonElement"}
	t.Cleanup(func() {
		for _, n := range names {
			js.Global().Delete(n)
		}
	})
	root := &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: js.Global().Call("eval", fakeDOMJS)}}}
	for _, sel := range []string{"*", "input", "select", "textarea", "output", "noscript", "div", "button", "table"} {
		theirs := root.QuerySelectorAll(sel)
		ours, controls := findAll(root, sel), findControls(root, sel)
		if len(ours) != len(theirs) || len(controls) != len(theirs) {
			t.Fatalf("%q: findAll %d and findControls %d elements, dom/v2 %d", sel, len(ours), len(controls), len(theirs))
		}
		for i, e := range theirs {
			if !ours[i].Value.Equal(elem(e).Value) || !elem(controls[i]).Value.Equal(elem(e).Value) {
				t.Errorf("%q: element %d is not dom/v2's", sel, i)
			}
			if !sameControl(controls[i], e) {
				t.Errorf("%q: findControls types element %d (%s) %T, dom/v2 %T", sel, i, elem(e).TagName(), controls[i], e)
			}
		}
		one, theirOne := find(root, sel), root.QuerySelector(sel)
		switch {
		case theirOne == nil:
			if one != nil {
				t.Errorf("%q: find found an element, dom/v2 none", sel)
			}
		case one == nil || !one.Value.Equal(elem(theirOne).Value):
			t.Errorf("%q: find's element is not dom/v2's", sel)
		}
	}
	// an event's target, as dom/v2's Target types it
	for _, el := range findAll(root, "*") {
		var ours, theirs dom.Element
		listen(el.Value, "input", false, func(ev *dom.BasicEvent) { ours, theirs = target(ev), ev.Target() })
		el.Call("dispatchEvent", js.Global().Get("Event").New("input"))
		if theirs == nil || !elem(ours).Value.Equal(elem(theirs).Value) || !sameControl(ours, theirs) {
			t.Errorf("the target of an event on <%s>: %T, dom/v2's %T", el.TagName(), ours, theirs)
		}
	}
	// the test itself: dom/v2 told the three controls apart here
	if _, ok := root.QuerySelector("select").(*dom.HTMLSelectElement); !ok {
		t.Fatalf("dom/v2 typed the fake <select> %T: the fake classes do not reach its wrapHTMLElement", root.QuerySelector("select"))
	}
}

// sameControl reports whether ours types an element as findControls must,
// given dom/v2's type of it, theirs.
func sameControl(ours, theirs dom.Element) bool {
	switch theirs.(type) {
	case *dom.HTMLInputElement, *dom.HTMLSelectElement, *dom.HTMLTextAreaElement:
		return reflect.TypeOf(ours) == reflect.TypeOf(theirs)
	}
	switch ours.(type) {
	case *dom.HTMLInputElement, *dom.HTMLSelectElement, *dom.HTMLTextAreaElement:
		return false
	}
	return true
}
