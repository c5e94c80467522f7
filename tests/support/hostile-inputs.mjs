// The hostile-input table (issue 6): one list of bad values for every field, driven through
// all four entry points by
//   tests/wasm/hostile.test.mjs       the native CLI (`vramcalc evaluate -`, `--config FILE`,
//                                      `page --flag`) and the wasm module's evaluate(), as text
//                                      and as the page sends it
//   tests/web/hostile.test.mjs        the page: the URL hash and the form fields (context number,
//                                      the config.json paste area; the selects)
//
// The rule for every case: the answer is an error that names the field (the request key, the
// link key, the config.json key as "model.<key>", or on the page the field's label), nothing
// crashes, the module and the page keep working, and nothing shows NaN, undefined, Infinity or
// [object. Every field rejects every value of VALUES; what a polished tool accepts instead
// is in EXTRA_CASES with the reason.
//
// Decisions recorded here:
// - Unknown keys: an unknown *request* key is rejected and named (a typo such as "contxt" must
//   not silently give the default's numbers); an unknown *link* key is reported and named and
//   the rest of the link applies (old or hand-edited links still open); an unknown
//   *config.json* key is accepted and ignored (real config.json files carry dozens of fields
//   the estimate does not need).
// - A whole-number double is a whole number: {"context": 32768.0} and 1e3 are accepted in a
//   request; a link takes plain digits only ("1e3" is reported), as people type them.
// - Raw text a request cannot hold as a JSON value (NaN, Infinity, invalid UTF-8, 10,000
//   nested arrays) is named by the field whose value it interrupts. The page builds its request
//   with JSON.stringify, which turns NaN and Infinity into null; that path names the field too.

/**
 * Every hostile value: `json` as it stands in request text, `hash` as it stands in a link,
 * `js` as a JavaScript value (what the page's JSON.stringify sends; default JSON.parse(json)).
 */
export const VALUES = [
  { id: 'negative', json: '-1', hash: '-1' },
  { id: 'zero', json: '0', hash: '0' },
  { id: 'fractional', json: '1.5', hash: '1.5' },
  { id: 'huge 1e308', json: '1e308', hash: '1e308' },
  { id: 'beyond a double 1e400', json: '1e400', hash: '1e400', js: Infinity },
  { id: 'NaN', json: 'NaN', hash: 'NaN', js: NaN },
  { id: 'Infinity', json: 'Infinity', hash: 'Infinity', js: Infinity },
  { id: '-Infinity', json: '-Infinity', hash: '-Infinity', js: -Infinity },
  { id: 'undefined', json: 'undefined', hash: 'undefined', js: 'undefined' },
  { id: 'string for a number', json: '"32768"', hash: '32k' },
  { id: 'array', json: '[32768]', hash: '[32768]' },
  { id: 'object', json: '{"value":32768}', hash: '[object Object]' },
  { id: '10,000 nested arrays', json: '['.repeat(10_000) + ']'.repeat(10_000),
    hash: '['.repeat(10_000) + ']'.repeat(10_000) },
  { id: '1 MB string', json: `"${'x'.repeat(1_000_000)}"`, hash: 'x'.repeat(1_000_000) },
  // Bytes no UTF-8 text has: a lone 0xFF, and an encoded surrogate (ED A0 80).
  // In JavaScript the nearest thing is an unpaired surrogate, which no UTF-8 can carry.
  { id: 'invalid UTF-8', json: Buffer.from([0x22, 0x78, 0xff, 0xed, 0xa0, 0x80, 0x22]), hash: 'x%FF%ED%A0%80',
    js: 'x\uDC00\uD800' },
];

/**
 * The fields. `request`: the request key; `hash`: the link key; `flag`: the `vramcalc page`
 * option; `config`: a config.json key (given as the request's model object, as --config FILE
 * and pasted into the page); `label`: the page's label (i18n key) of the field's form control.
 */
export const FIELDS = [
  { id: 'context', request: 'context', hash: 'context', flag: '--context', label: 'sim.context_label' },
  { id: 'batch', request: 'batch', hash: 'batch', flag: '--batch', label: 'sim.batch_label' },
  { id: 'device_count', request: 'device_count', hash: 'gpus', flag: '--gpus', label: 'sim.gpus_label' },
  { id: 'model', request: 'model', hash: 'model', flag: '--model', label: 'sim.model_label' },
  { id: 'format', request: 'format', hash: 'format', flag: '--format', label: 'sim.format_label' },
  { id: 'kv_dtype', request: 'kv_dtype', hash: 'kv', flag: '--kv', label: 'sim.kv_label' },
  // "device": null is "no device chosen" (the format's recommended one), so the JavaScript
  // values JSON.stringify writes as null (NaN, ±Infinity) are accepted there.
  { id: 'device', request: 'device', hash: 'device', flag: '--device', label: 'sim.device_label', nullable: true },
  // The language is the page's and the Markdown page's, not the core's: no request field.
  { id: 'lang', hash: 'lang', flag: '--lang', label: 'sim.lang_label' },
  { id: 'runtime', request: 'runtime', hash: 'runtime', flag: '--runtime' },
  { id: 'compare', request: 'compare', hash: 'compare' },
  // Engine options (an option of another runtime is an error naming it too).
  { id: 'memory_utilization', request: 'memory_utilization', hash: 'util', flag: '--util' },
  { id: 'max_num_batched_tokens', request: 'max_num_batched_tokens', hash: 'mnbt', flag: '--mnbt' },
  { id: 'ubatch', request: 'ubatch', hash: 'ubatch', flag: '--ubatch' },
  { id: 'flash_attention', request: 'flash_attention', hash: 'fa', flag: '--fa' },
  { id: 'parallel', request: 'parallel', hash: 'parallel', flag: '--parallel' },
  { id: 'model_type', config: 'model_type' },
  { id: 'num_hidden_layers', config: 'num_hidden_layers' },
  { id: 'hidden_size', config: 'hidden_size' },
  { id: 'num_attention_heads', config: 'num_attention_heads' },
  // Optional config.json keys: null is "not set" (transformers writes null for unset keys), so
  // the values JSON.stringify writes as null are accepted there (the defaults apply).
  { id: 'num_key_value_heads', config: 'num_key_value_heads', nullable: true },
  { id: 'head_dim', config: 'head_dim', nullable: true },
  { id: 'vocab_size', config: 'vocab_size' },
  { id: 'max_position_embeddings', config: 'max_position_embeddings' },
  { id: 'intermediate_size', config: 'intermediate_size' },
];

