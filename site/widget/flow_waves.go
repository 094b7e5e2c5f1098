package widget

import (
	"math"
	"strconv"

	"retrylab/core/calc"
	"retrylab/core/retry"
)

// Flow views of a wave of retries (jitter, backoff) and of the call tree
// (amplification): see flow.go.

// waveLane is one lane of retries leaving their clients, waiting out
// their backoff and reaching the server, where each lands in the bin of
// its arrival (a histogram that fills as they come). times are the
// arrivals (the result's list, in draw order), width the bins' width,
// end the range's end (a multiple of width). The counters are exact:
// retries arrived and the fullest bin so far, at every bin's end.
// grouped: the bins drawn group the result's bins (too thin to see), and
// the fullest bin is left out (it would not be the result's).
func waveLane(o *outCtx, times []float64, width, end, gap float64, grouped bool) *flowLane {
	l := &flowLane{stage: flowWave}
	// who sends and who receives, named by the view (backoff: the
	// workers and the provider, as its title says: zh reader review)
	l.stations = [4]string{o.vt("flow", "from", "clients"), o.loc.TOr("widget.flow.waiting", "waiting"), "", o.vt("flow", "to", "server")}
	nb := max(1, int(math.Round(end/width)))
	bin := func(t float64) int { return min(nb-1, max(0, int(t/width))) }
	// the exact counters, at the end of every bin: arrivals before it
	counts := make([]int, nb)
	for _, t := range times {
		counts[bin(t)]++
	}
	tallest := 1
	l.ts = make([]float64, nb)
	arrived, fullest := make([]float64, nb), make([]float64, nb)
	sum, top := 0, 0
	for k := range nb {
		sum += counts[k]
		top = max(top, counts[k])
		tallest = max(tallest, counts[k])
		l.ts[k] = float64(k+1) * width
		arrived[k], fullest[k] = float64(sum), float64(top)
	}
	l.counters = []flowCounter{{"arrived", o.loc.TOr("widget.flow.arrived", "retries arrived"), arrived, -1}}
	if !grouped {
		l.counters = append(l.counters, flowCounter{"fullest", o.loc.TOr("widget.flow.fullest", "fullest bin so far"), fullest, -1})
	}
	// the marks: every retry, or every stride-th in draw order
	stride := max(1, (len(times)+flowMaxMarks-1)/flowMaxMarks)
	const histA, histB, base = 144.0, 474.0, flowLaneH - 6
	colW := (histB - histA) / float64(nb)
	rowH := math.Min(4.4, (base-flowTop-4)/math.Ceil(float64(tallest)/float64(stride)))
	order := arrivalOrder(times)
	stack := make([]int, nb)
	slot := make(map[int][2]float64, len(times)/stride+1)
	for _, i := range order {
		if i%stride != 0 {
			continue
		}
		k := bin(times[i])
		slot[i] = [2]float64{histA + (float64(k)+0.5)*colW, base - (float64(stack[k])+0.5)*rowH}
		stack[k]++
	}
	boxH := flowLaneH - flowTop - 8
	for i, t := range times {
		if i%stride != 0 {
			continue
		}
		y := flowTop + 4 + hash01(i, 1)*boxH
		p := flowPath{gap: gap}
		p.add(0, flowClientX-16+hash01(i, 2)*32, y, flowRetry)
		wx := 76 + hash01(i, 3)*54
		p.add(0, wx, y, flowRetry)
		p.add(t-gap, wx, y, flowRetry)
		s := slot[i]
		p.add(t, s[0], s[1], flowRetry)
		l.paths = append(l.paths, p)
	}
	return l
}

// waveFig draws a wave lane as a figure.
func waveFig(o *outCtx, times []float64, width float64, unit string, sec float64, title, desc string) {
	end := 0.0
	for _, t := range times {
		end = math.Max(end, t)
	}
	end = binsEnd(end, width)
	grouped := end/width > 400
	if grouped { // bins too thin to see: group them
		width = end / 400
		end = math.Ceil(end/width) * width
	}
	f := &flowFig{t0: 0, t1: end, unit: unit, title: title, desc: desc}
	f.playS = storyPlayS(end, sec)
	gap := end / f.playS * 0.12
	f.lanes = []*flowLane{waveLane(o, times, width, end, gap, grouped)}
	f.live = o.vt("flow", "live", "{t} {unit}: {n} of {total} retries drawn have left their clients.", "unit", unit)
	f.write(o)
}

// jitterFlow: the jittered retries of the clients reaching the server.
func jitterFlow(o *outCtx, r *calc.JitterResult) error {
	arr, ok1 := floats(r.ArrivalsMS)
	width, ok2 := argFloat(o.a, "width_ms")
	if !ok1 || !ok2 || len(arr) == 0 || width <= 0 {
		return errNoData
	}
	waveFig(o, arr, width, o.loc.TOr("widget.unit.ms", "ms"), 0.001,
		o.vt("flow", "title", "The retries leaving their clients and reaching the server"),
		o.vt("flow", "desc", "Every client failed at time 0; each dot is a retry that waits out its jitter, then lands at the server in the bin of its arrival. {n} retries; the fullest bin holds {peak}.",
			"n", o.loc.Int(int64(r.Total)), "peak", o.loc.Int(int64(r.Peak))))
	return nil
}

