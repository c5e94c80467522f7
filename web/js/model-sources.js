// The catalog models' sources, which the wasm module leaves out (the first numbers never need
// them): read once, when an architecture card first shows them. The single file carries them
// inline; the page fetches model-sources.json beside index.html (precached for offline use).
let pending = null;

export function modelSources() {
  if (!pending) {
    const inline = document.getElementById('vramcalc-model-sources');
    pending = inline ? Promise.resolve(JSON.parse(inline.textContent))
      : fetch('model-sources.json').then((r) => (r.ok ? r.json() : {})).catch(() => ({}));
  }
  return pending;
}
