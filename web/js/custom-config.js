// Bring your own model: a config.json pasted into the page, chosen as a file or dropped on the
// text field (the panel's code: custom-panel.js). The core checks the text as it is (its errors
// name the key that fails); this browser keeps the last one that worked, as text, and nothing is
// sent anywhere.

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

/**
 * The Hub source a stored model description was imported from (its "_hf", the link's hf value:
 * "owner/name" or "owner/name/file.gguf"), else null.
 */
export function importedFrom(text) {
  try {
    return JSON.parse(text)?._hf ?? null;
  } catch {
    return null;
  }
}
