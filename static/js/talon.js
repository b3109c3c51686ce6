// Display settings for dim pub light, remembered on this device (localStorage), applied before first paint.
var Talon = window.Talon || (window.Talon = {});
(function () {
  var root = document.documentElement;
  root.classList.add("js");
  function apply() {
    root.dataset.theme = localStorage.getItem("talon-theme") || "light";
    root.classList.toggle("large-text", localStorage.getItem("talon-large-text") === "1");
    showChoices();
  }
  // Which theme and text size are on: the pressed buttons, and their names in the menu's summary.
  function showChoices() {
    var now = document.querySelector("[data-display-now]");
    if (!now) return; // before the page is parsed: DOMContentLoaded calls again
    var names = [];
    document.querySelectorAll("[data-theme-choice]").forEach(function (button) {
      var on = button.dataset.themeChoice === root.dataset.theme;
      button.setAttribute("aria-pressed", String(on));
      if (on) names.push(button.textContent.trim());
    });
    var size = document.querySelector("[data-text-size-toggle]");
    var large = root.classList.contains("large-text");
    size.setAttribute("aria-pressed", String(large));
    if (large) names.push(size.textContent.trim());
    now.textContent = names.join(" · ");
  }
  apply();
  document.addEventListener("DOMContentLoaded", showChoices);
  // A change to a field marked data-refresh (the contract, the game, the preset) redraws its form for the new
  // choice through htmx. Done here rather than with an hx-trigger filter, which htmx evaluates with eval()
  // and the Content-Security-Policy forbids.
  document.addEventListener("change", function (event) {
    var field = event.target.closest("[data-refresh]");
    if (!field || !field.form || !window.htmx) return;
    var form = field.form;
    // Taps while the form is being redrawn would be lost with the old form: hold them until it is back.
    form.setAttribute("aria-busy", "true");
    htmx
      .ajax((form.dataset.refreshMethod || "get").toUpperCase(), form.dataset.refreshUrl, {
        source: form,
        target: "#" + form.id,
        swap: "outerHTML",
        values: { _refresh: "1" },
      })
      .finally(function () {
        form.removeAttribute("aria-busy");
      });
  });
  // The hand form asks each field only when the values chosen so far make it matter: each field, and each choice
  // that only some hands allow, carries its condition (data-show; ledger/hand_forms/conditions.py, which the server
  // evaluates alike). Evaluated here at every tap, so no tap waits for the server or is lost to a redraw, online,
  // offline or while anything starts. A field not asked is disabled, so it is not posted.
  function holds(when, values) {
    var value = values[when[1]] || "";
    switch (when[0]) {
      case "is":
        return when[2].indexOf(value) >= 0;
      case "given":
        return value !== "" && value !== "0";
      case "filled":
        return value !== "";
      case "all":
        return when.slice(1).every(function (part) {
          return holds(part, values);
        });
      case "any":
        return when.slice(1).some(function (part) {
          return holds(part, values);
        });
      case "not":
        return !holds(when[1], values);
    }
    return true;
  }
  function conditionOf(element) {
    if (!element.talonWhen) element.talonWhen = JSON.parse(element.dataset.show);
    return element.talonWhen;
  }
  // The values as the browser would post them if every field were asked: a radio's checked value, "on" for a
  // ticked box, "" for none.
  function valuesOf(form) {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (control) {
      if (!control.name || control.type === "submit" || control.type === "button") return;
      var unticked = (control.type === "radio" || control.type === "checkbox") && !control.checked;
      if (!unticked) values[control.name] = control.value;
      else if (!(control.name in values)) values[control.name] = "";
    });
    return values;
  }
  // The values of the asked fields only (an unasked field is empty to the others' conditions), settled in a few
  // passes as the server does (conditions.asked_values).
  function askedValues(parts, values) {
    var known = new Set(
      parts.map(function (part) {
        return part.dataset.field;
      }),
    );
    var current = values;
    for (var pass = 0; pass <= parts.length; pass++) {
      var asked = {};
      parts.forEach(function (part) {
        if (holds(conditionOf(part), current)) asked[part.dataset.field] = true;
      });
      var next = {};
      var changed = false;
      Object.keys(values).forEach(function (name) {
        if (!known.has(name) || asked[name]) next[name] = values[name];
        if ((next[name] || "") !== (current[name] || "")) changed = true;
      });
      current = next;
      if (!changed) break;
    }
    return current;
  }
  function setAsked(element, asked) {
    element.hidden = !asked;
    var controls = element.matches("input, button") ? [element] : element.querySelectorAll("input, select, textarea, button");
    controls.forEach(function (control) {
      // A choice this hand does not allow is no answer: taken back, so the field asks for one again ("—", which
      // answers nothing, stays for when it is offered again).
      if (!asked && control.checked && element.tagName === "LABEL" && control.value !== "") control.checked = false;
      control.disabled = !asked;
    });
  }
  function applyLayout(form) {
    var parts = Array.prototype.slice.call(form.querySelectorAll("[data-field][data-show]"));
    var values = askedValues(parts, valuesOf(form));
    parts.forEach(function (part) {
      setAsked(part, holds(conditionOf(part), values));
    });
    form.querySelectorAll("[data-show]:not([data-field])").forEach(function (element) {
      var container = element.parentElement.closest("[data-field]");
      setAsked(element, (!container || !container.hidden) && holds(conditionOf(element), values));
    });
  }
  function applyLayouts(root) {
    (root || document).querySelectorAll("form[data-layout]").forEach(applyLayout);
  }
  Talon.applyLayouts = applyLayouts;
  document.addEventListener("DOMContentLoaded", function () {
    applyLayouts();
  });
  // htmx draws a new form after Record or a refused hand; the offline worker draws one too (it calls applyLayouts).
  document.addEventListener("htmx:load", function (event) {
    var form = event.target.closest ? event.target.closest("form[data-layout]") : null;
    if (form) applyLayout(form);
    else if (event.target.querySelectorAll) applyLayouts(event.target);
  });
  ["change", "input"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.form;
      if (!form || !form.matches("form[data-layout]")) return;
      if (type === "change") tapped(form, event.target);
      applyLayout(form);
    });
  });
  // Each tap is kept on its form, so that a form drawn anew for the same hand takes it over: the answer to Record
  // arriving while the next hand is already being tapped (it takes 0.7 to 2 s on a pub's line), or the offline
  // engine drawing the next hand's form for the right dealer once it has started. No tap is lost or reverted.
  function tapped(form, control) {
    if (!control.name || control.type === "hidden") return;
    form.talonTaps = form.talonTaps || [];
    form.talonTaps.push({ name: control.name, type: control.type, value: control.value, checked: control.checked });
  }
  function replay(form, taps) {
    taps.forEach(function (tap) {
      Array.prototype.forEach.call(form.elements, function (control) {
        if (control.name !== tap.name || control.type !== tap.type) return;
        if (tap.type === "radio") {
          if (control.value === tap.value) control.checked = true;
        } else if (tap.type === "checkbox") {
          if (control.value === tap.value) control.checked = tap.checked;
        } else {
          control.value = tap.value;
        }
      });
    });
    form.talonTaps = taps.slice();
    applyLayout(form);
  }
  // A form drawn for the next hand ignores taps on its record buttons until half a second has passed since the last
  // Record: the second tap of a double tap would otherwise record the next hand with its defaults. On a slow line
  // the answer comes later than that, and nothing is held back.
  var DOUBLE_TAP_MS = 500;
  var recordedAt = 0;
  function settleFresh(form) {
    var left = DOUBLE_TAP_MS - (performance.now() - recordedAt);
    if (left <= 0) return;
    form.classList.add("fresh");
    setTimeout(function () {
      form.classList.remove("fresh");
    }, left);
  }
  var sent = null; // the form whose hand is on its way, and how many of its taps were sent with it
  Talon.handSent = function (form) {
    recordedAt = performance.now();
    sent = { form: form, taps: (form.talonTaps || []).length };
  };
  // The taps made since the hand was sent: for the form drawn next.
  function tapsSinceSent(form) {
    return sent && sent.form === form ? (form.talonTaps || []).slice(sent.taps) : form.talonTaps || [];
  }
  // The hand was kept on the phone (offline.js): the same form starts the next hand from its defaults, with a new
  // key, and the taps made since Record. The phone has seen one hand more: the kept one.
  Talon.startNextHand = function (form, key) {
    var taps = tapsSinceSent(form);
    sent = null;
    form.reset();
    if (form.elements.key) form.elements.key.value = key;
    var after = form.elements.after;
    if (after && /^\d+$/.test(after.value)) after.value = String(Number(after.value) + 1);
    replay(form, taps);
    settleFresh(form);
  };
  // A form drawn anew for the hand being tapped (offline.js): it takes over the taps of the one it replaces.
  Talon.takeOverTaps = function (from, to) {
    replay(to, from.talonTaps || []);
  };
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.matches && form.matches("form[data-layout]") && event.detail.requestConfig.verb === "post") {
      Talon.handSent(form);
    }
  });
  document.addEventListener("htmx:load", function (event) {
    var drawn = event.target;
    if (!drawn.matches) return;
    // The form alone (the answer's out-of-band part) or inside the whole table drawn anew.
    var form = drawn.matches("form[data-layout]") ? drawn : drawn.querySelector("form[data-layout]");
    if (!form || !sent || sent.form === form) return;
    var taps = tapsSinceSent(sent.form);
    var stored = !form.elements.key || !sent.form.elements.key || form.elements.key.value !== sent.form.elements.key.value;
    sent = null;
    replay(form, taps);
    if (stored) settleFresh(form);
  });
  // A conflict's panel (another phone recorded the hand first: templates/ledger/_hand_conflict.html) stays until its
  // player chooses. The page's own answers (Record, a choice, Undo) say whether one is shown; a live part pushed
  // meanwhile (another phone's change: static/js/seats.js) brings the table as it is now, and the panel back on top.
  var conflict = null;
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "table-live") conflict = document.getElementById("hand-conflict");
  });
  document.addEventListener("talon:seats-redrawn", function () {
    var live = document.getElementById("table-live");
    if (!conflict || !live || document.getElementById("hand-conflict")) return;
    live.prepend(conflict);
  });
  // A number field of the hand form (card points) is replaced, not appended to: the first tap into it selects what
  // it says, so the digits typed next are the whole number (the select-all a keyboard would need is one tap less).
  var justFocused = null;
  document.addEventListener("focusin", function (event) {
    var target = event.target;
    justFocused = target.matches && target.matches("#hand-form input[inputmode=numeric]") ? target : null;
  });
  document.addEventListener("click", function (event) {
    if (justFocused && event.target === justFocused) justFocused.select();
    justFocused = null;
  });
  // Keep the scorekeeper's place when the table is redrawn after Record, Undo or a refused hand: a refused hand
  // brings its first error to the middle of the screen (the field already has the cursor: autofocus); anything
  // else shows the scoreboard and the status line at the top. A redraw of the form alone (a new contract) stays put.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "table-live") return;
    var live = document.getElementById("table-live");
    var error = live && live.querySelector(".has-error, #hand-form [role=alert]");
    var panel = document.getElementById("hand-conflict");
    if (panel && live.contains(panel)) {
      panel.scrollIntoView({ block: "start" });
      panel.focus({ preventScroll: true });
    } else if (error) {
      error.scrollIntoView({ block: "center" });
      var input = error.querySelector("input:not([type=hidden]), select, textarea");
      if (input && document.activeElement !== input) input.focus({ preventScroll: true });
    } else if (live) {
      scrollToLive(live);
      announceAgain(document.getElementById("table-status"));
    }
  });
  // The top of the table (scoreboard, status line, the next hand's first choices) at the top of the screen, clear of
  // the top bar: on a phone the bar slides away for this scroll, unless it stays to show that the phone is offline.
  var phone = window.matchMedia("(max-width: 1023px)");
  var quietUntil = 0; // the page's own scrolling: the bar does not come back for it
  function barStays(bar) {
    return !phone.matches || !bar.closest(".table-page") || Boolean(bar.querySelector(".connection.is-offline:not([hidden])"));
  }
  function scrollToLive(live) {
    var bar = document.querySelector(".topbar");
    var covered = bar && barStays(bar) && getComputedStyle(bar).position === "sticky" ? bar.offsetHeight : 0;
    quietUntil = performance.now() + 800;
    if (bar && !covered) bar.classList.add("slid-away");
    window.scrollTo({ top: Math.max(0, live.getBoundingClientRect().top + window.scrollY - covered - 8) });
  }
  // On a phone's table page the top bar slides away while the page scrolls down and comes back on a swipe up, so the
  // display settings and the log-out stay one swipe away without covering the scoreboard.
  // A swipe is measured from where the page last turned, not per event: a slow swipe or a smooth scroll moves a few
  // pixels per event, and would never count.
  var lastY = window.scrollY;
  var turnY = lastY;
  window.addEventListener(
    "scroll",
    function () {
      var bar = document.querySelector(".table-page .topbar");
      var y = window.scrollY;
      if (!bar) return;
      if ((y - lastY) * (lastY - turnY) < 0) turnY = lastY;
      if (barStays(bar) || y <= bar.offsetHeight) bar.classList.remove("slid-away");
      else if (y > turnY + 2 || performance.now() < quietUntil) bar.classList.add("slid-away");
      else if (y < turnY - 8) bar.classList.remove("slid-away");
      lastY = y;
    },
    { passive: true },
  );
  // A whole table drawn anew brings a new status line: a screen reader reads a live region's changes, not a new
  // region, so its content is put in once more.
  function announceAgain(status) {
    if (!status || !status.firstElementChild) return;
    var content = Array.prototype.slice.call(status.childNodes);
    status.replaceChildren();
    requestAnimationFrame(function () {
      status.replaceChildren.apply(status, content);
    });
  }
  // The table form names the first dealer by the players' names as they are typed into the seats (the server
  // draws "Seat 3" for a seat still empty, and the names once it knows them).
  document.addEventListener("input", function (event) {
    var seat = event.target.id && event.target.id.match(/^id_player_(\d+)$/);
    var label = seat && document.querySelector('label[for="id_first_dealer_' + seat[1] + '"] span');
    if (!label) return;
    label.textContent = event.target.value.trim() || label.dataset.seat;
  });
  // The share link: Copy, and the phone's own share sheet where the browser has one (the button stays hidden
  // elsewhere). The page works without either: the link is in a field to select, and its QR code is beside it.
  document.addEventListener("DOMContentLoaded", function () {
    if (!navigator.share) return;
    document.querySelectorAll("[data-share]").forEach(function (button) {
      button.hidden = false;
    });
  });
  function say(text, where) {
    var status = document.getElementById(where || "share-status");
    if (status) status.textContent = text;
  }
  function copyLink(button) {
    var field = document.getElementById(button.dataset.copy);
    var copied = navigator.clipboard
      ? navigator.clipboard.writeText(field.value)
      : Promise.reject(new Error("no clipboard"));
    copied
      .catch(function () {
        // Older browsers and plain-HTTP pages have no clipboard API: copy the selected text the old way.
        field.select();
        if (!document.execCommand("copy")) throw new Error("copy refused");
      })
      .then(
        function () {
          say(button.dataset.done, button.dataset.status);
        },
        function () {
          field.select();
          say(button.dataset.failed, button.dataset.status);
        },
      );
  }
  function shareLink(button) {
    var field = document.getElementById(button.dataset.share);
    navigator.share({ title: button.dataset.shareTitle, url: field.value }).catch(function () {
      // Closed without sharing: nothing to say.
    });
  }
  document.addEventListener("click", function (event) {
    var copyButton = event.target.closest("[data-copy]");
    if (copyButton) copyLink(copyButton);
    var shareButton = event.target.closest("[data-share]");
    if (shareButton) shareLink(shareButton);
    var themeButton = event.target.closest("[data-theme-choice]");
    if (themeButton) {
      localStorage.setItem("talon-theme", themeButton.dataset.themeChoice);
      apply();
    }
    var quick = event.target.closest("[data-set]");
    if (quick) {
      // One-tap values for a number field (points by tens); the field stays editable by hand.
      var input = document.getElementById(quick.dataset.set);
      input.value = quick.dataset.value;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
    if (event.target.closest("[data-text-size-toggle]")) {
      localStorage.setItem("talon-large-text", root.classList.contains("large-text") ? "0" : "1");
      apply();
    }
  });
})();
