// The play pages' engine, off the page's main thread: Pyodide and the engine bundle load
// here, so the page stays responsive while they start. The page posts {id, op, args}; the
// worker answers {id, ok, result | error} with what dominokit.rulebook.playroom returned.
"use strict";
const here = new URL(".", self.location.href).href;  // site/play/
importScripts(here + "pyodide/pyodide.js");
let start = null;
let call = null;

async function boot() {
  const py = await self.loadPyodide({ indexURL: here + "pyodide/" });
  const zip = await (await fetch(here + "engine.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/dk" });
  py.runPython([
    "import json, sys",
    "sys.path.insert(0, '/home/pyodide/dk')",
    "from dominokit.spec import frozen",
    "frozen.install(open('/home/pyodide/dk/checked-spec.txt', encoding='utf-8').read())",
    "from dominokit.rulebook import playroom",
    "_traces = json.load(open('/home/pyodide/dk/traces.json', encoding='utf-8'))",
    "def _start(text): return json.dumps(playroom.page_start(json.loads(text), _traces))",
    "def _call(*args): return json.dumps(playroom.page_call(*args))",
  ].join("\n"));
  start = py.globals.get("_start");
  call = py.globals.get("_call");
}

let booted = null;
self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    booted = booted || boot();
    await booted;
    const result = op === "start" ? start(JSON.stringify(args[0])) : call(...args);
    self.postMessage({ id, ok: true, result });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err) });
  }
};
