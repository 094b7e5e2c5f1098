package widget

import (
	"retrylab/core/calc"
)

// contentionViews are the views of the contention calculator.
//
//retrylab:views contention
func contentionViews() []viewDef {
	return []viewDef{{"table", keyedTable, true, false}, {"curves", typed(contentionCurves), false, false}}
}

// strategiesViews are the views of the retry-strategies calculator.
//
//retrylab:views retry-strategies
func strategiesViews() []viewDef {
	return []viewDef{{"table", keyedTable, true, false}, {"curves", typed(strategiesCurves), false, false}}
}

// openClosedViews are the views of the open-closed calculator.
//
//retrylab:views open-closed
func openClosedViews() []viewDef {
	return []viewDef{{"table", keyedTable, true, false}, {"series", typed(openClosedSeries), false, false}}
}

// metastableViews are the views of the metastable calculator.
//
//retrylab:views metastable
func metastableViews() []viewDef {
	return []viewDef{{"table", keyedTable, true, false}, {"chain", typed(metastableChain), false, false}, {"sweep", typed(metastableSweep), false, false}}
}

// markAt marks the x equal to v.
func markAt(xs []float64, v float64) []bool {
	m := make([]bool, len(xs))
	for i, x := range xs {
		m[i] = x == v
	}
	return m
}

// contentionCurves: completion time and calls against clients, one line
// per strategy (the two figures of Brooker 2015).
func contentionCurves(o *outCtx, r *calc.ContentionResult) error {
	xs, ok := floats(r.ClientsAxis)
	times := [][]float64{r.TimeNoneMS, r.TimeExponentialMS, r.TimeFullMS, r.TimeEqualMS, r.TimeDecorrelatedMS}
	calls := [][]float64{r.CallsNone, r.CallsExponential, r.CallsFull, r.CallsEqual, r.CallsDecorrelated}
	if !ok || len(r.Strategy) != len(times) {
		return errNoData
	}
	var ts, cs []series
	for i, name := range r.Strategy {
		if len(times[i]) != len(xs) || len(calls[i]) != len(xs) {
			return errNoData
		}
		label := valueLabel(o.c, o.loc, "strategy", name)
		ts = append(ts, series{Name: label, Values: times[i]})
		cs = append(cs, series{Name: label, Values: calls[i]})
	}
	xl := o.vt("curves", "x", "clients")
	// a log scale: exponential backoff without jitter takes an order of
	// magnitude longer at the defaults, and a linear axis squashed the
	// other four lines flat (reader review)
	t := chart{View: "curves", Line: true, YLog: true, X: xs, Series: ts, XLabel: xl,
		Title:  o.vt("curves", "title_time", "Time until every client has written"),
		Desc:   o.vt("curves", "desc_time", "Mean time in ms against the number of clients, one line per strategy, on a log scale so that the low lines are not squashed flat."),
		YLabel: o.vt("curves", "y_time", "ms, log scale")}
	t.draw(o)
	c := chart{View: "curves", Line: true, X: xs, Series: cs, XLabel: xl,
		Title:  o.vt("curves", "title_calls", "Writes the store handles"),
		Desc:   o.vt("curves", "desc_calls", "Mean writes against the number of clients, one line per strategy."),
		YLabel: o.vt("curves", "y_calls", "writes")}
	c.draw(o)
	return nil
}

// strategiesCurves: load and success rate against the failure rate, one
// line per strategy (the figures of Brooker 2022).
func strategiesCurves(o *outCtx, r *calc.StrategiesResult) error {
	xs := r.FailureRates
	loads := [][]float64{r.LoadNone, r.LoadRetries, r.LoadAdaptive, r.LoadBreaker}
	succ := [][]float64{r.SuccessNone, r.SuccessRetries, r.SuccessAdaptive, r.SuccessBreaker}
	if len(xs) == 0 || len(r.Strategy) != len(loads) {
		return errNoData
	}
	mark := markAt(xs, r.FailureRate)
	var ls, ss []series
	for i, name := range r.Strategy {
		if len(loads[i]) != len(xs) || len(succ[i]) != len(xs) {
			return errNoData
		}
		label := valueLabel(o.c, o.loc, "strategy", name)
		ls = append(ls, series{Name: label, Values: loads[i], Mark: mark})
		ss = append(ss, series{Name: label, Values: succ[i], Mark: mark})
	}
	xl := o.vt("curves", "x", "failure rate of the server")
	mn := o.vt("curves", "mark", "the chosen failure rate")
	l := chart{View: "curves", Line: true, X: xs, Series: ls, XLabel: xl, MarkName: mn,
		Title:  o.vt("curves", "title_load", "Load on the server"),
		Desc:   o.vt("curves", "desc_load", "Calls per request against the failure rate, one line per strategy."),
		YLabel: o.vt("curves", "y_load", "calls per request")}
	l.draw(o)
	s := chart{View: "curves", Line: true, X: xs, Series: ss, XLabel: xl, YPercent: true, YMax: 1, MarkName: mn,
		Title:  o.vt("curves", "title_success", "Requests that succeed"),
		Desc:   o.vt("curves", "desc_success", "Share of requests that succeed against the failure rate, one line per strategy."),
		YLabel: o.vt("curves", "y_success", "success")}
	s.draw(o)
	return nil
}

