// Composes the page: loads the core, reads the scenario from the link, binds the form and
// recomputes once per animation frame.
import { loadCore } from './core.js';
import { bindControls, sliderPosition, MAX_CONTEXT_LOG2 } from './controls.js';
import { fillSelect, put } from './dom.js';
import * as fmt from './format.js';
import { frameScheduler } from './frame.js';
import { browserLang, makeTranslator } from './i18n.js';
import { renderSimulator } from './render/simulator.js';
import { defaultScenario, hashFromScenario, requestFor, scenarioFromHash } from './state.js';

const $ = (id) => document.getElementById(id);
const BATCH_CHOICES = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const MAX_ECHO = 40;  // characters of a bad link value repeated in a notice

function showNotice(lines) {
  const notice = $('notice');
  notice.hidden = lines.length === 0;
  put(notice, lines.join(' '));
}

async function start() {
  let core;
  try {
    core = await loadCore();
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

  function readHash() {
    const { scenario: read, problems } = scenarioFromHash(
      location.hash, catalog, defaultScenario(catalog, browserLang()));
    scenario = read;
    const t = makeTranslator(catalog.strings, scenario.lang);
    notices = problems.map(({ key, value }) =>
      t('notice.invalid', { key: key.slice(0, MAX_ECHO), value: value.slice(0, MAX_ECHO) }));
  }

  const form = $('controls');
  const range = $('context-range');
  const number = $('context-number');
  let renderedLang = null;

  function renderStatic(t, response) {
    const model = response.model;
    document.documentElement.lang = scenario.lang;
    const title = t('page.title', { model: model.name });
    if (document.title !== title) document.title = title;
    put($('title'), title);
    put($('summary'), t('page.summary', {
      model: model.name,
      family: model.family,
      license: model.license,
      topology: t(`topology.${model.topology}`),
      params_total: fmt.params(scenario.lang, model.params_total),
      params_active: fmt.params(scenario.lang, model.params_active),
      layers: model.num_hidden_layers,
      attention: t(`attention.${model.attention}`),
      max_position: fmt.integer(scenario.lang, model.max_position_embeddings),
    }));
    for (const element of document.querySelectorAll('[data-i18n]')) {
      put(element, t(element.dataset.i18n, { model: model.name }));
    }
  }

  function renderControls(t, response) {
    fillSelect(form.elements.model, catalog.models.map((m) => [m.id, m.name]), scenario.model);
    fillSelect(form.elements.format, catalog.formats.map((f) => [f.id, f.label]), scenario.format);
    // "auto" follows the format's recommended class (the matrix names it for every format).
    const recommendedId = response.matrix.find((row) => row.format === scenario.format)?.recommended_device;
    const recommended = catalog.devices.find((d) => d.id === recommendedId)?.name ?? t('matrix.none');
    fillSelect(form.elements.device,
      [['auto', t('sim.device_auto', { device: recommended })], ...catalog.devices.map((d) => [d.id, d.name])],
      scenario.device ?? 'auto');
    const batches = BATCH_CHOICES.includes(scenario.batch)
      ? BATCH_CHOICES : [...BATCH_CHOICES, scenario.batch].sort((a, b) => a - b);
    fillSelect(form.elements.batch, batches.map((b) => [String(b), fmt.integer(scenario.lang, b)]),
      String(scenario.batch));
    fillSelect(form.elements.kv, catalog.kv_dtypes.map((k) => [k.id, k.label]), scenario.kv);
    fillSelect(form.elements.lang, ['de', 'en'].map((l) => [l, catalog.strings[l]['lang.name']]), scenario.lang);

    const maxLog2 = Math.max(MAX_CONTEXT_LOG2, Math.ceil(Math.log2(response.model.max_position_embeddings)));
    if (range.max !== String(maxLog2)) range.max = String(maxLog2);
    // While dragging, the slider already shows the context; a typed one snaps to the nearest.
    const position = String(sliderPosition(scenario.context));
    if (2 ** Number(range.value) !== scenario.context && range.value !== position) range.value = position;
    if (document.activeElement !== number && number.value !== String(scenario.context)) {
      number.value = String(scenario.context);
    }
    number.max = String(catalog.limits.max_context);
    const contextText = t('sim.context_value', { tokens: fmt.integer(scenario.lang, scenario.context) });
    put($('context-value'), contextText, scenario.context);
    if (range.getAttribute('aria-valuetext') !== contextText) range.setAttribute('aria-valuetext', contextText);
  }

  function render() {
    const t = makeTranslator(catalog.strings, scenario.lang);
    const response = core.evaluate(requestFor(scenario));
    if (!response.ok) {
      showNotice([...notices, `${t('error.prefix')} ${response.error.message}`]);
      return;
    }
    if (renderedLang !== scenario.lang || $('title').dataset.model !== scenario.model) {
      renderStatic(t, response);
      $('title').dataset.model = scenario.model;
      renderedLang = scenario.lang;
    }
    renderControls(t, response);
    renderSimulator(response, { t, lang: scenario.lang, catalog });
    showNotice(notices);
    $('page').setAttribute('aria-busy', 'false');
  }

  const schedule = frameScheduler(render);

  bindControls(form, {
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
      notices = [t('notice.context', {
        max: fmt.integer(scenario.lang, catalog.limits.max_context), value: value.slice(0, MAX_ECHO),
      })];
      number.value = String(scenario.context);
      schedule();
    },
  });

  window.addEventListener('hashchange', () => {
    readHash();
    schedule();
  });

  readHash();
  render();
}

start();
