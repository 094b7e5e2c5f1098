package widget

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// Controls that fit their values (issue 30): a logarithmic slider for a
// wide range, a segmented control for a choice among a few values, a
// stepper per item for a list. All three are written here, at build time;
// site/assets/player.js (the "controls" part) makes them work, and the
// WebAssembly module knows nothing of them: it reads and writes the
// control named for the parameter, as before (wasm/playground/DOM.md).

// maxSegments is the most choices a segmented control holds; a choice
// among more keeps its <select>.
const maxSegments = 5

// logRatio is how wide a slider's range must be, hi over its smallest
// positive value, to be logarithmic: two orders of magnitude.
const logRatio = 100

// ladderMantissas are the round values of a decade a logarithmic
// slider stops at, times 10 (1, 1.2, 1.5, 2, 2.5, 3, 4, … 9).
var ladderMantissas = [...]float64{10, 12, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90}

// logLadder returns the values a logarithmic slider over [lo, hi] stops
// at, in order: lo, the round values between (multiples of step when
// step > 0), hi, and at, the page's value, when it is within the range;
// nil when the range is narrower than logRatio.
func logLadder(lo, hi, step, at float64) []float64 {
	first := lo
	if first <= 0 {
		first = step
	}
	if first <= 0 || hi/first < logRatio {
		return nil
	}
	xs := []float64{lo}
	for k := int(math.Floor(math.Log10(first))) - 1; k <= int(math.Ceil(math.Log10(hi))); k++ {
		for _, m := range ladderMantissas {
			// m·10^(k-1), written so that 0.012 is the double nearest 0.012
			var v float64
			if k >= 1 {
				v = m * math.Pow(10, float64(k-1))
			} else {
				v = m / math.Pow(10, float64(1-k))
			}
			if v <= lo || v >= hi {
				continue
			}
			if step > 0 {
				if q := v / step; math.Abs(q-math.Round(q)) > 1e-9 {
					continue
				}
			}
			xs = append(xs, v)
		}
	}
	xs = append(xs, hi)
	if at > lo && at < hi && !slices.Contains(xs, at) {
		xs = append(xs, at)
		slices.Sort(xs)
	}
	return xs
}

// nearest is the index of the ladder's value nearest v on a logarithmic
// scale (a value at or below zero: the first).
func nearest(xs []float64, v float64) int {
	best, d := 0, math.Inf(1)
	for i, x := range xs {
		var e float64
		switch {
		case x <= 0 || v <= 0:
			e = math.Abs(x - v)
			if v > 0 {
				e = math.Inf(1)
			}
		default:
			e = math.Abs(math.Log(x / v))
		}
		if e < d {
			best, d = i, e
		}
	}
	return best
}

// writeLogSlider writes the slider of a wide range: a range input over
// the ladder's positions (0 … len-1), without a name, whose
// data-log-for names the parameter and data-ladder lists the values
// (canonical text); aria-valuetext says the value, not the position.
func writeLogSlider(b *strings.Builder, name, label, value string, xs []float64, unit string, loc locale.Locale) {
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		v = xs[0]
	}
	at := nearest(xs, v)
	ladder := make([]string, len(xs))
	for i, x := range xs {
		ladder[i] = calc.FormatFloat(x)
	}
	vt := loc.Number(xs[at])
	if value != "" && err == nil {
		vt = loc.Number(v)
	}
	if unit != "" {
		vt += " " + unit
	}
	writef(b, `<input type="range" class="widget-slider widget-slider-log" data-log-for="%s" data-ladder="%s" min="0" max="%s" step="1" value="%s" aria-label="%s" aria-valuetext="%s">`,
		name, strings.Join(ladder, ","), strconv.Itoa(len(xs)-1), strconv.Itoa(at), esc(label), esc(vt))
}

// writeSegments writes a choice among a few values as a segmented
// control: one radio button per choice, all named for the parameter (the
// form submits the checked one without JavaScript; arrow keys move
// between them as between any radios), and before them a disabled hidden
// input of the same name holding the value, which the playground reads
// and writes as the control (player.js keeps the radios and it in step).
func writeSegments(b *strings.Builder, id, name string, c *calc.Calculator, p *calc.Param, value, describedBy string, loc locale.Locale) {
	writef(b, `<input type="hidden" id="%s" name="%s" value="%s" disabled data-segments-value>`, id, name, esc(value))
	writef(b, `<span class="widget-segments" role="radiogroup" aria-labelledby="%s-label"%s>`, id, describedBy)
	for _, ch := range p.Choices {
		checked := ""
		if ch == value {
			checked = " checked"
		}
		writef(b, `<label class="widget-segment"><input type="radio" name="%s" value="%s"%s><span>%s</span></label>`,
			name, esc(ch), checked, esc(loc.ChoiceLabel(c, p.Name, ch)))
	}
	b.WriteString(`</span>`)
}

// writeStepper writes, after a list's text field, the stepper that
// player.js draws one item at a time (a field with − and + per item, and
// buttons to add and remove an item, within MinLen and MaxLen). It is
// hidden: without JavaScript the text field is the control. The text
// field keeps the canonical comma-separated text the calculator parses.
func writeStepper(b *strings.Builder, id, name string, c *calc.Calculator, p *calc.Param, loc locale.Locale) {
	lo, hi := "", ""
	if p.Min.Set {
		v := p.Min.V
		if p.Min.Open && p.Kind == calc.IntList {
			v++
		}
		if !p.Min.Open || p.Kind == calc.IntList {
			lo = calc.FormatFloat(v)
		}
	}
	if p.Max.Set {
		v := p.Max.V
		if p.Max.Open && p.Kind == calc.IntList {
			v--
		}
		if !p.Max.Open || p.Kind == calc.IntList {
			hi = calc.FormatFloat(v)
		}
	}
	step := "1"
	if p.Step > 0 {
		step = calc.FormatFloat(p.Step)
	}
	minLen, maxLen := p.MinLen, p.MaxLen
	if maxLen == 0 {
		maxLen = 1000
	}
	item := loc.TOr(c.LabelKey(p.Name)+".item", loc.TOr("widget.item", "item {i}"))
	writef(b, `<span class="widget-stepper" id="%s-stepper" data-stepper-for="%s" data-min="%s" data-max="%s" data-step="%s" data-minlen="%s" data-maxlen="%s" data-item="%s" data-dec="%s" data-inc="%s" data-add="%s" data-remove="%s" role="group" aria-labelledby="%s-label" hidden></span>`,
		id, name, lo, hi, step, strconv.Itoa(minLen), strconv.Itoa(maxLen), esc(item),
		esc(loc.TOr("widget.item_dec", "less: {item}")), esc(loc.TOr("widget.item_inc", "more: {item}")),
		esc(loc.TOr("widget.item_add", "Add")), esc(loc.TOr("widget.item_remove", "Remove the last")), id)
}
