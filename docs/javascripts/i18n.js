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
  var hash = location.hash || nearestAnchor();
  if (hash) {
    var target = new URL(link.href, location.href);
    target.hash = hash;
    link.href = target.href;
  }
}, true);

// A reader who scrolled (no anchor in the address) lands on the nearest rule, option or
// example above the top of the screen: those anchors are the same in both languages, while
// other headings' anchors are spelled in each language's words.
function nearestAnchor() {
  var shared = /^(R-[A-Z]{3}-[0-9]{2}|option-.+|example-.+)$/;
  var best = "";
  document.querySelectorAll(".md-content [id]").forEach(function (node) {
    if (shared.test(node.id) && node.getBoundingClientRect().top <= 80) {
      best = "#" + node.id;
    }
  });
  return best;
}

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
