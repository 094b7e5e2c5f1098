package widget

// The playground's two delays, in milliseconds: wasm/playground acts on
// them and the browser tests (site/e2e) hold the page to them, so they
// live here, below both, instead of in a copy each.
const (
	// ComputingNoteDelayMS is how long a widget waits for the worker's
	// answer before it shows the "computing…" note: shorter answers never
	// flash it.
	ComputingNoteDelayMS = 150

	// RestartMS is how long a request must have run before a newer input
	// replaces the worker rather than wait for its answer: a new worker is
	// ready in some 100-300 ms (it instantiates the compiled module and
	// starts the Go runtime), so a shorter request is cheaper to wait for.
	RestartMS = 300
)
