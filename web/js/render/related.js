// Related models: similar size, at the same settings on the same device.
import { byId, put, putPart, setAttr } from '../dom.js';
import * as fmt from '../format.js';
import { cell, selectButton, syncRows } from './rows.js';

function createRow(model) {
  const row = document.createElement('tr');
  row.dataset.model = model;
  row.dataset.testid = 'related-row';
  const head = cell('th');
  head.scope = 'row';
  head.append(selectButton());
  row.append(head, cell('td', 'num'), cell('td', 'num', { testid: 'related-total' }), cell('td'));
  return row;
}

function ratingText(t, lang, rating, data) {
  if (rating === 'beyond') return t('related.beyond', { tokens: fmt.integer(lang, data.max_position) });
  if (rating === 'offload') return t('related.offload', { tps: fmt.fixed(lang, data.offload_decode_tps, 1) });
  return t(`fit.${rating}`);
}

export function renderRelated(root, response, { t, lang, catalog }) {
  const table = byId(root, 'related');
  if (!table) return;
  const sim = response.simulator;
  putPart(root, 'related-col-total', t('related.col.total', {
    format: fmt.quantLabel(catalog, sim.format), context: fmt.contextLabel(sim.context),
  }));
  putPart(root, 'related-col-fit', t('related.col.fit', { device: sim.device_name }));
  const rows = syncRows(table.tBodies[0], response.related.map((r) => r.id), createRow);
  response.related.forEach((data, i) => {
    const [head, params, total, fit] = rows[i].cells;
    put(head.firstChild, data.name);
    setAttr(head.firstChild, 'aria-label', t('related.select', { model: data.name }));
    put(params, fmt.params(lang, data.params_total), data.params_total);
    put(total, fmt.gb(lang, data.total_gib), data.total_gib);
    // A context the model does not reach is said so, never rated as fitting; what does not fit
    // but runs with a part in the host's RAM says so, with that plan's rate.
    const rating = data.beyond_max_position ? 'beyond' : data.offload_decode_tps > 0 ? 'offload' : data.fit;
    put(fit, ratingText(t, lang, rating, data), rating);
    if (fit.className !== `fit-${rating}`) fit.className = `fit-${rating}`;
  });
}
