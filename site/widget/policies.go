package widget

import (
	"math"
	"strconv"

	"retrylab/core/canonjson"
)

// policyRun is what the views of the policies calculator read of one
// element of its results list.
type policyRun struct {
	name                           string
	recovered                      bool
	recovery                       float64 // s; NaN when never
	amplification, goodput, wasted float64
	offered, good, retries, queue  []float64
}

// policyRuns decodes the results list of a policies result.
func policyRuns(r *result) ([]policyRun, bool) {
	raw, ok := r.raw("results")
	if !ok {
		return nil, false
	}
	elems, ok := splitList(raw)
	if !ok || len(elems) == 0 {
		return nil, false
	}
	runs := make([]policyRun, 0, len(elems))
	for _, e := range elems {
		fields, ok := splitObject(e)
		if !ok {
			return nil, false
		}
		obj := &result{list: fields, index: make(map[string]int, len(fields))}
		for i, f := range fields {
			obj.index[f.Name] = i
		}
		var p policyRun
		nameRaw, ok1 := obj.raw("policy")
		name, ok2 := canonjson.Unquote(nameRaw)
		rec, ok3 := obj.raw("recovered")
		recS, ok4 := obj.raw("recovery_s")
		amp, ok5 := obj.num("amplification")
		good, ok6 := obj.num("goodput")
		wasted, ok7 := obj.num("wasted_work")
		off, ok8 := obj.nums("offered_per_s")
		gps, ok9 := obj.nums("goodput_per_s")
		rps, ok10 := obj.nums("retries_per_s")
		q, ok11 := obj.nums("queue")
		if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && ok8 && ok9 && ok10 && ok11) {
			return nil, false
		}
		p.name, p.recovered = name, string(rec) == "true"
		p.recovery = nan()
		if string(recS) != "null" {
			v, err := strconv.ParseFloat(string(recS), 64)
			if err != nil {
				return nil, false
			}
			p.recovery = v
		}
		p.amplification, p.goodput, p.wasted = amp, good, wasted
		p.offered, p.good, p.retries, p.queue = off, gps, rps, q
		runs = append(runs, p)
	}
	return runs, true
}

func nan() float64 { return math.NaN() }

// policyLabel is a policy's name for the reader: field.policies.policy.NAME.
func (o *outCtx) policyLabel(name string) string {
	return valueLabel(o.c, o.loc, "policy", name)
}

