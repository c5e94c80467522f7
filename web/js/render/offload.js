// What runs when the model does not fit on the GPU: llama.cpp's and Ollama's offload to host RAM
// (the answer's offload section, core/ESTIMATION.md section 7). The simulator's verdict and
// decode figure show the plan that runs (render/simulator.js); this block beside them says how
// the weights are split, which flags run it, the host's RAM, and the other splits, or, when none
// runs, that the RAM is too small as well. It comes after the first numbers, with
// vramcalc-full.wasm, which computes the section.
import { byId, el, fillSelect, put, putPart } from '../dom.js';
import { duration } from '../duration.js';
import * as fmt from '../format.js';
import { runtimeOf } from '../state.js';

const drawn = new WeakMap();  // element → the key of what it shows (the plans' list, the run's line)

/** A plan in words: its layers on the GPU, or whose experts stay in RAM. */
function planName(plan, t) {
  if (plan.kind === 'layers') return t('offload.plan.layers', { layers: plan.gpu_layers });
  return plan.ram_expert_layers >= plan.gpu_layers ? t('offload.plan.all_experts')
    : t('offload.plan.experts', { layers: plan.ram_expert_layers });
}

/**
 * One line of the plans' list: the split (with llama.cpp's flags), its speed, its prompt's time
 * where the core has one (experts in RAM: core/ESTIMATION.md section 8.3) and RAM, what stops it.
 */
function planLine(plan, { t, lang }, llamacpp, promptTokens) {
  const name = llamacpp ? `${planName(plan, t)} (${plan.flags})` : planName(plan, t);
  const stops = [plan.fit === 'no_fit' ? t('offload.no_device') : '', plan.fits_host ? '' : t('offload.no_host')];
  const line = t(plan.prompt_s > 0 ? 'offload.plan_line_prompt' : 'offload.plan_line', {
    plan: name, tps: fmt.fixed(lang, plan.decode_tps, 1), ram: fmt.gb(lang, plan.host_gib),
    tokens: fmt.integer(lang, promptTokens), time: duration(lang, plan.prompt_s),
  });
  return fmt.keepUnits([line, ...stops.filter(Boolean)].join(' · '));
}

/** The plans' list, rebuilt only when its lines change. */
function drawPlans(list, heading, lines) {
  const key = JSON.stringify([heading, lines]);
  if (drawn.get(list) === key) return;
  drawn.set(list, key);
  list.replaceChildren(...(lines.length ? [el('li', { class: 'offload-plans-heading' }, heading)] : []),
    ...lines.map((line) => el('li', {}, line)));
  list.hidden = lines.length === 0;
}

/** How the chosen plan is run: llama.cpp's flags, or that Ollama places the layers itself. */
function drawRun(paragraph, plan, { t }, llamacpp) {
  const text = llamacpp ? t('offload.flags') : t('offload.ollama', { split: planName(plan, t) });
  const key = llamacpp ? `${text} ${plan.flags}` : text;
  if (drawn.get(paragraph) === key) return;
  drawn.set(paragraph, key);
  paragraph.replaceChildren(...(llamacpp ? [`${text} `, el('code', { 'data-testid': 'offload-flags' }, plan.flags)] : [text]));
}

/** Sets a number field's value unless it is being edited. */
function setNumber(root, input, value) {
  if (root.activeElement !== input && input.value !== String(value)) input.value = String(value);
}

/**
 * A RAM type's label from its id, "<type>-<MT/s>-<channels>ch" (core host.h): "DDR5-5600, 2
 * channels (desktop)"; 2 channels are a desktop's, 4 a workstation's, more a server's.
 */
export function ramTypeLabel(id, t) {
  const [kind, speed, channels] = id.split('-');
  const n = Number.parseInt(channels, 10);
  const tier = n <= 2 ? 'desktop' : n <= 4 ? 'workstation' : 'server';
  return t('offload.ramtype_label', { kind: kind.toUpperCase(), speed, n, tier: t(`offload.tier.${tier}`) });
}

