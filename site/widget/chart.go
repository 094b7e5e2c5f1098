package widget

import (
	"math"
	"strconv"
	"strings"

	"retrylab/core/standin/fmath"
	"retrylab/site/locale"
)

// The chart geometry, in SVG user units (the viewBox; CSS scales it).
const (
	chartW  = 640.0
	chartH  = 280.0
	marginL = 64.0
	marginR = 16.0
	marginT = 16.0
	marginB = 48.0
	// plotTop is the top of a plot whose y axis' name sits above it
	// (chart.write, the play histograms' dotsInBins)
	plotTop    = 46.0
	maxXLabels = 10 // 12 left 1–2 px between numbers such as "0,6" and "0,9" on a phone (reader review)
)

// series is one set of values of a chart.
type series struct {
	Name string
	// Role is the meaning of the marks (grammar.go: roleRetry…); empty:
	// the role of the series' position (seriesRole).
	Role   string
	Values []float64
	Mark   []bool // bars or points drawn with the mark class (the peak, a tail)
}

// chart is a bar chart (categories on x) or a line chart (numbers on x),
// with a y axis from 0 and a data table as its text alternative.
type chart struct {
	View        string // data-view of the figure
	Title, Desc string
	Caption     string
	XLabel      string
	YLabel      string
	Line        bool
	// NoDots, in a line chart, leaves out the dot on each point (drawn
	// for series of at most 60 values): for small multiples, where the
	// lines say enough and the dots would be most of the markup.
	NoDots     bool
	Categories []string // bar charts: one label per bar
	// Keys, when set, are the stable ids of the categories (policies):
	// each bar takes its category's colour (policyClass) instead of its
	// series'.
	Keys   []string
	X      []float64 // line charts: the x of each value
	Series []series
	YMax   float64 // 0: from the data
	// YLog draws a vertical chart's y axis on a log10 scale, for a
	// quantity spanning orders of magnitude (a drain time): the values
	// stay the quantity's (the data table shows them), the ticks are
	// whole powers of ten from the one at or below the smallest positive
	// value, and a value <= 0 sits on the axis.
	YLog     bool
	YPercent bool   // y values are fractions written as percentages
	Rules    []rule // horizontal limits (a limit such as 100 %)
	// VMark, when > 0, draws a vertical dashed line before bar VMark-1
	// (bar charts), labelled VLabel: a threshold.
	VMark  int
	VLabel string
	// MarkName names the marked bars or points (series.Mark) in the key:
	// a row of its own, its swatch drawn as they are, when a value is
	// marked. "": draw takes the view's string [view.CALC.VIEW] mark, and
	// when there is none the marks stay unnamed (a chart whose title or
	// direct labels say what the mark is).
	MarkName string
	// the layout of a vertical chart, set by write: left and top
	// margins, height of the plot's frame (legend below it included)
	ml, mt, h float64
	// in, when set, is the run of a comparison the chart is drawn in:
	// its y axis' top is the runs' shared one (outCtx.shared).
	in *outCtx
	// Policy, when set, is the id of the policy the chart is about: its
	// title carries the policy's swatch, and a chart of one series without
	// a Role draws it in the policy's colour (policycolours.go).
	Policy string
	// Out names the result field the first series plots and its raw JSON:
	// the data table carries them as data-out / data-value (draw reads
	// OutRaw from the result when it is "").
	OutField, OutRaw string
}

// writeFigTitle writes a figure's title where the reader sees it, above
// its picture: what the figure shows. The svg's <title> is its accessible
// name, so the visible one is hidden from assistive technology (read
// once, not twice).
// A policy's figure (policy: its id) carries the policy's swatch.
func writeFigTitle(b *strings.Builder, title, policy string) {
	if title == "" {
		return
	}
	b.WriteString(`<p class="widget-fig-title" aria-hidden="true">`)
	if policy != "" {
		writef(b, `<span class="widget-swatch %s"></span>`, policyClass(esc(policy)))
	}
	b.WriteString(esc(title))
	b.WriteString(`</p>`)
}

// roleClass is the class that colours the marks of series si.
func (ch *chart) roleClass(si int) string {
	if si < len(ch.Series) && ch.Series[si].Role != "" {
		return "chart-role-" + ch.Series[si].Role
	}
	if ch.Policy != "" && len(ch.Series) == 1 {
		return policyClass(esc(ch.Policy))
	}
	return "chart-role-" + seriesRole(si)
}

