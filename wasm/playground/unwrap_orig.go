//go:build js && wasm && standin_orig_unwrap

package playground

import "honnef.co/go/js/dom/v2"

// The usual way back from dom/v2's interfaces to its concrete types, an
// interface call of Underlying, in unwrap.go's place: core/standin/bench.sh
// builds the modules with it (-tags standin_orig_unwrap) to measure what
// unwrap.go saves. TestModulesLinkTheirSet fails on such a module (it
// links dom/v2's promoted wrappers): the tag is for measuring only.

// elem returns e as a *dom.BasicHTMLElement (nil for nil).
func elem(e dom.Element) *dom.BasicHTMLElement {
	if e == nil {
		return nil
	}
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: e.Underlying()}}}
}

// find is dom/v2's QuerySelector (see unwrap.go).
func find(root *dom.BasicHTMLElement, sel string) *dom.BasicHTMLElement {
	return elem(root.QuerySelector(sel))
}

// findAll is dom/v2's QuerySelectorAll.
func findAll(root *dom.BasicHTMLElement, sel string) []*dom.BasicHTMLElement {
	var out []*dom.BasicHTMLElement
	for _, e := range root.QuerySelectorAll(sel) {
		out = append(out, elem(e))
	}
	return out
}

// findControls is dom/v2's QuerySelectorAll, typed by dom/v2.
func findControls(root *dom.BasicHTMLElement, sel string) []dom.Element {
	return root.QuerySelectorAll(sel)
}

// target is dom/v2's Target.
func target(ev *dom.BasicEvent) dom.Element {
	return ev.Target()
}

// documentElement is dom/v2's DocumentElement.
func documentElement() *dom.BasicHTMLElement {
	return elem(dom.GetWindow().Document().DocumentElement())
}

// elementByID is dom/v2's GetElementByID.
func elementByID(id string) *dom.BasicHTMLElement {
	return elem(dom.GetWindow().Document().GetElementByID(id))
}

// newElement is dom/v2's CreateElement.
func newElement(tag string) *dom.BasicHTMLElement {
	return elem(dom.GetWindow().Document().CreateElement(tag))
}
