package widget

import (
	"cmp"
	"math"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/core/standin/heapsort"
)

// Time views ("play"): the end state of a result that unfolds in time,
// drawn once as an SVG in which every event or frame element carries
// data-t, its simulated time in the view's unit. The figure carries the
// range (data-t0, data-t1) and the unit (data-unit); site/assets/player.js
// plays it by hiding the elements whose data-t is above the time shown,
// without computing anything again. Without JavaScript every element
// shows: the end state. The player's controls are in the markup, hidden
// until player.js takes them (wasm/playground/DOM.md, "Time views").

// maxPlayDots is the most events a time view draws one by one.
const maxPlayDots = 5000

// playFig is the frame of a time view.
type playFig struct {
	t0, t1 float64
	unit   string // the unit's label in the reader's language
	title  string
	desc   string
	// live is the template of the aria-live summary: {t} the time shown,
	// {n} the events shown, {total} all of them.
	live string
	// at, when set, is the template of the time shown ("layer {t}":
	// a position, not an amount); else "{t} unit".
	at     string
	height float64
	step   bool // the player has a step button (flow views)
	// sec is the simulated seconds of one unit (1 for s, 0.001 for ms), 0
	// when the unit is no time (a tree's layers): playS chooses the
	// playback's length from it.
	sec float64
}

// playS is the view's playback at 1×, in real seconds for its whole
// range (storyPlayS).
func (f *playFig) playS() float64 { return storyPlayS(f.t1-f.t0, f.sec) }

// storyPlayS is the playback at 1× of a time view, in real seconds, for
// a range of span units of sec simulated seconds each (sec 0: steps, such
// as a tree's layers). Each view's length follows its story rather than
// one length for all (a 100 ms wave and a 1,334 s run both took 6 s):
// a run of seconds plays at half speed, between 20 and 60 s; a span of
// milliseconds in slow motion, 50 ms a second, between 12 and 30 s; a
// step takes 3 s. The flow views and the players take it from here, so
// that a widget's views and their sentences agree.
func storyPlayS(span, sec float64) float64 {
	switch {
	case sec == 0:
		return math.Max(4, 3*span)
	case sec >= 1:
		return math.Min(60, math.Max(20, span*sec/2))
	default:
		return math.Min(30, math.Max(12, span*sec/0.05))
	}
}

// playAttr is the figure's data-play-ms: player.js plays the range in
// this many real milliseconds at 1×.
func (f *playFig) playAttr() string { return ` data-play-ms="` + playMS(f.playS()) + `"` }

// playMS is a playback of s real seconds in whole milliseconds.
func playMS(s float64) string { return strconv.Itoa(int(math.Round(s * 1000))) }

// writeScale says the playback's scale in words (a time view whose unit
// is a time).
func (f *playFig) writeScale(o *outCtx) {
	if f.sec == 0 || f.t1 <= f.t0 {
		return
	}
	writePlayScale(o, f.playS(), f.t1-f.t0, f.unit)
}

// writePlayScale says in words a playback of playS real seconds over
// span units: real seconds per simulated unit, and for the whole run.
func writePlayScale(o *outCtx, playS, span float64, unit string) {
	per := playS / math.Max(span, 1e-9)
	writef(o.b, `<p class="widget-flow-scale">%s</p>`, esc(o.loc.Tf("widget.flow.scale", "At 1×, {real} s on screen for each {unit} simulated ({total} s for the whole run).",
		"real", o.loc.Sig(per, 2), "unit", unit, "total", o.loc.Number(math.Round(playS)))))
}

// timeText is the time t (already formatted) as the player shows it.
func (f *playFig) timeText(t string) string {
	if f.at != "" {
		return strings.Replace(f.at, "{t}", t, 1)
	}
	return t + " " + f.unit
}

// timeAttr is the figure's data-time-template, when the view has one.
func (f *playFig) timeAttr() string {
	if f.at == "" {
		return ""
	}
	return ` data-time-template="` + esc(f.at) + `"`
}

