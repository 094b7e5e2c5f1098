// embed-frame.js: runs inside an embed page (/LANG/embed/NAME/), before
// the loader (app.js) starts the playground.
//
//  - Parameters: the embed takes the calculator's parameters as plain
//    query keys (?q=0.9&n=5); the playground reads them prefixed by the
//    widget's id (?NAME.q=0.9), so they are rewritten in place first.
//    A key the calculator does not have, and a value it refuses, show a
//    message at the top of the embed (the widget keeps its defaults).
//  - Height: whenever the page's height changes it posts
//    {type: "retrylab:height", id: ID, height: PIXELS} to the parent
//    window; ID is the query's "id" (the host's name for the frame), else
//    the widget's id. site/assets/embed.js, on the host page, applies it.
(function () {
  'use strict';
  // The embed protocol, from Go (site/widget's Embed* constants; the
  // build writes the object, site/pages EmbedProtocol).
  var P = /*EMBED_PROTOCOL*/{};
  var root = document.documentElement;
  var widget = document.querySelector('[data-widget]');
  var banner = document.querySelector('[data-embed-error]');
  if (!widget) { return; }
  var wid = widget.id;
  var search = window.location.search.replace(/^\?/, '');
  var frameID = wid;
  var names = [];
  function collect(within) {
    var fields = within.querySelectorAll('[data-field]');
    for (var i = 0; i < fields.length; i++) { names.push(fields[i].getAttribute('data-field')); }
  }
  collect(widget);
  // fields inside <noscript data-fields> ("more parameters") are text
  // until the widget's fields are made (player.js retrylabFields): read
  // their names in an inert template
  var more = widget.querySelectorAll('noscript[data-fields]');
  for (var m = 0; m < more.length; m++) {
    if (more[m].firstElementChild) { continue; } // parsed as elements: collected above
    var t = document.createElement('template');
    t.innerHTML = more[m].textContent;
    collect(t.content);
  }

  function show(msg) {
    if (!banner) { return; }
    banner.textContent = msg;
    banner.hidden = false;
  }
  function expand(t, kv) {
    return t.replace(/\{(\w+)\}/g, function (m, k) { return Object.prototype.hasOwnProperty.call(kv, k) ? kv[k] : m; });
  }

  // Rewrite ?q=0.9 into ?ID.q=0.9 for the playground.
  if (search) {
    var out = [];
    var unknown = '';
    var parts = search.split('&');
    for (var j = 0; j < parts.length; j++) {
      if (!parts[j]) { continue; }
      var kv = parts[j].split('=');
      var key;
      try { key = decodeURIComponent(kv[0].replace(/\+/g, ' ')); } catch (e) { key = kv[0]; }
      if (key === P.idKey) {
        try { frameID = decodeURIComponent((kv[1] || '').replace(/\+/g, ' ')).slice(0, 100) || wid; } catch (e) { /* keep */ }
        out.push(parts[j]);
      } else if (key.indexOf('.') >= 0) {
        out.push(parts[j]); // already the playground's form
      } else if (names.indexOf(key) >= 0) {
        out.push(encodeURIComponent(wid + '.' + key) + (kv.length > 1 ? '=' + kv.slice(1).join('=') : '='));
      } else if (!unknown) {
        unknown = key;
      }
    }
    if (unknown) {
      show(expand(banner.getAttribute('data-msg-param') || 'unknown parameter {name}', { name: unknown, names: names.join(', ') }));
    }
    var next = out.length ? '?' + out.join('&') : '';
    if (next !== window.location.search) {
      try { window.history.replaceState(null, '', window.location.pathname + next + window.location.hash); } catch (e) { /* keep */ }
    }
  }

  // A value the calculator refuses: the playground writes the message
  // beside the field; say so at the top too.
  function checkErrors() {
    if (root.getAttribute('data-ready') !== 'true' || !banner || !banner.hidden) { return; }
    if (widget.querySelector('.widget-error:not([hidden])') && window.location.search.indexOf(wid + '.') >= 0) {
      show(banner.getAttribute('data-msg-value') || 'bad value');
    }
  }
  if (window.MutationObserver) {
    new MutationObserver(checkErrors).observe(root, { attributes: true, attributeFilter: ['data-ready'] });
  }

  // Height to the parent.
  var last = -1;
  function post() {
    if (window.parent === window) { return; } // not in a frame: no layout to force
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h === last) { return; }
    last = h;
    window.parent.postMessage({ type: P.heightMessage, id: frameID, height: h }, '*');
  }
  if (window.ResizeObserver) {
    new ResizeObserver(post).observe(document.documentElement);
  } else {
    window.addEventListener('resize', post);
    setInterval(post, 500);
  }
  window.addEventListener('load', post);
  // a disclosure ("more parameters", "all results") opening or closing
  // changes the height at once: say so without waiting for a resize
  // (toggle does not bubble: listen in the capture phase)
  document.addEventListener('toggle', function () { last = -1; post(); }, true);
  // the first height: ResizeObserver reports it once the page is laid
  // out; measuring here, while the page is parsed, forced a layout of
  // the whole widget (a long task on a phone: site/e2e/cmd/longtasks)
  if (!window.ResizeObserver) { post(); }
})();
