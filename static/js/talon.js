// Display settings for dim pub light, remembered on this device (localStorage), applied before first paint.
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
    if (error) {
      error.scrollIntoView({ block: "center" });
      var input = error.querySelector("input:not([type=hidden]), select, textarea");
      if (input && document.activeElement !== input) input.focus({ preventScroll: true });
    } else if (live) {
      live.scrollIntoView({ block: "start" });
    }
  });
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
  function say(text) {
    var status = document.getElementById("share-status");
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
          say(button.dataset.done);
        },
        function () {
          field.select();
          say(button.dataset.failed);
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
