// The decode estimate's whole error table under an engine profile, one click away beside the
// decode figure (its error line is accuracy.js's): each rule's error on the runs it was fitted to
// and on those of the sources set aside before fitting; and under the error line, where the
// engine runs the card without CUDA graphs, that decode is slower than the rule says. The page
// draws them with the sections below, after the first numbers.
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

/**
 * Under the decode figure's error line: a CUDA card below the compute capability from which the
 * engine uses CUDA graphs (llama.cpp's Volta, runtime profile cuda_graphs_from), whose decode
 * the rule, fitted to runs with graphs, overstates.
 */
function renderGraphsNote(root, sim, runtime, { t, lang, catalog }) {
  const after = byId(root, 'decode-error');
  if (!after) return;
  let note = byId(root, 'decode-graphs');
  if (!note) {
    note = el('dd', { class: 'sub', id: 'decode-graphs', 'data-testid': 'decode-graphs', hidden: true });
    after.after(note);
  }
  const from = runtime?.cuda_graphs_from ?? 0;
  const device = catalog.devices.find((d) => d.id === sim.device);
  const shown = Boolean(device) && cudaBelow(device, from) && sim.decode_tps > 0;
  if (note.hidden !== !shown) note.hidden = !shown;
  if (shown) put(note, t('accuracy.no_graphs', { cc: fmt.fixed(lang, device.compute_capability, 1), from: fmt.fixed(lang, from, 1) }));
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
  renderGraphsNote(root, sim, runtime, view);
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
