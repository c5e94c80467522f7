// <vram-calculator>: the calculator for documentation pages. Importing this module defines
// the element; sites that want another tag call VramCalculator.define('my-tag').
//
//   <script type="module" src="…/widget.js"></script>
//   <vram-calculator model="glm-4-9b-0414" format="Q4_K_M" context="32768"
//                    device="rtx-3060-12gb" lang="en" sections="simulator,matrix,hardware">
//   </vram-calculator>
//
// Every widget on a page shares one wasm instance (js/core.js). The module finds its files
// relative to itself, so the folder can live under any path; it needs no inline script, no
// eval and no service worker, and works under `script-src 'self' 'wasm-unsafe-eval'`.
// After every recompute it dispatches `estimate-change` with the core's response as detail.
import { loadCore } from './js/core.js';
import { put } from './js/dom.js';
import * as fmt from './js/format.js';
import { frameScheduler } from './js/frame.js';
import { browserLang, makeTranslator } from './js/i18n.js';
import { wholeNumber } from './js/state.js';
import { sliderMaxLog2, sliderPosition, MAX_CONTEXT_LOG2, MIN_CONTEXT_LOG2 } from './js/controls.js';

const STYLESHEET = new URL('./css/widget.css', import.meta.url).href;
const FULL_PAGE = new URL('./index.html', import.meta.url).href;
const ATTRIBUTES = ['model', 'format', 'context', 'batch', 'kv', 'device', 'gpus', 'lang', 'sections'];
const MATRIX_CONTEXTS = ['8192', '32768', '131072'];

function element(tag, { className = '', part = '', testid = '', text = '' } = {}, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (part) node.setAttribute('part', part);
  if (testid) node.dataset.testid = testid;
  if (text) node.textContent = text;
  node.append(...children);
  return node;
}

