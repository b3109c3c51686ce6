// The installable web app on every page: the service worker (/sw.js, static/js/sw.js), the offline / back-online
// indicator in the top bar, and on the table page the toggle that keeps the screen on between hands.
//
// For the table page's own script:
//   Talon.connection.detail(text)   a second phrase in the indicator ("2 hands waiting to send"); "" removes it
//   Talon.refreshCachedPage(url)    the worker keeps the newest copy of this page for an offline reload
(function () {
  var Talon = (window.Talon = window.Talon || {});
  var root = document.documentElement;
  var body = document.body;
  var worker = "serviceWorker" in navigator ? navigator.serviceWorker : null;

  // ---- The service worker -----------------------------------------------------------------------------------
  // <body data-user=""> is a page drawn for nobody logged in (after a log-out, on a shared phone): the table pages
  // kept for offline use are private, so they go. The offline page is drawn for nobody too, but is not a log-out.
  var loggedOut = body.dataset.user === "" && !body.hasAttribute("data-offline-page");

  function forgetPages() {
    if (worker && worker.controller) worker.controller.postMessage({ type: "forget" });
    if (!window.caches) return;
    caches.keys().then(function (names) {
      names.forEach(function (name) {
        if (name.indexOf("talon-pages-") === 0) caches.delete(name);
      });
    });
  }

  Talon.refreshCachedPage = function (url) {
    if (worker && worker.controller) worker.controller.postMessage({ type: "refresh", url: String(url || location.href) });
  };

  // The scripts, styles and images this page has loaded from /static/ so far.
  function loadedStatic() {
    if (!window.performance || !performance.getEntriesByType) return [];
    return performance
      .getEntriesByType("resource")
      .map(function (entry) {
        return entry.name;
      })
      .filter(function (name) {
        return name.indexOf(location.origin + "/static/") === 0;
      });
  }

  function controlled() {
    root.setAttribute("data-worker", "controlling"); // for the browser tests: the worker answers this page
  }

  if (loggedOut) forgetPages();
  if (worker) {
    if (worker.controller) controlled();
    // A worker taking over this page: the first one (the page came from the network before it existed), or a new
    // release's, whose caches start empty. It keeps a copy of this page (it decides which pages it keeps) and of
    // what the page loaded, so the table opened first, or last before an update, also opens offline whole.
    worker.addEventListener("controllerchange", function () {
      controlled();
      if (!worker.controller) return;
      if (!loggedOut) Talon.refreshCachedPage(location.href);
      worker.controller.postMessage({ type: "keep", urls: loadedStatic() });
    });
    worker.register("/sw.js", { scope: "/" }).catch(function () {
      // Refused (a private window, storage off): the site works online as before.
    });
  }

  // ---- Offline / back online ------------------------------------------------------------------------------
  // One line reserved at the bottom of the sticky top bar (talon.css): appearing moves nothing on the page.
  var indicator = document.getElementById("connection");
  var state = indicator && indicator.querySelector("[data-connection-state]");
  var detailText = indicator && indicator.querySelector("[data-connection-detail]");
  var current = ""; // what the indicator says of the connection: offline, back online, or nothing
  var detail = ""; // what the table page's script adds (Talon.connection.detail)
  var backOnlineTimer = null;
  var BACK_ONLINE_MS = 4000;

  function write() {
    state.textContent = current;
    detailText.textContent = (current && detail ? " · " : "") + detail;
  }

  function draw() {
    if (!indicator) return;
    var shown = Boolean(current || detail);
    indicator.classList.toggle("is-offline", !navigator.onLine);
    if (shown && indicator.hidden) {
      // A live region announces a change it already shows: uncover it first, then write in it.
      indicator.hidden = false;
      setTimeout(write, 50);
      return;
    }
    write();
    indicator.hidden = !shown;
  }

  function say(text) {
    clearTimeout(backOnlineTimer);
    backOnlineTimer = null;
    current = text;
    draw();
  }

  function offline() {
    if (indicator) say(indicator.dataset.offline);
  }

  function online() {
    if (!indicator) return;
    say(indicator.dataset.online);
    backOnlineTimer = setTimeout(function () {
      say("");
    }, BACK_ONLINE_MS);
  }

  Talon.connection = {
    detail: function (text) {
      detail = text ? String(text) : "";
      draw();
    },
  };

  window.addEventListener("offline", offline);
  window.addEventListener("online", online);
  if (!navigator.onLine) offline();

  // ---- Keep the screen on (the table page) ---------------------------------------------------------------------
  var toggle = document.querySelector("[data-wake-lock]");
  if (!toggle || !("wakeLock" in navigator)) return;
  var KEY = "talon-wake-lock";
  var wanted = localStorage.getItem(KEY) !== "0"; // on unless switched off on this phone
  var refused = false;
  var lock = null;
  var asking = false;

  function showToggle() {
    toggle.setAttribute("aria-pressed", String(wanted && !refused));
    if (!refused) toggle.removeAttribute("title");
  }

  function keepOn() {
    if (!wanted || refused || lock || asking || document.visibilityState !== "visible") return;
    asking = true;
    navigator.wakeLock.request("screen").then(
      function (sentinel) {
        asking = false;
        lock = sentinel;
        sentinel.addEventListener("release", function () {
          if (lock === sentinel) lock = null;
        });
        if (!wanted || document.visibilityState !== "visible") letGo(); // switched off or hidden meanwhile
      },
      function (error) {
        asking = false;
        refused = true; // NotAllowedError: battery saver, a browser policy; the button says so and shows off
        toggle.title = toggle.dataset.refused + (error && error.name ? " (" + error.name + ")" : "");
        showToggle();
      },
    );
  }

  function letGo() {
    if (!lock) return;
    var sentinel = lock;
    lock = null;
    sentinel.release().catch(function () {
      // already released by the browser
    });
  }

  toggle.hidden = false;
  showToggle();
  toggle.addEventListener("click", function () {
    wanted = !(wanted && !refused);
    refused = false;
    localStorage.setItem(KEY, wanted ? "1" : "0");
    showToggle();
    if (wanted) keepOn();
    else letGo();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") keepOn();
    else letGo();
  });
  keepOn();
})();
