// classroom.js: the exercises page. It derives a student's variant from
// the class code and the student's name or number with
// classroom-derive.js (generated from site/classroom's Go: Normalize,
// FNV-1a, mulberry32, one pick per exercise), renders the worksheet, and
// checks each answer against the salted hashes the build computed from
// the calculators' answers (right or wrong, with a hint). The page holds
// no answer and no answer key: the teacher prints the key with
// `retrylab exercises`. Nothing leaves the browser: no request is made.
(function () {
  'use strict';
  var el = document.getElementById('retrylab-classroom');
  var box = document.querySelector('[data-classroom]');
  if (!el || !box) { return; }
  var data;
  try { data = JSON.parse(el.textContent); } catch (e) { return; }
  var S = data.strings || {};
  var lang = data.lang || 'en';
  var exs = data.table.exercises;
  var checks = data.table.checks;

  function t(key) { return Object.prototype.hasOwnProperty.call(S, key) ? S[key] : key; }
  function expand(s, kv) {
    return s.replace(/\{(\w+)\}/g, function (m, k) { return Object.prototype.hasOwnProperty.call(kv, k) ? kv[k] : m; });
  }
  function h(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) { e.setAttribute(k, attrs[k]); } }
    if (text != null) { e.textContent = text; }
    return e;
  }

  // --- The derivation: classroom-derive.js, generated from site/classroom. ---
  var D = window.retrylabDerive;
  if (!D) { return; }
  var counts = exs.map(function (ex) { return ex.options.length; });
  var normalize = D.normalize, seed = D.seed, okText = D.okText;
  function pick(s) { return D.pick(s, counts); }

  // --- Numbers (site/classroom: ParseNumber, Check.Judge). ---
  var decimal = data.decimal === ',' ? ',' : '.';
  var group = typeof data.group === 'string' ? data.group : '';
  var minGroup = data.min_group || 4;
  // fixed writes v with exactly dec decimals as site/locale's Fixed does:
  // the language's decimal mark, groups of three integer digits when
  // there are at least minGroup of them.
  function fixed(v, dec) {
    var s = Math.abs(v).toFixed(dec);
    var parts = s.split('.');
    var ip = parts[0];
    if (group && ip.length >= minGroup) {
      var out = '';
      while (ip.length > 3) { out = group + ip.slice(-3) + out; ip = ip.slice(0, -3); }
      ip = ip + out;
    }
    var neg = v < 0 && Number(s) !== 0 ? '-' : '';
    return neg + ip + (parts.length > 1 ? decimal + parts[1] : '');
  }
  // list joins items as site/locale's List does, from its patterns for
  // two and three items.
  function list(items) {
    var l2 = data.list2 || '%0%, %1%', l3 = data.list3 || '%0%, %1%, %2%';
    if (items.length === 1) { return items[0]; }
    if (items.length === 2) { return l2.replace('%0%', items[0]).replace('%1%', items[1]); }
    var i0 = l3.indexOf('%0%'), i1 = l3.indexOf('%1%'), i2 = l3.indexOf('%2%');
    var mid = l3.slice(i0 + 3, i1), end = l3.slice(i1 + 3, i2);
    return l3.slice(0, i0) + items.slice(0, -1).join(mid) + end + items[items.length - 1] + l3.slice(i2 + 3);
  }
  // num writes a parameter's canonical text with its own decimals.
  function num(text) {
    var m = /^-?\d+(?:\.(\d+))?$/.exec(text);
    return m ? fixed(Number(text), m[1] ? m[1].length : 0) : text;
  }
  function groups(s, sep) {
    var parts = s.replace(/^[+-]+/, '').split(sep);
    if (parts.length < 2 || parts[0].length < 1 || parts[0].length > 3 || parts[0][0] === '0') { return false; }
    for (var i = 0; i < parts.length; i++) {
      if (i > 0 && parts[i].length !== 3) { return false; }
      if (!/^[0-9]*$/.test(parts[i])) { return false; }
    }
    return true;
  }
  function count(s, c) { return s.split(c).length - 1; }
  function parseNumber(s) {
    s = String(s).trim().replace(/%$/, '').trim().replace(/[ \u00a0\u202f']/g, '');
    if (s === '') { return null; }
    var other = decimal === ',' ? '.' : ',';
    var hasDec = s.indexOf(decimal) >= 0, hasOther = s.indexOf(other) >= 0;
    if (hasDec && hasOther) {
      var d = decimal, o = other;
      if (s.lastIndexOf(other) > s.lastIndexOf(decimal)) { d = other; o = decimal; }
      s = s.split(o).join('');
      if (count(s, d) > 1) { return null; }
      s = s.replace(d, '.');
    } else if (hasOther && groups(s, other)) {
      s = s.split(other).join('');
    } else if (hasDec || hasOther) {
      var mark = hasOther ? other : decimal;
      if (count(s, mark) > 1) { return null; }
      s = s.replace(mark, '.');
    }
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) { return null; }
    var v = Number(s);
    return isFinite(v) ? v : null;
  }
  // check judges input against the Check of question j of exercise i,
  // option opt: the page holds salted hashes of the answer, never the
  // answer (site/classroom, selfcheck.go).
  function check(i, opt, j, input) {
    var ex = exs[i], q = ex.questions[j], c = checks[i][opt][j];
    if (String(input).trim() === '') { return 'empty'; }
    var salt = D.salt(ex.id, opt, q.field);
    if (q.choices) {
      var ch = String(input).trim().toLowerCase();
      if (q.choices.indexOf(ch) < 0) { return 'syntax'; }
      return D.judge(salt, c, null, ch);
    }
    var x = parseNumber(input);
    if (x === null) { return 'syntax'; }
    return D.judge(salt, c, x, null);
  }

  // --- Text. ---
  function paramText(name, v) {
    if (name === 'seed' || v.charAt(0) === '{' || v.charAt(0) === '[') { return v; }
    if (v.indexOf(',') >= 0) {
      var parts = v.split(',').map(function (p) { return paramText(name, p); });
      return list(parts);
    }
    return num(v);
  }
  function params(ex, opt) {
    var p = {};
    var k;
    for (k in ex.fixed || {}) { if (Object.prototype.hasOwnProperty.call(ex.fixed, k)) { p[k] = ex.fixed[k]; } }
    for (var i = 0; i < ex.names.length; i++) { p[ex.names[i]] = ex.options[opt][i]; }
    return p;
  }
  function statement(ex, p) {
    var kv = {};
    for (var k in p) { if (Object.prototype.hasOwnProperty.call(p, k)) { kv[k] = paramText(k, p[k]); } }
    return expand(t('classroom.ex.' + ex.id + '.text'), kv);
  }
  function query(p) {
    var keys = Object.keys(p).sort();
    return keys.map(function (k) { return encodeURIComponent(k) + '=' + encodeURIComponent(p[k]); }).join('&');
  }

  // --- The worksheet. ---
  var form = box.querySelector('[data-classroom-form]');
  var sheet = box.querySelector('[data-classroom-sheet]');
  var errBox = box.querySelector('[data-classroom-error]');
  var current = { code: data.code, student: data.student };

  function renderSheet(code, student) {
    var s = seed(code, student);
    var picks = pick(s);
    sheet.textContent = '';
    sheet.setAttribute('data-seed', String(s));
    sheet.appendChild(h('p', { 'class': 'classroom-variant' }, expand(t('classroom.variant'), { code: normalize(code), student: normalize(student), seed: String(s) })));
    sheet.appendChild(h('p', { 'class': 'classroom-name' }, t('classroom.name_line')));
    var ol = h('ol', { 'class': 'classroom-list' });
    for (var i = 0; i < exs.length; i++) {
      var ex = exs[i], opt = picks[i], p = params(ex, opt);
      var li = h('li', { 'class': 'classroom-item', 'data-exercise': ex.id, 'data-option': String(opt), 'data-params': query(p) });
      li.appendChild(h('h2', {}, t('classroom.ex.' + ex.id + '.title')));
      li.appendChild(h('p', { 'class': 'classroom-text' }, statement(ex, p)));
      var ul = h('ul', { 'class': 'classroom-questions' });
      for (var j = 0; j < ex.questions.length; j++) {
        var q = ex.questions[j];
        var id = 'ex-' + ex.id + '-' + q.field;
        var qli = h('li');
        var row = h('div', { 'class': 'classroom-q' });
        row.appendChild(h('label', { 'for': id }, t('classroom.ex.' + ex.id + '.q.' + q.field)));
        var input;
        if (q.choices) {
          input = h('select', { id: id, 'data-field': q.field });
          input.appendChild(h('option', { value: '' }, '—'));
          for (var c = 0; c < q.choices.length; c++) { input.appendChild(h('option', { value: q.choices[c] }, t('classroom.choice.' + q.choices[c]))); }
        } else {
          input = h('input', { id: id, type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', 'data-field': q.field });
        }
        input.setAttribute('aria-describedby', id + '-verdict');
        row.appendChild(input);
        if (q.choices) {
          // On paper the select shows nothing: the choices are written out.
          row.appendChild(h('span', { 'class': 'classroom-choices' }, '(' + q.choices.map(function (c) { return t('classroom.choice.' + c); }).join(' / ') + ')'));
        }
        if (q.percent) { row.appendChild(h('span', { 'class': 'classroom-unit' }, '%')); }
        row.appendChild(h('button', { type: 'button', 'data-check': String(i) + ':' + String(j) }, t('classroom.check')));
        qli.appendChild(row);
        var verdict = h('p', { 'class': 'classroom-verdict', id: id + '-verdict', 'data-verdict-for': ex.id + '.' + q.field, role: 'status', hidden: '' });
        qli.appendChild(verdict);
        ul.appendChild(qli);
      }
      li.appendChild(ul);
      var open = h('p', { 'class': 'classroom-open' });
      open.appendChild(h('a', { href: data.embed + ex.calc + '/?' + query(p), target: '_blank', rel: 'noopener' }, t('classroom.open')));
      li.appendChild(open);
      ol.appendChild(li);
    }
    sheet.appendChild(ol);
    current = { code: code, student: student, picks: picks };
  }

  function judge(i, j) {
    var ex = exs[i], q = ex.questions[j];
    var li = sheet.querySelectorAll('.classroom-item')[i];
    var input = li.querySelector('[data-field="' + q.field + '"]');
    var out = li.querySelector('[data-verdict-for="' + ex.id + '.' + q.field + '"]');
    var v = check(i, current.picks[i], j, input.value);
    var msg = t('classroom.verdict.' + v);
    if (v === 'wrong') { msg += ' ' + t('classroom.ex.' + ex.id + '.hint'); }
    out.textContent = msg;
    out.setAttribute('data-verdict', v);
    out.hidden = false;
    input.setAttribute('aria-invalid', v === 'right' ? 'false' : 'true');
  }

  sheet.addEventListener('click', function (ev) {
    var b = ev.target.closest && ev.target.closest('[data-check]');
    if (!b) { return; }
    var ij = b.getAttribute('data-check').split(':');
    judge(Number(ij[0]), Number(ij[1]));
  });
  sheet.addEventListener('keydown', function (ev) {
    if (ev.key !== 'Enter' || !ev.target.matches('input[data-field]')) { return; }
    ev.preventDefault();
    var b = ev.target.parentNode.querySelector('[data-check]');
    if (b) { b.click(); }
  });

  function show() {
    var code = form.elements.code.value, student = form.elements.student.value;
    if (!okText(code) || !okText(student)) {
      errBox.textContent = t('classroom.bad_text');
      errBox.hidden = false;
      return;
    }
    errBox.hidden = true;
    renderSheet(code, student);
  }
  form.addEventListener('submit', function (ev) { ev.preventDefault(); show(); });
  var buttons = box.querySelectorAll('button[data-print]');
  for (var b = 0; b < buttons.length; b++) {
    buttons[b].disabled = false;
    buttons[b].addEventListener('click', function (ev) {
      document.documentElement.setAttribute('data-print', ev.currentTarget.getAttribute('data-print'));
      window.print();
    });
  }
  window.addEventListener('afterprint', function () { document.documentElement.removeAttribute('data-print'); });
  var submit = form.querySelector('button[type="submit"]');
  if (submit) { submit.disabled = false; }
  show();
  box.setAttribute('data-ready', 'true');
})();
