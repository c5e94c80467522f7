// The only module that touches the WebAssembly core. loadCore() is memoized: every caller
// shares one instance.

let corePromise = null;

/**
 * @returns {Promise<{version: () => string, evaluate: (request: object) => object,
 *                    catalog: object}>}
 */
export function loadCore() {
  if (!corePromise) {
    corePromise = (async () => {
      const moduleUrl = new URL('../vramcalc.mjs', import.meta.url);
      const { default: createVramcalc } = await import(moduleUrl.href);
      const instance = await createVramcalc();
      const catalog = JSON.parse(instance.catalog());
      if (!catalog.ok) throw new Error(catalog.error.message);
      return {
        version: () => instance.version(),
        evaluate: (request) => JSON.parse(instance.evaluate(JSON.stringify(request))),
        catalog,
      };
    })();
    corePromise.catch(() => { corePromise = null; });  // allow a retry after a failed load
  }
  return corePromise;
}
