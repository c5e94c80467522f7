// The only module that touches the WebAssembly core. loadCore() is memoized: every caller
// (the page, any number of widgets) shares one instance, and the full module (the config.json
// importer and the sweep) comes when one of them first needs it.

// A static import: bundled into the page's app.js (beside vramcalc.wasm, which the loader finds
// from its own URL) and into the single file; the widget loads it from the site's folder.
import createVramcalc from '../vramcalc.mjs';

let corePromise = null;
let wasmBinary = null;

/**
 * Hands the core the bytes of vramcalc-full.wasm instead of fetching the modules beside
 * vramcalc.mjs: the single-file build carries them inline, and that one instance answers
 * everything, config.json files and sweeps included. Call before the first loadCore().
 */
export function useWasmBinary(bytes) {
  wasmBinary = bytes;
}

/**
 * The core: vramcalc.wasm, and vramcalc-full.wasm (the same with the config.json importer, the
 * sweep and the sections below the simulator) once loadFull() has brought it; it then answers
 * every call.
 * @returns {Promise<{version: () => string, catalog: object,
 *                    evaluate: (request: object, configText?: string) => object,
 *                    sweep: (request: object) => object,
 *                    hasFull: () => boolean, loadFull: () => Promise<void>}>}
 *   evaluate() with `configText` takes the model from that config.json text, checked as it was
 *   pasted (the core names the key where it breaks), and `request` without "model". Before
 *   loadFull() has resolved, that answer is the error config_import_unavailable, sweep()'s
 *   sweep_unavailable, and a request for the curve, the hardware table, the related models or the commands
 *   (`sections`; all of them by default) section_unavailable.
 */
export function loadCore() {
  if (!corePromise) {
    corePromise = (async () => {
      // The page's boot.js may have compiled vramcalc.wasm while app.js downloaded.
      const compiled = wasmBinary ? null : await (globalThis.vramcalcCompiled ?? null);
      const instance = await createVramcalc(wasmBinary ? { wasmBinary } : compiled ? { module: compiled } : {});
      const catalog = JSON.parse(instance.catalog());
      if (!catalog.ok) throw new Error(catalog.error.message);
      let full = wasmBinary ? instance : null;
      let fullPromise = null;
      const loadFull = () => {
        fullPromise ??= full ? Promise.resolve() : createVramcalc({ file: 'vramcalc-full.wasm' }).then((loaded) => {
          full = loaded;
        });
        fullPromise.catch(() => { fullPromise = null; });  // a later call tries again
        return fullPromise;
      };
      return {
        version: () => instance.version(),
        // A request object goes to the core as fields, which both modules read (vramcalc.mjs).
        evaluate: (request, configText) => JSON.parse(configText === undefined
          ? (full ?? instance).evaluate(request)
          : (full ?? instance).evaluateWithConfig(request, configText)),
        sweep: (request) => JSON.parse((full ?? instance).sweep(JSON.stringify(request))),
        catalog,
        hasFull: () => full !== null,
        loadFull,
      };
    })();
    corePromise.catch(() => { corePromise = null; });  // allow a retry after a failed load
  }
  return corePromise;
}
