package widget

import "retrylab/core/calc"

// concurrencyViews are the views of the concurrency calculator beside
// its table, in the order a widget shows them.
//
//retrylab:views concurrency
func concurrencyViews() []viewDef {
	return []viewDef{{"rates", typed(concurrencyRates), false, false}}
}

// concurrencyRates: calls a minute asked for (rpm), allowed by the
// concurrency cap when one is set (max_concurrency × 60 / latency), and
// completed (the lower). The cap is marked when it is what limits; a
// rate that is simply served is not (the mark is the failures' colour).
func concurrencyRates(o *outCtx, r *calc.ConcurrencyResult) error {
	rpm, _ := argFloat(o.a, "rpm")
	lat, _ := argFloat(o.a, "latency_s")
	y := o.vt("rates", "y", "calls a minute")
	cats := []string{o.vt("rates", "asked", "asked for")}
	vals := []float64{rpm}
	mark := []bool{false}
	if r.CapThroughputPerMin != nil {
		cats = append(cats, o.vt("rates", "cap", "allowed by the cap"))
		vals = append(vals, *r.CapThroughputPerMin)
		mark = append(mark, r.LimitedBy == "concurrency")
	}
	cats = append(cats, o.vt("rates", "done", "completed"))
	vals = append(vals, r.ThroughputPerMin)
	mark = append(mark, false)
	fewBars(o, "rates", o.vt("rates", "title", "Calls a minute: asked for, allowed, completed"),
		o.vt("rates", "desc", "Each call takes {latency} s, so {in_flight} calls are in flight at once; {done} a minute complete.",
			"latency", o.loc.Number(lat), "in_flight", o.loc.Number(r.InFlight), "done", o.loc.Number(r.ThroughputPerMin)),
		y, cats, vals, mark, nil, "throughput_per_min")
	return nil
}
