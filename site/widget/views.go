package widget

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/core/crowd"
	"retrylab/core/retry"
	"retrylab/site/locale"
)

// errNoData is returned by a view whose result lacks the fields it draws.
var errNoData = errors.New("the result lacks the fields this view draws")

// typed adapts a view of the results of type R (a calculator's result
// struct, calc.JitterResult): fn gets the value the calculator returned,
// so that a field renamed or retyped in core/calc is a compile error
// here. A result of another type cannot be drawn (errNoData).
func typed[R any](fn func(o *outCtx, r *R) error) view {
	return func(o *outCtx) error {
		r, ok := o.r.val.(R)
		if !ok {
			return errNoData
		}
		return fn(o, &r)
	}
}

// floats converts a list of a result to float64 for a chart; ok is false
// for a nil list (which the result encodes as null).
func floats[T int | int64 | float64](xs []T) ([]float64, bool) {
	if xs == nil {
		return nil, false
	}
	fs := make([]float64, len(xs))
	for i, x := range xs {
		fs[i] = float64(x)
	}
	return fs, true
}

// attemptsCurve: expected attempts and success probability against N,
// for N from 1 to max(10, n) (at most 100), the page's n marked.
func attemptsCurve(o *outCtx, r *calc.AttemptsResult) error {
	q, n := r.Q, r.N
	top := min(max(10, n), 100)
	xs := make([]float64, top)
	exp := make([]float64, top)
	succ := make([]float64, top)
	mark := make([]bool, top)
	for k := 1; k <= top; k++ {
		e, s := retry.ExpectedAttempts(q, k)
		xs[k-1], exp[k-1], succ[k-1], mark[k-1] = float64(k), e, s, k == n
	}
	xl := o.vt("curve", "x", "attempts at most (N)")
	qs := o.loc.Number(q)
	e := chart{
		View: "curve", Line: true, X: xs,
		Title:  o.vt("curve", "title_expected", "Expected attempts against N"),
		Desc:   o.vt("curve", "desc_expected", "With failure probability {q}, the expected number of attempts for N from 1 to {top}; it approaches 1/(1-q).", "q", qs, "top", o.loc.Int(int64(top))),
		XLabel: xl,
		YLabel: o.vt("curve", "y_expected", "expected attempts"),
		Series: []series{{Name: o.vt("curve", "y_expected", "expected attempts"), Values: exp, Mark: mark}},
	}
	e.draw(o)
	s := chart{
		View: "curve", Line: true, X: xs, YPercent: true, YMax: 1,
		Title:  o.vt("curve", "title_success", "Success probability against N"),
		Desc:   o.vt("curve", "desc_success", "With failure probability {q}, the probability that one of N attempts succeeds (1 - q^N), for N from 1 to {top}.", "q", qs, "top", o.loc.Int(int64(top))),
		XLabel: xl,
		YLabel: o.vt("curve", "y_success", "success probability"),
		Series: []series{{Name: o.vt("curve", "y_success", "success probability"), Values: succ, Mark: mark}},
	}
	s.draw(o)
	return nil
}

// jitterHistogram: arrivals per bin, the peak bin marked: the one the
// result names (its first, when bins tie), as the description says.
func jitterHistogram(o *outCtx, r *calc.JitterResult) error {
	counts, ok1 := floats(r.Counts)
	starts, ok2 := floats(r.BinStartsMS)
	peak := float64(r.Peak)
	if !ok1 || !ok2 || len(starts) != len(counts) {
		return errNoData
	}
	g := groupSize(len(counts))
	gc := group(counts, g)
	cats := make([]string, len(gc))
	mark := make([]bool, len(gc))
	for i := range gc {
		cats[i] = o.loc.Number(starts[i*g])
	}
	for j, s := range starts {
		if s == r.PeakBinStartMS && counts[j] == peak {
			mark[j/g] = true
			break
		}
	}
	width := "?"
	if w, ok := argFloat(o.a, "width_ms"); ok {
		width = o.loc.Number(w * float64(g))
	}
	outField, outRaw := "counts", o.outRaw("counts")
	if g > 1 {
		outField, outRaw = "", "" // the chart shows sums of bins, not the field
	}
	total, peakStart := float64(r.Total), r.PeakBinStartMS
	ch := chart{
		View:  "histogram",
		Title: o.vt("histogram", "title", "Retries per {w} ms bin", "w", width),
		Desc: o.vt("histogram", "desc", "{total} retries in {bins} bins of {w} ms; the fullest bin, from {start} ms, holds {peak}.",
			"total", o.loc.Number(total), "bins", o.loc.Int(int64(len(gc))), "w", width, "start", o.loc.Number(peakStart), "peak", o.loc.Number(peak)),
		XLabel:     o.vt("histogram", "x", "arrival time, start of the bin (ms)"),
		YLabel:     o.vt("histogram", "y", "retries in the bin"),
		Categories: cats,
		Series:     []series{{Name: o.vt("histogram", "y", "retries in the bin"), Values: gc, Mark: mark}},
		MarkName:   o.vt("histogram", "mark", "the fullest bin"),
		OutField:   outField, OutRaw: outRaw,
	}
	ch.draw(o)
	return nil
}

