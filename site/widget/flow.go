package widget

import (
	"math"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/core/policies"
	"retrylab/core/standin"
)

// The request-flow view ("flow", issue 30): requests you watch move.
// Each lane draws the stations a request passes (clients, the client's
// policy, the queue, the servers) and the piles where it ends (served,
// failed, set aside); each sampled request is a mark whose path is a list
// of keyframes (time, x, y, state) computed here from the core's trace,
// so that its place at any time t is a function of t alone: scrubbing to
// t shows what playing to t shows. Beside each lane, counters that are
// exact (every request, not only the sampled ones) at each frame.
//
// The markup (wasm/playground/DOM.md, "Time views"):
//
//	figure[data-timeview][data-flow] data-t0 data-t1 data-unit data-play-ms
//	  p.widget-flow-scale                  the playback's scale, in words
//	  div.widget-flow-lane (one per lane)
//	    svg > circle.flow-mark[data-t][data-k]  data-k: "t x y s;…" keyframes
//	    dl.widget-flow-counters[data-ts]   the frames' instants
//	      dd[data-counter][data-series][data-value]
//	  div[data-player]                     the player's controls
//
// Without JavaScript the figure shows the end state: every mark at its
// last keyframe, every counter at its last frame (the result's totals).
// site/assets/player.js moves the marks (flowShow) as it plays.

// flowMaxMarks is the most marks a flow view draws in all its lanes,
// two: flowLaneMarks each, the trace its calculator records per run
// (viewTable.runArgs, calc.Args.WithTrace).
const (
	flowMaxMarks  = 800
	flowLaneMarks = flowMaxMarks / 2
)

// Mark states: the class flow-s-N of a mark from its keyframe on.
const (
	flowFirst   = iota // a first attempt on its way, queued or served
	flowRetry          // a retry on its way, queued or served
	flowTimeout        // its client gave up on the attempt
	flowRefused        // refused by a budget, a throttle or a full queue: set aside
	flowServed         // answered in time
	flowFailed         // out of attempts
	flowStates         // the number of states
)

// writeFlowKey writes the marks' key: the view's text ([view.CALC.flow]
// key, "{0} first attempt {1} retry": each {N} a mark of state N as the
// lanes draw it, then its name), each mark and its name kept on one line
// (zh reader review: the tree's two colours had no key); none where one
// colour says it all.
func writeFlowKey(o *outCtx) {
	key := o.vt("flow", "key", "")
	if key == "" {
		return
	}
	b := o.b
	b.WriteString(`<p class="widget-flow-key">`)
	for _, item := range strings.Split(key, "{")[1:] {
		n, name, ok := strings.Cut(item, "}")
		if ok && len(n) == 1 && '0' <= n[0] && n[0] <= '5' {
			writef(b, `<span><svg viewBox="-3 -3 6 6" aria-hidden="true"><circle class="flow-s-%s" r="2.2"/></svg>%s</span> `, n, esc(strings.TrimSpace(name)))
		}
	}
	b.WriteString("</p>")
}

// The lane's geometry, in the svg's units (flowW wide: narrower than the
// charts' 640, so that the text stays readable on a phone).
const (
	flowW       = 480.0
	flowLaneH   = 184.0
	flowTop     = 44.0 // the stations' boxes start here; labels above, in two rows (flowLabelY)
	flowClientX = 34.0
	flowPolicyX = 100.0
	flowQueueA  = 138.0 // the queue's tail
	flowQueueB  = 262.0 // its head
	flowServerA = 268.0
	flowServerB = 334.0
	flowPileA   = 342.0
	flowPileB   = 476.0
	flowMarkR   = 2.2
)

// The stages of a lane.
const (
	flowService = iota // clients, policy, queue, servers and three piles
	flowWave           // clients, waiting, and the server's bins
	flowTree           // the layers of a call tree
)

// flowKey is one keyframe of a mark.
type flowKey struct {
	_       standin.NoEqual // not comparable
	t, x, y float64
	s       int
}

