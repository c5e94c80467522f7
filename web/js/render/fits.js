// The device-first view (#view=fits): every catalog model on the chosen devices (the
// simulator's, and those added to compare), from one sweep() per frame (js/fits.js), sortable
// by each column and filtered by family, size and "fits comfortably"; a row opens that model's
// simulator on its device.
import { byId, el, fillSelect, put, putPart, setAttr } from '../dom.js';
import { applyTexts } from '../i18n.js';
import * as fmt from '../format.js';
import { duration } from '../duration.js';
import { copyText, download, toCsv, toMarkdown } from '../exports.js';
import {
  FITS_CSV_HEADER, SIZES, fitText, fitsCsvRows, fitsOf, fitsTable, filterRows, memoryText, offloadTable, sortRows,
  sweepRequestFor,
} from '../fits.js';
import { deviceOf, runsOnDevice, runtimeOf } from '../state.js';
import { cell, selectButton, syncRows } from './rows.js';

const state = new WeakMap();  // root → { sort, ascending, family, size, comfortable, shown, shownOffload }
const stateOf = (root) => {
  if (!state.has(root)) {
    state.set(root, { sort: '', ascending: true, family: '', size: '', comfortable: false, shown: [], shownOffload: [] });
  }
  return state.get(root);
};

const COLUMNS = [['model', 'model'], ['format', 'format'], ['fit', 'fit'], ['total', 'memory'], ['decode', 'decode'],
  ['ttft', 'ttft'], ['context', 'max_context'], ['device', 'device']];
const NUMERIC = (i) => i >= 3 && i <= 6;
// The models that run with offload: their own table, its columns' strings (fits.col.*).
const OFFLOAD_COLUMNS = ['model', 'plan_format', 'split', 'in_ram', 'decode', 'device'];

/** The view's parts inside `container` (the page's section, a widget's box), built once. */
function buildFitsMarkup(container) {
  if (container.querySelector('#fits-table')) return;
  const labelled = (key, control) => el('label', {}, el('span', { 'data-i18n': key }), ' ', control);
  const heads = COLUMNS.map(([sort, label], i) => el('th', { scope: 'col', 'aria-sort': 'none', class: NUMERIC(i) && 'num' },
    el('button', { type: 'button', 'data-sort': sort, 'data-i18n': `fits.col.${label}` })));
  const details = (id) => el('details', { id, 'data-testid': id, hidden: true }, el('summary', { id: `${id}-heading` }), el('ul', { id: `${id}-list` }));
  container.append(
    el('h2', { id: 'fits-heading' }),
    el('p', { class: 'muted', id: 'fits-summary', 'data-testid': 'fits-summary' }),
    el('form', { class: 'selectors', id: 'fits-filters', autocomplete: 'off' },
      labelled('fits.filter.family', el('select', { name: 'family', 'data-testid': 'fits-family' })),
      labelled('fits.filter.size', el('select', { name: 'size', 'data-testid': 'fits-size' })),
      el('label', { class: 'check' }, el('input', { type: 'checkbox', name: 'comfortable', 'data-testid': 'fits-comfortable' }),
        el('span', { 'data-i18n': 'fits.filter.comfortable' })),
      labelled('fits.add_device', el('select', { name: 'add', 'data-testid': 'fits-add-device' }))),
    el('p', { class: 'fits-devices', id: 'fits-devices', 'data-testid': 'fits-devices', hidden: true }),
    el('div', { class: 'table-actions' },
      el('button', { type: 'button', class: 'copy', id: 'fits-copy-md', 'data-testid': 'fits-copy-md', 'data-i18n': 'export.copy_md' }),
      el('button', { type: 'button', class: 'copy', id: 'fits-csv', 'data-testid': 'fits-csv', 'data-i18n': 'export.csv' })),
    el('pre', { id: 'fits-md', hidden: true }),
    el('div', { class: 'table-wrap card', part: 'table' },
      el('table', { class: 'data', id: 'fits-table', 'data-testid': 'fits-table' }, el('thead', {}, el('tr', {}, ...heads)), el('tbody'))),
    el('p', { class: 'muted', id: 'fits-capped-note', 'data-i18n': 'fits.capped_note', hidden: true }),
    el('p', { class: 'muted', id: 'fits-gpu-map-note', 'data-testid': 'fits-gpu-map-note', hidden: true }),
    el('div', { id: 'fits-offload', 'data-testid': 'fits-offload', hidden: true },
      el('h3', { id: 'fits-offload-heading' }), el('p', { class: 'muted', id: 'fits-offload-note' }),
      el('div', { class: 'table-wrap card' }, el('table', { class: 'data', id: 'fits-offload-table' },
        el('thead', {}, el('tr', {}, ...OFFLOAD_COLUMNS.map((c, i) => el('th', { scope: 'col', class: (i === 3 || i === 4) && 'num',
          'data-i18n': `fits.col.${c}` })))), el('tbody')))),
    details('fits-beyond'), details('fits-none'));
}

