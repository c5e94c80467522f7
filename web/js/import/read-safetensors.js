// A safetensors checkpoint (one file, several, or shards under model.safetensors.index.json) read
// from its headers with @huggingface/hub, beside its config.json, which the core reads for the
// architecture. Parameters per role follow the library's own rules for packed quantized weights
// (MXFP4 blocks, GPTQ/AWQ qweight, compressed-tensors) and leave out scales and zero points
// (computeNumOfParamsByDtypeSingleFile); bytes are every tensor's, scales included.
import { computeNumOfParamsByDtypeSingleFile, parseSafetensorsMetadata } from '@huggingface/hub';
import { buildDescription, refusal } from './description.js';
import { safetensorsFormat } from './formats.js';
import { APART_ROLES, ROLES, safetensorsRole, safetensorsTensorBytes } from './roles.js';
import { baseName, readJson } from './store.js';

/** Every header of the plan's files: {file → header}. */
async function readHeaders(store, plan) {
  const common = { repo: store.repo, revision: store.revision, hubUrl: store.hubUrl, fetch: store.fetch };
  const paths = plan.index ? [plan.index] : plan.files;
  const headers = {};
  for (const path of paths) {
    try {
      const parsed = await parseSafetensorsMetadata({ ...common, path });
      if (parsed.sharded) Object.assign(headers, parsed.headers);
      else headers[path] = parsed.header;
    } catch (error) {
      throw Object.assign(new Error(`${baseName(path)} could not be read as safetensors (${error?.message ?? error}).`),
        { field: 'file' });
    }
  }
  return headers;
}

/** The tensors by role: a header of each role's tensors, their bytes and their bytes by dtype. */
function groupByRole(headers, layers) {
  const roles = new Map();
  for (const header of Object.values(headers)) {
    for (const [name, info] of Object.entries(header)) {
      if (name === '__metadata__') continue;
      const role = safetensorsRole(name, { layers });
      const group = roles.get(role) ?? { header: {}, bytes: 0, tensors: 0, dtypes: {} };
      const bytes = safetensorsTensorBytes(info) ?? 0;
      group.header[name] = info;
      group.bytes += bytes;
      group.tensors += 1;
      group.dtypes[info.dtype] = (group.dtypes[info.dtype] ?? 0) + bytes;
      roles.set(role, group);
    }
  }
  return roles;
}

/** One line per role, in ROLES order: parameters by the library's rules for the config's quantization. */
function linesOf(roles, config) {
  const text = config.text_config ?? {};
  const quantization = config.quantization_config ?? text.quantization_config;
  const expertDtype = config.expert_dtype ?? text.expert_dtype;
  return ROLES.filter((role) => roles.has(role)).map((role) => {
    const { header, bytes, tensors } = roles.get(role);
    const byDtype = computeNumOfParamsByDtypeSingleFile(header, quantization, expertDtype);
    return { role, bytes, tensors, params: Object.values(byDtype).reduce((sum, n) => sum + n, 0) };
  });
}

function identityOf(store, plan, config) {
  const hub = store.kind === 'hub';
  const named = typeof config._name_or_path === 'string' ? config._name_or_path : '';
  const files = plan.index ? baseName(plan.index) : plan.files.map(baseName).join(', ');
  return {
    id: hub ? store.repo : `local/${named.split('/').pop() || 'checkpoint'}`,
    name: hub ? store.repo : named || 'Local checkpoint',
    family: `Hugging Face (${config.model_type ?? 'unknown'})`,
    license: store.license || '—',
    checkpoint: hub ? store.repo : '',
    source: hub ? { what: `architecture (config.json) and bytes per tensor: the headers of ${files}`,
      url: `${store.hubUrl}/${store.repo}/tree/${store.revision}` } : undefined,
    what: files,
  };
}

/**
 * Imports a safetensors checkpoint.
 * @param {import('./store.js').Store} store
 * @param {{index: string|null, files: string[], config: string}} plan
 * @param {{readConfig: Function, catalog: object}} options
 */
export async function readSafetensors(store, plan, { readConfig, catalog }) {
  const config = await readJson(store, plan.config);
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    return { ok: false, error: { field: 'file', message: `${plan.config} is not a config.json object.` } };
  }
  const answer = await readConfig(config);
  if (!answer.ok) return refusal(answer, plan.config);
  const headers = await readHeaders(store, plan);
  const roles = groupByRole(headers, answer.model.num_hidden_layers);
  const bytesByDtype = {};
  for (const [role, group] of roles) {
    if (APART_ROLES.includes(role)) continue;
    for (const [dtype, bytes] of Object.entries(group.dtypes)) bytesByDtype[dtype] = (bytesByDtype[dtype] ?? 0) + bytes;
  }
  const format = safetensorsFormat({ checkpointFormat: answer.model.checkpoint_format, bytesByDtype, catalog });
  if (!format.ok) return format;
  const lines = linesOf(roles, config);
  const description = buildDescription({ model: answer.model, lines, identity: identityOf(store, plan, config), format: format.id });
  const files = [{ path: plan.config, kind: 'config' }, ...(plan.index ? [{ path: plan.index, kind: 'index' }] : []),
    ...Object.keys(headers).map((path) => ({ path, kind: 'safetensors' }))];
  return { ok: true, description, file_type: format.fileType, format: { id: format.id, exact: true, note: '' }, files, lines };
}
