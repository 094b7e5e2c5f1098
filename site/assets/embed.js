// embed.js: for a page that frames retrylab embeds (/LANG/embed/NAME/).
// Include it once, anywhere in the page:
//
//   <script src="https://HOST/embed.js" defer></script>
//
// (the snippet a widget's "embed" control and the oEmbed answers give
// carry it; BASE/assets/embed.HASH.js is the same file).
//
// Every embed posts its height to its parent as
// {type: "retrylab:height", id: ID, height: PIXELS} whenever it changes;
// this script sets the height of the iframe that sent it, and of no other:
// the iframe's src must be one of our embed pages (BASE/LANG/embed/NAME/,
// BASE being the folder of this script, or of its assets/ folder) on this script's
// own origin, the message must come from that origin and from that
// iframe's window, and the height must be a number (not a string), finite,
// from 1 to site/widget's EmbedMaxHeight (50000) pixels. So the widget is never cut and never leaves a
// gap, and no other frame of the page can resize itself through this
// script. Without it the iframe keeps its own height attribute and
// scrolls.
(function () {
  'use strict';
  if (window.retrylabEmbedHost) { return; }
  // The embed protocol, from Go (site/widget's Embed* constants; the
  // build writes the object, site/pages EmbedProtocol).
  var P = /*EMBED_PROTOCOL*/{};
  window.retrylabEmbedHost = true;
  var me = document.currentScript && document.currentScript.src;
  if (!me) { return; } // not loaded by a script element: nothing to trust
  var self;
  try { self = new URL(me, document.baseURI); } catch (e) { return; }
  // The script lives at BASE/embed.js (the stable address the pasted
  // snippets name) or at BASE/assets/embed.HASH.js.
  var base = self.pathname.replace(/(?:assets\/)?[^\/]*$/, '');
  if (base === self.pathname) { return; }
  var embedPath = new RegExp('^[a-z]{2}(?:-[A-Za-z0-9]+)*/' + P.dir + '/[a-z0-9]+(?:-[a-z0-9]+)*/(?:index\\.html)?$');
  // ours reports whether src is one of our embed pages.
  function ours(src) {
    var u;
    try { u = new URL(src, document.baseURI); } catch (e) { return false; }
    if (u.origin !== self.origin || u.pathname.indexOf(base) !== 0) { return false; }
    return embedPath.test(u.pathname.slice(base.length));
  }
  window.addEventListener('message', function (ev) {
    if (ev.origin !== self.origin) { return; }
    var d = ev.data;
    if (!d || typeof d !== 'object' || d.type !== P.heightMessage) { return; }
    if (typeof d.height !== 'number' || !isFinite(d.height)) { return; }
    var h = Math.ceil(d.height);
    if (h < 1 || h > P.maxHeight) { return; }
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      if (f.contentWindow !== ev.source || !ours(f.src)) { continue; }
      f.style.height = h + 'px';
      f.setAttribute('data-retrylab-height', String(h));
    }
  });
})();
