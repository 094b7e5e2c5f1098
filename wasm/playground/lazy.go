//go:build js && wasm

package playground

import (
	"strconv"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"retrylab/core/standin/query"
)

// lazyState is where a widget root is in its lazy hydration.
type lazyState uint8

const (
	lazyWaiting  lazyState = iota // static, as the build wrote it
	lazyQueued                    // in a.queue
	lazyHydrated                  // live (or marked data-error)
)

// nearMargin is how far outside the viewport a widget starts to hydrate:
// a screen above and below, so that a reader who scrolls finds it live.
const nearMargin = "100% 0px"

// observe hydrates the widgets as they near the viewport or as the reader
// reaches for one (focus, pointer), instead of all at start: each costs
// milliseconds of the main thread (on a phone, tens), and most of an
// article's widgets are screens away when the page loads. It returns once
// the browser has told which widgets are near now (the observer's first
// callback), with those queued; without IntersectionObserver every
// widget is queued.
//
// syscall/js: dom/v2 has no IntersectionObserver.
func (a *app) observe() {
	io := js.Global().Get("IntersectionObserver")
	if io.Type() != js.TypeFunction {
		for i := range a.roots {
			a.enqueue(i)
		}
		return
	}
	index := make(map[string]int, len(a.roots))
	for i, r := range a.roots {
		index[r.ID()] = i
	}
	first := make(chan struct{})
	firstDone := false
	cb := js.FuncOf(func(_ js.Value, args []js.Value) any {
		entries := args[0]
		for k := 0; k < entries.Length(); k++ {
			e := entries.Index(k)
			if !e.Get("isIntersecting").Bool() {
				continue
			}
			if i, ok := index[e.Get("target").Get("id").String()]; ok {
				a.enqueue(i)
			}
		}
		if !firstDone {
			firstDone = true
			close(first)
		}
		return nil
	})
	opts := js.Global().Get("Object").New()
	opts.Set("rootMargin", nearMargin)
	a.observer = io.New(cb, opts)
	for i, r := range a.roots {
		a.observer.Call("observe", r.Underlying())
		// the reader reaches for a control before the widget is near
		// (a keyboard's Tab, a tap after a jump): hydrated at once, in
		// this event's task, so that the input it starts is not lost
		for _, name := range []string{"focusin", "pointerdown"} {
			listen(r.Value, name, true, func(*dom.BasicEvent) { a.hydrateAt(i) })
		}
	}
	if len(a.roots) == 0 {
		return
	}
	<-first
}

// enqueue queues widget i for hydration, once.
func (a *app) enqueue(i int) {
	if a.lazy[i] != lazyWaiting {
		return
	}
	a.lazy[i] = lazyQueued
	a.queue <- i // never blocks: a root is queued at most once
}

// drain hydrates the queued widgets (hydrateQueued).
func (a *app) drain() {
	for len(a.queue) > 0 {
		a.hydrateQueued(<-a.queue)
	}
}

// hydrateQueued hydrates queued widget i in a task of its own, and then
// reads its form's controls in another (readForm).
func (a *app) hydrateQueued(i int) {
	a.yield()
	a.hydrateAt(i)
	if w := a.byID[a.roots[i].ID()]; w != nil && w.controls == nil {
		a.yield()
		w.readForm()
	}
}

// hydrateAt makes widget i live, once: the form wired, the URL's state
// applied, the static notice hidden. It marks the root data-hydrated
// and counts it in <html data-hydrated="N"> (every module's), which the
// browser tests read.
func (a *app) hydrateAt(i int) {
	if a.lazy[i] == lazyHydrated {
		return
	}
	a.lazy[i] = lazyHydrated
	root := a.roots[i]
	if a.observer.Truthy() {
		a.observer.Call("unobserve", root.Underlying())
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				root.SetAttribute("data-error", "internal")
				root.SetAttribute("data-error-detail", panicText(r))
			}
		}()
		w, why := newWidget(a, root, a.reg)
		if w == nil {
			root.SetAttribute("data-error", "contract")
			root.SetAttribute("data-error-detail", why)
			return
		}
		q := a.query()
		if query.Get(q, "debug-panic") == w.id {
			w.forcePanic = true
		}
		a.widgets = append(a.widgets, w)
		a.byID[w.id] = w
		w.hydrate()
		w.apply(q, true)
		w.live()
	}()
	root.RemoveAttribute("data-loading")
	root.RemoveAttribute("aria-busy")
	root.SetAttribute("data-hydrated", "")
	n, _ := strconv.Atoi(a.html.GetAttribute("data-hydrated"))
	a.html.SetAttribute("data-hydrated", strconv.Itoa(n+1))
}
