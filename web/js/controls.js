// The form: one delegated listener for every control. `input` updates the scenario (the
// page recomputes once per frame); `change` (slider release, Enter in the number field,
// a selector pick) also commits the scenario to the URL.
import { positiveNumber } from './state.js';

export const MIN_CONTEXT_LOG2 = 9;   // 512 tokens
export const MAX_CONTEXT_LOG2 = 20;  // 1,048,576 tokens

const LAST_CURVE_LOG2 = 27;  // the core's curve stops at 2^27 tokens however far a model goes

/**
 * The slider's top position for a model (the response's "model"): where the core's curve ends,
 * 1M tokens or the power of two at or above the model's max position (evaluate.cc
 * CurveContexts; tests/wasm/core.test.mjs checks both agree for every catalog model). The curve
 * itself comes after the first numbers, with vramcalc-full.wasm.
 */
export function sliderMaxLog2(model) {
  let log2 = MAX_CONTEXT_LOG2;
  while (2 ** log2 < model.max_position_embeddings && log2 < LAST_CURVE_LOG2) log2 += 1;
  return log2;
}

/** The contexts at the slider's stops for a model: every power of two from 512 to its top. */
export const sliderStops = (model) =>
  Array.from({ length: sliderMaxLog2(model) - MIN_CONTEXT_LOG2 + 1 }, (_, i) => 2 ** (MIN_CONTEXT_LOG2 + i));

/** The slider position for a context: log2, rounded to the nearest power of two. */
export const sliderPosition = (tokens, maxLog2 = MAX_CONTEXT_LOG2) =>
  Math.min(maxLog2, Math.max(MIN_CONTEXT_LOG2, Math.round(Math.log2(tokens))));

/**
 * What a number field (the context's, the host's RAM and bandwidth) sets once changed: its
 * patch, null when the value is rejected (handlers.reject names it), undefined for other controls.
 */
function numberPatch(target, handlers) {
  const text = target.value.trim();
  if (target.name === 'context-number') {
    const tokens = Number(text);
    if (/^\d+$/.test(text) && tokens >= 1 && tokens <= handlers.maxContext) return { context: tokens };
    handlers.reject('context', text);
    return null;
  }
  if (target.name !== 'ram' && target.name !== 'rambw') return undefined;
  // A number input reads "NaN" or "1e" as empty (badInput): nothing to echo.
  const value = positiveNumber(target.validity?.badInput ? '' : text, handlers.maxNumbers[target.name]);
  if (value !== null) return { [target.name]: value };
  handlers.reject(target.name, target.validity?.badInput ? '' : text);
  return null;
}

/**
 * @param {HTMLFormElement} form
 * @param {{update: (patch: object) => void, commit: () => void,
 *          reject: (key: string, value: string) => void, maxContext: number,
 *          maxNumbers: {ram: number, rambw: number}}} handlers maxNumbers: the host's number fields'
 *   largest values (they apply on change, as the context's field does)
 */
export function bindControls(form, handlers) {
  const patchFor = (target) => {
    switch (target.name) {
      case 'context-range':
        return { context: 2 ** Number(target.value) };
      case 'model':
      case 'format':
      case 'kv':
      case 'runtime':
      case 'lang':
      case 'ramtype':
        return { [target.name]: target.value };
      case 'device':
        return { device: target.value === 'auto' ? null : target.value };
      case 'batch':
        return { batch: Number(target.value) };
      case 'gpus':
        return { gpus: target.value === 'auto' ? null : Number(target.value) };
      case 'util':
      case 'mnbt':
      case 'ubatch':
      case 'parallel':
        return { [target.name]: target.value === 'auto' ? null : Number(target.value) };
      case 'fa':
        return { fa: target.value === 'auto' ? null : target.value === 'true' };
      default:
        return null;
    }
  };

  form.addEventListener('input', (event) => {
    const patch = patchFor(event.target);
    if (patch) handlers.update(patch);
  });

  form.addEventListener('change', (event) => {
    const patch = numberPatch(event.target, handlers);
    if (patch === null) return;  // rejected: a notice says why
    if (patch) handlers.update(patch);
    handlers.commit();
  });

  form.addEventListener('submit', (event) => event.preventDefault());
}