// keyClass is the classes of category i's colour, when the chart has
// Keys: " chart-policy chart-policy-ID".
func (ch *chart) keyClass(i int) string {
	if i >= len(ch.Keys) {
		return ""
	}
	return " " + policyClass(esc(ch.Keys[i]))
}

// policyClass is the class of the marks and swatches of policy id: its
// colour (policycolours.go, through the style sheet).
func policyClass(id string) string { return "chart-policy chart-policy-" + id }

// horizontal reports whether the categories' labels, at the phone's font
// size, do not fit under their bars: each in its slot, and labelGap
// between two neighbours. The chart then draws one bar per row with its
// label above it (writeHBars).
func (ch *chart) horizontal() bool {
	if ch.Line || len(ch.Categories) == 0 {
		return false
	}
	slot := (chartW - marginL - marginR - 2*barPad) / float64(len(ch.Categories))
	every := (len(ch.Categories) + maxXLabels - 1) / maxXLabels
	room, prev := slot*float64(every), 0.0
	for i, c := range ch.Categories {
		if i%every != 0 {
			continue
		}
		w := textWidth(c, phoneEm)
		if w > room-6 || (prev+w)*9/16+labelGap > room {
			return true
		}
		prev = w
	}
	return false
}

// labelGap is the least room, in SVG units, that horizontal keeps between
// two neighbouring category labels, each counted an eighth wider than
// textWidth says (it errs short by about that on words in the phones'
// fonts): the slot alone left timeouts' «connessione» and «primo token»
// 3 px apart on a phone (issue 30). A fixed 1.5 em instead turned a
// 70-bin histogram, its labels every seventh bin, horizontal.
const labelGap = phoneEm / 2

// barPad is the room, in SVG units, between the plot's edges and the first
// and last bars of a category chart (writeBars): narrow bins left them
// flush with the axis and the gridlines' end (reader review: the last bar
// of a 36-bin chart touched the edge).
const barPad = 4.0

// rule is a horizontal line at Y (a limit such as 100 %). Split: a
// marked bar is marked beyond Y only, its part within the limit drawn
// plain (estimate: the calls above the provider's limit, not the whole
// bar, come back as 429).
type rule struct {
	Y     float64
	Label string
	Split bool
}

// split is the Y of the chart's Split rule, 0 when it has none.
func (ch *chart) split() float64 {
	for _, r := range ch.Rules {
		if r.Split {
			return r.Y
		}
	}
	return 0
}

// fewBars draws a bar chart of a few named values of one series, in the
// calculator's view view: the bars mark holds drawn marked (the limit
// that binds), the rules drawn across. One body for the views of a few
// figures each (estimate, capacity, concurrency): a chart literal is
// large code in the browser's module, and written once it is paid once.
//
//go:noinline
func fewBars(o *outCtx, view, title, desc, y string, cats []string, vals []float64, mark []bool, rules []rule, outField string) {
	ch := chart{
		View: view, Title: title, Desc: desc, YLabel: y,
		Categories: cats,
		Series:     []series{{Name: y, Values: vals, Mark: mark}},
		Rules:      rules,
		OutField:   outField,
	}
	ch.draw(o)
}

// draw writes the chart into o, on o's scale when o is a run of a
// comparison. (Not inlined: one copy for the views' many calls.)
//
//go:noinline
func (ch *chart) draw(o *outCtx) {
	ch.in = o
	if ch.OutField != "" && ch.OutRaw == "" { // its JSON, for the data table
		ch.OutRaw = o.outRaw(ch.OutField)
	}
	if ch.MarkName == "" {
		// the key names marked bars or points by the view's strings
		// ([view.CALC.VIEW] mark) when the view does not (reader review:
		// pink bars with no key)
		ch.MarkName = o.vt(ch.View, "mark", "")
	}
	ch.write(o.b, o.loc)
}

