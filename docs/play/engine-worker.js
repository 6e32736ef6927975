// The play pages' engine, off the page's main thread (the page's usual way, over HTTP):
// Pyodide and the engine bundle load here, so the page stays responsive while they start.
// The page posts {id, op, args}; engine-core.js answers.
"use strict";
const here = new URL(".", self.location.href).href;  // site/play/
importScripts(here + "pyodide/pyodide.js", here + "engine-core.js");

async function readBytes(name) {
  const response = await fetch(here + name);
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

const handle = self.dkEngine(self.loadPyodide, here + "pyodide/", readBytes);
self.onmessage = async (event) => self.postMessage(await handle(event.data));
