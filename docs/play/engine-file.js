// The play pages' engine for a book opened from file://, loaded by play.js only there.
// Chromium gives such a page a null origin: it cannot start a worker, fetch or XHR a file, or
// import an ES module, but it can run classic <script> files. So here everything arrives by
// <script>: file-bundle.js (written at build time by dominokit.rulebook.playbundle) holds
// every file Pyodide and the engine read, as base64 text; a fetch shim answers Pyodide's
// requests for them from it; Pyodide's own scripts load by <script> tags; and the engine
// (engine-core.js, the worker's code) runs on the page's thread behind an object with the
// worker's postMessage/message interface, so play.js drives both the same way.
"use strict";
(function () {
  const TYPES = { wasm: "application/wasm", json: "application/json", zip: "application/zip" };

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error("could not load " + src));
      document.head.appendChild(script);
    });
  }

  function fromBase64(text) {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  // One bundled file's bytes: [encoding, base64], the encoding "gzip" or "identity".
  async function unpack([encoding, text]) {
    const bytes = fromBase64(text);
    if (encoding === "identity") return bytes;
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(encoding));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  self.dkFileEngine = async function (playURL) {
    await loadScript(playURL + "file-bundle.js");
    const bundle = self.dkFileBundle;
    delete self.dkFileBundle;
    const read = (name) => {
      if (!(name in bundle)) throw new Error(name + " is not in file-bundle.js");
      return unpack(bundle[name]);
    };
    const pageFetch = self.fetch.bind(self);
    self.fetch = async function (input, init) {
      const url = new URL(typeof input === "string" ? input : (input.url || String(input)),
        location.href).href;
      if (url.startsWith(playURL) && url.slice(playURL.length) in bundle) {
        const name = url.slice(playURL.length);
        const type = TYPES[name.split(".").pop()] || "application/octet-stream";
        return new Response(await read(name), { status: 200, headers: { "Content-Type": type } });
      }
      return pageFetch(input, init);
    };
    // pyodide.asm.js first, so loadPyodide finds _createPyodideModule and imports nothing.
    for (const name of ["pyodide/pyodide.asm.js", "pyodide/pyodide.js", "engine-core.js"]) {
      await loadScript(playURL + name);
    }
    const handle = self.dkEngine(self.loadPyodide, playURL + "pyodide/", read);
    const target = new EventTarget();
    target.postMessage = (message) => {
      handle(message).then((reply) => target.dispatchEvent(new MessageEvent("message",
        { data: reply })));
    };
    return target;
  };
})();
