// The hardware table for the selected format and context.
import { fillSelect, put } from '../dom.js';
import * as fmt from '../format.js';
import { cell, markSelected, selectButton, syncRows } from './rows.js';

const $ = (id) => document.getElementById(id);

function createRow(device) {
  const row = document.createElement('tr');
  row.dataset.device = device;
  row.dataset.testid = 'hw-row';
  const head = cell('th');
  head.scope = 'row';
  head.append(selectButton());
  row.append(
    head,
    cell('td', '', { testid: 'hw-memory' }),
    cell('td', 'num', { testid: 'hw-needed' }),
    cell('td', '', { testid: 'hw-fit' }),
    cell('td', 'num', { testid: 'hw-decode' }),
  );
  // The usage percentage sits inside the "needed" cell, as on the reference page.
  return row;
}

export function renderHardware(response, { t, lang, scenario, catalog }) {
  const sim = response.simulator;
  const model = response.model;
  const format = response.matrix.find((r) => r.format === sim.format);
  put($('hw-heading'), t('hw.heading', {
    model: model.name, format: format?.label ?? sim.format, context: fmt.contextLabel(sim.context),
  }));
  put($('hw-col-needed'), t('hw.col.needed', { context: fmt.contextLabel(sim.context) }));

  const rows = syncRows($('hardware').tBodies[0], response.hardware.map((r) => r.device), createRow);
  response.hardware.forEach((data, i) => {
    const row = rows[i];
    const [head, memory, needed, fit, decode] = row.cells;
    const button = head.firstChild;
    put(button, sim.device_count > 1 ? t('unit.times', { count: sim.device_count, device: data.name }) : data.name);
    const label = t('hw.select', { device: data.name });
    if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
    put(memory, `${fmt.share(lang, data.memory_gib)} GB · ${fmt.plain(lang, data.bandwidth_gbps)} GB/s`, data.memory_gib);
    let usage = needed.querySelector('[data-testid="hw-usage"]');
    let neededText = needed.querySelector('.needed');
    if (!usage) {
      neededText = cell('span', 'needed');
      usage = cell('span', 'usage', { testid: 'hw-usage' });
      needed.replaceChildren(neededText, ' ', usage);
    }
    put(neededText, fmt.gb(lang, data.needed_gib));
    needed.dataset.value = String(data.needed_gib);
    put(usage, `(${fmt.integer(lang, data.usage_pct)}%)`, data.usage_pct);
    put(fit, data.fit_label, data.fit);
    fit.className = `fit-${data.fit}`;
    put(decode, fmt.decodeRate(t, lang, data.fit, data.decode_tps), data.decode_tps);
    markSelected(row, data.device === sim.device && (scenario.device === null || scenario.device === data.device));
    // Devices the user added can be taken out again.
    let remove = head.querySelector('.row-remove');
    if (scenario.compare.includes(data.device)) {
      if (!remove) {
        remove = document.createElement('button');
        remove.type = 'button';
        remove.className = 'row-remove';
        remove.dataset.testid = 'hw-remove';
        remove.textContent = '×';
        head.append(remove);
      }
      const removeLabel = t('hw.remove', { device: data.name });
      if (remove.getAttribute('aria-label') !== removeLabel) remove.setAttribute('aria-label', removeLabel);
    } else if (remove) {
      remove.remove();
    }
  });

  // Any device not yet in the table can be added to it.
  const shown = new Set(response.hardware.map((r) => r.device));
  fillSelect($('hw-add'), [
    ['', t('hw.add_placeholder')],
    ...catalog.devices.filter((d) => !shown.has(d.id)).map((d) => [d.id, d.name, deviceGroup(t, d)]),
  ], '');
}

/** The <optgroup> label of a device: vendor and class. */
export const deviceGroup = (t, device) => t(`device_group.${device.vendor}.${device.class}`);
