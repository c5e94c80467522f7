// The quantization matrix: 8 formats × weights, 8K, 32K, 128K and the recommended class.
import { put } from '../dom.js';
import * as fmt from '../format.js';
import { cell, markSelected, selectButton, syncRows } from './rows.js';

const CONTEXTS = ['8192', '32768', '131072'];
const $ = (id) => document.getElementById(id);

function createRow(format) {
  const row = document.createElement('tr');
  row.dataset.format = format;
  const head = cell('th');
  head.scope = 'row';
  head.append(selectButton());
  row.append(
    head,
    cell('td', 'num'),
    cell('td', 'num', { testid: 'matrix-cell', format, context: 'weights' }),
    ...CONTEXTS.map((context) => cell('td', 'num', { testid: 'matrix-cell', format, context })),
    cell('td', '', { testid: 'matrix-recommended', format }),
  );
  return row;
}

export function renderMatrix(response, { t, lang, catalog, scenario }) {
  const sim = response.simulator;
  const kvLabel = catalog.kv_dtypes.find((k) => k.id === sim.kv_dtype)?.label ?? sim.kv_dtype;
  put($('matrix-caption'), t('matrix.caption', { batch: fmt.integer(lang, sim.batch), kv_dtype: kvLabel }));
  put($('matrix-col-8k'), t('matrix.col.total', { context: '8K' }));
  put($('matrix-col-32k'), t('matrix.col.total', { context: '32K' }));
  put($('matrix-col-128k'), t('matrix.col.total', { context: '128K' }));

  const rows = syncRows($('matrix').tBodies[0], response.matrix.map((r) => r.format), createRow);
  response.matrix.forEach((data, i) => {
    const row = rows[i];
    const [head, bpw, weights, ...rest] = row.cells;
    const button = head.firstChild;
    put(button, data.label);
    const label = t('matrix.select', { format: data.label });
    if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
    put(bpw, `${fmt.fixed(lang, data.bpw, 2)} bpw`, data.bpw);
    put(weights, fmt.gb(lang, data.weights_gib), data.weights_gib);
    CONTEXTS.forEach((context, j) => put(rest[j], fmt.gb(lang, data.total_gib[context]), data.total_gib[context]));
    const recommended = catalog.devices.find((d) => d.id === data.recommended_device);
    const count = data.recommended_device_count;
    const name = !recommended ? t('matrix.none')
      : count > 1 ? t('unit.times', { count, device: recommended.name }) : recommended.name;
    put(rest[3], name, data.recommended_device ?? '');
    markSelected(row, data.format === scenario.format);
  });
}
