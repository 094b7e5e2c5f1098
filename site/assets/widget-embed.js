// widget-embed.js: keeps each widget's "embed" control (details.widget-embed,
// written by site/widget) in step with the widget: the iframe code holds
// the embed page's absolute URL with every value of the form that differs
// from the calculator's defaults (data-embed-defaults). It reads the form's
// controls, as the playground does (wasm/playground/DOM.md), when the reader
// opens the control, and while it is open whenever the reader changes one or
// steps through history.
(function () {
  'use strict';
  var controls = document.querySelectorAll('details.widget-embed');
  if (!controls.length) { return; }
  // The embed protocol, from Go (site/widget's Embed* constants; the
  // build writes the object, site/pages EmbedProtocol).
  var P = /*EMBED_PROTOCOL*/{};
  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
  }
  // A closed control is brought up to date when it opens (toggle): a
  // reader's change, the URL's state or history touch none closed, and
  // none reads a far widget's fields while the page loads (they stay text
  // until it nears the viewport, player.js retrylabFields).
  function update(d) {
    if (!d.open) { return; }
    var widget = d.closest('[data-widget]');
    var form = widget && widget.querySelector('form[data-form]');
    var area = d.querySelector('[data-embed-code]');
    if (!form || !area) { return; }
    // the fields, if still text (player.js)
    if (window.retrylabFields) { window.retrylabFields(widget); }
    var defs = new URLSearchParams(d.getAttribute('data-embed-defaults') || '');
    var q = new URLSearchParams();
    var fields = form.querySelectorAll('[data-field]');
    for (var i = 0; i < fields.length; i++) {
      var name = fields[i].getAttribute('data-field');
      var el = form.elements[name];
      if (!el) { continue; }
      var v = el.type === 'checkbox' ? (el.checked ? 'true' : 'false') : String(el.value).trim();
      // A number field shows the page's decimal mark ("0,5" in Italian);
      // the address carries the calculator's text ("0.5"), as the
      // playground reads it (wasm/playground numberText).
      if (el.hasAttribute && el.hasAttribute('data-step')) { v = v.replace(',', '.'); }
      if (v === '' || v === defs.get(name)) { continue; }
      q.set(name, v);
    }
    var src;
    try { src = new URL(d.getAttribute('data-embed'), document.baseURI).href; } catch (e) { return; }
    var qs = q.toString();
    if (qs) { src += '?' + qs; }
    // The code is the build's (site/widget.EmbedSnippet: the frame at the
    // widget's estimated height and the resize script), written with
    // P.srcMark for the address in data-embed-template: only the frame's
    // address changes with the values.
    var code = area.getAttribute('data-embed-template');
    if (code === null || code.indexOf(P.srcMark) < 0) { return; }
    area.textContent = code.split(P.srcMark).join(esc(src));
    d.setAttribute('data-embed-src', src);
  }
  function updateAll() { for (var i = 0; i < controls.length; i++) { update(controls[i]); } }
  for (var i = 0; i < controls.length; i++) {
    (function (d) {
      var widget = d.closest('[data-widget]');
      if (widget) {
        widget.addEventListener('input', function () { update(d); });
        widget.addEventListener('change', function () { update(d); });
        widget.addEventListener('click', function (ev) {
          if (ev.target.closest && ev.target.closest('[data-action]')) { setTimeout(function () { update(d); }, 50); }
        });
      }
      d.addEventListener('toggle', function () { update(d); });
      // the code box (a <pre>, site/widget writeEmbed) selects its code
      // when it takes the focus, ready to copy
      var area = d.querySelector('[data-embed-code]');
      if (area) {
        area.addEventListener('focus', function () {
          var r = document.createRange();
          r.selectNodeContents(area);
          var sel = window.getSelection();
          sel.removeAllRanges();
          sel.addRange(r);
        });
      }
    })(controls[i]);
  }
  window.addEventListener('popstate', function () { setTimeout(updateAll, 50); });
  // The playground applies the URL's state once it is ready.
  if (window.MutationObserver) {
    new MutationObserver(updateAll).observe(document.documentElement, { attributes: true, attributeFilter: ['data-ready'] });
  }
  updateAll();
})();
