// The projector's pages (templates/ledger/tournaments/tournament_projector.html): the whole field on the wall, however many
// players. A page holds as many rows as fit below the table's head in the window (the height left / a row's
// height); the pages take turns every 10 s, "Page 2 of 5" under them. Counted again whenever the rows are drawn
// anew (static/js/standings.js from the live line, htmx while it is down) or the window changes size.
(function () {
  var pager = document.querySelector("[data-pages]");
  var live = document.getElementById("standings-live");
  if (!pager || !live) return;

  var PAGE_MS = 10000;
  var MARGIN = 8; // px kept free under the indicator
  var page = 0;

  function paginate() {
    var body = live.querySelector("table.standings [data-rows]");
    var rows = body ? Array.prototype.slice.call(body.rows) : [];
    rows.forEach(function (row) {
      row.hidden = false;
    });
    if (!rows.length) {
      pager.hidden = true;
      return;
    }
    var rowHeight = 0;
    rows.forEach(function (row) {
      rowHeight = Math.max(rowHeight, row.getBoundingClientRect().height);
    });
    pager.hidden = false; // measured with its text: one line, as on every page
    pager.textContent = pager.getAttribute("data-template") || "";
    var below = pager.getBoundingClientRect().height + MARGIN;
    var top = body.getBoundingClientRect().top + window.scrollY;
    var perPage = Math.max(1, Math.floor((window.innerHeight - top - below) / rowHeight));
    var pages = Math.ceil(rows.length / perPage);
    if (page >= pages) page = 0;
    rows.forEach(function (row, index) {
      row.hidden = Math.floor(index / perPage) !== page;
    });
    pager.hidden = pages < 2;
    pager.setAttribute("data-page", String(page + 1));
    pager.setAttribute("data-count", String(pages));
    pager.setAttribute("data-height", String(window.innerHeight)); // what the pages were counted for
    pager.textContent = (pager.getAttribute("data-template") || "")
      .replace("{page}", String(page + 1))
      .replace("{pages}", String(pages));
  }

  // New rows (a pushed message, an htmx swap), counted before they are painted; not the clock's text every
  // second, nor the rows this script hides (an attribute).
  new MutationObserver(function (changes) {
    for (var i = 0; i < changes.length; i++) {
      var target = changes[i].target;
      if (target === live || (target.hasAttribute && target.hasAttribute("data-rows"))) return paginate();
    }
  }).observe(live, { childList: true, subtree: true });
  window.addEventListener("resize", paginate);
  window.addEventListener("load", paginate); // the rows' height with the page's fonts
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(paginate);
  setInterval(function () {
    page += 1; // past the last page, paginate() starts again at the first
    paginate();
  }, PAGE_MS);
  paginate();
})();
