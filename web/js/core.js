// The only module that touches the WebAssembly core. loadCore() is memoized: every caller
// (the page, any number of widgets) shares one instance.

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
 * @returns {Promise<{version: () => string, evaluate: (request: object) => object,
 *                    evaluateText: (requestJson: string) => object, catalog: object}>}
 */
export function loadCore() {
  if (!corePromise) {
    corePromise = (async () => {
      // A literal specifier: resolved beside this file's folder, and bundled by the single-file build.
      const { default: createVramcalc } = await import('../vramcalc.mjs');
      const instance = await createVramcalc(wasmBinary ? { wasmBinary } : {});
      const catalog = JSON.parse(instance.catalog());
      if (!catalog.ok) throw new Error(catalog.error.message);
      // Request text as typed, which may not be JSON: the core's error names where it breaks.
      const evaluateText = (requestJson) => JSON.parse(instance.evaluate(requestJson));
      return {
        version: () => instance.version(),
        evaluate: (request) => evaluateText(JSON.stringify(request)),
        evaluateText,
        catalog,
      };
    })();
    corePromise.catch(() => { corePromise = null; });  // allow a retry after a failed load
  }
  return corePromise;
}
