// The reference page and its table, for the Node tests: tests/golden/reference-page.txt (the
// page, GLM-4-32B-0414 at Q4_K_M, 32K, RTX 3090, German) and tests/golden/reference-page.json
// (every figure and label of it, as the page writes them). tests/wasm/reference-table.test.mjs
// checks the table against the page; tests/wasm/core.test.mjs and tests/web/support/reference.mjs
// take their expected reference values from the table.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the page and its table are, relative to the repository (for messages). */
export const REFERENCE_PAGE_FILE = 'tests/golden/reference-page.txt';
export const REFERENCE_TABLE_FILE = 'tests/golden/reference-page.json';

/** The page's text, byte for byte. */
export const referencePageText = readFileSync(path.join(repoRoot, REFERENCE_PAGE_FILE), 'utf8');

/** The table (reference-page.json), parsed. */
export const referenceTable = JSON.parse(readFileSync(path.join(repoRoot, REFERENCE_TABLE_FILE), 'utf8'));

/** Keys whose values are not text of the page: notes ("_…") and the core's ids ("id", "…_id"). */
export const isNoteKey = (key) => key.startsWith('_');
export const isIdKey = (key) => key === 'id' || key.endsWith('_id');

/** A table row's cells: its values other than notes and ids, in order (the page's columns). */
export const cellsOf = (row) => Object.entries(row)
  .filter(([key]) => !isNoteKey(key) && !isIdKey(key)).map(([, value]) => value);

/** A whole number the way the page writes it, with English thousands commas: 61544 → "61,544". */
export const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * The number of a figure, as written, after checking the figure's form: shownNumber("21.78 GB",
 * "GB") → "21.78", shownNumber("27.3 tok/s", "tok/s") → "27.3", shownNumber("95.8 %", "%") →
 * "95.8", shownNumber("83%", "%") → "83". Throws when the text is not "<number>[ ]<unit>".
 */
export function shownNumber(text, unit) {
  const escaped = unit.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`^(\\d[\\d,]*(?:\\.\\d+)?) ?${escaped}$`).exec(text);
  if (!match) throw new Error(`${JSON.stringify(text)} is not a number in ${unit}`);
  return match[1];
}
