// theme.js: applies the reader's saved theme before the page is painted.
// Loaded synchronously in <head>; no inline script (the CSP forbids it).
(function () {
  'use strict';
  // the theme toggle (hidden without JavaScript; app.js shows it) keeps
  // its place from the first paint: showing it later moved the page on a
  // narrow screen, where the header wraps (Lighthouse: layout shift 0.05)
  document.documentElement.setAttribute('data-js', '');
  try {
    var t = window.localStorage.getItem('retrylab-theme');
    if (t === 'light' || t === 'dark') {
      document.documentElement.setAttribute('data-theme', t);
    }
  } catch (e) { /* storage disabled: follow prefers-color-scheme */ }
})();