/** A row of `testid` whose model heads it (a button that opens it), then cells of these classes. */
function rowOf(testid, classes) {
  const row = document.createElement('tr');
  row.dataset.testid = testid;
  const head = cell('th');
  head.scope = 'row';
  head.append(selectButton());
  row.append(head, ...classes.map((name) => cell('td', name)));
  return row;
}
const createRow = () => rowOf('fit-row', ['', '', 'num', 'num', 'num', 'num', '']);
const createOffloadRow = () => rowOf('fit-offload-row', ['', '', 'num', 'num', '']);

function renderRow(row, r, { t, lang }, scene) {
  const [head, format, fit, total, decode, ttft, context, device] = row.cells;
  const deviceName = scene.deviceName(r.device);
  put(head.firstChild, r.model.name);
  setAttr(head.firstChild, 'aria-label', t('fits.open', { model: r.model.name, device: deviceName }));
  put(device, deviceName);
  if (device.hidden !== !scene.several) device.hidden = !scene.several;
  put(format, r.format);
  put(fit, fitText(t, r));
  if (fit.className !== `fit-${r.fit}`) fit.className = `fit-${r.fit}`;
  put(total, memoryText(lang, r));
  setAttr(total, 'title', r.gpu_map_command);
  put(decode, `${fmt.fixed(lang, r.decode_tps, 1)} tok/s`);
  put(ttft, duration(lang, r.ttft_s));
  put(context, `${fmt.integer(lang, r.max_context)}${r.capped ? '*' : ''}`);
  setAttr(context, 'title', r.capped ? t('fits.capped') : '');
  const data = {
    model: r.model.id, format: r.format, fit: r.fit, total: r.total_gib, decode: r.decode_tps, ttft: r.ttft_s,
    maxContext: r.max_context, device: r.device, gpuMapCommand: r.gpu_map_command,
  };
  for (const [name, value] of Object.entries(data)) {
    if (row.dataset[name] !== String(value)) row.dataset[name] = String(value);
  }
}

/** The models that fit in no format but run with offload: the plan, what it keeps in RAM, its speed. */
function renderOffload(root, offload, { t, lang }, scene) {
  const table = byId(root, 'fits-offload-table');
  const rows = syncRows(table.tBodies[0], offload.map((r) => `${r.model.id} ${r.device}`), createOffloadRow);
  const [, ...texts] = offloadTable(offload, { t, lang }, scene.deviceName);  // the Markdown's cells too
  offload.forEach((r, i) => {
    const [head, ...cells] = rows[i].cells;
    const [name, ...shown] = texts[i];
    put(head.firstChild, name);
    setAttr(head.firstChild, 'aria-label', t('fits.open', { model: r.model.name, device: scene.deviceName(r.device) }));
    cells.forEach((c, j) => put(c, shown[j]));
    const device = cells[cells.length - 1];
    if (device.hidden !== !scene.several) device.hidden = !scene.several;
    const data = {
      model: r.model.id, format: r.format, device: r.device, decode: r.decode_tps, ram: r.host_gib, share: r.ram_share_pct,
      kind: r.kind, gpuLayers: r.gpu_layers, ramExpertLayers: r.ram_expert_layers, deviceGib: r.device_gib,
    };
    for (const [name, value] of Object.entries(data)) {
      if (rows[i].dataset[name] !== String(value)) rows[i].dataset[name] = String(value);
    }
  });
  const deviceHead = table.tHead.rows[0].cells[5];
  if (deviceHead.hidden !== !scene.several) deviceHead.hidden = !scene.several;
  byId(root, 'fits-offload').hidden = offload.length === 0;
  putPart(root, 'fits-offload-heading', t('fits.offload.heading', { n: fmt.integer(lang, new Set(offload.map((r) => r.model.id)).size) }));
  const format = offload[0]?.format ?? '';
  putPart(root, 'fits-offload-note', t('fits.offload.note', { format, ram: scene.ram, runtime: t(`runtime.${scene.runtime}`) }));
}

/** A list of model names (the models kept apart), each with its note. */
function renderList(root, id, items, text) {
  const list = byId(root, `${id}-list`);
  const texts = items.map(text);
  if (list.childElementCount !== texts.length || [...list.children].some((li, i) => li.textContent !== texts[i])) {
    list.replaceChildren(...texts.map((line) => Object.assign(document.createElement('li'), { textContent: line })));
  }
  byId(root, id).hidden = items.length === 0;
}

