// theme.js: applies the reader's saved theme before the page is painted.
// Loaded synchronously in <head>; no inline script (the CSP forbids it).
(function () {
  'use strict';
  try {
    var t = window.localStorage.getItem('retrylab-theme');
    if (t === 'light' || t === 'dark') {
      document.documentElement.setAttribute('data-theme', t);
    }
  } catch (e) { /* storage disabled: follow prefers-color-scheme */ }
})();
