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
  function run() {
    var q = input.value.trim();
    var mine = ++seq;
    if (!q) { out.textContent = ''; out.hidden = true; return; }
    load().then(function (m) { return m.search(q); }).then(function (r) {
      if (mine !== seq) { return null; }
      return Promise.all(r.results.slice(0, 8).map(function (x) { return x.data(); }));
    }).then(function (items) {
      if (items === null || mine !== seq) { return; }
      // data-q: the query the results answer (the browser tests wait for it)
      out.setAttribute('data-q', q);
      if (!items.length) { say(form.getAttribute('data-none').replace('{q}', q)); return; }
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
