// The page's texts and controls outside the renderers: what changes with the language or the
// model (title, summary, static labels, selectors, the card), the choices that change with the
// settings, and the context controls that follow every frame.
import { byId, fillSelect, put, putPart, setAttr } from './dom.js';
import * as fmt from './format.js';
import { LANGS, applyTexts, deviceGroup, langName } from './i18n.js';
import { sliderPosition } from './controls.js';
import { CUSTOM_MODEL, customDevice, formatsFor, runsOnDevice, runtimeOf } from './state.js';

const BATCH_CHOICES = [1, 2, 4, 8, 16, 32, 64, 128, 256];
// The engine options' choices, by link key, with the request field each sets and the value the
// core resolved (the default shown in the "engine default" entry).
const ENGINE_CHOICES = [
  ['util', 'memory_utilization', [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.92, 0.95, 0.98]],
  ['mnbt', 'max_num_batched_tokens', [512, 1024, 2048, 4096, 8192, 16384, 32768]],
  ['ubatch', 'ubatch', [128, 256, 512, 1024, 2048, 4096]],
  ['fa', 'flash_attention', [true, false]],
  ['parallel', 'parallel', [1, 2, 4, 8, 16, 32]],
];

/** The engine options the runtime takes, each a select with the engine's default first. */
function renderEngineChoices(root, response, { t, lang, scenario }, runtime) {
  const form = byId(root, 'controls');
  const label = (value) => (typeof value === 'boolean' ? t(value ? 'opt.on' : 'opt.off')
    : Number.isInteger(value) ? fmt.integer(lang, value) : fmt.fixed(lang, value, 2));
  for (const [key, option, choices] of ENGINE_CHOICES) {
    const wrap = form.querySelector(`[data-option="${option}"]`);
    const shown = runtime.options.includes(option);
    if (wrap.hidden === shown) wrap.hidden = !shown;
    if (!shown) continue;
    const values = scenario[key] === null || choices.includes(scenario[key]) ? choices : [...choices, scenario[key]];
    fillSelect(form.elements[key], [
      ['auto', t('opt.default', { value: label(response.simulator.engine[option]) })],
      ...values.map((v) => [String(v), label(v)]),
    ], scenario[key] === null ? 'auto' : String(scenario[key]));
  }
}

function summaryOf(model, { t, lang }) {
  return t('page.summary', {
    model: model.name,
    family: model.family,
    license: model.license,
    topology: t(`topology.${model.topology}`),
    params_total: fmt.params(lang, model.params_total),
    params_active: fmt.params(lang, model.params_active),
    layers: model.num_hidden_layers,
    attention: t(`attention.${model.attention}`),
    max_position: fmt.integer(lang, model.max_position_embeddings),
  });
}

// Until the first numbers are painted (view.painted), the long selectors (92 models, 66
// devices) hold their chosen option alone; the others come in the frame after (controller.js).
const chosen = (options, value) => options.filter(([id]) => id === value);

/**
 * Texts that change only with the language or the model. `customName` names the pasted
 * config.json's model in the model selector, when there is one.
 */
export function renderStatic(root, response, view, { version, customName }) {
  const { t, lang, catalog, scenario } = view;
  const model = response.model;
  document.documentElement.lang = lang;
  const title = t('page.title', { model: model.name });
  document.title = title;
  putPart(root, 'title', title);
  putPart(root, 'summary', summaryOf(model, view));
  // The footer's text (a later string: left as it is until it comes) names the core's version.
  applyTexts(root, t, { model: model.name, version });
  fillSelect(byId(root, 'prefs').elements.lang, LANGS.map((l) => [l, langName(l)]), lang);
  const form = byId(root, 'controls');
  const models = catalog.models.map((m) => [m.id, m.name, m.family]);
  if (customName !== null) models.push([CUSTOM_MODEL, t('sim.custom_model', { name: customName || 'config.json' })]);
  fillSelect(form.elements.model, view.painted ? models : chosen(models, scenario.model), scenario.model);
}

