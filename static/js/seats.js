// A table seen from several phones (templates/ledger/seats/): the scorekeeper's table page and a seated phone's page
// listen on the table's live line (ledger/seats/streams.py) and fetch their live part when the line says that this
// table changed: a hand another phone recorded, a seat taken or let go, a hand confirmed. The first event of each
// connection is the table's state; after a reconnection the page fetches only if it moved on meanwhile.
//
// A redraw never takes a hand half-entered: while the hand form holds taps not yet recorded, the new live part keeps
// the phone's own form (htmx's hx-preserve), and its Record then meets the books' check of what the phone had seen.
(function () {
  var script = document.querySelector("script[data-seats-stream]");
  if (!script || !window.EventSource) return;
  var streamUrl = script.getAttribute("data-seats-stream");
  var tableId = Number(script.getAttribute("data-seats-table"));
  var liveUrl = script.getAttribute("data-seats-live");
  var listUrl = script.getAttribute("data-seats-list");
  var BURST_MS = 200; // several changes within this time are fetched once

  var dirty = false; // the hand form holds taps not recorded yet
  var lastState = null;
  var pendingLive = null;
  var pendingList = null;

  function formRevision() {
    var input = document.querySelector("#hand-form input[name=table_revision]");
    return input ? Number(input.value) : Number(script.getAttribute("data-seats-revision"));
  }

  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest("#hand-form")) dirty = true;
  });
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#hand-form")) dirty = true;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    // An answer of the page's own (Record, Undo) drew a fresh form.
    if (event.detail.target && event.detail.target.id === "table-live") dirty = false;
  });

  function swapLive(html) {
    var drawn = new DOMParser().parseFromString(html, "text/html").getElementById("table-live");
    var live = document.getElementById("table-live");
    if (!drawn || !live) return;
    var mine = document.getElementById("hand-form");
    var theirs = drawn.querySelector("#hand-form");
    var keep = dirty && mine && theirs;
    if (keep) theirs.setAttribute("hx-preserve", "true");
    if (window.htmx && htmx.swap) {
      htmx.swap(live, drawn.outerHTML, { swapStyle: "outerHTML" });
    } else {
      live.outerHTML = drawn.outerHTML;
    }
    if (!keep) dirty = false;
    document.dispatchEvent(new CustomEvent("talon:seats-redrawn"));
  }

  function fetchLive() {
    pendingLive = null;
    var url = liveUrl + window.location.search;
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" })
      .then(function (answer) {
        return answer.ok ? answer.text() : null;
      })
      .then(function (html) {
        if (html) swapLive(html);
      })
      .catch(function () {}); // offline: the next message or reconnection tries again
  }

  function fetchList() {
    pendingList = null;
    var list = document.getElementById("seat-list");
    if (!list || !window.htmx) return;
    htmx.ajax("GET", listUrl, { target: list, swap: "outerHTML" });
  }

  function soon(live, list) {
    if (live && pendingLive === null) pendingLive = setTimeout(fetchLive, BURST_MS);
    if (list && listUrl && pendingList === null) pendingList = setTimeout(fetchList, BURST_MS);
  }

  var source = new EventSource(streamUrl);
  source.onmessage = function (event) {
    var data;
    try {
      data = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (typeof data.state === "string") {
      // A connection's first event. The first ever: fetch only if a hand came between the page and the line.
      var revision = Number(data.state.split(":")[0]);
      if (lastState === null) {
        if (revision !== formRevision()) soon(true, true);
      } else if (data.state !== lastState) {
        soon(true, true);
      }
      lastState = data.state;
      return;
    }
    if (data.table !== undefined && data.table !== tableId) return; // another table of the evening
    if (data.seats) {
      soon(!listUrl, true); // the scorekeeper's list, or the seated phone's whole part (it may be let in)
      return;
    }
    // A hand this page recorded itself (its answer drew it already); any other news (a confirmation) is fetched.
    if (typeof data.hands === "number" && typeof data.revision === "number" && data.revision <= formRevision()) return;
    soon(true, false);
  };
})();
