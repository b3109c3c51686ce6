// The offline pricing worker: Pyodide running the server's own Python (the hand forms, the rules engine,
// the templates; ledger/offline/pricing.py) in a worker, so the table page stays responsive while it loads and runs.
// Served by ledger/offline/views.py with its own Content-Security-Policy ('wasm-unsafe-eval': WebAssembly only).
//
// Messages in: {id, boot: {indexURL, bundle}} once, then {id, request: "<JSON for ledger.offline.pricing.dispatch>"}.
// Messages out: {id, answer: "<JSON>"} or {id, error: "…"}; {id, ready: true, seconds} after the boot.
let dispatch = null;

async function boot({ indexURL, bundle }) {
  const started = performance.now();
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: (text) => console.warn(text) });
  const response = await fetch(bundle, { credentials: "same-origin" });
  if (!response.ok) throw new Error("the offline bundle answered " + response.status);
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/talon" });
  pyodide.runPython("import sys; sys.path.insert(0, '/talon'); import ledger.offline.boot");
  dispatch = pyodide.pyimport("ledger.offline.pricing").dispatch;
  return (performance.now() - started) / 1000;
}

self.onmessage = async (event) => {
  const { id, boot: config, request } = event.data;
  try {
    if (config) {
      const seconds = await boot(config);
      self.postMessage({ id, ready: true, seconds });
    } else {
      if (!dispatch) throw new Error("not ready");
      self.postMessage({ id, answer: dispatch(request) });
    }
  } catch (error) {
    self.postMessage({ id, error: String((error && error.message) || error) });
  }
};
