// Any model, from the config.json panel: a Hugging Face repo id or link, or a GGUF or
// safetensors file picked or dropped. Part of the panel's chunk (custom-panel.js); the importer
// itself (import/import.js, with @huggingface/hub and @huggingface/gguf) is a chunk of its own,
// loaded on the first import. Nothing is requested before the user asks; the status line says
// which host is asked; a local file is read on the device (its header only) and never uploaded.
// What comes back is a model description (wasm/README.md), applied like a pasted config.json.
import { byId, el, put } from './dom.js';

const loadImporter = () => import('./import/import.js');

/** Whether a dropped or picked file is a model file the importer reads (else a config.json). */
export const isModelFile = (file) => /\.(gguf|safetensors)$/i.test(file.name) || file.name.endsWith('.safetensors.index.json');

/** The role lines of an import as text: "Attention 1.23 GB · routed experts 14.02 GB …". */
function summary(result, t) {
  const gb = (bytes) => `${(bytes / 2 ** 30).toFixed(2)} GB`;
  const lines = result.lines.filter((line) => line.bytes > 0).map((line) => `${t(`custom.role_${line.role}`)} ${gb(line.bytes)}`);
  const type = result.format.exact ? result.format.id : t('custom.import_as', { type: result.file_type, format: result.format.id });
  return `${t('custom.import_done', { name: result.description.name, type, total: gb(result.total_bytes) })} ${lines.join(' · ')}`;
}

/** A Hub import's repo (and its GGUF file): the link's hf value; undefined for local files. */
function hubSource({ origin, files }) {
  if (origin.kind !== 'hub') return undefined;
  const gguf = files.find((file) => file.kind === 'gguf');
  return gguf ? `${origin.repo}/${gguf.path}` : origin.repo;
}

/**
 * A link's hf value as what the form takes: "owner/name", or a link to its GGUF file.
 * @param {string} hf "owner/name" or "owner/name/path/file.gguf" (state.js checked it)
 */
export function sourceOfLink(hf) {
  const [owner, name, ...file] = hf.split('/');
  return file.length > 0 ? `https://huggingface.co/${owner}/${name}/blob/main/${file.join('/')}` : hf;
}

/**
 * Runs one import and reports it in the status line: `read` resolves to the importer's result.
 * A description is applied with `apply(text)`; an error is shown with the field it names.
 */
async function run(status, t, read, apply) {
  put(status, t('custom.import_reading'));
  try {
    const result = await read(await loadImporter());
    if (!result.ok) {
      put(status, t('custom.import_failed', { field: result.error.field, message: result.error.message }));
      return;
    }
    put(status, summary(result, t));
    // "_hf" (a note the core skips): where the Hub import came from, for the link (hf=).
    apply(JSON.stringify({ _hf: hubSource(result), ...result.description }, null, 2));
  } catch (error) {
    put(status, t('custom.import_failed', { field: 'source', message: String(error?.message ?? error) }));
  }
}

/**
 * A maker of elements that hold a text of `t` and carry its key (data-i18n), so that the page's
 * texts follow a change of language: the config.json panel's forms are built of them.
 */
export const textElements = (t) => (tag, key, attributes = {}) => el(tag, { ...attributes, 'data-i18n': key }, t(key));

/** The form above the config.json field: a repo id or link, and where the answer comes from. */
function importForm(t) {
  const text = textElements(t);
  return el('form', { id: 'import-form', class: 'custom-form', 'data-testid': 'import-form' },
    text('label', 'custom.import_label', { for: 'import-source' }),
    el('div', { class: 'custom-actions' },
      el('input', { id: 'import-source', type: 'text', placeholder: 'Qwen/Qwen3-8B', spellcheck: 'false',
        autocomplete: 'off', 'data-testid': 'import-source' }),
      text('button', 'custom.import_apply', { type: 'submit', class: 'button', 'data-testid': 'import-apply' })),
    text('p', 'custom.import_privacy', { class: 'muted' }),
    el('p', { id: 'import-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'import-status' }));
}

/**
 * Builds the import form once and binds it: a repo id or link from the Hub, and model files
 * (GGUF, safetensors and their index) chosen or dropped, which `bindConfigFiles` hands over.
 * The Hub is huggingface.co, unless the page names another (`<html data-hub-url>`: the tests'
 * offline Hub, which their copy of the page also adds to connect-src).
 * @param {{t: Function, apply: (text: string) => void, readConfig: (model: object) => object,
 *          catalog: object}} options readConfig: the core's reading of a config.json or a model
 *   description (its answer); catalog: the core's (its formats)
 * @returns {(files: File[]) => void} imports local model files
 */
export function bindImport(root, { t, apply, readConfig, catalog }) {
  const form = importForm(t);
  byId(root, 'custom-form').before(form);
  const status = byId(root, 'import-status');
  const hubUrl = document.documentElement.dataset.hubUrl || undefined;
  const options = { readConfig, catalog, hubUrl };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!navigator.onLine) {
      put(status, t('custom.import_offline'));
      return;
    }
    const text = byId(root, 'import-source').value.trim();
    run(status, t, (importer) => {
      const parsed = importer.parseSource(text, { hubUrl });
      return parsed.ok ? importer.importModel(parsed.source, options) : parsed;
    }, apply);
  });
  return (files) => run(status, t, (importer) => importer.importModel(files, options), apply);
}
