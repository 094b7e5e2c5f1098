package widget

import (
	"math"

	"retrylab/core/calc"
)

// policyRuns is the typed list of a policies result, checked for the
// views: ok is false for an empty list or a run without its series.
func policyRuns(r *calc.PoliciesResult) ([]calc.PolicyRun, bool) {
	if len(r.Results) == 0 {
		return nil, false
	}
	for _, p := range r.Results {
		if p.OfferedPerS == nil || p.GoodputPerS == nil || p.RetriesPerS == nil || p.Queue == nil {
			return nil, false
		}
	}
	return r.Results, true
}

// recoveryOf is a run's recovery time in s, NaN when it never recovers.
func recoveryOf(p calc.PolicyRun) float64 {
	if p.RecoveryS == nil {
		return nan()
	}
	return *p.RecoveryS
}

func nan() float64 { return math.NaN() }

// policyLabel is a policy's name for the reader: field.policies.policy.NAME.
func (o *outCtx) policyLabel(name string) string {
	return valueLabel(o.c, o.loc, "policy", name)
}

// policiesSummary: a bar per policy, the share of requests served, the
// policies that never recover marked.
func policiesSummary(o *outCtx, r *calc.PoliciesResult) error {
	runs, ok := policyRuns(r)
	if !ok {
		return errNoData
	}
	cats := make([]string, len(runs))
	keys := make([]string, len(runs))
	vals := make([]float64, len(runs))
	mark := make([]bool, len(runs))
	var stuck []string
	for i, p := range runs {
		cats[i], keys[i], vals[i], mark[i] = o.policyLabel(p.Policy), p.Policy, p.Goodput, !p.Recovered
		if !p.Recovered {
			stuck = append(stuck, cats[i])
		}
	}
	never := o.vt("summary", "all_recover", "every policy recovers within the horizon")
	if len(stuck) > 0 {
		never = o.vt("summary", "stuck", "never recover within the horizon: {list}", "list", o.loc.List(stuck))
	}
	ch := chart{
		View: "summary", YPercent: true, YMax: 1,
		Title:      o.vt("summary", "title", "Requests served, policy by policy"),
		Desc:       o.vt("summary", "desc", "The share of requests that get an answer in time over the whole run, for each policy on the same outage; marked bars: {never}.", "never", never),
		XLabel:     o.vt("summary", "x", "policy"),
		YLabel:     o.vt("summary", "y", "requests served"),
		Categories: cats, Keys: keys,
		Series:   []series{{Name: o.vt("summary", "y", "requests served"), Values: vals, Mark: mark}},
		OutField: "goodput",
	}
	ch.draw(o)
	return nil
}

// policiesCompare: a table, a row per policy: recovered or not, after how
// long, attempts per request, goodput and wasted work.
func policiesCompare(o *outCtx, r *calc.PoliciesResult) error {
	runs, ok := policyRuns(r)
	if !ok {
		return errNoData
	}
	b := o.b
	col := func(key, def string) string { return esc(o.vt("compare", key, def)) }
	writef(b, `<table class="widget-table" tabindex="0" data-view="compare" data-out="recovered" data-value="%s"><caption>%s</caption><thead><tr>`,
		esc(o.outRaw("recovered")), col("title", "Each policy on the same outage"))
	for _, h := range [][2]string{
		{"policy", "policy"}, {"recovered", "recovered"}, {"recovery", "recovery after the trigger (s)"},
		{"amplification", "attempts per request"}, {"goodput", "requests served"}, {"wasted", "wasted server time (s)"},
	} {
		writef(b, `<th scope="col">%s</th>`, col(h[0], h[1]))
	}
	b.WriteString("</tr></thead><tbody>\n")
	for _, p := range runs {
		rec := o.loc.YesNo(p.Recovered)
		after := o.vt("compare", "never", "never, within the horizon")
		if p.Status == "draining" {
			after = o.vt("compare", "draining", "not yet: still draining when the run stops")
		}
		if p.Recovered {
			after = o.loc.Number(recoveryOf(p))
		}
		writef(b, `<tr data-row="%s"><th scope="row"><span class="widget-swatch %s" aria-hidden="true"></span>%s</th><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`+"\n",
			esc(p.Policy), policyClass(esc(p.Policy)), esc(o.policyLabel(p.Policy)), esc(rec), esc(after), esc(o.loc.Fixed(p.Amplification, 2)),
			esc(o.loc.Percent(p.Goodput, 1)), esc(o.loc.Number(p.WastedWork)))
	}
	b.WriteString("</tbody></table>\n")
	return nil
}

