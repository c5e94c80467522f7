// A GGUF model (one file or gguf-split shards, and an mmproj beside it) read from its headers
// with @huggingface/gguf: the architecture keys become a config for the core's importer, the
// tensor infos bytes and parameters per role.
import { GGMLFileQuantizationType, gguf, ggufAllShards } from '@huggingface/gguf';
import { buildDescription, refusal } from './description.js';
import { ggufFormat } from './formats.js';
import { configFromGguf } from './gguf-arch.js';
import { APART_ROLES, GGML_TYPES, elementsOf, ggmlTensorBytes, ggufRole, linesByRole } from './roles.js';
import { baseName, fileUrl, ggufParts, okFetch } from './store.js';

const stem = (path) => baseName(path).replace(/(-\d{5}-of-\d{5})?\.gguf$/i, '');

/** An error naming the file, for what a reader throws (the Hub's refusals keep their status). */
function fileError(path, error) {
  if (error?.statusCode) return error;
  const reason = String(error?.message ?? error).replace(/^not a valid gguf file: /, '');
  return Object.assign(new Error(`${baseName(path)} is not a GGUF file this import can read (${reason}).`), { field: 'file' });
}

const infosOf = (parsed) => parsed.tensorInfos.map((t) => ({ name: t.name, type: t.dtype, shape: t.shape }));

/**
 * A GGUF file's header (every part's, for a split file: ggufAllShards reads them all).
 * @returns {Promise<{metadata: object, tensors: {name: string, type: number, shape: bigint[]}[], paths: string[]}>}
 */
async function readHeaders(store, path) {
  const url = fileUrl(store, path);
  const paths = ggufParts(path);
  try {
    const shards = paths.length > 1 ? (await ggufAllShards(url, { fetch: okFetch(store) })).shards
      : [await gguf(url, { fetch: okFetch(store) })];
    return { metadata: shards[0].metadata, tensors: shards.flatMap(infosOf), paths };
  } catch (error) {
    throw fileError(path, error);
  }
}

/** Each tensor with its role, bytes and parameters; throws on a ggml type the table lacks. */
function measure(tensors, roleOf, path) {
  return tensors.map(({ name, type, shape }) => {
    const params = elementsOf(shape);
    const bytes = ggmlTensorBytes(type, params);
    if (bytes === null) {
      throw Object.assign(new Error(`${baseName(path)}: tensor ${name} has ggml type ${type}, which this import does not know.`),
        { field: 'file' });
    }
    return { role: roleOf(name), bytes, params, type };
  });
}

/** The file's own type name: general.file_type, else the type holding most of its bytes. */
function fileTypeOf(metadata, measured) {
  const named = GGMLFileQuantizationType[Number(metadata['general.file_type'])];
  if (typeof named === 'string') return named;
  const bytesByType = new Map();
  for (const { type, bytes } of measured) bytesByType.set(type, (bytesByType.get(type) ?? 0) + bytes);
  const [type] = [...bytesByType].sort((a, b) => b[1] - a[1])[0] ?? [0];
  return GGML_TYPES[type]?.[0] ?? 'unknown';
}

function licenseOf(store, metadata) {
  const license = metadata['general.license'];
  const named = metadata['general.license.name'];
  return store.license || (license === 'other' && typeof named === 'string' ? named : license) || '—';
}

/**
 * The Hub repository of the model a GGUF file was converted from (general.base_model.0.repo_url,
 * as llama.cpp's converter writes it from the model card), else null: the checkpoint the
 * safetensors engines' commands load, where the GGUF's own repository holds no safetensors.
 */
function baseRepo(metadata) {
  const url = metadata['general.base_model.0.repo_url'];
  const match = typeof url === 'string' ? /^https:\/\/huggingface\.co\/([\w.-]+\/[\w.-]+)\/?$/.exec(url) : null;
  return match ? match[1] : null;
}

function identityOf(store, plan, metadata, arch) {
  const hub = store.kind === 'hub';
  return {
    id: hub ? `${store.repo}/${stem(plan.file)}` : `local/${stem(plan.file)}`,
    name: stem(plan.file),
    family: `GGUF (${arch})`,
    license: licenseOf(store, metadata),
    checkpoint: baseRepo(metadata) ?? (hub ? store.repo : ''),
    source: hub ? { what: `architecture and bytes per tensor: the header of ${baseName(plan.file)}`,
      url: `${store.hubUrl}/${store.repo}/blob/${store.revision}/${plan.file}` } : undefined,
    what: baseName(plan.file),
  };
}

/**
 * Imports a GGUF model.
 * @param {import('./store.js').Store} store
 * @param {{file: string, mmproj: string|null}} plan
 * @param {{readConfig: Function, catalog: object}} options
 */
export async function readGguf(store, plan, { readConfig, catalog }) {
  const main = await readHeaders(store, plan.file);
  const arch = configFromGguf(main.metadata, main.tensors);
  if (!arch.ok) return arch;
  const answer = await readConfig(arch.config);
  if (!answer.ok) return refusal(answer, plan.file);
  const measured = measure(main.tensors, (name) => ggufRole(name, { layers: arch.layers }), plan.file);
  const vision = plan.mmproj ? await readHeaders(store, plan.mmproj) : null;
  const apart = vision ? measure(vision.tensors, () => 'vision', plan.mmproj) : [];
  const lines = linesByRole([...measured, ...apart]);
  const language = measured.filter((t) => !APART_ROLES.includes(t.role));
  const bits = (8 * language.reduce((s, t) => s + t.bytes, 0)) / language.reduce((s, t) => s + t.params, 0);
  const fileType = fileTypeOf(main.metadata, measured);
  const format = ggufFormat({ fileType, bitsPerWeight: bits, moe: Boolean(answer.model.moe), catalog });
  const description = buildDescription({
    model: answer.model, lines, identity: identityOf(store, plan, main.metadata, arch.arch), format: format.id,
    file: baseName(plan.file),
  });
  const files = [...main.paths.map((path) => ({ path, kind: 'gguf' })), ...(vision ? [{ path: plan.mmproj, kind: 'mmproj' }] : [])];
  return { ok: true, description, file_type: fileType, format, files, lines };
}
