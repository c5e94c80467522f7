// The scenario: what the user chose, under the short names the link, the widget's attributes
// and the CLI's flags share (the core's request field table, catalog.request_fields: "kv" for
// kv_dtype, "gpus" for device_count). The URL hash carries all of it, so a link reproduces
// the view. Every value read from a link or an attribute is checked against the catalog; a bad
// one is reported and replaced by the default, never passed on. A model from a pasted
// config.json is too large for a link: the hash says model=custom and this browser keeps it.
import { knownLang } from './i18n.js';

export const CUSTOM_MODEL = 'custom';
const MAX_COMPARE = 16;
// What the page decides itself rather than the link: which parts of a response to compute.
const PAGE_FIELDS = new Set(['sections']);

/**
 * The short names a link (and a widget) may set: the request's fields, the language, the view
 * (view=fits: what runs on the device) and, the page's alone, hf: where model=custom was
 * imported from on the Hub ("owner/name" or "owner/name/file.gguf"), which the page offers to
 * import again when this browser does not hold it.
 */
export const linkKeys = (catalog) => [
  ...catalog.request_fields.filter((f) => !PAGE_FIELDS.has(f.name)).map((f) => f.short_name), 'lang', 'view', 'hf',
];
// The same before the catalog has loaded (a custom element's observedAttributes): the tests
// check that it equals linkKeys(catalog).
export const LINK_KEYS = [
  'model', 'format', 'context', 'batch', 'kv', 'device', 'gpus', 'compare', 'runtime',
  'util', 'mnbt', 'ubatch', 'fa', 'parallel', 'ram', 'ramtype', 'rambw', 'prompt', 'output', 'usertps', 'lang', 'view', 'hf',
];
// What a widget observes: the link's keys but hf (an import from the Hub is the page's).
export const WIDGET_KEYS = /* @__PURE__ */ LINK_KEYS.filter((key) => key !== 'hf');  // dropped where unused (the page)
// Engine options, by link key: each only for the runtimes that list it (catalog.runtimes[].options).
const ENGINE_OPTIONS = { util: 'memory_utilization', mnbt: 'max_num_batched_tokens', ubatch: 'ubatch', fa: 'flash_attention', parallel: 'parallel' };
// The host's RAM, by link key: only for the runtimes that offload to it (catalog.runtimes[].offload).
export const HOST_KEYS = ['ram', 'ramtype', 'rambw'];
// The engine the fits view opens under when its link names none: what most people who ask
// "what runs here" run. The model's page keeps the reference page's (catalog.defaults.runtime).
export const FITS_RUNTIME = 'llamacpp';
/** The defaults a view's link leaves out: the fits view's engine is FITS_RUNTIME. */
const viewDefaults = (defaults, view) => (view === 'fits' ? { ...defaults, runtime: FITS_RUNTIME } : defaults);

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
    runtime: d.runtime,
    util: null,  // engine options: null is the engine's default
    mnbt: null,
    ubatch: null,
    fa: null,
    parallel: null,
    ram: null,  // the host's RAM in GB, its type and a bandwidth of one's own: null is the core's default
    ramtype: null,
    rambw: null,
    prompt: null,  // serving's prompt and answer in tokens: null is the core's default
    output: null,
    usertps: null,  // the rate each user gets at least, tok/s: null is the core's default
    lang,
    view: null,  // the model's simulator; 'fits': what runs on the device
    hf: null,  // model=custom imported from the Hub: its repo (/its GGUF file), which a link imports again on request
  };
}