// budgetHistogram: how many requests made 1, 2, … attempts.
func budgetHistogram(o *outCtx, r *calc.BudgetResult) error {
	h, ok := floats(r.AttemptsHistogram)
	if !ok || len(h) == 0 {
		return errNoData
	}
	cats := make([]string, len(h))
	for i := range h {
		cats[i] = o.loc.Int(int64(i + 1))
	}
	ch := chart{
		View:  "histogram",
		Title: o.vt("histogram", "title", "Requests by number of attempts made"),
		Desc: o.vt("histogram", "desc", "How many requests made 1 to {n} attempts: {list}.",
			"n", o.loc.Int(int64(len(h))), "list", numsText(o.loc, h)),
		XLabel:     o.vt("histogram", "x", "attempts made"),
		YLabel:     o.vt("histogram", "y", "requests"),
		Categories: cats,
		Series:     []series{{Name: o.vt("histogram", "y", "requests"), Values: h}},
		OutField:   "attempts_histogram",
	}
	ch.draw(o)
	return nil
}

// budgetTokens: calls made with the budget against without it, first
// attempts and retries side by side.
func budgetTokens(o *outCtx, r *calc.BudgetResult) error {
	first, retries, unb := float64(r.FirstAttempts), float64(r.Retries), float64(r.UnbudgetedTotal)
	with := o.vt("tokens", "with", "with the budget")
	without := o.vt("tokens", "without", "without a budget")
	ch := chart{
		View:  "tokens",
		Title: o.vt("tokens", "title", "Calls with and without the retry budget"),
		Desc: o.vt("tokens", "desc", "With the budget: {first} first attempts and {retries} retries; without it every request makes all its attempts: {unbudgeted} calls.",
			"first", o.loc.Number(first), "retries", o.loc.Number(retries), "unbudgeted", o.loc.Number(unb)),
		XLabel:     "",
		YLabel:     o.vt("tokens", "y", "calls"),
		Categories: []string{with, without},
		Series: []series{
			{Name: o.vt("tokens", "first", "first attempts"), Values: []float64{first, first}},
			{Name: o.vt("tokens", "retries", "retries"), Values: []float64{retries, unb - first}},
		},
	}
	ch.draw(o)
	return nil
}

// limitsUtilization: the share of each limit the workload uses, 100 %
// drawn as a rule.
func limitsUtilization(o *outCtx, r *calc.LimitsResult) error {
	rpm, tpm := r.RPMUtilization, r.TPMUtilization
	ch := chart{
		View:  "utilization",
		Title: o.vt("utilization", "title", "Share of each limit used"),
		Desc: o.vt("utilization", "desc", "Requests use {rpm} of the requests-per-minute limit, tokens {tpm} of the tokens-per-minute limit; above 100 % the provider answers 429.",
			"rpm", o.loc.Percent(rpm, 1), "tpm", o.loc.Percent(tpm, 1)),
		XLabel:     "",
		YLabel:     o.vt("utilization", "y", "share of the limit"),
		YPercent:   true,
		YMax:       1,
		Categories: []string{o.vt("utilization", "rpm", "requests (RPM)"), o.vt("utilization", "tpm", "tokens (TPM)")},
		Series:     []series{{Name: o.vt("utilization", "y", "share of the limit"), Values: []float64{rpm, tpm}, Mark: []bool{rpm > 1, tpm > 1}}},
		Rules:      []rule{{Y: 1, Label: o.vt("utilization", "limit", "limit")}},
	}
	ch.draw(o)
	return nil
}

