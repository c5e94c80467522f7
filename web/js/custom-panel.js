// The config.json panel's code, a chunk of its own (with the importer's module, vramcalc-full.wasm,
// and the later strings): loaded when the panel opens, or when a config.json is applied or a
// link or a reload brings one back. The page keeps only the stored text (custom-config.js) and
// the form's submit.
import { byId } from './dom.js';

/** The field a failed check names: the config's own key, else "config.json". */
export function failedField(error, isJson) {
  const named = isJson || error.field.startsWith('model.');
  return named && error.field ? error.field : 'config.json';
}

/** Whether `text` is JSON at all (the core still checks it as typed: 1e400 is not a number). */
export function isJson(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The core's check of `text` as the model of `request`: the format a quantized checkpoint is
 * published in ("" for none), or the notice ([key, values]) that names what failed.
 */
export function checkConfig(core, request, text, t) {
  const check = core.evaluate(request, text);
  const json = isJson(text);
  if (json && check.ok) return { published: check.model.checkpoint_format };
  const message = json ? check.error.message : t('custom.not_json');
  return { notice: ['custom.error', { field: check.ok ? 'config.json' : failedField(check.error, json), message }] };
}

/** Calls `apply(text)` with a chosen file or a dropped one (the form's submit is the page's). */
export function bindConfigFiles(root, apply) {
  const field = byId(root, 'custom-config');
  const fromFile = async (file) => {
    if (!file) return;
    field.value = await file.text();
    apply(field.value);
  };
  byId(root, 'custom-file').addEventListener('change', (event) => fromFile(event.target.files?.[0]));
  field.addEventListener('dragover', (event) => {
    event.preventDefault();
    field.classList.add('dragging');
  });
  field.addEventListener('dragleave', () => field.classList.remove('dragging'));
  field.addEventListener('drop', (event) => {
    event.preventDefault();
    field.classList.remove('dragging');
    fromFile(event.dataTransfer?.files?.[0]);
  });
}
