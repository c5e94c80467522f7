// Starts compiling the core while the page's script still downloads: index.html runs this small
// classic script as soon as it arrives, and js/core.js instantiates the module compiled here
// (vramcalc.wasm, from the response the page preloads) instead of compiling it only when app.js
// runs. Null when streaming compilation is not possible (core.js then compiles as before).
window.vramcalcCompiled = WebAssembly.compileStreaming(fetch('vramcalc.wasm', { credentials: 'same-origin' }))
  .catch(() => null);