/** A whole number from 1 to max written as plain digits, else null (link and widget values). */
export function wholeNumber(text, max) {
  if (!/^\d{1,12}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= max ? n : null;
}

/**
 * A positive number up to max written as plain decimal digits ("64", "89.6"), else null (link
 * and widget values, the host's number fields): no sign, exponent, NaN or Infinity.
 */
export function positiveNumber(text, max) {
  if (!/^\d{1,9}(\.\d{1,6})?$/.test(String(text).trim())) return null;
  const n = Number(text);
  return n > 0 && n <= max ? n : null;
}

/**
 * A device of one's own, as the link, the widget and the core write it: "custom:<memory GB>:
 * <bandwidth GB/s>[:<FP16 TFLOPS>[/<INT8 TOPS>]]:<cuda|rocm|vulkan|metal>[+unified][@<compute
 * capability, an Apple GPU's Metal family>]:<name>". Its figures, or null when the text is not one
 * (the core checks the same rules).
 */
export function customDevice(text) {
  const n = '(\\d+(?:\\.\\d+)?)';
  const match = new RegExp(`^custom:${n}:${n}:(?:${n}(?:/${n})?:)?(cuda|rocm|vulkan|metal)(\\+unified)?(?:@${n})?:([^\\u0000-\\u001f]{1,64})$`, 'u')
    .exec(String(text));
  if (!match) return null;
  const [memory, bandwidth, tflops, tops] = match.slice(1, 5).map(Number);
  const [platform, unified, version, name] = match.slice(5);
  // Every figure given (a peak may be left out) above 0, as the core reads them.
  const figures = match.slice(2, 5).filter((text) => text !== undefined).map(Number);
  if (!(memory > 0 && memory <= 16384 && figures.every((v) => v > 0 && v <= 100000))) return null;
  if (version !== undefined && !(version > 0 && version <= 99)) return null;
  if (new TextEncoder().encode(name).length > 64) return null;
  return { id: text, name, memory_gib: memory, bandwidth_gbps: bandwidth, fp16_tflops: tflops || 0, int8_tops: tops || 0,
    platform, unified_memory: Boolean(unified) || platform === 'metal', compute_capability: Number(version ?? 0) };
}

/** The scenario's device: a catalog entry, one's own, or null (the recommended class). */
export const deviceOf = (id, catalog) => catalog.devices.find((d) => d.id === id) ?? (id ? customDevice(id) : null);

/** One check per link key: the value it stands for, 'auto' for the default, or null. */
export function valueChecks(catalog, hasCustom = false) {
  const among = (list) => {
    const ids = new Set(list.map((item) => item.id));
    return (v) => (ids.has(v) ? v : null);
  };
  const device = among(catalog.devices);
  const { limits } = catalog;
  return {
    model: (v) => (v === CUSTOM_MODEL && hasCustom ? v : among(catalog.models)(v)),
    format: among(catalog.formats),
    kv: among(catalog.kv_dtypes),
    runtime: among(catalog.runtimes),
    device: (v) => (v === 'auto' ? 'auto' : device(v) ?? (customDevice(v) ? v : null)),
    lang: knownLang,
    context: (v) => wholeNumber(v, limits.max_context),
    batch: (v) => wholeNumber(v, limits.max_batch),
    gpus: (v) => (v === 'auto' ? 'auto' : wholeNumber(v, limits.max_device_count)),
    util: (v) => (/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/.test(v) && Number(v) > 0 ? Number(v) : null),
    mnbt: (v) => wholeNumber(v, limits.max_batched_tokens),
    ubatch: (v) => wholeNumber(v, limits.max_batched_tokens),
    fa: (v) => (v === 'true' ? true : v === 'false' ? false : null),
    parallel: (v) => wholeNumber(v, limits.max_batch),
    ram: (v) => positiveNumber(v, limits.max_host_memory),
    ramtype: among(catalog.host_memory_types),
    rambw: (v) => positiveNumber(v, limits.max_host_bandwidth),
    prompt: (v) => wholeNumber(v, limits.max_context),
    output: (v) => wholeNumber(v, limits.max_context),
    usertps: (v) => positiveNumber(v, limits.max_user_tps),
    view: (v) => (v === 'fits' ? v : null),
    hf: (v) => (/^[\w.-]+\/[\w.-]+(\/[\w./-]+\.gguf)?$/.test(v) && !v.includes('..') ? v : null),
    compare: (v) => {
      const list = v.split(',').filter(Boolean);
      return list.length <= MAX_COMPARE && list.every((id) => device(id) !== null) ? list : null;
    },
  };
}

/**
 * Reads a scenario from a hash such as "#model=glm-4-9b-0414&context=65536&lang=en"; the fits
 * view's engine is FITS_RUNTIME where the hash names none.
 * @param {boolean} hasCustom whether a pasted config.json is stored (model=custom is valid)
 * @returns {{scenario: object, problems: Array<{key: string, value: string}>}}
 */
export function scenarioFromHash(hash, catalog, fallback, hasCustom = false) {
  const scenario = { ...fallback };
  const problems = [];
  const checks = valueChecks(catalog, hasCustom);
  const keys = new Set(linkKeys(catalog));
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  for (const [key, raw] of params) {
    const value = keys.has(key) ? checks[key](raw) : null;
    if (value === null) problems.push({ key, value: raw });
    else scenario[key] = value === 'auto' ? null : value;
  }
  if (!params.has('runtime')) scenario.runtime = viewDefaults(fallback, scenario.view).runtime;
  return { scenario, problems };
}

/** The hash for a scenario; only what differs from its view's defaults, plus the language. */
export function hashFromScenario(scenario, pageDefaults, catalog) {
  const defaults = viewDefaults(pageDefaults, scenario.view);
  const params = new URLSearchParams();
  for (const key of linkKeys(catalog)) {
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

/**
 * The request the core evaluates for a scenario, under the request's own field names. The
 * pasted model of model=custom goes beside it (core.evaluate's config text), so it has none.
 */
export function requestFor(scenario, catalog) {
  const request = {};
  for (const { name, short_name: key } of catalog.request_fields) {
    const value = scenario[key];
    if (value === null || value === undefined || PAGE_FIELDS.has(name)) continue;
    if (key === 'compare' && value.length === 0) continue;
    if (key === 'model' && value === CUSTOM_MODEL) continue;
    request[name] = value;
  }
  return request;
}

/** The runtime profile of a scenario. */
export const runtimeOf = (scenario, catalog) =>
  catalog.runtimes.find((r) => r.id === scenario.runtime) ?? catalog.runtimes[0];

/** Whether a device is a CUDA card of a known compute capability below `capability`. */
export const cudaBelow = (device, capability) =>
  device.platform === 'cuda' && device.compute_capability > 0 && device.compute_capability < capability;

/**
 * Whether a runtime runs on a device, as the core decides (RuntimeProfile::RunsOn): its platform,
 * and on CUDA the compute capability the engine needs (vLLM and SGLang 7.5; not known, 0, passes).
 */
export const runsOnDevice = (runtime, device) =>
  runtime.runs_on.includes(device.platform) && !cudaBelow(device, runtime.min_compute_capability);

/** The formats a runtime offers for a model (those that quantize experts only for MoE models). */
export function formatsFor(runtime, catalog, modelId) {
  const model = catalog.models.find((m) => m.id === modelId);
  return runtime.formats.map((id) => catalog.formats.find((f) => f.id === id))
    .filter((f) => !f.moe_only || !model || model.moe);
}

/**
 * The scenario with everything its runtime cannot run replaced by that runtime's default: a
 * format or KV cache type it lacks (the model's published format where the runtime offers it, as
 * the core's DefaultFormat), a device it does not run on, several devices where it takes one, and
 * the options of other engines. Switching the engine keeps the rest.
 */
export function fitToRuntime(scenario, catalog) {
  const runtime = runtimeOf(scenario, catalog);
  const fitted = { ...scenario, runtime: runtime.id };
  const formats = formatsFor(runtime, catalog, scenario.model).map((f) => f.id);
  const published = catalog.models.find((m) => m.id === scenario.model)?.checkpoint_format;
  const preferred = [published, runtime.default_format].find((id) => formats.includes(id));
  if (!formats.includes(fitted.format)) fitted.format = preferred ?? formats[0];
  if (!runtime.kv_dtypes.includes(fitted.kv)) fitted.kv = runtime.kv_dtypes[0];
  const device = deviceOf(fitted.device, catalog);
  if (device && !runsOnDevice(runtime, device)) fitted.device = null;
  if (!runtime.multi_device) fitted.gpus = null;
  for (const [key, name] of Object.entries(ENGINE_OPTIONS)) {
    if (!runtime.options.includes(name)) fitted[key] = null;
  }
  if (!runtime.offload) HOST_KEYS.forEach((key) => { fitted[key] = null; });
  return fitted;
}
