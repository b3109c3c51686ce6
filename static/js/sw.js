// Talon's service worker: the app shell and the table pages a scorekeeper opened, for when the pub's signal drops.
// Served from /sw.js by ledger/offline/pwa.py, which writes in the three values below (this file as stored is valid
// JavaScript, but only the served copy has them).
//
// What it answers, GET requests of this origin only (everything else goes to the network untouched: POSTs, htmx
// requests, /api/, /admin/; the table page's own script handles their failure):
// - /static/… and the Pyodide bundle (/offline/bundle-<hash>.zip): from the cache, filled from the network on a miss.
// - opening a table, its rules or an evening: from the network, keeping a copy; without a network, the copy.
// - any other page without a network: the offline page.
"use strict";

const VERSION = "__TALON_VERSION__";
const SHELL = ["__TALON_SHELL__"];
const OFFLINE_URL = "__TALON_OFFLINE__";
const PYODIDE = "__TALON_PYODIDE__";

// One cache per release for each kind; a new release deletes the old ones when it takes over.
const SHELL_CACHE = "talon-shell-" + VERSION;
const STATIC_CACHE = "talon-static-" + VERSION;
const PAGES_CACHE = "talon-pages-" + VERSION;
const PAGES_PREFIX = "talon-pages-";
// Pyodide's files (static/vendor/pyodide/, 13 MB) in a cache named by Pyodide's version, not Talon's: a release of
// Talon keeps it, so phones download it again only when Pyodide itself changes.
const PYODIDE_CACHE = "talon-pyodide-" + PYODIDE;
const PYODIDE_PATH = "/static/vendor/pyodide/";
const OURS = [SHELL_CACHE, STATIC_CACHE, PAGES_CACHE, PYODIDE_CACHE];

// Pages kept for offline use: a table, its house rules, an evening (private: deleted when nobody is logged in).
const KEPT_PAGE = /^\/(tables\/\d+\/(rules\/)?|evenings\/\d+\/)$/;
// The offline pricing worker and the code it runs (ledger/offline/views.py): named by their digests, kept for good.
const BUNDLE = /^\/offline\/(bundle-[^/]+\.zip|worker-[^/]+\.js)$/;
const MATCH = { ignoreSearch: true, ignoreVary: true };

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      // Past the browser's HTTP cache: the shell of this release, not a copy an older one left there.
      .then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name.startsWith("talon-") && !OURS.includes(name)).map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("HX-Request")) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  const keep = (promise) => event.waitUntil(promise.catch(() => undefined)); // a full disk: served, not kept
  if (path.startsWith("/api/") || path.startsWith("/admin/")) return;
  if (path.startsWith("/static/") || BUNDLE.test(path)) {
    if (!request.headers.has("Range")) event.respondWith(cacheFirst(request, keep));
    return;
  }
  if (request.mode !== "navigate") return;
  event.respondWith(KEPT_PAGE.test(path) ? networkFirst(request, url, keep) : networkOrOfflinePage(request));
});

// This release's caches only: an older release's copy of an unhashed URL (`make run`) is an older file.
function cached(request, names) {
  if (!names.length) return Promise.resolve(undefined);
  return caches
    .open(names[0])
    .then((cache) => cache.match(request, { ignoreVary: true }))
    .then((response) => response || cached(request, names.slice(1)));
}

// `keep` is the event's waitUntil: the worker stays alive until the copy is written, while the page already has
// the answer (a 13 MB Pyodide file need not be stored before it is used).
function cacheFirst(request, keep) {
  const store = new URL(request.url).pathname.startsWith(PYODIDE_PATH) ? PYODIDE_CACHE : STATIC_CACHE;
  return cached(request, [SHELL_CACHE, store]).then(
    (hit) =>
      hit ||
      fetch(request).then((response) => {
        if (response.status === 200 && response.type === "basic") {
          const copy = response.clone();
          keep(caches.open(store).then((cache) => cache.put(request, copy)));
        }
        return response;
      }),
  );
}

