// What the wasm module leaves out and the first numbers never need, read once, when a section
// first shows it (web/tools/site_data.mjs writes both): the catalog models' sources, which the
// architecture card lists, and the published decode and prompt-processing runs by model, listed
// below the simulator. The single file carries them inline; the page fetches them beside
// index.html (precached for offline use). Either is {} when it cannot load: the section shows
// what it has.
const pending = new Map();  // file → the promise of its contents

function siteData(file, inlineId) {
  if (!pending.has(file)) {
    const inline = document.getElementById(inlineId);
    pending.set(file, inline ? Promise.resolve(JSON.parse(inline.textContent))
      : fetch(file).then((r) => (r.ok ? r.json() : {})).catch(() => ({})));
  }
  return pending.get(file);
}

/** Every catalog model's sources by id. */
export const modelSources = () => siteData('model-sources.json', 'vramcalc-model-sources');

/** The published runs of tests/calibration by kind (decode, prefill) and catalog model id. */
export const measuredRuns = () => siteData('measured-runs.json', 'vramcalc-measured-runs');