// backoffFlow: the workers' waves of retries reaching the provider.
func backoffFlow(o *outCtx, r *calc.BackoffResult) error {
	arr, ok := floats(r.ArrivalsS)
	if !ok || len(arr) == 0 || r.WidthS <= 0 {
		return errNoData
	}
	waveFig(o, arr, r.WidthS, o.loc.TOr("widget.unit.s", "s"), 1,
		o.vt("flow", "title", "The workers' retries reaching the provider"),
		o.vt("flow", "desc", "{w} workers got a 429 at time 0; each dot is a retry that waits out its backoff, then reaches the provider in the bin of its arrival. {n} retries; the fullest bin holds {peak}.",
			"w", o.loc.Int(int64(r.Workers)), "n", o.loc.Int(int64(r.Retries)), "peak", o.loc.Int(int64(r.Peak))))
	return nil
}

// amplificationFlow: the calls filling the tree layer by layer: each
// call leaves its caller and takes its place in its layer (time in
// layers: layer l's calls come during [l-1, l)). The counters, exact:
// calls so far and calls of the deepest layer (final_calls at the end).
func amplificationFlow(o *outCtx, r *calc.AmplificationResult) error {
	nodes, ok := treeNodes(r.Tree)
	if !ok || len(nodes) > maxPlayNodes || len(r.CallsPerLevel) == 0 {
		return errNoData
	}
	depth := 0
	per := map[int]int{}
	for _, n := range nodes {
		depth = max(depth, n.Level)
		per[n.Level]++
	}
	if depth != len(r.CallsPerLevel) {
		return errNoData
	}
	l := &flowLane{stage: flowTree}
	colX := func(level int) float64 { return 20 + float64(level)*(flowW-40)/float64(depth) }
	const top = 8.0 // a tree has no stations, so no labels above them
	pos := func(n retry.Node) (float64, float64) {
		return colX(n.Level), top + 4 + (float64(n.Index)+0.5)/float64(per[n.Level])*(flowLaneH-top-12)
	}
	gap := 0.1
	arrive := make([]float64, len(nodes))
	for i, n := range nodes {
		x, y := pos(n)
		p := flowPath{gap: gap}
		if n.Parent < 0 {
			p.add(0, x, y, flowFirst)
			l.paths = append(l.paths, p)
			continue
		}
		s := flowFirst
		if n.Attempt > 1 {
			s = flowRetry
		}
		px0, py0 := pos(nodes[n.Parent])
		// the calls of layer L leave in turn from L-1 and have all arrived
		// at L: the clock ends on the last layer, as the tree's does
		t := float64(n.Level-1) + float64(n.Index)/float64(per[n.Level])*(1-gap)
		p.add(t, px0, py0, s)
		p.add(t+0.5/float64(per[n.Level])+gap, x, y, s)
		arrive[i] = p.last().t
		l.paths = append(l.paths, p)
		l.edges = append(l.edges, flowEdge{t: t, x0: px0, y0: py0, x1: x, y1: y})
	}
	// the counters, exact at every call's arrival: the tree holds every
	// call (calls_per_level adds up to its nodes)
	total := 0
	for k := range depth {
		v, ok := r.CallsPerLevel[k].Int64()
		if !ok {
			return errNoData
		}
		total += int(v)
	}
	if total != len(nodes)-1 {
		return errNoData
	}
	order := arrivalOrder(arrive[1:])
	so, last := make([]float64, 0, len(order)), make([]float64, 0, len(order))
	calls, deepest := 0, 0
	for _, j := range order {
		calls++
		if nodes[j+1].Level == depth {
			deepest++
		}
		l.ts = append(l.ts, arrive[j+1])
		so, last = append(so, float64(calls)), append(last, float64(deepest))
	}
	l.counters = []flowCounter{
		{"calls", o.loc.TOr("widget.flow.calls", "calls so far"), so, -1},
		{"final_calls", o.vt("flow", "final", "calls of the deepest layer"), last, -1},
	}
	f := &flowFig{t0: 0, t1: math.Max(float64(depth), l.ts[len(l.ts)-1]), unit: o.vt("play", "unit", "layer"), at: o.vt("play", "time", "layer {t}"), playS: storyPlayS(float64(depth), 0), lanes: []*flowLane{l},
		title: o.vt("flow", "title", "The calls filling the tree, layer by layer"),
		desc: o.vt("flow", "desc", "Each dot is a call: it leaves the call that made it and takes its place in its layer ({layers} layers, {n} calls at the deepest).",
			"layers", strconv.Itoa(depth), "n", r.FinalCalls.String()),
		live: o.vt("flow", "live", "layer {t} of the tree.")}
	f.write(o)
	return nil
}
