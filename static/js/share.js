// The share page (templates/ledger/shared_evening.html) follows the score by itself: every 5 seconds htmx asks
// for the live part again, and at once when the live line (the second part below) says a hand changed. Loaded
// after the vendored idiomorph extension, on the share page only.
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

// The live line (ledger/live): the server says when a hand was stored, corrected or
// voided, and the page fetches its live part at once instead of at the next poll. While the line is open, the
// 5-second poll is skipped but for one a minute (closing the evening or marking a transfer paid say nothing on
// the line); whenever it fails, EventSource tries again by itself and the poll carries on meanwhile.
(function () {
  var live = document.getElementById("shared-live");
  var streamUrl = live && live.getAttribute("data-stream");
  if (!streamUrl || !window.EventSource || !window.htmx) return;

  var POLL_WHILE_LIVE_MS = 60000;
  var BURST_MS = 250; // several hands stored within this time are fetched once
  var connected = false;
  var lastState = null; // the fingerprint the line's first event carried, to see what a reconnect missed
  var lastFetch = Date.now();
  var fromLine = false;
  var pending = null;

  function fetchLive() {
    pending = null;
    fromLine = true;
    try {
      htmx.ajax("GET", live.getAttribute("hx-get"), { source: live, target: live, swap: "morph" });
    } finally {
      fromLine = false;
    }
  }

  function soon() {
    if (pending === null) pending = setTimeout(fetchLive, BURST_MS);
  }

  document.addEventListener("htmx:confirm", function (event) {
    if (event.detail.elt !== live) return;
    if (!fromLine && connected && Date.now() - lastFetch < POLL_WHILE_LIVE_MS) {
      event.preventDefault(); // the line will say when there is something new
      return;
    }
    lastFetch = Date.now();
  });

  var source = new EventSource(streamUrl);
  source.onopen = function () {
    connected = true;
  };
  source.onerror = function () {
    connected = false; // the poll takes over until EventSource is back
  };
  source.onmessage = function (event) {
    var data;
    try {
      data = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (typeof data.state === "string") {
      // Each connection starts with the page's fingerprint: fetch only if it moved on since the last one. The
      // first one is fetched anyway (a hand may have come between this page and the line): a 304 when it didn't.
      if (data.state !== lastState) soon();
      lastState = data.state;
      return;
    }
    soon();
  };

  // The scorekeeper switched the link off (the live part answered 404): nothing more will come.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt === live && event.detail.xhr && event.detail.xhr.status === 404) {
      source.close();
      connected = false;
    }
  });
})();