// openClosedSeries: attempts per second in the four cases, and the calls
// in progress of the open population.
func openClosedSeries(o *outCtx, r *calc.OpenClosedResult) error {
	xs := r.TS
	att := [][]float64{r.AttemptsPerSOpen, r.AttemptsPerSOpenBackoff, r.AttemptsPerSClosed, r.AttemptsPerSClosedBackoff}
	if len(xs) == 0 || len(r.Case) != len(att) {
		return errNoData
	}
	var as []series
	for i, name := range r.Case {
		if len(att[i]) != len(xs) {
			return errNoData
		}
		as = append(as, series{Name: valueLabel(o.c, o.loc, "case", name), Values: att[i]})
	}
	xl := o.vt("series", "x", "time (s)")
	a := chart{View: "series", Line: true, NoDots: true, X: xs, Series: as, XLabel: xl,
		Title:  o.vt("series", "title_attempts", "Attempts sent per second"),
		Desc:   o.vt("series", "desc_attempts", "Attempts per second over time in the four cases."),
		YLabel: o.vt("series", "y_attempts", "attempts/s")}
	a.draw(o)
	p0, ok0 := floats(r.InProgressOpen)
	p1, ok1 := floats(r.InProgressOpenBackoff)
	if ok0 && ok1 && len(p0) == len(xs) && len(p1) == len(xs) {
		p := chart{View: "series", Line: true, NoDots: true, X: xs, XLabel: xl,
			Series: []series{{Name: valueLabel(o.c, o.loc, "case", "open"), Values: p0}, {Name: valueLabel(o.c, o.loc, "case", "open-backoff"), Values: p1}},
			Title:  o.vt("series", "title_progress", "Calls in progress, open population"),
			Desc:   o.vt("series", "desc_progress", "Calls the server is working on at the end of each second, without and with backoff."),
			YLabel: o.vt("series", "y_progress", "calls")}
		p.draw(o)
	}
	return nil
}

// metastableChain: the stationary distribution of the queue at the
// reader's arrival rate, its modes marked.
func metastableChain(o *outCtx, r *calc.MetastableResult) error {
	if len(r.QueueDist) == 0 {
		return errNoData
	}
	xs := make([]float64, len(r.QueueDist))
	mark := make([]bool, len(xs))
	for i := range xs {
		xs[i] = float64(i)
		for _, m := range r.Modes {
			mark[i] = mark[i] || m == i
		}
	}
	c := chart{View: "chain", Line: true, X: xs, YPercent: true,
		Series: []series{{Name: o.vt("chain", "y", "probability"), Values: r.QueueDist, Mark: mark}},
		Title:  o.vt("chain", "title", "Where the queue spends its time"),
		Desc:   o.vt("chain", "desc", "Stationary probability of each queue length, computed exactly; the modes are marked."),
		XLabel: o.vt("chain", "x", "requests in the queue"), YLabel: o.vt("chain", "y", "probability"),
		OutField: "queue_dist"}
	c.draw(o)
	return nil
}

// metastableSweep: the mean queue and the drain time (log scale) against the
// arrival rate, the bistable rates marked.
func metastableSweep(o *outCtx, r *calc.MetastableResult) error {
	xs := r.SweepLambda
	if len(xs) == 0 || len(r.SweepMeanQueue) != len(xs) || len(r.SweepDrainS) != len(xs) || len(r.SweepBistable) != len(xs) {
		return errNoData
	}
	xl := o.vt("sweep", "x", "arrival rate (1/s)")
	mn := o.vt("sweep", "mark", "bistable rates")
	q := chart{View: "sweep", Line: true, X: xs, XLabel: xl, MarkName: mn,
		Series: []series{{Name: o.vt("sweep", "y_queue", "mean queue"), Values: r.SweepMeanQueue, Mark: r.SweepBistable}},
		Title:  o.vt("sweep", "title_queue", "Mean queue against the arrival rate"),
		Desc:   o.vt("sweep", "desc_queue", "Stationary mean queue length at each arrival rate; the marked rates are bistable."),
		YLabel: o.vt("sweep", "y_queue", "mean queue")}
	q.draw(o)
	d := chart{View: "sweep", Line: true, X: xs, XLabel: xl, YLog: true, MarkName: mn,
		Series: []series{{Name: o.vt("sweep", "s_drain", "drain time (s)"), Values: r.SweepDrainS, Mark: r.SweepBistable}},
		Title:  o.vt("sweep", "title_drain", "Time to drain a full queue"),
		Desc:   o.vt("sweep", "desc_drain", "Expected time from a full queue to an empty one, in seconds, on a logarithmic scale (its ticks are powers of ten); the marked rates are bistable."),
		YLabel: o.vt("sweep", "y_drain", "drain time (s), log scale")}
	d.draw(o)
	return nil
}
