// The only module that touches the WebAssembly core, through Emscripten's generated glue
// (vramcalc.mjs, vramcalc-full.mjs; wasm/README.md), whose Embind functions take and return
// JavaScript objects. loadCore() is memoized: every caller (the page, any number of widgets)
// shares one instance, and the full module comes when one of them first needs it.

// A static import: bundled into the page's app.js (beside vramcalc.wasm, which the glue finds
// from its own URL) and into the single file; the widget loads it from the site's folder.
import createVramcalc from '../vramcalc.mjs';

const createFull = () => import('../vramcalc-full.mjs').then((glue) => glue.default);

let corePromise = null;
let wasmBinary = null;

/**
 * Hands the core the bytes of vramcalc-full.wasm instead of fetching the modules beside the
 * page: the single-file build carries them inline, and that one instance answers everything.
 * Call before the first loadCore().
 */
export function useWasmBinary(bytes) {
  wasmBinary = bytes;
}

/** vramcalc.wasm, compiled already by web/boot.js (instantiated through the glue's hook), or fetched. */
async function createFirst() {
  const module = await (globalThis.vramcalcCompiled ?? null);
  if (!module) return createVramcalc({});
  return new Promise((resolve, reject) => createVramcalc({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), reject);
      return {};
    },
  }).then(resolve, reject));
}

/**
 * The core: vramcalc.wasm, and vramcalc-full.wasm (the sections below the simulator, the
 * config.json importer and the sweep) once loadFull() has brought it; it then answers every call.
 * @returns {Promise<{version: () => string, catalog: object,
 *                    evaluate: (request: object, configText?: string) => object,
 *                    sweep: (request: object) => object,
 *                    hasFull: () => boolean, loadFull: () => Promise<void>}>}
 *   evaluate() with `configText` takes the model from that config.json text, checked as it was
 *   pasted, and `request` without "model". Before loadFull() has resolved, that answer is the
 *   error config_import_unavailable, sweep()'s sweep_unavailable, and a request for the sections
 *   below the simulator (`sections`; all of them by default) section_unavailable.
 */
export function loadCore() {
  if (!corePromise) {
    corePromise = (async () => {
      const instance = wasmBinary ? await (await createFull())({ wasmBinary }) : await createFirst();
      const catalog = instance.catalog();
      if (!catalog.ok) throw new Error(catalog.error.message);
      let full = wasmBinary ? instance : null;
      let fullPromise = null;
      const loadFull = () => {
        fullPromise ??= full ? Promise.resolve() : createFull().then((create) => create({})).then((loaded) => {
          full = loaded;
        });
        fullPromise.catch(() => { fullPromise = null; });  // a later call tries again
        return fullPromise;
      };
      return {
        version: () => instance.version(),
        evaluate: (request, configText) => (configText === undefined
          ? (full ?? instance).evaluate(request)
          : (full ?? instance).evaluateWithConfig(request, configText)),
        sweep: (request) => (full ?? instance).sweep(request),
        catalog,
        hasFull: () => full !== null,
        loadFull,
      };
    })();
    corePromise.catch(() => { corePromise = null; });  // allow a retry after a failed load
  }
  return corePromise;
}
