// Imports any model: a Hugging Face repository or file (parseSource's answer) or the user's own
// files, read from their headers only, into a model description the core reads
// (`evaluate({model: description, …})` in vramcalc-full.wasm). Errors are answers naming the
// field, as the core's are; nothing here throws for bad input, an unreachable Hub or a bad file.
import { DEFAULT_HUB_URL } from './source.js';

// What a user types, read without a request: the page's one entry to the importer's chunk.
export { parseSource } from './source.js';
import { hubStore, localStore, planImport } from './store.js';
import { readGguf } from './read-gguf.js';
import { readSafetensors } from './read-safetensors.js';

const OFFLINE = 'An import from the Hub needs a connection; a local file is read on this device and works offline.';

function isFileList(input) {
  return input != null && typeof input !== 'string' && typeof input[Symbol.iterator] === 'function'
    && [...input].every((file) => typeof file?.name === 'string' && typeof file.slice === 'function');
}

/** What a thrown error means to the user: {field, message}. */
function wordError(error, source) {
  const repo = source?.repo ?? 'the repository';
  const host = (() => {
    try {
      return new URL(source?.hubUrl ?? DEFAULT_HUB_URL).host;
    } catch {
      return 'the Hub';
    }
  })();
  const status = error?.statusCode;
  if (status === 404) {
    const at = source?.revision ? ` at revision "${source.revision}"` : '';
    return { field: 'source', message: `${host} has no model repository ${repo}${at}, or it is private.` };
  }
  if (status === 401 || status === 403) {
    return { field: 'source', message: `${repo} is gated or private on ${host}; this page reads public repositories only.` };
  }
  if (status) return { field: 'source', message: `${host} answered HTTP ${status} for ${repo}; try again later.` };
  if (error instanceof TypeError && /fetch|network|load/i.test(error.message)) {
    return { field: 'source', message: `${host} could not be reached (${error.message}). ${OFFLINE}` };
  }
  return { field: error?.field ?? 'source', message: String(error?.message ?? error) };
}

/**
 * Imports a model from its headers.
 * @param {{repo: string, revision?: string|null, file?: string|null, folder?: string|null, hubUrl?: string}
 *         | {ok: true, source: object} | Iterable<File>} input
 *   parseSource's source (or its whole answer), or local files (File objects, or anything with a
 *   name, a size and slice() returning a Blob): .gguf files (shards, an mmproj), or .safetensors
 *   files (or an index and its shards) with their config.json. Local files are read through
 *   Blob.slice and never leave the device.
 * @param {object} options
 * @param {(config: object) => (object|Promise<object>)} options.readConfig  the core's reading of a
 *   config.json or description: `(model) => core.evaluate({model, sections: ['model']})`; answers
 *   {ok: true, model} or {ok: false, error: {code, message, field}}
 * @param {{formats: object[], runtimes: object[]}} options.catalog  the core's catalog() answer
 * @param {string} [options.hubUrl]   the Hub to ask (default https://huggingface.co; tests: the offline Hub)
 * @param {typeof fetch} [options.fetch]  the fetch for the Hub (default globalThis.fetch)
 * @returns {Promise<{ok: true, description: object, file_type: string,
 *            format: {id: string, exact: boolean, note: string},
 *            files: {path: string, kind: 'gguf'|'mmproj'|'safetensors'|'index'|'config'}[],
 *            lines: {role: string, bytes: number, tensors: number, params: number}[],
 *            total_bytes: number, params_total: number,
 *            origin: {kind: 'hub'|'local', host: string, repo: string|null, revision: string|null}} |
 *           {ok: false, error: {field: string, message: string, choices?: string[]}}>}
 *   `lines` one per role present (vision and MTP included, on their own lines); `total_bytes`
 *   every tensor's bytes, vision and MTP included; `params_total` the language model's (the
 *   description's). When `format.exact` is false, `format.note` says which format stands for the
 *   file's type (`file_type`, e.g. "Q3_K_S"). `choices`: the GGUF models a repository holds when
 *   it holds several (import one with `file`).
 */
export async function importModel(input, options = {}) {
  if (typeof options.readConfig !== 'function' || !options.catalog?.formats) {
    throw new TypeError('importModel needs options.readConfig (the core\'s reading) and options.catalog (its catalog).');
  }
  const source = input?.ok === true && input.source ? input.source : input;
  try {
    const local = isFileList(source);
    if (!local && (typeof source?.repo !== 'string' || source.repo === '')) {
      return { ok: false, error: { field: 'source', message: 'Nothing to import: give a repository, a link or files.' } };
    }
    const store = local ? localStore(source) : await hubStore(source, options);
    const planned = planImport(store, local ? {} : source);
    if (!planned.ok) return planned;
    const read = planned.plan.kind === 'gguf' ? readGguf : readSafetensors;
    const result = await read(store, planned.plan, options);
    return result.ok ? await checked(result, store, options) : result;
  } catch (error) {
    return { ok: false, error: wordError(error, isFileList(source) ? null : { ...source, hubUrl: options.hubUrl ?? source?.hubUrl }) };
  }
}

/** The result, once the core has read the description back (its checks: schema, bytes within 2× of the format's bits). */
async function checked(result, store, { readConfig }) {
  const answer = await readConfig(result.description);
  if (!answer.ok) {
    const message = `The estimate refused the imported model: ${answer.error?.message}`;
    return { ok: false, error: { field: answer.error?.field || 'model', message } };
  }
  const language = result.lines.filter((line) => line.role !== 'vision' && line.role !== 'mtp');
  return {
    ...result,
    total_bytes: result.lines.reduce((sum, line) => sum + line.bytes, 0),
    params_total: language.reduce((sum, line) => sum + line.params, 0),
    origin: {
      kind: store.kind, host: store.host, repo: store.kind === 'hub' ? store.repo : null,
      revision: store.kind === 'hub' ? store.revision : null,
    },
  };
}
