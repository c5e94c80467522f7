// The widget's shadow DOM: the page's parts (the same ids, which the renderers look up inside
// the shadow root) in a compact layout, with ::part() names for hosts to style.
import { MAX_CONTEXT_LOG2, MIN_CONTEXT_LOG2 } from './controls.js';

const STYLESHEET = new URL('../css/widget.css', import.meta.url).href;

function element(tag, { className = '', part = '', testid = '', id = '', i18n = '' } = {}, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (part) node.setAttribute('part', part);
  if (testid) node.dataset.testid = testid;
  if (id) node.id = id;
  if (i18n) node.dataset.i18n = i18n;
  node.append(...children);
  return node;
}

/** "Label: value" in the shares line, as on the page. */
function shareKey(name, label, hidden = false) {
  const key = element('span', { className: `key key-${name}`, id: `share-${name}-key` },
    element('span', { i18n: label }), ': ', element('span', { id: `share-${name}`, testid: `share-${name}` }));
  key.hidden = hidden;
  return key;
}

function figures() {
  const bar = element('div', { className: 'bar', part: 'bar', id: 'bar' },
    ...['weights', 'state', 'kv', 'overhead'].map((name) => element('span', { className: `bar-${name}` })));
  bar.setAttribute('role', 'img');
  return [
    element('div', { className: 'figures' },
      element('span', { className: 'total', part: 'total', testid: 'total', id: 'total' }),
      element('span', { className: 'fit', part: 'fit', testid: 'fit', id: 'fit' }),
      element('span', { className: 'decode', part: 'decode', testid: 'decode', id: 'decode' })),
    bar,
    element('p', { className: 'shares' }, shareKey('weights', 'share.weights'), shareKey('kv', 'share.kv_cache'),
      shareKey('state', 'share.state', true), shareKey('overhead', 'share.overhead')),
  ];
}

/** A table as the page has it: its header cells (i18n keys or ids) and an empty body. */
function table(id, columns) {
  const head = element('tr');
  for (const { i18n = '', id: cellId = '', num = false } of columns) {
    const th = element('th', { className: num ? 'num' : '', i18n, id: cellId });
    th.scope = 'col';
    head.append(th);
  }
  const wrap = element('div', { className: 'table-wrap', part: 'table', id: `${id}-wrap` },
    element('table', { id }, element('thead', {}, head), element('tbody')));
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
  const link = element('link');
  link.rel = 'stylesheet';
  link.href = STYLESHEET;
  const range = element('input', { part: 'slider', testid: 'context' });
  Object.assign(range, { type: 'range', min: String(MIN_CONTEXT_LOG2), max: String(MAX_CONTEXT_LOG2), step: '1' });
  const parts = {
    title: element('span', { className: 'title' }),
    more: element('a', { className: 'more' }),
    range,
    context: element('output', { className: 'context', part: 'context', testid: 'context-value', id: 'context-value' }),
    error: element('p', { className: 'error', part: 'error', testid: 'widget-error', id: 'error' }),
    fits: element('div', { className: 'fits', id: 'fits' }),  // view="fits": render/fits.js fills it
  };
  parts.fits.hidden = true;
  parts.more.target = '_top';
  parts.error.hidden = true;
  parts.error.setAttribute('role', 'status');
  const root = element('section', { className: 'root', part: 'root', id: 'root' },
    element('div', { className: 'header', part: 'header' }, parts.title, parts.more),
    element('div', { className: 'slider' }, range, parts.context),
    ...figures(), parts.fits, parts.error);
  shadowRoot.replaceChildren(link, root);
  return parts;
}
