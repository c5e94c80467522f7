// The page's controller: the scenario and its notices, one core call per frame (only the
// context's sections while only the context moves, none for a context it has the answer to),
// the slider's rest, and the renderers it hands each frame.
import { bindControls, sliderMaxLog2, sliderStops } from './controls.js';
import { byId, put, setAttr } from './dom.js';
import * as fmt from './format.js';
import { frameScheduler } from './frame.js';
import { LANGS, applyTexts, browserLang, hasStrings, loadStrings, makeTranslator } from './i18n.js';
import { importedFrom, storeConfig, storedConfig } from './custom-config.js';
import { lazySections } from './lazy-sections.js';
import { renderChoices, renderControls, renderStatic } from './page-texts.js';
import { renderDecodeError } from './render/accuracy.js';
import { renderSimulator } from './render/simulator.js';
import {
  CUSTOM_MODEL, FITS_RUNTIME, customDevice, defaultScenario, fitToRuntime, hashFromScenario, requestFor,
  runsOnDevice, runtimeOf, scenarioFromHash,
} from './state.js';

const MAX_ECHO = 40;  // characters of a bad link value repeated in a notice
const REST_MS = 120;  // the slider rests once it has not moved for this long
// The rest of the page loads once the first numbers are painted, or after this long where the
// browser reports no paint of them (an element out of view has no Element Timing entry).
const PAINT_FALLBACK_MS = 3000;

let laterCss = null;  // css/later.css linked (once, unless it failed)
/**
 * css/later.css, the rules of what comes after the first numbers (and of the fits view), linked
 * after the page's first stylesheet (css/app.css, a link or inline in the bundled page), which
 * names it in `data-later`; resolves once it applies. The single file has both inline (and
 * nothing to link).
 */
function laterStylesheet() {
  const first = document.querySelector('[data-later]');
  if (!first) return Promise.resolve();
  if (laterCss) return laterCss;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL(first.dataset.later, document.baseURI).href;
  laterCss = new Promise((resolve, reject) => {
    link.onload = resolve;
    link.onerror = () => {
      link.remove();
      laterCss = null;  // the next call tries again
      reject(new Error(`${link.href} did not load`));
    };
  });
  first.after(link);
  return laterCss;
}

export class PageController {
  #core;
  #root;
  #scenario = null;
  #notices = [];  // [key, values] of the strings to show, translated as they are drawn
  #custom = null;  // the pasted config.json's text, or null
  #customRead = false;  // the stored one has been read (restoreCustom)
  #customName = '';
  #rendered = { lang: null, model: null, custom: null, view: undefined, complete: false, painted: false, card: false };
  #fits = null;  // render/fits.js, once the view has shown
  #shown = null;  // the answer the page shows (the tables' exports)
  #fitsLoading = null;
  // The last complete response and what it was asked for without the context: while only the
  // context moves (the slider), the model card, the curve and the matrix stay as they are, so
  // the core is asked for the context's sections alone and the rest comes from here.
  #full = { key: null, response: null };
  #answers = null;  // the context's sections at each context asked for since (context-answers.js, in later.js)
  #lower;  // the sections below the simulator (lazy-sections.js)
  #lowerCode = null;  // their renderers and the card's (later.js), once loaded with vramcalc-full.wasm
  #lowerLoading = null;  // both on their way
  #lowerFailed = false;  // they could not load: the page is whole without them
  #panel = null;  // the config.json panel's code (custom-panel.js), its file and drop listeners bound
  #marked = false;  // the first numbers are shown (the benchmark's mark is set)
  #painted = false;  // the first numbers' frame has been painted (#firstPainted)
  #choicesTouched = false;  // a control other than the context changed since the last frame
  #moving = false;  // only the context has changed since the slider last rested
  #restTimer = 0;  // ends #moving
  schedule = frameScheduler(() => this.render());

