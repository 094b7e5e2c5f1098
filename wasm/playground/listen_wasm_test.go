//go:build js && wasm

package playground

import (
	"syscall/js"
	"testing"

	"honnef.co/go/js/dom/v2"
)

// TestListen runs in Node (make wasmtest), on its EventTarget, with
// listen.go and, under -tags standin_orig_listen, with dom/v2's
// AddEventListener in its place (listen_orig.go): both hand each listener
// the event dispatched for its type, and its PreventDefault and Type act on
// that event. (Capture needs a document's propagation path:
// TestHydrateNearViewport's focusin, in the browser.)
func TestListen(t *testing.T) {
	target := js.Global().Get("EventTarget").New()
	var got []string
	listen(target, "ping", false, func(ev *dom.BasicEvent) {
		got = append(got, "bubble:"+ev.Type())
		ev.PreventDefault()
	})
	listen(target, "ping", true, func(ev *dom.BasicEvent) {
		got = append(got, "capture:"+ev.Type())
	})
	listen(target, "other", false, func(ev *dom.BasicEvent) { got = append(got, "other") })
	opts := js.Global().Get("Object").New()
	opts.Set("cancelable", true)
	ev := js.Global().Get("Event").New("ping", opts)
	notCancelled := target.Call("dispatchEvent", ev).Bool()
	if notCancelled || !ev.Get("defaultPrevented").Bool() {
		t.Errorf("PreventDefault in the listener did not cancel the event (dispatchEvent returned %v)", notCancelled)
	}
	// an EventTarget that is no node has no propagation path: its
	// listeners run in the order they were added, capture or not
	want := []string{"bubble:ping", "capture:ping"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("listeners saw %q, want %q", got, want)
	}
}