// policiesSummary: a bar per policy, the share of requests served, the
// policies that never recover marked.
func policiesSummary(o *outCtx) error {
	runs, ok := policyRuns(o.r)
	if !ok {
		return errNoData
	}
	cats := make([]string, len(runs))
	vals := make([]float64, len(runs))
	mark := make([]bool, len(runs))
	var stuck []string
	for i, p := range runs {
		cats[i], vals[i], mark[i] = o.policyLabel(p.name), p.goodput, !p.recovered
		if !p.recovered {
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
		Categories: cats,
		Series:     []series{{Name: o.vt("summary", "y", "requests served"), Values: vals, Mark: mark}},
		OutField:   "goodput", OutRaw: o.outRaw("goodput"),
	}
	ch.write(o.b, o.loc)
	return nil
}

// policiesCompare: a table, a row per policy: recovered or not, after how
// long, attempts per request, goodput and wasted work.
func policiesCompare(o *outCtx) error {
	runs, ok := policyRuns(o.r)
	if !ok {
		return errNoData
	}
	b := o.b
	col := func(key, def string) string { return esc(o.vt("compare", key, def)) }
	writef(b, `<table class="widget-table" data-view="compare" data-out="recovered" data-value="%s"><caption>%s</caption><thead><tr>`,
		esc(o.outRaw("recovered")), col("title", "Each policy on the same outage"))
	for _, h := range [][2]string{
		{"policy", "policy"}, {"recovered", "recovered"}, {"recovery", "recovery after the trigger (s)"},
		{"amplification", "attempts per request"}, {"goodput", "requests served"}, {"wasted", "wasted server time (s)"},
	} {
		writef(b, `<th scope="col">%s</th>`, col(h[0], h[1]))
	}
	b.WriteString("</tr></thead><tbody>\n")
	for _, p := range runs {
		rec := o.loc.YesNo(p.recovered)
		after := o.vt("compare", "never", "never, within the horizon")
		if p.recovered {
			after = o.loc.Number(p.recovery)
		}
		writef(b, `<tr data-row="%s"><th scope="row">%s</th><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`+"\n",
			esc(p.name), esc(o.policyLabel(p.name)), esc(rec), esc(after), esc(o.loc.Fixed(p.amplification, 2)),
			esc(o.loc.Percent(p.goodput, 1)), esc(o.loc.Number(float64(int64(p.wasted*10+0.5))/10)))
	}
	b.WriteString("</tbody></table>\n")
	return nil
}

// policiesTimeline: per policy, the attempts sent, the retries among them
// and the answers in time, per second, with the server's capacity.
func policiesTimeline(o *outCtx) error {
	runs, ok := policyRuns(o.r)
	ts, ok2 := o.r.nums("t_s")
	end, ok3 := o.r.num("trigger_end_s")
	if !ok || !ok2 || !ok3 || len(ts) < 2 {
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
		if len(p.offered) != len(ts) || len(p.good) != len(ts) || len(p.retries) != len(ts) {
			return errNoData
		}
		verdict := o.vt("timeline", "never", "goodput does not come back within the horizon")
		if p.recovered {
			verdict = o.vt("timeline", "recovered", "goodput is back {after} s after the trigger", "after", o.loc.Number(p.recovery))
		}
		name := o.policyLabel(p.name)
		ch := chart{
			View: "timeline", Line: true, X: ts, Rules: rules,
			Title: o.vt("timeline", "title", "{policy}: load and goodput per second", "policy", name),
			Desc: o.vt("timeline", "desc", "{policy}: attempts sent, retries among them and answers in time, per second; the trigger lasts from {start} to {end} s; {verdict}.",
				"policy", name, "start", o.loc.Number(start), "end", o.loc.Number(end), "verdict", verdict),
			XLabel: o.vt("timeline", "x", "time (s)"),
			YLabel: o.vt("timeline", "y", "per second"),
			Series: []series{
				{Name: o.vt("timeline", "offered", "attempts sent"), Values: p.offered},
				{Name: o.vt("timeline", "goodput", "answers in time"), Values: p.good},
				{Name: o.vt("timeline", "retries", "retries"), Values: p.retries},
			},
		}
		ch.write(o.b, o.loc)
	}
	return nil
}

// policiesQueue: per policy, the calls waiting in the server's queue.
func policiesQueue(o *outCtx) error {
	runs, ok := policyRuns(o.r)
	ts, ok2 := o.r.nums("t_s")
	if !ok || !ok2 || len(ts) < 2 {
		return errNoData
	}
	var rules []rule
	if qcap, ok := argFloat(o.a, "queue_cap"); ok {
		rules = append(rules, rule{Y: qcap, Label: o.vt("queue", "cap", "queue limit")})
	}
	for _, p := range runs {
		if len(p.queue) != len(ts) {
			return errNoData
		}
		name := o.policyLabel(p.name)
		ch := chart{
			View: "queue", Line: true, X: ts, Rules: rules,
			Title:  o.vt("queue", "title", "{policy}: the server's queue", "policy", name),
			Desc:   o.vt("queue", "desc", "{policy}: calls waiting for a worker at the end of each interval, those the client has given up on included.", "policy", name),
			XLabel: o.vt("queue", "x", "time (s)"),
			YLabel: o.vt("queue", "y", "calls in the queue"),
			Series: []series{{Name: o.vt("queue", "y", "calls in the queue"), Values: p.queue}},
		}
		ch.write(o.b, o.loc)
	}
	return nil
}
