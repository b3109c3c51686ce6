// The table page without a network. Loaded on the table page only (templates/ledger/table_detail.html).
//
// - A Record that cannot reach the server (the phone is offline, or the request fails) is kept in IndexedDB with the
//   idempotency key its form carries, and shown under "On this phone, not sent yet". While any hand is kept, new
//   hands join the queue behind it, so the books receive them in the order they were played.
// - A worker (static/js/pricing-worker.js) runs the server's own forms, rules engine and templates in Pyodide
//   (ledger/offline/pricing.py): it checks each queued hand as the server would, prices it, and draws the provisional
//   scoreboard and the form for the next dealer. It never delays the page (see "start" at the end).
// - The queue is sent in order, one hand at a time, when the network is back (the online event, every 15 s, the
//   next page load). The server prices each hand again and its price counts; a difference is reported. A hand the
//   server refuses stays, with the reason, until it is fixed or dropped, and holds the hands after it.
// - A kept hand's key is never on a form again (the form gets a new one at once), so two hands never share a key,
//   and a hand sent twice is stored once.
// - A kept hand names how many hands the phone showed when it was tapped (its form's "after", the hands kept before
//   it included). Another phone may have recorded the next hand meanwhile: the server then stores nothing and
//   answers with both versions (templates/ledger/_hand_conflict.html), shown in the queue until the scorekeeper
//   chooses: theirs is right (the kept hand is dropped), or it is another hand (sent again after theirs). It holds
//   the hands after it meanwhile, and the choice moves their "after" along with it.
// - The form never waits for the worker: it is drawn with every field and shows them at each tap by itself
//   (static/js/talon.js). A hand kept before the worker has started is priced once it has; the form starts the next
//   hand at once, and a form the worker draws later (for the right dealer) takes over the taps made on it meanwhile.
(function () {
  "use strict";
  const script = document.currentScript;
  const text = script.dataset; // the page's words for what this script says (translated by the server)
  const DB_NAME = "talon-offline";
  const STORE = "hands";
  const SENT = "talon-sent-keys"; // keys the server has: a page served from the cache must not reuse one
  const SYNC_EVERY_MS = 15000;
  const REQUEST_TIMEOUT_MS = 15000;
  const BOOT_TIMEOUT_MS = 120000;
  const WARM_AFTER_MS = 20000;

  function state() {
    const element = document.getElementById("offline-state");
    return element ? JSON.parse(element.textContent) : null;
  }

  // -- IndexedDB: one store of kept hands, keyed by their idempotency key ----------------------------------------
  let opened = null;
  function database() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const request = indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = () =>
          request.result.createObjectStore(STORE, { keyPath: "key" }).createIndex("table", "table");
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      opened.catch(() => (opened = null)); // try again next time (a private window may refuse it once)
    }
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
  // This table's kept hands of the scorekeeper logged in (a shared phone keeps each one's apart), oldest first.
  async function keptHands() {
    const current = state();
    if (!current) return [];
    const entries = await withStore("readonly", (store) => store.index("table").getAll(current.table));
    return (entries || []).filter((entry) => entry.user === current.user).sort((a, b) => a.order - b.order);
  }
  const storeHand = (entry) => withStore("readwrite", (store) => store.put(entry));
  const dropHand = (key) => withStore("readwrite", (store) => store.delete(key));

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
    const random = crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + String(Math.random()).slice(2);
    return random.replace(/-/g, "");
  }
  function giveFormNewKey() {
    const form = document.getElementById("hand-form");
    if (form && form.elements.key) form.elements.key.value = newKey();
  }
  const talon = () => window.Talon || {};

  // -- the worker -----------------------------------------------------------------------------------------------
  let worker = null;
  let ready = false;
  let booted = null; // resolves when the worker prices, rejects when it cannot start (then a later trigger retries)
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
  function failAll(error) {
    calls.forEach((waiting) => waiting.reject(error));
    calls.clear();
  }
  const pyodideURL = () => new URL(text.pyodide, location.href).href;
  function startWorker() {
    if (booted) return booted;
    if (!window.Worker || !text.worker || !state()) return Promise.reject(new Error("no worker here"));
    worker = new Worker(text.worker, { type: "module" });
    worker.onmessage = (event) => {
      const reply = event.data;
      const waiting = calls.get(reply.id);
      calls.delete(reply.id);
      if (waiting) (reply.error ? waiting.reject(new Error(reply.error)) : waiting.resolve(reply));
    };
    // The script itself may not load (no network and not kept yet): without this, the boot would wait for ever.
    worker.onerror = (event) => failAll(new Error(event.message || "the worker did not start"));
    worker.onmessageerror = () => failAll(new Error("the worker's answer could not be read"));
    const started = performance.now();
    const timeout = new Promise((resolve, reject) =>
      setTimeout(() => reject(new Error("the worker took too long to start")), BOOT_TIMEOUT_MS),
    );
    booted = Promise.race([call({ boot: { indexURL: pyodideURL(), bundle: text.bundle } }), timeout]).then(
      (reply) => {
        ready = true;
        // Read by the tests and bench/offline.py: the worker's own start-up, and how long the page waited for it.
        document.documentElement.dataset.offlineReadyAfter = String(Math.round(performance.now() - started));
        document.documentElement.dataset.offlineReady = reply.seconds.toFixed(2);
        showQueue({ drawForm: true });
      },
      (error) => {
        document.documentElement.dataset.offlineFailed = error.message;
        console.warn("Offline pricing is not available:", error.message);
        worker.terminate();
        booted = null; // the network coming back, or going again, tries once more
        throw error;
      },
    );
    booted.catch(() => {}); // reported above; callers that wait see the rejection themselves
    return booted;
  }

  // The worker's files, for a reload without a network: the service worker keeps them (it may take over only after
  // the worker fetched them, or a new release may start with empty caches: then they are kept again).
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
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      delete document.documentElement.dataset.offlineKept;
      keepForOffline();
    });
  }

  // -- drawing ----------------------------------------------------------------------------------------------------
  function replaceById(id, html) {
    const old = document.getElementById(id);
    if (!old || !html) return null;
    const holder = document.createElement("div");
    holder.innerHTML = html.trim();
    const fresh = holder.firstElementChild;
    old.replaceWith(fresh);
    if (window.htmx) htmx.process(fresh);
    if (talon().applyLayouts) talon().applyLayouts(fresh.parentNode);
    return fresh;
  }
  // A number being typed into the form is not replaced under the scorekeeper's thumb (its digits are no tap yet).
  function typing() {
    const active = document.activeElement;
    return Boolean(active && active.closest && active.closest("#hand-form") && active.matches("input[inputmode=numeric]"));
  }
  // The form drawn anew by the worker or the server: it takes over the taps made on the one it replaces.
  function swapForm(html) {
    const old = document.getElementById("hand-form");
    const form = replaceById("hand-form", html);
    if (old && form && talon().takeOverTaps) talon().takeOverTaps(old, form);
    return form;
  }
  // The status line is a live region that stays in the page: only what is inside it changes, so it is read out.
  function say(message) {
    const status = document.getElementById("table-status");
    if (!status) return;
    status.innerHTML = '<p class="message info"></p>';
    status.firstElementChild.textContent = message;
  }
  // Written only when it changed: the region is live, and a screen reader would read it out again every time.
  function drawQueue(html) {
    const queue = document.getElementById("offline-queue");
    if (queue && queue.drawn !== html) {
      queue.innerHTML = html;
      queue.drawn = html;
      if (window.htmx) htmx.process(queue); // a conflict's panel may hold the features' forms (a dispute)
    }
  }
  let shownDetail = null;
  function connectionDetail(waiting) {
    const detail = waiting ? text.waiting.replace("{count}", waiting) : "";
    if (detail !== shownDetail && window.Talon && Talon.connection) Talon.connection.detail(detail);
    shownDetail = detail;
  }
  let keptCount = 0; // hands on this phone: while there are any, a new hand goes behind them
  const provisional = {}; // key → the amounts this phone priced the hand at, to compare with the server's

  // The queue drawn as it is: by the worker when it is ready (priced, with the provisional scoreboard), else plainly.
  // ``tapped``: the key of a hand just kept, whose form may refuse it; ``drawForm``: draw the form for the hand after
  // the kept ones (unless the scorekeeper has started it).
  async function showQueue(options) {
    options = options || {};
    const current = state();
    if (!current) return null;
    const kept = await keptHands();
    keptCount = kept.length;
    connectionDetail(kept.filter((entry) => entry.status === "waiting").length);
    // A hand in conflict is not counted until the scorekeeper chooses: shown as the server drew it, both versions.
    const panels = kept.filter((entry) => entry.status === "conflict").map((entry) => entry.panel).join("");
    const entries = kept.filter((entry) => entry.status !== "conflict");
    if (!entries.length) {
      drawQueue(panels);
      return null;
    }
    if (!ready) {
      drawQueue(panels + plainRows(entries));
      return null;
    }
    const answer = await ask({
      call: "queue",
      state: current,
      queued: entries.map((entry) => ({ key: entry.key, fields: entry.fields, status: entry.status, reason: entry.reason })),
      tapped: options.tapped || null,
    });
    answer.priced.forEach((hand) => (provisional[hand.key] = hand.amounts));
    drawQueue(panels + answer.rows);
    replaceById("scoreboard", answer.scoreboard);
    replaceById("next-dealer", answer.next_dealer_html);
    if (answer.refused || options.tapped || (options.drawForm && !typing())) swapForm(answer.form);
    return answer;
  }
  // Before the worker is ready: each hand without its price, and a refused one with its reason and Drop.
  function plainRows(entries) {
    const list = document.createElement("ol");
    list.className = "log-list pending-list";
    entries.forEach((entry, position) => {
      const item = document.createElement("li");
      item.className = "hand-row card pending" + (entry.status === "refused" ? " refused" : "");
      item.dataset.key = entry.key;
      const says = document.createElement("p");
      says.id = "queue-reason-" + (position + 1);
      says.textContent = entry.status === "refused" ? text.refused + " " + entry.reason : text.unpriced;
      item.append(says);
      if (entry.status === "refused") {
        const drop = document.createElement("button");
        drop.type = "button";
        drop.className = "danger";
        drop.dataset.queueDrop = entry.key;
        drop.dataset.confirm = text.dropConfirm;
        drop.setAttribute("aria-describedby", says.id);
        drop.textContent = text.drop;
        item.append(drop);
      }
      list.append(item);
    });
    return list.outerHTML;
  }

  // -- keeping a hand on the phone ----------------------------------------------------------------------------------
  function fieldsOf(formData) {
    const fields = [];
    formData.forEach((value, name) => {
      if (typeof value === "string" && name !== "csrfmiddlewaretoken") fields.push([name, value]);
    });
    return fields;
  }
  const sameHand = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

  // One hand kept at a time, in the order they were tapped; the form is never blocked meanwhile.
  let keeping = Promise.resolve();
  function keepHand(formData) {
    const form = document.getElementById("hand-form");
    keeping = keeping
      .then(() => keep(formData, form))
      .catch((error) => {
        console.warn("The hand could not be kept:", error);
        say(text.notKept);
      });
    return keeping;
  }
  async function keep(formData, form) {
    const current = state();
    const fields = fieldsOf(formData);
    const entries = await keptHands();
    const keyField = fields.find(([name]) => name === "key") || fields[fields.push(["key", newKey()]) - 1];
    let known = entries.find((entry) => entry.key === keyField[1]);
    if (known && known.status === "waiting" && !sameHand(known.fields, fields)) {
      keyField[1] = newKey(); // another hand on a form that still carried a kept hand's key: a hand of its own
      known = null;
    }
    const last = entries.reduce((highest, entry) => Math.max(highest, entry.order), 0);
    // A refused hand fixed, or the same hand tapped twice, keeps its place; a new one goes last.
    const entry = {
      key: keyField[1],
      table: current.table,
      user: current.user,
      order: known ? known.order : Math.max(Date.now(), last + 1),
      fields,
      status: "waiting",
      reason: "",
    };
    await storeHand(entry); // kept before anything else can fail
    // The next hand starts at once on the same form, with a fresh key and the taps made since Record.
    if (form && form.isConnected && form.elements.key.value === entry.key && talon().startNextHand) {
      talon().startNextHand(form, newKey());
    } else {
      giveFormNewKey();
    }
    const heldBehind = entries.some((other) => other.status === "refused" && other.key !== entry.key);
    if (!ready) {
      say(text.starting);
      await startWorker().catch(() => {}); // priced once the engine has started; the form does not wait for it
    }
    if (!ready) {
      say(text.savedUnpriced);
      await showQueue();
      return;
    }
    const answer = await showQueue({ tapped: entry.key });
    if (answer.refused) {
      // The form refused it: it was never a hand (its errors are beside the fields). A refused hand being fixed
      // stays as it was, refused, in its place.
      if (known && known.status === "refused") await storeHand(known);
      else await dropHand(entry.key);
      await showQueue();
      return;
    }
    say((heldBehind ? text.held : text.saved).replace("{number}", answer.tapped.number));
    sync();
  }
  // The form of a refused hand kept on the phone, drawn with its values to fix it.
  async function redrawOffline(formData) {
    const answer = await ask({ call: "redraw", state: state(), fields: fieldsOf(formData) });
    return replaceById("hand-form", answer.form);
  }

  // htmx asks first: without a network, or with hands kept on the phone, Record goes to the queue instead.
  let lastPost = null;
  document.addEventListener("htmx:configRequest", (event) => {
    const detail = event.detail;
    const current = state();
    // The hand form, or a conflict's "record it as the next hand" (the same fields and key, after the hand that won).
    const again = Boolean(detail.elt && detail.elt.closest && detail.elt.closest("#hand-conflict"));
    if (!current || !detail.elt || (detail.elt.id !== "hand-form" && !again)) return;
    if (detail.verb === "post" && detail.path === current.action) {
      lastPost = detail.formData;
      detail.timeout = REQUEST_TIMEOUT_MS;
      if (!navigator.onLine || keptCount > 0) {
        event.preventDefault();
        if (!again && talon().handSent) talon().handSent(detail.elt); // the taps so far are this hand's
        keepHand(detail.formData);
      }
    }
  });
  // The request left but no answer came (the network went, the server is unreachable): keep the hand. Its key makes
  // sure that, if the server did store it, sending it again stores nothing new.
  function requestFailed(event) {
    const config = event.detail.requestConfig;
    const current = state();
    if (!config || !current) return;
    startWorker().catch(() => {});
    if (config.verb === "post" && config.path === current.action && lastPost) keepHand(lastPost);
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
    if (!event.detail.successful || !config || config.verb === "get") return;
    keepThisPage();
    // Only a hand the server stored says so (a refused one is answered 200 too, with its errors).
    const stored = event.detail.xhr && event.detail.xhr.getResponseHeader("X-Talon-Recorded");
    if (stored) {
      rememberSent(stored);
      dropHand(stored).then(() => showQueue()); // a refused hand, fixed and recorded online
    }
  });
  document.addEventListener("htmx:afterSettle", () => {
    showQueue({ drawForm: keptCount > 0 });
  });

  // -- the queue's buttons --------------------------------------------------------------------------------------
  document.addEventListener("click", async (event) => {
    const fix = event.target.closest("[data-queue-fix]");
    const drop = event.target.closest("[data-queue-drop]");
    const agree = event.target.closest("[data-queue-agree]");
    const another = event.target.closest("[data-queue-another]");
    if (agree || another) {
      await settleConflict(agree ? agree.dataset.queueAgree : another.dataset.queueAnother, Boolean(another));
    } else if (fix) {
      const entry = (await keptHands()).find((kept) => kept.key === fix.dataset.queueFix);
      await startWorker().catch(() => {});
      if (!entry || !ready) return;
      const formData = new FormData();
      entry.fields.forEach(([name, value]) => formData.append(name, value));
      formData.set("_refresh", "1");
      const form = await redrawOffline(formData); // its key is the refused hand's: recorded, it takes its place
      if (form) form.scrollIntoView({ block: "start" });
    } else if (drop && window.confirm(drop.dataset.confirm)) {
      await dropHand(drop.dataset.queueDrop);
      await showQueue({ drawForm: true });
      sync();
    }
  });

  // A kept hand in conflict settled: dropped (theirs is right) or sent again after the hand that won (another hand).
  // The hands kept after it were tapped after it: their "after" moves by as many hands as it did.
  async function settleConflict(key, anotherHand) {
    const entries = await keptHands();
    const at = entries.findIndex((entry) => entry.key === key && entry.status === "conflict");
    if (at < 0) return;
    const entry = entries[at];
    const after = afterOf(entry);
    const moved = after === null ? 0 : anotherHand ? entry.stored - after : entry.stored - after - 1;
    for (const later of entries.slice(at + 1)) {
      if (moved && afterOf(later) !== null) await storeHand(withAfter(later, afterOf(later) + moved));
    }
    if (anotherHand) {
      await storeHand(Object.assign(withAfter(entry, entry.stored), { status: "waiting", reason: "", panel: "" }));
    } else {
      await dropHand(key);
    }
    await showQueue({ drawForm: true });
    sync();
  }
  function afterOf(entry) {
    const field = entry.fields.find(([name]) => name === "after");
    return field && /^\d+$/.test(field[1]) ? Number(field[1]) : null;
  }
  function withAfter(entry, after) {
    entry.fields = entry.fields.filter(([name]) => name !== "after").concat([["after", String(after)]]);
    return entry;
  }

  // -- sending the queue -------------------------------------------------------------------------------------------
  let syncing = false;
  async function sync() {
    if (syncing || !state() || !navigator.onLine) return;
    syncing = true;
    let stored = 0;
    let conflict = null;
    const notes = [];
    try {
      for (const entry of await keptHands()) {
        if (entry.status !== "waiting") break; // a refused hand holds the ones after it: the order is the game's
        const answer = await send(entry);
        if (answer.stored) {
          await dropHand(entry.key);
          rememberSent(entry.key);
          stored += 1;
          if (answer.differs) notes.push(answer.differs);
        } else if (answer.refused) {
          await storeHand(Object.assign(entry, { status: "refused", reason: answer.refused }));
          break;
        } else if (answer.conflict) {
          conflict = answer.conflict;
          const shown = { status: "conflict", reason: conflict.message, panel: conflict.panel, stored: conflict.number };
          await storeHand(Object.assign(entry, shown));
          break; // the hands after it wait for the scorekeeper's choice, in the game's order
        } else {
          if (answer.message) say(answer.message);
          break; // offline again, logged out, or the server failed: try later
        }
      }
    } finally {
      syncing = false;
    }
    const left = (await keptHands()).length;
    if (stored || conflict) {
      // The hand that won shows in the scoreboard and the log; the server's form only when nothing is left on the
      // phone to come before it.
      await reloadLive(left === 0);
      if (notes.length) say(notes.join(" "));
      if (conflict) say(conflict.message);
      keepThisPage();
    }
    await showQueue({ drawForm: stored > 0 && left > 0 });
  }
  async function send(entry, again) {
    const current = state();
    const body = new URLSearchParams();
    entry.fields.forEach(([name, value]) => {
      if (name !== "_refresh") body.append(name, value);
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
    if (response.status === 403 && !again) {
      await reloadLive(false); // a stale token (logged in again meanwhile): the page's state brings a fresh one
      return send(entry, true);
    }
    if (response.type === "opaqueredirect" || response.status === 403) return { message: text.login };
    if (response.status === 404) return { refused: text.gone };
    if (response.status !== 200 && response.status !== 201) return {};
    const answer = await response.json();
    if (answer.conflict) return { conflict: answer.conflict };
    if (!answer.stored) return { refused: answer.errors.join(" ") };
    return { stored: true, differs: difference(entry, answer) };
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

  // The parts of the page the stored hands changed, read from the table page as the server draws it now; the form
  // only when ``withForm`` and the scorekeeper has not started it.
  const LIVE_PARTS = ["scoreboard", "next-dealer", "offline-state-box", "balance-chart", "undo-last", "hand-total"];
  async function reloadLive(withForm) {
    let page;
    try {
      const response = await fetch(location.pathname + location.search, { credentials: "same-origin" });
      if (!response.ok) return;
      page = new DOMParser().parseFromString(await response.text(), "text/html");
    } catch (error) {
      return;
    }
    LIVE_PARTS.forEach((id) => {
      const fresh = page.getElementById(id);
      if (fresh) replaceById(id, fresh.outerHTML);
    });
    const form = page.getElementById("hand-form");
    if (withForm && form && !typing()) swapForm(form.outerHTML);
    const log = page.querySelector(".hand-log");
    const oldLog = document.querySelector("#table-live .hand-log");
    if (log && oldLog) {
      oldLog.replaceWith(log);
      if (window.htmx) htmx.process(log);
    }
  }

  // -- start ---------------------------------------------------------------------------------------------------------
  // The worker costs a phone seconds of processor to start, so it starts when it may be needed: without a network,
  // when a request failed, with hands kept, and after the table page has been open a while (a scorekeeper keeps it
  // open all evening, so it is ready long before the signal drops). Its files are fetched into the service worker's
  // cache at once, so it can start offline.
  function warmLater() {
    setTimeout(() => {
      if (document.visibilityState === "visible") startWorker().catch(() => {});
      else document.addEventListener("visibilitychange", warmLater, { once: true });
    }, WARM_AFTER_MS);
  }
  window.addEventListener("online", sync);
  window.addEventListener("offline", () => startWorker().catch(() => {}));
  setInterval(() => {
    if (keptCount) sync();
  }, SYNC_EVERY_MS);
  async function start() {
    // A page from the service worker's cache carries the key it was drawn with: never one of a hand already kept or sent.
    const form = document.getElementById("hand-form");
    const kept = await keptHands().catch(() => []);
    keptCount = kept.length; // before the first tap: a new hand goes behind the kept ones
    if (form && form.elements.key) {
      const used = sentKeys().includes(form.elements.key.value) || kept.some((entry) => entry.key === form.elements.key.value);
      if (used) giveFormNewKey();
    }
    keepForOffline();
    await showQueue().catch(() => {});
    if (!navigator.onLine || keptCount) startWorker().catch(() => {});
    warmLater();
    sync();
  }
  start(); // a deferred script: the page is parsed, and a tap must already find its hand kept under a fresh key
})();
