// Composes the page: loads the core, reads the scenario from the link, binds the forms and
// tables, and recomputes once per animation frame.
import { loadCore } from './core.js';
import { bindControls, sliderMaxLog2, sliderPosition } from './controls.js';
import { fillSelect, put } from './dom.js';
import * as fmt from './format.js';
import { frameScheduler } from './frame.js';
import { registerServiceWorker } from './pwa.js';
import { browserLang, makeTranslator } from './i18n.js';
import { renderCard } from './render/card.js';
import { copyFrom, renderCommands } from './render/commands.js';
import { deviceGroup, renderHardware } from './render/hardware.js';
import { renderMatrix } from './render/matrix.js';
import { renderPlot } from './render/plot.js';
import { renderRelated } from './render/related.js';
import { renderSimulator } from './render/simulator.js';
import {
  CUSTOM_MODEL, defaultScenario, hashFromScenario, requestFor, scenarioFromHash,
} from './state.js';

const $ = (id) => document.getElementById(id);
const BATCH_CHOICES = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const MAX_ECHO = 40;  // characters of a bad link value repeated in a notice
const CUSTOM_KEY = 'vramcalc.custom-config';  // localStorage: the last pasted config.json
// What a context change alters (the core's kContextSections, evaluate.h).
const CONTEXT_SECTIONS = ['simulator', 'hardware', 'related', 'commands'];

/** The stored config.json object, or null. Storage may be unavailable or hold garbage. */
function storedConfig() {
  try {
    const config = JSON.parse(localStorage.getItem(CUSTOM_KEY) ?? 'null');
    return config && typeof config === 'object' && !Array.isArray(config) ? config : null;
  } catch {
    return null;
  }
}

function showNotice(lines) {
  const notice = $('notice');
  if (notice.hidden !== (lines.length === 0)) notice.hidden = lines.length === 0;
  put(notice, lines.join(' '));
}

