// The UI strings (assets/i18n/<lang>.json). The wasm module carries none: each language's table
// is loaded the first time the page or a widget speaks it, from the single file's inline copy or
// from i18n/<lang>.json in the site (web/tools/site_data.mjs), and kept here.
export const LANGS = ['de', 'en'];

/** `lang` when the page speaks it, else null. */
export const knownLang = (lang) => (LANGS.includes(lang) ? lang : null);

const tables = {};      // lang → its strings, once loaded
const loading = new Map();  // lang → the promise of its table

/** Whether `lang`'s strings are loaded. */
export const hasStrings = (lang) => lang in tables;

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

/**
 * Loads `lang`'s strings once: inline (`<script type="application/json"
 * id="vramcalc-strings-<lang>">`), else i18n/<lang>.json under `base`, the site's folder.
 */
export function loadStrings(lang, base) {
  if (!loading.has(lang)) {
    const inline = document.getElementById(`vramcalc-strings-${lang}`);
    const url = new URL(`i18n/${lang}.json`, base).href;
    const table = inline ? Promise.resolve(JSON.parse(inline.textContent))
      : requested(url);
    loading.set(lang, table.then((strings) => { tables[lang] = strings; }, (error) => {
      loading.delete(lang);  // a later call tries again
      throw error;
    }));
  }
  return loading.get(lang);
}

/** The translator for `lang`: its table, else a loaded one, else the keys themselves. */
export function makeTranslator(lang) {
  const table = tables[lang] ?? Object.values(tables)[0] ?? {};
  /** The text for key, with {name} placeholders filled from values. */
  return function t(key, values = {}) {
    const pattern = table[key] ?? key;
    return pattern.replace(/\{(\w+)\}/g, (match, name) => (name in values ? String(values[name]) : match));
  };
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

/** Fills every [data-i18n] element inside `root` with its text. */
export function applyTexts(root, t, values = {}) {
  for (const element of root.querySelectorAll('[data-i18n]')) {
    if (element.dataset.copied) continue;  // a copy button that says "copied" for a moment
    const text = t(element.dataset.i18n, values);
    if (element.textContent !== text) element.textContent = text;
  }
}
