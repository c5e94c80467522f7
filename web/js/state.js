// The scenario: what the user chose. The URL hash carries all of it, so a link reproduces
// the view. Every value read from the hash is checked against the catalog; a bad one is
// reported and replaced by the default, never passed on. A model from a pasted config.json
// is too large for a link: the hash says model=custom and this browser keeps the config.

export const HASH_KEYS = ['model', 'format', 'context', 'batch', 'kv', 'device', 'gpus', 'compare', 'lang'];
export const CUSTOM_MODEL = 'custom';
const MAX_COMPARE = 16;

/** The reference page's scenario. `device: null` means the format's recommended class. */
export function defaultScenario(catalog, lang) {
  const d = catalog.defaults;
  return {
    model: d.model,
    format: d.format,
    context: d.context,
    batch: d.batch,
    kv: d.kv_dtype,
    device: null,
    gpus: null,  // the recommended group (one device when one fits)
    compare: [],
    lang,
  };
}

/** A whole number from 1 to max written as plain digits, else null (link and widget values). */
export function wholeNumber(text, max) {
  if (!/^\d{1,12}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= max ? n : null;
}

/**
 * Reads a scenario from a hash such as "#model=glm-4-9b-0414&context=65536&lang=en".
 * @param {boolean} hasCustom whether a pasted config.json is stored (model=custom is valid)
 * @returns {{scenario: object, problems: Array<{key: string, value: string}>}}
 */
export function scenarioFromHash(hash, catalog, fallback, hasCustom = false) {
  const scenario = { ...fallback };
  const problems = [];
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const ids = (list) => new Set(list.map((item) => item.id));
  const devices = ids(catalog.devices);
  const checks = {
    model: (v) => (ids(catalog.models).has(v) || (v === CUSTOM_MODEL && hasCustom) ? v : null),
    format: (v) => (ids(catalog.formats).has(v) ? v : null),
    kv: (v) => (ids(catalog.kv_dtypes).has(v) ? v : null),
    device: (v) => (v === 'auto' ? 'auto' : devices.has(v) ? v : null),
    lang: (v) => (v === 'de' || v === 'en' ? v : null),
    context: (v) => wholeNumber(v, catalog.limits.max_context),
    batch: (v) => wholeNumber(v, catalog.limits.max_batch),
    gpus: (v) => (v === 'auto' ? 'auto' : wholeNumber(v, catalog.limits.max_device_count)),
    compare: (v) => {
      const list = v.split(',').filter(Boolean);
      return list.length <= MAX_COMPARE && list.every((id) => devices.has(id)) ? list : null;
    },
  };
  for (const [key, raw] of params) {
    if (!(key in checks)) {
      problems.push({ key, value: raw });
      continue;
    }
    const value = checks[key](raw);
    if (value === null) problems.push({ key, value: raw });
    else scenario[key] = value === 'auto' ? null : value;
  }
  return { scenario, problems };
}

/** The hash for a scenario; only what differs from the defaults, plus the language. */
export function hashFromScenario(scenario, defaults) {
  const params = new URLSearchParams();
  for (const key of HASH_KEYS) {
    const value = scenario[key];
    if (value === null || value === undefined) continue;
    if (key === 'compare') {
      if (value.length > 0) params.set(key, value.join(','));
      continue;
    }
    if (key !== 'lang' && value === defaults[key]) continue;
    params.set(key, String(value));
  }
  return `#${params.toString()}`;
}

/** The request the core evaluates for a scenario; `custom` is the pasted config.json object. */
export function requestFor(scenario, custom = null) {
  const request = {
    model: scenario.model === CUSTOM_MODEL && custom ? custom : scenario.model,
    format: scenario.format,
    context: scenario.context,
    batch: scenario.batch,
    kv_dtype: scenario.kv,
    lang: scenario.lang,
  };
  if (scenario.device) request.device = scenario.device;
  if (scenario.gpus) request.device_count = scenario.gpus;
  if (scenario.compare.length > 0) request.compare = scenario.compare;
  return request;
}