// write renders the chart as a figure.
func (ch *chart) write(b *strings.Builder, loc locale.Locale) {
	ymax := ch.YMax
	for _, s := range ch.Series {
		for _, v := range s.Values {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				ymax = math.Max(ymax, v)
			}
		}
	}
	for _, r := range ch.Rules {
		ymax = math.Max(ymax, r.Y)
	}
	if ch.in != nil {
		ymax = ch.in.shared(ymax)
	}
	hbars := ch.horizontal()
	ticks := niceTicks(0, ymax, 5)
	if ch.YLog && !hbars {
		ticks = ch.logTicks(ymax)
	}
	top := ticks[len(ticks)-1]
	lo, hi := math.Log10(ticks[0]), math.Log10(top) // a YLog axis' ends
	fy := func(v float64) float64 {
		if ch.YLog && !hbars {
			if !(v > 0) || hi <= lo {
				return ch.h - marginB
			}
			return ch.h - marginB - (math.Max(lo, math.Log10(v))-lo)/(hi-lo)*(ch.h-ch.mt-marginB)
		}
		if top <= 0 {
			return ch.h - marginB
		}
		return ch.h - marginB - (v/top)*(ch.h-ch.mt-marginB)
	}
	yfmt := func(v float64) string {
		if ch.YPercent {
			return loc.Percent(v, decimalsFor(ticks, 100))
		}
		return loc.Number(v)
	}
	writef(b, `<figure class="widget-chart" data-view="%s">`, esc(ch.View))
	writeFigTitle(b, ch.Title, ch.Policy)
	if hbars {
		ch.writeHBars(b, ticks, yfmt)
		ch.writeEnd(b, loc, yfmt)
		return
	}
	// the left margin fits the widest tick label at the phone's size;
	// the y axis' name sits above the plot, the key below the x axis
	ch.ml, ch.mt, ch.h = 48, plotTop, chartH
	for _, t := range ticks {
		ch.ml = math.Max(ch.ml, textWidth(yfmt(t), phoneEm)+12)
	}
	legendH := 0.0
	if rows := ch.keyRows(); rows > 0 {
		legendH = float64(rows)*24 + 4
	}
	writeSVG(b, "", ch.h+legendH, ch.Title, ch.Desc)
	// grid and y axis
	b.WriteString(`<g class="chart-axis" stroke="currentColor" stroke-width="1">`)
	for _, t := range ticks {
		y := fy(t)
		writeLine(b, ` class="chart-grid"`, ch.ml, chartW-marginR, y, y, ` stroke-opacity="0.15"`)
	}
	writeLine(b, "", ch.ml, chartW-marginR, ch.h-marginB, ch.h-marginB, "")
	writeLine(b, "", ch.ml, ch.ml, ch.mt, ch.h-marginB, "")
	b.WriteString(`</g>`)
	b.WriteString(`<g class="chart-tick" text-anchor="end">`)
	for _, t := range ticks {
		writef(b, `<text x="%s" y="%s" dy="0.32em">%s</text>`, f1(ch.ml-6), f1(fy(t)), esc(yfmt(t)))
	}
	b.WriteString(`</g>`)
	plotW := chartW - ch.ml - marginR
	if ch.Line {
		ch.writeLines(b, loc, fy, plotW)
	} else {
		ch.writeBars(b, fy, plotW)
	}
	if !ch.Line && ch.VMark > 0 && ch.VMark <= len(ch.Categories) {
		x := ch.ml + float64(ch.VMark-1)*plotW/float64(len(ch.Categories))
		anchor, tx := "start", x+4
		if x > chartW-160 {
			anchor, tx = "end", x-4
		}
		writeRule(b, x, ch.mt, x, ch.h-marginB, tx, ch.mt+12, anchor, ch.VLabel)
	}
	for _, r := range ch.Rules {
		y := fy(r.Y)
		writeRule(b, ch.ml, y, chartW-marginR, y, chartW-marginR, y-4, "end", r.Label)
	}
	// axis labels
	writef(b, `<text class="chart-label" x="%s" y="%s" text-anchor="middle">%s</text>`, f1(ch.ml+plotW/2), f1(ch.h-4), esc(ch.XLabel))
	writef(b, `<text class="chart-label chart-ylabel" x="4" y="4" dy="1em">%s</text>`, esc(ch.YLabel))
	if ch.keyRows() > 0 {
		ch.writeLegend(b)
	}
	b.WriteString(`</svg>`)
	ch.writeEnd(b, loc, yfmt)
}

// writeEnd closes a chart's figure: its data table and then its caption,
// when it has one (a figcaption is the figure's first or last child).
func (ch *chart) writeEnd(b *strings.Builder, loc locale.Locale, yfmt func(float64) string) {
	ch.writeTable(b, loc, yfmt)
	if ch.Caption != "" {
		writef(b, `<figcaption>%s</figcaption>`, esc(ch.Caption))
	}
	b.WriteString("</figure>\n")
}

