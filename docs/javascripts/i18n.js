// The language switch keeps the reader on the same rule: the plugin links each language's
// copy of the current page, and this adds the anchor the reader is at (rule ids are the same
// in both languages). Material's instant navigation is off, so the page URL is the document's.
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[hreflang]");
  if (!link || !location.hash) {
    return;
  }
  var target = new URL(link.href, location.href);
  target.hash = location.hash;
  link.href = target.href;
});
