// The table page without a network (issue 18). Loaded on the table page only (templates/ledger/table_detail.html).
//
// - A Record that cannot reach the server (the phone is offline, or the request fails) is kept in IndexedDB with the
//   idempotency key its form carries, and shown under "On this phone, not sent yet". While anything waits, new hands
//   join the queue behind it, so the books receive them in the order they were played.
// - A worker (static/js/pricing-worker.js) runs the server's own forms, rules engine and templates in Pyodide
//   (ledger/offline.py): it checks each queued hand as the server would, prices it, draws the provisional
//   scoreboard and the form for the next dealer. It starts after the page is usable and never delays it.
// - The queue is sent in order, one hand at a time, when the network is back (the online event, every 15 s, the
//   next page load). The server prices each hand again and its price counts; a difference is reported. A hand the
//   server refuses stays, with the reason, until it is fixed or dropped, and holds the hands after it.
(function () {
  "use strict";
  const script = document.currentScript;
  const text = script.dataset; // the page's words for what this script says (translated by the server)
  const DB_NAME = "talon-offline";
  const STORE = "hands";
  const SENT = "talon-sent-keys"; // keys the server has: a page served from the cache must not reuse one
  const SYNC_EVERY_MS = 15000;
  const REQUEST_TIMEOUT_MS = 15000;

  function state() {
    const element = document.getElementById("offline-state");
    return element ? JSON.parse(element.textContent) : null;
  }

  // -- IndexedDB: one store of queued hands, keyed by their idempotency key ------------------------------------
  let opened = null;
  function database() {
    opened =
      opened ||
      new Promise((resolve, reject) => {
        const request = indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "key" }).createIndex("table", "table");
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    return opened;
  }
  async function withStore(mode, work) {
    const db = await database();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request ? request.result : undefined);
      transaction.onerror = () => reject(transaction.error);
    });
  }
  async function queuedHands(table) {
    const entries = await withStore("readonly", (store) => store.index("table").getAll(table));
    return (entries || []).sort((a, b) => a.created - b.created);
  }
  const storeHand = (entry) => withStore("readwrite", (store) => store.put(entry));
  const dropHand = (key) => withStore("readwrite", (store) => store.delete(key));
  const findHand = (key) => withStore("readonly", (store) => store.get(key));

  function sentKeys() {
    try {
      return JSON.parse(localStorage.getItem(SENT) || "[]");
    } catch (error) {
      return [];
    }
  }
  function rememberSent(key) {
    const keys = sentKeys().filter((known) => known !== key);
    keys.push(key);
    localStorage.setItem(SENT, JSON.stringify(keys.slice(-200)));
  }
  function newKey() {
    return (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).replace(/-/g, "");
  }

  // -- the worker -----------------------------------------------------------------------------------------------
  let worker = null;
  let ready = false;
  const calls = new Map();
  let callId = 0;
  function call(message) {
    return new Promise((resolve, reject) => {
      message.id = ++callId;
      calls.set(message.id, { resolve, reject });
      worker.postMessage(message);
    });
  }
  async function ask(request) {
    const reply = await call({ request: JSON.stringify(request) });
    return JSON.parse(reply.answer);
  }
  let booted = null; // resolves when the worker is ready, rejects when it cannot start
  function startWorker() {
    if (booted) return booted;
    if (!window.Worker || !text.worker || !state()) return (booted = Promise.reject(new Error("no worker")));
    worker = new Worker(text.worker, { type: "module" });
    worker.onmessage = (event) => {
      const reply = event.data;
      const waiting = calls.get(reply.id);
      calls.delete(reply.id);
      if (waiting) (reply.error ? waiting.reject(new Error(reply.error)) : waiting.resolve(reply));
    };
    const started = performance.now();
    booted = call({ boot: { indexURL: pyodideURL(), bundle: text.bundle } }).then(
      (reply) => {
        ready = true;
        // Read by the tests and bench/offline.py: the worker's own start-up, and how long the page waited for it.
        document.documentElement.dataset.offlineReadyAfter = String(Math.round(performance.now() - started));
        document.documentElement.dataset.offlineReady = reply.seconds.toFixed(2);
        showQueue({ onLoad: true });
      },
      (error) => {
        document.documentElement.dataset.offlineFailed = error.message;
        console.warn("Offline pricing is not available:", error.message);
        throw error;
      },
    );
    booted.catch(() => {}); // reported above; callers that wait see the rejection themselves
    return booted;
  }
  const pyodideURL = () => new URL(text.pyodide, location.href).href;

  // The worker's files, for a reload without a network: the service worker keeps them (it may have taken over only
  // after the worker fetched them, on the first visit).
  const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
  function keepForOffline() {
    if (!navigator.serviceWorker) return;
    const urls = [text.worker, text.bundle, ...PYODIDE_FILES.map((file) => pyodideURL() + file)];
    navigator.serviceWorker.ready.then((registration) => {
      if (registration.active) registration.active.postMessage({ type: "keep", urls });
      markWhenKept(urls, 0);
    });
  }
  // <html data-offline-kept> once every file the worker needs is in the cache: from then on it can start offline.
  function markWhenKept(urls, tries) {
    Promise.all(urls.map((url) => caches.match(url))).then((found) => {
      if (found.every(Boolean)) document.documentElement.dataset.offlineKept = "1";
      else if (tries < 300) setTimeout(() => markWhenKept(urls, tries + 1), 1000);
    });
  }

  // -- drawing ----------------------------------------------------------------------------------------------------
  let formTouched = false; // a form the scorekeeper has started is never replaced under their thumb
  function replaceById(id, html) {
    const old = document.getElementById(id);
    if (!old || !html) return null;
    const holder = document.createElement("div");
    holder.innerHTML = html.trim();
    const fresh = holder.firstElementChild;
    old.replaceWith(fresh);
    if (window.htmx) htmx.process(fresh);
    return fresh;
  }
  function swapForm(html) {
    const form = replaceById("hand-form", html);
    formTouched = false;
    return form;
  }
  function say(message) {
    const status = document.getElementById("table-status");
    if (status) status.innerHTML = '<p class="message info" role="status"></p>';
    if (status) status.firstElementChild.textContent = message;
  }
  function connectionDetail(waiting) {
    const detail = waiting ? text.waiting.replace("{count}", waiting) : "";
    if (window.Talon && Talon.connection) Talon.connection.detail(detail);
  }
  let waitingCount = 0;
  const provisional = {}; // key → the amounts this phone priced the hand at

  // The queue drawn as it is: by the worker when it is ready (priced, with the provisional scoreboard), else plainly.
  async function showQueue(options) {
    options = options || {};
    const current = state();
    if (!current) return null;
    const entries = await queuedHands(current.table);
    waitingCount = entries.filter((entry) => entry.status === "waiting").length;
    connectionDetail(waitingCount);
    const queue = document.getElementById("offline-queue");
    const form = document.getElementById("hand-form");
    if (form && entries.some((entry) => entry.key === form.elements.key.value)) form.elements.key.value = newKey();
    if (!entries.length && !options.tapped) {
      if (queue) queue.innerHTML = "";
      return null;
    }
    if (!ready) {
      if (queue) queue.innerHTML = plainRows(entries);
      return null;
    }
    const answer = await ask({ call: "queue", state: current, queued: entries.map(forWorker), tapped: options.tapped || null });
    answer.priced.forEach((hand) => (provisional[hand.key] = hand.amounts)); // to compare with the server's price
    if (queue) queue.innerHTML = answer.rows;
    if (entries.length) {
      replaceById("scoreboard", answer.scoreboard);
      replaceById("next-dealer", answer.next_dealer_html);
    }
    if (answer.refused || options.tapped || (options.onLoad && entries.length && !formTouched)) swapForm(answer.form);
    return answer;
  }
  function forWorker(entry) {
    return { key: entry.key, fields: entry.fields, status: entry.status, reason: entry.reason || "" };
  }
  // Before the worker is ready: each hand without its price, and a refused one with its reason and its buttons.
  function plainRows(entries) {
    const list = document.createElement("ol");
    list.className = "log-list pending-list";
    entries.forEach((entry) => {
      const item = document.createElement("li");
      item.className = "hand-row card pending" + (entry.status === "refused" ? " refused" : "");
      item.dataset.key = entry.key;
      const says = document.createElement("p");
      says.textContent = entry.status === "refused" ? text.refused + " " + entry.reason : text.unpriced;
      item.append(says);
      if (entry.status === "refused") {
        const drop = document.createElement("button");
        drop.type = "button";
        drop.className = "danger";
        drop.dataset.queueDrop = entry.key;
        drop.dataset.confirm = text.dropConfirm;
        drop.textContent = text.drop;
        item.append(drop);
      }
      list.append(item);
    });
    return list.outerHTML;
  }

  // -- recording without the server -------------------------------------------------------------------------------
  function fieldsOf(formData) {
    const fields = [];
    formData.forEach((value, name) => {
      if (typeof value === "string") fields.push([name, value]);
    });
    return fields;
  }
  async function queueHand(formData) {
    const current = state();
    const fields = fieldsOf(formData);
    const keyField = fields.find(([name]) => name === "key");
    const key = (keyField && keyField[1]) || newKey();
    if (!keyField) fields.push(["key", key]);
    const known = await findHand(key); // a double tap, or a refused hand fixed: the same hand, in its place
    const entry = { key, table: current.table, created: known ? known.created : Date.now(), fields, status: "waiting", reason: "" };
    await storeHand(entry); // kept before anything else can fail
    if (!ready) {
      say(text.starting);
      await startWorker().catch(() => {}); // the first hand without a network waits for the engine to start
    }
    if (!ready) {
      const form = document.getElementById("hand-form");
      if (form) form.elements.key.value = newKey();
      say(text.savedUnpriced);
      await showQueue();
      return;
    }
    const answer = await showQueue({ tapped: key });
    if (answer.refused) {
      await dropHand(key); // the form refused it: never a hand; its errors are beside the fields
      await showQueue();
      return;
    }
    const hand = answer.tapped;
    say(text.saved.replace("{number}", hand.number));
    sync();
  }
  async function redrawOffline(formData) {
    const answer = await ask({ call: "redraw", state: state(), fields: fieldsOf(formData) });
    const form = swapForm(answer.form);
    formTouched = true;
    return form;
  }

  // htmx asks first: without a network, or with hands still waiting, Record goes to the queue instead.
  let lastPost = null;
  document.addEventListener("htmx:configRequest", (event) => {
    const detail = event.detail;
    const current = state();
    if (!current || !detail.elt || detail.elt.id !== "hand-form") return;
    if (detail.verb === "post" && detail.path === current.action) {
      lastPost = detail.formData;
      detail.timeout = REQUEST_TIMEOUT_MS;
      if (!navigator.onLine || waitingCount > 0) {
        event.preventDefault();
        queueHand(detail.formData);
      }
    } else if (detail.verb === "get" && detail.path.startsWith(current.refresh) && !navigator.onLine && ready) {
      event.preventDefault();
      redrawOffline(detail.formData);
    }
  });
  // The request left but no answer came (the network went, the server is unreachable): keep the hand. Its key makes
  // sure that, if the server did store it, sending it again stores nothing new.
  function requestFailed(event) {
    const config = event.detail.requestConfig;
    const current = state();
    if (!config || !current) return;
    startWorker();
    if (config.verb === "post" && config.path === current.action && lastPost) {
      queueHand(lastPost);
    } else if (config.verb === "get" && config.path.startsWith(current.refresh) && ready) {
      redrawOffline(config.formData);
    }
  }
  document.addEventListener("htmx:sendError", requestFailed);
  document.addEventListener("htmx:timeout", requestFailed);
  // After any change to the table (a hand recorded, undone, voided…), the service worker's copy of the page is
  // refreshed, so a reload without a network starts from the table as it is, not as it was first opened.
  let keepPage = null;
  function keepThisPage() {
    clearTimeout(keepPage);
    keepPage = setTimeout(() => {
      if (window.Talon && Talon.refreshCachedPage) Talon.refreshCachedPage(location.pathname);
    }, 1000);
  }
  document.addEventListener("htmx:afterRequest", (event) => {
    const config = event.detail.requestConfig;
    const current = state();
    if (event.detail.successful && config && config.verb !== "get") keepThisPage();
    if (!event.detail.successful || !config || !current || config.verb !== "post" || config.path !== current.action) return;
    const key = config.formData && config.formData.get("key");
    if (key) {
      rememberSent(key);
      dropHand(key).then(() => showQueue()); // a refused hand fixed and recorded online
    }
  });
  document.addEventListener("htmx:afterSettle", () => {
    formTouched = false;
    showQueue();
  });
  document.addEventListener("input", (event) => {
    if (event.target.closest && event.target.closest("#hand-form")) formTouched = true;
  });

  // -- the queue's buttons --------------------------------------------------------------------------------------
  document.addEventListener("click", async (event) => {
    const fix = event.target.closest("[data-queue-fix]");
    const drop = event.target.closest("[data-queue-drop]");
    if (fix) {
      const entry = await findHand(fix.dataset.queueFix);
      if (!entry) return;
      const formData = new FormData();
      entry.fields.forEach(([name, value]) => formData.append(name, value));
      formData.set("_refresh", "1");
      if (ready) {
        const form = await redrawOffline(formData);
        if (form) form.scrollIntoView({ block: "start" });
      } else if (window.htmx) {
        htmx.ajax("GET", state().refresh, { target: "#hand-form", swap: "outerHTML", values: Object.fromEntries(formData) });
      }
    } else if (drop && window.confirm(drop.dataset.confirm)) {
      await dropHand(drop.dataset.queueDrop);
      await showQueue();
      sync();
    }
  });

  // -- sending the queue -------------------------------------------------------------------------------------------
  let syncing = false;
  async function sync() {
    const current = state();
    if (syncing || !current || !navigator.onLine) return;
    syncing = true;
    let stored = 0;
    const notes = [];
    try {
      for (const entry of await queuedHands(current.table)) {
        if (entry.status !== "waiting") break; // a refused hand holds the ones after it: the order is the game's
        const answer = await send(current, entry);
        if (answer.stored) {
          const priced = answer.priced;
          await dropHand(entry.key);
          rememberSent(entry.key);
          stored += 1;
          if (priced) notes.push(priced);
        } else if (answer.refused) {
          await storeHand(Object.assign(entry, { status: "refused", reason: answer.refused }));
          break;
        } else {
          if (answer.message) say(answer.message);
          break; // offline again, logged out, or the server failed: try later
        }
      }
    } finally {
      syncing = false;
    }
    if (stored) {
      await reloadLive();
      if (notes.length) say(notes.join(" "));
      keepThisPage();
    }
    await showQueue();
  }
  async function send(current, entry) {
    const body = new URLSearchParams();
    entry.fields.forEach(([name, value]) => {
      if (name !== "csrfmiddlewaretoken" && name !== "_refresh") body.append(name, value);
    });
    let response;
    try {
      response = await fetch(current.sync, {
        method: "POST",
        body,
        credentials: "same-origin",
        redirect: "manual",
        headers: { "X-CSRFToken": current.csrf_token, Accept: "application/json" },
      });
    } catch (error) {
      return {}; // still no network
    }
    if (response.type === "opaqueredirect" || response.status === 403) return { message: text.login };
    if (response.status === 201) {
      const hand = await response.json();
      return { stored: true, priced: difference(entry, hand) };
    }
    if (response.status === 200) return { refused: (await response.json()).errors.join(" ") };
    if (response.status === 404) return { refused: text.gone };
    return {};
  }
  // What the server priced differently from this phone, in words; "" when the prices agree.
  function difference(entry, hand) {
    const mine = provisional[entry.key];
    if (!mine) return "";
    const names = Object.keys(hand.amounts).filter((name) => Number(hand.amounts[name]) !== Number(mine[name]));
    if (!names.length) return "";
    const amounts = names.map((name) => name + " " + hand.amounts[name] + " (" + mine[name] + ")").join(", ");
    return text.differs.replace("{number}", hand.number).replace("{amounts}", amounts);
  }

  // The parts of the page the stored hands changed, read from the table page as the server draws it now. The form is
  // left alone while the scorekeeper is using it.
  const LIVE_PARTS = ["scoreboard", "next-dealer", "offline-state-box", "balance-chart", "undo-last", "hand-total"];
  async function reloadLive() {
    let page;
    try {
      const response = await fetch(location.pathname + location.search, { credentials: "same-origin" });
      if (!response.ok) return;
      page = new DOMParser().parseFromString(await response.text(), "text/html");
    } catch (error) {
      return;
    }
    const parts = formTouched ? LIVE_PARTS : [...LIVE_PARTS, "hand-form"];
    parts.forEach((id) => {
      const fresh = page.getElementById(id);
      if (fresh) replaceById(id, fresh.outerHTML);
    });
    const log = page.querySelector(".hand-log");
    const oldLog = document.querySelector("#table-live .hand-log");
    if (log && oldLog) {
      oldLog.replaceWith(log);
      if (window.htmx) htmx.process(log);
    }
  }

  // -- start ---------------------------------------------------------------------------------------------------------
  // The worker costs a phone seconds of processor to start, so it starts when it may be needed: without a network,
  // when a request failed, with hands waiting, and after the table page has been open a while (a scorekeeper keeps it
  // open all evening, so it is ready long before the signal drops). Its files are fetched into the service worker's
  // cache at once, so it can start offline.
  const WARM_AFTER_MS = 20000;
  function warmLater() {
    setTimeout(() => {
      if (document.visibilityState === "visible") startWorker();
      else document.addEventListener("visibilitychange", warmLater, { once: true });
    }, WARM_AFTER_MS);
  }
  window.addEventListener("online", sync);
  window.addEventListener("offline", startWorker);
  setInterval(() => {
    if (waitingCount) sync();
  }, SYNC_EVERY_MS);
  async function start() {
    const form = document.getElementById("hand-form");
    if (form && sentKeys().includes(form.elements.key.value)) form.elements.key.value = newKey();
    keepForOffline();
    await showQueue();
    if (!navigator.onLine || waitingCount || document.querySelector("#offline-queue .pending")) startWorker();
    warmLater();
    sync();
  }
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
