// The quantization matrix and the hardware table, exported (loaded on the first click): copied
// as Markdown, the table as it is shown, or saved as CSV, its figures exactly (GB, tok/s, %),
// each after a line naming what the table shows and the page's link.
import { byId } from './dom.js';
import { copyText, download, toCsv, toMarkdown } from './exports.js';

/** A cell's text as shown: its buttons by their text, the × that takes a compared device out left out. */
const shownText = (cell) => [...cell.childNodes].filter((node) => !node.classList?.contains('row-remove'))
  .map((node) => node.textContent).join('').replace(/\s+/g, ' ').trim();

/** The table's header and rows as shown. */
const shownTable = (table) => [[...table.tHead.rows[0].cells].map(shownText),
  ...[...table.tBodies[0].rows].map((row) => [...row.cells].map(shownText))];

// The CSV of each table: column ids, and the cells of each row from the core's answer.
const contextsOf = (response) => Object.keys(response.matrix[0]?.total_gib ?? {}).sort((a, b) => a - b);
const CSV = {
  matrix: {
    header: (response) => ['format', 'label', 'bits_per_weight', 'weights_gb',
      ...contextsOf(response).map((tokens) => `total_gb_${tokens}`), 'recommended_device', 'recommended_devices'],
    rows: (response) => response.matrix.map((r) => [r.format, r.label, r.bpw, r.weights_gib,
      ...contextsOf(response).map((tokens) => r.total_gib[tokens]), r.recommended_device ?? '', r.recommended_device_count ?? '']),
  },
  hardware: {
    header: () => ['device', 'name', 'memory_gb', 'bandwidth_gb_s', 'needed_gb', 'usage_pct', 'fit', 'decode_tok_s',
      'offload_decode_tok_s', 'gpu_limit_command'],
    rows: (response) => response.hardware.map((r) => [r.device, r.name, r.memory_gib, r.bandwidth_gbps, r.needed_gib,
      r.usage_pct, r.fit, r.decode_tps, r.offload_decode_tps || '', r.gpu_map?.command ?? '']),
  },
};

/**
 * The export a button asks for (data-export: the table's id, data-as: md or csv), of the
 * answer the table shows; `caption` names what it shows.
 */
export async function exportTable(root, button, response, { t, caption }) {
  const kind = button.dataset.export;
  const link = location.href;
  if (button.dataset.as === 'csv') {
    download(`vramcalc-${kind}.csv`, toCsv(CSV[kind].header(response), CSV[kind].rows(response), caption, link));
    return;
  }
  await copyText(button, toMarkdown(shownTable(byId(root, kind)), caption, link, (i) => i >= 1), t);
}