// peakDistribution: the distribution of the fullest bin's count, from the
// result's max_at_least (P(max >= m)); the values at or above the
// threshold marked. Without it (too large to compute) the distribution of
// one bin's count stands in, under its own title.
func peakDistribution(o *outCtx, r *calc.PeakResult) error {
	atLeast := r.MaxAtLeast
	if len(atLeast) < 2 {
		return peakBin(o, r)
	}
	tf, ok1 := argFloat(o.a, "threshold")
	nf, ok2 := argFloat(o.a, "clients")
	kf, ok3 := argFloat(o.a, "bins")
	if !ok1 || !ok2 || !ok3 {
		return errNoData
	}
	t := int(tf)
	// P(max = m) = P(max >= m) - P(max >= m+1); the list ends where the
	// tail is below 1e-15, so the last value is the rest.
	lo := 0
	for lo+1 < len(atLeast) && atLeast[lo+1] >= 1-1e-12 {
		lo++ // P(max = m) is 0 below the pigeonhole bound: start there
	}
	var cats []string
	var vals []float64
	var mark []bool
	vmark := 0
	hi := len(atLeast) - 1
	for hi > t+2 && hi > lo+1 && atLeast[hi] < 1e-6 {
		hi-- // the tail below one in a million adds bars no one can see
	}
	for m := lo; m <= hi; m++ {
		p := atLeast[m]
		if m+1 < len(atLeast) {
			p -= atLeast[m+1]
		}
		cats = append(cats, o.loc.Int(int64(m)))
		vals = append(vals, math.Max(p, 0))
		mark = append(mark, m >= t)
		if m == t {
			vmark = len(cats)
		}
	}
	mode := 0.0
	if r.MaxMostLikely != nil {
		mode = float64(*r.MaxMostLikely)
	}
	anyBin := "?"
	if t < len(atLeast) {
		anyBin = o.loc.Number(atLeast[t])
	} else {
		anyBin = "< " + o.loc.Number(1e-15)
	}
	ch := chart{
		View:  "distribution",
		Title: o.vt("distribution", "max_title", "How many clients the fullest bin holds"),
		Desc: o.vt("distribution", "max_desc", "Probability that the fullest of {k} bins receives exactly m of the {n} clients; the most likely value is {mode}; the marked bars, {t} and more, together have probability {any}.",
			"n", o.loc.Int(int64(nf)), "k", o.loc.Int(int64(kf)), "t", o.loc.Int(int64(t)), "mode", o.loc.Number(mode), "any", anyBin),
		XLabel:     o.vt("distribution", "max_x", "clients in the fullest bin"),
		YLabel:     o.vt("distribution", "y", "probability"),
		Categories: cats,
		Series:     []series{{Name: o.vt("distribution", "y", "probability"), Values: vals, Mark: mark}},
		VMark:      vmark,
		VLabel:     o.vt("distribution", "threshold", "threshold {t}", "t", o.loc.Int(int64(t))),
		OutField:   "max_at_least",
	}
	if len(cats) > 400 {
		return errNoData
	}
	ch.draw(o)
	return nil
}

// peakBin: the distribution of one bin's count, Binomial(n, 1/k), the
// values at or above the threshold marked.
func peakBin(o *outCtx, r *calc.PeakResult) error {
	nf, ok1 := argFloat(o.a, "clients")
	kf, ok2 := argFloat(o.a, "bins")
	tf, ok3 := argFloat(o.a, "threshold")
	if !ok1 || !ok2 || !ok3 || kf < 1 || nf < 1 {
		return errNoData
	}
	n, t := int(nf), int(tf)
	p := 1 / kf
	mean, sd := nf*p, math.Sqrt(nf*p*(1-p))
	lo := max(0, int(math.Floor(mean-5*sd)))
	hi := min(n, max(int(math.Ceil(mean+5*sd)), t+2))
	if hi-lo > 120 { // keep the bars readable: centre on the mean and the threshold
		lo = max(0, min(int(mean-4*sd), t-60))
		hi = min(n, lo+120)
	}
	var cats []string
	var vals []float64
	var mark []bool
	vmark := 0
	for x := lo; x <= hi; x++ {
		cats = append(cats, o.loc.Int(int64(x)))
		vals = append(vals, math.Exp(crowd.LogBinomialPMF(x, n, p)))
		mark = append(mark, x >= t)
		if x == t {
			vmark = len(cats)
		}
	}
	tail := r.SingleBinTail
	ch := chart{
		View:  "bin",
		Title: o.vt("distribution", "title", "How many clients land in one bin"),
		Desc: o.vt("distribution", "desc", "Probability that a given bin receives x of the {n} clients when each picks one of {k} bins at random; the marked bars, {t} and more, together have probability {tail}.",
			"n", o.loc.Int(int64(n)), "k", o.loc.Int(int64(kf)), "t", o.loc.Int(int64(t)), "tail", o.loc.Number(tail)),
		XLabel:     o.vt("distribution", "x", "clients in the bin"),
		YLabel:     o.vt("distribution", "y", "probability"),
		Categories: cats,
		Series:     []series{{Name: o.vt("distribution", "y", "probability"), Values: vals, Mark: mark}},
		VMark:      vmark,
		VLabel:     o.vt("distribution", "threshold", "threshold {t}", "t", o.loc.Int(int64(t))),
	}
	ch.draw(o)
	return nil
}

