// The <vram-calculator> element's class. Importing this module registers nothing; widget.js
// defines the element (VramCalculator.define(tag) names another tag).
//
// It draws with the page's own renderers (js/render/*.js) inside its shadow root, reads its
// attributes with the page's link checks (js/state.js), and shares the page's one wasm
// instance (js/core.js). It needs no inline script, no eval and no service worker.
import { loadCore } from './core.js';
import { byId, put, setAttr } from './dom.js';
import * as fmt from './format.js';
import { frameScheduler } from './frame.js';
import { applyTexts, browserLang, hasStrings, knownLang, loadStrings, makeTranslator } from './i18n.js';
import { sliderMaxLog2, sliderPosition } from './controls.js';
import { renderHardware } from './render/hardware.js';
import { renderMatrix } from './render/matrix.js';
import { bindServing, rejectServing, renderServing } from './render/serving.js';
import { renderSimulator } from './render/simulator.js';
import { FITS_RUNTIME, WIDGET_KEYS, fitToRuntime, requestFor, runtimeOf, valueChecks } from './state.js';
import { buildTables, buildWidget } from './widget-markup.js';

const FULL_PAGE = new URL('../index.html', import.meta.url).href;
const SITE = new URL('../', import.meta.url).href;  // where i18n/<lang>.json lie
const ATTRIBUTES = [...WIDGET_KEYS, 'sections'];
// What vramcalc-full.wasm computes, each drawn by the page's renderer when `sections` names it.
const TABLES = [['matrix', renderMatrix], ['hardware', renderHardware], ['serving', renderServing]];

