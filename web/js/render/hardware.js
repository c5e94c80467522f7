// The hardware table for the selected format and context.
import { byId, fillSelect, put, putPart, setAttr } from '../dom.js';
import * as fmt from '../format.js';
import { deviceGroup } from '../i18n.js';
import { runsOnDevice } from '../state.js';
import { bindRowChoice, cell, markSelected, selectButton, syncRows } from './rows.js';

function createRow(device) {
  const row = document.createElement('tr');
  row.dataset.device = device;
  row.dataset.testid = 'hw-row';
  const head = cell('th');
  head.scope = 'row';
  head.append(selectButton());
  // The usage percentage sits inside the "needed" cell, as on the reference page.
  const needed = cell('td', 'num', { testid: 'hw-needed' });
  needed.append(cell('span', 'needed'), ' ', cell('span', 'usage', { testid: 'hw-usage' }));
  row.append(
    head,
    cell('td', '', { testid: 'hw-memory' }),
    needed,
    cell('td', '', { testid: 'hw-fit' }),
    cell('td', 'num', { testid: 'hw-decode' }),
  );
  return row;
}

/** A button that takes a device the user added out of the table again (or none). */
function syncRemoveButton(head, data, { t, scenario }) {
  let remove = head.querySelector('.row-remove');
  if (!scenario.compare.includes(data.device)) {
    remove?.remove();
    return;
  }
  if (!remove) {
    remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'row-remove';
    remove.dataset.testid = 'hw-remove';
    remove.textContent = '×';
    head.append(remove);
  }
  setAttr(remove, 'aria-label', t('hw.remove', { device: data.name }));
}

function renderRow(row, data, sim, view) {
  const { t, lang, scenario } = view;
  const [head, memory, needed, fit, decode] = row.cells;
  const button = head.firstChild;
  put(button, sim.device_count > 1 ? t('unit.times', { count: sim.device_count, device: data.name }) : data.name);
  setAttr(button, 'aria-label', t('hw.select', { device: data.name }));
  put(memory, `${fmt.share(lang, data.memory_gib)} GB · ${fmt.plain(lang, data.bandwidth_gbps)} GB/s`, data.memory_gib);
  const [neededText, , usage] = needed.childNodes;
  put(neededText, fmt.gb(lang, data.needed_gib));
  if (needed.dataset.value !== String(data.needed_gib)) needed.dataset.value = String(data.needed_gib);
  put(usage, `(${fmt.integer(lang, data.usage_pct)}%)`, data.usage_pct);
  // What does not fit but runs with a part in the host's RAM says so, at that plan's rate; a device
  // whose operating system must let its GPU use more (a Mac's wired limit, an APU's GTT under
  // Linux), the command that does it and the rate then.
  const offload = data.offload_decode_tps > 0;
  const map = data.gpu_map ?? null;
  const rating = offload ? 'offload' : map ? 'gpu-map' : data.fit;
  put(fit, offload ? t('offload.fit') : map ? t('hw.gpu_map', { command: map.command }) : t(`fit.${data.fit}`), rating);
  if (fit.className !== `fit-${rating}`) fit.className = `fit-${rating}`;
  const tps = offload ? data.offload_decode_tps : data.decode_tps;
  put(decode, fmt.decodeRate(t, lang, rating, tps), tps);
  markSelected(row, data.device === sim.device && (scenario.device === null || scenario.device === data.device));
  syncRemoveButton(head, data, view);
}

export function renderHardware(root, response, view) {
  const { t, catalog } = view;
  const table = byId(root, 'hardware');
  if (!table) return;
  const sim = response.simulator;
  const context = fmt.contextLabel(sim.context);
  putPart(root, 'hw-heading', t('hw.heading', {
    model: response.model.name, format: fmt.quantLabel(catalog, sim.format), context,
  }));
  putPart(root, 'hw-col-needed', t('hw.col.needed', { context }));
  const rows = syncRows(table.tBodies[0], response.hardware.map((r) => r.device), createRow);
  response.hardware.forEach((data, i) => renderRow(rows[i], data, sim, view));
  // Any device not yet in the table can be added to it.
  const add = byId(root, 'hw-add');
  if (add) {
    const shown = new Set(response.hardware.map((r) => r.device));
    // Only devices the runtime runs on: the core leaves the others out of the table.
    const runtime = catalog.runtimes.find((r) => r.id === sim.runtime);
    fillSelect(add, [
      ['', t('hw.add_placeholder')],
      ...catalog.devices.filter((d) => !shown.has(d.id) && runtime && runsOnDevice(runtime, d))
        .map((d) => [d.id, d.name, deviceGroup(t, d)]),
    ], '');
  }
}

/**
 * The table's listeners: a row chooses its device; the picker below adds a device to compare,
 * a row's remove button takes an added one out.
 * @param {{update: (patch: object) => void, commit: () => void, scenario: {compare: string[]}}} page
 */
export function bindHardware(root, page) {
  // The own device's row is the chosen device already; its id is no catalog id.
  bindRowChoice(root, 'hardware', 'device', (device) => (device === 'custom' ? {} : { device }), page);
  byId(root, 'hw-add').addEventListener('change', (event) => {
    if (!event.target.value) return;
    page.update({ compare: [...page.scenario.compare, event.target.value] });
    page.commit();
  });
  byId(root, 'hardware').addEventListener('click', (event) => {
    const remove = event.target.closest('.row-remove');
    if (!remove) return;
    event.stopPropagation();  // not a row choice
    const id = remove.closest('tr').dataset.device;
    page.update({ compare: page.scenario.compare.filter((d) => d !== id) });
    page.commit();
  }, true);
}
