// UI strings from the core's catalog (assets/i18n/<lang>.json, compiled into the module).
export const LANGS = ['de', 'en'];

export function makeTranslator(strings, lang) {
  const table = strings[lang] ?? strings.de;
  /** The text for key, with {name} placeholders filled from values. */
  return function t(key, values = {}) {
    const pattern = table[key] ?? key;
    return pattern.replace(/\{(\w+)\}/g, (match, name) => (name in values ? String(values[name]) : match));
  };
}

/** The browser's preferred language if we speak it, else German (the reference locale). */
export function browserLang() {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return 'de';
}