func (ch *chart) writeBars(b *strings.Builder, fy func(float64) float64, plotW float64) {
	n := len(ch.Categories)
	if n == 0 {
		return
	}
	ns := len(ch.Series)
	x0 := ch.ml + barPad
	slot := (plotW - 2*barPad) / float64(n)
	gap := math.Min(slot*0.15, 8)
	if slot < 4 {
		gap = 0
	}
	barW := (slot - gap) / float64(ns)
	if barW > 72 { // few categories: keep the bars narrow and centred
		gap += (barW - 72) * float64(ns)
		barW = 72
	}
	for si, s := range ch.Series {
		writef(b, `<g class="chart-bars %s">`, ch.roleClass(si))
		for i, v := range s.Values {
			if i >= n || math.IsNaN(v) {
				continue
			}
			x := x0 + float64(i)*slot + gap/2 + float64(si)*barW
			y := fy(v)
			h := ch.h - marginB - y
			class, op := "chart-bar"+ch.keyClass(i), opacity(si)
			if i < len(s.Mark) && s.Mark[i] {
				if l := ch.split(); l > 0 && l < v { // the part within the limit, plain
					ys := fy(l)
					writeBar(b, class, x, ys, barW, ch.h-marginB-ys, op)
					h = ys - y
				}
				class, op = class+" chart-bar-mark", "1"
			}
			writeBar(b, class, x, y, barW, h, op)
		}
		b.WriteString(`</g>`)
	}
	every := (n + maxXLabels - 1) / maxXLabels
	b.WriteString(`<g class="chart-tick" text-anchor="middle">`)
	for i, c := range ch.Categories {
		if i%every != 0 {
			continue
		}
		writef(b, `<text x="%s" y="%s">%s</text>`, f1(x0+(float64(i)+0.5)*slot), f1(ch.h-marginB+20), esc(c))
	}
	b.WriteString(`</g>`)
}

func (ch *chart) writeLines(b *strings.Builder, loc locale.Locale, fy func(float64) float64, plotW float64) {
	if len(ch.X) == 0 {
		return
	}
	lo, hi := ch.X[0], ch.X[len(ch.X)-1]
	if ch.in != nil {
		hi = ch.in.shared(hi) // a comparison's runs span the same time
	}
	xt := niceTicks(lo, hi, 8)
	// fewer ticks when their labels would touch at the phone's size
	for n := 7; n >= 2 && !ticksFit(xt, loc, plotW); n-- {
		xt = niceTicks(lo, hi, n)
	}
	// the axis spans the data (ticks outside it are not drawn), so the
	// first point sits on the y axis
	x0, x1 := lo, math.Max(hi, xt[len(xt)-1])
	fx := func(v float64) float64 {
		if x1 == x0 {
			return ch.ml + plotW/2
		}
		return ch.ml + (v-x0)/(x1-x0)*plotW
	}
	var pts []byte // one buffer for every line's points, not a string a point
	for si, s := range ch.Series {
		pts = pts[:0]
		for i, v := range s.Values {
			if i < len(ch.X) && !math.IsNaN(v) {
				if len(pts) > 0 {
					pts = append(pts, ' ')
				}
				pts = append(appendF1(pts, fx(ch.X[i])), ',')
				pts = appendF1(pts, fy(v))
			}
		}
		writef(b, `<polyline class="chart-line %s" points="`, ch.roleClass(si))
		b.Write(pts)
		writef(b, `" fill="none" stroke="currentColor"%s/>`, lineDash(si))
		if len(s.Values) <= 60 && !ch.NoDots {
			writef(b, `<g class="chart-points %s">`, ch.roleClass(si))
			for i, v := range s.Values {
				if i >= len(ch.X) || math.IsNaN(v) {
					continue
				}
				cls, r := "chart-point", 2.5
				if i < len(s.Mark) && s.Mark[i] {
					cls, r = "chart-point chart-bar-mark", 5
				}
				writef(b, `<circle class="%s" cx="%s" cy="%s" r="%s"/>`, cls, f1(fx(ch.X[i])), f1(fy(v)), f1(r))
			}
			b.WriteString(`</g>`)
		}
	}
	b.WriteString(`<g class="chart-tick" text-anchor="middle">`)
	for _, t := range xt {
		if t < x0 || t > x1 {
			continue
		}
		writef(b, `<text x="%s" y="%s"%s>%s</text>`, f1(fx(t)), f1(ch.h-marginB+20), tickAnchor(fx(t), ch.ml, loc.Number(t)), esc(loc.Number(t)))
	}
	b.WriteString(`</g>`)
}