async function start() {
  let core;
  try {
    const loading = loadCore();
    // While the module downloads and compiles: the number formats of the language the page
    // will most likely show (the link's, else the browser's).
    const linked = /(?:^#|&)lang=(de|en)(?:&|$)/.exec(location.hash)?.[1];
    fmt.prepare(linked ?? browserLang());
    core = await loading;
  } catch (error) {
    // The UI strings live in the core, so this one message is built in, in both languages.
    showNotice([`Der Rechenkern konnte nicht geladen werden / The estimation core could not be loaded: ${
      String(error?.message ?? error)}`]);
    return;
  }
  const { catalog } = core;
  const defaults = defaultScenario(catalog, 'de');
  let scenario;
  let notices = [];
  let rendered = { lang: null, model: null, custom: null };
  let custom = storedConfig();
  let customName = '';

  function readHash() {
    const { scenario: read, problems } = scenarioFromHash(
      location.hash, catalog, defaultScenario(catalog, browserLang()), custom !== null);
    scenario = read;
    const t = makeTranslator(catalog.strings, scenario.lang);
    notices = problems.map(({ key, value }) => (key === 'model' && value === CUSTOM_MODEL
      ? t('custom.missing')
      : t('notice.invalid', { key: key.slice(0, MAX_ECHO), value: value.slice(0, MAX_ECHO) })));
  }

  const form = $('controls');
  const range = $('context-range');
  const number = $('context-number');

  // Texts that change only with the language or the model.
  function renderStatic(t, response) {
    const model = response.model;
    const lang = scenario.lang;
    document.documentElement.lang = lang;
    const title = t('page.title', { model: model.name });
    document.title = title;
    put($('title'), title);
    put($('summary'), t('page.summary', {
      model: model.name,
      family: model.family,
      license: model.license,
      topology: t(`topology.${model.topology}`),
      params_total: fmt.params(lang, model.params_total),
      params_active: fmt.params(lang, model.params_active),
      layers: model.num_hidden_layers,
      attention: t(`attention.${model.attention}`),
      max_position: fmt.integer(lang, model.max_position_embeddings),
    }));
    for (const element of document.querySelectorAll('[data-i18n]')) {
      if (element.dataset.copied) continue;
      put(element, t(element.dataset.i18n, { model: model.name }));
    }
    put($('footer-text'), t('footer.text', { version: core.version() }));
    renderCard(model, { t, lang });
    fillSelect($('prefs').elements.lang, ['de', 'en'].map((l) => [l, catalog.strings[l]['lang.name']]), lang);
    if (scenario.model === CUSTOM_MODEL) customName = model.name;
    const models = catalog.models.map((m) => [m.id, m.name, m.family]);
    if (custom) models.push([CUSTOM_MODEL, t('sim.custom_model', { name: customName || 'config.json' })]);
    fillSelect(form.elements.model, models, scenario.model);
    fillSelect(form.elements.format, catalog.formats.map((f) => [f.id, f.label]), scenario.format);
    fillSelect(form.elements.kv, catalog.kv_dtypes.map((k) => [k.id, k.label]), scenario.kv);
  }

  // The device, batch and GPU-count choices: their labels change with the settings, never
  // with the context alone.
  function renderChoices(t, response) {
    const lang = scenario.lang;
    // "auto" follows the format's recommended class (the matrix names it for every format).
    const recommendedId = response.matrix.find((row) => row.format === scenario.format)?.recommended_device;
    const recommended = catalog.devices.find((d) => d.id === recommendedId)?.name ?? t('matrix.none');
    fillSelect(form.elements.device, [
      ['auto', t('sim.device_auto', { device: recommended })],
      ...catalog.devices.map((d) => [d.id, d.name, deviceGroup(t, d)]),
    ], scenario.device ?? 'auto');
    const batches = BATCH_CHOICES.includes(scenario.batch)
      ? BATCH_CHOICES : [...BATCH_CHOICES, scenario.batch].sort((a, b) => a - b);
    fillSelect(form.elements.batch, batches.map((b) => [String(b), fmt.integer(lang, b)]), String(scenario.batch));
    const gpuChoices = Array.from({ length: catalog.limits.max_device_count }, (_, i) => i + 1);
    fillSelect(form.elements.gpus, [
      ['auto', t('sim.gpus_auto', { count: response.simulator.device_count })],
      ...gpuChoices.map((n) => [String(n), String(n)]),
    ], scenario.gpus ? String(scenario.gpus) : 'auto');
  }

  function renderControls(t, response, maxLog2) {
    const lang = scenario.lang;
    for (const [name, value] of [['model', scenario.model], ['format', scenario.format], ['kv', scenario.kv]]) {
      if (form.elements[name].value !== value) form.elements[name].value = value;
    }
    if (range.max !== String(maxLog2)) range.max = String(maxLog2);
    const mark = String(Math.log2(response.model.max_position_embeddings));
    if ($('context-mark').value !== mark) $('context-mark').value = mark;
    // While dragging, the slider already shows the context; a typed one snaps to the nearest.
    const position = String(sliderPosition(scenario.context, maxLog2));
    if (2 ** Number(range.value) !== scenario.context && range.value !== position) range.value = position;
    if (document.activeElement !== number && number.value !== String(scenario.context)) {
      number.value = String(scenario.context);
    }
    if (number.max !== String(catalog.limits.max_context)) number.max = String(catalog.limits.max_context);
    const contextText = t('sim.context_value', { tokens: fmt.integer(lang, scenario.context) });
    put($('context-value'), contextText, scenario.context);
    if (range.getAttribute('aria-valuetext') !== contextText) range.setAttribute('aria-valuetext', contextText);
  }

  // The last complete response and what it was asked for without the context: while only the
  // context moves (the slider), the model card, the curve and the matrix stay as they are, so
  // the core is asked for the context's sections alone and the rest comes from here.
  let full = { key: null, response: null };

  function evaluate() {
    const request = requestFor(scenario, custom);
    const key = JSON.stringify({ ...request, context: undefined });
    if (key === full.key) {
      const part = core.evaluate({ ...request, sections: CONTEXT_SECTIONS });
      if (!part.ok) return { response: part, changed: false };
      const { model, curve, matrix } = full.response;
      return { response: { ...part, model, curve, matrix }, changed: false };
    }
    const response = core.evaluate(request);
    full = response.ok ? { key, response } : { key: null, response: null };
    return { response, changed: true };
  }

  // The sections below the simulator that a context change alters. While only the context
  // moves (the slider), those out of view catch up once it rests or as they scroll into view,
  // not on every frame: laying out and painting them was most of a slider move's cost. Any
  // other change redraws them at once.
  const lower = [
    [$('hardware').closest('section'), renderHardware],
    [$('cmd-heading').closest('section'), renderCommands],
    [$('related').closest('section'), renderRelated],
  ];
  const REST_MS = 120;
  const inView = new Set();
  let behind = null;  // the frame the sections out of view have not shown yet
  let restTimer = 0;

  // While the slider moves, the browser also skips laying out and painting the sections out
  // of view (content-visibility, css/app.css `.sliding`); at rest the page is whole again.
  const page = $('page');

  function catchUp() {
    clearTimeout(restTimer);
    page.classList.remove('sliding');
    if (!behind) return;
    const { response, view } = behind;
    behind = null;
    for (const [, draw] of lower) draw(response, view);
  }

  function renderLower(response, view, all) {
    behind = null;
    for (const [section, draw] of lower) {
      if (all || inView.has(section)) draw(response, view);
      else behind = { response, view };
    }
    clearTimeout(restTimer);
    if (behind) {
      page.classList.add('sliding');
      restTimer = setTimeout(catchUp, REST_MS);
    } else {
      page.classList.remove('sliding');
    }
  }

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) inView.add(entry.target);
      else inView.delete(entry.target);
    }
    if (entries.some((entry) => entry.isIntersecting)) catchUp();
  }, { rootMargin: '200px 0px' });
  for (const [section] of lower) observer.observe(section);

  function render() {
    const t = makeTranslator(catalog.strings, scenario.lang);
    const { response, changed } = evaluate();
    if (!response.ok) {
      showNotice([...notices, `${t('error.prefix')} ${response.error.message}`]);
      return;
    }
    const view = { t, lang: scenario.lang, catalog, scenario, maxLog2: sliderMaxLog2(response) };
    if (rendered.lang !== scenario.lang || rendered.model !== scenario.model || rendered.custom !== custom) {
      renderStatic(t, response);
      rendered = { lang: scenario.lang, model: scenario.model, custom };
    }
    if (changed) renderChoices(t, response);
    renderControls(t, response, view.maxLog2);
    renderSimulator(response, view);
    renderPlot(response, view);
    if (changed) renderMatrix(response, view);
    renderLower(response, view, changed);
    showNotice(notices);
    if (page.getAttribute('aria-busy') !== 'false') {
      page.setAttribute('aria-busy', 'false');
      performance.mark('vramcalc:first-numbers');  // the benchmark's "first numbers"
    }
  }

  const schedule = frameScheduler(render);
  const handlers = {
    maxContext: catalog.limits.max_context,
    update(patch) {
      scenario = { ...scenario, ...patch };
      schedule();
    },
    commit() {
      notices = [];
      const hash = hashFromScenario(scenario, defaults);
      if (location.hash !== hash) history.replaceState(null, '', hash);
      schedule();
    },
    reject(key, value) {
      const t = makeTranslator(catalog.strings, scenario.lang);
      // Empty when the number field could not read what was typed ("NaN", "-Infinity").
      notices = [t(value ? 'notice.context' : 'notice.context_unread', {
        max: fmt.integer(scenario.lang, catalog.limits.max_context), value: value.slice(0, MAX_ECHO),
      })];
      number.value = String(scenario.context);
      schedule();
    },
  };
  bindControls(form, handlers);
  bindControls($('prefs'), handlers);

  // A click anywhere in a row (or Enter on its button) chooses that row's format, device or model.
  const rowChoice = (tableId, attribute, patchFor) => {
    $(tableId).addEventListener('click', (event) => {
      const row = event.target.closest(`tr[data-${attribute}]`);
      if (!row || event.target.closest('a')) return;
      handlers.update(patchFor(row.dataset[attribute]));
      handlers.commit();
    });
  };
  // The hardware table: add a device to compare, or take an added one out.
  $('hw-add').addEventListener('change', (event) => {
    const id = event.target.value;
    if (!id) return;
    handlers.update({ compare: [...scenario.compare, id] });
    handlers.commit();
  });
  $('hardware').addEventListener('click', (event) => {
    const remove = event.target.closest('.row-remove');
    if (!remove) return;
    event.stopPropagation();  // not a row choice
    const id = remove.closest('tr').dataset.device;
    handlers.update({ compare: scenario.compare.filter((d) => d !== id) });
    handlers.commit();
  }, true);

  // Bring your own model: a pasted or dropped config.json, checked by the core first.
  const configField = $('custom-config');
  const applyConfig = (text) => {
    const t = makeTranslator(catalog.strings, scenario.lang);
    let config;
    let isJson = true;
    try {
      config = JSON.parse(text);
    } catch {
      isJson = false;  // NaN, a cut-off value, a stray comma: the core names the key below
    }
    // The core checks the text as pasted, not JSON.parse's reading of it (that turns 1e400 into
    // Infinity, which JSON.stringify writes as null, "not set"), and names the key that fails.
    const rest = JSON.stringify({ ...requestFor(scenario), model: undefined });  // '{"format":…}'
    const check = core.evaluateText(`{"model":${text}\n,${rest.slice(1)}`);
    if (!isJson || !check.ok) {
      const named = !check.ok && (isJson || check.error.field.startsWith('model.'));
      const field = named && check.error.field ? check.error.field : 'config.json';
      notices = [t('custom.error', { field, message: isJson ? check.error.message : t('custom.not_json') })];
      schedule();
      return;
    }
    custom = config;
    try {
      localStorage.setItem(CUSTOM_KEY, JSON.stringify(config));
    } catch {
      // Storage may be full or off: the model still works until the page closes.
    }
    handlers.update({ model: CUSTOM_MODEL });
    handlers.commit();
  };
  $('custom-form').addEventListener('submit', (event) => {
    event.preventDefault();
    applyConfig(configField.value);
  });
  $('custom-file').addEventListener('change', async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    configField.value = await file.text();
    applyConfig(configField.value);
  });
  configField.addEventListener('dragover', (event) => {
    event.preventDefault();
    configField.classList.add('dragging');
  });
  configField.addEventListener('dragleave', () => configField.classList.remove('dragging'));
  configField.addEventListener('drop', async (event) => {
    event.preventDefault();
    configField.classList.remove('dragging');
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    configField.value = await file.text();
    applyConfig(configField.value);
  });

  rowChoice('matrix', 'format', (format) => ({ format }));
  rowChoice('hardware', 'device', (device) => ({ device }));
  rowChoice('related', 'model', (model) => ({ model }));

  document.addEventListener('click', (event) => {
    const button = event.target.closest('button.copy');
    if (button) copyFrom(button, makeTranslator(catalog.strings, scenario.lang));
  });

  window.addEventListener('hashchange', () => {
    readHash();
    schedule();
  });

  readHash();
  render();
  registerServiceWorker(() => makeTranslator(catalog.strings, scenario.lang));
}

start();
