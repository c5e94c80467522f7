// "What runs on my machine?": the device-first view. One sweep() over the catalog for the
// chosen devices gives, per model and device, the most precise format that fits, its memory,
// decode rate, time to the first token of a prompt of the whole context and largest context;
// the models whose own maximum context is below the one asked are kept apart, never listed as
// fitting. Pure functions here; render/fits.js draws them.
import { duration } from './duration.js';
import { fixed, gb, integer } from './format.js';

/**
 * The sweep request on `devices` (ids, or a device of one's own first) at what the simulator
 * resolved (`sim`: context, batch, KV cache type, runtime) with `gpus` devices each (null: one),
 * the scenario's host (its ram, ramtype and rambw; null: the core's default) for the offload plans.
 */
export function sweepRequestFor(sim, devices, gpus, { ram = null, ramtype = null, rambw = null } = {}) {
  const [device, ...compare] = devices;
  const request = { context: sim.context, batch: sim.batch, kv_dtype: sim.kv_dtype, runtime: sim.runtime, device };
  if (compare.length > 0) request.compare = compare;
  if (gpus) request.device_count = gpus;
  const host = { host_memory: ram, host_memory_type: ramtype, host_bandwidth: rambw };
  for (const [key, value] of Object.entries(host)) if (value !== null) request[key] = value;
  return request;
}

/**
 * A model that fits a device in no format but runs there with offload (the sweep's offload_*
 * arrays, by model × devices + device): the plan in the engine's default format, or null.
 */
function offloadOf(sweep, model, i, device) {
  const kind = sweep.offload_kinds[sweep.offload_kind[i]];
  if (!kind) return null;
  return {
    model, device, format: sweep.formats[sweep.offload_format[i]], fit: 'offload', kind,
    gpu_layers: sweep.offload_gpu_layers[i], ram_expert_layers: sweep.offload_ram_expert_layers[i],
    device_gib: sweep.offload_device_gib[i], host_gib: sweep.offload_host_gib[i], ram_share_pct: sweep.offload_ram_share_pct[i],
    decode_tps: sweep.offload_decode_tps[i],
  };
}

/**
 * The sweep split into what the view lists: `rows` (per model and device, the most precise
 * format that fits there), `offload` (per model and device where it fits in no format, the plan that
 * runs it with a part in the host's RAM), `none` (models that neither fit nor run with offload
 * on any of the devices) and `beyond` (models whose maximum context is below the request's), in
 * catalog order, a model's devices in the request's order.
 */
export function fitsOf(sweep, catalog) {
  const models = new Map(catalog.models.map((m) => [m.id, m]));
  const formats = sweep.formats.length;
  const devices = sweep.devices.length;
  const noFit = sweep.fit_ids.indexOf('no_fit');
  // The cells whose operating system must let the GPU use more, with the core's command that does:
  // an APU's under Linux (they fit), a Mac's wired limit (they fit only once it is raised).
  const gpuMaps = new Map((sweep.gpu_map_cells ?? []).map((cell, k) => [cell, sweep.gpu_map_commands[k]]));
  const result = { rows: [], offload: [], none: [], beyond: [] };
  sweep.models.forEach((id, m) => {
    const model = models.get(id);
    if (sweep.max_position[m] < sweep.context) {
      result.beyond.push({ model, max_position: sweep.max_position[m] });
      return;
    }
    const before = result.rows.length + result.offload.length;
    sweep.devices.forEach((device, d) => {
      // Cell ((m × formats + f) × devices + d); formats run from the most precise to the smallest.
      const cellOf = (f) => (m * formats + f) * devices + d;
      // As the device is set up; else, on a Mac, once its wired limit is raised.
      const f = [...Array(formats).keys()].find((i) => sweep.fit[cellOf(i)] !== noFit) ??
        [...Array(formats).keys()].find((i) => gpuMaps.has(cellOf(i)));
      if (f === undefined) {
        const offload = offloadOf(sweep, model, m * devices + d, device);
        if (offload) result.offload.push(offload);
        return;
      }
      const i = cellOf(f);
      const fit = sweep.fit_ids[sweep.fit[i]];
      result.rows.push({
        model, device, format: sweep.formats[f], fit: fit === 'no_fit' ? 'raised' : fit, total_gib: sweep.total_gib[i],
        decode_tps: sweep.decode_tps[i], ttft_s: sweep.ttft_s[i], max_context: sweep.max_context[i],
        capped: sweep.max_context_capped[i] === 1, gpu_map_command: gpuMaps.get(i) ?? '',
        gpu_mapped_gib: sweep.gpu_mapped_gib?.[d] ?? 0,
      });
    });
    if (result.rows.length + result.offload.length === before) result.none.push({ model });
  });
  return result;
}

// Size classes by resident parameters, in billions: [id, upper bound].
export const SIZES = [['small', 8], ['medium', 32], ['large', 128], ['huge', Infinity]];
const sizeOf = (params) => SIZES.find(([, below]) => params / 1e9 <= below)[0];

