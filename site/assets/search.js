// search.js: the search box of every page (site/pages's layout, issue 34),
// on Pagefind's index of the built site (BASE/pagefind/, written by
// `retrylab build` when Pagefind is installed: site/search). The form
// stays hidden until this script runs; without JavaScript a <noscript>
// says that the search needs it. Results are links with Pagefind's
// excerpts, in the page's language (Pagefind keeps an index per <html lang>).
// Keyboard: type, then Enter or wait; Tab reaches the results; Escape clears.
(function () {
  'use strict';
  var form = document.querySelector('form[data-search]');
  if (!form) { return; }
  var input = form.querySelector('input[type="search"]');
  var out = document.getElementById(form.getAttribute('data-search-results'));
  if (!input || !out) { return; }
  form.hidden = false;
  var pf = null;
  var seq = 0;
  var timer = 0;
  function say(text) {
    out.textContent = '';
    var p = document.createElement('p');
    p.className = 'search-status';
    p.textContent = text;
    out.appendChild(p);
    out.hidden = false;
  }
  function load() {
    if (pf) { return pf; }
    var src = form.getAttribute('data-pagefind');
    // data-ranking: Pagefind's ranking options from site/pages
    // (searchRanking): the boosts of the glossary's terms and of the
    // calculators' names, which rank the page that defines them first.
    var ranking = null;
    try { ranking = JSON.parse(form.getAttribute('data-ranking') || 'null'); } catch (e) { ranking = null; }
    var opts = { baseUrl: form.getAttribute('data-base') };
    if (ranking) { opts.ranking = ranking; }
    pf = import(src).then(function (m) {
      return m.options(opts).then(function () { return m; });
    });
    return pf;
  }
  // fold: a name or a query as compared by ownFirst (case, width and
  // spacing aside).
  function fold(s) {
    return s.normalize('NFKC').toLocaleLowerCase().replace(/\s+/g, ' ').trim();
  }
  // ownFirst puts first the results whose own subjects (the metadata that
  // site/pages writes: "term", the glossary's terms; "calc", an article's
  // calculator names, joined by " · ") include the whole query: a term's
  // page, then a calculator's article, each in Pagefind's order. Pagefind
  // ranks by words, and a Chinese query is cut into words by the browser
  // (Intl.Segmenter) and the index by Pagefind's own segmenter: the two
  // disagree on some names (一次操作的幂等键: 幂|等|键 against 幂等|键),
  // and then the metadata boost misses. The whole name does not depend on
  // either segmentation.
  function ownFirst(q, items) {
    var want = fold(q);
    function owns(d, field) {
      var v = d.meta && d.meta[field];
      if (!v) { return false; }
      return v.split(' · ').some(function (n) { return fold(n) === want; });
    }
    var terms = [], calcs = [], rest = [];
    items.forEach(function (d) {
      (owns(d, 'term') ? terms : owns(d, 'calc') ? calcs : rest).push(d);
    });
    return terms.concat(calcs, rest);
  }
  function run() {
    var q = input.value.trim();
    var mine = ++seq;
    if (!q) { out.textContent = ''; out.hidden = true; return; }
    load().then(function (m) { return m.search(q); }).then(function (r) {
      if (mine !== seq) { return null; }
      // Twelve loaded, eight shown: room for ownFirst to lift a page.
      return Promise.all(r.results.slice(0, 12).map(function (x) { return x.data(); }));
    }).then(function (items) {
      if (items === null || mine !== seq) { return; }
      // data-q: the query the results answer (the browser tests wait for it)
      out.setAttribute('data-q', q);
      if (!items.length) { say(form.getAttribute('data-none').replace('{q}', q)); return; }
      items = ownFirst(q, items).slice(0, 8);
      out.textContent = '';
      var ol = document.createElement('ol');
      ol.className = 'search-list';
      items.forEach(function (d) {
        var li = document.createElement('li');
        var a = document.createElement('a');
        a.href = d.url;
        a.textContent = (d.meta && d.meta.title) || d.url;
        var p = document.createElement('p');
        // Pagefind's excerpt: the page's own text, escaped by Pagefind,
        // with the matches in <mark>.
        p.innerHTML = d.excerpt;
        li.appendChild(a);
        li.appendChild(p);
        ol.appendChild(li);
      });
      out.appendChild(ol);
      out.hidden = false;
    }).catch(function () {
      if (mine === seq) { say(form.getAttribute('data-unavailable')); }
    });
  }
  form.addEventListener('submit', function (ev) { ev.preventDefault(); clearTimeout(timer); run(); });
  input.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(run, 200); });
  input.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape') { input.value = ''; run(); }
  });
})();
