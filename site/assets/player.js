// player.js plays the time views of the widgets (site/widget/timeviews.go)
// and keeps their "more parameters" disclosures.
//
// Time views. A figure[data-timeview] is the end state of a result that
// unfolds in time: every event or frame element carries data-t, its
// simulated time; the figure carries data-t0, data-t1 and data-unit.
// Without this script every element shows: the end state. With it, the
// widget's first figure shows its controls (div[data-player]): play/pause
// (button[data-action="play"], aria-pressed), the scrubber
// (input[type="range"][data-action="scrub"]) and the speed
// (select[data-action="speed"]). The widget's root carries data-t, the
// time shown; elements whose data-t is above it get data-future (hidden by
// the style sheet). All the time views of one widget (a comparison draws
// two) follow the same time. Nothing is computed again: the playground's
// output replaces the figures and a MutationObserver attaches again.
// Under prefers-reduced-motion: reduce, nothing moves on its own: play
// shows the end state; the scrubber still works. The polite live region
// says where the playback is at most once a second.
//
// Adjustable numbers: see adjustable below.
//
// Disclosures. details[data-more] keeps its state in sessionStorage (per
// page and widget) and opens by itself when a control inside it holds
// another value than the page's (a URL set it).
// retrylabWhenNear(root, setup) calls setup(root) once: when the widget
// root comes within a screen of the viewport (IntersectionObserver, the
// margin of the playground's hydration: wasm/playground/lazy.go), when
// the reader reaches into it first (focusin, pointerdown), when the
// playground hydrates it (data-hydrated), or when retrylabStartAll() is
// called; at once without IntersectionObserver. Setting up every widget
// of a long article when the page loads was one long task on a phone
// (site/e2e/cmd/longtasks: 54-103 ms at 4x CPU); a widget screens away
// keeps its static figures, which are its end state, until then.
// Before setup, the widget's fields become fields (retrylabFields).
//
// retrylabFields(root) makes root's fields: the page writes them inside
// <noscript data-fields> (site/widget/more.go: those under "more
// parameters" always, the shown ones and the form's buttons on an
// article, a player's controls and a copy button everywhere), which a
// browser running scripts keeps as text, so that Chromium neither lays
// out every closed disclosure that holds a field nor visits every field
// of the page when it has parsed, and a far widget holds no form control
// and may be skipped off screen (style.css; issue 33). Idempotent; the playground does the same
// before it reads a widget's form (wasm/playground).
function retrylabFields(root) {
  'use strict';
  var ns = root.querySelectorAll('noscript[data-fields]');
  for (var i = 0; i < ns.length; i++) {
    // parsed without scripts (a DOMParser), its fields are elements
    ns[i].outerHTML = ns[i].firstElementChild ? ns[i].innerHTML : ns[i].textContent;
  }
}
var retrylabWhenNear = (function () {
  'use strict';
  var io = null, all = [];
  function fire(root) {
    var fns = root.__retrylabNear;
    if (!fns) { return; }
    root.__retrylabNear = null;
    if (io) { io.unobserve(root); }
    retrylabFields(root);
    for (var i = 0; i < fns.length; i++) { fns[i](root); }
  }
  // near: the roots the observer found near and not set up yet; each is
  // set up in a task of its own (next), so that the widgets near at load,
  // or passed by a fast scroll, are not one long task (issue 33: 30 to 70
  // ms of one task at 4x CPU on an article's load). A reader who reaches
  // for a widget sets it up at once (reach), as the playground's
  // hydration does (the data-hydrated observer).
  var near = [], nextAt = 0;
  function next() {
    nextAt = 0;
    var root = near.shift();
    if (root) { fire(root); }
    if (near.length) { nextAt = setTimeout(next, 0); }
  }
  if (window.IntersectionObserver) {
    io = new IntersectionObserver(function (entries) {
      for (var i = 0; i < entries.length; i++) {
        var tg = entries[i].target;
        if (entries[i].isIntersecting && tg.__retrylabNear && near.indexOf(tg) < 0) { near.push(tg); }
      }
      if (near.length && !nextAt) { next(); }
    }, { rootMargin: '100% 0px' });
    if (window.MutationObserver) {
      new MutationObserver(function (list) {
        for (var i = 0; i < list.length; i++) { fire(list[i].target); }
      }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'], subtree: true });
    }
  }
  window.retrylabStartAll = function () {
    var roots = all;
    all = [];
    for (var i = 0; i < roots.length; i++) { fire(roots[i]); }
  };
  return function (root, setup) {
    if (!io) { retrylabFields(root); setup(root); return; }
    if (root.__retrylabNear) { root.__retrylabNear.push(setup); return; }
    root.__retrylabNear = [setup];
    all.push(root);
    io.observe(root);
    var reach = function () {
      root.removeEventListener('focusin', reach, true);
      root.removeEventListener('pointerdown', reach, true);
      fire(root);
    };
    root.addEventListener('focusin', reach, true);
    root.addEventListener('pointerdown', reach, true);
  };
})();

(function () {
  'use strict';
  var PLAY_MS = 6000; // a whole range at 1x
  var LIVE_MS = 1000; // the live region speaks at most this often
  var CLOCK_MS = 100; // while playing, the time text changes at most this often
  var reduce = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;
  var lang = document.documentElement.lang || 'en';
  // numberFormat(minDec, maxDec) writes numbers as the page's language
  // does (site/locale Number, Fixed, MaxFrac: its decimal mark, its group
  // mark and the fewest digits it groups, which the build writes on
  // <html data-decimal data-group data-group-min>), with minDec to maxDec
  // decimals, rounded as toFixed rounds (a tie of the exact binary value
  // up, where Go's locale rounds it to even: 0.25 to one decimal). Not
  // Intl.NumberFormat: the first one a page made loaded the language's
  // data, 232 ms at 4x CPU in Chromium, a long task the first time the
  // reader scrolled to a player (issue 33); and the browser's own
  // grouping may differ from the page's (its 'it' writes 1344).
  // TestNumberFormat holds it to site/locale.
  function numberFormat(minDec, maxDec) {
    var h = document.documentElement;
    var dec = h.getAttribute('data-decimal') || '.';
    var grp = h.getAttribute('data-group') || ',';
    var min = parseInt(h.getAttribute('data-group-min'), 10) || 4;
    return { format: function (v) {
      if (v !== v) { return 'NaN'; }
      if (v === Infinity || v === -Infinity) { return v < 0 ? '-∞' : '∞'; }
      if (Math.abs(v) >= 1e21) { return String(v); } // toFixed's own limit
      var s = v.toFixed(maxDec), neg = s.charAt(0) === '-';
      if (neg) { s = s.slice(1); }
      var dot = s.indexOf('.');
      var ip = dot < 0 ? s : s.slice(0, dot), fp = dot < 0 ? '' : s.slice(dot + 1);
      while (fp.length > minDec && fp.charAt(fp.length - 1) === '0') { fp = fp.slice(0, -1); }
      if (/^0*$/.test(ip + fp)) { neg = false; } // no "-0"
      if (ip.length >= min) {
        var first = ip.length % 3 || 3, out = ip.slice(0, first);
        for (var i = first; i < ip.length; i += 3) { out += grp + ip.slice(i, i + 3); }
        ip = out;
      }
      return (neg ? '-' : '') + ip + (fp ? dec + fp : '');
    } };
  }
  window.retrylabNumberFormat = numberFormat;
  var fmt;
  function num(v) {
    if (fmt === undefined) { fmt = numberFormat(0, 1); }
    return fmt.format(v);
  }

  // fill writes a template of strings.toml: {name} is the value (a
  // number formatted for the page), {name|ONE|OTHER} the form for that
  // count, # in it the number. The plural rule is the page's language's
  // (CLDR, for the counts the views say: whole numbers): it and es take
  // ONE for 1; zh has no plural forms (its tables write none).
  function fill(tpl, vals) {
    return tpl.replace(/\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g, function (all, k, one, other) {
      if (!Object.prototype.hasOwnProperty.call(vals, k)) { return all; }
      var v = vals[k];
      var text = typeof v === 'number' ? num(v) : String(v);
      if (one === undefined) { return text; }
      return (v === 1 && lang !== 'zh' ? one : other).replace('#', text);
    });
  }

  function Player(root) {
    this.root = root;
    this.t = null; // null: the end state, until the reader moves it
    this.playing = false;
    this.speed = 1;
    this.raf = 0;
    this.lastFrame = 0;
    this.lastLive = 0;
    this.liveTimer = 0;
    this.attach();
  }

  Player.prototype.attach = function () {
    var self = this;
    // the figures read before (the same ones, or an output since
    // replaced): their playing canvases go, with their observers
    for (var o = 0; this.figs && o < this.figs.length; o++) { flowDrop(this.figs[o]); }
    this.figs = [];
    var figs = this.root.querySelectorAll('figure[data-timeview]');
    if (!figs.length) { this.controls = null; return; }
    var t0 = Infinity, t1 = -Infinity;
    for (var i = 0; i < figs.length; i++) {
      var f = figs[i];
      var a = parseFloat(f.getAttribute('data-t0')), b = parseFloat(f.getAttribute('data-t1'));
      if (isFinite(a)) { t0 = Math.min(t0, a); }
      if (isFinite(b)) { t1 = Math.max(t1, b); }
      // the events (items) are read at the first play or scrub
      // (prepare), not here: a page's time views hold thousands of them,
      // a long task at load (Lighthouse, /es/rate-limits/ on a phone) for
      // a player the reader may never touch
      this.figs.push({ fig: f, items: null, shown: 0, cursor: f.querySelector('[data-cursor]'),
        t0: a, t1: b, template: f.getAttribute('data-live-template') || '', flow: f.hasAttribute('data-flow') });
    }
    // a view may scale its playback to its story (flow: data-play-ms)
    this.playMs = PLAY_MS;
    for (var p = 0; p < figs.length; p++) {
      var ms = parseFloat(figs[p].getAttribute('data-play-ms'));
      if (ms > 0) { this.playMs = ms; break; }
    }
    if (!(t1 >= t0)) { t0 = 0; t1 = 0; }
    this.t0 = t0; this.t1 = t1;
    // the controls are the first figure's, whose text at rest names its
    // own end: another figure may end later (a comparison's bin past the
    // flow's last), and then the text is the player's to write
    this.restText = parseFloat(figs[0].getAttribute('data-t1')) === t1;
    this.unit = figs[0].getAttribute('data-unit') || '';
    // a time template ("layer {t}": the call tree's views, whose time
    // counts layers) names the whole step reached: layer 2 until 3
    this.at = figs[0].getAttribute('data-time-template') || '';
    var ctl = figs[0].querySelector('[data-player]');
    this.controls = ctl;
    if (!ctl) { return; }
    ctl.hidden = false;
    // the time text's pace while playing, for the tests to read
    // (wasm/playground/DOM.md; TestPlayerQuiet)
    ctl.setAttribute('data-clock-ms', String(CLOCK_MS));
    // its controls are text until now (site/widget writePlayer), in the
    // build's figures and in the playground's alike
    retrylabFields(ctl);
    this.btn = ctl.querySelector('button[data-action="play"]');
    this.scrub = ctl.querySelector('input[data-action="scrub"]');
    this.speedSel = ctl.querySelector('select[data-action="speed"]');
    this.out = ctl.querySelector('[data-player-time]');
    this.live = ctl.querySelector('[data-player-live]');
    this.scrub.min = String(t0); this.scrub.max = String(t1);
    this.speedSel.value = String(this.speed);
    this.btn.addEventListener('click', function (ev) {
      ev.stopPropagation();
      if (self.playing) { self.pause(); } else { self.play(); }
    });
    this.scrub.addEventListener('input', function () {
      // the reader's value, read first: pause sets the scrubber to the
      // time shown
      var v = parseFloat(self.scrub.value);
      self.pause();
      self.show(v, true);
    });
    this.stepBtn = ctl.querySelector('button[data-action="step"]');
    if (this.stepBtn) {
      this.stepBtn.addEventListener('click', function (ev) {
        ev.stopPropagation();
        self.pause();
        self.step();
      });
    }
    this.speedSel.addEventListener('change', function () {
      var s = parseFloat(self.speedSel.value);
      self.speed = s > 0 ? s : 1;
    });
    var t = this.t === null ? t1 : Math.min(t1, Math.max(t0, this.t));
    this.quiet();
    this.show(t, false);
    this.setPressed(this.playing);
    if (this.playing) { this.loop(); }
  };

  // quiet readies show's pacing of the scrubber and the time text while
  // playing: the scrubber's width (a layout read once per play or
  // attach, not per frame), nothing set yet.
  Player.prototype.quiet = function () {
    this.scrubPx = this.playing && this.scrub ? this.scrub.getBoundingClientRect().width : 0;
    this.scrubAt = NaN;
    this.clockAt = -Infinity;
  };

  Player.prototype.setPressed = function (on) {
    if (!this.btn) { return; }
    this.btn.setAttribute('aria-pressed', on ? 'true' : 'false');
    this.btn.textContent = this.btn.getAttribute(on ? 'data-label-pause' : 'data-label-play') || (on ? 'Pause' : 'Play');
  };

  Player.prototype.play = function () {
    if (reduce && reduce.matches) { // no motion: the end state at once
      this.show(this.t1, true);
      this.say(true);
      return;
    }
    if (this.t === null || this.t >= this.t1) { this.show(this.t0, true); }
    this.playing = true;
    this.setPressed(true);
    this.lastFrame = 0;
    this.quiet();
    this.loop();
  };

  Player.prototype.pause = function () {
    if (!this.playing) { return; }
    this.playing = false;
    if (this.raf) { cancelAnimationFrame(this.raf); this.raf = 0; }
    // the range input keeps 15 significant digits of the time it is
    // given (Chromium: 0.30000000000000004 reads back as 0.3): the paused
    // frame is the one the scrubber names, so that scrubbing back to
    // where it stands shows the same marks (a mark's place, written to
    // 0.1 unit, can round the other way on the 17th digit of t)
    // (a flow view drawn while playing is drawn again at rest: the paths
    // of its marks' states, not the playing frame's canvas, flowShow)
    // (while playing the scrubber moves by whole pixels, show: it is set
    // to the time shown first)
    if (this.scrub) {
      this.scrub.value = String(this.t);
      var at = parseFloat(this.scrub.value);
      if (isFinite(at)) { this.show(at, true); }
    }
    this.setPressed(false);
    this.say(true);
  };

  Player.prototype.loop = function () {
    var self = this;
    if (this.raf) { cancelAnimationFrame(this.raf); }
    this.raf = requestAnimationFrame(function step(now) {
      self.raf = 0;
      if (!self.playing) { return; }
      if (self.lastFrame) {
        var dt = Math.min(100, now - self.lastFrame);
        var t = self.t + (self.t1 - self.t0) * dt * self.speed / self.playMs;
        if (t >= self.t1) {
          // stopped first: the end is drawn at rest (the paths of the
          // marks' states, flowShow)
          self.playing = false;
          self.show(self.t1, true);
          self.setPressed(false);
          self.say(true);
          return;
        }
        self.show(t, true);
      }
      self.lastFrame = now;
      self.raf = requestAnimationFrame(step);
    });
  };

  // prepare reads the events of every figure, in order of time, once:
  // all of them are shown (the end state the page was drawn in).
  Player.prototype.prepare = function () {
    for (var i = 0; i < this.figs.length; i++) {
      var F = this.figs[i];
      if (F.items) { continue; }
      var els = F.fig.querySelectorAll('[data-t]');
      var items = [];
      for (var j = 0; j < els.length; j++) {
        items.push({ t: parseFloat(els[j].getAttribute('data-t')), el: els[j] });
      }
      items.sort(function (x, y) { return x.t - y.t; });
      F.items = items;
      F.shown = items.length;
      if (F.flow) { flowPrepare(F); }
    }
  };

  // step shows the next frame of the flow views' counters (from the
  // start after the end): what the reader who asked for reduced motion
  // plays by hand.
  Player.prototype.step = function () {
    this.prepare();
    var t = this.t === null ? this.t1 : this.t, next = Infinity;
    for (var i = 0; i < this.figs.length; i++) {
      var ts = this.figs[i].flowTS || [];
      for (var j = 0; j < ts.length; j++) {
        if (ts[j] > t + 1e-9) { next = Math.min(next, ts[j]); break; }
      }
    }
    if (!isFinite(next)) { next = t >= this.t1 ? this.t0 : this.t1; }
    this.show(Math.min(this.t1, next), true);
    this.say(true);
  };

  // show draws time t: data-t on the root, the elements up to t, the
  // cursor, the scrubber and the time text.
  Player.prototype.show = function (t, moved) {
    // the end state, before the reader played or scrubbed, is what the
    // page was drawn in (every event shown, the cursor at the end): then
    // the events need not be read (prepare: a long task on a phone)
    var drawn = !moved && t >= this.t1;
    for (var d = 0; d < this.figs.length && drawn; d++) { drawn = !this.figs[d].items; }
    if (!drawn) { this.prepare(); }
    if (moved) { this.t = t; }
    this.root.setAttribute('data-t', String(Math.round(t * 1000) / 1000));
    for (var i = 0; i < this.figs.length && !drawn; i++) {
      var F = this.figs[i], items = F.items;
      // move the boundary between shown and future elements
      var k = F.shown;
      while (k > 0 && items[k - 1].t > t) { k--; items[k].el.setAttribute('data-future', ''); }
      while (k < items.length && items[k].t <= t) { items[k].el.removeAttribute('data-future'); k++; }
      F.shown = k;
      if (F.flow) { flowShow(F, t, this.playing); }
      if (F.cursor && F.t1 > F.t0) {
        var x = 64 + (Math.min(F.t1, Math.max(F.t0, t)) - F.t0) / (F.t1 - F.t0) * 560;
        F.cursor.setAttribute('x1', x.toFixed(1));
        F.cursor.setAttribute('x2', x.toFixed(1));
      }
    }
    if (this.scrub) {
      // While playing, the scrubber is set when its thumb moves by a
      // pixel, and the time text at most every CLOCK_MS: a change to
      // either is a layout of the page, which a phone's frame cannot
      // hold at every frame beside the drawing (make bench: flow frames
      // at 4x CPU); set at every frame, most would change nothing the
      // reader sees. At rest both are set at once.
      var px = this.playing && this.scrubPx > 0 && this.t1 > this.t0 ? Math.round((t - this.t0) / (this.t1 - this.t0) * this.scrubPx) : NaN;
      if (!(px === this.scrubAt)) { if (this.scrub.value !== String(t)) { this.scrub.value = String(t); } this.scrubAt = px; }
      // at rest, the time the page was built with (site/widget
      // writePlayer) stands
      var now = this.playing ? Date.now() : 0;
      if ((!drawn || !this.restText) && (!this.playing || now - this.clockAt >= CLOCK_MS)) {
        this.clockAt = now;
        var text = this.at ? fill(this.at, { t: this.shownT(t) }) : num(t) + ' ' + this.unit;
        if (this.scrub.getAttribute('aria-valuetext') !== text) { this.scrub.setAttribute('aria-valuetext', text); }
        if (this.out && this.out.textContent !== text) { this.out.textContent = text; }
      }
    }
    if (moved) { this.say(false); }
  };

  // shownT is the time t as the readout and the live text write it: the
  // whole step reached when the figure has a time template (layers).
  Player.prototype.shownT = function (t) { return this.at ? Math.floor(t + 1e-9) : t; };

  // say updates the live region, at most once every LIVE_MS (now: at
  // once, when playback stops).
  Player.prototype.say = function (now) {
    var self = this;
    if (!this.live) { return; }
    var wait = LIVE_MS - (Date.now() - this.lastLive);
    if (!now && wait > 0) {
      if (!this.liveTimer) {
        this.liveTimer = setTimeout(function () { self.liveTimer = 0; self.say(true); }, wait);
      }
      return;
    }
    if (this.liveTimer) { clearTimeout(this.liveTimer); this.liveTimer = 0; }
    this.lastLive = Date.now();
    this.prepare();
    var F = this.figs[0];
    var sayEl = null;
    for (var k = F.shown - 1; k >= 0 && !sayEl; k--) {
      if (F.items[k].el.hasAttribute('data-say')) { sayEl = F.items[k].el; }
    }
    var t = this.t === null ? this.t1 : this.t;
    this.live.textContent = fill(F.template, {
      t: this.shownT(t), n: F.shown, total: F.items.length, unit: this.unit,
      say: sayEl ? sayEl.getAttribute('data-say') : '' });
  };

  // Flow views (site/widget/flow.go). Each lane's marks are data: its
  // g.flow-marks holds every mark's keyframes in data-marks, "t x y
  // state;…" a mark, the marks separated by "|": at time t a mark sits
  // between the last key at or before t and the next, in the state of the
  // first, so that its place is a function of t alone (a scrub shows what
  // play shows), and it is not drawn before its first key. The counters
  // (dd[data-counter]) carry a value per frame (data-series) at the
  // instants of their list (dl[data-ts]): the last frame at or before t is
  // shown, none before the first (zero).
  //
  // At rest (paused, scrubbed, at the end) the marks are drawn by one path
  // per lane and state (path.flow-mark.flow-s-N, a circle a mark), as the
  // page drew the end state for readers without JavaScript and for print:
  // not an element a mark, whose hundreds a lane were most of a
  // recompute's parse and layout. While playing, the marks are drawn on a
  // canvas per lane (canvas.flow-live-marks, made here, aria-hidden, over
  // the lane's drawing) in the paint of their states' classes, and the
  // paths are not displayed (figure.flow-live, widget.css): a frame then
  // changes no element of the drawing (paths rewritten at every frame
  // made the drawing's layout and paint redone, more than a phone's frame
  // holds: make bench, frame p95 of /es/policies/ #storm at 4x CPU). The
  // canvas draws the same places as the paths would; the figure's
  // data-moving counts the marks on their way (away from their last
  // keyframe), for the reader's tools and the tests.
  function nums(text) {
    var parts = (text || '').split(/[ ;]/), out = new Float64Array(parts.length);
    for (var i = 0; i < parts.length; i++) { out[i] = parseFloat(parts[i]); }
    return out;
  }
  // flowPrepare reads figure F's marks: each lane's g.flow-marks holds
  // them as data (data-marks: a mark's keyframes "t x y state;…", the
  // marks separated by "|"; data-r their radius), and a path per state
  // draws those at rest (path.flow-mark.flow-s-N, the end state as the
  // page was drawn).
  function flowPrepare(F) {
    var gs = F.fig.querySelectorAll('g.flow-marks[data-marks]');
    F.marks = [];
    F.svgs = [];
    for (var g = 0; g < gs.length; g++) {
      var text = gs[g].getAttribute('data-marks');
      var L = { svg: gs[g].ownerSVGElement, g: gs[g], c: null, n: 0, states: 0, r: parseFloat(gs[g].getAttribute('data-r')) || 2, rest: [], d: [] };
      var v = F.svgs.length;
      F.svgs.push(L);
      var ps = gs[g].querySelectorAll('path.flow-mark');
      for (var p = 0; p < ps.length; p++) {
        var m = /flow-s-(\d+)/.exec(ps[p].getAttribute('class') || '');
        if (m) { L.rest[+m[1]] = ps[p]; L.d[+m[1]] = ps[p].getAttribute('d') || ''; }
      }
      var marks = text ? text.split('|') : [];
      for (var i = 0; i < marks.length; i++) {
        var k = nums(marks[i]);
        if (k.length < 4 || k.length % 4) { continue; }
        var n = k.length / 4;
        L.n++;
        // the states the keyframes name (flow.go's classes flow-s-N)
        for (var q = 3; q < k.length; q += 4) { L.states = Math.max(L.states, k[q] + 1); }
        F.marks.push({ k: k, n: n, i: n - 1, v: v });
      }
    }
    F.lanes = [];
    F.flowTS = [];
    var dls = F.fig.querySelectorAll('dl[data-ts]');
    for (var d = 0; d < dls.length; d++) {
      var ts = nums(dls[d].getAttribute('data-ts'));
      var dds = dls[d].querySelectorAll('dd[data-counter]'), cs = [];
      for (var c = 0; c < dds.length; c++) {
        var dec = parseInt(dds[c].getAttribute('data-decimals'), 10);
        cs.push({ el: dds[c], v: nums(dds[c].getAttribute('data-series')), k: ts.length - 1,
          f: dec >= 0 ? numberFormat(dec, dec) : numberFormat(0, 6) });
      }
      F.lanes.push({ ts: ts, cs: cs });
      if (ts.length > F.flowTS.length) { F.flowTS = Array.prototype.slice.call(ts); }
    }
  }
  // livePaths: a mutation that only adds a flow view's playing marks.
  function livePaths(rec) {
    if (rec.type !== 'childList' || rec.removedNodes.length || !rec.addedNodes.length) { return false; }
    for (var i = 0; i < rec.addedNodes.length; i++) {
      var n = rec.addedNodes[i];
      if (n.nodeType !== 1 || !n.classList.contains('flow-live-marks')) { return false; }
    }
    return true;
  }
  // paintGen counts the changes of theme (the reader's scheme, the
  // page's toggle, html[data-theme]): a canvas drawn in an older one
  // reads its paint again (flowCanvas)
  var paintGen = 0;
  (function () {
    var bump = function () { paintGen++; };
    var dark = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
    if (dark && dark.addEventListener) { dark.addEventListener('change', bump); }
    if (window.MutationObserver) {
      new MutationObserver(bump).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    }
  })();
  // flowCanvas readies lane L's canvas for the playing marks (made at
  // its first frame, beside the lane's drawing, over it: widget.css) and
  // the paint of each state, read from that state's path at rest.
  function flowCanvas(L) {
    if (!L.c) {
      var c = document.createElement('canvas');
      c.className = 'flow-live-marks';
      c.setAttribute('aria-hidden', 'true');
      L.svg.parentNode.insertBefore(c, L.svg.nextSibling);
      L.c = c; L.ctx = c.getContext('2d');
      // the drawing's box moves with the page's layout: measured again
      // at the next frame (not read every frame)
      if (window.ResizeObserver) {
        L.ro = new ResizeObserver(function () { L.sized = false; });
        L.ro.observe(L.svg.parentNode);
      }
      L.sized = false;
    }
    if (!L.sized) {
      var vb = L.svg.viewBox.baseVal, dpr = window.devicePixelRatio || 1, lane = L.svg.parentNode;
      var R = L.svg.getBoundingClientRect(), P = lane.getBoundingClientRect(), w = R.width, h = R.height;
      L.c.style.left = (R.left - P.left - lane.clientLeft) + 'px';
      L.c.style.top = (R.top - P.top - lane.clientTop) + 'px';
      L.c.style.width = w + 'px';
      L.c.style.height = h + 'px';
      L.c.width = Math.max(1, Math.round(w * dpr));
      L.c.height = Math.max(1, Math.round(h * dpr));
      L.sx = vb && vb.width ? L.c.width / vb.width : dpr;
      L.sy = vb && vb.height ? L.c.height / vb.height : dpr;
      L.ox = vb ? vb.x : 0; L.oy = vb ? vb.y : 0;
      L.dpr = dpr;
      L.sized = true;
    }
    // the paint of each state: its path at rest's own style (not
    // displayed while playing; the theme's colours hold)
    L.gen = paintGen;
    L.paint = [];
    for (var q = 0; q < L.states; q++) {
      if (!L.rest[q]) { L.paint.push(null); continue; }
      var st = getComputedStyle(L.rest[q]), op = parseFloat(st.opacity);
      op = isFinite(op) ? op : 1;
      var fo = parseFloat(st.fillOpacity), so = parseFloat(st.strokeOpacity);
      L.paint.push({
        fill: st.fill && st.fill !== 'none' ? st.fill : '', fa: op * (isFinite(fo) ? fo : 1),
        stroke: st.stroke && st.stroke !== 'none' ? st.stroke : '', sa: op * (isFinite(so) ? so : 1),
        lw: parseFloat(st.strokeWidth) || 1 });
    }
  }
  // flowDrop removes figure F's playing canvases, and stops
  // watching their lanes (F is read again, or its output was replaced).
  function flowDrop(F) {
    var svgs = F.svgs || [];
    for (var v = 0; v < svgs.length; v++) {
      var L = svgs[v];
      if (L.ro) { L.ro.disconnect(); L.ro = null; }
      if (L.c && L.c.parentNode) { L.c.parentNode.removeChild(L.c); }
      L.c = null;
    }
    if (F.live) { F.fig.classList.remove('flow-live'); F.fig.removeAttribute('data-moving'); F.live = false; }
  }
  // flowDraw draws lane L's playing marks, count of them: their places
  // in L.at, their states in st; it returns how many it drew.
  function flowDraw(L, count, st) {
    var ctx = L.ctx, r = L.r, at = L.at, drawn = 0;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, L.c.width, L.c.height);
    ctx.setTransform(L.sx, 0, 0, L.sy, -L.ox * L.sx, -L.oy * L.sy);
    for (var q = 0; q < L.states; q++) {
      var P = L.paint[q];
      if (!P || (!P.fill && !P.stroke)) { continue; }
      ctx.beginPath();
      var any = false;
      for (var m = 0; m < count; m++) {
        if (st[m] !== q) { continue; }
        var x = at[2 * m], y = at[2 * m + 1];
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, 2 * Math.PI);
        drawn++;
        any = true;
      }
      if (!any) { continue; }
      if (P.fill) { ctx.globalAlpha = P.fa; ctx.fillStyle = P.fill; ctx.fill(); }
      if (P.stroke) { ctx.globalAlpha = P.sa; ctx.strokeStyle = P.stroke; ctx.lineWidth = P.lw; ctx.stroke(); }
    }
    ctx.globalAlpha = 1;
    return drawn;
  }
  function r1(v) { return Math.round(v * 10) / 10; }
  // flowArc is a mark's circle as a path (flow.go appendMarkArc)
  function flowArc(x, y, r) {
    return 'M' + r1(x - r) + ' ' + y + 'a' + r + ' ' + r + ' 0 1 0 ' + 2 * r + ' 0a' + r + ' ' + r + ' 0 1 0 ' + -2 * r + ' 0';
  }
  // flowRest writes lane L's marks shown (L.at, L.st: L.count of them)
  // into the paths of their states (flow.go writes one per state, empty
  // for a state no mark ends in: an element added here would be new
  // output to the player's observer)
  function flowRest(L) {
    var parts = [];
    for (var q = 0; q < L.states; q++) { parts.push([]); }
    for (var m = 0; m < L.count; m++) { parts[L.st[m]].push(flowArc(L.at[2 * m], L.at[2 * m + 1], L.r)); }
    for (var s = 0; s < parts.length; s++) {
      var d = parts[s].join('');
      if (!L.rest[s] || L.d[s] === d) { continue; }
      L.rest[s].setAttribute('d', d);
      L.d[s] = d;
    }
  }
  function flowShow(F, t, live) {
    var ms = F.marks || [], moving = 0;
    var svgs = F.svgs || [];
    for (var v = 0; v < svgs.length; v++) {
      var S = svgs[v];
      if (live && (!F.live || !S.c || !S.sized || S.gen !== paintGen || S.dpr !== (window.devicePixelRatio || 1))) { flowCanvas(S); }
      S.count = 0;
      if (!S.st || S.st.length < S.n) { S.st = new Uint8Array(S.n); }
      if (!S.at || S.at.length < 2 * S.n) { S.at = new Float64Array(2 * S.n); }
    }
    for (var m = 0; m < ms.length; m++) {
      var M = ms[m], k = M.k, i = M.i, n = M.n;
      while (i > 0 && k[4 * i] > t) { i--; }
      while (i + 1 < n && k[4 * i + 4] <= t) { i++; }
      M.i = i;
      var x = k[4 * i + 1], y = k[4 * i + 2], s = k[4 * i + 3];
      if (i + 1 < n && k[4 * i] <= t) {
        var a = k[4 * i], b = k[4 * i + 4], u = b > a ? (t - a) / (b - a) : 1;
        x = r1(x + (k[4 * i + 5] - x) * u);
        y = r1(y + (k[4 * i + 6] - y) * u);
      }
      if (k[0] > t) { continue; } // not yet on its way
      if (Math.abs(x - k[4 * n - 3]) > 0.5 || Math.abs(y - k[4 * n - 2]) > 0.5) { moving++; }
      var L = svgs[M.v], c = L.count++;
      L.at[2 * c] = x; L.at[2 * c + 1] = y; L.st[c] = s;
    }
    if (live) {
      for (var w = 0; w < svgs.length; w++) {
        // the count drawn and the time, for the tests (site/e2e TestFlow)
        svgs[w].c.retrylabDrawn = flowDraw(svgs[w], svgs[w].count, svgs[w].st);
        svgs[w].c.retrylabT = t;
      }
      F.fig.setAttribute('data-moving', String(moving));
    } else {
      // at rest: the marks in the paths of their states, as flow.go
      // draws the end state (a path is written only when it changed)
      for (var u = 0; u < svgs.length; u++) { flowRest(svgs[u]); }
      F.fig.removeAttribute('data-moving');
    }
    if (live !== !!F.live) { F.fig.classList.toggle('flow-live', live); F.live = live; }
    var ls = F.lanes || [];
    for (var l = 0; l < ls.length; l++) {
      var L = ls[l], ts = L.ts, lo = 0, hi = ts.length; // the first frame after t
      while (lo < hi) { var mid = (lo + hi) >> 1; if (ts[mid] <= t) { lo = mid + 1; } else { hi = mid; } }
      var j = lo - 1;
      for (var c = 0; c < L.cs.length; c++) {
        var C = L.cs[c];
        if (C.k === j) { continue; }
        C.k = j;
        var val = j >= 0 ? C.v[j] : 0;
        C.el.setAttribute('data-value', String(val));
        C.el.textContent = C.f ? C.f.format(val) : String(val);
      }
    }
  }

  // Disclosures: remember, and open when a hidden control was changed.
  function changed(el) {
    if (el.type === 'checkbox' || el.type === 'radio') { return el.checked !== el.defaultChecked; }
    if (el.tagName === 'SELECT') {
      for (var i = 0; i < el.options.length; i++) {
        if (el.options[i].selected !== el.options[i].defaultSelected) { return true; }
      }
      return false;
    }
    return el.value !== el.defaultValue;
  }
  function keyOf(root, d) {
    return 'retrylab:more:' + window.location.pathname + '#' + (root.id || '') + (d.hasAttribute('data-more-results') ? ':results' : '');
  }
  // auto: also open a disclosure whose controls differ from the page's
  // values (at start and when the first computed output arrives, after
  // the playground applied the URL; never later, so that a reader who
  // closes it keeps it closed).
  function disclose(root, auto) {
    var ds = root.querySelectorAll('details[data-more]');
    for (var i = 0; i < ds.length; i++) {
      var d = ds[i];
      var els = auto ? d.querySelectorAll('[name]') : [];
      for (var j = 0; j < els.length; j++) {
        if (changed(els[j])) { d.open = true; break; }
      }
      if (d.getAttribute('data-more-bound')) { continue; }
      d.setAttribute('data-more-bound', '1');
      var saved = null;
      try { saved = window.sessionStorage.getItem(keyOf(root, d)); } catch (e) { /* storage off */ }
      if (saved === '1') { d.open = true; }
      (function (d) {
        d.addEventListener('toggle', function () {
          try { window.sessionStorage.setItem(keyOf(root, d), d.open ? '1' : '0'); } catch (e) { /* storage off */ }
        });
      })(d);
    }
  }

  // Adjustable numbers (as in Tangle): a citation of a widget's numeric
  // parameter in the prose (output[data-cite="ID.PARAM"]) becomes a
  // spinbutton: the arrow keys (Page Up/Down: ten steps) and a horizontal
  // drag change the widget's control, the playground recomputes, and the
  // widget, its charts and every citation follow.
  // A number field is a text input (site/widget: the page's decimal mark);
  // its bounds and step are data-min, data-max, data-step.
  function ctlNum(ctl) { return parseFloat(String((ctl && ctl.value) || '').replace(',', '.')); }
  function stepOf(ctl, v) {
    var st = parseFloat(ctl.getAttribute('data-step'));
    if (st > 0) { return st; }
    var a = Math.abs(v);
    return a > 0 ? Math.pow(10, Math.floor(Math.log(a) / Math.LN10) - 1) : 0.01;
  }
  function adjustable(out, later) {
    var cite = out.getAttribute('data-cite') || '';
    var dot = cite.indexOf('.');
    if (dot < 0) { return; }
    var root = document.getElementById(cite.slice(0, dot));
    if (!root || !root.hasAttribute('data-widget')) { return; }
    var name = cite.slice(dot + 1);
    var sel = 'form [data-field="' + name + '"][data-kind="int"] input[name="' + name + '"], form [data-field="' + name + '"][data-kind="float"] input[name="' + name + '"]';
    var ctl = root.querySelector(sel);
    if (!ctl && !later && root.querySelector('noscript[data-fields]')) {
      // the widget's fields are still text: when the citation nears the
      // viewport (making its widget's fields now would bring back the
      // work that retrylabFields saves)
      retrylabWhenNear(out, function () { retrylabFields(root); adjustable(out, true); });
      return;
    }
    var form = root.querySelector('form[data-form]');
    var mark = (form && form.getAttribute('data-decimal')) || '.';
    if (!ctl) { return; }
    var label = root.querySelector('label[for="' + ctl.id + '"]');
    out.setAttribute('tabindex', '0');
    out.setAttribute('role', 'spinbutton');
    out.setAttribute('data-adjust', '');
    out.setAttribute('aria-label', label ? label.textContent : cite);
    var min = ctl.getAttribute('data-min'), max = ctl.getAttribute('data-max');
    if (min !== null) { out.setAttribute('aria-valuemin', min); }
    if (max !== null) { out.setAttribute('aria-valuemax', max); }
    function sync() { var v = ctlNum(ctl); if (isFinite(v)) { out.setAttribute('aria-valuenow', String(v)); } }
    sync();
    ctl.addEventListener('input', sync);
    function set(v) {
      var lo = parseFloat(min), hi = parseFloat(max);
      if (isFinite(lo)) { v = Math.max(lo, v); }
      if (isFinite(hi)) { v = Math.min(hi, v); }
      v = parseFloat(v.toPrecision(12));
      var text = String(v).replace('.', mark);
      if (text === ctl.value) { return; }
      ctl.value = text;
      sync();
      ctl.dispatchEvent(new Event('input', { bubbles: true }));
      ctl.dispatchEvent(new Event('change', { bubbles: true }));
    }
    out.addEventListener('keydown', function (ev) {
      var v = ctlNum(ctl);
      if (!isFinite(v)) { return; }
      var st = stepOf(ctl, v), k = 0;
      switch (ev.key) {
        case 'ArrowUp': case 'ArrowRight': k = 1; break;
        case 'ArrowDown': case 'ArrowLeft': k = -1; break;
        case 'PageUp': k = 10; break;
        case 'PageDown': k = -10; break;
        default: return;
      }
      ev.preventDefault();
      set(v + k * st);
    });
    var drag = null;
    out.addEventListener('pointerdown', function (ev) {
      var v = ctlNum(ctl);
      if (!isFinite(v)) { return; }
      drag = { x: ev.clientX, v: v, st: stepOf(ctl, v) };
      out.setPointerCapture(ev.pointerId);
      ev.preventDefault();
    });
    out.addEventListener('pointermove', function (ev) {
      if (drag) { set(drag.v + Math.round((ev.clientX - drag.x) / 8) * drag.st); }
    });
    out.addEventListener('pointerup', function () { drag = null; });
    out.addEventListener('pointercancel', function () { drag = null; });
  }

  function start() {
    var cites = document.querySelectorAll('output[data-cite]');
    for (var c = 0; c < cites.length; c++) { adjustable(cites[c]); }
    var roots = document.querySelectorAll('.widget[data-widget]');
    // the playground applies the URL's values when it starts (<html
    // data-ready="true">): look at the hidden controls then
    var html = document.documentElement;
    function ready() {
      if (html.getAttribute('data-ready') !== 'true') { return false; }
      for (var r = 0; r < roots.length; r++) { disclose(roots[r], true); }
      return true;
    }
    if (!ready() && window.MutationObserver) {
      var mo = new MutationObserver(function () { if (ready()) { mo.disconnect(); } });
      mo.observe(html, { attributes: true, attributeFilter: ['data-ready'] });
    }
    // printing: every player paused first, so that a flow view prints its
    // marks' paths at the time shown (a playing frame's canvas keeps the
    // screen's size and theme)
    var players = [];
    window.addEventListener('beforeprint', function () {
      for (var q = 0; q < players.length; q++) { players[q].pause(); }
    });
    for (var i = 0; i < roots.length; i++) {
      retrylabWhenNear(roots[i], function (root) {
        var p = new Player(root);
        players.push(p);
        disclose(root, true);
        var out = root.querySelector('[data-output]');
        if (out && window.MutationObserver) {
          var pending = false, first = true;
          new MutationObserver(function (list) {
            // our own data-future changes are attributes and our own
            // texts sit in [data-player]: only new output counts
            for (var m = 0; m < list.length; m++) {
              var tg = list[m].target;
              // the player's own text (time, live region, a flow view's
              // counters) and a flow view's playing marks (flowCanvas)
              // are no new output
              if (tg.nodeType !== 1 || tg.closest('[data-player]') || tg.closest('[data-counter]') || tg.closest('.flow-live-marks') || livePaths(list[m])) { continue; }
              if (list[m].type === 'childList') {
                if (!pending) {
                  pending = true;
                  Promise.resolve().then(function () { pending = false; p.attach(); disclose(root, first); first = false; });
                }
                return;
              }
            }
          }).observe(out, { childList: true, subtree: true });
        }
      });
    }
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();

// Controls that fit their values (site/widget/controls.go;
// wasm/playground/DOM.md, "Controls"). The playground reads and writes
// only the control named for each parameter; this part keeps the richer
// controls beside it in step, both ways:
//   - a logarithmic slider (input[data-log-for]) stops at the round
//     values of its data-ladder; moving it writes the value into the
//     named text field, before the form's listeners see the event;
//   - a segmented control (radios named for the parameter) writes the
//     checked value into the hidden input[data-segments-value];
//   - a stepper (span[data-stepper-for]) replaces a list's text field:
//     − and + per item, add and remove, within data-minlen/data-maxlen;
//     the text field keeps the canonical comma-separated text.
// The playground writes a control's value when it resets or applies the
// URL: a setter on that element (watch) brings the richer control along.
// Without this script the form is the static one: the text fields and
// the radios.
(function () {
  'use strict';
  var lang = document.documentElement.lang || 'en';
  var fmt; // made at its first use (say): see the first part's num
  var inputValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');

  // watch calls fn after every write of el.value by a script.
  function watch(el, fn) {
    Object.defineProperty(el, 'value', {
      configurable: true,
      get: function () { return inputValue.get.call(this); },
      set: function (v) { inputValue.set.call(this, v); fn(); }
    });
  }
  function setRaw(el, v) { inputValue.set.call(el, v); }
  // fieldText is the calculator's text of a number field on a page whose
  // decimal mark is mark: wasm/playground numberText, line for line (its
  // test, TestFieldTextMatchesGo, runs this function beside the Go one).
  // Either mark is read as the point, and a number grouped as the page
  // groups ("300.000" where mark is ",") is read whole.
  function fieldText(text, mark) {
    var s = String(text == null ? '' : text).trim();
    var m = mark === ',' ? ',' : '.', g = m === ',' ? '.' : ',';
    var body = s.replace(/^[+-]+/, ''), end = body.indexOf(m);
    if (end < 0) { end = body.length; }
    // groups end 4, 8, ... characters before the decimals: a group mark
    // there and only there, digits elsewhere
    var ok = body.slice(0, end).indexOf(g) > 0 && body.charAt(0) !== '0';
    for (var k = 0; k < end && ok; k++) {
      var at = (end - k) % 4 === 0, c = body.charAt(k);
      ok = (c === g) === at && (at || (c >= '0' && c <= '9'));
    }
    if (ok) { s = s.split(g).join(''); }
    return s.replace(',', '.');
  }
  // parse is the number of a field's text (fieldText): NaN for what is not
  // a decimal number, as the calculator refuses it
  function parse(text, mark) {
    var t = fieldText(text, mark);
    return /^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$/.test(t) ? Number(t) : NaN;
  }
  // canon is the calculator's text of a number: shortest form, no
  // binary noise (0.1 + 0.2)
  function canon(v) { return String(parseFloat(v.toPrecision(12))); }
  function local(text, mark) { return mark === ',' ? text.replace('.', ',') : text; }
  function fire(el, commit) {
    el.dispatchEvent(new Event('input', { bubbles: true }));
    if (commit) { el.dispatchEvent(new Event('change', { bubbles: true })); }
  }

  function logSlider(form, s, named) {
    var field = (named[s.getAttribute('data-log-for')] || [])[0];
    if (!field) { return; }
    var ladder = s.getAttribute('data-ladder').split(',').map(Number);
    var mark = form.getAttribute('data-decimal') || '.';
    var unitEl = field.parentNode.querySelector('.widget-unit');
    var unit = unitEl ? ' ' + unitEl.textContent : '';
    function say(v) {
      if (fmt === undefined) { fmt = window.retrylabNumberFormat ? window.retrylabNumberFormat(0, 6) : null; }
      s.setAttribute('aria-valuetext', (fmt ? fmt.format(v) : String(v)) + unit);
    }
    function nearest(v) {
      var best = 0, d = Infinity;
      for (var i = 0; i < ladder.length; i++) {
        var x = ladder[i];
        var e = x > 0 && v > 0 ? Math.abs(Math.log(x / v)) : (v > 0 ? Infinity : Math.abs(x - v));
        if (e < d) { best = i; d = e; }
      }
      return best;
    }
    function fromField() {
      var v = parse(inputValue.get.call(field), mark);
      if (!isFinite(v)) { return; }
      s.value = String(nearest(v));
      say(v);
    }
    function toField() {
      var v = ladder[Number(s.value)];
      setRaw(field, local(String(v), mark));
      say(v);
    }
    // on the slider itself: before the form's listeners (the playground)
    // read the field
    s.addEventListener('input', toField);
    s.addEventListener('change', toField);
    field.addEventListener('input', fromField);
    watch(field, fromField);
  }

  function segments(hidden, named) {
    var radios = (named[hidden.name] || []).filter(function (el) { return el.localName === 'input' && el.type === 'radio'; });
    function fromHidden() {
      var v = inputValue.get.call(hidden);
      for (var i = 0; i < radios.length; i++) { radios[i].checked = radios[i].value === v; }
    }
    function pick(ev) { if (ev.target.checked) { setRaw(hidden, ev.target.value); } }
    for (var i = 0; i < radios.length; i++) {
      radios[i].addEventListener('input', pick);
      radios[i].addEventListener('change', pick);
    }
    watch(hidden, fromHidden);
  }

  function stepper(form, box, named) {
    var field = (named[box.getAttribute('data-stepper-for')] || [])[0];
    if (!field) { return; }
    var mark = form.getAttribute('data-decimal') || '.';
    var min = parseFloat(box.getAttribute('data-min')), max = parseFloat(box.getAttribute('data-max'));
    var step = parseFloat(box.getAttribute('data-step')) || 1;
    var minLen = parseInt(box.getAttribute('data-minlen'), 10) || 0;
    var maxLen = parseInt(box.getAttribute('data-maxlen'), 10) || 1000;
    var self = false; // our own write of the field
    function items() {
      var t = inputValue.get.call(field).trim();
      return t === '' ? [] : t.split(',').map(function (x) { return x.trim(); });
    }
    function label(key, i) {
      var item = box.getAttribute('data-item').replace('{i}', String(i + 1));
      return key ? box.getAttribute(key).replace('{item}', item) : item;
    }
    function button(text, aria, role, i, disabled) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'widget-step';
      b.textContent = text;
      if (aria) { b.setAttribute('aria-label', aria); }
      b.setAttribute('data-role', role);
      if (i >= 0) { b.setAttribute('data-i', String(i)); }
      b.disabled = disabled;
      return b;
    }
    function render() {
      var f = document.activeElement, focus = null;
      if (f && box.contains(f)) { focus = [f.getAttribute('data-role'), f.getAttribute('data-i')]; }
      var xs = items();
      box.textContent = '';
      for (var i = 0; i < xs.length; i++) {
        var v = parse(xs[i]);
        var it = document.createElement('span');
        it.className = 'widget-step-item';
        var inp = document.createElement('input');
        inp.type = 'text';
        inp.inputMode = step % 1 === 0 && !(mark === ',' && xs[i].indexOf('.') >= 0) ? 'numeric' : 'decimal';
        inp.value = local(xs[i], mark);
        inp.setAttribute('aria-label', label('', i));
        inp.setAttribute('data-role', 'item');
        inp.setAttribute('data-i', String(i));
        inp.setAttribute('autocomplete', 'off');
        it.appendChild(button('−', label('data-dec', i), 'dec', i, !(v - step >= min || isNaN(min))));
        it.appendChild(inp);
        it.appendChild(button('+', label('data-inc', i), 'inc', i, !(v + step <= max || isNaN(max))));
        box.appendChild(it);
      }
      var acts = document.createElement('span');
      acts.className = 'widget-step-actions';
      acts.appendChild(button('+ ' + box.getAttribute('data-add'), '', 'add', -1, xs.length >= maxLen));
      acts.appendChild(button('− ' + box.getAttribute('data-remove'), '', 'remove', -1, xs.length <= minLen));
      box.appendChild(acts);
      if (focus) {
        var sel = '[data-role="' + focus[0] + '"]' + (focus[1] !== null ? '[data-i="' + focus[1] + '"]' : '');
        var el = box.querySelector(sel) || box.querySelector('[data-role="' + focus[0] + '"]');
        if (el && !el.disabled) { el.focus(); } else if (box.querySelector('input')) { box.querySelector('input').focus(); }
      }
    }
    function write(xs, rerender, commit) {
      self = true;
      field.value = xs.join(',');
      self = false;
      if (rerender) { render(); }
      fire(field, commit);
    }
    box.addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-role]');
      if (!b || b.disabled) { return; }
      var xs = items(), i = Number(b.getAttribute('data-i'));
      switch (b.getAttribute('data-role')) {
        case 'dec': case 'inc':
          var v = parse(xs[i]);
          if (!isFinite(v)) { v = isFinite(min) ? min : 0; }
          v += b.getAttribute('data-role') === 'inc' ? step : -step;
          if (isFinite(min)) { v = Math.max(min, v); }
          if (isFinite(max)) { v = Math.min(max, v); }
          xs[i] = canon(v);
          break;
        case 'add':
          xs.push(xs.length ? xs[xs.length - 1] : canon(isFinite(min) ? min : 0));
          break;
        case 'remove':
          xs.pop();
          break;
      }
      write(xs, true, true);
    });
    // typing into an item: the field follows at each keystroke (the
    // item's own events reach the playground: it reads the field)
    box.addEventListener('input', function (ev) {
      if (ev.target.getAttribute('data-role') !== 'item') { return; }
      var ins = box.querySelectorAll('input[data-role="item"]'), xs = [];
      for (var k = 0; k < ins.length; k++) { xs.push(ins[k].value.trim().replace(',', '.')); }
      self = true;
      field.value = xs.join(',');
      self = false;
    }, true);
    box.addEventListener('change', function (ev) {
      if (ev.target.getAttribute('data-role') === 'item') { render(); }
    });
    watch(field, function () { if (!self) { render(); } });
    render();
    field.hidden = true;
    box.hidden = false;
    box.closest('.widget-field').setAttribute('data-stepper', '');
  }

  // setup reads the form's named controls once (named: each name's
  // elements, in document order), not with a query a control: the
  // queries by name walked the form for each (e2e TestHydrationQueries)
  function setup(form) {
    var k, named = {};
    var els = form.querySelectorAll('[name]');
    for (k = 0; k < els.length; k++) {
      var n = els[k].getAttribute('name');
      (named[n] = named[n] || []).push(els[k]);
    }
    var ss = form.querySelectorAll('input[data-log-for]');
    for (k = 0; k < ss.length; k++) { logSlider(form, ss[k], named); }
    var hs = form.querySelectorAll('input[data-segments-value]');
    for (k = 0; k < hs.length; k++) { segments(hs[k], named); }
    var bs = form.querySelectorAll('[data-stepper-for]');
    for (k = 0; k < bs.length; k++) { stepper(form, bs[k], named); }
  }
  function start() {
    var forms = document.querySelectorAll('form[data-form]');
    for (var i = 0; i < forms.length; i++) {
      (function (form) {
        var root = form.closest('[data-widget]');
        if (root) {
          retrylabWhenNear(root, function () { setup(form); });
        } else {
          setup(form);
        }
      })(forms[i]);
    }
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