// maxPlayNodes is the largest call tree the flow and play views draw.
const maxPlayNodes = 400

// amplificationTree: calls per level as bars, and the call tree itself
// when it is small enough to draw and neither the widget's flow view nor
// its play view draws it (the same tree, filled or grown layer by layer:
// not twice).
func amplificationTree(o *outCtx, r *calc.AmplificationResult) error {
	if r.CallsPerLevel == nil {
		return errNoData
	}
	per := make([]float64, len(r.CallsPerLevel))
	for i, c := range r.CallsPerLevel {
		per[i], _ = strconv.ParseFloat(c.String(), 64) // the nearest float64, as a JSON reader gets it
	}
	att, ok2 := argFloats(o.a, "attempts")
	if !ok2 || len(per) != len(att) || len(per) == 0 {
		return errNoData
	}
	cats := make([]string, len(per))
	for i := range per {
		cats[i] = o.vt("tree", "level", "layer {i}", "i", o.loc.Int(int64(i+1)))
	}
	final := per[len(per)-1]
	ch := chart{
		View:  "tree",
		Title: o.vt("tree", "bars_title", "Calls made at each layer"),
		Desc: o.vt("tree", "bars_desc", "Calls per layer, outermost first: {list}; the innermost layer calls the service {final} times.",
			"list", numsText(o.loc, per), "final", o.loc.Number(final)),
		XLabel:     o.vt("tree", "x", "layer (outermost first)"),
		YLabel:     o.vt("tree", "y", "calls"),
		Categories: cats,
		Series:     []series{{Name: o.vt("tree", "y", "calls"), Values: per}},
		OutField:   "calls_per_level",
	}
	ch.draw(o)
	const maxLeaves = 81
	nodes, ok := treeNodes(r.Tree)
	// the flow and play views draw trees of up to maxPlayNodes nodes
	elsewhere := ok && len(nodes) <= maxPlayNodes && (slices.Contains(o.views, "flow") || slices.Contains(o.views, "play"))
	switch {
	case elsewhere:
	case final > maxLeaves:
		writef(o.b, `<p class="widget-note" data-view="tree">%s</p>`+"\n",
			esc(o.vt("tree", "too_large", "The call tree has {final} leaves: too many to draw legibly (at most {max}); the bars above count them.", "final", o.loc.Number(final), "max", o.loc.Int(maxLeaves))))
	case !ok:
		writef(o.b, `<p class="widget-note" data-view="tree">%s</p>`+"\n",
			esc(o.vt("tree", "not_drawn", "The call tree is not drawn: it has too many nodes; the bars above count the calls.")))
	default:
		writeTree(o.b, nodes, o.vt("tree", "title", "The call tree"),
			o.vt("tree", "desc", "One request at the top; each layer repeats the whole subtree below it {list} times; {final} calls reach the service.", "list", numsText(o.loc, att), "final", o.loc.Number(final)),
			treeKey(o))
	}
	return nil
}

// treeNodes checks the result's call tree: every parent comes before its
// children, levels are consistent.
func treeNodes(nodes []retry.Node) ([]retry.Node, bool) {
	if len(nodes) == 0 || nodes[0].Parent != -1 {
		return nil, false
	}
	for i, n := range nodes[1:] {
		if n.Parent < 0 || n.Parent > i || nodes[n.Parent].Level != n.Level-1 || n.Index < 0 {
			return nil, false
		}
	}
	return nodes, true
}

// treeKey names the call tree's two kinds of node, in writeTree's order:
// a call that calls the layer below, and a call that reaches the service
// (the deepest layer, drawn in the mark colour).
func treeKey(o *outCtx) [2]string {
	return [2]string{o.vt("tree", "key_call", "call to a layer"), o.vt("tree", "key_service", "call that reaches the service")}
}

