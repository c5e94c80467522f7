// When the model does not fit: the nearest ways to make it run (the core's "ways", answered with
// the offload section), under the simulator's verdict and its offload block (below the slider and
// the controls, so that the line coming and going as the context moves shifts neither), each a
// button that makes that change: a smaller format, a shorter context, an engine that offloads
// with its speed, a device that holds it.
import { byId, el } from '../dom.js';
import * as fmt from '../format.js';

/** The ways as [the scenario's change, its text]; none where the model fits. */
export function waysOf(response, { t, lang, catalog }) {
  const w = response.ways;
  if (!w) return [];
  const ways = [];
  if (w.format) {
    ways.push([{ format: w.format },
      t('offload.ways.format', { format: fmt.quantLabel(catalog, w.format), total: fmt.gb(lang, w.format_total_gib) })]);
  }
  if (w.context) ways.push([{ context: w.context }, t('offload.ways.context', { context: fmt.integer(lang, w.context) })]);
  // Under an engine that offloads, the verdict above is the plan already.
  if (w.offload_runtime && w.offload_runtime !== response.simulator.runtime) {
    ways.push([{ runtime: w.offload_runtime, format: w.offload_format }, t('offload.ways.offload', {
      runtime: t(`runtime.${w.offload_runtime}`), format: fmt.quantLabel(catalog, w.offload_format),
      tps: fmt.fixed(lang, w.offload_decode_tps, 1),
    })]);
  }
  if (w.device) ways.push([{ device: w.device, gpus: null }, t('offload.ways.device', { device: w.device_name })]);
  return ways;
}

/** The line of ways after the offload block (render/offload.js), made once; hidden when there are none. */
export function renderWays(root, response, view) {
  let line = byId(root, 'ways');
  if (!line) {
    line = el('p', { class: 'ways', id: 'ways', 'data-testid': 'ways', hidden: true });
    byId(root, 'offload').after(line);
  }
  const ways = waysOf(response, view);
  const key = `${view.lang}:${JSON.stringify(ways)}`;
  if (line.dataset.key !== key) {
    line.dataset.key = key;
    const buttons = ways.map(([change, text]) => el('button', { type: 'button', class: 'way', 'data-way': JSON.stringify(change) }, text));
    line.replaceChildren(...(ways.length ? [view.t('offload.ways.lead'), ' '] : []),
      ...buttons.flatMap((button, i) => (i ? [' · ', button] : [button])));
  }
  if (line.hidden !== (ways.length === 0)) line.hidden = ways.length === 0;
}

/**
 * Under the ways: where a unified-memory GPU may use less of the RAM by default than the model
 * needs (the core's "gpu_map": an APU under Linux, a Mac under an engine), what it uses, what
 * this needs and the command that raises it, made once; hidden otherwise. On a Mac the verdict is
 * the default's, "does not fit", so the note gives the rate once raised.
 */
export function renderGpuMap(root, response, { t, lang }) {
  let line = byId(root, 'gpu-map');
  if (!line) {
    line = el('p', { class: 'gpu-map', id: 'gpu-map', 'data-testid': 'gpu-map', hidden: true });
    byId(root, 'ways').after(line);
  }
  const map = response.gpu_map ?? null;
  const tps = response.simulator.decode_tps;
  const key = map ? `${lang}:${map.command}:${map.needed_gib}:${tps}` : '';
  if (line.dataset.key !== key) {
    line.dataset.key = key;
    // The command in a <code> of its own: the text around its place holder, split there.
    const [before, after] = map ? t(map.os === 'macos' ? 'offload.gpu_map_macos' : 'offload.gpu_map', {
      default: fmt.gb(lang, map.default_gib), needed: fmt.gb(lang, map.needed_gib), command: '\u0000',
      tps: fmt.fixed(lang, tps, 1),
    }).split('\u0000') : ['', ''];
    line.replaceChildren(...(map ? [before, el('code', {}, map.command), after] : []));
  }
  if (line.hidden !== !map) line.hidden = !map;
}

/** A way's button makes its change to the page's scenario. */
export function bindWays(root, page) {
  byId(root, 'page').addEventListener('click', (event) => {
    const button = event.target.closest('#ways button[data-way]');
    if (!button) return;
    page.update(JSON.parse(button.dataset.way));
    page.commit();
  });
}
