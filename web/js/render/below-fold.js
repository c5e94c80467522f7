// The sections below the fold: index.html holds their empty shells (data-below-fold), shown once
// the first numbers are painted; their headings, tables and buttons are built here, with the code
// that draws them (later.js), so that none of their markup is a byte of the page's first load.
import { byId, el } from '../dom.js';

/** A table's header row: a cell per column, its text an i18n key or the id a renderer fills (the widget's too). */
export function headerRow(columns) {
  const head = el('tr');
  for (const { i18n = null, id = null, num = false } of columns) {
    head.append(el('th', { scope: 'col', class: num && 'num', id, 'data-i18n': i18n }));
  }
  return head;
}

/** A data table: its caption, header row and an empty body, in a card. */
function dataTable(id, caption, columns) {
  const table = el('table', { class: 'data', id, 'data-testid': id });
  if (caption) table.append(caption);
  table.append(el('thead', {}, headerRow(columns)), el('tbody'));
  return el('div', { class: 'table-wrap card' }, table);
}

/** Copy as Markdown and download as CSV (table-export.js, bound on the page). */
function exports(table) {
  const button = (as, testId, i18n) => el('button', {
    type: 'button', class: 'copy', 'data-export': table, 'data-as': as, 'data-testid': `${table}-${testId}`, 'data-i18n': i18n,
  });
  return el('div', { class: 'table-actions' }, button('md', 'copy-md', 'export.copy_md'), button('csv', 'csv', 'export.csv'));
}

const heading = (id, i18n) => el('h2', { id, 'data-i18n': i18n });

/** Fills the shells once: the quantization matrix, the hardware table, the card, the commands, the related models. */
export function buildBelowFold(root) {
  const matrix = byId(root, 'matrix-section');
  if (matrix.childElementCount > 0) return;
  matrix.append(heading('matrix-heading', 'matrix.heading'), dataTable('matrix', el('caption', { id: 'matrix-caption' }), [
    { i18n: 'matrix.col.format' }, { i18n: 'matrix.col.bpw', num: true }, { i18n: 'matrix.col.weights', num: true },
    { id: 'matrix-col-8k', num: true }, { id: 'matrix-col-32k', num: true }, { id: 'matrix-col-128k', num: true },
    { i18n: 'matrix.col.recommended' },
  ]), exports('matrix'));
  byId(root, 'hw-section').append(heading('hw-heading'), dataTable('hardware', el('caption', { 'data-i18n': 'hw.caption' }), [
    { i18n: 'hw.col.device' }, { i18n: 'hw.col.memory' }, { id: 'hw-col-needed', num: true }, { i18n: 'hw.col.fit' },
    { i18n: 'hw.col.decode', num: true },
  ]), exports('hardware'), el('p', { class: 'hw-add' },
    el('label', { for: 'hw-add', 'data-i18n': 'hw.add' }), el('select', { id: 'hw-add', 'data-testid': 'hw-add' })));
  byId(root, 'arch-section').append(heading('arch-heading', 'arch.heading'),
    el('dl', { class: 'card arch', id: 'arch', 'data-testid': 'arch' }),
    el('p', { 'data-i18n': 'explain.bpw' }), el('p', { 'data-i18n': 'explain.kv' }));
  byId(root, 'cmd-section').append(heading('cmd-heading'), el('div', { class: 'commands', id: 'commands', 'data-testid': 'commands' }));
  byId(root, 'related-section').append(heading('related-heading', 'related.heading'), dataTable('related', null, [
    { i18n: 'related.col.model' }, { i18n: 'related.col.params', num: true }, { id: 'related-col-total', num: true },
    { id: 'related-col-fit' },
  ]));
}