// flowPath builds a mark's keyframes: each key comes at least gap after
// the one before, so that a move is seen even when the simulation's
// events are closer than that (the mark runs up to a few gaps late,
// never early, and every mark in the same way).
type flowPath struct {
	keys []flowKey
	gap  float64
}

func (p *flowPath) add(t, x, y float64, s int) {
	if n := len(p.keys); n > 0 {
		t = math.Max(t, p.keys[n-1].t+p.gap)
	}
	p.keys = append(p.keys, flowKey{t: t, x: x, y: y, s: s})
}

func (p *flowPath) last() flowKey { return p.keys[len(p.keys)-1] }

// flowPile is where marks end: its band and the order in which they come.
type flowPile struct {
	y0, h float64
	label string
	two   bool  // its label on two lines (twoLines), its marks below them
	marks []int // mark indices, in order of arrival
}

// flowCounter is one exact counter of a lane: a value per frame.
type flowCounter struct {
	name, label string
	values      []float64
	decimals    int // -1: the default number form
}

// flowLane is one lane: its title, its stations' labels, its marks and
// its counters.
type flowLane struct {
	stage    int // flowService, flowWave or flowTree: what is drawn behind the marks
	title    string
	key      string    // data-lane: the policy's name in a policies view
	stations [4]string // clients, policy, queue, servers
	piles    [3]flowPile
	paths    []flowPath
	ts       []float64
	counters []flowCounter
	edges    []flowEdge // a tree's edges, each drawn from its time on
}

// flowEdge is an edge of a call tree, drawn from time t on.
type flowEdge struct {
	_                 standin.NoEqual // not comparable
	t, x0, y0, x1, y1 float64
}

// flowFig is a flow view: its lanes, the time range and how fast it plays.
type flowFig struct {
	t0, t1      float64
	unit        string
	at          string  // the time as the player writes it ("layer {t}"), or "": "{t} unit"
	playS       float64 // real seconds for the whole range at 1×
	title, desc string
	live        string
	lanes       []*flowLane
}

// hash01 is a deterministic number in [0, 1) for mark i (its place in a
// box): the same on every render.
func hash01(i, salt int) float64 {
	x := uint32(i)*2654435761 ^ uint32(salt)*40503
	x ^= x >> 15
	x *= 2246822519
	x ^= x >> 13
	return float64(x%10007) / 10007
}

// pileSlot places the k-th mark of a pile.
func (p *flowPile) slot(k int) (float64, float64) {
	const step = 4.4
	top := 19.0 // below its label
	if p.two {
		top = 36
	}
	cols := int(math.Floor((flowPileB - flowPileA - 6) / step))
	rows := max(1, int((p.h-top+1)/step))
	k %= cols * rows // a full pile wraps around: its counter says how many
	return flowPileA + 5 + float64(k%cols)*step, p.y0 + top + float64(k/cols)*step
}

// finish sends every mark's last key to its pile's slot in order of
// arrival (a pile mark's last key has x < 0 and y = the pile's index).
func (l *flowLane) finish() {
	type arrival struct {
		t    float64
		mark int
	}
	var by [3][]arrival
	for i := range l.paths {
		k := l.paths[i].last()
		if k.x < 0 {
			by[int(k.y)] = append(by[int(k.y)], arrival{k.t, i})
		}
	}
	for pi := range by {
		a := by[pi]
		ts := make([]float64, len(a))
		for i := range a {
			ts[i] = a[i].t
		}
		for n, j := range arrivalOrder(ts) {
			i := a[j].mark
			x, y := l.piles[pi].slot(n)
			k := &l.paths[i].keys[len(l.paths[i].keys)-1]
			k.x, k.y = x, y
			l.piles[pi].marks = append(l.piles[pi].marks, i)
		}
	}
}

// toPile ends path p in pile pile (0 served, 1 failed, 2 set aside).
func (p *flowPath) toPile(t float64, pile, s int) {
	p.add(t, -1, float64(pile), s)
}

