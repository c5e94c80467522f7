// The only module that touches the WebAssembly core. loadCore() is memoized: every caller
// (the page, any number of widgets) shares one instance.

// A static import: bundled into the page's app.js (beside vramcalc.wasm, which the loader finds
// from its own URL) and into the single file; the widget loads it from the site's folder.
import createVramcalc from '../vramcalc.mjs';

let corePromise = null;
let wasmBinary = null;

/**
 * Hands the core its wasm bytes instead of fetching vramcalc.wasm beside vramcalc.mjs: the
 * single-file build carries them inline. Call before the first loadCore().
 */
export function useWasmBinary(bytes) {
  wasmBinary = bytes;
}

/**
 * @returns {Promise<{version: () => string, catalog: object,
 *                    evaluate: (request: object, configText?: string) => object,
 *                    sweep: (request: object) => object}>}
 *   evaluate() with `configText` takes the model from that config.json text, checked as it was
 *   pasted (the core names the key where it breaks), and `request` without "model".
 */
export function loadCore() {
  if (!corePromise) {
    corePromise = (async () => {
      const instance = await createVramcalc(wasmBinary ? { wasmBinary } : {});
      const catalog = JSON.parse(instance.catalog());
      if (!catalog.ok) throw new Error(catalog.error.message);
      return {
        version: () => instance.version(),
        evaluate: (request, configText) => JSON.parse(configText === undefined
          ? instance.evaluate(JSON.stringify(request))
          : instance.evaluateWithConfig(JSON.stringify(request), configText)),
        sweep: (request) => JSON.parse(instance.sweep(JSON.stringify(request))),
        catalog,
      };
    })();
    corePromise.catch(() => { corePromise = null; });  // allow a retry after a failed load
  }
  return corePromise;
}