func (ch *chart) writeLegend(b *strings.Builder) {
	// below the x axis' name, one series a row: a swatch, then its name
	b.WriteString(`<g class="chart-legend">`)
	x := ch.ml
	// one series has no row: the y axis names it, and the key is its
	// marks' row alone (a row of its own had a swatch of no bar when
	// every bar was marked)
	rows := ch.Series
	if len(rows) == 1 {
		rows = nil
	}
	for si, s := range rows {
		y := ch.h + 4 + float64(si)*24
		tx := x + 22
		if ch.Line {
			// a stretch of the line, long enough to show its dashes, and
			// its point when the chart draws its points (writeLines)
			writeLine(b, ` class="chart-line `+ch.roleClass(si)+`"`, x, x+24, y+8, y+8, ` stroke="currentColor"`+lineDash(si))
			if len(s.Values) <= 60 && !ch.NoDots {
				writef(b, `<circle class="chart-point %s" cx="%s" cy="%s" r="3"/>`, ch.roleClass(si), f1(x+12), f1(y+8))
			}
			tx = x + 30
		} else {
			writeBar(b, "chart-bar "+ch.roleClass(si), x+2, y+2, 12, 12, opacity(si))
		}
		writef(b, `<text class="chart-label" x="%s" y="%s" dy="0.85em">%s</text>`, f1(tx), f1(y), esc(s.Name))
	}
	if ch.marked() {
		y := ch.h + 4 + float64(len(rows))*24
		if ch.Line {
			ch.markKey(b, x+12, y+8, x+30, y)
		} else {
			ch.markKey(b, x+2, y+2, x+22, y)
		}
	}
	b.WriteString(`</g>`)
}

// markKey writes the key's row of the marked values: at (sx, sy) a
// point of a line chart (its centre) or a bar's swatch (its corner),
// drawn as they are, and MarkName at (tx, ty).
func (ch *chart) markKey(b *strings.Builder, sx, sy, tx, ty float64) {
	if ch.Line {
		writef(b, `<circle class="chart-point chart-bar-mark" cx="%s" cy="%s" r="5"/>`, f1(sx), f1(sy))
	} else {
		// policies' marked bars keep their policy's colour inside a
		// dashed outline: their swatch is the outline alone
		// (policyClassCSS)
		policy := ""
		if len(ch.Keys) > 0 {
			policy = " chart-policy"
		}
		writeBar(b, "chart-bar"+policy+" chart-bar-mark", sx, sy, 12, 12, "1")
	}
	writef(b, `<text class="chart-label" x="%s" y="%s" dy="0.85em">%s</text>`, f1(tx), f1(ty), esc(ch.MarkName))
}

// marked reports whether the key has a row for the marked values: a
// value is marked and drawn so, and MarkName names them.
func (ch *chart) marked() bool {
	if ch.MarkName == "" {
		return false
	}
	for _, s := range ch.Series {
		// a line chart draws its marks on its points (writeLines)
		if ch.Line && (len(s.Values) > 60 || ch.NoDots) {
			continue
		}
		for _, m := range s.Mark {
			if m {
				return true
			}
		}
	}
	return false
}

// keyRows is the number of rows of the key: one per series when there
// are several, and one for the marked values (marked); none for one
// series and no mark (its title names it).
func (ch *chart) keyRows() int {
	n := 0
	if len(ch.Series) > 1 {
		n = len(ch.Series)
	}
	if ch.marked() {
		n++
	}
	return n
}

// tickAnchor is the text-anchor of a tick label centred at x, unless it
// would cross the chart's right edge at the phone's size: then it ends at
// x; or cross left, the plot's left edge, where the y axis' lowest label
// sits (the origin's "0" beside the x axis' "0"): then it starts at x.
func tickAnchor(x, left float64, label string) string {
	w := textWidth(label, phoneEm) / 2
	if x+w > chartW-2 {
		return ` text-anchor="end"`
	}
	if x-w < left {
		return ` text-anchor="start"`
	}
	return ""
}

// ticksFit reports whether the labels of ticks, spread over width, keep
// apart at the phone's font size.
func ticksFit(ticks []float64, loc locale.Locale, width float64) bool {
	if len(ticks) < 2 {
		return true
	}
	gap := width / float64(len(ticks)-1)
	for _, t := range ticks {
		// 1.5 widths: the last label may end at its tick (tickAnchor); 16
		// units apart (8 left "1.250" and "1.500" 2 px apart on a phone)
		if 1.5*textWidth(loc.Number(t), phoneEm)+16 > gap {
			return false
		}
	}
	return true
}

