// embed.js: for a page that frames retrylab embeds (/LANG/embed/NAME/).
// Include it once, anywhere in the page:
//
//   <script src="https://HOST/assets/embed.HASH.js" defer></script>
//
// Every embed posts its height to its parent as
// {type: "retrylab:height", id: ID, height: PIXELS} whenever it changes;
// this script sets the height of the iframe that sent it (the message's
// origin must be the origin of the iframe's src), so the widget is never
// cut and never leaves a gap. Without it the iframe keeps its own height
// attribute and scrolls.
(function () {
  'use strict';
  if (window.retrylabEmbedHost) { return; }
  window.retrylabEmbedHost = true;
  window.addEventListener('message', function (ev) {
    var d = ev.data;
    if (!d || typeof d !== 'object' || d.type !== 'retrylab:height') { return; }
    var h = Math.ceil(Number(d.height));
    if (!isFinite(h) || h < 1 || h > 50000) { return; }
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      if (f.contentWindow !== ev.source) { continue; }
      var origin;
      try { origin = new URL(f.src, document.baseURI).origin; } catch (e) { continue; }
      if (origin !== ev.origin) { continue; }
      f.style.height = h + 'px';
      f.setAttribute('data-retrylab-height', String(h));
    }
  });
})();