// fx maps a time to the plot's x.
func (f *playFig) fx(t float64) float64 {
	w := chartW - marginL - marginR
	if f.t1 <= f.t0 {
		return marginL
	}
	return marginL + (t-f.t0)/(f.t1-f.t0)*w
}

// open writes the figure, the svg, its title and the time axis.
func (f *playFig) open(o *outCtx) {
	b := o.b
	f.t1 = o.shared(f.t1) // a comparison's runs share the time axis
	writef(b, `<figure class="widget-chart widget-play" data-view="play" data-timeview data-t0="%s" data-t1="%s" data-unit="%s" data-live-template="%s"%s%s>`,
		fnum(f.t0), fnum(f.t1), esc(f.unit), esc(f.live), f.timeAttr(), f.playAttr())
	writeFigTitle(b, f.title, "")
	writeSVG(b, "", f.height, f.title, f.desc)
	base := f.height - marginB
	b.WriteString(`<g class="chart-axis" stroke="currentColor">`)
	writeLine(b, "", marginL, chartW-marginR, base, base, "")
	b.WriteString(`</g>`)
	b.WriteString(`<g class="chart-tick" text-anchor="middle">`)
	ticks := niceTicks(f.t0, f.t1, 8)
	for n := 7; n >= 2 && !ticksFit(ticks, o.loc, chartW-marginL-marginR); n-- {
		ticks = niceTicks(f.t0, f.t1, n)
	}
	for _, tk := range ticks {
		if tk < f.t0 || tk > f.t1 {
			continue
		}
		writef(b, `<text x="%s" y="%s"%s>%s</text>`, f1(f.fx(tk)), f1(base+20), tickAnchor(f.fx(tk), marginL, o.loc.Number(tk)), esc(o.loc.Number(tk)))
	}
	b.WriteString(`</g>`)
}

// close writes the x label, a cursor at the time shown (at the end), ends
// the svg and writes the player's controls.
func (f *playFig) close(o *outCtx, xlabel string) {
	b := o.b
	writef(b, `<text class="chart-label" x="%s" y="%s" text-anchor="middle">%s</text>`, f1(marginL+(chartW-marginL-marginR)/2), f1(f.height-4), esc(xlabel))
	x := f.fx(f.t1)
	writeLine(b, ` class="chart-cursor" data-cursor=""`, x, x, marginT, f.height-marginB, ` stroke="currentColor" stroke-opacity="0.5"`)
	b.WriteString(`</svg>`)
	f.writeScale(o)
	writePlayer(o, f)
	b.WriteString("</figure>\n")
}

// writePlayer writes the controls of a time view, hidden until player.js
// shows them: play/pause, the time scrubber, the speed, the time shown
// and the polite live region. The form controls are written inside
// <noscript data-fields> (FieldsAttr), text until player.js sets the
// player up (retrylabFields): they serve only a script, and a widget
// that holds no form control when the page parses is one the browser may
// skip laying out off screen (style.css, issue 33).
func writePlayer(o *outCtx, f *playFig) {
	b := o.b
	t := func(key, def string) string { return esc(o.loc.TOr("widget.player."+key, def)) }
	step := "any"
	b.WriteString(`<div class="widget-player" data-player hidden>`)
	b.WriteString("<noscript " + FieldsAttr + ">")
	writef(b, `<button type="button" data-action="play" aria-pressed="false" data-label-play="%s" data-label-pause="%s">%s</button>`, t("play", "Play"), t("pause", "Pause"), t("play", "Play"))
	if f.step {
		writef(b, `<button type="button" data-action="step">%s</button>`, esc(o.loc.TOr("widget.flow.step", "Step")))
	}
	// the time shown at rest, as player.js writes a time (num: at most one
	// decimal), which leaves it as it is until the reader plays or scrubs
	end := esc(f.timeText(o.loc.MaxFrac(f.t1, 1)))
	writef(b, `<label class="widget-player-time">%s <input type="range" data-action="scrub" min="%s" max="%s" step="%s" value="%s" aria-valuetext="%s"></label>`,
		t("time", "Time"), fnum(f.t0), fnum(f.t1), step, fnum(f.t1), end)
	writef(b, `<label class="widget-player-speed">%s <select data-action="speed">`, t("speed", "Speed"))
	for _, s := range []string{"0.25", "0.5", "1", "2", "4"} {
		sel := ""
		if s == "1" {
			sel = " selected"
		}
		writef(b, `<option value="%s"%s>%s×</option>`, s, sel, esc(o.loc.Number(mustFloat(s))))
	}
	b.WriteString(`</select></label></noscript>`)
	writef(b, `<output data-player-time>%s</output>`, end)
	b.WriteString(`<p class="visually-hidden" aria-live="polite" data-player-live></p></div>`)
}

