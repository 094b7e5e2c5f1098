package widget

import (
	"math"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/core/dispatch"
	"retrylab/core/errclass"
	"retrylab/core/standin/heapsort"
)

// errorsClassification: the whole classification as a table, one row per
// class, the chosen class's row marked, with the dispatcher's step for the
// page's switches (fallback, idempotency), budget left and spent.
func errorsClassification(o *outCtx, r *calc.ErrorsResult) error {
	chosen := r.Class
	fb, id := true, true
	if p := o.c.Param("fallback"); p != nil && p.Kind == calc.Bool && o.a.Has("fallback") {
		fb = o.a.Bool("fallback")
	}
	if p := o.c.Param("idempotency"); p != nil && p.Kind == calc.Bool && o.a.Has("idempotency") {
		id = o.a.Bool("idempotency")
	}
	b := o.b
	val := func(field, v string) string { return valueLabel(o.c, o.loc, field, v) }
	cols := []struct {
		key, def string
		w        float64 // column width in the SVG
	}{
		{"error", "error", 230}, {"status", "HTTP status", 95}, {"decision", "user waiting", 135}, {"batch", "background job", 160},
		{"billed", "may have been billed", 165}, {"dispatcher", "dispatcher, budget left", 180}, {"after", "dispatcher, budget spent", 180},
	}
	table := errclass.Table()
	rows := make([][]string, len(table))
	current := -1
	for i, e := range table {
		status := "—"
		if e.Status != 0 {
			status = strconv.Itoa(e.Status)
			if !e.Standard {
				status += " *"
			}
		}
		rows[i] = []string{val("class", e.Key), status, val("decision", string(e.Decision)), val("decision", string(e.Batch)),
			val("processed", string(e.Processed)), val("dispatcher", string(dispatch.Decide(e, fb, id, true))),
			val("dispatcher", string(dispatch.Decide(e, fb, id, false)))}
		if e.Key == chosen {
			current = i
		}
	}
	if current < 0 {
		return errNoData
	}
	title := o.vt("classification", "title", "How the dispatcher classifies errors")
	desc := o.vt("classification", "desc", "{error}: with a user waiting, {decision}; in a background job, {batch}; processed by the provider: {processed}; the dispatcher: {dispatcher}, and once the retry budget is spent: {after}.",
		"error", rows[current][0], "decision", rows[current][2], "batch", rows[current][3], "processed", rows[current][4],
		"dispatcher", rows[current][5], "after", rows[current][6])
	// an HTML table, not a drawing of one: its text keeps the page's size
	// on a phone, and it scrolls in its own box with the first column
	// fixed (widget.css); the chosen error's row is marked
	b.WriteString(`<figure class="widget-chart" data-view="classification">`)
	writef(b, `<p class="visually-hidden">%s</p>`, esc(desc))
	writef(b, `<table class="widget-table widget-classification" tabindex="0" data-chart-data><caption>%s</caption><thead><tr>`, esc(title)) // it scrolls in its own box: the keyboard must reach it
	for _, c := range cols {
		writef(b, `<th scope="col">%s</th>`, esc(o.vt("classification", c.key, c.def)))
	}
	b.WriteString("</tr></thead><tbody>")
	for i, r := range rows {
		cur := ""
		if i == current {
			cur = ` aria-current="true"`
		}
		writef(b, `<tr data-row="%s"%s><th scope="row">%s</th>`, esc(table[i].Key), cur, esc(r[0]))
		for _, v := range r[1:] {
			writef(b, "<td>%s</td>", esc(v))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	writef(b, "<figcaption>%s</figcaption>", esc(o.vt("classification", "caption",
		"The chosen error is marked. * is not a standard HTTP status: one provider's own code.")))
	b.WriteString("</figure>\n")
	return nil
}

// timeoutsCuts: the calls each timeout cut, those after the first token
// marked.
func timeoutsCuts(o *outCtx, r *calc.TimeoutsResult) error {
	names := []string{"cut_connect", "cut_first_token", "cut_idle", "cut_total"}
	vals := []float64{float64(r.CutConnect), float64(r.CutFirstToken), float64(r.CutIdle), float64(r.CutTotal)}
	cats := make([]string, len(names))
	mark := make([]bool, len(names))
	for i, n := range names {
		cats[i], mark[i] = o.vt("cuts", n, n), i > 1
	}
	retries, user, thrown := float64(r.RetriesCaused), float64(r.HandedToUser), float64(r.TokensThrownAway)
	calls, done := float64(r.Calls), float64(r.Completed)
	ch := chart{
		View:  "cuts",
		Title: o.vt("cuts", "title", "Calls cut by each timeout"),
		Desc: o.vt("cuts", "desc", "Of {calls} streamed calls {done} complete. Cuts before the first token cause {retries} transparent retries; cuts after it, marked, go to the user ({user}) and throw away {tokens} billed tokens.",
			"calls", o.loc.Number(calls), "done", o.loc.Number(done), "retries", o.loc.Number(retries), "user", o.loc.Number(user), "tokens", o.loc.Number(thrown)),
		XLabel:     "",
		YLabel:     o.vt("cuts", "y", "calls"),
		Categories: cats,
		Series:     []series{{Name: o.vt("cuts", "y", "calls"), Values: vals, Mark: mark}},
	}
	ch.draw(o)
	return nil
}

// timeoutsFirstToken: the time to the first token per bin, the bins past
// the first-token timeout marked and a line at the timeout.
func timeoutsFirstToken(o *outCtx, r *calc.TimeoutsResult) error {
	counts, ok1 := floats(r.FirstTokenCounts)
	starts, ok2 := floats(r.FirstTokenBinStartsS)
	w := r.WidthS
	if !ok1 || !ok2 || len(counts) != len(starts) || len(counts) == 0 {
		return errNoData
	}
	timeout, _ := argFloat(o.a, "first_token_timeout_s")
	cats := make([]string, len(counts))
	mark := make([]bool, len(counts))
	vmark := 0
	for i, s := range starts {
		cats[i] = o.loc.Number(s)
		if timeout > 0 && s+w > timeout {
			mark[i] = true
			if vmark == 0 && s >= timeout {
				vmark = i + 1
			}
		}
	}
	cut, p95 := float64(r.CutFirstToken), r.FirstTokenP95S
	ch := chart{
		View:  "first_token",
		Title: o.vt("first_token", "title", "Time to the first token"),
		Desc: o.vt("first_token", "desc", "Connected calls by time from connection to first token, in bins of {w} s; the 95th percentile is {p95} s, and the timeout of {t} s cuts {cut} calls (marked bins; the last bin holds every later call).",
			"w", o.loc.Number(w), "p95", o.loc.Number(math.Round(p95*100)/100), "t", o.loc.Number(timeout), "cut", o.loc.Number(cut)),
		XLabel:     o.vt("first_token", "x", "time to the first token, start of the bin (s)"),
		YLabel:     o.vt("first_token", "y", "calls"),
		Categories: cats,
		Series:     []series{{Name: o.vt("first_token", "y", "calls"), Values: counts, Mark: mark}},
		VMark:      vmark,
		VLabel:     o.vt("first_token", "timeout", "first-token timeout"),
		OutField:   "first_token_counts",
	}
	ch.draw(o)
	return nil
}

// dispatchMetrics: the run's metrics as an engineer would export them, in
// the Prometheus text format: counters with their labels, the queue-wait
// histogram (cumulative buckets, _sum left out: the result does not
// hold it), and gauges. The names are code, the same in every language;
// each HELP line is in the reader's language ([view.dispatch.metrics]
// METRIC; a metric without one has no HELP line, which the format
// allows); the caption says what to watch.
func dispatchMetrics(o *outCtx, r *calc.DispatchResult) error {
	b := o.b
	var lines []string
	add := func(s string) { lines = append(lines, s) }
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	// counters from the result's small objects, one series per key
	// counters from the result's small maps, one series per key, in the
	// order of their JSON (sorted keys)
	help := func(metric, typ string) {
		if h := o.vt("metrics", metric, ""); h != "" {
			add("# HELP " + metric + " " + h)
		}
		add("# TYPE " + metric + " " + typ)
	}
	counters := []struct {
		m             map[string]int
		metric, label string
	}{
		{r.RequestsByStatus, "llm_requests_total", "status"},
		{r.RateLimitHits, "llm_rate_limited_total", "limit"},
		{r.RetriesByError, "llm_retries_total", "error"},
		{r.FallbacksByReason, "llm_fallbacks_total", "reason"},
		{r.GaveUpByReason, "llm_jobs_gave_up_total", "reason"},
	}
	for _, c := range counters {
		if c.m == nil {
			return errNoData
		}
		keys := make([]string, 0, len(c.m))
		for k := range c.m {
			keys = append(keys, k)
		}
		heapsort.Strings(keys)
		help(c.metric, "counter")
		for _, k := range keys {
			add(c.metric + `{` + c.label + `="` + k + `"} ` + strconv.Itoa(c.m[k]))
		}
	}
	plain := []struct {
		v           float64
		metric, typ string
	}{
		{float64(r.TokensReserved), "llm_tokens_reserved_total", "counter"},
		{float64(r.TokensUsed), "llm_tokens_used_total", "counter"},
		{float64(r.DuplicatesSuppressed), "llm_duplicates_suppressed_total", "counter"},
		{float64(r.DeadLetters), "llm_dead_letters_total", "counter"},
		{float64(r.Completed), "llm_jobs_completed_total", "counter"},
		{float64(r.MaxQueueDepth), "llm_queue_depth_max", "gauge"},
	}
	for _, p := range plain {
		help(p.metric, p.typ)
		add(p.metric + " " + num(p.v))
	}
	buckets, ok1 := floats(r.QueueWaitBuckets)
	le, ok2 := floats(r.QueueWaitLeS)
	if !ok1 || !ok2 || len(buckets) != len(le)+1 {
		return errNoData
	}
	help("llm_queue_wait_seconds", "histogram")
	for i, n := range buckets {
		bound := "+Inf"
		if i < len(le) {
			bound = num(le[i])
		}
		add(`llm_queue_wait_seconds_bucket{le="` + bound + `"} ` + num(n))
	}
	add("llm_queue_wait_seconds_count " + num(buckets[len(buckets)-1]))
	text := strings.Join(lines, "\n") + "\n"
	writef(b, `<figure class="widget-chart" data-view="metrics"><pre class="widget-metrics" tabindex="0" data-out="queue_wait_buckets" data-value="%s">%s</pre>`,
		esc(o.outRaw("queue_wait_buckets")), esc(text))
	writef(b, "<figcaption>%s</figcaption></figure>\n", esc(o.vt("metrics", "caption",
		"The run's metrics in the Prometheus text format, as a dashboard would scrape them: counters by label, the queue-wait histogram. Watch 429s by limit, retries by error and reserved against used tokens together.")))
	return nil
}

// estimateRate: the calls a minute the limiter lets through on its
// estimate against those the provider allows, the excess marked.
func estimateRate(o *outCtx, r *calc.EstimateResult) error {
	admitted, possible, rejected := r.AdmittedPerMin, r.PossiblePerMin, r.RejectedPerMin
	fewBars(o, "rate", o.vt("rate", "title", "Calls a minute: the limiter's estimate against the provider's count"),
		o.vt("rate", "desc", "Reserving the estimated prompt, the limiter lets {admitted} calls a minute through; the provider, counting the true prompt, allows {possible}; {rejected} a minute come back as 429.",
			"admitted", o.loc.Number(admitted), "possible", o.loc.Number(possible), "rejected", o.loc.Number(rejected)),
		o.vt("rate", "y", "calls a minute"),
		[]string{o.vt("rate", "admitted", "admitted by the limiter"), o.vt("rate", "possible", "allowed by the provider")},
		[]float64{admitted, possible}, []bool{rejected > 0, false},
		[]rule{{Y: possible, Label: o.vt("rate", "limit", "the provider's limit"), Split: true}}, "")
	return nil
}
