// Keyed table rows: rows are created when the set of keys changes and reused otherwise, so a
// frame only rewrites the cells whose text changed.
import { byId } from '../dom.js';

/**
 * @param {HTMLTableSectionElement} tbody
 * @param {string[]} keys one per row, in order
 * @param {(key: string) => HTMLTableRowElement} createRow builds an empty row for a key
 * @returns {HTMLTableRowElement[]} the rows, in the order of `keys`
 */
export function syncRows(tbody, keys, createRow) {
  const current = [...tbody.rows];
  const same = current.length === keys.length && current.every((row, i) => row.dataset.key === keys[i]);
  if (same) return current;
  const byKey = new Map(current.map((row) => [row.dataset.key, row]));
  const rows = keys.map((key) => {
    const row = byKey.get(key) ?? createRow(key);
    row.dataset.key = key;
    return row;
  });
  tbody.replaceChildren(...rows);
  return rows;
}

/** A cell element with optional class and data attributes. */
export function cell(tag, className = '', data = {}) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  Object.assign(element.dataset, data);
  return element;
}

/** A row-select button in the first cell (keyboard access to the row's click action). */
export function selectButton() {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'row-select';
  return button;
}

/** Marks the chosen row. */
export function markSelected(row, selected) {
  row.classList.toggle('selected', selected);
  const button = row.querySelector('.row-select');
  const pressed = String(selected);
  if (button && button.getAttribute('aria-pressed') !== pressed) button.setAttribute('aria-pressed', pressed);
}

/**
 * A click anywhere in a row of table `tableId` (or Enter on its button) chooses that row's
 * `attribute`: the page's update(patchFor(value)), then commit().
 * @param {{update: (patch: object) => void, commit: () => void}} page
 */
export function bindRowChoice(root, tableId, attribute, patchFor, page) {
  byId(root, tableId).addEventListener('click', (event) => {
    const row = event.target.closest(`tr[data-${attribute}]`);
    if (!row || event.target.closest('a')) return;
    page.update(patchFor(row.dataset[attribute]));
    page.commit();
  });
}
