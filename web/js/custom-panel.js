// The config.json panel's code, a chunk of its own (with the importer's form, import-panel.js,
// vramcalc-full.wasm and the later strings): loaded when the panel opens, or when a config.json is applied or a
// link or a reload brings one back. It builds the panel's forms; the page keeps only the stored
// text (custom-config.js).
import { byId, el, put } from './dom.js';
import { bindImport, isModelFile, sourceOfLink, textElements } from './import-panel.js';

/** The field a failed check names: the config's own key, else "config.json". */
export function failedField(error, isJson) {
  const named = isJson || error.field.startsWith('model.');
  return named && error.field ? error.field : 'config.json';
}

/** `text` read as JSON, or undefined when it is none (the core still checks it as typed: 1e400 is not a number). */
function parsedJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The core's check of `text` as the model of `request`: the format a quantized checkpoint is
 * published in ("" for none) and the Hub source an import names (null for none), or the notice
 * ([key, values]) that names what failed.
 */
export function checkConfig(core, request, text, t) {
  const check = core.evaluate(request, text);
  const parsed = parsedJson(text);
  const json = parsed !== undefined;
  // A model description's bytes are of its file's format: the estimate uses that one. An import
  // from the Hub names its source (_hf), which the link keeps.
  if (json && check.ok) {
    return { published: parsed?.weights?.format ?? check.model.checkpoint_format, hf: parsed?._hf ?? null };
  }
  const message = json ? check.error.message : t('custom.not_json');
  return { notice: ['custom.error', { field: check.ok ? 'config.json' : failedField(check.error, json), message }] };
}

/** The config.json form: a field for the text, a file to read it from, and the submit that applies it. */
function configForm(t) {
  const text = textElements(t);
  return [text('p', 'custom.help', { class: 'muted' }),
    el('form', { id: 'custom-form', class: 'custom-form' },
      text('label', 'custom.label', { for: 'custom-config' }),
      el('textarea', { id: 'custom-config', name: 'config', 'data-testid': 'custom-config', rows: 8, spellcheck: 'false',
        autocomplete: 'off' }),
      el('div', { class: 'custom-actions' },
        el('label', {}, text('span', 'custom.file'),
          el('input', { type: 'file', id: 'custom-file', accept: '.json,application/json', 'data-testid': 'custom-file' })),
        text('button', 'custom.apply', { type: 'submit', class: 'button', 'data-testid': 'custom-apply' })))];
}

/**
 * Builds the panel's forms once (the config.json form, then the importer's above it) and calls
 * `apply(text)` with a submitted, chosen or dropped config.json, and hands model files (GGUF,
 * safetensors and their index, several at once for shards) to the importer (import-panel.js),
 * which applies the description it makes of them.
 * @param {{t: Function, readConfig: (config: object) => object}} importing for the importer
 */
export function bindConfigFiles(root, apply, importing) {
  byId(root, 'custom').append(...configForm(importing.t));
  const field = byId(root, 'custom-config');
  byId(root, 'custom-form').addEventListener('submit', (event) => {
    event.preventDefault();
    apply(field.value);
  });
  const importFiles = bindImport(root, { ...importing, apply: (text) => {
    field.value = text;
    apply(text);
  } });
  const fromFiles = async (files) => {
    const list = [...(files ?? [])];
    if (list.some(isModelFile)) return importFiles(list);
    if (list.length === 0) return undefined;
    field.value = await list[0].text();
    return apply(field.value);
  };
  const input = byId(root, 'custom-file');
  input.accept = '.json,.gguf,.safetensors,application/json';
  input.multiple = true;
  input.addEventListener('change', (event) => fromFiles(event.target.files));
  field.addEventListener('dragover', (event) => {
    event.preventDefault();
    field.classList.add('dragging');
  });
  field.addEventListener('dragleave', () => field.classList.remove('dragging'));
  field.addEventListener('drop', (event) => {
    event.preventDefault();
    field.classList.remove('dragging');
    fromFiles(event.dataTransfer?.files);
  });
}

/**
 * A link to a model imported from the Hub (hf=) that this browser does not hold: the form holds
 * its source, and the status line says what reading it asks of whom; the user starts it.
 */
export function offerImport(root, hf, t) {
  const source = sourceOfLink(hf);
  byId(root, 'import-source').value = source;
  put(byId(root, 'import-status'), t('custom.import_link', { source }));
}
