// vramcalc as a library: evaluate(), sweep() and catalog() from the WebAssembly core, in Node
// and in browsers (a bundler or a plain <script type="module">). One instance of
// vramcalc-full.wasm answers every call (the page's smaller first module, vramcalc.wasm, is for
// the page's first numbers); it starts on the first call. Every function resolves to the core's
// answer, ok or not: a bad request is {ok: false, error: {code, message, field}}, never a
// thrown error.
import createVramcalc from './vramcalc-full.mjs';

let instance = null;

/** Node reads the wasm beside this file; a browser fetches it (the glue finds it). */
async function options() {
  if (typeof process === 'undefined' || !process.versions?.node) return {};
  const { readFile } = await import('node:fs/promises');
  return { wasmBinary: await readFile(new URL('./vramcalc-full.wasm', import.meta.url)) };
}

function core() {
  if (!instance) {
    instance = options().then((given) => createVramcalc(given));
    instance.catch(() => { instance = null; });  // a later call tries again
  }
  return instance;
}

const isText = (value) => typeof value === 'string' || value instanceof Uint8Array;

/**
 * The estimate for a request such as {model: 'qwen3-8b', format: 'Q4_K_M', context: 32768,
 * device: 'rtx-4090-24gb'}, or its JSON text; `config`, a Hugging Face config.json (text or
 * object), is then the model.
 */
export async function evaluate(request = {}, config = undefined) {
  const vramcalc = await core();
  if (config !== undefined) {
    return vramcalc.evaluateWithConfig(request, typeof config === 'string' ? config : JSON.stringify(config) ?? '');
  }
  return isText(request) ? vramcalc.evaluateJson(request) : vramcalc.evaluate(request);
}

/** Every catalog model × format × device at once ({device} for one device: what runs on it). */
export async function sweep(request = {}) {
  return (await core()).sweep(request);
}

/** The catalog: models, devices, formats, runtimes, the request's vocabulary and limits. */
export async function catalog() {
  return (await core()).catalog();
}

/**
 * Any model from the Hugging Face Hub or from files: `source` a repo id ("Qwen/Qwen3-8B") or a
 * huggingface.co link to a repository, a revision or a file, or {repo, revision, file}, or the
 * files themselves (File or Blob objects with names: a .gguf, .safetensors shards with their
 * index, config.json). Reads headers only: GGUF through @huggingface/gguf, safetensors through
 * @huggingface/hub (bundled in import.js, which loads on the first call), by range requests to
 * the Hub (`options.hubUrl` for another), a local file through Blob.slice. Resolves to
 * {ok: true, description, lines, format, …}: `description` is a model description the estimate
 * reads (evaluate({model: description})), `lines` the bytes and parameters per tensor role;
 * or {ok: false, error: {field, message}}.
 */
export async function importModel(source, options = {}) {
  const [reader, vramcalc] = await Promise.all([import('./import.js'), core()]);
  const parsed = typeof source === 'string' ? reader.parseSource(source, { hubUrl: options.hubUrl }) : { ok: true, source };
  if (!parsed.ok) return parsed;
  return reader.importModel(parsed.source, {
    ...options,
    readConfig: (model) => vramcalc.evaluate({ model, sections: ['model'] }),
    catalog: vramcalc.catalog(),
  });
}

/** The core's version. */
export async function version() {
  return (await core()).version();
}