/**
 * The host's controls, made once at the end of the engine settings (with this code, after the
 * first numbers): the RAM in GB, its type, a bandwidth of one's own.
 */
function hostControls(form, t) {
  if (form.elements.ramtype) return;
  const number = (name) => el('input', { type: 'number', name, 'data-testid': name, min: '0', step: 'any', inputmode: 'decimal' });
  const wrap = (name, control) => el('label', { 'data-host': name, hidden: true }, el('span', { 'data-i18n': `offload.${name}` }, t(`offload.${name}`)), control);
  const last = form.querySelector('[data-option="parallel"]');
  last.after(wrap('ram', number('ram')), wrap('ramtype', el('select', { name: 'ramtype', 'data-testid': 'ramtype' })),
    wrap('rambw', number('rambw')));
}

/**
 * The host's RAM (its size, its type or a bandwidth of one's own), for the runtimes that put
 * what does not fit on the GPU into it, on a device with memory of its own (unified memory is the
 * RAM: nothing goes elsewhere); the bandwidth field shows with "custom". They show once this code
 * and their strings are here, after the first numbers.
 */
export function renderHostChoices(root, response, { t, lang, catalog, scenario }) {
  const runtime = runtimeOf(scenario, catalog);
  const offloads = Boolean(runtime.offload) && !response.simulator.unified_memory;
  const form = byId(root, 'controls');
  hostControls(form, t);
  const own = scenario.rambw !== null && scenario.rambw !== undefined;
  for (const wrap of form.querySelectorAll('[data-host]')) {
    const shown = offloads && (wrap.dataset.host !== 'rambw' || own);
    if (wrap.hidden === shown) wrap.hidden = !shown;
  }
  if (!offloads) return;
  fillSelect(form.elements.ramtype, [
    ...catalog.host_memory_types.map((h) => [h.id, `${ramTypeLabel(h.id, t)} · ${fmt.plain(lang, h.bandwidth_gbps)} ${t('unit.gbps')}`]),
    ['custom', t('offload.ramtype_custom')],
  ], own ? 'custom' : scenario.ramtype ?? catalog.defaults.host_memory_type);
  setNumber(root, form.elements.ram, scenario.ram ?? catalog.defaults.host_memory);
  if (own) setNumber(root, form.elements.rambw, scenario.rambw);
}

/** The summary when no plan runs: the RAM the smallest split needs against what is usable. */
function noRunText(offload, { t, lang }) {
  const onDevice = offload.plans.filter((plan) => plan.fit !== 'no_fit');
  if (onDevice.length === 0) return t('offload.none');
  const needed = Math.min(...onDevice.map((plan) => plan.host_gib));
  return t('offload.no_run', {
    needed: fmt.gb(lang, needed), usable: fmt.gb(lang, offload.host_usable_gib), total: fmt.gb(lang, offload.host_memory_gib),
  });
}

/** The offload block: hidden unless the answer has an offload object (it does not fit, the engine offloads). */
/**
 * A RAM type picked in the form: "custom" turns the type's bandwidth into one's own figure to
 * edit, a type drops one's own figure (the core takes one or the other).
 */
export function hostChoice(patch, scenario, catalog) {
  if (!('ramtype' in patch)) return patch;
  if (patch.ramtype !== 'custom') return { ...patch, rambw: null };
  const id = scenario.ramtype ?? catalog.defaults.host_memory_type;
  const type = catalog.host_memory_types.find((h) => h.id === id) ?? catalog.host_memory_types[0];
  return { ...patch, ramtype: null, rambw: scenario.rambw ?? type.bandwidth_gbps };
}

/**
 * A bad host number typed into the form (ram, rambw): the notice, its range and what applies, and
 * the field showing what does.
 */
export function rejectHost(root, key, value, { scenario, catalog }) {
  const { limits, defaults } = catalog;
  const { lang } = scenario;
  const shown = scenario[key] ?? (key === 'ram' ? defaults.host_memory : '');
  byId(root, 'controls').elements[key].value = String(shown);
  return [`offload.notice_${key}`, {
    key, value: value.slice(0, 40), default: fmt.plain(lang, defaults.host_memory),
    max: fmt.integer(lang, key === 'ram' ? limits.max_host_memory : limits.max_host_bandwidth),
  }];
}

