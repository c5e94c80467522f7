// Where the files come from: a Hub repository at one commit, or the user's own files through the
// local stand-in (local-files.js). Both answer the same URL layout, so the readers are one code
// path; and which files of a repository an import reads (the plan).
import { modelInfo } from '@huggingface/hub';
import { parseGgufShardFilename } from '@huggingface/gguf';
import { LOCAL_HUB_URL, LOCAL_REPO, localFetch } from './local-files.js';
import { DEFAULT_HUB_URL } from './source.js';

const GGUF = /\.gguf$/i;
const MMPROJ = /(^|\/)mmproj[^/]*\.gguf$/i;
const SAFETENSORS = /\.safetensors$/i;
const SAFETENSORS_INDEX = /\.safetensors\.index\.json$/i;
// An mmproj beside a model: the one of the model's own precision, else the first of these.
const MMPROJ_PREFERENCE = ['F16', 'BF16', 'Q8_0', 'F32'];

/**
 * @typedef {object} Store
 * @property {'hub'|'local'} kind
 * @property {string} hubUrl    the Hub's base URL (the stand-in's for local files)
 * @property {string} repo      owner/name
 * @property {string} revision  the commit every file is read at (local: "main")
 * @property {typeof fetch} fetch
 * @property {string[]} paths   the repository's files
 * @property {string} host      what messages call it ("huggingface.co", "this device")
 * @property {string} license   the repository's licence, or ""
 */

/** A file's URL in a store: the Hub's resolve URL (the stand-in answers the same). */
export function fileUrl(store, path) {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `${store.hubUrl}/${store.repo}/resolve/${encodeURIComponent(store.revision)}/${encoded}`;
}

/**
 * The store's fetch, refusing what the Hub refuses (a gated file's 401), which a GGUF reader would
 * otherwise read as a file that is not GGUF: throws an error with the response's statusCode.
 */
export function okFetch(store) {
  return async (input, init) => {
    const response = await store.fetch(input, init);
    if (!response.ok && response.status !== 416) {
      throw Object.assign(new Error(`HTTP ${response.status} for ${String(input?.url ?? input)}`), { statusCode: response.status });
    }
    return response;
  };
}

/** A JSON file of a store, parsed; throws a message naming it when it is not JSON. */
export async function readJson(store, path) {
  const response = await store.fetch(fileUrl(store, path));
  if (!response.ok) throw Object.assign(new Error(`${path} could not be read (HTTP ${response.status}).`), { field: 'file' });
  try {
    return JSON.parse(await response.text());
  } catch {
    throw Object.assign(new Error(`${path} is not valid JSON.`), { field: 'file' });
  }
}

/** The user's files as a store. */
export function localStore(files) {
  const list = [...files];
  return {
    kind: 'local', hubUrl: LOCAL_HUB_URL, repo: LOCAL_REPO, revision: 'main', fetch: localFetch(list),
    paths: list.map((file) => file.name), host: 'this device', license: '',
  };
}

function licenseOf(info) {
  const card = info.cardData?.license;
  if (typeof card === 'string' && card) return card;
  const tag = (info.tags ?? []).find((t) => typeof t === 'string' && t.startsWith('license:'));
  return tag ? tag.slice('license:'.length) : '';
}

/**
 * `fetcher` reading the Hub's files as plain byte ranges. Without Xet's file-info type in its
 * Accept header, @huggingface/hub reads a file through its resolve URL's redirect
 * (cas-bridge.xethub.hf.co, cdn-lfs*.hf.co: the page's connect-src) instead of Xet's
 * reconstruction service. WebKit drops the Range header when it follows that redirect to the
 * other host and gets the whole file (GBs): such an answer is cancelled and the range asked of
 * the file host itself, as every later range of that file is.
 */
function hubRanges(fetcher) {
  const redirected = new Map();  // a file's resolve URL → where its redirect led
  return async (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (headers.get('Accept')?.includes('xet')) headers.set('Accept', '*/*');
    const url = String(input instanceof Request ? input.url : input);
    const response = await fetcher(redirected.get(url) ?? url, { ...init, headers });
    if (!headers.has('Range') || response.status !== 200 || !response.redirected) return response;
    response.body?.cancel();
    redirected.set(url, response.url);
    return fetcher(response.url, { ...init, headers });
  };
}

/**
 * A Hub repository as a store, pinned to the commit its revision names (one request: the
 * model's info, with its files, licence and sha).
 * @param {{repo: string, revision: string|null, hubUrl?: string}} source  parseSource's
 * @param {{hubUrl?: string, fetch?: typeof fetch}} options
 * @returns {Promise<Store>} throws the library's HubApiError (importModel words it)
 */
export async function hubStore(source, options) {
  const hubUrl = (options.hubUrl ?? source.hubUrl ?? DEFAULT_HUB_URL).replace(/\/$/, '');
  const fetcher = hubRanges(options.fetch ?? globalThis.fetch.bind(globalThis));
  const info = await modelInfo({
    name: source.repo, revision: source.revision ?? undefined, hubUrl, fetch: fetcher,
    additionalFields: ['sha', 'filePaths', 'cardData', 'tags'],
  });
  return {
    kind: 'hub', hubUrl, repo: source.repo, revision: info.sha ?? source.revision ?? 'main', fetch: fetcher,
    paths: info.filePaths ?? [], host: new URL(hubUrl).host, license: licenseOf(info),
  };
}

