// The quantization matrix: every format × weights, the catalog's matrix contexts (8K, 32K,
// 128K) and the recommended class.
import { byId, put, putPart, setAttr } from '../dom.js';
import * as fmt from '../format.js';
import { cell, markSelected, selectButton, syncRows } from './rows.js';

const columnId = (context) => `matrix-col-${context.label.toLowerCase()}`;

function createRow(format, contexts) {
  const row = document.createElement('tr');
  row.dataset.format = format;
  const head = cell('th');
  head.scope = 'row';
  head.append(selectButton());
  row.append(
    head,
    cell('td', 'num'),
    cell('td', 'num', { testid: 'matrix-cell', format, context: 'weights' }),
    ...contexts.map(({ tokens }) => cell('td', 'num', { testid: 'matrix-cell', format, context: String(tokens) })),
    cell('td', '', { testid: 'matrix-recommended', format }),
  );
  return row;
}

/** The recommended class as shown: a device, "2× device", or none. */
function recommendedName(row, { t, catalog }) {
  const device = catalog.devices.find((d) => d.id === row.recommended_device);
  if (!device) return t('device.none_fits');
  const count = row.recommended_device_count;
  return count > 1 ? t('unit.times', { count, device: device.name }) : device.name;
}

function renderRow(row, data, view) {
  const { t, lang, scenario, catalog } = view;
  const [head, bpw, weights, ...rest] = row.cells;
  const button = head.firstChild;
  put(button, data.label);
  setAttr(button, 'aria-label', t('matrix.select', { format: data.label }));
  put(bpw, `${fmt.fixed(lang, data.bpw, 2)} bpw`, data.bpw);
  put(weights, fmt.gb(lang, data.weights_gib), data.weights_gib);
  catalog.matrix_contexts.forEach(({ tokens }, j) => {
    put(rest[j], fmt.gb(lang, data.total_gib[tokens]), data.total_gib[tokens]);
  });
  put(rest[catalog.matrix_contexts.length], recommendedName(data, view), data.recommended_device ?? '');
  markSelected(row, data.format === scenario.format);
}

export function renderMatrix(root, response, view) {
  const { t, lang, catalog } = view;
  const table = byId(root, 'matrix');
  if (!table) return;
  const sim = response.simulator;
  const kvLabel = catalog.kv_dtypes.find((k) => k.id === sim.kv_dtype)?.label ?? sim.kv_dtype;
  putPart(root, 'matrix-caption', t('matrix.caption', { batch: fmt.integer(lang, sim.batch), kv_dtype: kvLabel }));
  for (const context of catalog.matrix_contexts) {
    putPart(root, columnId(context), t('matrix.col.total', { context: context.label }));
  }
  const rows = syncRows(table.tBodies[0], response.matrix.map((r) => r.format),
    (format) => createRow(format, catalog.matrix_contexts));
  response.matrix.forEach((data, i) => renderRow(rows[i], data, view));
}

/** The matrix's header cells for the catalog's contexts (the widget builds its table). */
export const matrixColumnIds = (catalog) => catalog.matrix_contexts.map(columnId);