/** The offload block, made once after the verdict (it shows only with vramcalc-full.wasm's answer). */
function offloadBlock(root) {
  const made = byId(root, 'offload');
  if (made) return made;
  const part = (tag, name, attributes = {}) => el(tag, { id: `offload-${name}`, 'data-testid': `offload-${name}`, ...attributes });
  const block = el('div', { class: 'offload', id: 'offload', 'data-testid': 'offload', hidden: true },
    part('p', 'summary'), part('p', 'run'), part('p', 'host', { class: 'muted' }), part('ul', 'plans', { class: 'offload-plans' }));
  byId(root, 'fit').after(block);
  return block;
}

/**
 * Under the longest context the devices hold alone: the longest at which a plan runs it with a
 * part in RAM (made once after the figure's "model maximum" line); hidden without plans.
 */
function renderOffloadContext(root, offload, { t, lang }) {
  let line = byId(root, 'max-offload');
  if (!line) {
    line = el('dd', { class: 'sub', id: 'max-offload', 'data-testid': 'max-offload', hidden: true });
    byId(root, 'max-position').after(line);
  }
  const tokens = offload?.max_context ?? 0;
  const shown = tokens > 0;
  if (shown) put(line, t('offload.max_context', { tokens: fmt.integer(lang, tokens) }), tokens);
  if (line.hidden === shown) line.hidden = !shown;
}

export function renderOffload(root, response, view) {
  const block = offloadBlock(root);
  const offload = response.offload ?? null;
  if (block.hidden !== (offload === null)) block.hidden = offload === null;
  renderOffloadContext(root, offload, view);
  if (offload === null) return;
  const { t, lang } = view;
  const llamacpp = response.simulator.runtime !== 'ollama';
  // render/simulator.js's offloadPlan(); imported from there, it split the page's first code into one
  // more chunk (+0.3 KiB before the first numbers).
  const plan = offload.plans[offload.chosen];
  // A plan's device side is per device: "on each of the N GPUs" where the layers are split.
  const count = response.simulator.device_count;
  putPart(root, 'offload-summary', fmt.keepUnits(plan ? t(count > 1 ? 'offload.summary_each' : 'offload.summary', {
    share: fmt.integer(lang, Math.round(plan.ram_share_pct)), ram: fmt.gb(lang, plan.host_gib),
    gpu: fmt.gb(lang, plan.device_gib), count: fmt.integer(lang, count), tps: fmt.fixed(lang, plan.decode_tps, 1),
  }) : noRunText(offload, view)), plan ? plan.decode_tps : 'none');
  const error = byId(root, 'decode-error');
  if (plan && error) {
    if (error.hidden) error.hidden = false;
    put(error, offload.holdout.points > 0 ? t('offload.error', {
      median: fmt.fixed(lang, offload.holdout.median_error_pct, 1), points: fmt.integer(lang, offload.holdout.points),
    }) : t('offload.unknown'));
  }
  const run = byId(root, 'offload-run');
  if (run.hidden !== !plan) run.hidden = !plan;
  if (plan) drawRun(run, plan, view, llamacpp);
  const type = offload.host_memory_type;  // "custom": a bandwidth of one's own
  put(byId(root, 'offload-host'), fmt.keepUnits(t('offload.host', {
    total: fmt.gb(lang, offload.host_memory_gib), usable: fmt.gb(lang, offload.host_usable_gib),
    type: type === 'custom' ? t('offload.custom_type') : ramTypeLabel(type, t), bandwidth: fmt.plain(lang, offload.host_bandwidth_gbps),
  })));
  const others = offload.plans.filter((p) => p !== plan);
  drawPlans(byId(root, 'offload-plans'), t(plan ? 'offload.others' : 'offload.plans'),
    others.map((p) => planLine(p, view, llamacpp, offload.prompt_tokens)));
}