function failure(field, message, choices) {
  return { ok: false, error: { field, message, ...(choices ? { choices } : {}) } };
}

const dirOf = (path) => path.slice(0, path.lastIndexOf('/') + 1);

/** A path's file name. */
export const baseName = (path) => path.slice(path.lastIndexOf('/') + 1);

/** Every part of a split GGUF file, from its first (one path for an unsplit file). */
export function ggufParts(path) {
  const split = parseGgufShardFilename(path);
  if (!split) return [path];
  return Array.from({ length: Number(split.total) },
    (_, i) => `${split.prefix}-${String(i + 1).padStart(split.shard.length, '0')}-of-${split.total}.gguf`);
}

/** A GGUF file's first part (a split file is read from its first). */
const firstShard = (path) => ggufParts(path)[0];

/** The mmproj file beside a GGUF model, when its folder has one. */
function mmprojBeside(paths, model) {
  const beside = paths.filter((p) => MMPROJ.test(p) && dirOf(p) === dirOf(model));
  const labelled = (path, label) => new RegExp(`(^|[^A-Z])${label}([^A-Z0-9]|$)`).test(baseName(path).toUpperCase());
  const own = MMPROJ_PREFERENCE.find((label) => labelled(model, label));
  for (const label of [own, ...MMPROJ_PREFERENCE]) {
    const match = label && beside.find((p) => labelled(p, label));
    if (match) return match;
  }
  return beside[0] ?? null;
}

/** The GGUF models of a folder (shards once, mmproj files aside). */
function ggufModels(paths, folder) {
  const inside = paths.filter((p) => GGUF.test(p) && !MMPROJ.test(p) && (!folder || p.startsWith(`${folder}/`)));
  return [...new Set(inside.map(firstShard))].sort();
}

function ggufPlan(paths, file) {
  const model = firstShard(file);
  const missing = ggufParts(model).filter((part) => !paths.includes(part));
  if (missing.length) return failure('file', `Parts of this split GGUF file are missing: ${missing.map(baseName).join(', ')}.`);
  return { ok: true, plan: { kind: 'gguf', file: model, mmproj: MMPROJ.test(model) ? null : mmprojBeside(paths, model) } };
}

/** A safetensors checkpoint: its index (sharded) or its files, beside its config.json. */
function safetensorsPlan(paths, dir, file) {
  const config = `${dir}config.json`;
  if (!paths.includes(config)) {
    return failure('files', 'A safetensors checkpoint is read with its config.json, which is missing: '
      + 'add config.json (it stays on this device too).');
  }
  const index = paths.find((p) => SAFETENSORS_INDEX.test(p) && dirOf(p) === dir);
  if (index && (!file || !SAFETENSORS_INDEX.test(file))) return { ok: true, plan: { kind: 'safetensors', index, files: [], config } };
  if (file && SAFETENSORS_INDEX.test(file)) return { ok: true, plan: { kind: 'safetensors', index: file, files: [], config } };
  const files = file ? [file] : paths.filter((p) => SAFETENSORS.test(p) && dirOf(p) === dir).sort();
  return { ok: true, plan: { kind: 'safetensors', index: null, files, config } };
}

/**
 * Which files an import reads.
 * @param {Store} store
 * @param {{file?: string|null, folder?: string|null}} [wanted]  a file or folder the link named
 * @returns {{ok: true, plan: {kind: 'gguf', file: string, mmproj: string|null} |
 *                            {kind: 'safetensors', index: string|null, files: string[], config: string}} |
 *           {ok: false, error: {field: string, message: string, choices?: string[]}}}
 */
export function planImport(store, { file = null, folder = null } = {}) {
  const { paths } = store;
  const where = store.kind === 'hub' ? `${store.repo} on ${store.host}` : 'the files given';
  if (file) {
    if (!paths.includes(file)) return failure('file', `${file} is not in ${where}.`);
    return GGUF.test(file) ? ggufPlan(paths, file) : safetensorsPlan(paths, dirOf(file), file);
  }
  const root = folder ? `${folder}/` : '';
  if (paths.some((p) => (SAFETENSORS.test(p) || SAFETENSORS_INDEX.test(p)) && dirOf(p) === root)) {
    return safetensorsPlan(paths, root, null);
  }
  const models = ggufModels(paths, folder);
  if (models.length === 1) return ggufPlan(paths, models[0]);
  if (models.length > 1) {
    return failure('file', `${where} holds ${models.length} GGUF models; choose one of them (link the file).`, models);
  }
  if (paths.some((p) => MMPROJ.test(p))) return failure('file', 'Only an mmproj file was given: add the model\'s own GGUF file.');
  return failure(store.kind === 'hub' ? 'source' : 'files', `${where} holds no .safetensors or .gguf weights to read.`);
}

