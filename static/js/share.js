// The share page (templates/ledger/shared_evening.html) follows the score by itself: every 5 seconds htmx asks
// for the live part again. Loaded after the vendored idiomorph extension, on the share page only.
(function () {
  if (!window.htmx || !window.Idiomorph) return;

  // What changed is morphed into the page (hx-swap="morph") instead of replacing it, so what a player opened stays
  // open. The server draws every "Why?" closed: opening or closing one is the reader's choice, never the refresh's.
  var callbacks = Idiomorph.defaults.callbacks;
  var beforeAttributeUpdated = callbacks.beforeAttributeUpdated;
  callbacks.beforeAttributeUpdated = function (name, element, change) {
    if (name === "open" && element.tagName === "DETAILS") return false;
    return beforeAttributeUpdated(name, element, change);
  };

  // The browser revalidates each poll with the last ETag and hands htmx its cached copy when nothing changed (a
  // 304 behind the scenes): the same ETag twice, or a 304 that reaches the page, means there is nothing to swap.
  var lastEtag = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.target || detail.target.id !== "shared-live") return;
    var status = detail.xhr.status;
    if (status === 304) {
      detail.shouldSwap = false;
      return;
    }
    if (status === 404) {
      // The scorekeeper switched the link off: say so in place of the score (the answer stops the polling).
      detail.shouldSwap = true;
      detail.isError = false;
      return;
    }
    var etag = detail.xhr.getResponseHeader("ETag");
    if (etag && etag === lastEtag) detail.shouldSwap = false;
    lastEtag = etag;
  });
})();