// policyLane builds a lane of the policies view from a run's trace.
func policyLane(o *outCtx, title string, tr *policies.Trace, gap float64) *flowLane {
	l := &flowLane{title: title}
	l.stations = [4]string{
		o.loc.TOr("widget.flow.clients", "clients"), o.loc.TOr("widget.flow.policy", "policy"),
		o.loc.TOr("widget.flow.queue", "queue"), o.loc.TOr("widget.flow.servers", "servers"),
	}
	l.piles = [3]flowPile{
		{y0: flowTop, h: 64, label: o.loc.TOr("widget.flow.served", "served in time")},
		{y0: flowTop + 66, h: 34, label: o.loc.TOr("widget.flow.failed", "failed")},
		{y0: flowTop + 102, h: 34, label: o.loc.TOr("widget.flow.set_aside", "set aside")},
	}
	for i := range l.piles {
		l.piles[i].two = pileTwoLines(l.piles[i].label, l.piles[i].h)
	}
	boxH := flowLaneH - flowTop - 4
	for i, k := range tr.Marks {
		y := flowTop + 6 + hash01(i, 1)*(boxH-12)
		cx := flowClientX - 16 + hash01(i, 2)*32
		p := flowPath{gap: gap}
		for j, a := range k.Attempts {
			st := flowFirst
			if a.Retry {
				st = flowRetry
			}
			if j == 0 { // from its client, through its policy
				p.add(a.SentS, cx, y, st)
			}
			// a retry leaves the policy, where it waited
			p.add(a.SentS, flowPolicyX, y, st)
			last := j == len(k.Attempts)-1
			switch a.Outcome {
			case policies.Throttled:
				p.add(a.DoneS, flowPolicyX, y, flowRefused)
			case policies.Rejected:
				p.add(a.DoneS, flowQueueA, y, flowRefused)
			case policies.Served:
				p.add(a.SentS, flowQueueA, y, st)
				p.add(a.StartS, flowQueueB, y, st)
				p.add(a.StartS, flowServerA, y, st)
				p.add(a.EndS, flowServerB, y, st)
				p.toPile(a.DoneS, 0, flowServed)
				continue
			case policies.TimedOut:
				p.add(a.SentS, flowQueueA, y, st)
				if a.StartS < a.DoneS { // given up while being served
					p.add(a.StartS, flowQueueB, y, st)
					p.add(a.StartS, flowServerA, y, st)
					x := flowServerA + (flowServerB-flowServerA)*(a.DoneS-a.StartS)/math.Max(a.EndS-a.StartS, 1e-9)
					p.add(a.DoneS, x, y, flowTimeout)
				} else { // given up while queued: where its wait had brought it
					x := flowQueueA + (flowQueueB-flowQueueA)*(a.DoneS-a.SentS)/math.Max(a.StartS-a.SentS, 1e-9)
					p.add(a.DoneS, x, y, flowTimeout)
				}
			}
			switch {
			case last && (k.Denied || a.Outcome == policies.Throttled):
				p.toPile(a.DoneS, 2, flowRefused)
			case last:
				p.toPile(a.DoneS, 1, flowFailed)
			default: // back to its policy, which sends the retry
				p.add(a.DoneS, flowPolicyX, y, p.last().s)
			}
		}
		if len(p.keys) > 0 {
			l.paths = append(l.paths, p)
		}
	}
	l.finish()
	c := tr.Counters
	l.ts = c.TS
	l.counters = []flowCounter{
		{"in_flight", o.loc.TOr("widget.flow.in_flight", "in flight"), floatsOf(c.InFlight), -1},
		{"queue", o.loc.TOr("widget.flow.queued", "queued"), floatsOf(c.Queue), -1},
		{"served", o.loc.TOr("widget.flow.served", "served in time"), floatsOf(c.Served), -1},
		{"retries", o.loc.TOr("widget.flow.retries", "retries"), floatsOf(c.Retries), -1},
		{"wasted_s", o.loc.TOr("widget.flow.wasted_s", "wasted work (s)"), c.WastedS, 1},
	}
	return l
}

