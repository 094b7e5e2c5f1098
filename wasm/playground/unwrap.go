//go:build js && wasm && !standin_orig_unwrap

package playground

import (
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