func mustFloat(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }

// fnum writes a time for an attribute: shortest round-trip text.
func fnum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// dotsInBins draws events landing in bins of the given width, each a
// small block stacked in its bin in the order of arrival, shaded by wave
// (wave[i], or all 0), and a vertical rule at floor when floor > 0.
func dotsInBins(o *outCtx, f *playFig, times []float64, wave []int, width float64, floor float64, floorLabel string) {
	b := o.b
	n := int(math.Ceil((f.t1 - f.t0) / width))
	n = max(n, 1)
	order := arrivalOrder(times)
	stack := make([]int, n)
	tallest := 1
	for _, i := range order {
		k := min(n-1, max(0, int((times[i]-f.t0)/width)))
		stack[k]++
		tallest = max(tallest, stack[k])
	}
	tallest = max(tallest, int(o.shared(float64(tallest))))
	base := f.height - marginB
	// the columns' scale (reader review: the growing columns had no y
	// scale): 0 and the tallest column's count on the left, the counts'
	// name above, the top as high as a chart's (ch.mt)
	h := (base - plotTop) / float64(tallest)
	tx := f1(marginL - 6)
	writef(b, `<g class="chart-tick" text-anchor="end"><text x="%s" y="%s" dy="0.32em">0</text><text x="%s" y="%s" dy="0.32em">%s</text></g><text class="chart-label chart-ylabel" x="4" y="4" dy="1em">%s</text>`,
		tx, f1(base), tx, f1(plotTop), o.loc.Int(int64(tallest)), esc(o.vt("play", "y", "retries per bin")))
	w := (chartW - marginL - marginR) / float64(n)
	for k := range stack {
		stack[k] = 0
	}
	b.WriteString(`<g class="chart-dots">`)
	b.Grow(130*len(order) + 512) // room made once: a dot writes about 127 bytes
	// a dot's own numbers through one buffer, not each made a string
	// (hundreds of dots); its size is every dot's
	num := make([]byte, 0, 32)
	size := `" width="` + f1(math.Max(0.5, w*0.9)) + `" height="` + f1(math.Max(0.5, h*0.85))
	for _, i := range order {
		k := min(n-1, max(0, int((times[i]-f.t0)/width)))
		y := base - float64(stack[k]+1)*h
		stack[k]++
		wv := 0
		if i < len(wave) {
			wv = wave[i]
		}
		writef(b, `<rect class="chart-dot chart-wave-%s" data-t="`, strconv.Itoa(wv%6+1))
		b.Write(strconv.AppendFloat(num[:0], times[i], 'g', -1, 64)) // fnum
		b.WriteString(`" x="`)
		b.Write(appendF1(num[:0], f.t0Bin(k, width)))
		b.WriteString(`" y="`)
		b.Write(appendF1(num[:0], y))
		writef(b, `%s" fill-opacity="%s"/>`, size, opacity(wv))
	}
	b.WriteString(`</g>`)
	if floor > 0 && floor <= f.t1 {
		x := f.fx(floor)
		writeRule(b, x, marginT, x, base, x+4, marginT+12, "start", floorLabel)
	}
}

// t0Bin is the x of bin k's left edge.
func (f *playFig) t0Bin(k int, width float64) float64 { return f.fx(f.t0 + float64(k)*width) }

// wavesOf gives each of n events its wave, from the count per wave (events
// in wave order); nil when the counts do not add up to n.
func wavesOf(n int, perWave []float64) []int {
	out := make([]int, 0, n)
	for w, c := range perWave {
		for j := 0; j < int(c); j++ {
			out = append(out, w)
		}
	}
	if len(out) != n {
		return nil
	}
	return out
}

