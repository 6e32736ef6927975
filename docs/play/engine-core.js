// The play pages' engine, wherever it runs: in a Web Worker (engine-worker.js, over HTTP) or
// on the page's own thread (engine-file.js, for a book opened from file://, where Chromium
// lets a page start no worker and fetch no file). Both hand it the same three things, so the
// engine is the same code either way: Pyodide's loadPyodide, the URL of the Pyodide folder,
// and a function reading one of the play folder's files (engine.zip) as bytes.
// handle({id, op, args}) answers {id, ok, result | error} with what
// dominokit.rulebook.playroom returned.
"use strict";
self.dkEngine = function (loadPyodide, pyodideURL, readBytes) {
  let start = null;
  let call = null;
  let booted = null;

  async function boot() {
    const py = await loadPyodide({ indexURL: pyodideURL });
    py.unpackArchive(await readBytes("engine.zip"), "zip", { extractDir: "/home/pyodide/dk" });
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

  return async function handle(message) {
    const { id, op, args } = message;
    try {
      booted = booted || boot();
      await booted;
      const result = op === "start" ? start(JSON.stringify(args[0])) : call(...args);
      return { id, ok: true, result };
    } catch (err) {
      return { id, ok: false, error: String(err) };
    }
  };
};