function networkFirst(request, url, keep) {
  return fetch(request).then(
    (response) => {
      if (isKeepable(response)) {
        const copy = response.clone();
        keep(keepPage(url, copy));
      }
      return response;
    },
    () => caches.match(withoutQuery(url), { ...MATCH, cacheName: PAGES_CACHE }).then((page) => page || offlinePage()),
  );
}

function networkOrOfflinePage(request) {
  return fetch(request).catch(offlinePage);
}

function offlinePage() {
  return caches.match(OFFLINE_URL, { ...MATCH, cacheName: SHELL_CACHE }).then(
    (page) => page || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain" } }),
  );
}

// The page itself, as its owner sees it: not a redirect to the log-in page, not an error, not somebody else's 404.
function isKeepable(response) {
  return response.status === 200 && response.type === "basic" && !response.redirected;
}

// The newest pages only: a phone used every week would otherwise keep every table it ever opened. A page stored
// again goes to the end of its cache's keys (the Cache API's order), so the oldest are first.
const KEPT_PAGES_MAX = 50;
function keepPage(url, response) {
  return caches.open(PAGES_CACHE).then((cache) =>
    cache
      .put(withoutQuery(url), response)
      .then(() => cache.keys())
      .then((keys) => Promise.all(keys.slice(0, -KEPT_PAGES_MAX).map((key) => cache.delete(key)))),
  );
}

function withoutQuery(url) {
  return url.origin + url.pathname;
}

// From the pages (static/js/pwa.js): keep the newest state of a page after its hands changed, or forget every kept
// page when nobody is logged in (a shared phone after a log-out).
self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "refresh") event.waitUntil(refresh(message.url));
  if (message.type === "forget") event.waitUntil(forgetPages());
  if (message.type === "keep") event.waitUntil(keepStatic(message.urls));
});

// The static files a page loaded before this worker took over (its first visit): cached now, so that the page
// opens offline whole, with every script and style it had.
function keepStatic(urls) {
  const wanted = (Array.isArray(urls) ? urls : [])
    .map((address) => new URL(address, self.location.origin))
    .filter((url) => url.origin === self.location.origin && (url.pathname.startsWith("/static/") || BUNDLE.test(url.pathname)));
  return Promise.all(
    wanted.map((url) => {
      const stores = [];
      return cacheFirst(new Request(url.href), (stored) => stores.push(stored))
        .then(() => Promise.all(stores))
        .catch(() => undefined);
    }),
  );
}

function refresh(address) {
  let url;
  try {
    url = new URL(address, self.location.origin);
  } catch (error) {
    return Promise.resolve();
  }
  if (url.origin !== self.location.origin || !KEPT_PAGE.test(url.pathname)) return Promise.resolve();
  return fetch(url.href, { credentials: "same-origin" }).then(
    (response) => {
      if (!isKeepable(response)) return undefined;
      return keepPage(url, response);
    },
    () => undefined, // offline: the copy kept before stays
  );
}

function forgetPages() {
  return caches
    .keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith(PAGES_PREFIX)).map((name) => caches.delete(name))));
}

// ---- Web Push (ledger/devices/push.py sends, static/js/push.js opts the phone in) -----------------------------------
// The message is JSON: {title, body, url, tag}. A newer notification with the same tag replaces the older one (the
// same hand asked again), and still rings.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = { body: event.data ? event.data.text() : "" };
  }
  const options = {
    body: String(message.body || ""),
    data: { url: sameOriginUrl(message.url) },
    icon: SHELL.find((url) => url.includes("icon-192")),
  };
  if (message.tag) {
    options.tag = String(message.tag);
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(String(message.title || "Talon"), options));
});

// A tap on the notification: the page it names, in a window of Talon's already open if there is one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});

// Only a page of this site opens from a notification; anything else opens the home page.
function sameOriginUrl(address) {
  try {
    const url = new URL(String(address || "/"), self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}