// writeHBars draws a bar chart with one row per category: its label
// above the bar, the value at the end of the label (a direct label: no
// legend needed for one series), the numeric axis below. It is the layout
// of categories whose names do not fit under vertical bars.
func (ch *chart) writeHBars(b *strings.Builder, ticks []float64, yfmt func(float64) string) {
	const left, right, lineH, barH, gap, axisH = 8.0, 24.0, 24.0, 16.0, 10.0, 52.0
	ns := len(ch.Series)
	rowH := lineH + float64(ns)*barH + gap
	n := len(ch.Categories)
	// a limit (Rules) is a dashed vertical line, its label in a row of
	// its own above the bars
	mt := marginT
	if len(ch.Rules) > 0 {
		mt += lineH
	}
	h := mt + float64(n)*rowH + axisH + float64(ch.keyRows())*lineH
	top := ticks[len(ticks)-1]
	plotW := chartW - left - right
	fx := func(v float64) float64 {
		if top <= 0 || math.IsNaN(v) {
			return left
		}
		return left + math.Max(0, v)/top*plotW
	}
	writeSVG(b, " chart-h", h, ch.Title, ch.Desc)
	base := mt + float64(n)*rowH
	b.WriteString(`<g class="chart-axis" stroke="currentColor" stroke-width="1">`)
	for _, t := range ticks {
		x := fx(t)
		writeLine(b, ` class="chart-grid"`, x, x, mt, base, ` stroke-opacity="0.15"`)
	}
	writeLine(b, "", left, chartW-right, base, base, "")
	b.WriteString(`</g>`)
	// the numeric axis: as many round ticks as fit at the phone's size
	every := 1
	for every < len(ticks) {
		wmax := 0.0
		for _, t := range ticks {
			wmax = math.Max(wmax, textWidth(yfmt(t), phoneEm))
		}
		if wmax+8 <= plotW/float64(len(ticks)-1)*float64(every) {
			break
		}
		every++
	}
	b.WriteString(`<g class="chart-tick" text-anchor="middle">`)
	for i, t := range ticks {
		if i%every != 0 {
			continue
		}
		anchor := ""
		if i == 0 {
			anchor = ` text-anchor="start"`
		} else if i == len(ticks)-1 {
			anchor = ` text-anchor="end"`
		}
		writef(b, `<text x="%s" y="%s"%s>%s</text>`, f1(fx(t)), f1(base+18), anchor, esc(yfmt(t)))
	}
	b.WriteString(`</g>`)
	writef(b, `<text class="chart-label" x="%s" y="%s" text-anchor="middle">%s</text>`, f1(left+plotW/2), f1(base+axisH-4), esc(ch.YLabel))
	for si := range ch.Series {
		writef(b, `<g class="chart-bars %s">`, ch.roleClass(si))
		s := ch.Series[si]
		for i, v := range s.Values {
			if i >= n || math.IsNaN(v) {
				continue
			}
			y := mt + float64(i)*rowH + lineH + float64(si)*barH
			class, x0 := "chart-bar"+ch.keyClass(i), left
			if i < len(s.Mark) && s.Mark[i] {
				if l := ch.split(); l > 0 && l < v { // the part within the limit, plain
					x0 = fx(l)
					writeBar(b, class, left, y, x0-left, barH-3, "")
				}
				class += " chart-bar-mark"
			}
			writeBar(b, class, x0, y, fx(v)-x0, barH-3, "")
		}
		b.WriteString(`</g>`)
	}
	for _, r := range ch.Rules {
		x := fx(r.Y)
		anchor, tx := "start", x+4
		if x > chartW/2 {
			anchor, tx = "end", x-4
		}
		writeRule(b, x, mt-4, x, base, tx, mt-8, anchor, r.Label)
	}
	b.WriteString(`<g class="chart-label">`)
	for i, c := range ch.Categories {
		label := c
		if ns == 1 && i < len(ch.Series[0].Values) && !math.IsNaN(ch.Series[0].Values[i]) {
			label += " · " + yfmt(ch.Series[0].Values[i])
		}
		writef(b, `<text x="%s" y="%s"><title>%s</title>%s</text>`, f1(left), f1(mt+float64(i)*rowH+lineH-6), esc(c), esc(label))
	}
	b.WriteString(`</g>`)
	if ch.keyRows() > 0 { // the key, below the axis, as the vertical charts'
		ch.ml, ch.h = left-2, base+axisH-4
		ch.writeLegend(b)
	}
	b.WriteString(`</svg>`)
}