// jitterPlay: the jittered retries landing in their bins, wave by wave.
func jitterPlay(o *outCtx, r *calc.JitterResult) error {
	arr, ok1 := floats(r.ArrivalsMS)
	width, ok2 := argFloat(o.a, "width_ms")
	if !ok1 || !ok2 || len(arr) == 0 || len(arr) > maxPlayDots {
		return errNoData
	}
	var wave []int
	if c, ok := argFloat(o.a, "clients"); ok && c > 0 {
		wave = make([]int, len(arr))
		for i := range wave {
			wave[i] = i / int(c)
		}
	}
	end := 0.0
	for _, t := range arr {
		end = math.Max(end, t)
	}
	// to the end of the last arrival's bin (it was drawn in the one from
	// 90 for an arrival at 100 with 10 ms bins: reader review)
	end = binsEnd(end, width)
	unit := o.loc.TOr("widget.unit.ms", "ms")
	f := &playFig{t0: 0, t1: end, unit: unit, sec: 0.001, height: chartH,
		title: o.vt("play", "title", "The retries arriving, wave by wave"),
		desc: o.vt("play", "desc", "{n} retries land in their {w} ms bins as time passes; press play to watch the bins fill.",
			"n", o.loc.Int(int64(len(arr))), "w", o.loc.Number(width)),
		live: o.vt("play", "live", "{t} ms: {n} of {total} retries have arrived."),
	}
	f.open(o)
	dotsInBins(o, f, arr, wave, width, 0, "")
	f.close(o, o.vt("play", "x", "arrival time (ms)"))
	return nil
}

// backoffPlay: the waves of retries of the workers, and the Retry-After
// floor when the provider sends one.
func backoffPlay(o *outCtx, r *calc.BackoffResult) error {
	arr, ok1 := floats(r.ArrivalsS)
	width, horizon := r.WidthS, r.HorizonS
	if !ok1 || len(arr) == 0 || len(arr) > maxPlayDots || width <= 0 {
		return errNoData
	}
	per, _ := floats(r.RetriesByAttempt)
	// to the horizon, or past it to the bin of the last arrival (bins as
	// jitterPlay's)
	end := math.Ceil(horizon/width) * width
	for _, t := range arr {
		end = math.Max(end, binsEnd(t, width))
	}
	floor := 0.0
	if r.RetryAfterS != nil {
		floor = *r.RetryAfterS
	}
	f := &playFig{t0: 0, t1: end, unit: o.loc.TOr("widget.unit.s", "s"), sec: 1, height: chartH,
		title: o.vt("play", "title", "The waves of retries"),
		desc: o.vt("play", "desc", "{n} retries of the workers, wave after wave, in {w} s bins; the dashed line is the Retry-After floor when there is one.",
			"n", o.loc.Int(int64(len(arr))), "w", o.loc.Number(width)),
		live: o.vt("play", "live", "{t} s: {n} of {total} retries sent."),
	}
	f.open(o)
	dotsInBins(o, f, arr, wavesOf(len(arr), per), width, floor, o.vt("play", "floor", "Retry-After"))
	f.close(o, o.vt("play", "x", "time since the 429 (s)"))
	return nil
}

// stripRoles are the roles of the policies' strips: attempts sent,
// answers in time.
var stripRoles = [2]string{roleRetry, roleFirst}

