//go:build js && wasm

package playground

import (
	"errors"
	"strings"
	"syscall/js"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
	"retrylab/site/locale"
	render "retrylab/site/widget"
)

// Worker mode. In a dedicated Web Worker (site/assets/playground-worker.js)
// there is no document: the same module registers
// self.retrylabCompute(request) and calls self.retrylabWorkerReady(). A
// request is {calc, query, views, cites: [[field, format], …], panic,
// fresh} (fresh, set by the loader for the warm-up and with ?bench=1:
// computed whole, the worker's calc.Memo neither read nor filled); the
// answer is {html, texts, values, ok, ms} for a result, {param, message}
// for a refusal (the message in the page's language), or {panic} for a
// panic, recovered here and reported by the page in the widget as a local
// one. The page's strings come from self.retrylabPageData, the text of the
// page's <script id="retrylab-data">.

// workerMode reports whether the module runs without a document.
func workerMode() bool { return js.Global().Get("document").IsUndefined() }

// workerMain serves the page's requests until the worker is terminated.
func workerMain(set *render.Set) {
	var loc *locale.Locale
	locOf := func() locale.Locale {
		if loc == nil {
			var l locale.Locale
			if d := js.Global().Get("retrylabPageData"); d.Type() == js.TypeString {
				l = localeFrom(d.String(), "")
			}
			loc = &l
		}
		return *loc
	}
	memo := new(calc.Memo) // the policies' runs, kept between requests (not the fresh ones)
	js.Global().Set("retrylabCompute", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			return answerPanic("retrylabCompute: no request")
		}
		return workerCompute(set, locOf, args[0], memo)
	}))
	if ready := js.Global().Get("retrylabWorkerReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

func answerPanic(text string) js.Value {
	ans := js.Global().Get("Object").New()
	ans.Set("panic", text)
	return ans
}

// workerCompute answers one request; nothing in it can end the program.
func workerCompute(set *render.Set, locOf func() locale.Locale, req js.Value, memo *calc.Memo) (ans js.Value) {
	ans = js.Global().Get("Object").New()
	perf := js.Global().Get("performance")
	t0 := perf.Call("now").Float()
	defer func() {
		if r := recover(); r != nil {
			ans = answerPanic(panicText(r))
		}
		ans.Set("ms", perf.Call("now").Float()-t0)
	}()
	name := req.Get("calc").String()
	if req.Get("panic").Truthy() {
		panic("retrylab: panic forced by ?debug-panic in the worker (" + name + ")")
	}
	c, ok := set.Registry().Lookup(name)
	if !ok {
		panic("retrylab: unknown calculator " + name)
	}
	values, err := query.Parse(req.Get("query").String())
	if err != nil {
		panic(err)
	}
	var views []string
	if v := req.Get("views").String(); v != "" {
		views = strings.Split(v, ",")
	}
	cl := req.Get("cites")
	cites := make([]citeSpec, cl.Length())
	for i := range cites {
		pair := cl.Index(i)
		cites[i] = citeSpec{field: pair.Index(0).String(), format: pair.Index(1).String()}
	}
	loc := locOf()
	a, err := c.Parse(values)
	if req.Get("fresh").Truthy() {
		memo = nil // the warm-up, make bench: computed whole every time
	}
	var o outcome
	if err == nil {
		o, err = evaluate(set, c, a, memo, views, cites, loc, nil)
	}
	if err != nil {
		ce, ok := errors.AsType[*calc.Error](err) // errors.As would link internal/reflectlite
		if !ok {
			panic(err) // a calculator refuses with *calc.Error; anything else is a bug
		}
		ans.Set("param", ce.Param)
		ans.Set("message", loc.Error(ce, c))
		return ans
	}
	ans.Set("html", o.html)
	texts, vals, oks := make([]any, len(cites)), make([]any, len(cites)), make([]any, len(cites))
	for i := range cites {
		texts[i], vals[i], oks[i] = o.texts[i], o.values[i], o.ok[i]
	}
	ans.Set("texts", js.ValueOf(texts))
	ans.Set("values", js.ValueOf(vals))
	ans.Set("ok", js.ValueOf(oks))
	return ans
}
