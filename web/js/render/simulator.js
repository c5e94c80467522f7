// The simulator section: fit, breakdown bar, figures and the KV-compression sentence. A root
// (the page, or a widget's shadow root) may hold any subset of these parts.
import { byId, put, putPart, setAttr } from '../dom.js';
import * as fmt from '../format.js';

// The breakdown's parts: share key, part name, label key, and whether it shows only when it is
// not zero (the recurrent state, the vision and audio towers: models without them have none).
const SHARES = [
  ['weights', 'weights', 'share.weights', false],
  ['vision', 'vision', 'share.vision', true],
  ['kv_cache', 'kv', 'share.kv_cache', false],
  ['state', 'state', 'share.state', true],
  ['overhead', 'overhead', 'share.overhead', false],
];

// The bar's segments, in its order (index.html, widget-markup.js): each is as wide as the bar,
// moved to where it starts and scaled to its share by a transform, so that a slider frame
// changes no layout (a width did: the bar and its segments were laid out again).
const SEGMENTS = ['weights', 'vision', 'state', 'kv_cache', 'overhead'];
const drawnSegments = new WeakMap();  // bar → the transforms it shows

function drawBar(bar, shares) {
  let at = 0;
  const transforms = SEGMENTS.map((key) => {
    const transform = `translateX(${at}%) scaleX(${shares[key] / 100})`;
    at += shares[key];
    return transform;
  });
  const drawn = drawnSegments.get(bar) ?? [];
  transforms.forEach((transform, i) => {
    if (drawn[i] !== transform) bar.children[i].style.transform = transform;
  });
  drawnSegments.set(bar, transforms);
}

function renderShares(root, shares, { t, lang }) {
  const bar = byId(root, 'bar');
  if (bar) drawBar(bar, shares);
  const labels = [];
  for (const [key, name, label, optional] of SHARES) {
    const value = shares[key];
    const text = `${fmt.share(lang, value)}%`;
    const shown = !optional || value !== 0;
    putPart(root, `share-${name}`, text, value);
    const keyElement = byId(root, `share-${name}-key`);
    if (keyElement && keyElement.hidden === shown) keyElement.hidden = !shown;
    if (shown) labels.push(`${t(label)} ${text}`);
  }
  if (bar) setAttr(bar, 'aria-label', labels.join(', '));
}

function renderFigures(root, sim, model, plan, { t, lang, catalog }) {
  const kvLabel = catalog.kv_dtypes.find((k) => k.id === sim.kv_dtype)?.label ?? sim.kv_dtype;
  putPart(root, 'total', fmt.gb(lang, sim.total_gib), sim.total_gib);
  putPart(root, 'per-device', fmt.gb(lang, sim.per_device_gib), sim.per_device_gib);
  putPart(root, 'weights', fmt.gb(lang, sim.weights_gib), sim.weights_gib);
  putPart(root, 'kv-cache-label', t('out.kv_cache', { kv_dtype: kvLabel }));
  putPart(root, 'kv-cache', fmt.gb(lang, sim.kv_cache_gib), sim.kv_cache_gib);
  // The recurrent state and the towers: shown where the model has them.
  for (const [id, gib] of [['state', sim.state_gib], ['vision', sim.vision_gib]]) {
    const figure = putPart(root, id, fmt.gb(lang, gib), gib)?.closest('.figure');
    if (figure && figure.hidden !== (gib === 0)) figure.hidden = gib === 0;
  }
  const decode = plan ?? sim;  // with a part in host RAM: the plan's speed
  putPart(root, 'decode', fmt.decodeRate(t, lang, decode.fit, decode.decode_tps), decode.decode_tps);
  putPart(root, 'overhead', fmt.gb(lang, sim.overhead_gib), sim.overhead_gib);
  const maxContext = fmt.integer(lang, sim.max_context);
  putPart(root, 'max-context', `${sim.max_context_capped ? t('out.max_context_at_least', { tokens: maxContext })
    : maxContext} ${t(plan ? 'offload.gpu_tokens' : 'unit.tokens')}`, sim.max_context);
  putPart(root, 'max-position', t('out.max_position', { tokens: fmt.integer(lang, model.max_position_embeddings) }));
}