// deadlinePlay: the worst case's attempts and waits on a timeline, each
// appearing when it starts, against the deadline.
func deadlinePlay(o *outCtx, r *calc.DeadlineResult) error {
	timeout, ok1 := argFloat(o.a, "timeout_ms")
	deadline, ok2 := argFloat(o.a, "deadline_ms")
	waits, ok3 := argFloats(o.a, "waits_ms")
	attemptsF, ok4 := argFloat(o.a, "attempts")
	admitted := float64(r.AttemptsAdmitted)
	if !ok1 || !ok2 || !ok3 || !ok4 || attemptsF > 200 {
		return errNoData
	}
	n := int(attemptsF)
	end := 0.0
	starts := make([]float64, n)
	for i := 0; i < n; i++ {
		starts[i] = end
		end += timeout
		if i < len(waits) && i+1 < n {
			end += waits[i]
		}
	}
	rowH := math.Min(28, 200/float64(max(n, 1)))
	f := &playFig{t0: 0, t1: math.Max(end, deadline), unit: o.loc.TOr("widget.unit.ms", "ms"), sec: 0.001, height: marginT + rowH*float64(n) + marginB,
		title: o.vt("play", "title", "The attempts on a timeline"),
		desc: o.vt("play", "desc", "Each attempt runs to its timeout, then the task waits; {admitted} of {n} attempts start before the deadline.",
			"admitted", o.loc.Number(admitted), "n", o.loc.Int(int64(n))),
		live: o.vt("play", "live", "{t} ms: {n} of {total} steps under way or done."),
	}
	f.open(o)
	b := o.b
	bar := rowH * 0.7
	for i := 0; i < n; i++ {
		y := marginT + rowH*float64(i) + (rowH-bar)/2
		// as the timeline draws it (deadlineTimeline; reader review:
		// attempt 3 ran to 750 ms here, cut at 600 there)
		wait := 0.0
		if i < len(waits) && i+1 < n {
			wait = waits[i]
		}
		writeDeadlineRow(b, starts[i], starts[i]+timeout, deadline, wait, float64(i) < admitted, y, bar, f.fx, true)
	}
	writeDeadlineRule(b, f.fx(deadline), marginT-8, f.height-marginB, marginT, o.vt("timeline", "deadline", "deadline"))
	f.close(o, o.vt("timeline", "x", "time since the task started (ms)"))
	return nil
}

// amplificationPlay: the call tree growing layer by layer (data-t is the
// layer, 0 the request at the top).
func amplificationPlay(o *outCtx, r *calc.AmplificationResult) error {
	nodes, ok := treeNodes(r.Tree)
	if !ok || len(nodes) > maxPlayNodes {
		return errNoData
	}
	var scratch strings.Builder
	writeTree(&scratch, nodes, o.vt("play", "title", "The call tree, layer by layer"), o.vt("play", "desc", "Press play to watch each layer repeat the calls of the one above."), treeKey(o))
	svg := scratch.String()
	depth := 0
	for _, n := range nodes {
		depth = max(depth, n.Level)
	}
	// the edges come in nodes[1:]'s order, the circles in nodes' order
	var out strings.Builder
	edge, circle := 1, 0
	for {
		i := strings.IndexByte(svg, '<')
		if i < 0 {
			out.WriteString(svg)
			break
		}
		out.WriteString(svg[:i])
		svg = svg[i:]
		switch {
		case strings.HasPrefix(svg, "<line ") && edge < len(nodes):
			out.WriteString(`<line data-t="` + strconv.Itoa(nodes[edge].Level) + `" `)
			svg = svg[len("<line "):]
			edge++
		case strings.HasPrefix(svg, "<circle") && circle < len(nodes):
			out.WriteString(`<circle data-t="` + strconv.Itoa(nodes[circle].Level) + `"`)
			svg = svg[len("<circle"):]
			circle++
		default:
			out.WriteByte('<')
			svg = svg[1:]
		}
	}
	s := out.String()
	// the tree's figure becomes a time view: the range and the controls
	f := &playFig{t0: 0, t1: float64(depth), unit: o.vt("play", "unit", "layer"),
		live: o.vt("play", "live", "layer {t}: {n} of {total} calls and edges drawn."),
		at:   o.vt("play", "time", "layer {t}")}
	head := `<figure class="widget-chart" data-view="tree">`
	if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, "</svg></figure>\n") {
		return errNoData
	}
	s = strings.TrimSuffix(s, "</figure>\n")
	var h strings.Builder
	writef(&h, `<figure class="widget-chart widget-play" data-view="play" data-timeview data-t0="0" data-t1="%s" data-unit="%s" data-live-template="%s"%s%s>`, strconv.Itoa(depth), esc(f.unit), esc(f.live), f.timeAttr(), f.playAttr())
	o.b.WriteString(h.String())
	o.b.WriteString(strings.TrimPrefix(s, head))
	writePlayer(o, f)
	o.b.WriteString("</figure>\n")
	return nil
}

