// The widget's shadow DOM: the page's parts (the same ids, which the renderers look up inside
// the shadow root) in a compact layout, with ::part() names for hosts to style.
import { MAX_CONTEXT_LOG2, MIN_CONTEXT_LOG2 } from './controls.js';
import { el } from './dom.js';
import { headerRow } from './render/below-fold.js';

const STYLESHEET = new URL('../css/widget.css', import.meta.url).href;

/** "Label: value" in the shares line, as on the page. */
function shareKey(name, label, hidden = false) {
  const key = el('span', { class: `key key-${name}`, id: `share-${name}-key` },
    el('span', { 'data-i18n': label }), ': ', el('span', { id: `share-${name}`, 'data-testid': `share-${name}` }));
  key.hidden = hidden;
  return key;
}

function figures() {
  const bar = el('div', { class: 'bar', part: 'bar', id: 'bar' },
    ...['weights', 'vision', 'state', 'kv', 'overhead'].map((name) => el('span', { class: `bar-${name}` })));
  bar.setAttribute('role', 'img');
  return [
    el('div', { class: 'figures' },
      el('span', { class: 'total', part: 'total', 'data-testid': 'total', id: 'total' }),
      el('span', { class: 'fit', part: 'fit', 'data-testid': 'fit', id: 'fit' }),
      el('span', { class: 'decode', part: 'decode', 'data-testid': 'decode', id: 'decode' })),
    bar,
    el('p', { class: 'shares' }, shareKey('weights', 'share.weights'), shareKey('vision', 'share.vision', true),
      shareKey('kv', 'share.kv_cache'),
      shareKey('state', 'share.state', true), shareKey('overhead', 'share.overhead')),
  ];
}

/** A table as the page has it: its header row (render/below-fold.js) and an empty body. */
function table(id, columns) {
  const wrap = el('div', { class: 'table-wrap', part: 'table', id: `${id}-wrap` },
    el('table', { id }, el('thead', {}, headerRow(columns)), el('tbody')));
  wrap.hidden = true;
  return wrap;
}

/** The matrix and hardware tables, once the catalog names the matrix's contexts. */
export function buildTables(shadowRoot, catalog) {
  const matrix = table('matrix', [
    { i18n: 'matrix.col.format' }, { i18n: 'matrix.col.bpw', num: true }, { i18n: 'matrix.col.weights', num: true },
    ...catalog.matrix_contexts.map(({ label }) => ({ id: `matrix-col-${label.toLowerCase()}`, num: true })),
    { i18n: 'matrix.col.recommended' },
  ]);
  const hardware = table('hardware', [
    { i18n: 'hw.col.device' }, { i18n: 'hw.col.memory' }, { id: 'hw-col-needed', num: true },
    { i18n: 'hw.col.fit' }, { i18n: 'hw.col.decode', num: true },
  ]);
  shadowRoot.getElementById('error').before(matrix, hardware);
}

/** Builds the shadow DOM; returns the parts the element writes itself. */
export function buildWidget(shadowRoot) {
  const link = el('link');
  link.rel = 'stylesheet';
  link.href = STYLESHEET;
  const range = el('input', { part: 'slider', 'data-testid': 'context' });
  Object.assign(range, { type: 'range', min: String(MIN_CONTEXT_LOG2), max: String(MAX_CONTEXT_LOG2), step: '1' });
  const parts = {
    title: el('span', { class: 'title' }),
    more: el('a', { class: 'more' }),
    range,
    context: el('output', { class: 'context', part: 'context', 'data-testid': 'context-value', id: 'context-value' }),
    error: el('p', { class: 'error', part: 'error', 'data-testid': 'widget-error', id: 'error' }),
    fits: el('div', { class: 'fits', id: 'fits' }),  // view="fits": render/fits.js fills it
  };
  parts.fits.hidden = true;
  parts.more.target = '_top';
  parts.error.hidden = true;
  parts.error.setAttribute('role', 'status');
  const root = el('section', { class: 'root', part: 'root', id: 'root' },
    el('div', { class: 'header', part: 'header' }, parts.title, parts.more),
    el('div', { class: 'slider' }, range, parts.context),
    ...figures(), parts.fits, parts.error);
  shadowRoot.replaceChildren(link, root);
  return parts;
}
