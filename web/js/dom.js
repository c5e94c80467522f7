// Small DOM helpers that write only what changed, and only as text (never HTML).

/**
 * The element with `id` inside `root`: the page's document, or a widget's shadow root (whose
 * ids are its own). Renderers take the root, so the page and the widget share them.
 */
export const byId = (root, id) => root.getElementById(id);

/**
 * An element with attributes and children, never HTML from text: an attribute whose value is
 * null, undefined or false is left out, one that is true is set empty (`hidden: true`).
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children);
  return node;
}

/** put() for the element `id` of `root`, when the root has one (a widget shows a subset). */
export function putPart(root, id, text, value) {
  const element = byId(root, id);
  if (element) put(element, text, value);
  return element;
}

/** Sets an attribute when it differs. */
export function setAttr(element, name, value) {
  const text = String(value);
  if (element.getAttribute(name) !== text) element.setAttribute(name, text);
}

/**
 * Sets an element's text (and optionally data-value) when it differs. A lone text child is
 * changed in place, not replaced: on a slider move that spares layout a node per figure.
 */
export function put(element, text, value) {
  const only = element.firstChild;
  if (only !== null && only.nodeType === Node.TEXT_NODE && only.nextSibling === null) {
    if (only.data !== text) only.data = text;
  } else if (element.textContent !== text) {
    element.textContent = text;
  }
  if (value !== undefined) {
    const v = String(value);
    if (element.dataset.value !== v) element.dataset.value = v;
  }
}

const optionKeys = new WeakMap();  // select → the options it was last filled with

/**
 * Replaces a <select>'s options when they differ, keeping `selected`.
 * @param {Array<[string, string, string?]>} options [value, label, group label]; consecutive
 *   options with the same group label share an <optgroup>
 */
export function fillSelect(select, options, selected) {
  const key = JSON.stringify(options);
  if (optionKeys.get(select) !== key) {
    optionKeys.set(select, key);
    const children = [];
    let group = null;
    for (const [value, label, groupLabel] of options) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = label;
      if (!groupLabel) {
        group = null;
        children.push(option);
        continue;
      }
      if (!group || group.label !== groupLabel) {
        group = document.createElement('optgroup');
        group.label = groupLabel;
        children.push(group);
      }
      group.append(option);
    }
    select.replaceChildren(...children);
  }
  if (select.value !== selected) select.value = selected;
}

/**
 * Puts `text` on the clipboard and says "copied" on the button for a moment; where the browser
 * refuses (no permission, no user gesture, an insecure page), `refused()` offers the text to
 * copy by hand instead.
 */
export async function copyToClipboard(button, text, t, refused) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    refused();
    return;
  }
  sayCopied(button, t);
}

/** Says "copied" on a copy button for a moment, then its own label again. */
function sayCopied(button, t) {
  button.textContent = t('export.copied');
  button.dataset.copied = 'true';
  setTimeout(() => {
    button.textContent = t(button.dataset.i18n ?? 'cmd.copy');
    delete button.dataset.copied;
  }, 1500);
}