export class VramCalculator extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  /** Defines the element under `tag` (default vram-calculator) in `registry`, once. */
  static define(tag = 'vram-calculator', registry = customElements) {
    if (!registry.get(tag)) registry.define(tag, class extends VramCalculator {});
    return registry.get(tag);
  }

  #parts = null;
  #core = null;
  #schedule = frameScheduler(() => this.#render());
  #chosen = {};  // what the widget's own controls chose (slider, table rows), over the attributes
  #textsLang = null;  // the language its static labels are in
  #fits = null;  // render/fits.js once view="fits" has shown
  #fitsLoading = null;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }

  connectedCallback() {
    if (!this.#parts) this.#build();
    loadCore().then((core) => {
      if (!this.#core) buildTables(this.shadowRoot, core.catalog);
      this.#core = core;
      this.#schedule();
    }, (error) => this.#fail(error));
  }

  #fail(error) {
    this.#parts.error.hidden = false;
    this.#parts.error.textContent = `vramcalc: ${error?.message ?? error}`;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    delete this.#chosen[name];  // the attribute wins over the slider or a row chosen before
    if (this.#core) this.#schedule();
  }

  #build() {
    this.#parts = buildWidget(this.shadowRoot);
    const { range } = this.#parts;
    range.addEventListener('input', () => this.#choose({ context: 2 ** Number(range.value) }));
    // Serving's prompt and answer fields (made when it first shows), as the page binds them.
    const widget = this;
    bindServing(this.shadowRoot, {
      update: (patch) => Object.assign(this.#chosen, patch),
      commit: () => this.#schedule(),
      reject: (key, value) => this.#reject(key, value),
      get catalog() { return widget.#core.catalog; },
      get scenario() { return widget.#scenario(widget.#core.catalog).scenario; },
    });
    // A click on a table row (or Enter on its button) chooses its format or device.
    this.shadowRoot.addEventListener('click', (event) => {
      const row = event.target.closest('tr[data-format], tr[data-device]');
      if (row) this.#choose(row.dataset.format ? { format: row.dataset.format } : { device: row.dataset.device });
    });
  }

  /** A serving length it cannot take: named in the error line, the field reset. */
  #reject(key, value) {
    const { scenario } = this.#scenario(this.#core.catalog);
    const [message, values] = rejectServing(this.shadowRoot, key, value, { scenario, catalog: this.#core.catalog });
    this.#parts.error.hidden = false;
    put(this.#parts.error, makeTranslator(scenario.lang)(message, values));
  }

  #choose(patch) {
    Object.assign(this.#chosen, patch);
    this.#schedule();
  }

  /**
   * The language: the element's own lang, else its nearest ancestor's (the host page's), when
   * the page speaks it; else the browser's.
   */
  #lang() {
    const declared = this.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang;
    return knownLang(String(declared).slice(0, 2).toLowerCase()) ?? browserLang();
  }

  /** The scenario from the attributes (checked as links are), the widget's own choices on top. */
  #scenario(catalog) {
    const checks = valueChecks(catalog);
    const scenario = { model: catalog.defaults.model, device: null, gpus: null, compare: [], lang: this.#lang() };
    const problems = [];
    for (const name of WIDGET_KEYS.filter((key) => key !== 'lang')) {
      const raw = this.getAttribute(name);
      if (raw === null || raw === '') continue;
      const value = checks[name](raw);
      if (value === null) problems.push([name, raw]);
      else scenario[name] = value === 'auto' ? null : value;
    }
    if (scenario.view === 'fits') scenario.runtime ??= FITS_RUNTIME;  // as the page's fits view
    return { scenario: fitToRuntime({ ...scenario, ...this.#chosen }, catalog), problems };
  }

  #sections() {
    return new Set((this.getAttribute('sections') ?? 'simulator').split(',').map((s) => s.trim()));
  }

  #render() {
    const { catalog } = this.#core;
    const { scenario, problems } = this.#scenario(catalog);
    if (!hasStrings(scenario.lang)) {  // render once its language's strings are there
      loadStrings(scenario.lang, SITE).then(() => this.#schedule(), (error) => this.#fail(error));
      return;
    }
    const shown = scenario.view === 'fits' ? new Set() : this.#sections();
    // The tables are vramcalc-full.wasm's: it comes first (once) when the widget shows one.
    const tables = TABLES.map(([name]) => name).filter((name) => shown.has(name));
    if (tables.length > 0 && !this.#core.hasFull()) {
      this.#core.loadFull().then(() => this.#schedule(), (error) => this.#fail(error));
      return;
    }
    const t = makeTranslator(scenario.lang);
    // What it draws: the header (the model), the simulator and slider, the tables shown, and
    // what runs with a part in host RAM (its verdict and speed) once vramcalc-full.wasm is here.
    const offloads = Boolean(runtimeOf(scenario, catalog).offload);
    const sections = ['model', 'simulator', ...tables, ...(offloads && this.#core.hasFull() ? ['offload'] : [])];
    const response = this.#core.evaluate({ ...requestFor(scenario, catalog), sections });
    const p = this.#parts;
    this.#loadOffload(response, offloads);
    if (!response.ok) {
      p.error.hidden = false;
      p.error.textContent = `${t('error.prefix')} ${response.error.message}`;
      return;
    }
    const messages = problems.map(([key, value]) => t('widget.invalid', { key, value: String(value).slice(0, 40) }));
    p.error.hidden = messages.length === 0;
    put(p.error, messages.join(' '));
    // Rows are marked for what the core resolved (the format's default, the recommended device).
    const view = {
      t, lang: scenario.lang, catalog, scenario: { ...scenario, format: response.simulator.format },
      maxLog2: sliderMaxLog2(response.model),
    };
    this.#renderHeader(response, view);
    const fits = scenario.view === 'fits';
    const root = byId(this.shadowRoot, 'root');
    if (root.dataset.view !== (fits ? 'fits' : 'model')) root.dataset.view = fits ? 'fits' : 'model';
    this.#parts.fits.hidden = !fits;
    if (fits) {
      this.#renderFits(response, view);
    } else {
      renderSimulator(this.shadowRoot, response, view);
    }
    for (const [name, render] of TABLES) {
      if (shown.has(name)) render(this.shadowRoot, response, view);
      const wrap = byId(this.shadowRoot, name === 'serving' ? 'serving' : `${name}-wrap`);
      if (wrap && wrap.hidden === shown.has(name)) wrap.hidden = !shown.has(name);
    }
    if (this.#textsLang !== scenario.lang) {
      applyTexts(this.shadowRoot, t);
      this.#textsLang = scenario.lang;
    }
    this.dispatchEvent(new CustomEvent('estimate-change', { detail: response, bubbles: true, composed: true }));
  }

  /**
   * A model that does not fit under an engine that offloads: vramcalc-full.wasm, which computes
   * what runs with a part in host RAM (the host attributes ram, ramtype, rambw), loads once.
   */
  #loadOffload(response, offloads) {
    if (!offloads || !response.ok || response.simulator.fit !== 'no_fit' || this.#core.hasFull()) return;
    this.#core.loadFull().then(() => this.#schedule(), (error) => this.#fail(error));
  }

  /**
   * view="fits": what runs on the device, drawn by the page's fits view (its code and the full
   * module's sweep loaded the first time).
   */
  #renderFits(response, view) {
    if (!this.#fits) {
      this.#fitsLoading ??= Promise.all([import('./render/fits.js'), this.#core.loadFull()]).then(([module]) => {
        module.bindFits(this.shadowRoot, {
          redraw: () => this.#schedule(),
          open: (model, format, device) => this.#choose({ view: null, model, format, device }),
          compare: (ids) => this.#choose({ compare: ids }),
        });
        this.#fits = module;
        this.#schedule();
      }, (error) => this.#fail(error));
      return;
    }
    const { runtime, context } = response.simulator;
    const link = ([device, ...compare]) => `${FULL_PAGE}#${new URLSearchParams({
      view: 'fits', device, ...(compare.length ? { compare: compare.join(',') } : {}),
      ...(runtime === FITS_RUNTIME ? {} : { runtime }), context: String(context), lang: view.lang })}`;
    const error = this.#fits.drawFitsView(this.shadowRoot, this.#core, response, view, link);
    this.#parts.error.hidden = !error;
    if (error) put(this.#parts.error, error);
  }

  #renderHeader(response, { t, lang, maxLog2 }) {
    const p = this.#parts;
    const sim = response.simulator;
    const format = fmt.quantLabel(this.#core.catalog, sim.format);
    const devices = sim.device_count > 1 ? t('unit.times', { count: sim.device_count, device: sim.device_name }) : sim.device_name;
    setAttr(this, 'aria-label', t('widget.label', { model: response.model.name }));
    put(p.title, `${response.model.name} · ${format} · ${devices}`);
    put(p.more, t('widget.more'));
    const hash = new URLSearchParams({ model: response.model.id, format: sim.format, context: String(sim.context), lang });
    setAttr(p.more, 'href', `${FULL_PAGE}#${hash}`);
    setAttr(p.range, 'max', maxLog2);
    const position = String(sliderPosition(sim.context, maxLog2));
    if (2 ** Number(p.range.value) !== sim.context && p.range.value !== position) p.range.value = position;
    const contextText = t('sim.context_value', { tokens: fmt.integer(lang, sim.context) });
    put(p.context, contextText, sim.context);
    setAttr(p.range, 'aria-label', t('sim.context_label'));
    setAttr(p.range, 'aria-valuetext', contextText);
  }
}

// Properties that reflect the attributes: el.context = 65536 sets context="65536". (lang is
// HTMLElement's own.)
for (const name of ATTRIBUTES.filter((a) => a !== 'lang')) {
  Object.defineProperty(VramCalculator.prototype, name, {
    get() { return this.getAttribute(name); },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(name);
      else this.setAttribute(name, String(value));
    },
  });
}