function renderFilters(root, { t, catalog, scenario }, s, scene) {
  const families = [...new Set(catalog.models.map((m) => m.family))].sort();
  const form = byId(root, 'fits-filters').elements;
  fillSelect(form.family, [['', t('fits.filter.all')], ...families.map((f) => [f, f])], s.family);
  fillSelect(form.size, [['', t('fits.filter.all')], ...SIZES.map(([id]) => [id, t(`fits.size.${id}`)])], s.size);
  form.comfortable.checked = s.comfortable;
  // Another device to list beside the chosen ones: any the runtime runs on.
  const runtime = runtimeOf(scenario, catalog);
  const more = catalog.devices.filter((d) => runsOnDevice(runtime, d) && !scene.devices.includes(d.id));
  fillSelect(form.add, [['', t('fits.add_device_choose')], ...more.map((d) => [d.id, d.name])], '');
  const header = byId(root, 'fits-table').tHead.rows[0].cells;
  const deviceHead = header[header.length - 1];
  if (deviceHead.hidden !== !scene.several) deviceHead.hidden = !scene.several;
  for (const button of byId(root, 'fits-table').tHead.querySelectorAll('button[data-sort]')) {
    const sorted = button.dataset.sort === s.sort;
    setAttr(button.parentElement, 'aria-sort', sorted ? (s.ascending ? 'ascending' : 'descending') : 'none');
  }
}

/** The devices added to compare, each a button that takes it out again. */
function renderDevices(root, { t, lang }, scene) {
  const line = byId(root, 'fits-devices');
  const added = scene.devices.slice(1);
  const key = `${lang}:${added.join(',')}`;  // rebuilt for other devices or another language
  if (line.dataset.key !== key) {
    line.dataset.key = key;
    line.replaceChildren(...added.map((id) => {
      const name = scene.deviceName(id);
      return el('button', { type: 'button', class: 'device-chip', 'data-remove': id, 'aria-label': t('fits.remove_device', { device: name }) },
        `${name} ×`);
    }));
  }
  line.hidden = added.length === 0;
}

/**
 * Draws the view. `fits` is fitsOf()'s split of the sweep; `scene` names the devices (`devices`
 * their ids, `deviceName(id)`, `device` all their names, `several` with more than one), the
 * scenario's caption and the page's link for the exports.
 */
export function renderFits(root, fits, view, scene) {
  const { t, lang } = view;
  const s = stateOf(root);
  const rows = sortRows(filterRows(fits.rows, s), s.sort, s.ascending);
  s.shown = rows;
  s.scene = scene;
  putPart(root, 'fits-heading', t('fits.heading', { device: scene.device }));
  putPart(root, 'fits-summary', t('fits.summary', {
    n: fmt.integer(lang, fits.rows.length),
    total: fmt.integer(lang, fits.rows.length + fits.offload.length + fits.none.length + fits.beyond.length),
    caption: scene.caption,
  }));
  renderFilters(root, view, s, scene);
  renderDevices(root, view, scene);
  const table = byId(root, 'fits-table');
  const shown = syncRows(table.tBodies[0], rows.map((r) => `${r.model.id} ${r.device}`), createRow);
  rows.forEach((r, i) => renderRow(shown[i], r, view, scene));
  byId(root, 'fits-capped-note').hidden = !rows.some((r) => r.capped);
  // "†": an APU's note (Linux's default, amd-ttm) and a Mac's (its wired limit), as the rows need.
  const mapped = rows.find((r) => r.gpu_map_command && r.fit !== 'raised');
  const wired = rows.some((r) => r.fit === 'raised');
  const notes = [mapped && t('fits.gpu_map_note', { default: fmt.gb(lang, mapped.gpu_mapped_gib) }), wired && t('fits.wired_note')];
  if (mapped || wired) putPart(root, 'fits-gpu-map-note', notes.filter(Boolean).join(' '));
  byId(root, 'fits-gpu-map-note').hidden = !mapped && !wired;
  const offload = sortRows(filterRows(fits.offload, s), s.sort, s.ascending);
  s.shownOffload = offload;
  renderOffload(root, offload, view, scene);
  const names = scene.several ? scene.deviceName : null;
  const apart = offload.length === 0 ? [] : [{
    heading: byId(root, 'fits-offload-heading').textContent, table: offloadTable(offload, { t, lang }, names),
    numeric: (i) => i === 3 || i === 4,
  }];
  putPart(root, 'fits-md', toMarkdown(fitsTable(rows, { t, lang }, names), scene.caption, scene.link, NUMERIC, apart));
  putPart(root, 'fits-beyond-heading', t('fits.beyond.heading', { n: fmt.integer(lang, fits.beyond.length) }));
  renderList(root, 'fits-beyond', fits.beyond, (b) => t('fits.beyond.item', { model: b.model.name, max: fmt.integer(lang, b.max_position) }));
  const none = runtimeOf(view.scenario, view.catalog).offload ? 'fits.none.heading_offload' : 'fits.none.heading';
  putPart(root, 'fits-none-heading', t(none, { n: fmt.integer(lang, fits.none.length) }));
  renderList(root, 'fits-none', fits.none, (n) => n.model.name);
}