// writeBar writes a bar (or a key's swatch) of class class, its corner
// at (x, y), w wide (0.5 at least: a bar of a tiny value still shows)
// and h high (0 at least), filled at opacity op unless op is "". One
// body for the charts' bars, parts of bars and swatches.
func writeBar(b *strings.Builder, class string, x, y, w, h float64, op string) {
	writef(b, `<rect class="%s" x="%s" y="%s" width="%s" height="%s"`, class, f1(x), f1(y), f1(math.Max(w, 0.5)), f1(math.Max(h, 0)))
	if op != "" {
		writef(b, ` fill-opacity="%s"`, op)
	}
	b.WriteString(`/>`)
}

// writeSVG opens a chart's drawing, chartW wide and h high, of classes
// "chart" and cls (each after a space), with its accessible name and
// description.
func writeSVG(b *strings.Builder, cls string, h float64, title, desc string) {
	writef(b, `<svg class="chart%s" viewBox="0 0 %s %s" role="img" font-size="12" fill="currentColor"><title>%s</title><desc>%s</desc>`, cls, f1(chartW), f1(h), esc(title), esc(desc))
}

// binsEnd is the end of the bin of width w that holds t: bins are
// [k·w, (k+1)·w), as the calculators count them (an arrival at 100 ms
// with 10 ms bins is in the bin from 100 to 110).
func binsEnd(t, w float64) float64 {
	return (math.Floor(t/w) + 1) * w
}

// writeLine writes a line from (x1, y1) to (x2, y2): "<line", pre, the
// coordinates, post, "/>" (pre and post: attributes, each after a space).
func writeLine(b *strings.Builder, pre string, x1, x2, y1, y2 float64, post string) {
	writef(b, `<line%s x1="%s" x2="%s" y1="%s" y2="%s"%s/>`, pre, f1(x1), f1(x2), f1(y1), f1(y2), post)
}

// writeRule draws a limit: a dashed line from (x1, y1) to (x2, y2) and,
// unless label is "", its label at (tx, ty), anchored as anchor says.
func writeRule(b *strings.Builder, x1, y1, x2, y2, tx, ty float64, anchor, label string) {
	writeLine(b, ` class="chart-rule"`, x1, x2, y1, y2, ` stroke="currentColor" stroke-width="1.5" stroke-dasharray="6 4"`)
	if label != "" {
		writef(b, `<text class="chart-label" x="%s" y="%s" text-anchor="%s">%s</text>`, f1(tx), f1(ty), anchor, esc(label))
	}
}

// writeDataOpen opens a chart's data table: in a closed disclosure
// (details.widget-data) whose summary names the chart for a screen
// reader, the table scrolling in its own box (tabindex: a keyboard
// scrolls it). Closed, the browser neither styles nor lays the table out:
// a table of a hundred rows under a chart made each new output's style and
// layout several times dearer when it was only visually hidden (wasmbench,
// the layout column). attrs are the table's own (each after a space).
func writeDataOpen(b *strings.Builder, loc locale.Locale, title, attrs string) {
	writef(b, `<details class="widget-data"><summary>%s<span class="visually-hidden">: %s</span></summary><table tabindex="0" data-chart-data%s><caption>%s</caption>`,
		esc(loc.TOr("widget.chart.data", "chart data")), esc(title), attrs, esc(title))
}

// writeDataClose closes what writeDataOpen opened, after the table's rows.
func writeDataClose(b *strings.Builder) { b.WriteString(`</tbody></table></details>`) }

