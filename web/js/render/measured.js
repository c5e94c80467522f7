// The published runs of the model on the page, below the decode estimate and its error table and
// the serving figures (two cards under the simulator's grid, as wide as the page): its decode
// runs and its prompt-processing runs. What people measured, each run as its source states it
// (tests/calibration/decode.json and prefill.json, by model in the site's measured-runs.json), so
// that the estimates can be held against real runs of the same model. Drawn with the sections
// below, after the first numbers; the runs load once, when the first model asks for them.
import { byId, el } from '../dom.js';
import * as fmt from '../format.js';
import { measuredRuns } from '../site-data.js';

// decode.json's engine names, by the runtime profile whose runs they are (Ollama runs llama.cpp).
const RUNTIME_OF_ENGINE = { 'llama.cpp': 'llamacpp', vllm: 'vllm', sglang: 'sglang', mlx: 'mlx' };
const ENGINE_OF_RUNTIME = {
  ...Object.fromEntries(Object.entries(RUNTIME_OF_ENGINE).map(([engine, runtime]) => [runtime, engine])), ollama: 'llama.cpp',
};
const COLUMNS = ['device', 'tok_s', 'format', 'test', 'engine', 'source'];
// What makes two runs the same run: a source that ran it on two stacks the row does not name
// (two ROCm releases, two drivers) gives one row with the range of its speeds and each link.
const RUN_KEYS = ['device', 'gpus', 'split', 'engine', 'platform', 'backend', 'build', 'format', 'test', 'prompt', 'depth',
  'fa', 'source'];
// Each kind of run: its part of measured-runs.json, and its details' id and strings (in this
// order after the simulator's grid).
const KINDS = [
  { kind: 'decode', id: 'measured', heading: 'accuracy.measured_heading', note: 'accuracy.measured_note' },
  { kind: 'prefill', id: 'measured-prefill', heading: 'accuracy.measured_prefill_heading', note: 'accuracy.measured_prefill_note' },
];

/** The runs with the same RUN_KEYS as one, with the lowest and highest tok/s and their links. */
function merged(runs) {
  const byKey = new Map();
  for (const run of runs) {
    const key = JSON.stringify(RUN_KEYS.map((k) => run[k]));
    const seen = byKey.get(key);
    if (seen) {
      seen.low = Math.min(seen.low, run.tok_s);
      seen.high = Math.max(seen.high, run.tok_s);
      if (!seen.urls.includes(run.url)) seen.urls.push(run.url);
    } else {
      byKey.set(key, { ...run, low: run.tok_s, high: run.tok_s, urls: [run.url] });
    }
  }
  return [...byKey.values()];
}

/** A link to the source, and one to each further page of it that a merged row quotes. */
function links(run) {
  const [first, ...more] = run.urls;
  const anchor = (href, text) => el('a', { href, rel: 'noopener', target: '_blank' }, text);
  const cell = el('span', {}, anchor(first, run.source));
  more.forEach((href, i) => cell.append(' ', anchor(href, `(${i + 2})`)));
  return cell;
}

/**
 * The page's engine's runs first (Ollama's are llama.cpp's), and of those on the chosen device's
 * platform (CUDA, Metal, …); then by device, format and depth.
 */
function ordered(runs, { runtime, device_platform: platform }) {
  const engine = ENGINE_OF_RUNTIME[runtime];
  return runs.sort((a, b) => (b.engine === engine) - (a.engine === engine) ||
    (b.platform === platform) - (a.platform === platform) || a.device.localeCompare(b.device) ||
    a.format.localeCompare(b.format) || a.depth - b.depth || b.high - a.high);
}

function cells(t, lang, catalog, run) {
  const devices = run.gpus > 1 ? `${run.gpus}× ${run.device}${run.split ? ` (${run.split})` : ''}` : run.device;
  const name = run.test ?? t('accuracy.measured_ttft', { tokens: fmt.integer(lang, run.prompt) });
  const deep = run.depth > 0 ? t('accuracy.measured_at', { test: name, depth: fmt.integer(lang, run.depth) }) : name;
  // Flash attention where the source states it: a prompt deep in the context runs several times
  // faster with it (the same run with and without it are two rows).
  const test = typeof run.fa === 'boolean' ? t(run.fa ? 'accuracy.measured_fa_on' : 'accuracy.measured_fa_off', { test: deep })
    : deep;
  const rate = (tps) => (tps >= 1000 ? fmt.integer(lang, tps) : fmt.fixed(lang, tps, 1));
  const speed = run.low === run.high ? rate(run.high) : `${rate(run.low)}–${rate(run.high)}`;
  const runtime = RUNTIME_OF_ENGINE[run.engine];  // an engine without a profile: its own name
  const engine = [runtime ? t(`runtime.${runtime}`) : run.engine, run.backend ?? t(`platform.${run.platform}`), run.build]
    .filter(Boolean).join(' · ');
  return [devices, speed, fmt.quantLabel(catalog, run.format), test, engine, links(run)];
}

function row(t, lang, catalog, run) {
  return el('tr', {}, ...cells(t, lang, catalog, run).map((content, i) => (i === 0
    ? el('th', { scope: 'row' }, content) : el('td', { class: COLUMNS[i] === 'tok_s' ? 'num' : null }, content))));
}

function fill(details, runs, kind, response, view) {
  const { t, lang, catalog } = view;
  details.hidden = runs.length === 0;
  if (runs.length === 0) return;
  const head = el('tr', {}, ...COLUMNS.map((column) =>
    el('th', { scope: 'col', class: column === 'tok_s' ? 'num' : null }, t(`accuracy.measured_col.${column}`))));
  const rows = ordered(merged(runs), response.simulator).map((run) => row(t, lang, catalog, run));
  details.replaceChildren(
    el('summary', {}, t(kind.heading, { model: response.model.name, count: fmt.integer(lang, runs.length) })),
    el('div', { class: 'table-wrap' }, el('table', { class: 'data', 'data-testid': `${kind.id}-table` },
      el('thead', {}, head), el('tbody', {}, ...rows))),
    el('p', { class: 'muted' }, t(kind.note)));
}

/** The model's published runs of each kind, once they are loaded; none (hidden) where it has none. */
export function renderMeasured(root, response, view) {
  let after = byId(root, 'accuracy')?.closest('.sim-grid');
  if (!after) return;  // a widget
  const key = [response.model.id, response.simulator.runtime, response.simulator.device_platform, view.lang].join('|');
  for (const kind of KINDS) {
    let details = byId(root, kind.id);
    if (!details) {
      details = el('details', { class: 'card accuracy measured', id: kind.id, 'data-testid': kind.id, hidden: true });
      after.after(details);
    }
    after = details;
    if (details.dataset.key === key) continue;
    details.dataset.key = key;
    measuredRuns().then((all) => {
      if (details.dataset.key === key) fill(details, all[kind.kind]?.[response.model.id] ?? [], kind, response, view);
    });
  }
}
