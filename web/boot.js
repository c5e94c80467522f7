// Starts what the first numbers wait for while the page's script still downloads: the bundle
// (tools/bundle.mjs) puts this small classic script inline into index.html's head, where it runs
// while the HTML parses (an unbundled site loads it as an async script).
// - The core: WebAssembly.compileStreaming on vramcalc.wasm (the first request for it); js/core.js
//   instantiates the module compiled here instead of compiling it only when app.js runs. Null
//   when streaming compilation is not possible (core.js then compiles as before).
// - The strings of the language the page will speak, chosen as js/main.js chooses it (the link's
//   lang, else the first of the browser's languages the page speaks, else German), read as
//   JSON here; js/i18n.js takes this table instead of asking for the file again (null when it
//   could not be had: i18n.js then asks and reports why). Asked for after app.js, the table came
//   100-300 ms after the module had started.
window.vramcalcCompiled = WebAssembly.compileStreaming(fetch('vramcalc.wasm', { credentials: 'same-origin' }))
  .catch(() => null);
(() => {
  const langs = ['de', 'en'];
  const linked = new URLSearchParams(location.hash.slice(1)).get('lang');
  const preferred = (navigator.languages ?? [navigator.language]).map((tag) => String(tag).slice(0, 2).toLowerCase());
  const lang = langs.includes(linked) ? linked : preferred.find((tag) => langs.includes(tag)) ?? langs[0];
  const url = new URL(`i18n/${lang}.json`, document.baseURI).href;
  window.vramcalcStrings = {
    url, table: fetch(url, { credentials: 'same-origin' }).then((r) => (r.ok ? r.json() : null)).catch(() => null),
  };
})();
