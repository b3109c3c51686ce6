// A tournament's live standings (templates/ledger/tournaments/_tournament_standings_live.html): the players' phones
// and the projector. The live line (ledger/tournaments/live.py, ledger/live) sends the standings and the round as
// JSON, first when it connects and then after every stored hand and every new round; this script draws them into
// the rows with textContent (never markup from the message), so a hand costs the server one push however many
// pages watch. While the line is down (no EventSource, a proxy that drops it, the link switched off) htmx asks
// for the server-drawn standings every few seconds instead (hx-trigger), answered 304 while nothing changed;
// while it is up, once a minute.
// The round clock counts down to the round's end by the server's clock, not the device's.
(function () {
  var live = document.getElementById("standings-live");
  if (!live) return;

  var MINUS = "\u2212";
  var ALIVE_MS = 10000; // a line that opened this recently counts as up (EventSource reconnects within seconds)
  var decimal = live.getAttribute("data-decimal") || ".";
  var serverNow = Date.parse(live.getAttribute("data-now") || "");
  var skew = isNaN(serverNow) ? 0 : serverNow - Date.now(); // the server's clock minus this device's
  var source = null;
  var lastOpen = 0;
  var lastMessage = 0; // when the line last brought the standings
  var stopped = false; // the link was switched off: nothing more will come
  var lastEtag = null;

  // ------------------------------------------------------------------------------------------------------------
  // Numbers as the server writes them (rules/i18n.py): decimal comma or point, a true minus sign; points with
  // their own places only, money with at least two and a plus on gains. Strings in, strings out: never a float.

  function parts(text) {
    var match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(text));
    if (!match) return null;
    var whole = match[2].replace(/^0+(?=\d)/, "");
    var fraction = (match[3] || "").replace(/0+$/, "");
    var zero = /^0+$/.test(whole) && fraction === "";
    return { negative: match[1] === "-" && !zero, zero: zero, whole: whole, fraction: fraction };
  }

  function number(text, least) {
    var found = parts(text);
    if (!found) return String(text);
    var fraction = found.fraction;
    while (fraction.length < least) fraction += "0";
    return (found.negative ? MINUS : "") + found.whole + (fraction ? decimal + fraction : "");
  }

  function money(text) {
    var found = parts(text);
    var shown = number(text, 2);
    return found && !found.negative && !found.zero ? "+" + shown : shown;
  }

  function moneySign(text) {
    var found = parts(text);
    if (!found || found.zero) return "";
    return found.negative ? "minus" : "plus";
  }

  // ------------------------------------------------------------------------------------------------------------
  // Drawing a message: the same markup as templates/ledger/tournaments/_tournament_standings.html

  function cell(tag, text, className, label) {
    var element = document.createElement(tag);
    element.textContent = text;
    if (className) element.className = className;
    if (label) element.setAttribute("data-label", label);
    return element;
  }

  // A number's column name, which a row stacked on a phone shows before it (the template's data-label).
  function labelOf(table, index) {
    var heading = table.querySelectorAll("thead th")[index];
    return heading ? heading.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function drawRows(rows) {
    var table = live.querySelector("table.standings");
    var body = table && table.querySelector("[data-rows]");
    if (!body || !Array.isArray(rows)) return;
    var withMoney = table.hasAttribute("data-money");
    var fresh = document.createDocumentFragment();
    rows.forEach(function (row) {
      var line = document.createElement("tr");
      line.appendChild(cell("td", String(row.rank), "num rank"));
      var name = cell("th", String(row.player), "player");
      name.setAttribute("scope", "row");
      line.appendChild(name);
      line.appendChild(cell("td", number(row.points, 0), "num points", labelOf(table, 2)));
      line.appendChild(cell("td", String(row.won), "num", labelOf(table, 3)));
      line.appendChild(cell("td", String(row.lost), "num", labelOf(table, 4)));
      if (withMoney) {
        var sign = ("num money " + moneySign(row.money)).trim();
        line.appendChild(cell("td", money(row.money), sign, labelOf(table, 5).split(" ").pop()));
      }
      fresh.appendChild(line);
    });
    body.replaceChildren(fresh);
    var empty = live.querySelector("[data-empty]");
    if (empty) empty.hidden = rows.length > 0;
  }

  function drawRound(round, status) {
    var label = live.querySelector("[data-round-label]");
    var clock = live.querySelector("[data-clock]");
    if (label && round) {
      label.textContent = (label.getAttribute("data-template") || "")
        .replace("{number}", String(round.number))
        .replace("{rounds}", String(round.rounds));
    }
    if (clock) {
      clock.setAttribute("data-ends", (round && round.ends_at) || "");
      clock.toggleAttribute("data-finished", status === "finished");
    }
    tick();
  }

  // ------------------------------------------------------------------------------------------------------------
  // The round clock: the time left (1:05:09, 12:04, 0:59), then "Time"; "Finished" once the tournament is over.

  function clockText(seconds) {
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    var pad = function (value) {
      return value < 10 ? "0" + value : String(value);
    };
    return hours ? hours + ":" + pad(minutes) + ":" + pad(rest) : minutes + ":" + pad(rest);
  }

  function tick() {
    var clock = live.querySelector("[data-clock]");
    if (!clock) return;
    var text = "";
    var over = false;
    if (clock.hasAttribute("data-finished")) {
      text = clock.getAttribute("data-finished-text") || "";
    } else {
      var ends = Date.parse(clock.getAttribute("data-ends") || "");
      if (!isNaN(ends)) {
        var left = Math.floor((ends - (Date.now() + skew)) / 1000);
        over = left <= 0;
        text = over ? clock.getAttribute("data-time") || "" : clockText(left);
      }
    }
    if (clock.textContent !== text) clock.textContent = text;
    clock.classList.toggle("over", over);
  }

  tick();
  setInterval(tick, 1000);

  // ------------------------------------------------------------------------------------------------------------
  // The live line, and the fallback while it is down

  function lineIsUp() {
    if (source && source.readyState === 1) return true; // EventSource.OPEN
    return Date.now() - lastOpen < ALIVE_MS;
  }

  // Each message carries the version of the books it was drawn from ([rounds, the tables' revisions summed,
  // finished]); two hands stored at once may publish in the other order, and the older must not win.
  var lastVersion = null;

  function isOlder(version) {
    if (!Array.isArray(version) || !lastVersion) return false;
    for (var i = 0; i < version.length; i++) {
      if (version[i] !== lastVersion[i]) return version[i] < lastVersion[i];
    }
    return false;
  }

  function connect() {
    var url = live.getAttribute("data-stream");
    if (!url || !window.EventSource || stopped) return;
    source = new EventSource(url);
    source.onopen = function () {
      lastOpen = Date.now();
    };
    source.onmessage = function (event) {
      lastOpen = lastMessage = Date.now();
      var data;
      try {
        data = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (data && data.gone) {
        // The organiser renewed the link: this line ends, and the next ask gets the 404 and says so.
        source.close();
        lastOpen = lastMessage = 0;
        return;
      }
      if (data && data.resync) {
        // The server lost messages (Redis was away): a new connection starts with the standings as they are.
        source.close();
        connect();
        return;
      }
      if (!data || isOlder(data.version)) return;
      if (Array.isArray(data.version)) lastVersion = data.version;
      if (Array.isArray(data.standings)) drawRows(data.standings);
      if ("round" in data) drawRound(data.round, data.status);
    };
  }

  // While the line is up it brings the standings by itself; one ask a minute still goes out (a 304 as a rule), in
  // case a proxy holds the line open but passes nothing on, as static/js/share.js does.
  var ASK_WHILE_LIVE_MS = 60000;
  var lastAsk = Date.now();
  document.addEventListener("htmx:confirm", function (event) {
    if (event.detail.elt !== live) return;
    if (stopped || (lineIsUp() && Date.now() - lastAsk < ASK_WHILE_LIVE_MS)) {
      event.preventDefault();
      return;
    }
    lastAsk = Date.now();
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (detail.target !== live) return;
    var status = detail.xhr.status;
    if (status === 304) {
      detail.shouldSwap = false;
      return;
    }
    if (status === 404) {
      // The organiser switched the link off: say so in place of the standings, and stop asking.
      detail.shouldSwap = true;
      detail.isError = false;
      stopped = true;
      if (source) source.close();
      return;
    }
    if (lastMessage > lastAsk) {
      detail.shouldSwap = false; // the line brought newer standings while this answer was on its way
      return;
    }
    var etag = detail.xhr.getResponseHeader("ETag");
    if (etag && etag === lastEtag) detail.shouldSwap = false; // the browser's cached copy: nothing new
    lastEtag = etag;
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target === live) tick(); // the server drew the clock as of its answer: count on from here
  });

  connect();
})();
