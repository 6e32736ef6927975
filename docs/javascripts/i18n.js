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

// Search offers the reader the sections of their own language only. The theme loads one index
// of both languages (Polish pages live under pl/) and hands it to its search worker in a
// setup message; this keeps the Polish sections on a Polish page and the others elsewhere,
// so a Polish query never lists an English page first.
(function () {
  var polish = document.documentElement.lang === "pl";
  var post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message) {
    var data = message && message.type === 0 && message.data;
    if (data && Array.isArray(data.docs)) {
      data.docs = data.docs.filter(function (doc) {
        return (doc.location.indexOf("pl/") === 0) === polish;
      });
    }
    return post.apply(this, arguments);
  };
})();
