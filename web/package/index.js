// vramcalc as a library: evaluate(), sweep() and catalog() from the WebAssembly core, in Node
// and in browsers (a bundler or a plain <script type="module">). One instance answers every
// call; it starts on the first. Every function resolves to the core's JSON answer, ok or not:
// a bad request is {ok: false, error: {code, message, field}}, never a thrown error.
import createVramcalc from './vramcalc.mjs';

// vramcalc.wasm answers catalog(), version() and evaluate() of a request object but for the
// sections below the simulator; vramcalc-full.wasm (the same with the JSON reader, the
// config.json importer, the sweep and those sections) answers those, a config.json, sweep() and
// the requests the first module's fields do not carry, and once started every call; each starts
// on its first call.
const instances = new Map();
const FULL = 'vramcalc-full.wasm';
const FULL_ONLY = new Set(['section_unavailable', 'json_unavailable']);

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
  // The request as the core reads it: an object (vramcalc.mjs writes it as fields where they
  // carry it), anything else as its JSON text, which only the full module reads.
  const given = request !== null && typeof request === 'object' ? request : JSON.stringify(request) ?? '';
  // Once the full module has started it answers everything, as it does on the page; a
  // config.json is read by it alone.
  if (config === undefined && !instances.has(FULL)) {
    const answer = JSON.parse((await core()).evaluate(given));
    // The curve, the hardware table, the related models and the commands (every section by default), and
    // what the fields do not carry: JSON text, a config.json or a device given as an object.
    if (answer.ok || !FULL_ONLY.has(answer.error.code)) return answer;
  }
  const full = await core(FULL);
  if (config === undefined) return JSON.parse(full.evaluate(given));
  return JSON.parse(full.evaluateWithConfig(given, typeof config === 'string' ? config : JSON.stringify(config)));
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
