// Related models: similar size, at the same settings on the same device.
import { put } from '../dom.js';
import * as fmt from '../format.js';
import { cell, selectButton, syncRows } from './rows.js';

const $ = (id) => document.getElementById(id);

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

export function renderRelated(response, { t, lang }) {
  const sim = response.simulator;
  const format = response.matrix.find((r) => r.format === sim.format);
  put($('related-col-total'), t('related.col.total', {
    format: format?.label ?? sim.format, context: fmt.contextLabel(sim.context),
  }));
  put($('related-col-fit'), t('related.col.fit', { device: sim.device_name }));
  const rows = syncRows($('related').tBodies[0], response.related.map((r) => r.id), createRow);
  response.related.forEach((data, i) => {
    const [head, params, total, fit] = rows[i].cells;
    put(head.firstChild, data.name);
    const label = t('related.select', { model: data.name });
    if (head.firstChild.getAttribute('aria-label') !== label) head.firstChild.setAttribute('aria-label', label);
    put(params, fmt.params(lang, data.params_total), data.params_total);
    put(total, fmt.gb(lang, data.total_gib), data.total_gib);
    put(fit, data.fit_label, data.fit);
    fit.className = `fit-${data.fit}`;
  });
}
