// The UI strings (assets/i18n/<lang>.json). The wasm module carries none: each language's table
// is loaded the first time the page or a widget speaks it, from the single file's inline copy or
// from the site (web/tools/site_data.mjs), and kept here. The site has each table in two parts:
// i18n/<lang>.json, what the page's first numbers show, and i18n/<lang>.later.json, the strings
// of what comes after them with code of its own (LATER_STRINGS), loaded with that code.
export const LANGS = ['de', 'en'];

// The keys (by the part before their first dot) of the later part: the curve's plot, the decode
// estimate's error table, what runs with offload, the sections below the simulator (the
// quantization matrix among them), the architecture card, the KV pool and serving (with the full
// module), the fits view, the widget, the service worker's notices, the footer, and what shows
// only once asked for: the config.json panel's texts and notices (with the importer), the own
// device's form (when it opens), "use my GPU"'s findings (with its code) and an export's
// copy-by-hand note (with its code).
export const LATER_STRINGS = ['accuracy', 'arch', 'cmd', 'copy', 'custom', 'detect', 'explain', 'fits', 'footer', 'hw', 'matrix',
  'offload', 'own', 'plot', 'pool', 'pwa', 'related', 'serving', 'widget'];

/** Whether `key` belongs to the later part of a table. */
export const isLaterString = (key) => LATER_STRINGS.includes(key.slice(0, key.indexOf('.')));

/** `lang` when the page speaks it, else null. */
export const knownLang = (lang) => (LANGS.includes(lang) ? lang : null);

const tables = {};      // lang → its strings loaded so far (the later part merged in when it comes)
const loading = new Map();  // "<lang>" and "<lang>.later" → the promise of that part
const loaded = new Set();   // the parts that are in `tables`

/** Whether `lang`'s strings are loaded: all of them, or with `first`, what the first numbers show. */
export const hasStrings = (lang, { first = false } = {}) => loaded.has(lang) && (first || loaded.has(`${lang}.later`));

/** The table at `url`: the page's boot.js may have read it already (once). */
async function requested(url) {
  const early = globalThis.vramcalcStrings;
  if (early?.url === url) {
    globalThis.vramcalcStrings = null;
    const table = await early.table;
    if (table) return table;
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.slice(url.lastIndexOf('i18n/'))}: HTTP ${response.status}`);
  return response.json();
}

/** Loads one part of `lang`'s table once: the single file's inline table holds both. */
function loadPart(lang, part, base) {
  if (!loading.has(part)) {
    const inline = document.getElementById(`vramcalc-strings-${lang}`);
    const table = inline ? Promise.resolve(JSON.parse(inline.textContent))
      : requested(new URL(`i18n/${part}.json`, base).href);
    const parts = inline ? [lang, `${lang}.later`] : [part];
    const done = table.then((strings) => {
      Object.assign(tables[lang] ??= {}, strings);
      for (const name of parts) loaded.add(name);
    }, (error) => {
      for (const name of parts) loading.delete(name);  // a later call tries again
      throw error;
    });
    for (const name of parts) loading.set(name, done);
  }
  return loading.get(part);
}

/**
 * Loads `lang`'s strings once (with `first`, only what the first numbers show): inline
 * (`<script type="application/json" id="vramcalc-strings-<lang>">`), else from the site's
 * i18n/ folder under `base`.
 */
export async function loadStrings(lang, base, { first = false } = {}) {
  await Promise.all([loadPart(lang, lang, base), ...(first ? [] : [loadPart(lang, `${lang}.later`, base)])]);
}

/**
 * The translator for `lang`: its table, else a loaded one, else the keys themselves. Its `has`
 * says whether a key is in the table (applyTexts leaves the others as they are).
 */
export function makeTranslator(lang) {
  const table = tables[lang] ?? Object.values(tables)[0] ?? {};
  /** The text for key, with {name} placeholders filled from values. */
  const t = (key, values = {}) => {
    const pattern = table[key] ?? key;
    return pattern.replace(/\{(\w+)\}/g, (match, name) => (name in values ? String(values[name]) : match));
  };
  t.has = (key) => key in table;
  return t;
}

// Each language's name in itself, for the language choice (what Intl.DisplayNames answers, without
// loading its locale data before the first numbers).
const NAMES = { de: 'Deutsch', en: 'English' };

/** A language's name in itself ("Deutsch", "English"). */
export const langName = (lang) => NAMES[lang];

/** The <optgroup> label of a device: vendor and class. */
export const deviceGroup = (t, device) => t(`device_group.${device.vendor}.${device.class}`);

/** The first of `tags` (language tags) that the page speaks, else German (the reference locale). */
export function preferredLang(tags) {
  for (const tag of tags) {
    const lang = knownLang(String(tag).slice(0, 2).toLowerCase());
    if (lang) return lang;
  }
  return LANGS[0];
}

/** The browser's preferred language if we speak it, else German. */
export const browserLang = () => preferredLang(navigator.languages ?? [navigator.language]);

/**
 * Fills every [data-i18n] element inside `root` with its text; one whose key is not loaded yet
 * (a later string) keeps what it has.
 */
export function applyTexts(root, t, values = {}) {
  for (const element of root.querySelectorAll('[data-i18n]')) {
    if (element.dataset.copied || !t.has(element.dataset.i18n)) continue;  // copied: says so for a moment
    const text = t(element.dataset.i18n, values);
    if (element.textContent !== text) element.textContent = text;
  }
}
