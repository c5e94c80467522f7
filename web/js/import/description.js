// The model description an import hands the core (wasm/README.md "A model description"): the
// architecture as the core read it from the config (its answer's model section), with the
// parameters and the bytes per role counted from the file's tensors.
import { APART_ROLES, ROLES } from './roles.js';

/** The description's schema id (core/include/vramcalc/hf_config.h kModelDescriptionSchema). */
export const MODEL_SCHEMA = 'vramcalc.model/1';

const grouped = new Intl.NumberFormat('en-US');

/**
 * A text as one shell word, as the core's ShellWord (core/src/estimate/display.cc) makes one:
 * letters, digits, ".", "_" (and "/" when `slashes`) stay, every run of anything else becomes one
 * "-", none leads or trails. The core refuses an id, checkpoint or file that is not one.
 */
export function shellWord(text, slashes = false) {
  let word = '';
  for (const c of String(text)) {
    const kept = /[A-Za-z0-9._]/.test(c) || (c === '-' && word !== '' && !word.endsWith('-')) || (slashes && c === '/');
    if (kept) word += c;
    else if (word !== '' && !word.endsWith('-')) word += '-';
  }
  word = word.replace(/-+$/, '');
  return word === '' ? 'model' : word;
}

/** A name on one line, without control characters, at most 100 characters. */
export function oneLine(text) {
  return String(text).replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 100);
}

function lineOf(lines, role) {
  return lines.find((line) => line.role === role) ?? { role, bytes: 0, tensors: 0, params: 0 };
}

/** The language model's parameters and what a token reads of them (routed experts: k of n). */
function counted(model, lines) {
  const language = lines.filter((line) => !APART_ROLES.includes(line.role));
  const total = language.reduce((sum, line) => sum + line.params, 0);
  const routed = lineOf(lines, 'routed_experts').params;
  const perLayer = lineOf(lines, 'per_layer_embedding').params;
  const share = model.moe ? model.moe.experts_per_token / model.moe.num_experts : 1;
  return { total, active: total - routed * (1 - share) - perLayer, routed, perLayer, tensors: language.reduce((n, l) => n + l.tensors, 0) };
}

function formulaOf(count, lines, what) {
  const apart = APART_ROLES.map((role) => lineOf(lines, role)).filter((line) => line.params > 0)
    .map((line) => `${line.role === 'mtp' ? 'MTP' : line.role} ${grouped.format(line.params)}`);
  return `${grouped.format(count.total)} parameters counted from the ${grouped.format(count.tensors)} language-model tensors of `
    + `${what}${apart.length ? `; ${apart.join(' and ')} apart` : ''}`;
}

/**
 * The description.
 * @param {object} parts
 * @param {object} parts.model     the core's answer's model section for the config the file implies
 * @param {{role: string, bytes: number, tensors: number, params: number}[]} parts.lines  linesByRole's
 * @param {{id: string, name: string, family: string, license: string, checkpoint?: string,
 *          source?: {what: string, url: string}, what: string}} parts.identity
 *   `what` names the file(s) for the parameter note
 * @param {string} parts.format    the format id the bytes are of
 * @param {string} [parts.file]    weights.file: the GGUF file llama.cpp loads
 * @returns {object} {"schema": "vramcalc.model/1", …catalog entry fields, "weights": {…}}
 */
export function buildDescription({ model, lines, identity, format, file }) {
  const count = counted(model, lines);
  const { sources, params_formula: formula, ...fields } = model;
  const weights = { format, ...(file ? { file: shellWord(file) } : {}) };
  for (const role of ROLES) weights[role] = lineOf(lines, role).bytes;
  return {
    schema: MODEL_SCHEMA,
    ...fields,
    id: shellWord(identity.id, true),
    name: oneLine(identity.name) || 'Imported model',
    family: oneLine(identity.family),
    license: oneLine(identity.license) || '—',
    ...(identity.checkpoint ? { checkpoint: shellWord(identity.checkpoint, true) } : {}),
    params_total: count.total,
    params_active: count.active,
    per_layer_embedding_params: count.perLayer,
    // The towers an engine loads beside the model (an mmproj file, a checkpoint's tower tensors).
    vision_params: lineOf(lines, 'vision').params,
    params_formula: formulaOf(count, lines, identity.what),
    tie_word_embeddings: weights.head === 0,
    moe: model.moe ? { ...model.moe, expert_params: count.routed } : null,
    ...(identity.source ? { sources: [identity.source] } : {}),
    weights,
  };
}

/** The core's refusal of the architecture a file implies, naming the file. */
export function refusal(answer, path) {
  const { field, message } = answer.error ?? {};
  const name = path.slice(path.lastIndexOf('/') + 1);
  return { ok: false, error: { field: field || 'file', message: `The architecture in ${name} was refused: ${message}` } };
}