/** Cases beyond FIELDS × VALUES: unknown keys, and values a polished tool takes. */
export const EXTRA_CASES = [
  { id: 'unknown request key', request: '{"model":"glm-4-32b-0414","contxt":65536}', field: 'contxt' },
  { id: 'unknown request key of 1 MB', request: `{"model":"glm-4-32b-0414","${'k'.repeat(1_000_000)}":1}`,
    field: 'k'.repeat(64) },
  { id: 'unknown link key', hash: 'contxt=65536', field: 'contxt' },
  { id: 'unknown config.json key', configExtra: { my_own_flag: [1, { deep: true }] }, accepted: true,
    why: 'real config.json files carry many fields the estimate does not use' },
  { id: 'whole-number double', request: '{"model":"glm-4-32b-0414","context":32768.0}', accepted: true,
    why: '32768.0 is a whole number' },
  { id: 'exponent of a whole number', request: '{"model":"glm-4-32b-0414","context":1e3}', accepted: true,
    why: '1e3 is 1000' },
  { id: 'the whole request as 10,000 nested arrays', request: '['.repeat(10_000) + ']'.repeat(10_000), field: '' },
  { id: 'the whole request over 1 MiB', request: `{"model":"${'x'.repeat(1_100_000)}"}`, field: '',
    why: 'refused before reading; the message says the request is larger than 1 MiB' },
];

/** A small, valid config.json (Llama 3.1 8B's shapes) that each config case spoils in one key. */
export const BASE_CONFIG = {
  model_type: 'llama',
  _name_or_path: 'hostile/test-model',
  hidden_size: 4096,
  intermediate_size: 14336,
  max_position_embeddings: 131072,
  num_attention_heads: 32,
  num_hidden_layers: 32,
  num_key_value_heads: 8,
  head_dim: 128,
  vocab_size: 128256,
};

/** FIELDS × VALUES, every one rejected with its field named: {name, field, value}. */
export const CASES = FIELDS.flatMap((field) => VALUES.map((value) => ({ name: `${field.id} = ${value.id}`, field, value })));

const asBuffer = (part) => (Buffer.isBuffer(part) ? part : Buffer.from(part, 'utf8'));

/** The request text (a Buffer: some values are not UTF-8) that puts `value` into `field`. */
export function requestBytes(field, value) {
  if (field.request === 'model') return Buffer.concat([asBuffer('{"model":'), asBuffer(value.json), asBuffer('}')]);
  if (field.request) {
    return Buffer.concat([asBuffer(`{"model":"glm-4-32b-0414","${field.request}":`), asBuffer(value.json), asBuffer('}')]);
  }
  return Buffer.concat([asBuffer('{"model":'), configBytes(field, value), asBuffer('}')]);
}

/** A config.json text (a Buffer) with `value` in the config key `field.config`. */
export function configBytes(field, value) {
  const base = JSON.stringify({ ...BASE_CONFIG, [field.config]: 0 });
  const [before, after] = base.split(`"${field.config}":0`);
  return Buffer.concat([asBuffer(`${before}"${field.config}":`), asBuffer(value.json), asBuffer(after)]);
}

/**
 * The error.field a request error must carry for a case. A model that is an object is a
 * config.json, and a device that is an object one's own device, so their errors may name a key
 * inside them ("model.model_type", "device.memory_gib").
 */
export const expectedField = (field) => (field.config ? `model.${field.config}` : field.request);
export const fieldMatches = (field, actual) => actual === expectedField(field) ||
  ((field.request === 'model' || field.request === 'device') && actual.startsWith(`${field.request}.`));

/**
 * Whether a text shows a forbidden word, ignoring one echo of what the user typed (the page
 * quotes a bad link value or a typed context back: "context=NaN" is the user's, not the page's).
 * @returns {string|null} the word found, or null
 */
export function forbiddenWordIn(text, echoes = []) {
  let rest = text;
  for (const echo of echoes) {
    if (echo && rest.includes(echo)) rest = rest.replace(echo, '');
  }
  return ['NaN', 'undefined', 'Infinity', '[object'].find((word) => rest.includes(word)) ?? null;
}
