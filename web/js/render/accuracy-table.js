// The decode estimate's whole error table under an engine profile, one click away beside the
// decode figure (its error line is accuracy.js's): each rule's error on the runs it was fitted to
// and on those of the sources set aside before fitting; and under the error line, where the
// engine runs the card without CUDA graphs or an MLA model deep in a context, that decode is
// slower than the rule says. The page draws them with the sections below, after the first numbers.
import { byId, el, put } from '../dom.js';
import * as fmt from '../format.js';
import { cudaBelow } from '../state.js';

// A rule from an architecture version (DecodeRule from_compute_capability): Apple's Metal GPU
// family as Apple names it ("Apple10"), NVIDIA's compute capability as a number.
function ruleLabel(t, lang, rule) {
  const kind = fmt.devicesOfKind(t, rule.platform, rule.unified_memory === 'yes', rule.class);
  const cc = rule.from_compute_capability;
  const family = rule.platform === 'metal' ? `Apple${cc}` : fmt.fixed(lang, cc, 1);
  const devices = cc > 0 ? t('accuracy.family', { devices: kind, family }) : kind;
  const tiered = rule.from_bandwidth_gbps > 0
    ? t('accuracy.tier', { devices, bandwidth: fmt.integer(lang, rule.from_bandwidth_gbps) }) : devices;
  if (rule.moe === 'any') return tiered;
  return t(rule.moe === 'yes' ? 'accuracy.moe' : 'accuracy.dense', { devices: tiered });
}

const RULE_KEYS = ['platform', 'class', 'unified_memory', 'from_bandwidth_gbps', 'from_compute_capability', 'moe'];
const sameRule = (a, b) => Boolean(a && b) && RULE_KEYS.every((key) => a[key] === b[key]);

function row(t, lang, rule) {
  const tr = document.createElement('tr');
  const pct = (value, points) => (points ? `${fmt.fixed(lang, value, 1)} %` : '—');
  const { holdout } = rule;
  const cells = [ruleLabel(t, lang, rule), fmt.integer(lang, rule.points), pct(rule.median_error_pct, rule.points),
    pct(rule.p90_error_pct, rule.points), fmt.integer(lang, holdout.points), pct(holdout.median_error_pct, holdout.points),
    pct(holdout.p90_error_pct, holdout.points)];
  cells.forEach((text, i) => {
    const cell = document.createElement(i === 0 ? 'th' : 'td');
    if (i === 0) cell.scope = 'row'; else cell.className = 'num';
    cell.textContent = text;
    tr.append(cell);
  });
  return tr;
}

// A note under the decode figure's error line, after the element `afterId`: shown with `text`,
// hidden with null.
function renderDecodeNote(root, id, afterId, text) {
  const after = byId(root, afterId);
  if (!after) return;
  let note = byId(root, id);
  if (!note) {
    note = el('dd', { class: 'sub', id, 'data-testid': id, hidden: true });
    after.after(note);
  }
  if (note.hidden !== (text === null)) note.hidden = text === null;
  if (text !== null) put(note, text);
}

/**
 * A CUDA card below the compute capability from which the engine uses CUDA graphs (llama.cpp's
 * Volta, runtime profile cuda_graphs_from), whose decode the rule, fitted to runs with graphs,
 * overstates.
 */
function graphsNote(sim, runtime, { t, lang, catalog }) {
  const from = runtime?.cuda_graphs_from ?? 0;
  const device = catalog.devices.find((d) => d.id === sim.device);
  if (!device || !cudaBelow(device, from) || !(sim.decode_tps > 0)) return null;
  return t('accuracy.no_graphs', { cc: fmt.fixed(lang, device.compute_capability, 1), from: fmt.fixed(lang, from, 1) });
}

// MLA (latent) attention deep in a context under llama.cpp and Ollama, whose published runs decode
// far slower there than the rules say (core/ESTIMATION.md section 6): from 4,096 tokens, the
// shallowest depth at which those runs were measured.
const LLAMA_CPP_ENGINES = ['llamacpp', 'ollama'];
const MLA_DEPTH_TOKENS = 4096;
function mlaDepthNote(response, { t }) {
  const sim = response.simulator;
  const latent = (response.model?.layer_groups ?? []).some((group) => group.kind === 'latent');
  const deep = LLAMA_CPP_ENGINES.includes(sim.runtime) && sim.context >= MLA_DEPTH_TOKENS;
  return latent && deep && sim.decode_tps > 0 ? t('accuracy.mla_depth') : null;
}

const COLUMNS = ['devices', 'points', 'median', 'p90', 'holdout_points', 'holdout_median', 'holdout_p90'];

// The table in the page's language: its heading, columns and note (built here, after the first
// numbers, not in index.html) and a row per rule.
function fill(details, t, lang, rules) {
  const head = el('tr', {}, ...COLUMNS.map((column, i) => el('th', { scope: 'col', class: i > 0 ? 'num' : null },
    t(`accuracy.col.${column}`))));
  const table = el('table', { class: 'data', id: 'accuracy-table', 'data-testid': 'accuracy-table' },
    el('thead', {}, head), el('tbody', {}, ...rules.map((rule) => row(t, lang, rule))));
  details.replaceChildren(el('summary', {}, t('accuracy.heading')), el('div', { class: 'table-wrap' }, table),
    el('p', { class: 'muted' }, t('accuracy.note')));
}

export function renderAccuracy(root, response, view) {
  const sim = response.simulator;
  const runtime = view.catalog.runtimes.find((r) => r.id === sim.runtime);
  renderDecodeNote(root, 'decode-graphs', 'decode-error', graphsNote(sim, runtime, view));
  renderDecodeNote(root, 'decode-mla-depth', 'decode-graphs', mlaDepthNote(response, view));
  const details = byId(root, 'accuracy');
  if (!details) return;
  const rules = runtime?.decode ?? [];
  if (details.hidden !== (rules.length === 0)) details.hidden = rules.length === 0;
  const key = `${sim.runtime}|${view.lang}`;
  if (details.dataset.key !== key) {  // rebuilt when the engine or the language changes, not per frame
    details.dataset.key = key;
    fill(details, view.t, view.lang, rules);
  }
  const body = byId(root, 'accuracy-table').tBodies[0];
  rules.forEach((rule, i) => body.rows[i].classList.toggle('current', sameRule(rule, sim.decode_rule)));
}
