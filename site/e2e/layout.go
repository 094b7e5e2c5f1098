package e2e

import (
	"context"
	"os"
	"strings"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// A Size is a window the layout check and the shots use.
type Size struct {
	Name          string // "phone", "desktop"
	Width, Height int64
	Touch         bool // a phone: mobile viewport and touch events
}

// LayoutSizes are the windows of the layout check (issue 30): a 375×812
// phone with touch and a 1280×800 desktop.
var LayoutSizes = []Size{{"phone", 375, 812, true}, {"desktop", 1280, 800, false}}

// Emulate sets the tab of ctx to the window sz and the colour scheme
// ("light" or "dark").
func Emulate(ctx context.Context, sz Size, scheme string) error {
	var opts []chromedp.EmulateViewportOption
	if sz.Touch {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(1))
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(sz.Width, sz.Height, opts...)); err != nil {
		return err
	}
	return EmulateScheme(ctx, scheme)
}

// EmulateScheme sets the tab's prefers-color-scheme ("light" or "dark").
func EmulateScheme(ctx context.Context, scheme string) error {
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
	return err
}

// HasWidgets reports whether the page's file holds a widget.
func HasWidgets(p Page) bool {
	b, err := os.ReadFile(p.File)
	return err == nil && strings.Contains(string(b), "data-widget=")
}

// liftSkip is a statement that lifts style.css's content-visibility: auto
// from an article's blocks (issue 33), in the page as a script's inline
// style: every block is laid out and painted, and none is under the
// containment that comes with it.
const liftSkip = `for (const e of document.querySelectorAll('article > *')) if (getComputedStyle(e).contentVisibility === 'auto') e.style.contentVisibility = 'visible';`

// RenderAllJS lifts the skipping of an article's blocks (liftSkip): what
// checks or shoots the whole page evaluates it first, since Chromium
// neither paints a skipped block (a full-page screenshot shows it blank)
// nor lets axe-core see its colours, and a block under containment clips
// what would overflow it instead of widening the page.
const RenderAllJS = `(() => { ` + liftSkip + ` return 0; })()`

// LayoutProblem is one failure of the layout check: where, and what.
type LayoutProblem struct {
	Widget string `json:"widget"` // the widget's id, "" for the page
	What   string `json:"what"`
}

