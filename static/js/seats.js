// A table seen from several phones (templates/ledger/seats/): the scorekeeper's table page and a seated phone's page
// listen on the table's live line (ledger/seats/streams.py) and fetch their live part when the line says that this
// table changed: a hand another phone recorded, a seat taken or let go, a hand confirmed. The first event of each
// connection is the table's state; after a reconnection the page fetches only what moved on meanwhile.
//
// A phone's own change never redraws the page over what its user is tapping: news of a revision the page already
// shows is ignored, and news that comes while the page's own request (Record, Undo, a conflict's choice) is on its way
// waits for its answer, which usually brings that revision itself. A redraw never takes a hand half-entered: while
// the hand form holds taps not yet recorded (talon.js keeps them on the form, also those carried over from the form
// before Record), the new live part keeps the phone's own form (htmx's hx-preserve), and its Record then meets the
// books' check of what the phone had seen. A conflict's panel stays until its player chooses.
//
// Offline, nothing is asked: the line is closed when the phone goes offline and opened again when it is back, and the
// list of seats is fetched once the phone is online (talon.js and offline.js ask nothing without a network either).
(function () {
  var script = document.querySelector("script[data-seats-stream]");
  if (!script) return;
  var streamUrl = script.getAttribute("data-seats-stream");
  var tableId = Number(script.getAttribute("data-seats-table"));
  var liveUrl = script.getAttribute("data-seats-live");
  var listUrl = script.getAttribute("data-seats-list");
  var BURST_MS = 200; // several changes within this time are fetched once

  var seen = pageRevision(document); // the newest revision of the table this page has drawn
  var lastSeats = null; // the seats' stamp of the line's last state
  var lastFeatures = null; // the features' stamp of the line's last state (confirmations, signatures)
  var listShown = false; // the list of seats was fetched
  var pendingLive = null;
  var pendingList = null;
  var own = new Set(); // the page's own requests on their way (their xhr)
  var wantRevision = 0; // the newest revision the line spoke of
  var wantOther = false; // news that carries no revision (a confirmation, a seat of this phone)

  // The revision a drawn live part (or the page) shows: its hand form's, or its own mark (the seated phone's), else
  // the page's when it was served.
  function pageRevision(root) {
    var input = root.querySelector("#hand-form input[name=table_revision]");
    if (input && /^\d+$/.test(input.value)) return Number(input.value);
    var marked = root.matches && root.matches("[data-table-revision]") ? root : root.querySelector("[data-table-revision]");
    if (marked) return Number(marked.getAttribute("data-table-revision"));
    return Number(script.getAttribute("data-seats-revision")) || 0;
  }
  function saw(revision) {
    if (revision > seen) seen = revision;
  }

  // A form holding taps not recorded yet: tapped here, or taking over the taps made while its hand was on its way;
  // or a refused hand, drawn with what was tapped and what is wrong with it.
  function holdsTaps(form) {
    if (!form) return false;
    return Boolean((form.talonTaps && form.talonTaps.length > 0) || form.querySelector("[role=alert], .has-error"));
  }

  function sameHand(mine, theirs) {
    var a = mine && mine.querySelector("input[name=table_revision]");
    var b = theirs.querySelector("input[name=table_revision]");
    return Boolean(a && b && a.value !== "" && a.value === b.value);
  }

  function ownRequest(event) {
    var target = event.detail && event.detail.target;
    return Boolean(target && (target.id === "table-live" || target.closest("#table-live")));
  }
  document.addEventListener("htmx:beforeSend", function (event) {
    if (ownRequest(event) && event.detail.xhr) own.add(event.detail.xhr);
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "table-live") saw(pageRevision(document));
  });
  function requestDone(event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || !own.delete(xhr)) return;
    saw(pageRevision(document)); // Record's answer swaps in its parts by their ids (out of band), not #table-live
    if (own.size === 0 && wanted()) soon(true, false); // what the answer did not bring
  }
  ["htmx:afterRequest", "htmx:sendError", "htmx:sendAbort", "htmx:timeout"].forEach(function (type) {
    document.addEventListener(type, requestDone);
  });

  function swapLive(drawn) {
    var live = document.getElementById("table-live");
    if (!live) return;
    var mine = document.getElementById("hand-form");
    var theirs = drawn.querySelector("#hand-form");
    // The page's form is kept when it holds taps, and also whenever it is the form of the same next hand (the same
    // table revision): drawn again it would be the same form, and a finger may be between two taps that left no mark
    // yet. A form of an older revision is replaced; one tapped anyway would meet the conflict check (its "after").
    if (theirs && (holdsTaps(mine) || sameHand(mine, theirs))) theirs.setAttribute("hx-preserve", "true");
    var conflict = document.getElementById("hand-conflict");
    if (conflict && live.contains(conflict) && !drawn.querySelector("#hand-conflict")) {
      // Kept as it is (the same element, with its focus) until its player chooses.
      var spot = document.createElement("section");
      spot.id = "hand-conflict";
      spot.setAttribute("hx-preserve", "true");
      drawn.prepend(spot);
    }
    if (window.htmx && htmx.swap) {
      htmx.swap(live, drawn.outerHTML, { swapStyle: "outerHTML" });
    } else {
      live.outerHTML = drawn.outerHTML;
    }
    document.dispatchEvent(new CustomEvent("talon:seats-redrawn"));
  }

  // Whether the line spoke of something the page does not show yet.
  function wanted() {
    return wantOther || wantRevision > seen;
  }
  function news(revision) {
    if (revision === null) wantOther = true;
    else if (revision > wantRevision) wantRevision = revision;
    if (own.size === 0) soon(true, false); // else when the page's own answer is in (requestDone)
  }

  function fetchLive() {
    pendingLive = null;
    // Offline: the line is closed meanwhile, and its state when back says what to fetch. The page's own request on
    // its way: its answer comes first (requestDone).
    if (!navigator.onLine || own.size > 0 || !wanted()) return;
    var other = wantOther;
    wantOther = false;
    var url = liveUrl + window.location.search;
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" })
      .then(function (answer) {
        return answer.ok ? answer.text() : null;
      })
      .then(function (html) {
        var drawn = html && new DOMParser().parseFromString(html, "text/html").getElementById("table-live");
        if (!drawn) return;
        if (own.size > 0) {
          wantOther = wantOther || other; // the page's own answer comes next: drawn over it, this one would be older
          return;
        }
        saw(pageRevision(drawn));
        swapLive(drawn);
      })
      .catch(function () {
        wantOther = wantOther || other; // the network went meanwhile: asked again when the line is back
      });
  }

  function fetchList() {
    pendingList = null;
    var list = document.getElementById("seat-list");
    if (!list || !window.htmx || !navigator.onLine) return;
    listShown = true;
    htmx.ajax("GET", listUrl, { target: list, swap: "outerHTML" });
  }

  function soon(live, list) {
    if (live && pendingLive === null) pendingLive = setTimeout(fetchLive, BURST_MS);
    if (list && listUrl && pendingList === null) pendingList = setTimeout(fetchList, BURST_MS);
  }

  function heard(event) {
    var data;
    try {
      data = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (typeof data.state === "string") {
      // A connection's first event: fetch what moved on since the page was drawn or the line last spoke.
      // "revision:seats|features": what the features above say moved (a confirmation, a signature) after the "|".
      var halves = data.state.split("|");
      var features = halves.slice(1).join("|");
      var featuresMoved = lastFeatures !== null && features !== lastFeatures;
      lastFeatures = features;
      var parts = halves[0].split(":");
      var revision = Number(parts[0]);
      var seats = parts.slice(1).join(":");
      var seatsMoved = lastSeats !== null && seats !== lastSeats;
      lastSeats = seats;
      if (revision > wantRevision) wantRevision = revision;
      if (featuresMoved) wantOther = true; // a dispute or an OK given while the line was away
      if (seatsMoved && !listUrl) wantOther = true; // the seated phone's whole part (it may be let in)
      if (wanted() && own.size === 0) soon(true, false); // also what was asked for before the network went
      if (listUrl && (seatsMoved || !listShown)) soon(false, true);
      return;
    }
    if (data.table !== undefined && data.table !== tableId) return; // another table of the evening
    if (data.seats) {
      if (listUrl) soon(false, true); // the scorekeeper's list
      else news(null); // the seated phone's whole part (it may be let in)
      return;
    }
    // A hand the page shows already (its own Record's answer drew it); any other news (a confirmation) is fetched.
    news(typeof data.hands === "number" && typeof data.revision === "number" ? data.revision : null);
  }

  var source = null;
  function open() {
    if (source || !window.EventSource || !navigator.onLine) return;
    source = new EventSource(streamUrl);
    source.onmessage = heard;
  }
  function close() {
    if (source) source.close();
    source = null;
  }
  window.addEventListener("offline", close);
  window.addEventListener("online", function () {
    open();
    if (listUrl && !listShown) fetchList();
  });
  if (listUrl) fetchList();
  open();
})();
