// What the page needs only after its first numbers, imported with vramcalc-full.wasm (which
// computes the matrix, the curve and the sections below the simulator): the quantization matrix,
// the curve's plot, the decode estimate's error table and the model's published runs, what runs
// with a part in host RAM (the offload block), serving (below the plot), the renderers of those
// sections (the hardware table, the commands, the related models) with their listeners, and of
// the architecture card (far below the fold), the answers kept while the slider moves, and the
// service worker's registration. The bundle makes it a chunk of its own.
import { byId } from './dom.js';
import { buildBelowFold } from './render/below-fold.js';
import { bindModelFilter } from './model-filter.js';
import { bindHardware } from './render/hardware.js';
import { renderKvPool } from './render/kv-pool.js';
import { rejectHost, renderOffload } from './render/offload.js';
import { bindRowChoice } from './render/rows.js';
import { bindServing, isServingField, rejectServing, renderServing } from './render/serving.js';
import { bindWays, renderGpuMap, renderWays } from './render/ways.js';

export { contextAnswers } from './context-answers.js';
export { renderAccuracy } from './render/accuracy-table.js';
export { renderMeasured } from './render/measured.js';
export { renderCard } from './render/card.js';
export { copyFrom, renderCommands } from './render/commands.js';
export { renderHardware } from './render/hardware.js';
export { renderMatrix } from './render/matrix.js';
export { hostChoice, renderHostChoices } from './render/offload.js';
export { renderPlot } from './render/plot.js';
export { renderRelated } from './render/related.js';
export { registerServiceWorker } from './pwa.js';

/**
 * The figures the full module adds beside the simulator's: what runs with offload and the KV
 * pool an engine preallocates; serving, below the plot; and, when it does not fit, the nearest
 * ways to make it run, under the verdict, and where the operating system lets the GPU use too
 * little by default (an APU under Linux, a Mac's wired limit), how to raise it.
 */
export function renderFigures(root, response, view) {
  renderOffload(root, response, view);
  renderWays(root, response, view);
  renderGpuMap(root, response, view);
  renderKvPool(root, response, view);
  renderServing(root, response, view);
}

/** A later field's value it cannot take (the host's, serving's): the notice, the field reset. */
export const rejectField = (root, key, value, context) =>
  (isServingField(key) ? rejectServing : rejectHost)(root, key, value, context);

/**
 * The sections below the simulator, built (render/below-fold.js) and their listeners bound before
 * they are first drawn: a row of the quantization matrix, the hardware table or the related
 * models chooses its format, device or model. And the model picker's filter, which filters what
 * was typed before it came.
 * @param {{update: (patch: object) => void, commit: () => void, scenario: object}} page
 */
export function bindLowerSections(root, page) {
  buildBelowFold(root);
  bindRowChoice(root, 'matrix', 'format', (format) => ({ format }), page);
  bindHardware(root, page);
  bindServing(root, page);
  bindWays(root, page);
  bindRowChoice(root, 'related', 'model', (model) => ({ model }), page);
  const form = byId(root, 'controls');
  bindModelFilter(form.elements['model-filter'], form.elements.model);
}
