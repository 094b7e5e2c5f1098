//go:build js && wasm && !standin_orig_listen

package playground

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// listen registers f for the events named typ on target (capture phase if
// capture) and hands f each event as dom/v2's *dom.BasicEvent, the type
// whose methods the playground calls (PreventDefault, Target).
//
// Registration goes through the target's addEventListener with a
// syscall/js function rather than dom/v2's AddEventListener, because that
// one hands its listener a dom.Event made by wrapEvent: a type switch that
// converts some 30 event types to the dom.Event interface, and the linker
// then keeps each type's methods that any interface call in the program
// names (see elem), with the promoted wrappers of *dom.BasicEvent's and
// *dom.UIEvent's methods in each. Skipping it saves 15.7 KB of the
// rate-limits module gzip-compressed (measured 2026-12-05; make bench's
// core/standin/bench.sh prints today's figure), the room the request-flow
// views need. The events stay dom/v2's types, and so do their methods;
// only the wrapping is skipped. listen_orig.go (build tag
// standin_orig_listen) is dom/v2's way, and TestModulesLinkTheirSet fails
// when a module links wrapEvent.
func listen(target js.Value, typ string, capture bool, f func(*dom.BasicEvent)) {
	target.Call("addEventListener", typ, js.FuncOf(func(_ js.Value, args []js.Value) any {
		f(&dom.BasicEvent{Value: args[0]})
		return nil
	}), capture)
}