// The overhead's sources, in the order the sub-line lists them (engine profiles only).
const OVERHEAD_PARTS = ['runtime', 'compute', 'main_device_extra', 'activation', 'non_torch', 'graphs',
  'tensor_parallel'];

/** Shows or hides the figure around a part. */
function showFigure(element, shown) {
  const figure = element?.closest('.figure');
  if (figure && figure.hidden === shown) figure.hidden = !shown;
}

/**
 * The engine profiles' figures: what a device may hold and why, the weights left in host RAM and
 * the overhead by source (the KV pool an engine preallocates comes with the full module:
 * render/kv-pool.js). The reference profile shows none of them (its page has none).
 */
function renderEngineFigures(root, sim, plan, { t, lang }) {
  const engine = sim.runtime !== 'reference';
  const capacity = putPart(root, 'capacity', fmt.gb(lang, sim.capacity_gib), sim.capacity_gib);
  showFigure(capacity, engine);
  // An engine that keeps more free beside a model's towers says so (Ollama's projector headroom).
  const towers = `capacity.${sim.runtime}_towers`;
  putPart(root, 'capacity-note', t(sim.vision_gib > 0 && t.has(towers) ? towers : `capacity.${sim.runtime}`, {
    util: fmt.fixed(lang, sim.engine.memory_utilization, 3).replace(/0+$/, '').replace(/[.,]$/, ''),
    visible: fmt.gb(lang, sim.visible_gib),
    memory: fmt.gb(lang, sim.memory_gib),
  }));
  // With a part in host RAM: what the plan keeps there (render/offload.js's summary line).
  const { host_gib: ram } = plan ?? sim;
  const host = putPart(root, 'host', t(plan ? 'offload.host_note' : 'host.note', { gib: fmt.gb(lang, ram) }), ram);
  showFigure(host, ram > 0);
  const parts = engine ? OVERHEAD_PARTS.filter((key) => sim.overhead_parts[key] > 0.005) : [];
  const line = putPart(root, 'overhead-parts', parts.map((key) => t(`overhead.${key}`, {
    gib: fmt.gb(lang, sim.overhead_parts[key]),
  })).join(' · '));
  if (line && line.hidden !== (parts.length === 0)) line.hidden = parts.length === 0;
}

/**
 * The plan that runs when the model does not fit on the GPU but runs with a part in host RAM
 * (the offload section, which comes with vramcalc-full.wasm's answer), else undefined.
 */
export const offloadPlan = ({ offload }) => offload?.plans[offload.chosen];

export function renderSimulator(root, response, view) {
  const { t, lang } = view;
  const sim = response.simulator;
  const plan = offloadPlan(response);
  const verdict = plan ? 'offload' : sim.fit;
  const fitText = t(plan ? 'offload.fit' : `fit.${sim.fit}`);
  const fit = putPart(root, 'fit', fitText, verdict);
  if (fit && fit.className !== `fit fit-${verdict}`) fit.className = `fit fit-${verdict}`;
  // The answer at a glance, under the title: the verdict, the total and the speed that runs
  // (none where nothing runs).
  const decode = plan ?? sim;
  const parts = [fitText, fmt.gb(lang, sim.total_gib)];
  if (decode.fit !== 'no_fit') parts.push(fmt.decodeRate(t, lang, decode.fit, decode.decode_tps));
  const answer = putPart(root, 'answer', fmt.keepUnits(parts.join(' · ')), verdict);
  if (answer && answer.className !== `answer fit-${verdict}`) answer.className = `answer fit-${verdict}`;
  renderShares(root, sim.share_pct, view);
  renderFigures(root, sim, response.model, plan, view);
  renderEngineFigures(root, sim, plan, view);
  const saving = byId(root, 'kv-saving');
  if (saving) {
    put(saving, fmt.keepUnits(t(`sim.kv_saving.${sim.kv_compression}`, {
      pct: fmt.fixed(lang, sim.kv_saving_pct, 1), gib: fmt.fixed(lang, sim.kv_naive_mha_gib, 2),
    })), sim.kv_saving_pct);
  }
}
