package widget

import (
	"math"

	"retrylab/core/calc"
	"retrylab/core/dispatch"
)

// dispatchFlow: the same jobs under naive workers and under the
// dispatcher, side by side on one clock (see flow.go). Each dot is a
// sampled job: it arrives, waits in the queue, calls the provider, comes
// back from a 429 (set-aside colour) or a 503 or lost answer (timeout
// colour) to wait for its retry, and ends answered or failed (dead
// letter, deadline). The counters are the result's depth series: ready,
// waiting for a retry, in flight, 429s and retries so far, exact at each
// sample, and after the last event the run's totals.
func dispatchFlow(o *outCtx, r *calc.DispatchResult) error {
	if r.Jobs <= 0 {
		return errNoData
	}
	if len(r.Flow) == 0 { // a run without calc.Args.WithTrace
		return errNoData
	}
	f := &flowFig{t0: 0, unit: o.loc.TOr("widget.unit.s", "s")}
	for i := range r.Flow {
		res := &r.Flow[i].Result
		if len(res.DepthT) == 0 {
			return errNoData
		}
		// the end: a sample's step after the last event of the longer run
		n := len(res.DepthT)
		f.t1 = math.Max(f.t1, res.MakespanS+res.DepthT[n-1]-res.DepthT[max(0, n-2)]+1e-3)
	}
	f.playS = storyPlayS(f.t1, 1) // a run of seconds
	gap := f.t1 / f.playS * 0.12
	sample := 0
	for i := range r.Flow {
		run := &r.Flow[i]
		l := dispatchLane(o, run.Mode, &run.Result, &run.Trace, gap, f.t1)
		sample += len(l.paths)
		f.lanes = append(f.lanes, l)
	}
	f.title = o.vt("flow", "title", "The same jobs under naive workers and under the dispatcher")
	f.desc = o.vt("flow", "desc", "Each dot is one of {n} sampled jobs: it arrives, waits in the queue, calls the provider, comes back from a 429 or an error to wait for its retry, and ends answered or failed. The counters beside count every job.",
		"n", o.loc.Int(int64(sample)))
	f.live = o.vt("flow", "live", "{t} s: {n} of {total} sampled jobs have arrived.")
	f.write(o)
	return nil
}

func dispatchLane(o *outCtx, mode string, res *dispatch.Result, tr *dispatch.Trace, gap, end float64) *flowLane {
	l := &flowLane{stage: flowService, key: mode, title: o.loc.ChoiceLabel(o.c, "mode", mode)}
	l.stations = [4]string{
		o.loc.TOr("widget.flow.jobs", "jobs"), o.loc.TOr("widget.flow.retry_wait", "retry wait"),
		o.loc.TOr("widget.flow.queue", "queue"), o.loc.TOr("widget.flow.provider", "provider"),
	}
	l.piles = [3]flowPile{
		{y0: flowTop, h: 64, label: o.loc.TOr("widget.flow.answered", "answered")},
		{y0: flowTop + 66, h: 70, label: o.loc.TOr("widget.flow.failed", "failed")},
	}
	for i := range l.piles {
		l.piles[i].two = pileTwoLines(l.piles[i].label, l.piles[i].h)
	}
	boxH := flowLaneH - flowTop - 4
	// every mark's keyframes in one allocation: a job adds at most two
	// keys, one more through the queue, three a call and one to a pile
	n := 4 * len(tr.Jobs)
	for i := range tr.Jobs {
		n += 3 * len(tr.Jobs[i].Calls)
	}
	free := make([]flowKey, n)
	for i, jb := range tr.Jobs {
		y := flowTop + 6 + hash01(i, 1)*(boxH-12)
		n = 4 + 3*len(jb.Calls)
		p := flowPath{gap: gap, keys: free[:0:n]}
		free = free[n:]
		p.add(jb.ArrivalS, flowClientX-16+hash01(i, 2)*32, y, flowFirst)
		p.add(jb.ArrivalS, flowQueueA, y, flowFirst)
		for j, c := range jb.Calls {
			st := flowFirst
			if j > 0 {
				st = flowRetry
			} else {
				p.add(c.StartS, flowQueueB, y, st) // through the queue
			}
			p.add(c.StartS, flowServerA, y, st)
			switch c.Status {
			case dispatch.StatusOK, dispatch.StatusReplay:
				p.add(c.EndS, flowServerB, y, st)
				p.toPile(c.EndS, 0, flowServed)
			case dispatch.StatusRateLimited:
				p.add(c.EndS, flowServerA+8, y, flowRefused)
				p.add(c.EndS, flowPolicyX, y, flowRefused)
			default:
				p.add(c.EndS, flowServerB, y, flowTimeout)
				p.add(c.EndS, flowPolicyX, y, flowTimeout)
			}
		}
		if jb.StoppedS >= 0 {
			p.toPile(jb.StoppedS, 1, flowFailed)
		}
		l.paths = append(l.paths, p)
	}
	l.finish()
	// the result's depth series, then one frame after the last event
	n = len(res.DepthT)
	l.ts = append(append([]float64{}, res.DepthT...), math.Max(end, res.DepthT[n-1]))
	last := func(xs []int, v int) []float64 { return append(floatsOf(xs), float64(v)) }
	l.counters = []flowCounter{
		{"ready", o.loc.TOr("widget.flow.queued", "queued"), last(res.DepthReady, 0), -1},
		{"delayed", o.loc.TOr("widget.flow.retry_wait", "retry wait"), last(res.DepthDelayed, 0), -1},
		{"in_flight", o.loc.TOr("widget.flow.in_flight", "in flight"), last(res.DepthInFlight, 0), -1},
		{"rate_limited", o.loc.TOr("widget.flow.r429", "429s"), last(res.DepthRateLimited, res.RateLimited), -1},
		{"retries", o.loc.TOr("widget.flow.retries", "retries"), last(res.DepthRetries, res.Retries), -1},
	}
	return l
}