// LayoutProbe is the script of the layout check (issue 30), evaluated in a
// page at rest: it returns a list of LayoutProblem. It checks, in the
// window as it is: no horizontal page scroll (naming the widest
// elements); in every figure of every widget, no two text elements
// overlapping by more than 1 px both ways, no text leaving its figure or
// the viewport; no number of a table or result on two lines; every legend
// swatch the colour of a mark of the figure; with touch (phone=true),
// every control of a widget at least 44×44 px (a toggle chip: its label).
// No text of a widget reads NaN or undefined. The whole probe lifts the
// skipping of an article's blocks first (liftSkip), so that a block that
// would overflow widens the page. With colours=true only the
// swatches are checked (TestLayout runs the whole probe in every state).
const LayoutProbe = `(phone, colours) => {
  const out = [];
  if (!colours) { ` + liftSkip + ` }
  const vw = document.documentElement.clientWidth;
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const c = el.getAttribute('class');
    if (c) s += '.' + c.trim().split(/\s+/).join('.');
    const t = (el.textContent || '').trim().slice(0, 40);
    return t ? s + ' "' + t + '"' : s;
  };
  const shown = (el) => {
    if (el.closest('[hidden], .visually-hidden, details:not([open]) > :not(summary)')) return false;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  if (!colours && document.documentElement.scrollWidth > vw + 1) {
    const wide = [...document.body.querySelectorAll('*')].filter(e => {
      const r = e.getBoundingClientRect();
      return r.right > vw + 1 && r.width > 0 && !e.closest('pre, .math, table');
    }).filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > vw + 1));
    out.push({widget: '', what: 'the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px wide in ' + vw + ' px; widest: ' + wide.slice(0, 4).map(name).join('; ')});
  }
  for (const w of document.querySelectorAll('[data-widget]')) {
    const wid = w.id;
    for (const svg of w.querySelectorAll('svg.chart')) {
      if (!shown(svg)) continue;
      const fig = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll('text')].filter(t => shown(t) && (t.textContent || '').trim() !== '');
      const rects = texts.map(t => t.getBoundingClientRect());
      for (let i = 0; !colours && i < texts.length; i++) {
        const a = rects[i];
        if (a.left < fig.left - 1 || a.right > fig.right + 1 || a.top < fig.top - 1 || a.bottom > fig.bottom + 1)
          out.push({widget: wid, what: 'text leaves its figure: ' + name(texts[i])});
        else if (a.left < -1 || a.right > vw + 1)
          out.push({widget: wid, what: 'text leaves the viewport: ' + name(texts[i])});
        for (let j = i + 1; j < texts.length; j++) {
          const b = rects[j];
          const ox = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (ox > 1 && oy > 1) out.push({widget: wid, what: 'texts overlap: ' + name(texts[i]) + ' and ' + name(texts[j])});
        }
      }
      // every swatch of a key has the colour of a mark of the figure
      // (an unfilled swatch by its outline: policies' marked bars are
      // outlined in their own colour, the key shows the outline alone)
      const paint = (el) => {
        const cs = getComputedStyle(el);
        return el.tagName === 'line' || el.tagName === 'polyline' || cs.fill === 'none' ? cs.stroke : cs.fill;
      };
      const markEls = [...svg.querySelectorAll('rect, circle, path, polyline')]
        .filter(m => !m.closest('.chart-legend') && !m.closest('.chart-axis'));
      const marks = new Set(markEls.map(paint).concat(markEls.filter(m => m.classList.contains('chart-bar-mark')).map(m => getComputedStyle(m).stroke)));
      for (const s of svg.querySelectorAll('.chart-legend rect, .chart-legend line, tspan.chart-bar')) {
        if (!marks.has(paint(s))) out.push({widget: wid, what: 'a key swatch has a colour (' + paint(s) + ') of no mark: ' + name(s.closest('text') || s.parentNode)});
      }
    }
    // numbers on one line: each number (digits with their group and
    // decimal marks, a sign, a per cent) of each cell and result, its own
    // text's line boxes (a range over the element would also list the
    // boxes of its cells and <code>, which are not lines)
    for (const el of colours ? [] : w.querySelectorAll('td, [data-out]:not(table):not(figure):not(pre), output')) {
      if (!shown(el) || !/\d/.test(el.textContent)) continue;
      // a text value (a JSON string: a hash, a key, a document) wraps
      // anywhere: its digits are no number
      if (el.matches('[data-value^=\'"\']')) continue;
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (n.parentElement.closest('th')) continue; // a row's label may wrap
        for (const m of n.data.matchAll(/[−-]?\d(?:[\d.,\u00a0\u202f']*\d)?(?:[\u00a0\u202f]?%)?/g)) {
          const r = document.createRange();
          r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length);
          const lines = [];
          for (const q of r.getClientRects()) {
            if (q.width <= 0) continue;
            if (!lines.some(l => Math.min(l.bottom, q.bottom) - Math.max(l.top, q.top) > 1)) lines.push(q);
          }
          if (lines.length > 1) out.push({widget: wid, what: 'a number spans ' + lines.length + ' lines: "' + m[0] + '" in ' + name(el)});
        }
      }
    }
    // no text of a widget shows a number that is not one
    if (!colours && /\bNaN\b|\bundefined\b/.test(w.innerText)) {
      const bad = [...w.querySelectorAll('*')].filter(e => shown(e) && [...e.childNodes].some(c => c.nodeType === 3 && /\bNaN\b|\bundefined\b/.test(c.data)));
      out.push({widget: wid, what: 'a text reads NaN or undefined: ' + bad.slice(0, 3).map(name).join('; ')});
    }
    if (phone && !colours) {
      for (const c of w.querySelectorAll('input, select, button, textarea, summary')) {
        if (!shown(c)) continue;
        // a chip's checkbox covers its label: the label is the target
        const r = (c.closest('label.widget-chip') || c).getBoundingClientRect();
        if (r.width < 44 - 0.5 || r.height < 44 - 0.5)
          out.push({widget: wid, what: 'a control is ' + Math.round(r.width) + '×' + Math.round(r.height) + ' px, under 44×44: ' + name(c) + (c.name ? ' [' + c.name + ']' : '')});
      }
    }
  }
  return out;
}`

