// The language switch keeps the reader on the same rule. The i18n plugin links each page to
// its own copy in the other language; this adds the anchor the reader is at (rule ids are the
// same in both languages) and lets the browser follow the link. It listens first (capture on
// window) and stops the theme's own handler, which looks the page up in sitemap.xml and drops
// the anchor.
window.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[hreflang]");
  if (!link) {
    return;
  }
  event.stopImmediatePropagation();
  if (location.hash) {
    var target = new URL(link.href, location.href);
    target.hash = location.hash;
    link.href = target.href;
  }
}, true);