/** The device, batch and GPU-count choices: their labels change with the settings. */
export function renderChoices(root, response, { t, lang, catalog, scenario, painted }) {
  const form = byId(root, 'controls');
  // What the engine runs: its formats, KV cache types and devices.
  const runtime = runtimeOf(scenario, catalog);
  fillSelect(form.elements.runtime, catalog.runtimes.map((r) => [r.id, t(`runtime.${r.id}`)]), runtime.id);
  fillSelect(form.elements.format, formatsFor(runtime, catalog, scenario.model).map((f) => [f.id, f.label]), scenario.format);
  const kvDtypes = catalog.kv_dtypes.filter((k) => runtime.kv_dtypes.includes(k.id));
  fillSelect(form.elements.kv, kvDtypes.map((k) => [k.id, k.label]), scenario.kv);
  const devices = catalog.devices.filter((d) => runsOnDevice(runtime, d));
  const own = customDevice(scenario.device);
  renderEngineChoices(root, response, { t, lang, scenario }, runtime);
  // "auto" follows the format's recommended class (the simulator names it whatever the device).
  const recommendedId = response.simulator.recommended_device;
  const recommended = catalog.devices.find((d) => d.id === recommendedId)?.name ?? t('device.none_fits');
  const deviceOptions = [
    ['auto', t('sim.device_auto', { device: recommended })],
    ...(own ? [[own.id, t('device.own', { name: own.name })]] : []),
    ...devices.map((d) => [d.id, d.name, deviceGroup(t, d)]),
  ];
  const device = scenario.device ?? 'auto';
  fillSelect(form.elements.device, painted ? deviceOptions : chosen(deviceOptions, device), device);
  const batches = BATCH_CHOICES.includes(scenario.batch)
    ? BATCH_CHOICES : [...BATCH_CHOICES, scenario.batch].sort((a, b) => a - b);
  fillSelect(form.elements.batch, batches.map((b) => [String(b), fmt.integer(lang, b)]), String(scenario.batch));
  const gpuChoices = Array.from({ length: catalog.limits.max_device_count }, (_, i) => String(i + 1));
  fillSelect(form.elements.gpus, [
    ['auto', t('sim.gpus_auto', { count: response.simulator.device_count })],
    ...gpuChoices.map((n) => [n, n]),
  ], scenario.gpus ? String(scenario.gpus) : 'auto');
}

/** The context controls every frame, and the selectors' values when a choice may have changed. */
export function renderControls(root, response, { t, lang, catalog, scenario, maxLog2, moving }, selectors = true) {
  const form = byId(root, 'controls');
  // Reading a long select's value walks its options: only when a choice may have changed.
  for (const name of selectors ? ['model', 'format', 'kv', 'runtime'] : []) {
    if (form.elements[name].value !== scenario[name]) form.elements[name].value = scenario[name];
  }
  const range = byId(root, 'context-range');
  const number = byId(root, 'context-number');
  setAttr(range, 'max', maxLog2);
  const mark = byId(root, 'context-mark');
  const markValue = String(Math.log2(response.model.max_position_embeddings));
  if (mark.value !== markValue) mark.value = markValue;
  // While dragging, the slider already shows the context; a typed one snaps to the nearest.
  const position = String(sliderPosition(scenario.context, maxLog2));
  if (2 ** Number(range.value) !== scenario.context && range.value !== position) range.value = position;
  // The number field repeats the context (beside the slider's own text): while the slider moves
  // it waits for the rest (setting an input's value was 130 µs of a frame, its label's text 40).
  if (!moving && root.activeElement !== number && number.value !== String(scenario.context)) {
    number.value = String(scenario.context);
  }
  setAttr(number, 'max', catalog.limits.max_context);
  const contextText = t('sim.context_value', { tokens: fmt.integer(lang, scenario.context) });
  put(byId(root, 'context-value'), contextText, scenario.context);
  setAttr(range, 'aria-valuetext', contextText);
}