// policiesPlay: the same outage under every policy, one strip per policy,
// second by second: the attempts sent (light) and the answers in time
// (dark) of each step appear together (data-t is the step's time).
func policiesPlay(o *outCtx, r *calc.PoliciesResult) error {
	runs, ok := policyRuns(r)
	ts, ok2 := floats(r.TS)
	if !ok || !ok2 || len(ts) < 2 || len(runs) == 0 {
		return errNoData
	}
	top := 1.0
	for _, p := range runs {
		if len(p.OfferedPerS) != len(ts) || len(p.GoodputPerS) != len(ts) {
			return errNoData
		}
		for i := range ts {
			top = math.Max(top, math.Max(p.OfferedPerS[i], p.GoodputPerS[i]))
		}
	}
	top = o.shared(top)
	// a strip: its policy's name on a line of its own, then its bars
	// (the name keeps 11 px on a phone without touching the bars); a key
	// above the strips
	const rowH, barH, keyH = 48.0, 22.0, 26.0
	n := len(ts)
	f := &playFig{t0: ts[0], t1: ts[n-1], unit: o.loc.TOr("widget.unit.s", "s"), sec: 1, height: marginT + keyH + rowH*float64(len(runs)) + marginB,
		title: o.vt("play", "title", "The outage under each policy, second by second"),
		desc: o.vt("play", "desc", "One strip per policy: the attempts sent (light) and the answers in time (dark) at each step, up to {top} per second.",
			"top", o.loc.Number(top)),
		live: o.vt("play", "live", "{t} s: {n} of {total} steps shown."),
	}
	f.open(o)
	b := o.b
	w := (chartW - marginL - marginR) / float64(n)
	// each strip's name after a marker in its policy's colour (the same
	// colour as its bar in the summary and its swatch in the table)
	for r, p := range runs {
		y := marginT + keyH + rowH*float64(r)
		writef(b, `<rect class="chart-bar %s" x="%s" y="%s" width="12" height="12"/>`, policyClass(esc(p.Policy)), f1(marginL+2), f1(y+3))
		writef(b, `<text class="chart-label" x="%s" y="%s" dy="1em">%s</text>`, f1(marginL+20), f1(y), esc(o.policyLabel(p.Policy)))
	}
	writef(b, `<text class="chart-label" x="%s" y="%s" dy="1em"><tspan class="chart-bar chart-role-%s">■</tspan> %s <tspan class="chart-bar chart-role-%s">■</tspan> %s</text>`,
		f1(marginL+2), f1(marginT), stripRoles[0], esc(o.vt("timeline", "offered", "attempts sent")), stripRoles[1], esc(o.vt("timeline", "goodput", "answers in time")))
	// A step is one <g data-t> holding two paths, the light bars and the
	// dark bars of every strip, each bar a subpath: 2 elements a step
	// instead of a rect per bar (18 with the nine policies), which is
	// what the page parses again on each recompute.
	bw := f1(math.Max(0.5, w))
	bases := make([]string, len(runs)) // " Y" of each strip's base
	for r := range runs {
		bases[r] = " " + f1(marginT+keyH+rowH*float64(r+1))
	}
	b.WriteString(`<g class="chart-frames">`)
	b.Grow(64*len(ts)*len(runs) + 1024) // room made once: about 60 bytes a bar (two subpaths)
	for i := range ts {
		writef(b, `<g data-t="%s">`, fnum(ts[i]))
		x := "M" + f1(f.fx(ts[i])-w/2)
		// attempts sent in the retries' colour, the answers in time drawn
		// over them in the first attempts': what shows of the first is
		// work that got no answer in time
		for si, end := range []string{`"/>`, `"/>`} {
			open := false
			for r, p := range runs {
				v := p.OfferedPerS[i]
				if si == 1 {
					v = p.GoodputPerS[i]
				}
				h := v / top * barH
				if h <= 0 {
					continue
				}
				if !open {
					writef(b, `<path class="chart-bar chart-role-%s" d="`, stripRoles[si])
					open = true
				}
				// from the strip's base: up h, across the bar, down h
				hs := f1(h)
				b.WriteString(x + bases[r] + "v-" + hs + "h" + bw + "v" + hs + "z")
			}
			if open {
				b.WriteString(end)
			}
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</g>`)
	f.close(o, o.vt("timeline", "x", "time (s)"))
	return nil
}

// limitsPlay: the request bucket and the token bucket second by second
// while the workload's calls arrive, and beneath them the calls admitted
// at once, after a wait, or refused: the result's Play (the calculator
// records it under calc.Args.WithTrace).
func limitsPlay(o *outCtx, r *calc.LimitsResult) error {
	tokens, ok := argFloat(o.a, "tokens_per_call")
	p := r.Play
	if !ok || p == nil {
		return errNoData
	}
	h, steps, rb, tb := p.HorizonS, p.Steps, p.BurstRequests, p.BurstTokens
	// the strips: request bucket, token bucket (from full down to the
	// lowest level, below 0 while calls wait for the refill), calls
	// (each strip pad units below its label's baseline, clear of the
	// text's descenders: at 4 the key sat on the bars' tops on a phone;
	// the gap keeps 20 units above a label)
	const stripH, pad = 90.0, 14.0
	const gap = pad + 20
	full := [2]float64{float64(rb), float64(tb)}
	var low [2]float64
	var sum [3]int
	top := 1
	for _, s := range steps {
		low[0], low[1] = math.Min(low[0], s.Requests), math.Min(low[1], s.Tokens)
		sum[0], sum[1], sum[2] = sum[0]+s.Admitted, sum[1]+s.Delayed, sum[2]+s.Refused
		top = max(top, s.Admitted+s.Delayed+s.Refused)
	}
	top = max(top, int(o.shared(float64(top))))
	in := func(n int) string { return o.loc.Int(int64(n)) }
	// each strip's label, its colours keyed by swatches (■ in the bars'
	// colour): a bucket's level, what it owes to calls that wait (below
	// zero), and the calls by outcome; the keys on a line of their own
	// when the whole does not fit the width at phoneEm (it, es), the
	// strips below moved down by that line
	type key struct {
		series int
		text   string
	}
	owed := key{2, o.vt("play", "owed", "below zero: owed to the calls that wait")}
	heads := [3]string{
		o.vt("play", "requests", "request bucket (RPM): {n} when full", "n", in(rb)),
		o.vt("play", "tokens", "token bucket (TPM): {n} when full", "n", in(tb)),
		o.vt("play", "calls", "calls per second:"),
	}
	keys := [3][]key{nil, nil, {{1, o.vt("play", "admitted", "admitted at once")}, {2, o.vt("play", "delayed", "after a wait")}, {3, o.vt("play", "refused", "refused")}}}
	for i := range 2 {
		if low[i] < 0 {
			keys[i] = []key{owed}
		}
	}
	const keyLine = 24.0 // a line of text at phoneEm
	var off [3]float64   // how far each strip moves down
	var two [3]bool
	extra := 0.0
	for i := range heads {
		plain := heads[i]
		for _, k := range keys[i] {
			plain += " ■ " + k.text
		}
		two[i] = len(keys[i]) > 0 && textWidth(plain, phoneEm) > chartW-marginL-marginR-8
		if two[i] {
			extra += keyLine
		}
		off[i] = extra
	}
	f := &playFig{t0: 0, t1: h, unit: o.loc.TOr("widget.unit.s", "s"), sec: 1, height: 400 + 3*(pad-4) + extra,
		title: o.vt("play", "title", "The two buckets while the calls arrive"),
		desc: o.vt("play", "desc", "Both buckets start full ({rb} requests, {tb} tokens) and refill at the limits' pace; each call takes one request and {k} tokens. A call that would wait more than {w} s is refused. In {h} s: {a} calls admitted at once, {d} after a wait, {x} refused.",
			"rb", in(rb), "tb", in(tb), "k", o.loc.Number(tokens), "w", o.loc.Number(p.MaxWaitS), "h", o.loc.Number(h), "a", in(sum[0]), "d", in(sum[1]), "x", in(sum[2])),
		live: o.vt("play", "live", "{t} s: {say}."),
	}
	f.open(o)
	b := o.b
	swatch := func(k key) string {
		return `<tspan class="chart-bar chart-series-` + strconv.Itoa(k.series) + `">■</tspan> ` + esc(k.text)
	}
	for i, head := range heads {
		ly := marginT + 10 + float64(i)*(stripH+gap) + off[i]
		if two[i] {
			ly -= keyLine
		}
		l := esc(head)
		for j, k := range keys[i] {
			if two[i] && j == 0 {
				l += `<tspan x="` + f1(marginL+4) + `" dy="` + f1(keyLine) + `">` + swatch(k) + `</tspan>`
				continue
			}
			l += " " + swatch(k)
		}
		writef(b, `<text class="chart-label" x="%s" y="%s">%s</text>`, f1(marginL+4), f1(ly), l)
	}
	// y of level v in strip i
	y := func(i int, v float64) float64 {
		return marginT + 10 + pad + float64(i)*(stripH+gap) + off[i] + (full[i]-v)/(full[i]-low[i])*stripH
	}
	base := f.height - marginB
	w := (chartW - marginL - marginR) / float64(len(steps))
	ws := f1(math.Max(0.5, w))
	rect := func(series int, x, y0, y1 float64) {
		if y0 != y1 {
			writef(b, `<rect class="chart-bar chart-series-%s" x="%s" y="%s" width="%s" height="%s"/>`, strconv.Itoa(series), f1(x), f1(math.Min(y0, y1)), ws, f1(math.Abs(y1-y0)))
		}
	}
	b.WriteString(`<g class="chart-frames">`)
	b.Grow(430*len(steps) + 1024) // room made once: a frame writes about 420 bytes (it)
	sum = [3]int{}
	for i, s := range steps {
		sum[0], sum[1], sum[2] = sum[0]+s.Admitted, sum[1]+s.Delayed, sum[2]+s.Refused
		writef(b, `<g data-t="%s" data-say="`, fnum(s.T))
		writeEsc(b, o.vt("play", "say", "{r} requests and {k} tokens in the buckets; so far {a} calls admitted at once, {d} after a wait, {x} refused",
			"r", o.loc.Number(math.Floor(s.Requests)), "k", o.loc.Number(math.Floor(s.Tokens)), "a", in(sum[0]), "d", in(sum[1]), "x", in(sum[2])))
		b.WriteString(`">`)
		x := f.fx(float64(i) * h / float64(len(steps)))
		for j, v := range [2]float64{s.Requests, s.Tokens} {
			series := 1
			if v < 0 { // owed to calls that wait
				series = 2
			}
			rect(series, x, y(j, 0), y(j, v))
		}
		yb := base
		for j, n := range [3]int{s.Admitted, s.Delayed, s.Refused} {
			hh := float64(n) / float64(top) * (base - marginT - 10 - pad - 2*(stripH+gap) - off[2])
			rect(j+1, x, yb, yb-hh)
			yb -= hh
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</g>`)
	f.close(o, o.vt("play", "x", "time (s)"))
	return nil
}

// arrivalOrder returns the indices of times in order of arrival, ties in
// order of index: what slices.SortStableFunc by cmp.Compare of the times
// gives (NaN first), with core/standin/heapsort, which the module links anyway, in
// place of the stable sort's own code (README.md, "Size-driven
// replacements"; TestArrivalOrder holds it to slices.SortStableFunc).
func arrivalOrder(times []float64) []int {
	order := make([]int, len(times))
	for i := range order {
		order[i] = i
	}
	heapsort.Sort(len(order), func(a, b int) bool {
		i, j := order[a], order[b]
		if c := cmp.Compare(times[i], times[j]); c != 0 {
			return c < 0
		}
		return i < j
	}, func(a, b int) { order[a], order[b] = order[b], order[a] })
	return order
}