// policiesTimeline: per policy, the attempts sent, the retries among them
// and the answers in time, per second, with the server's capacity.
func policiesTimeline(o *outCtx, r *calc.PoliciesResult) error {
	runs, ok := policyRuns(r)
	ts, ok2 := floats(r.TS)
	end := r.TriggerEndS
	if !ok || !ok2 || len(ts) < 2 {
		return errNoData
	}
	start, _ := argFloat(o.a, "trigger_start_s")
	var rules []rule
	slots, ok4 := argFloat(o.a, "slots")
	svc, ok5 := argFloat(o.a, "service_ms")
	if ok4 && ok5 && svc > 0 {
		rules = append(rules, rule{Y: slots * 1000 / svc, Label: o.vt("timeline", "capacity", "server capacity")})
	}
	for _, p := range runs {
		if len(p.OfferedPerS) != len(ts) || len(p.GoodputPerS) != len(ts) || len(p.RetriesPerS) != len(ts) {
			return errNoData
		}
		verdict := o.vt("timeline", "never", "goodput does not come back within the horizon")
		if p.Recovered {
			verdict = o.vt("timeline", "recovered", "goodput is back {after} s after the trigger", "after", o.loc.Number(recoveryOf(p)))
		}
		name := o.policyLabel(p.Policy)
		ch := chart{
			View: "timeline", Line: true, NoDots: true, X: ts, Rules: rules, Policy: p.Policy,
			Title: o.vt("timeline", "title", "{policy}: load and goodput per second", "policy", name),
			Desc: o.vt("timeline", "desc", "{policy}: attempts sent, retries among them and answers in time, per second; the trigger lasts from {start} to {end} s; {verdict}.",
				"policy", name, "start", o.loc.Number(start), "end", o.loc.Number(end), "verdict", verdict),
			XLabel: o.vt("timeline", "x", "time (s)"),
			YLabel: o.vt("timeline", "y", "per second"),
			Series: []series{
				{Name: o.vt("timeline", "offered", "attempts sent"), Values: p.OfferedPerS},
				{Name: o.vt("timeline", "goodput", "answers in time"), Values: p.GoodputPerS},
				{Name: o.vt("timeline", "retries", "retries"), Values: p.RetriesPerS},
			},
		}
		ch.draw(o)
	}
	return nil
}

// policiesQueue: per policy, the calls waiting in the server's queue.
func policiesQueue(o *outCtx, r *calc.PoliciesResult) error {
	runs, ok := policyRuns(r)
	ts, ok2 := floats(r.TS)
	if !ok || !ok2 || len(ts) < 2 {
		return errNoData
	}
	var rules []rule
	if qcap, ok := argFloat(o.a, "queue_cap"); ok {
		rules = append(rules, rule{Y: qcap, Label: o.vt("queue", "cap", "queue limit")})
	}
	for _, p := range runs {
		q, _ := floats(p.Queue)
		if len(q) != len(ts) {
			return errNoData
		}
		name := o.policyLabel(p.Policy)
		ch := chart{
			View: "queue", Line: true, NoDots: true, X: ts, Rules: rules, Policy: p.Policy,
			Title:  o.vt("queue", "title", "{policy}: the server's queue", "policy", name),
			Desc:   o.vt("queue", "desc", "{policy}: calls waiting for a worker at the end of each interval, those the client has given up on included.", "policy", name),
			XLabel: o.vt("queue", "x", "time (s)"),
			YLabel: o.vt("queue", "y", "calls in the queue"),
			Series: []series{{Name: o.vt("queue", "y", "calls in the queue"), Values: q}},
		}
		ch.draw(o)
	}
	return nil
}

// policiesViews are the views of the policies calculator beside its
// table. timeline (nine charts with their data tables) and queue are
// offered, not shown by default: play draws the same seconds of every
// policy in one figure, and the default set recomputes within a frame
// (make bench, wasmbench).
//
//retrylab:views policies
func policiesViews() []viewDef {
	return []viewDef{{"table", keyedTable, true, false}, {"summary", typed(policiesSummary), false, false}, {"compare", typed(policiesCompare), false, false}, {"timeline", typed(policiesTimeline), true, false}, {"queue", typed(policiesQueue), true, false}, {"play", typed(policiesPlay), false, false}, {"flow", typed(policiesFlow), true, true}}
}