// AxeProbe is a function of axe-core's options that runs axe-core
// (injected before) on the page's widgets where the page is: each element
// a rule finds is a LayoutProblem, named with the widget it is in and the
// rule. AxeAll is every rule of axe's default set and target-size (a
// touch target under 24×24 px with too little room around it, or partly
// under another element, which Lighthouse's accessibility score counts);
// AxeContrast the rules that depend on the scheme (AxeSchemeRules).
const (
	AxeProbe = `(opts => axe.run({include: [['[data-widget]']]}, opts).then(r =>
  r.violations.flatMap(v => v.nodes.slice(0, 5).map(n => {
    const el = document.querySelector(n.target[0]);
    const w = el && el.closest('[data-widget]');
    return {widget: w ? w.id : '', what: 'axe ' + v.id + ' (' + (v.impact || '') + '): ' + n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').slice(1).join(' ')};
  }))))`
	AxeAll      = `{resultTypes: ['violations'], rules: {'target-size': {enabled: true}}}`
	AxeContrast = `{resultTypes: ['violations'], runOnly: ` + AxeSchemeRules + `}`
	// AxeSchemeRules are axe-core's rules whose answer depends on the
	// colours, so on the scheme: the text's contrast, and a link in a
	// paragraph told from its text by colour alone. The others read the
	// DOM, which the scheme does not change (but the theme toggle's
	// aria-pressed, app.js).
	AxeSchemeRules = `['color-contrast', 'link-in-text-block']`
)

// CoveredProbe is the script of the phone's "picture beside its controls"
// check (issue 30): for every control of every widget that the reader can
// see (not in a closed disclosure, not hidden), it scrolls the control to
// the upper third of the screen (the sticky picture takes at most about
// the lower half) and asks what is drawn at its centre; a control
// under something else (the widget's sticky picture grown taller than the
// screen: a table, say) is a LayoutProblem. The picture sticks only while
// its widget is on the screen (app.js sets data-in-view, from an
// IntersectionObserver): at each widget's first control the probe waits
// for that, frame by frame (at most 120), and a widget that never gets it
// is a LayoutProblem too; so is a widget's picture (figure[data-picture])
// less than half on the screen while the first control is in the upper
// third. It leaves the page scrolled to the top.
const CoveredProbe = `async () => {
  const out = [];
  const frame = () => new Promise(r => requestAnimationFrame(r));
  for (const w of document.querySelectorAll('[data-widget]')) {
    const form = w.querySelector('form[data-form]');
    if (!form) { continue; }
    let first = true;
    for (const c of form.querySelectorAll('input, select, button, textarea')) {
      if (c.type === 'hidden' || c.closest('details:not([open])') || c.closest('[hidden]')) { continue; }
      const r0 = c.getBoundingClientRect();
      if (r0.width === 0 || r0.height === 0) { continue; }
      // the control in the upper third of the screen, where the reader
      // holds it while the picture below shows the effect
      c.scrollIntoView({block: 'start', inline: 'nearest'});
      window.scrollBy(0, -Math.round(innerHeight / 3));
      if (first) {
        first = false;
        for (let i = 0; i < 120 && !w.hasAttribute('data-in-view'); i++) { await frame(); }
        if (!w.hasAttribute('data-in-view')) {
          out.push({widget: w.id, what: 'on the screen, the widget has no data-in-view (app.js): its picture cannot stick'});
          break;
        }
        // the picture (data-picture, site/widget/picture.go) in sight
        // under the first control: at least half of it, stuck to the
        // screen's bottom or in its place (not on an embed's page, where
        // nothing sticks)
        const pic = w.querySelector('figure[data-picture]');
        if (pic && !document.body.classList.contains('embed-body')) {
          await frame();
          const p = pic.getBoundingClientRect();
          const seen = Math.min(p.bottom, innerHeight) - Math.max(p.top, 0);
          if (seen < p.height / 2) {
            out.push({widget: w.id, what: 'its picture (' + pic.getAttribute('data-view') + ') is out of sight under its first control: ' + Math.max(0, Math.round(seen)) + ' of ' + Math.round(p.height) + ' px on the screen'});
          }
        }
      }
      const r = c.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || hit === c || c.contains(hit) || hit.contains(c)) { continue; }
      const label = c.labels && [...c.labels].some(l => l === hit || l.contains(hit));
      const field = c.closest('.widget-field, label, fieldset');
      if (label || (field && field.contains(hit) && !hit.closest('figure'))) { continue; }
      const over = hit.closest('figure, table, [data-output]') || hit;
      out.push({widget: w.id, what: 'control ' + (c.name || c.getAttribute('data-action') || c.type) + ' is under ' + over.tagName.toLowerCase() + (over.className ? '.' + String(over.className).trim().split(/\s+/).join('.') : '')});
    }
  }
  window.scrollTo(0, 0);
  return out;
}`
