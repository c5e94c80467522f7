// UI strings from the core's catalog (assets/i18n/<lang>.json, compiled into the module).
export const LANGS = ['de', 'en'];

/** `lang` when the page speaks it, else null. */
export const knownLang = (lang) => (LANGS.includes(lang) ? lang : null);

export function makeTranslator(strings, lang) {
  const table = strings[lang] ?? strings[LANGS[0]];
  /** The text for key, with {name} placeholders filled from values. */
  return function t(key, values = {}) {
    const pattern = table[key] ?? key;
    return pattern.replace(/\{(\w+)\}/g, (match, name) => (name in values ? String(values[name]) : match));
  };
}

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
