//go:build js && wasm && standin_orig_listen

package playground

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// listen through dom/v2's own AddEventListener, in listen.go's place:
// core/standin/bench.sh builds the modules with it (-tags
// standin_orig_listen) to measure what listen.go saves.
// TestModulesLinkTheirSet fails on such a module (it links time's
// formatting): the tag is for measuring only.
func listen(target js.Value, typ string, capture bool, f func(*dom.BasicEvent)) {
	(&dom.BasicNode{Value: target}).AddEventListener(typ, capture, func(ev dom.Event) { f(&dom.BasicEvent{Value: ev.Underlying()}) })
}
