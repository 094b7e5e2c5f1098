// Package meter counts a simulation's work as it goes and asks, every
// few thousand units, whether anyone still waits for the answer: the
// shared server stops a computation whose client has hung up or whose
// deadline has passed, and counts the work it did (site/server). The
// package reads no clock: the question is a function the caller passes.
package meter

import "errors"

// Poll is told the work done since its previous call, in the unit of the
// simulation that calls it (a random draw, a simulated call, an attempt),
// and answers true to stop the simulation.
type Poll func(done int64) (stop bool)

// Every is how much work passes between two calls of a Poll.
const Every = 4096

// ErrStopped is the error of a simulation that its Poll stopped.
var ErrStopped = errors.New("the computation was stopped: nobody waits for its answer")

// Meter counts work for one run and calls its Poll every Every units. A
// nil *Meter, or one without a Poll, counts nothing and never stops: the
// command line and the browser run without one.
type Meter struct {
	poll    Poll
	n       int64
	stopped bool
}

// New returns a Meter that calls p (nil: never stops).
func New(p Poll) *Meter { return &Meter{poll: p} }

// Add counts k units of work and reports whether to stop; once it has
// said so, it says so to every later call.
func (m *Meter) Add(k int) bool {
	if m == nil || m.poll == nil {
		return false
	}
	if m.stopped {
		return true
	}
	m.n += int64(k)
	if m.n >= Every {
		m.flush()
	}
	return m.stopped
}

// Done hands the Poll the work counted since its last call (so that a
// caller's total is exact) and reports whether the run was stopped.
func (m *Meter) Done() bool {
	if m == nil || m.poll == nil {
		return false
	}
	if m.n > 0 && !m.stopped {
		m.flush()
	}
	return m.stopped
}

// Stopped reports whether the Poll has asked to stop.
func (m *Meter) Stopped() bool { return m != nil && m.stopped }

func (m *Meter) flush() {
	n := m.n
	m.n = 0
	if m.poll(n) {
		m.stopped = true
	}
}
