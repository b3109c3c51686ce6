// Web Push for this phone: the opt-in button (templates/ledger/devices/_push_optin.html), on any page that includes
// it. The browser's permission is asked only when the button is tapped; the subscription the browser makes (with
// the server's VAPID public key) is posted to the server, which sends to it (ledger/devices/push.py); the service
// worker (static/js/sw.js) shows what arrives.
//
// What the button says is what is true on both ends: on only when this browser holds a subscription and the server
// has that same one switched on (switched off on the devices page, it shows off here).
(function () {
  "use strict";
  var Talon = (window.Talon = window.Talon || {});
  if (Talon.pushOptin) return; // the part included twice on a page: one script draws every box
  Talon.pushOptin = true;

  var boxes = Array.prototype.slice.call(document.querySelectorAll("[data-push-optin]"));
  if (!boxes.length) return;
  var first = boxes[0].dataset;
  var supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  var busy = false;

  // ---- Drawing --------------------------------------------------------------------------------------------------
  var BUTTON = { on: "buttonOff", off: "buttonOn", refused: "buttonRetry", failed: "buttonRetry" };
  var TEXT = {
    on: "textOn",
    off: "textOff",
    refused: "textRefused",
    failed: "textFailed",
    unsupported: "textUnsupported",
    working: "textWorking",
  };

  function draw(state, detail) {
    boxes.forEach(function (box) {
      var status = box.querySelector("[data-push-status]");
      var button = box.querySelector("[data-push-toggle]");
      box.dataset.pushState = state; // for the browser tests, and for styling
      status.textContent = box.dataset[TEXT[state]] + (detail ? " " + detail : "");
      var label = BUTTON[state];
      button.hidden = !label && state !== "working";
      button.disabled = state === "working";
      if (label) button.textContent = box.dataset[label];
      box.hidden = false;
    });
  }

  // ---- Talking to the browser and the server --------------------------------------------------------------------
  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function send(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(
        function (answer) {
          if (!response.ok) throw new Error(answer.error || "HTTP " + response.status);
          return answer;
        },
        function () {
          throw new Error("HTTP " + response.status);
        },
      );
    });
  }

  function serverState() {
    return fetch(first.state, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    });
  }

  // The worker pwa.js registers; registered again here (the same script and scope: nothing new) so that this
  // waits for it also where pwa.js's registration has not run yet.
  function worker() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  function serverKey() {
    var text = first.key.replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(text + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function sameKey(subscription, key) {
    var held = subscription.options && subscription.options.applicationServerKey;
    if (!held) return false;
    var bytes = new Uint8Array(held);
    if (bytes.length !== key.length) return false;
    for (var i = 0; i < key.length; i++) if (bytes[i] !== key[i]) return false;
    return true;
  }

  // This browser's subscription made with this server's key: the one held, or a new one. One made with another
  // key (the server's keys were replaced) can never be sent to: dropped first.
  function subscription(registration) {
    var key = serverKey();
    return registration.pushManager.getSubscription().then(function (held) {
      if (held && sameKey(held, key)) return held;
      var dropped = held ? held.unsubscribe() : Promise.resolve(true);
      return dropped.then(function () {
        return answerWithin(
          registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
          first.textNoAnswer,
        );
      });
    });
  }

  // A browser whose push service cannot be reached (no network, or none at all) may never answer a subscription:
  // after a while the button says so rather than "Asking the browser…" for ever.
  var NO_ANSWER_MS = 30000;
  function answerWithin(promise, text) {
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        reject(new Error(text));
      }, NO_ANSWER_MS);
      promise.then(
        function (value) {
          clearTimeout(timer);
          resolve(value);
        },
        function (error) {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  function switchOn() {
    draw("working");
    return Notification.requestPermission().then(function (permission) {
      if (permission === "denied") return draw("refused");
      if (permission !== "granted") return draw("off"); // the question dismissed: nothing decided
      return worker()
        .then(subscription)
        .then(function (made) {
          return send(first.subscribe, made.toJSON());
        })
        .then(function () {
          draw("on");
        });
    });
  }

  function switchOff() {
    draw("working");
    return worker()
      .then(function (registration) {
        return registration.pushManager.getSubscription();
      })
      .then(function (held) {
        if (!held) return undefined;
        return send(first.unsubscribe, { endpoint: held.endpoint }).then(function () {
          return held.unsubscribe();
        });
      })
      .then(function () {
        draw("off");
      });
  }

  function failed(error) {
    draw("failed", error && (error.message || error.name) ? String(error.message || error.name) : "");
  }

  // ---- Start ------------------------------------------------------------------------------------------------------
  if (!supported) {
    draw("unsupported");
    return;
  }

  var current = "off";
  function settle(state) {
    current = state;
    busy = false;
  }

  boxes.forEach(function (box) {
    box.querySelector("[data-push-toggle]").addEventListener("click", function () {
      if (busy) return; // a double tap while the browser is asked: one question
      busy = true;
      var action = current === "on" ? switchOff : switchOn;
      action()
        .then(
          function () {
            settle(boxes[0].dataset.pushState);
          },
          function (error) {
            failed(error);
            settle("failed");
          },
        );
    });
  });

  if (Notification.permission === "denied") {
    settle("refused");
    draw("refused");
    return;
  }
  // What this phone is now, on both ends; asked again after the devices page's list changed (a phone switched off
  // there may be this one).
  function refresh() {
    return Promise.all([
      worker().then(function (registration) {
        return registration.pushManager.getSubscription();
      }),
      serverState(),
    ])
      .then(function (found) {
        var held = found[0];
        var server = found[1];
        var on = Boolean(held && server.on && server.endpoint === held.endpoint && Notification.permission === "granted");
        settle(on ? "on" : "off");
        draw(current);
      })
      .catch(function () {
        settle("off");
        draw("off");
      });
  }

  refresh();
  document.addEventListener("htmx:afterRequest", function (event) {
    var path = event.detail && event.detail.pathInfo && event.detail.pathInfo.requestPath;
    if (!busy && path && path.indexOf("/devices/") === 0) refresh();
  });
})();
