// Bring your own model: a config.json pasted into the page, chosen as a file or dropped on the
// text field. The core checks the text as it is (its errors name the key that fails); this
// browser keeps the last one that worked, as text, and nothing is sent anywhere.
import { byId } from './dom.js';

const STORAGE_KEY = 'vramcalc.custom-config';

/** The stored config.json text, or null. Storage may be unavailable or hold garbage. */
export function storedConfig() {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    const parsed = JSON.parse(text ?? 'null');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? text : null;
  } catch {
    return null;
  }
}

export function storeConfig(text) {
  try {
    localStorage.setItem(STORAGE_KEY, text);
  } catch {
    // Storage may be full or off: the model still works until the page closes.
  }
}

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

/** Calls `apply(text)` with what the form submits, a chosen file, or a dropped file. */
export function bindCustomConfig(root, apply) {
  const field = byId(root, 'custom-config');
  const fromFile = async (file) => {
    if (!file) return;
    field.value = await file.text();
    apply(field.value);
  };
  byId(root, 'custom-form').addEventListener('submit', (event) => {
    event.preventDefault();
    apply(field.value);
  });
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