// writeTable writes the plotted numbers as a table (writeDataOpen).
func (ch *chart) writeTable(b *strings.Builder, loc locale.Locale, yfmt func(float64) string) {
	out := ""
	if ch.OutField != "" {
		out = ` data-out="` + esc(ch.OutField) + `" data-value="` + esc(ch.OutRaw) + `"`
	}
	xl := ch.XLabel
	if xl == "" { // a header cell is never empty
		xl = loc.TOr("widget.chart.category", "item")
	}
	writeDataOpen(b, loc, ch.Title, out)
	writef(b, `<thead><tr><th scope="col">%s</th>`, esc(xl))
	for _, s := range ch.Series {
		name := s.Name
		if name == "" {
			name = ch.YLabel
		}
		writef(b, `<th scope="col">%s</th>`, esc(name))
	}
	b.WriteString(`</tr></thead><tbody>`)
	rows := len(ch.Categories)
	if ch.Line {
		rows = len(ch.X)
	}
	for i := 0; i < rows; i++ {
		x := ""
		if ch.Line {
			x = loc.Number(ch.X[i])
		} else {
			x = ch.Categories[i]
		}
		writef(b, `<tr><th scope="row">%s</th>`, esc(x))
		for _, s := range ch.Series {
			v := ""
			if i < len(s.Values) && !math.IsNaN(s.Values[i]) {
				v = yfmt(s.Values[i])
			}
			writef(b, `<td>%s</td>`, esc(v))
		}
		b.WriteString(`</tr>`)
	}
	writeDataClose(b)
}

// lineDash is the stroke of line si: its width and dashes tell the lines
// of a chart apart without colour and let lines that coincide show
// through each other (reader review: lines lay exactly on others, hiding
// them). The first line is solid and wider, a casing under any line drawn
// on it; then dashed, dotted (dots two units long: one-unit dots faded
// into the background on a phone), dash-dot, dots in the first dots'
// gaps, sparse dots.
func lineDash(si int) string {
	return lineDashes[min(si, len(lineDashes)-1)]
}

var lineDashes = [...]string{` stroke-width="3.5"`, ` stroke-width="2" stroke-dasharray="5 3"`, ` stroke-width="2" stroke-dasharray="2 3"`, ` stroke-width="2" stroke-dasharray="9 3 2 3"`, ` stroke-width="2" stroke-dasharray="2 3" stroke-dashoffset="2.5"`, ` stroke-width="2" stroke-dasharray="1 4"`}

// opacity is the fill opacity of a series' marks: solid, since colour
// (grammar.go) tells series apart and pale marks fell below 3:1 against
// the dark theme's background.
func opacity(int) string { return "1" }

// logTicks are the ticks of a YLog axis up to ymax: whole powers of ten,
// from the one at or below the smallest positive value to the one at or
// above ymax, at most six (every second or third power beyond that).
func (ch *chart) logTicks(ymax float64) []float64 {
	lo := math.Inf(1)
	for _, s := range ch.Series {
		for _, v := range s.Values {
			if v > 0 && !math.IsInf(v, 0) {
				lo = math.Min(lo, v)
			}
		}
	}
	if math.IsInf(lo, 1) || !(ymax > 0) {
		return []float64{1, 10}
	}
	a, z := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(ymax)))
	if z <= a {
		z = a + 1
	}
	step := (z - a + 4) / 5
	var ticks []float64
	for k := a; k < z+step; k += step {
		ticks = append(ticks, math.Pow(10, float64(k)))
	}
	return ticks
}

// niceTicks returns about n round ticks (1, 2 or 5 × 10^k apart) covering
// [lo, hi]; the first is <= lo and the last >= hi.
func niceTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) {
		if hi == 0 || math.IsNaN(hi) || math.IsInf(hi, 0) {
			return []float64{0, 1}
		}
		lo, hi = math.Min(0, lo), math.Abs(hi)*1.0001+1e-12
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(fmath.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	start := math.Floor(lo/step) * step
	var t []float64
	for i := 0; i < 4*n+4; i++ {
		v := start + float64(i)*step
		// round away the float error of the steps (0.6000000000000001)
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
		t = append(t, v)
		if v >= hi-step*1e-9 {
			break
		}
	}
	return t
}

// decimalsFor is the number of decimals that tells the ticks apart once
// multiplied by scale.
func decimalsFor(ticks []float64, scale float64) int {
	if len(ticks) < 2 {
		return 0
	}
	step := (ticks[1] - ticks[0]) * scale
	d := 0
	for d < 6 && math.Abs(step*math.Pow(10, float64(d))-math.Round(step*math.Pow(10, float64(d)))) > 1e-9 {
		d++
	}
	return d
}

// f1 writes a coordinate with at most one decimal.
func f1(v float64) string {
	var d [24]byte
	return string(appendF1(d[:0], v))
}

// appendF1 appends v as f1 writes it.
func appendF1(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0 // written "0"
	}
	return strconv.AppendFloat(dst, math.Round(v*10)/10, 'f', -1, 64)
}