func floatsOf(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// flowPair chooses the two policies a flow view puts side by side: the
// first of the result that never recovers and the first that does, one
// that retries rather than none (the story of the article), else the
// first two.
func flowPair(runs []calc.PolicyRun) []int {
	stuck, ok := -1, -1
	for i, p := range runs {
		if !p.Recovered && stuck < 0 {
			stuck = i
		}
		// a policy that retries, rather than none, when there is one
		if p.Recovered && (ok < 0 || runs[ok].Policy == "none") {
			ok = i
		}
	}
	if stuck >= 0 && ok >= 0 {
		return []int{stuck, ok}
	}
	if len(runs) >= 2 {
		return []int{0, 1}
	}
	return []int{0}
}

// policiesFlow: two policies side by side on the same seeded outage.
func policiesFlow(o *outCtx, r *calc.PoliciesResult) error {
	runs, ok := policyRuns(r)
	if !ok {
		return errNoData
	}
	pick := flowPair(runs)
	if len(r.Traces) != len(runs) { // a run without calc.Args.WithTrace
		return errNoData
	}
	trs := make([]*policies.Trace, len(pick))
	for i, j := range pick {
		trs[i] = &r.Traces[j]
	}
	f := &flowFig{t0: 0, unit: o.loc.TOr("widget.unit.s", "s")}
	for _, tr := range trs {
		if n := len(tr.Counters.TS); n > 0 {
			f.t1 = math.Max(f.t1, tr.Counters.TS[n-1])
		}
	}
	f.playS = storyPlayS(f.t1, 1) // a run of seconds
	gap := f.t1 / f.playS * 0.08  // a move lasts at least 0.08 s of real time at 1×
	for i, j := range pick {
		l := policyLane(o, o.policyLabel(runs[j].Policy), trs[i], gap)
		l.key = runs[j].Policy
		f.lanes = append(f.lanes, l)
	}
	sample := 0
	for _, l := range f.lanes {
		sample += len(l.paths)
	}
	f.title = o.vt("flow", "title", "Requests moving through the outage")
	f.desc = o.vt("flow", "desc", "{a} and {b} on the same seeded outage: each dot is one of {n} sampled requests, sent by a client through its policy, queued, served or given up on, retried or set aside; the counters beside count every request.",
		"a", f.lanes[0].title, "b", f.lanes[len(f.lanes)-1].title, "n", o.loc.Int(int64(sample)))
	f.live = o.vt("flow", "live", "{t} s: {n} of {total} sampled requests sent.")
	f.write(o)
	return nil
}

// write draws the figure.
func (f *flowFig) write(o *outCtx) {
	b := o.b
	// the end to the thousandth, up: the time player.js writes (data-t)
	// is rounded so, and the end is then a time it can show exactly
	f.t1 = math.Ceil(f.t1*1000) / 1000
	p := &playFig{t0: f.t0, t1: f.t1, unit: f.unit, at: f.at, step: true}
	b.Grow(f.size())
	writef(b, `<figure class="widget-chart widget-play widget-flow" data-view="flow" data-timeview data-flow data-t0="%s" data-t1="%s" data-unit="%s" data-play-ms="%s" data-live-template="%s"%s>`,
		fnum(f.t0), fnum(f.t1), esc(f.unit), playMS(f.playS), esc(f.live), p.timeAttr())
	// the title every figure has (writeFigTitle's style), here the
	// figure's caption: it names the figure, whose lanes are several SVGs
	writef(b, `<figcaption class="widget-fig-title">%s</figcaption>`, esc(f.title))
	writePlayScale(o, f.playS, f.t1-f.t0, f.unit)
	writeFlowKey(o)
	for li, l := range f.lanes {
		f.writeLane(o, li, l)
	}
	writePlayer(o, p)
	b.WriteString("</figure>\n")
}

// size is about the bytes write writes, a little over at the defaults
// (dispatch: 120 KB for 113): room made once for hundreds of marks,
// instead of the output growing by a quarter many times over.
func (f *flowFig) size() int {
	n := 4096 // the caption, the scale, the key and the player
	for _, l := range f.lanes {
		n += 2048 + 80*len(l.paths) + 5*len(l.ts)*(len(l.counters)+1) + 56*len(l.edges)
		for _, p := range l.paths {
			n += 13 * len(p.keys)
		}
	}
	return n
}

func (f *flowFig) writeLane(o *outCtx, li int, l *flowLane) {
	b := o.b
	writef(b, `<div class="widget-flow-lane" data-lane="%s">`, esc(l.key))
	if l.title != "" {
		writef(b, `<p class="widget-flow-name">%s</p>`, esc(l.title))
	}
	writef(b, `<svg class="chart flow" viewBox="0 0 %s %s" role="img" font-size="%s" fill="currentColor">`, strconv.Itoa(int(flowW)), f1(flowLaneH), strconv.Itoa(flowDesktopEm))
	if li == 0 {
		writef(b, `<title>%s</title><desc>%s</desc>`, esc(f.title), esc(f.desc))
	} else {
		writef(b, `<title>%s</title>`, esc(l.title))
	}
	// the stations
	boxB := flowLaneH - 4
	stations := l.stationBoxes()
	one := oneRow(stations, flowDesktopEm) // wider than a phone, all on row 1 (widget.css)
	for _, st := range stations {
		writef(b, `<rect class="flow-station %s" x="%s" y="%s" width="%s" height="%s" rx="4"/>`, st.cls, f1(st.x0), f1(flowTop), f1(st.x1-st.x0), f1(boxB-flowTop))
		x, anchor := st.labelX()
		cls := "flow-label"
		if one && st.row == 0 {
			cls = "flow-label flow-up"
		}
		writef(b, `<text class="%s" x="%s" y="%s" text-anchor="%s">%s</text>`, cls, f1(x), f1(flowLabelY[st.row]), anchor, esc(st.label))
	}
	for _, p := range l.piles {
		if l.stage != flowService || p.h == 0 {
			continue
		}
		writef(b, `<rect class="flow-station flow-pile" x="%s" y="%s" width="%s" height="%s" rx="4"/>`, f1(flowPileA), f1(p.y0), f1(flowPileB-flowPileA), f1(p.h))
		writef(b, `<text class="flow-label flow-pile-label" x="%s" y="%s" font-size="12">%s</text>`, f1(flowPileA+4), f1(p.y0+12), pileLabel(p.label, p.two))
	}
	// a keyframe's time to about a ten-thousandth of the figure's range
	d := max(0, 4-int(math.Ceil(math.Log10(math.Max(f.t1-f.t0, 1e-9)))))
	if len(l.edges) > 0 {
		b.WriteString(`<g class="flow-edges" stroke="currentColor" stroke-opacity="0.5">`)
		for _, e := range l.edges {
			writef(b, `<line data-t="%s" x1="%s" y1="%s" x2="%s" y2="%s"/>`, string(appendTQ(nil, e.t, d)), px(e.x0), px(e.y0), px(e.x1), px(e.y1))
		}
		b.WriteString(`</g>`)
	}
	// The marks as data: one attribute holds every mark's keyframes
	// (player.js draws them), and one path per state draws the marks at
	// their last keyframe (the end state: without JavaScript, in print,
	// and the player's picture at rest), instead of an element a mark:
	// hundreds of elements a lane were most of a recompute's parse and
	// layout (wasm/playground/DOM.md).
	b.WriteString(`<g class="flow-marks" data-r="`)
	r := flowMarkR
	b.WriteString(f1(r))
	b.WriteString(`" data-marks="`)
	// One buffer for every mark's keyframes and every series: the numbers
	// appended to it, not each made a string (hundreds of marks a lane).
	var k []byte
	for i, p := range l.paths {
		if i > 0 {
			b.WriteByte('|')
		}
		k = k[:0]
		for j, key := range p.keys {
			if j > 0 {
				k = append(k, ';')
			}
			// time, x, y (px), state
			k = appendTQ(k, key.t, d)
			for _, v := range [...]float64{math.Round(key.x), math.Round(key.y), float64(key.s)} {
				k = strconv.AppendInt(append(k, ' '), int64(v), 10)
			}
		}
		b.Write(k)
	}
	b.WriteString(`">`)
	// the end state's paths, a circle a mark: one per state, in their
	// order, empty for a state no mark ends in (player.js draws the marks
	// in them at any time, and adds no element: a new element would be new
	// output to the player)
	arc := markArc(r)
	for s := 0; s < flowStates; s++ {
		k = k[:0]
		for _, p := range l.paths {
			if e := p.last(); e.s == s {
				k = appendMarkArc(k, math.Round(e.x), math.Round(e.y), r, arc)
			}
		}
		b.WriteString(`<path class="flow-mark flow-s-`)
		b.WriteByte(byte('0' + s))
		b.WriteString(`" d="`)
		b.Write(k)
		b.WriteString(`"/>`)
	}
	b.WriteString(`</g></svg>`)
	// the counters, at their last frame
	k = k[:0]
	for i, t := range l.ts {
		k = appendNum(k, i, round3(t))
	}
	b.WriteString(`<dl class="widget-flow-counters" data-ts="`)
	b.Write(k)
	b.WriteString(`">`)
	for _, c := range l.counters {
		k = k[:0]
		for i, v := range c.values {
			k = appendNum(k, i, v)
		}
		v := 0.0
		if n := len(c.values); n > 0 {
			v = c.values[n-1]
		}
		text := o.loc.Number(v)
		if c.decimals >= 0 {
			text = o.loc.Fixed(v, c.decimals)
		}
		writef(b, `<div><dt>%s</dt><dd data-counter="%s" data-decimals="%s" data-series="`,
			esc(c.label), c.name, strconv.Itoa(c.decimals))
		b.Write(k)
		writef(b, `" data-value="%s">%s</dd></div>`, fnum(v), esc(text))
	}
	b.WriteString(`</dl></div>`)
}

// appendNum appends v as fnum writes it to a series, after a space unless
// it is the series' first (i == 0).
func appendNum(dst []byte, i int, v float64) []byte {
	if i > 0 {
		dst = append(dst, ' ')
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// flowStation is a station's box and where its label goes.
type flowStation struct {
	_      standin.NoEqual // not comparable
	x0, x1 float64
	label  string
	cls    string
	row    int // flowLabelY's row: neighbours alternate, so long labels pass over each other
}

// flowLabelY are the baselines of the stations' two rows of labels: row 1
// just above the boxes, row 0 above it. Neighbouring stations alternate
// rows, so that a label wider than its box ("espera del reintento" over
// a box of 60) never meets the next one; TestFlowLabelsFit checks every
// language at the phone's size (flowStationEm).
var flowLabelY = [2]float64{17, flowTop - 6}

// stationBoxes are the stations a lane draws, left to right.
func (l *flowLane) stationBoxes() []flowStation {
	switch l.stage {
	case flowService:
		return []flowStation{
			{x0: 4, x1: 64, label: l.stations[0], cls: "flow-clients", row: 1},
			{x0: 70, x1: 130, label: l.stations[1], cls: "flow-policy", row: 0},
			{x0: flowQueueA - 2, x1: flowQueueB, label: l.stations[2], cls: "flow-queue", row: 1},
			{x0: flowServerA, x1: flowServerB, label: l.stations[3], cls: "flow-servers", row: 0},
		}
	case flowWave:
		return []flowStation{
			{x0: 4, x1: 64, label: l.stations[0], cls: "flow-clients", row: 1},
			{x0: 70, x1: 136, label: l.stations[1], cls: "flow-policy", row: 0},
			{x0: 142, x1: flowW - 4, label: l.stations[3], cls: "flow-servers", row: 1},
		}
	}
	return nil
}

// labelSpan is the extent of a station's label at font size em.
func (st flowStation) labelSpan(em float64) (x0, x1 float64) {
	x, anchor := st.labelX()
	w := textWidth(st.label, em)
	if anchor == "start" {
		return x, x + w
	}
	return x - w/2, x + w/2
}

// oneRow reports whether the labels of stations, at font size em, fit on
// one row: inside the lane, each at least flowLabelGap from the next.
// Wider than a phone (flowDesktopEm) they then stand on row 1, just over
// their boxes: the labels of row 0 carry the class flow-up, which
// widget.css moves down by flowLabelY[1] - flowLabelY[0].
func oneRow(stations []flowStation, em float64) bool {
	prev := math.Inf(-1)
	for _, st := range stations {
		x0, x1 := st.labelSpan(em)
		if x0 < 0 || x1 > flowW || x0 < prev+flowLabelGap {
			return false
		}
		prev = x1
	}
	return true
}

// labelX is where a station's label is anchored: over the middle of its
// box, or at its left edge for the first box, whose label may be wider
// than the box and must not leave the lane.
func (st flowStation) labelX() (float64, string) {
	if st.x0 < 10 {
		return st.x0, "start"
	}
	return (st.x0 + st.x1) / 2, "middle"
}

// flowStationEm and flowEm are the sizes, in a lane's units, of the
// stations' labels and of the piles' labels on a phone (widget.css): a
// lane 480 units wide is about 314 px there, so 18 units are about 12 px
// and 16 about 10.5 px, the size of the charts' text (20 units of 640).
const (
	flowStationEm = 18
	flowEm        = 16
	// flowDesktopEm is the labels' size wider than a phone (the svg's
	// font-size), flowLabelGap the least room between two labels of a row
	flowDesktopEm = 13
	flowLabelGap  = 6
)

// pileTwoLines reports whether a pile's label goes on two lines: too
// wide for the pile at flowEm (es "atendidas a tiempo"), a space to break
// at, and the pile tall enough for two lines above its marks.
func pileTwoLines(label string, h float64) bool {
	return textWidth(label, flowEm) > flowPileB-flowPileA-8 && h >= 40 && strings.Contains(label, " ")
}

// pileLabel is the escaped label of a pile, on two lines (tspans) when
// two is set.
func pileLabel(label string, two bool) string {
	if !two {
		return esc(label)
	}
	// the space nearest the middle
	cut := -1
	for i, r := range label {
		if r == ' ' && (cut < 0 || abs(i-len(label)/2) < abs(cut-len(label)/2)) {
			cut = i
		}
	}
	if cut < 0 {
		return esc(label)
	}
	return `<tspan>` + esc(label[:cut]) + `</tspan><tspan x="` + f1(flowPileA+4) + `" dy="1.1em">` + esc(label[cut+1:]) + `</tspan>`
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// px writes a coordinate of a mark, to the unit (the lane is 480 wide).
func px(v float64) string { return strconv.Itoa(int(math.Round(v))) }

// appendTQ appends a keyframe's time t written to d decimals (writeLane:
// to about a ten-thousandth of the figure's range), its trailing zeros
// and then its point cut.
func appendTQ(dst []byte, t float64, d int) []byte {
	n := len(dst)
	dst = strconv.AppendFloat(dst, t, 'f', d, 64)
	if d > 0 {
		for len(dst) > n && dst[len(dst)-1] == '0' {
			dst = dst[:len(dst)-1]
		}
		if len(dst) > n && dst[len(dst)-1] == '.' {
			dst = dst[:len(dst)-1]
		}
	}
	return dst
}

// markArc returns what follows a mark's start in its path (appendMarkArc):
// two half arcs of radius r, as player.js writes them (flowArc).
func markArc(r float64) []byte {
	rs := strconv.AppendFloat(nil, r, 'f', -1, 64)
	b := append(append(append([]byte{'a'}, rs...), ' '), rs...)
	b = strconv.AppendFloat(append(b, " 0 1 0 "...), 2*r, 'f', -1, 64)
	b = append(append(append(append(b, " 0a"...), rs...), ' '), rs...)
	b = strconv.AppendFloat(append(b, " 0 1 0 "...), -2*r, 'f', -1, 64)
	return append(b, " 0"...)
}

// appendMarkArc appends the path of a mark's circle of radius r at (x, y),
// arc being markArc(r): its start to 0.1, then the two half arcs.
func appendMarkArc(dst []byte, x, y, r float64, arc []byte) []byte {
	dst = append(dst, 'M')
	dst = strconv.AppendFloat(dst, math.Round((x-r)*10)/10, 'f', -1, 64)
	dst = append(dst, ' ')
	dst = strconv.AppendFloat(dst, y, 'f', -1, 64)
	return append(dst, arc...)
}