/**
 * The whole view from one sweep() on the chosen device (else the simulator's, the recommended
 * one) and the devices added to compare, with the page's title; `linkFor(devices)` is the link
 * the exports name. The error's text, or null.
 */
export function drawFitsView(root, core, response, view, linkFor = () => location.href) {
  const { t, lang, scenario, catalog } = view;
  applyTexts(byId(root, 'fits'), t);
  stateOf(root).t = t;
  const sim = response.simulator;
  const first = scenario.device ?? sim.device;
  const devices = [first, ...scenario.compare.filter((d) => d !== first)];
  const sweep = core.sweep(sweepRequestFor(sim, devices, scenario.gpus, scenario));
  if (!sweep.ok) return `${t('error.prefix')} ${sweep.error.message}`;
  const deviceName = (id) => {
    const named = deviceOf(id, catalog)?.name ?? id;
    return sweep.device_count > 1 ? t('unit.times', { count: sweep.device_count, device: named }) : named;
  };
  const name = new Intl.ListFormat(lang, { type: 'conjunction' }).format(devices.map(deviceName));
  const kv = catalog.kv_dtypes.find((k) => k.id === sim.kv_dtype)?.label ?? sim.kv_dtype;
  const context = fmt.integer(lang, sim.context);
  const caption = t('fits.caption', {
    device: name, context, batch: fmt.integer(lang, sim.batch), kv, runtime: t(`runtime.${sim.runtime}`),
  });
  const ram = fmt.plain(lang, scenario.ram ?? catalog.defaults.host_memory);
  renderFits(root, fitsOf(sweep, catalog), view,
    { device: name, devices, deviceName, several: devices.length > 1, caption, link: linkFor(devices), ram, runtime: sim.runtime });
  if (root === document) {  // the page's title; a widget leaves its host's alone
    const title = t('fits.title', { device: name, context });
    if (document.title !== title) document.title = title;
    putPart(root, 'title', title);
  }
  return null;
}

/** Saves the rows shown, those that run with offload after them, as CSV (a download; nothing leaves the browser). */
function downloadCsv(root) {
  const { shown, shownOffload, scene } = stateOf(root);
  download(`vramcalc-${scene.devices.join('-').replace(/[^a-z0-9.-]+/gi, '-').slice(0, 60)}.csv`,
    toCsv(FITS_CSV_HEADER, fitsCsvRows(shown, shownOffload), scene.caption, scene.link));
}

/**
 * Builds the view in the root's #fits and binds its own controls: sorting by a column (again:
 * the other way), the filters, the CSV download, a row's button, which calls `open(model,
 * format, device)`, and the devices to compare, which call `compare(ids)` with the ids added
 * beside the chosen device. `redraw` redraws the view.
 */
export function bindFits(root, { redraw, open, compare }) {
  buildFitsMarkup(byId(root, 'fits'));
  const s = stateOf(root);
  byId(root, 'fits-table').addEventListener('click', (event) => {
    const sort = event.target.closest('button[data-sort]');
    if (sort) {
      s.ascending = s.sort === sort.dataset.sort ? !s.ascending : true;
      s.sort = sort.dataset.sort;
      redraw();
      return;
    }
    const row = event.target.closest('tr[data-testid="fit-row"]');
    if (row) open(row.dataset.model, row.dataset.format, row.dataset.device);
  });
  byId(root, 'fits-offload-table').addEventListener('click', (event) => {
    const row = event.target.closest('tr[data-testid="fit-offload-row"]');
    if (row) open(row.dataset.model, row.dataset.format, row.dataset.device);
  });
  byId(root, 'fits-filters').addEventListener('change', (event) => {
    const { name, value, checked } = event.target;
    if (name === 'add') {
      if (value) compare([...s.scene.devices.slice(1), value]);
      return;
    }
    if (name === 'comfortable') s.comfortable = checked;
    else if (name === 'family' || name === 'size') s[name] = value;
    redraw();
  });
  byId(root, 'fits-devices').addEventListener('click', (event) => {
    const id = event.target.closest('button[data-remove]')?.dataset.remove;
    if (id) compare(s.scene.devices.slice(1).filter((d) => d !== id));
  });
  byId(root, 'fits-csv').addEventListener('click', () => downloadCsv(root));
  byId(root, 'fits-copy-md').addEventListener('click', (event) =>
    copyText(event.currentTarget, byId(root, 'fits-md').textContent, s.t));
}
