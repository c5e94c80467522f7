// vramcalc as a library: evaluate(), sweep() and catalog() from the WebAssembly core, in Node
// and in browsers (a bundler or a plain <script type="module">). One instance answers every
// call; it starts on the first. Every function resolves to the core's JSON answer, ok or not:
// a bad request is {ok: false, error: {code, message, field}}, never a thrown error.
import createVramcalc from './vramcalc.mjs';

// vramcalc.wasm answers catalog(), version() and evaluate() but for the sections below the
// simulator; vramcalc-full.wasm (the same with the config.json importer, the sweep and those
// sections) answers those, a config.json and sweep(), and once started every call; each starts on
// its first call.
const instances = new Map();
const FULL = 'vramcalc-full.wasm';

/** Node reads the wasm beside this file; a browser fetches it (vramcalc.mjs finds it). */
async function options(file) {
  if (typeof process === 'undefined' || !process.versions?.node) return { file };
  const { readFile } = await import('node:fs/promises');
  return { wasmBinary: await readFile(new URL(`./${file}`, import.meta.url)) };
}

function core(file = 'vramcalc.wasm') {
  if (!instances.has(file)) {
    const instance = options(file).then((given) => createVramcalc(given));
    instance.catch(() => instances.delete(file));  // a later call tries again
    instances.set(file, instance);
  }
  return instances.get(file);
}

/**
 * The estimate for a request such as {model: 'qwen3-8b', format: 'Q4_K_M', context: 32768,
 * device: 'rtx-4090-24gb'}; `config`, a Hugging Face config.json (text or object), is then the
 * model.
 */
export async function evaluate(request = {}, config = undefined) {
  const text = JSON.stringify(request);
  // A config.json, beside the request or as its model, is read by the full module.
  const pasted = config !== undefined || (typeof request?.model === 'object' && request.model !== null);
  // Once the full module has started it answers everything, as it does on the page.
  if (!pasted && !instances.has(FULL)) {
    const answer = JSON.parse((await core()).evaluate(text));
    // The hardware table, the related models and the commands (every section by default).
    if (answer.ok || answer.error.code !== 'section_unavailable') return answer;
  }
  const full = await core(FULL);
  if (config === undefined) return JSON.parse(full.evaluate(text));
  return JSON.parse(full.evaluateWithConfig(text, typeof config === 'string' ? config : JSON.stringify(config)));
}

/** Every catalog model × format × device at once ({device} for one device: what runs on it). */
export async function sweep(request = {}) {
  return JSON.parse((await core(FULL)).sweep(JSON.stringify(request)));
}

/** The catalog: models, devices, formats, runtimes, the request's vocabulary and limits. */
export async function catalog() {
  return JSON.parse((await core()).catalog());
}

/** The core's version. */
export async function version() {
  return (await core()).version();
}