export class VramCalculator extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  /** Defines the element under `tag` (default vram-calculator) in `registry`, once. */
  static define(tag = 'vram-calculator', registry = customElements) {
    if (!registry.get(tag)) registry.define(tag, class extends VramCalculator {});
  }

  #parts = null;
  #core = null;
  #schedule = frameScheduler(() => this.#render());
  #context = null;  // the slider's choice; the context attribute when unset
  #tablesKey = '';

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }

  connectedCallback() {
    if (!this.#parts) this.#build();
    loadCore().then((core) => {
      this.#core = core;
      this.#schedule();
    }, (error) => {
      this.#parts.error.hidden = false;
      this.#parts.error.textContent = `vramcalc: ${error?.message ?? error}`;
    });
  }

  attributeChangedCallback(name) {
    if (name === 'context') this.#context = null;
    if (this.#core) this.#schedule();
  }

  #build() {
    const link = element('link');
    link.rel = 'stylesheet';
    link.href = STYLESHEET;
    const range = element('input', { part: 'slider', testid: 'context' });
    Object.assign(range, { type: 'range', min: String(MIN_CONTEXT_LOG2), max: String(MAX_CONTEXT_LOG2), step: '1' });
    range.addEventListener('input', () => {
      this.#context = 2 ** Number(range.value);
      this.#schedule();
    });
    const parts = {
      title: element('span', { className: 'title' }),
      more: element('a', { className: 'more' }),
      range,
      context: element('output', { className: 'context', part: 'context', testid: 'context-value' }),
      total: element('span', { className: 'total', part: 'total', testid: 'total' }),
      fit: element('span', { className: 'fit', part: 'fit', testid: 'fit' }),
      decode: element('span', { className: 'decode', part: 'decode', testid: 'decode' }),
      bar: element('div', { className: 'bar', part: 'bar' },
        element('span', { className: 'bar-weights' }), element('span', { className: 'bar-kv' }),
        element('span', { className: 'bar-overhead' })),
      shares: element('div', { className: 'shares' }),
      tables: element('div', { className: 'table-wrap', part: 'table' }),
      error: element('p', { className: 'error', part: 'error', testid: 'widget-error' }),
    };
    parts.more.target = '_top';
    parts.bar.setAttribute('role', 'img');
    parts.error.hidden = true;
    parts.error.setAttribute('role', 'status');
    const root = element('section', { className: 'root', part: 'root' },
      element('div', { className: 'header', part: 'header' }, parts.title, parts.more),
      element('div', { className: 'slider' }, range, parts.context),
      element('div', { className: 'figures' }, parts.total, parts.fit, parts.decode),
      parts.bar, parts.shares, parts.tables, parts.error);
    this.shadowRoot.replaceChildren(link, root);
    this.#parts = parts;
  }

  /** The request from the attributes; bad values are reported and left to the defaults. */
  #request(catalog, t) {
    const problems = [];
    const request = { model: this.getAttribute('model') || catalog.defaults.model };
    const text = (name, key, known) => {
      const value = this.getAttribute(name);
      if (value === null || value === '') return;
      if (known && !known.some((item) => item.id === value)) problems.push([name, value]);
      else request[key] = value;
    };
    const count = (name, key, max) => {
      const value = this.getAttribute(name);
      if (value === null || value === '') return;
      const number = wholeNumber(value, max);
      if (number === null) problems.push([name, value]);
      else request[key] = number;
    };
    if (!catalog.models.some((m) => m.id === request.model)) {
      problems.push(['model', request.model]);
      request.model = catalog.defaults.model;
    }
    text('format', 'format', catalog.formats);
    text('kv', 'kv_dtype', catalog.kv_dtypes);
    text('device', 'device', catalog.devices);
    count('context', 'context', catalog.limits.max_context);
    count('batch', 'batch', catalog.limits.max_batch);
    count('gpus', 'device_count', catalog.limits.max_device_count);
    if (this.#context) request.context = this.#context;
    const lang = this.getAttribute('lang');
    request.lang = lang === 'de' || lang === 'en' ? lang : browserLang();
    if (lang && lang !== request.lang) problems.push(['lang', lang]);
    return { request, problems: problems.map(([key, value]) => t('widget.invalid', {
      key, value: String(value).slice(0, 40),
    })) };
  }

  #render() {
    const { catalog } = this.#core;
    const lang0 = this.getAttribute('lang');
    const t0 = makeTranslator(catalog.strings, lang0 === 'en' || lang0 === 'de' ? lang0 : browserLang());
    const { request, problems } = this.#request(catalog, t0);
    const t = makeTranslator(catalog.strings, request.lang);
    const lang = request.lang;
    const response = this.#core.evaluate(request);
    const p = this.#parts;
    if (!response.ok) {
      p.error.hidden = false;
      p.error.textContent = `${t('error.prefix')} ${response.error.message}`;
      return;
    }
    p.error.hidden = problems.length === 0;
    put(p.error, problems.join(' '));

    const sim = response.simulator;
    this.setAttribute('aria-label', t('widget.label', { model: response.model.name }));
    put(p.title, `${response.model.name} · ${response.matrix.find((r) => r.format === sim.format)?.label ?? sim.format}` +
      ` · ${sim.device_count > 1 ? t('unit.times', { count: sim.device_count, device: sim.device_name }) : sim.device_name}`);
    put(p.more, t('widget.more'));
    const hash = new URLSearchParams({ model: response.model.id, format: sim.format, context: String(sim.context), lang });
    if (p.more.getAttribute('href') !== `${FULL_PAGE}#${hash}`) p.more.href = `${FULL_PAGE}#${hash}`;
    const maxLog2 = sliderMaxLog2(response);
    if (p.range.max !== String(maxLog2)) p.range.max = String(maxLog2);
    const position = String(sliderPosition(sim.context, maxLog2));
    if (2 ** Number(p.range.value) !== sim.context && p.range.value !== position) p.range.value = position;
    const contextText = t('sim.context_value', { tokens: fmt.integer(lang, sim.context) });
    put(p.context, contextText, sim.context);
    p.range.setAttribute('aria-label', t('sim.context_label'));
    if (p.range.getAttribute('aria-valuetext') !== contextText) p.range.setAttribute('aria-valuetext', contextText);
    put(p.total, fmt.gb(lang, sim.total_gib), sim.total_gib);
    put(p.fit, sim.fit_label, sim.fit);
    p.fit.className = `fit fit-${sim.fit}`;
    put(p.decode, fmt.decodeRate(t, lang, sim.fit, sim.decode_tps), sim.decode_tps);
    const shares = sim.share_pct;
    p.bar.style.setProperty('--share-weights', `${shares.weights}%`);
    p.bar.style.setProperty('--share-kv', `${shares.kv_cache}%`);
    p.bar.style.setProperty('--share-overhead', `${shares.overhead}%`);
    const shareText = `${t('share.weights')}: ${fmt.share(lang, shares.weights)}% · ${t('share.kv_cache')}: ` +
      `${fmt.share(lang, shares.kv_cache)}% · ${t('share.overhead')}: ${fmt.share(lang, shares.overhead)}%`;
    put(p.shares, shareText);
    if (p.bar.getAttribute('aria-label') !== shareText) p.bar.setAttribute('aria-label', shareText);
    this.#renderTables(response, t, lang);
    this.dispatchEvent(new CustomEvent('estimate-change', { detail: response, bubbles: true, composed: true }));
  }

  #renderTables(response, t, lang) {
    const sections = (this.getAttribute('sections') ?? 'simulator').split(',').map((s) => s.trim());
    const tables = [];
    const sim = response.simulator;
    if (sections.includes('matrix')) {
      const head = element('tr', {}, element('th', { text: t('matrix.col.format') }),
        element('th', { className: 'num', text: t('matrix.col.weights') }),
        ...['8K', '32K', '128K'].map((c) => element('th', { className: 'num', text: t('matrix.col.total', { context: c }) })));
      const rows = response.matrix.map((row) => {
        const cell = (context, value) => {
          const td = element('td', { className: 'num', testid: 'matrix-cell', text: fmt.gb(lang, value) });
          Object.assign(td.dataset, { format: row.format, context, value: String(value) });
          return td;
        };
        const tr = element('tr', { className: row.format === sim.format ? 'selected' : '' },
          element('th', { text: row.label }), cell('weights', row.weights_gib),
          ...MATRIX_CONTEXTS.map((c) => cell(c, row.total_gib[c])));
        tr.dataset.format = row.format;
        return tr;
      });
      tables.push(element('table', {}, element('thead', {}, head), element('tbody', {}, ...rows)));
    }
    if (sections.includes('hardware')) {
      const head = element('tr', {}, element('th', { text: t('hw.col.device') }),
        element('th', { className: 'num', text: t('hw.col.needed', { context: fmt.contextLabel(sim.context) }) }),
        element('th', { text: t('hw.col.fit') }), element('th', { className: 'num', text: t('hw.col.decode') }));
      const rows = response.hardware.map((row) => {
        const value = (tag, testid, text, v, className = '') => {
          const node = element(tag, { className, testid, text });
          node.dataset.value = String(v);
          return node;
        };
        const tr = element('tr', { className: row.device === sim.device ? 'selected' : '', testid: 'hw-row' },
          element('th', { text: row.name }),
          value('td', 'hw-needed', `${fmt.gb(lang, row.needed_gib)} (${fmt.integer(lang, row.usage_pct)}%)`,
            row.needed_gib, 'num'),
          value('td', 'hw-fit', row.fit_label, row.fit, `fit-${row.fit}`),
          value('td', 'hw-decode', fmt.decodeRate(t, lang, row.fit, row.decode_tps), row.decode_tps, 'num'));
        tr.dataset.device = row.device;
        return tr;
      });
      tables.push(element('table', {}, element('thead', {}, head), element('tbody', {}, ...rows)));
    }
    // Tables are rebuilt only when their content changes (the key is their text).
    const key = tables.map((table) => table.textContent).join('|');
    if (this.#tablesKey !== key) {
      this.#parts.tables.replaceChildren(...tables);
      this.#tablesKey = key;
    }
    this.#parts.tables.hidden = tables.length === 0;
  }
}

VramCalculator.define();
