// vramcalc as a library: evaluate(), sweep() and catalog() from the WebAssembly core, in Node
// and in browsers (a bundler or a plain <script type="module">). One instance answers every
// call; it starts on the first. Every function resolves to the core's JSON answer, ok or not:
// a bad request is {ok: false, error: {code, message, field}}, never a thrown error.
import createVramcalc from './vramcalc.mjs';

let instance = null;

/** Node reads the wasm beside this file; a browser fetches it (vramcalc.mjs finds it). */
async function options() {
  if (typeof process === 'undefined' || !process.versions?.node) return {};
  const { readFile } = await import('node:fs/promises');
  return { wasmBinary: await readFile(new URL('./vramcalc.wasm', import.meta.url)) };
}

function core() {
  instance ??= options().then((given) => createVramcalc(given));
  instance.catch(() => { instance = null; });  // a later call tries again
  return instance;
}

/**
 * The estimate for a request such as {model: 'qwen3-8b', format: 'Q4_K_M', context: 32768,
 * device: 'rtx-4090-24gb'}; `config`, a Hugging Face config.json (text or object), is then the
 * model.
 */
export async function evaluate(request = {}, config = undefined) {
  const module = await core();
  const text = JSON.stringify(request);
  if (config === undefined) return JSON.parse(module.evaluate(text));
  return JSON.parse(module.evaluateWithConfig(text, typeof config === 'string' ? config : JSON.stringify(config)));
}

/** Every catalog model × format × device at once ({device} for one device: what runs on it). */
export async function sweep(request = {}) {
  return JSON.parse((await core()).sweep(JSON.stringify(request)));
}

/** The catalog: models, devices, formats, runtimes, the request's vocabulary and limits. */
export async function catalog() {
  return JSON.parse((await core()).catalog());
}

/** The core's version. */
export async function version() {
  return (await core()).version();
}