// writeTree draws the call tree: the request at the top, each call below
// the call that made it, the deepest calls evenly spread and every other
// node centred over its children; below it, a key of its two kinds of
// node (key: treeKey), as many on a row as fit on a phone.
func writeTree(b *strings.Builder, nodes []retry.Node, title, desc string, key [2]string) {
	depth := 0
	for _, n := range nodes {
		depth = max(depth, n.Level)
	}
	children := make([][]int, len(nodes))
	for i, n := range nodes[1:] {
		children[n.Parent] = append(children[n.Parent], i+1)
	}
	// leaves in depth-first order spread evenly; parents centred above
	var leaves int
	for i := range nodes {
		if len(children[i]) == 0 {
			leaves++
		}
	}
	span := chartW - 2*marginR
	xs := make([]float64, len(nodes))
	next := 0
	var place func(i int)
	place = func(i int) {
		if len(children[i]) == 0 {
			xs[i] = marginR + (float64(next)+0.5)*span/float64(leaves)
			next++
			return
		}
		for _, c := range children[i] {
			place(c)
		}
		xs[i] = (xs[children[i][0]] + xs[children[i][len(children[i])-1]]) / 2
	}
	place(0)
	const keyRowH = 24.0
	keyX, keyRow, keyRows := keyLayout(key[:], marginR)
	treeH := 40.0 + 56*float64(depth)
	h := treeH + 8 + keyRowH*float64(keyRows)
	y := func(l int) float64 { return 20 + 56*float64(l) }
	r := math.Max(1.5, math.Min(7, span/float64(leaves)/2.6))
	b.WriteString(`<figure class="widget-chart" data-view="tree">`)
	writeSVG(b, " chart-tree", h, title, desc)
	b.WriteString(`<g class="chart-edge" stroke="currentColor" stroke-opacity="0.5">`)
	for i, n := range nodes[1:] {
		writef(b, `<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(xs[n.Parent]), f1(y(n.Level-1)), f1(xs[i+1]), f1(y(n.Level)))
	}
	b.WriteString(`</g><g class="chart-node">`)
	for i, n := range nodes {
		cls := ""
		if n.Level == depth {
			cls = ` class="chart-bar-mark"`
		}
		writef(b, `<circle%s cx="%s" cy="%s" r="%s"/>`, cls, f1(xs[i]), f1(y(n.Level)), f1(r))
	}
	// the key, after every node (amplificationPlay numbers the circles in
	// nodes' order and leaves the rest shown)
	b.WriteString(`</g><g class="chart-legend chart-node">`)
	for i, name := range key {
		cls := ""
		if i == 1 {
			cls = ` class="chart-bar-mark"`
		}
		ky := treeH + 8 + float64(keyRow[i])*keyRowH
		writef(b, `<circle%s cx="%s" cy="%s" r="6"/>`, cls, f1(keyX[i]+8), f1(ky+8))
		writef(b, `<text class="chart-label" x="%s" y="%s" dy="0.85em">%s</text>`, f1(keyX[i]+24), f1(ky+1), esc(name))
	}
	b.WriteString(`</g></svg></figure>` + "\n")
}

// deadlineTimeline: the worst case, attempt by attempt, against the
// deadline: each attempt runs to its timeout, then waits.
func deadlineTimeline(o *outCtx, r *calc.DeadlineResult) error {
	timeout, ok1 := argFloat(o.a, "timeout_ms")
	deadline, ok2 := argFloat(o.a, "deadline_ms")
	waits, ok3 := argFloats(o.a, "waits_ms")
	attemptsF, ok4 := argFloat(o.a, "attempts")
	admitted, worst := float64(r.AttemptsAdmitted), r.WorstCaseMS
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return errNoData
	}
	n := int(attemptsF)
	starts := make([]float64, n)
	t := 0.0
	for i := 0; i < n; i++ {
		starts[i] = t
		t += timeout
		if i < len(waits) {
			t += waits[i]
		}
	}
	end := math.Max(math.Max(t, deadline), worst)
	plotW := chartW - marginL - marginR
	ticks := niceTicks(0, end, 8)
	for k := 7; k >= 2 && !ticksFit(ticks, o.loc, plotW); k-- {
		ticks = niceTicks(0, end, k)
	}
	x1 := ticks[len(ticks)-1]
	fx := func(v float64) float64 { return marginL + v/x1*plotW }
	// rows tall enough to read on a phone (28 made three attempts a strip
	// 45 px high)
	rowH := math.Min(40, 240/float64(n))
	// the key below the axis' name: each kind of segment, drawn as in the
	// rows, then its name; as many on a row as fit at the phone's size
	const keyRowH = 24.0
	// (dy: the swatch's offset in its row, the wait's bar being thinner,
	// as in the rows)
	keys := []struct {
		name, class, attrs string
		dy                 float64
	}{
		{o.vt("timeline", "key_attempt", "attempt"), "chart-seg-attempt", `height="12" fill-opacity="0.75"`, 0},
		{o.vt("timeline", "key_wait", "wait"), "chart-seg-wait", `height="4" fill-opacity="0.5"`, 4},
		{o.vt("timeline", "key_over", "past the deadline"), "chart-seg-over", `height="12" fill-opacity="0.7" stroke="currentColor" stroke-dasharray="3 2"`, 0},
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	keyX, keyRow, keyRows := keyLayout(names, marginL)
	height := marginT + rowH*float64(n) + marginB + float64(keyRows)*keyRowH
	title := o.vt("timeline", "title", "Worst case against the deadline")
	desc := o.vt("timeline", "desc", "Every attempt runs to its timeout of {timeout} ms and fails, then the task waits; the whole takes {worst} ms against a deadline of {deadline} ms; {admitted} of {n} attempts start before it.",
		"timeout", o.loc.Number(timeout), "worst", o.loc.Number(worst), "deadline", o.loc.Number(deadline), "admitted", o.loc.Number(admitted), "n", o.loc.Int(int64(n)))
	b := o.b
	// the title shows above the picture, as every figure's (reader review:
	// this one had only the SVG's)
	b.WriteString(`<figure class="widget-chart" data-view="timeline">`)
	writeFigTitle(b, title, "")
	writeSVG(b, "", height, title, desc)
	base := height - marginB - float64(keyRows)*keyRowH
	b.WriteString(`<g class="chart-axis" stroke="currentColor">`)
	writeLine(b, "", marginL, chartW-marginR, base, base, "")
	b.WriteString(`</g>`)
	b.WriteString(`<g class="chart-tick" text-anchor="middle">`)
	for _, tk := range ticks {
		writef(b, `<text x="%s" y="%s"%s>%s</text>`, f1(fx(tk)), f1(base+20), tickAnchor(fx(tk), marginL, o.loc.Number(tk)), esc(o.loc.Number(tk)))
	}
	b.WriteString(`</g><g class="chart-tick" text-anchor="end">`)
	for i := 0; i < n; i++ {
		if n <= 12 || i%((n+11)/12) == 0 {
			writef(b, `<text x="%s" y="%s" dy="0.32em">%s</text>`, f1(marginL-6), f1(marginT+rowH*(float64(i)+0.5)), esc(o.loc.Int(int64(i+1))))
		}
	}
	b.WriteString(`</g>`)
	bar := rowH * 0.7
	for i := 0; i < n; i++ {
		y := marginT + rowH*float64(i) + (rowH-bar)/2
		wait := 0.0
		if i < len(waits) && i+1 < n {
			wait = waits[i]
		}
		writeDeadlineRow(b, starts[i], starts[i]+timeout, deadline, wait, float64(i) < admitted, y, bar, fx, false)
	}
	writeDeadlineRule(b, fx(deadline), marginT-8, base, marginT-8, o.vt("timeline", "deadline", "deadline"))
	writef(b, `<text class="chart-label" x="%s" y="%s" text-anchor="middle">%s</text>`, f1(marginL+plotW/2), f1(base+marginB-4), esc(o.vt("timeline", "x", "time since the task started (ms)")))
	b.WriteString(`<g class="chart-legend">`)
	for i, k := range keys {
		y := base + marginB + 4 + float64(keyRow[i])*keyRowH
		writef(b, `<rect class="%s" x="%s" y="%s" width="16" %s/>`, k.class, f1(keyX[i]), f1(y+k.dy), k.attrs)
		writef(b, `<text class="chart-label" x="%s" y="%s" dy="0.85em">%s</text>`, f1(keyX[i]+24), f1(y), esc(k.name))
	}
	b.WriteString(`</g></svg>`)
	// text alternative
	writeDataOpen(b, o.loc, title, "")
	writef(b, `<thead><tr><th scope="col">%s</th><th scope="col">%s</th><th scope="col">%s</th><th scope="col">%s</th></tr></thead><tbody>`,
		esc(o.vt("timeline", "attempt", "attempt")), esc(o.vt("timeline", "start", "start (ms)")), esc(o.vt("timeline", "end", "timeout at (ms)")), esc(o.vt("timeline", "admitted", "starts before the deadline")))
	for i := 0; i < n; i++ {
		writef(b, `<tr><th scope="row">%s</th><td>%s</td><td>%s</td><td>%s</td></tr>`, esc(o.loc.Int(int64(i+1))), esc(o.loc.Number(starts[i])), esc(o.loc.Number(starts[i]+timeout)), esc(o.loc.YesNo(float64(i) < admitted)))
	}
	writeDataClose(b)
	b.WriteString("</figure>\n")
	return nil
}

// keyLayout places the entries of a key drawn in a row from x0: each a
// swatch of 16 units, then its name, as many on a row as fit in the
// chart's width at the phone's text size (phoneEm). It returns each
// entry's x and row (from 0) and the number of rows.
func keyLayout(names []string, x0 float64) (xs []float64, row []int, rows int) {
	xs, row, rows = make([]float64, len(names)), make([]int, len(names)), 1
	for i, x := 0, x0; i < len(names); i++ {
		w := 24 + textWidth(names[i], phoneEm)
		if x > x0 && x+w > chartW-marginR {
			x, rows = x0, rows+1
		}
		xs[i], row[i] = x, rows-1
		x += w + 20
	}
	return xs, row, rows
}

// numsText writes numbers as a list.
func numsText(loc locale.Locale, xs []float64) string {
	items := make([]string, len(xs))
	for i, x := range xs {
		items[i] = loc.Number(x)
	}
	return loc.List(items)
}

// backoffArrivals: the retries per bin with jitter and without it (the
// same parameters computed again with jitter flipped), so the reader sees
// the synchronized spikes that jitter removes.
func backoffArrivals(o *outCtx, r *calc.BackoffResult) error {
	counts, ok1 := floats(r.Counts)
	starts, ok2 := floats(r.BinStartsS)
	p := o.c.Param("jitter")
	if !ok1 || !ok2 || p == nil || p.Kind != calc.Bool || len(starts) != len(counts) {
		return errNoData
	}
	jitter := o.a.Bool("jitter")
	// The other setting is computed again, unless the run is large (the
	// page would pay twice the calculator's time on every change).
	var otherCounts []float64
	if r.Retries <= maxCompareRetries {
		q := o.a.Query()
		q["jitter"] = []string{strconv.FormatBool(!jitter)}
		other, err := o.c.Compute(q)
		if err != nil {
			return err
		}
		or, ok := other.(calc.BackoffResult)
		if !ok {
			return errNoData
		}
		oc, ok := floats(or.Counts)
		if !ok {
			return errNoData
		}
		otherCounts = oc
	}
	with, without := counts, otherCounts
	if !jitter {
		with, without = otherCounts, counts
	}
	n := max(len(with), len(without))
	g := groupSize(n)
	with, without = group(with, g), group(without, g)
	cats := make([]string, max(len(with), len(without)))
	w := r.WidthS
	for i := range cats {
		cats[i] = o.loc.Number(float64(i*g) * w)
	}
	w *= float64(g)
	outField, outRaw := "counts", o.outRaw("counts")
	if g > 1 {
		outField, outRaw = "", ""
	}
	peakOf := func(xs []float64) float64 {
		m := 0.0
		for _, x := range xs {
			m = math.Max(m, x)
		}
		return m
	}
	workers := float64(r.Workers)
	peakText := func(xs []float64) string {
		if xs == nil {
			return none(o.loc) // not computed
		}
		return o.loc.Number(peakOf(xs))
	}
	ser := []series{
		{Name: o.vt("arrivals", "with", "with jitter"), Values: with},
		{Name: o.vt("arrivals", "without", "without jitter"), Values: without},
	}
	if otherCounts == nil { // only the page's own setting
		ser = ser[:1]
		if !jitter {
			ser = []series{{Name: o.vt("arrivals", "without", "without jitter"), Values: without}}
		}
	}
	ch := chart{
		View:  "arrivals",
		Title: o.vt("arrivals", "title", "Retries per {w} s bin, with and without jitter", "w", o.loc.Number(w)),
		Desc: o.vt("arrivals", "desc", "{workers} workers retry: with jitter the fullest bin holds {peak} retries, without jitter {sync}, all at the same instants.",
			"workers", o.loc.Number(workers), "peak", peakText(with), "sync", peakText(without)),
		XLabel:     o.vt("arrivals", "x", "retry time, start of the bin (s)"),
		YLabel:     o.vt("arrivals", "y", "retries in the bin"),
		Categories: cats,
		Series:     ser,
		OutField:   outField, OutRaw: outRaw,
	}
	ch.draw(o)
	return nil
}

// dispatchQueue: jobs ready in the queue, delayed for a retry and in
// flight, over the simulated time.
func dispatchQueue(o *outCtx, r *calc.DispatchResult) error {
	ts, ok1 := floats(r.DepthTS)
	ready, ok2 := floats(r.DepthReady)
	delayed, ok3 := floats(r.DepthDelayed)
	inflight, ok4 := floats(r.DepthInFlight)
	if !ok1 || !ok2 || !ok3 || !ok4 || len(ts) < 2 || len(ready) != len(ts) || len(delayed) != len(ts) || len(inflight) != len(ts) {
		return errNoData
	}
	maxDepth := float64(r.MaxQueueDepth)
	ch := chart{
		View: "queue", Line: true, X: ts,
		Title:  o.vt("queue", "title", "The queue over time"),
		Desc:   o.vt("queue", "desc", "Jobs ready, waiting for a retry and in flight, from the start to the end ({end} s); at most {max} in the queue.", "end", o.loc.Number(ts[len(ts)-1]), "max", o.loc.Number(maxDepth)),
		XLabel: o.vt("queue", "x", "time (s)"),
		YLabel: o.vt("queue", "y", "jobs"),
		Series: []series{
			{Name: o.vt("queue", "ready", "ready in the queue"), Values: ready},
			{Name: o.vt("queue", "delayed", "waiting for a retry"), Values: delayed},
			{Name: o.vt("queue", "in_flight", "in flight"), Values: inflight},
		},
		OutField: "depth_ready",
	}
	ch.draw(o)
	return nil
}

// maxCompareRetries is the largest backoff run (in retries) whose other
// jitter setting is computed again for the comparison.
const maxCompareRetries = 100000

// maxBars is the most bars a histogram draws; longer ones are grouped.
const maxBars = 200

// groupSize is how many consecutive bins one bar sums so that n bins make
// at most maxBars bars.
func groupSize(n int) int { return max(1, (n+maxBars-1)/maxBars) }

// group sums consecutive runs of g values.
func group(xs []float64, g int) []float64 {
	if g <= 1 {
		return xs
	}
	out := make([]float64, (len(xs)+g-1)/g)
	for i, x := range xs {
		out[i/g] += x
	}
	return out
}

// writeDeadlineRule draws the deadline of the timeline and play views: a
// dashed line at x from top to bottom, its label left of it, its text's
// top at labelY.
func writeDeadlineRule(b *strings.Builder, x, top, bottom, labelY float64, label string) {
	writeLine(b, ` class="chart-rule"`, x, x, top, bottom, ` stroke="currentColor" stroke-width="2" stroke-dasharray="6 4"`)
	writef(b, `<text class="chart-label" x="%s" y="%s" dy="1em" text-anchor="end">%s</text>`, f1(x-4), f1(labelY), esc(label))
}

// writeDeadlineRow draws one attempt of the deadline's timeline and play
// views alike: from start s to the deadline when it was admitted, the rest
// of its timeout (up to e) past the deadline, then the wait after it.
// timed gives each piece the time it appears at (data-t, the play view).
func writeDeadlineRow(b *strings.Builder, s, e, deadline, wait float64, admitted bool, y, bar float64, fx func(float64) float64, timed bool) {
	at := func(t float64) string {
		if !timed {
			return ""
		}
		return ` data-t="` + fnum(t) + `"`
	}
	inside := math.Min(e, deadline)
	if admitted && inside > s {
		writef(b, `<rect class="chart-seg-attempt"%s x="%s" y="%s" width="%s" height="%s" fill-opacity="0.75"/>`, at(s), f1(fx(s)), f1(y), f1(fx(inside)-fx(s)), f1(bar))
	}
	overFrom := math.Max(s, inside)
	if !admitted {
		overFrom = s
	}
	if e > overFrom {
		writef(b, `<rect class="chart-seg-over"%s x="%s" y="%s" width="%s" height="%s" fill-opacity="0.7" stroke="currentColor" stroke-dasharray="3 2"/>`, at(overFrom), f1(fx(overFrom)), f1(y), f1(fx(e)-fx(overFrom)), f1(bar))
	}
	if wait > 0 {
		writef(b, `<rect class="chart-seg-wait"%s x="%s" y="%s" width="%s" height="%s" fill-opacity="0.5"/>`, at(e), f1(fx(e)), f1(y+bar/3), f1(fx(e+wait)-fx(e)), f1(bar/3))
	}
}