  constructor(core, root) {
    this.#core = core;
    this.#root = root;
    const section = (id) => byId(root, `${id}-section`);  // index.html's shells, filled by later.js
    const code = () => this.#lowerCode;
    this.#lower = lazySections(byId(root, 'page'), [
      [section('hw'), 'hardware', (response, view) => code().renderHardware(root, response, view)],
      [section('cmd'), 'commands', (response, view) => code().renderCommands(root, response, view)],
      [section('related'), 'related', (response, view) => code().renderRelated(root, response, view)],
    ], () => this.schedule());
  }

  get catalog() { return this.#core.catalog; }
  get scenario() { return this.#scenario; }
  translator() { return makeTranslator(this.#scenario.lang); }

  /**
   * The config.json this browser stored (the last one that worked), once: read when a link asks
   * for it, else after the first numbers. localStorage's first read in a fresh profile blocks
   * the page for 2-40 ms (Chromium, this machine).
   */
  restoreCustom() {
    if (this.#customRead) return;
    this.#customRead = true;
    this.#custom ??= storedConfig();
    if (this.#custom !== null && this.#scenario) this.schedule();  // the model selector offers it
  }

  readHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ''));
    if (params.get('model') === CUSTOM_MODEL) this.restoreCustom();
    // The stored model, unless the link names another one imported from the Hub.
    const hf = params.get('hf');
    const { scenario, problems } = scenarioFromHash(location.hash, this.catalog, defaultScenario(this.catalog, browserLang()),
      this.#custom !== null && (!hf || importedFrom(this.#custom) === hf));
    // A link value its engine cannot run (a format, a device, another engine's option) is a
    // problem like any other bad value.
    this.#scenario = fitToRuntime(scenario, this.catalog);
    const given = new Set(params.keys());
    for (const [key, value] of Object.entries(scenario)) {
      if (given.has(key) && this.#scenario[key] !== value && !problems.some((p) => p.key === key)) {
        problems.push({ key, value: String(value) });
      }
    }
    this.#notices = problems.map(({ key, value }) => (key === 'model' && value === CUSTOM_MODEL
      ? ['notice.custom_missing']
      : ['notice.invalid', { key: key.slice(0, MAX_ECHO), value: value.slice(0, MAX_ECHO) }]));
  }

  update(patch) {
    // A RAM type picked (its control comes with the later code) sets or drops the bandwidth.
    const next = { ...this.#scenario, ...(this.#lowerCode?.hostChoice(patch, this.#scenario, this.catalog) ?? patch) };
    if (next.model !== CUSTOM_MODEL && patch.model) next.hf = null;  // the Hub source of model=custom only
    // The context is no engine's choice: a slider move leaves the scenario fitted to its engine.
    const contextOnly = Object.keys(patch).every((key) => key === 'context');
    this.#scenario = contextOnly ? next : fitToRuntime(next, this.catalog);
    // A choice the engine cannot run leaves the scenario as it was: the next frame sets the
    // selectors back (a frame that only moves the context leaves them alone).
    if (!contextOnly) this.#choicesTouched = true;
    this.#setMoving(contextOnly);
    this.schedule();
  }

  /**
   * While only the context moves, what merely repeats it (the number field, the view link, the
   * plot's description) and the sections out of view wait for a frame at rest: REST_MS after
   * the last move, or at once when anything else changes.
   */
  #setMoving(moving) {
    this.#moving = moving;
    clearTimeout(this.#restTimer);
    if (!moving) return;
    this.#restTimer = setTimeout(() => {
      this.#moving = false;
      this.schedule();
    }, REST_MS);
  }

  commit() {
    this.#notices = [];
    const hash = hashFromScenario(this.#scenario, defaultScenario(this.catalog, 'de'), this.catalog);
    if (location.hash !== hash) history.replaceState(null, '', hash);
    this.schedule();
  }

  /**
   * A number field's value it cannot take (the context, the host's RAM or bandwidth, serving's
   * prompt and answer): a notice, and the field reset.
   */
  reject(key, value) {
    if (key === 'context') {
      // Empty when the number field could not read what was typed ("NaN", "-Infinity").
      this.#notices = [[value ? 'notice.context' : 'notice.context_unread', {
        max: fmt.integer(this.#scenario.lang, this.catalog.limits.max_context), value: value.slice(0, MAX_ECHO),
      }]];
      byId(this.#root, 'context-number').value = String(this.#scenario.context);
    } else {  // the host's and serving's fields, which come with the later code
      this.#notices = [this.#lowerCode.rejectField(this.#root, key, value, { scenario: this.#scenario, catalog: this.catalog })];
    }
    this.schedule();
  }

  /**
   * A config.json the core accepts becomes the model; else a notice names what failed. The
   * importer's module and the panel's code come first (once).
   */
  async applyConfig(text) {
    const panel = await this.#importer();
    if (!panel) return;
    const request = requestFor(this.#scenario, this.catalog);
    delete request.model;  // the config.json is the model
    const { notice, published, hf } = panel.checkConfig(this.#core, request, text, this.translator());
    if (notice) {
      this.#notices = [notice];
      this.schedule();
      return;
    }
    this.#custom = text;
    storeConfig(text);
    // A quantized checkpoint (FP8, MXFP4, NVFP4, AWQ, GPTQ) is estimated in the format it is
    // published in, where the engine runs it; an import's Hub source (hf) goes into the link,
    // which can import it again.
    const runs = published && runtimeOf(this.#scenario, this.catalog).formats.includes(published);
    this.update(runs ? { model: CUSTOM_MODEL, format: published, hf } : { model: CUSTOM_MODEL, hf });
    this.commit();
    if (runs) this.#notices = [['custom.published_format', { format: published }]];
  }

  /**
   * The curve's plot and the sections below the simulator wait for vramcalc-full.wasm, which has
   * their code, and for their renderers: both load after the first numbers. Until then the core is
   * not asked for them.
   */
  #lowerReady() {
    return this.#lowerCode !== null && this.#core.hasFull();
  }

  /**
   * What the core is not asked for before then: the quantization matrix, the curve (for the plot),
   * the sections below and the architecture card's checkpoint, Ollama tags and release, what runs
   * with a part in host RAM (the offload section), the KV pool an engine preallocates and serving.
   */
  #unavailable() {
    return this.#lowerReady() ? new Set() : new Set(['matrix', 'curve', 'card', 'offload', 'pool', 'serving', ...this.#lower.names]);
  }

  #evaluate() {
    const request = requestFor(this.#scenario, this.catalog);
    const unavailable = this.#unavailable();
    if (unavailable.size > 0) request.sections = this.catalog.sections.filter((name) => !unavailable.has(name));
    const config = this.#scenario.model === CUSTOM_MODEL ? this.#custom : undefined;
    const key = JSON.stringify({ ...request, context: undefined, config });
    // The context's sections, but those not loaded yet and, while the slider moves, those out of view.
    const contextSections = (skip) => this.catalog.context_sections.filter((name) => !skip.has(name));
    const skip = unavailable.size > 0 ? unavailable : this.#lower.skipped(this.#moving);
    if (key === this.#full.key) {
      const moved = { ...request, sections: contextSections(skip) };
      const part = this.#answers?.answer(key, moved, config) ?? this.#core.evaluate(moved, config);
      if (!part.ok) return { response: part, changed: false, skip };
      const { model, curve, matrix, card } = this.#full.response;
      // The sections left out keep what they show (the exports export that) until they catch up.
      const kept = Object.fromEntries([...skip].map((name) => [name, this.#shown[name]]));
      return { response: { ...kept, ...part, model, curve, matrix, card }, changed: false, skip };
    }
    const response = this.#core.evaluate(request, config);
    this.#full = response.ok ? { key, response } : { key: null, response: null };
    // The slider's stops, asked for while the page is idle, once the page is whole (its request
    // then no longer changes when the sections below load).
    if (response.ok && this.#answers && unavailable.size === 0) {
      const moving = { ...request, sections: contextSections(this.#lower.skipped(true)) };
      this.#answers.prefetch(key, moving, config, sliderStops(response.model));
    }
    return { response, changed: true, skip: new Set() };
  }

  #showNotice(lines) {
    const notice = byId(this.#root, 'notice');
    if (notice.hidden !== (lines.length === 0)) notice.hidden = lines.length === 0;
    put(notice, lines.join(' '));
  }

  render() {
    if (this.#awaitStrings() || this.#awaitFitsView() || this.#awaitImporter()) return;
    const t = this.translator();
    const { response, changed, skip } = this.#evaluate();
    if (!response.ok) {
      this.#showNotice([...this.#notices.map(([key, values]) => t(key, values)), `${t('error.prefix')} ${response.error.message}`]);
      return;
    }
    const scenario = this.#scenario;
    this.#shown = response;
    const view = {
      t, lang: scenario.lang, catalog: this.catalog, scenario, maxLog2: sliderMaxLog2(response.model), moving: this.#moving,
      painted: this.#painted,
    };
    // Another language redraws every section, as another answer does: the core's answer is the
    // same, its texts are not.
    const all = changed || this.#rendered.lang !== scenario.lang || this.#rendered.view !== scenario.view ||
      this.#rendered.painted !== this.#painted;
    this.#renderStatic(response, view);
    if (all) renderChoices(this.#root, response, view);
    if (all && this.#lowerCode) this.#lowerCode.renderHostChoices(this.#root, response, view);  // the host's RAM
    renderControls(this.#root, response, view, all || this.#choicesTouched);
    this.#choicesTouched = false;
    this.#renderViewSwitch(response, view);
    const notices = this.#notices.map(([key, values]) => t(key, values));
    if (scenario.view === 'fits') {
      const failed = this.#renderFits(response, view);
      if (failed) notices.push(failed);
    } else {
      renderSimulator(this.#root, response, view);
      renderDecodeError(this.#root, response, view);
      if (this.#lowerReady()) this.#drawLower(response, view, all, all ? new Set() : skip);
    }
    this.#showNotice(notices);
    if (!this.#marked) {
      this.#marked = true;
      performance.mark('vramcalc:first-numbers');  // set in script; see #whenPainted for the painted moment
      this.#whenPainted();
    }
    // Whole once the sections below the simulator are drawn (or their code could not load).
    const whole = this.#lowerReady() || this.#lowerFailed;
    const page = byId(this.#root, 'page');
    const busy = whole ? 'false' : 'true';
    if (page.getAttribute('aria-busy') !== busy) page.setAttribute('aria-busy', busy);
  }

  /**
   * #firstPainted once the first numbers are on screen: at the Element Timing entry of the total
   * or the context's value (index.html's `elementtiming`: the frame that paints them has been
   * presented), else (Firefox, WebKit) in the task after the next frame; in a hidden tab, which
   * draws no frames, at once. What comes next then neither competes with that frame for the
   * machine nor lands before it (the benchmark counts the bytes before it).
   */
  #whenPainted() {
    const painted = () => this.#firstPainted();
    if (document.hidden) {
      setTimeout(painted);
    } else if (PerformanceObserver.supportedEntryTypes.includes('element')) {
      const observer = new PerformanceObserver(() => { observer.disconnect(); painted(); });
      observer.observe({ type: 'element' });
      // An element out of view gets no entry: the rest comes anyway, later.
      setTimeout(painted, PAINT_FALLBACK_MS);
    } else {
      requestAnimationFrame(() => setTimeout(painted));
    }
  }

  /**
   * Once the first numbers are painted: the sections below the fold (index.html
   * `data-below-fold`) show, and a frame draws them, the matrix and the model and device
   * selectors' other options; vramcalc-full.wasm and the code and strings of the rest start to
   * load. Until then the first frame styles and lays out the header and the simulator alone, each
   * long selector holding its chosen option (20 interleaved cold loads each: the first numbers
   * 30-43 ms sooner without the sections, 9 ms with one option; see tests/bench/README.md). The
   * mark is the painted moment the benchmark takes where the browser has no Element Timing.
   */
  #firstPainted() {
    if (this.#painted) return;
    this.#painted = true;
    performance.mark('vramcalc:first-numbers-painted');
    for (const element of this.#root.querySelectorAll('[data-below-fold][hidden]')) element.hidden = false;
    this.#loadLower();
    this.schedule();
  }

  /**
   * The plot of the curve, the decode estimate's error table, the model's published runs and what
   * runs with offload (beside the figures), the quantization matrix (which no context changes:
   * drawn when `all` is) and the sections below but `skip`, once their code is here.
   */
  #drawLower(response, view, all, skip) {
    const plot = byId(this.#root, 'plot-figure');
    if (plot.hidden) plot.hidden = false;
    this.#lowerCode.renderPlot(this.#root, response, view);
    this.#lowerCode.renderAccuracy(this.#root, response, view);
    this.#lowerCode.renderMeasured(this.#root, response, view);
    this.#lowerCode.renderFigures(this.#root, response, view);
    if (all) this.#lowerCode.renderMatrix(this.#root, response, view);
    this.#lower.draw(response, view, skip);
  }

  /**
   * vramcalc-full.wasm and the renderers for the curve's plot and the sections below the
   * simulator, once the first numbers are painted; if they cannot load, a notice says so.
   */
  #loadLower() {
    if (this.#lowerLoading) return;
    const strings = loadStrings(this.#scenario.lang, document.baseURI);  // the later part: their texts
    const loading = [this.#core.loadFull(), import('./later.js'), strings, laterStylesheet()];
    this.#lowerLoading = Promise.all(loading).then(([, code]) => {
      this.#lowerCode = code;
      this.#answers = code.contextAnswers((request, config) => this.#core.evaluate(request, config));
      code.bindLowerSections(this.#root, this);
      code.registerServiceWorker(() => this.translator());
      this.schedule();
    }, (error) => {
      this.#lowerFailed = true;
      this.#notices = [['error.lower', { error: String(error?.message ?? error) }]];
      this.schedule();
    });
  }

  /**
   * True while the chosen language's strings load (the page stays as it is and renders once they
   * are there). If they cannot load, the page goes back to the language it spoke and says so.
   */
  #awaitStrings() {
    const { lang } = this.#scenario;
    // What the first numbers show, until code that shows the later strings has come.
    const need = { first: !this.#lowerCode && !this.#fits };
    if (hasStrings(lang, need)) return false;
    byId(this.#root, 'page').setAttribute('aria-busy', 'true');
    loadStrings(lang, document.baseURI, need).then(() => this.schedule(), (error) => {
      const spoken = this.#rendered.lang ?? 'de';
      this.#scenario = { ...this.#scenario, lang: spoken };
      this.commit();
      this.#notices = [['notice.lang_unavailable', { error: String(error?.message ?? error) }]];
    });
    return true;
  }

  /**
   * The full module (vramcalc-full.wasm, the one with the config.json importer), the panel's code
   * (custom-panel.js, its file and drop listeners bound the first time), its rules (later.css)
   * and the later strings: the panel's code once they are there; if they cannot load, a notice
   * says so (and null).
   */
  async #importer() {
    try {
      // With the later strings: the importer's notices and the panel's texts are among them. Once
      // all are here, a paste is checked within the same task (no import() to wait for).
      const [panel] = await Promise.all([this.#panel ?? import('./custom-panel.js'), this.#core.loadFull(),
        loadStrings(this.#scenario.lang, document.baseURI), laterStylesheet()]);
      if (!this.#panel) {
        panel.bindConfigFiles(this.#root, (text) => this.applyConfig(text), {
          t: (key, values) => this.translator()(key, values),
          // The core's reading of a config.json: the importer builds the model description on it.
          readConfig: (model) => this.#core.evaluate({ model, sections: ['model'] }),
          catalog: this.catalog,
        });
      }
      this.#panel = panel;
      return panel;
    } catch (error) {
      this.#notices = [['error.importer', { error: String(error?.message ?? error) }]];
      this.schedule();
      return null;
    }
  }

  /**
   * True while the importer's module loads for a pasted model (a link or a reload with one): the
   * page stays as it is and renders once it is there.
   */
  #awaitImporter() {
    if (this.#scenario.model !== CUSTOM_MODEL || this.#custom === null || this.#core.hasFull()) return false;
    byId(this.#root, 'page').setAttribute('aria-busy', 'true');
    this.#importer().then((panel) => {
      if (panel) this.schedule();
      else this.update({ model: defaultScenario(this.catalog, 'de').model });
    });
    return true;
  }

  /** The link to the other view, and which one the page shows. */
  #renderViewSwitch(response, { t, catalog, scenario, moving }) {
    const fits = scenario.view === 'fits';
    const page = byId(this.#root, 'page');
    if (page.dataset.view !== (scenario.view ?? 'model')) page.dataset.view = scenario.view ?? 'model';
    const section = byId(this.#root, 'fits');
    if (section.hidden === fits) section.hidden = !fits;  // not rewritten every frame of the slider
    const link = byId(this.#root, 'view-link');
    // Its link carries the context: written at rest, not in every frame of the slider.
    // The fits view opens under FITS_RUNTIME unless the page shows another engine than its default.
    if (!moving) {
      const defaults = defaultScenario(catalog, 'de');
      const runtime = fits || scenario.runtime !== defaults.runtime ? scenario.runtime : FITS_RUNTIME;
      setAttr(link, 'href', hashFromScenario({ ...scenario, runtime, view: fits ? null : 'fits' }, defaults, catalog));
    }
    put(link, fits ? t('page.fits_back', { model: response.model.name }) : t('page.fits_link'));
  }

  /**
   * The fits view's code (render/fits.js) and the full module's sweep come the first time the
   * view shows: true while they load (the page stays as it is and renders once they are there).
   */
  #awaitFitsView() {
    if (this.#scenario.view !== 'fits' || this.#fits) return false;
    byId(this.#root, 'page').setAttribute('aria-busy', 'true');
    if (this.#fitsLoading) return true;
    const strings = loadStrings(this.#scenario.lang, document.baseURI);  // the view's are later strings
    // With later.css: the rules of its table.
    const loading = [import('./render/fits.js'), this.#core.loadFull(), strings, laterStylesheet()];
    this.#fitsLoading = Promise.all(loading).then(([module]) => {
      module.bindFits(this.#root, {
        redraw: () => this.schedule(),
        open: (model, format, device) => {  // the model's simulator on the device the view swept
          this.update({ view: null, model, format, device });
          this.commit();
        },
        compare: (ids) => {  // the devices listed beside the chosen one (the link's compare)
          this.update({ compare: ids });
          this.commit();
        },
      });
      this.#fits = module;
      this.schedule();
    }, (error) => {
      this.#fitsLoading = null;
      this.#notices = [['error.view', { error: String(error?.message ?? error) }]];
      this.update({ view: null });
    });
    return true;
  }

  /** The fits view from one sweep() on the chosen device and those compared; an error's text, or null. */
  #renderFits(response, view) {
    return this.#fits.drawFitsView(this.#root, this.#core, response, view);
  }

  #renderStatic(response, view) {
    const { lang, model } = this.#scenario;
    const rendered = this.#rendered;
    const viewName = this.#scenario.view;
    const same = rendered.lang === lang && rendered.model === model && rendered.custom === this.#custom;
    // The static texts of the sections below the simulator once those are drawn (or cannot be):
    // in the frame that draws them, not in one of their own before it.
    const complete = hasStrings(lang) && (this.#lowerReady() || this.#lowerFailed);
    if (!same || rendered.view !== viewName || rendered.complete !== complete || rendered.painted !== this.#painted) {
      if (model === CUSTOM_MODEL) this.#customName = response.model.name;
      renderStatic(this.#root, response, view, {
        version: this.#core.version(), customName: this.#custom === null ? null : this.#customName,
      });
      // The card shows the model alone: a config.json read or pasted meanwhile redraws it only
      // when it is the model (its element replaced under a reader who scrolls to it).
      const sameCard = rendered.lang === lang && rendered.model === model &&
        (model !== CUSTOM_MODEL || rendered.custom === this.#custom);
      this.#rendered = {
        lang, model, custom: this.#custom, view: viewName, complete, painted: this.#painted, card: sameCard && rendered.card,
      };
    }
    // The architecture card, far below the fold, comes with the code that loads after the first
    // numbers, and again with another model or language.
    if (this.#lowerCode && !this.#rendered.card) {
      this.#lowerCode.renderCard(this.#root, response, view);
      this.#rendered.card = true;
    }
  }

  /** A table's export (its code loads on the first click), of the answer it shows. */
  async #exportTable(button) {
    const table = byId(this.#root, button.dataset.export);
    const heading = button.closest('section').querySelector('h2').textContent;
    const model = this.#shown.model.name;  // named once: the hardware table's heading has it
    const caption = [heading.includes(model) ? '' : model, heading, table.caption?.textContent].filter(Boolean).join(' — ');
    // With the later strings: its copy-by-hand note is one.
    const [{ exportTable }] = await Promise.all([import('./table-export.js'), loadStrings(this.#scenario.lang, document.baseURI)]);
    await exportTable(this.#root, button, this.#shown, { t: this.translator(), caption });
  }

  /**
   * The page's listeners but those of the sections below the simulator (later.js binds them):
   * forms, copy and export buttons, the link.
   */
  bind() {
    const root = this.#root;
    const handlers = {
      maxContext: this.catalog.limits.max_context,
      maxNumbers: { ram: this.catalog.limits.max_host_memory, rambw: this.catalog.limits.max_host_bandwidth },
      update: (patch) => this.update(patch),
      commit: () => this.commit(),
      reject: (key, value) => this.reject(key, value),
    };
    bindControls(byId(root, 'controls'), handlers);
    bindControls(byId(root, 'prefs'), handlers);
    // "Your own model": opening it fetches the config.json reader and the panel's code, so that a
    // paste answers at once (and binds its file and drop listeners); its form applies the text.
    byId(root, 'custom').addEventListener('toggle', () => this.#importer(), { once: true });
    // A link to a model imported from the Hub that this browser does not hold: the panel offers
    // to import it again (nothing is asked of the Hub until the user does).
    const { hf } = this.#scenario;
    if (hf && this.#scenario.model !== CUSTOM_MODEL) {
      byId(root, 'custom').open = true;
      this.#importer().then((panel) => panel?.offerImport(root, hf, this.translator()));
    }
    this.#bindDevicePanels(root);
    root.addEventListener('click', (event) => {
      const button = event.target.closest('button.copy[data-copy]');
      if (button) this.#lowerCode?.copyFrom(button, this.translator());  // a command's: drawn by that code
      // A table exports once drawn (its section comes with the later code).
      const exporter = event.target.closest('button[data-export]');
      if (exporter && this.#shown?.[exporter.dataset.export]) this.#exportTable(exporter);
    });
    window.addEventListener('hashchange', () => {
      this.readHash();
      this.#setMoving(false);  // a link is no slider move: the whole page follows it at once
      this.schedule();
    });
  }

  /** "Use my GPU" and the own device's form. */
  #bindDevicePanels(root) {
    // "Use my GPU": its code loads on the first click (a chunk of its own).
    byId(root, 'detect-gpu').addEventListener('click', async () => {
      // Its texts are later strings: they come with it.
      const [{ detect }] = await Promise.all([import('./detect.js'), loadStrings(this.#scenario.lang, document.baseURI)]);
      const runtime = runtimeOf(this.#scenario, this.catalog);
      detect(root, {
        devices: this.catalog.devices.filter((d) => runsOnDevice(runtime, d)), t: this.translator(),
        apply: (device) => {
          this.update({ device });
          this.commit();
        },
      });
    });
    // The own device's form: its code and texts (later strings) come when it first opens.
    const own = byId(root, 'own-device');
    const ownCode = () => import('./own-device.js');
    own.addEventListener('toggle', () => {
      ownCode().then(({ ownDeviceForm }) => ownDeviceForm(root))
        .then(() => loadStrings(this.#scenario.lang, document.baseURI)).then(() => applyTexts(own, this.translator()), () => {});
    });
    root.addEventListener('submit', async (event) => {
      if (event.target.id !== 'own-device-form') return;
      event.preventDefault();
      const text = (await ownCode()).ownDeviceText(event.target);
      if (customDevice(text) === null) {
        this.#notices = [['own.invalid']];
        this.schedule();
      } else {
        this.update({ device: text });
        this.commit();
      }
    });
  }
}

/** Starts the page on `root` (the document) with a loaded core. */
export function startPage(core, root) {
  const page = new PageController(core, root);
  page.readHash();
  page.bind();
  page.render();
  // Once the page is idle: a stored config.json, and the other languages' strings, so that
  // switching is instant (and works offline before the service worker has cached them).
  const idle = window.requestIdleCallback ?? ((run) => setTimeout(run, 200));
  idle(() => {
    page.restoreCustom();
    LANGS.forEach((lang) => loadStrings(lang, document.baseURI).catch(() => {}));
  });
}