/** An offload plan's split in words (the simulator's offload block's). */
export const splitText = (r, t) => (r.kind === 'layers' ? t('offload.plan.layers', { layers: r.gpu_layers })
  : r.ram_expert_layers >= r.gpu_layers ? t('offload.plan.all_experts') : t('offload.plan.experts', { layers: r.ram_expert_layers }));

/** The rows the filters keep: a family ('' for all), a size class ('' for all), comfortable only. */
export function filterRows(rows, { family = '', size = '', comfortable = false }) {
  return rows.filter((r) => (!family || r.model.family === family) && (!size || sizeOf(r.model.params_total) === size) &&
    (!comfortable || r.fit === 'comfortable'));
}

const FIT_ORDER = { comfortable: 0, tight: 1, raised: 2, no_fit: 3 };
const SORT_KEYS = {
  model: (r) => r.model.name.toLowerCase(),
  device: (r) => r.device,
  format: (r) => r.format,
  fit: (r) => FIT_ORDER[r.fit],
  total: (r) => r.total_gib,
  decode: (r) => r.decode_tps,
  ttft: (r) => (r.ttft_s > 0 ? r.ttft_s : Infinity),  // no estimate: last
  context: (r) => r.max_context,
};

/** The rows sorted by a column, ascending or not; catalog order among equals. */
export function sortRows(rows, column, ascending) {
  const key = SORT_KEYS[column];
  if (!key) return rows;
  const sign = ascending ? 1 : -1;
  return rows.map((row, i) => [row, i]).sort(([a, i], [b, j]) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -sign : x > y ? sign : 0) || i - j;
  }).map(([row]) => row);
}

// ---- exports (exports.js writes them) ---------------------------------------------------------

/**
 * A row's memory, marked "†" where its operating system must let the GPU use more than by default
 * (an APU's under Linux, a Mac's wired limit; the view's note).
 */
export const memoryText = (lang, r) => `${gb(lang, r.total_gib)}${r.gpu_map_command ? ' †' : ''}`;

/** A row's rating: a Mac's that fits only once its wired limit is raised says so. */
export const fitText = (t, r) => t(r.fit === 'raised' ? 'fits.raised' : `fit.${r.fit}`);

/**
 * A table's cells as shown: [header, ...rows], each an array of strings; with `deviceName`
 * (id → the name shown) a device column, as the view shows it for more than one device.
 */
export function fitsTable(rows, { t, lang }, deviceName = null) {
  const columns = ['model', 'format', 'fit', 'memory', 'decode', 'ttft', 'max_context', ...(deviceName ? ['device'] : [])];
  return [columns.map((c) => t(`fits.col.${c}`)), ...rows.map((r) => [
    r.model.name, r.format, fitText(t, r), memoryText(lang, r), `${fixed(lang, r.decode_tps, 1)} tok/s`,
    duration(lang, r.ttft_s), integer(lang, r.max_context), ...(deviceName ? [deviceName(r.device)] : []),
  ])];
}

/**
 * The models that run with offload as shown: [header, ...rows] of strings, the device column as
 * fitsTable() has it.
 */
export function offloadTable(rows, { t, lang }, deviceName = null) {
  const columns = ['model', 'plan_format', 'split', 'in_ram', 'decode', ...(deviceName ? ['device'] : [])];
  return [columns.map((c) => t(`fits.col.${c}`)), ...rows.map((r) => [
    r.model.name, r.format, splitText(r, t), `${gb(lang, r.host_gib)} (${fixed(lang, r.ram_share_pct, 0)} %)`,
    `${fixed(lang, r.decode_tps, 1)} tok/s`, ...(deviceName ? [deviceName(r.device)] : []),
  ])];
}

/**
 * The rows that fit, then those that run with offload, as CSV cells (GB and tok/s exactly as the
 * sweep gives them, which round to the figures shown). An offload row's fit is "offload", its
 * memory the GPU's part, then its plan: whole layers on the GPU (-ngl), layers whose experts stay
 * in RAM (--n-cpu-moe) and what RAM holds; it has no first-token time or largest context.
 */
export const FITS_CSV_HEADER = ['model', 'model_id', 'format', 'fit', 'memory_gb', 'decode_tok_s', 'first_token_s',
  'max_context', 'device_id', 'offload_plan', 'gpu_layers', 'ram_expert_layers', 'ram_gb', 'ram_share_pct'];
export const fitsCsvRows = (rows, offload = []) => [
  ...rows.map((r) => [
    r.model.name, r.model.id, r.format, r.fit, r.total_gib, r.decode_tps, r.ttft_s > 0 ? r.ttft_s : '', r.max_context, r.device,
    '', '', '', '', '',
  ]),
  ...offload.map((r) => [
    r.model.name, r.model.id, r.format, r.fit, r.device_gib, r.decode_tps, '', '', r.device,
    r.kind, r.gpu_layers, r.ram_expert_layers, r.host_gib, r.ram_share_pct,
  ]),
];
