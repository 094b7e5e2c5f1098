package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"retrylab/core/calc"
	"retrylab/core/meter"
)

// Stats are the shared server's work counters, an expvar of its own:
// GET Base+"api/stats" answers them as JSON. They count work, not time,
// so that a test can check what the server did (site/cmd/retrylab's
// TestHangUpStopsWork).
type Stats struct {
	// Work is the work the computations reported as they went, in their
	// calculators' units of declared work (calc.Calculator.Work; the
	// simulations report every meter.Every units through calc's Poll).
	Work atomic.Int64
	// Computing counts the computations in progress; Computed those that
	// ended with an answer or a refusal; Stopped those stopped because
	// the client had gone or the deadline had passed.
	Computing, Computed, Stopped atomic.Int64
}

// statsJSON is the body of GET api/stats.
type statsJSON struct {
	Work      int64 `json:"work"`
	Computing int64 `json:"computing"`
	Computed  int64 `json:"computed"`
	Stopped   int64 `json:"stopped"`
}

// DefaultComputeDeadline is Config.ComputeDeadline's default: far above
// what any accepted request costs (ServerWork keeps it under 50 ms of
// CPU), so that it only stops a computation the bounds missed.
const DefaultComputeDeadline = 5 * time.Second

func (h *handler) serveStats(w http.ResponseWriter, r *http.Request) {
	b, _ := json.Marshal(statsJSON{
		Work: h.stats.Work.Load(), Computing: h.stats.Computing.Load(),
		Computed: h.stats.Computed.Load(), Stopped: h.stats.Stopped.Load(),
	})
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	writeBody(w, r, http.StatusOK, "application/json", append(b, '\n'))
}

// poll returns the Poll of one computation for r: it adds the work
// reported to Stats.Work and stops the computation once r's client has
// gone (its context is done) or the compute deadline has passed. The
// clock is read at each call (every meter.Every units), not by a timer:
// in the Worker a computation holds the only thread, and no timer fires
// until it ends.
func (h *handler) poll(r *http.Request) meter.Poll {
	ctx := r.Context()
	var deadline time.Time
	if h.deadline > 0 {
		deadline = time.Now().Add(h.deadline)
	}
	return func(n int64) bool {
		h.stats.Work.Add(n)
		return ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline))
	}
}

// run computes a for r, counted in Stats; a computation stopped by its
// Poll returns meter.ErrStopped.
func (h *handler) run(r *http.Request, c *calc.Calculator, a calc.Args) (any, error) {
	h.stats.Computing.Add(1)
	defer h.stats.Computing.Add(-1)
	res, err := c.Run(a.WithPoll(h.poll(r)))
	h.count(err)
	return res, err
}

// count ends a computation's count in Stats.
func (h *handler) count(err error) {
	if errors.Is(err, meter.ErrStopped) {
		h.stats.Stopped.Add(1)
	} else {
		h.stats.Computed.Add(1)
	}
}

// stopped answers a computation its Poll stopped: nothing when the
// client has gone (no one reads it), else 503 (the deadline passed).
func stopped(w http.ResponseWriter, r *http.Request) {
	if r.Context().Err() != nil {
		return
	}
	w.Header().Set("Retry-After", "1")
	writeJSONError(w, r, http.StatusServiceUnavailable, "", "deadline",
		"the computation took longer than the server allows; run it in the embed page or with `retrylab calc`")
}

// weigh returns the declared work of an API request as a fraction of its
// calculator's ServerWork (0 for a path that computes nothing, for values
// the calculator refuses, and for a calculator without a bound): what
// Shed sorts the requests into its lanes by. It parses the query a second
// time, which costs microseconds.
func (h *handler) weigh(r *http.Request) float64 {
	rel, ok := strings.CutPrefix(r.URL.Path, h.base+APIPath)
	if !ok {
		return 0
	}
	rel, _ = strings.CutSuffix(rel, ChartSuffix)
	c, ok := h.registry().Lookup(rel)
	if !ok || c.Work == nil || !(c.ServerWork > 0) {
		return 0
	}
	values, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		return 0
	}
	delete(values, "lang")
	a, err := c.Parse(values)
	if err != nil {
		return 0
	}
	return c.Work(a) / c.ServerWork
}
