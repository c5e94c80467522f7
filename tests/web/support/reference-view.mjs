// The reference comparison of a whole page, shared by every driver: readReferenceView() runs
// inside the page (pass it to page.evaluate or a WebDriver's executeScript: it uses nothing
// from outside itself), and referenceViewDifferences() compares what it read with the reference
// page, tests/golden/reference-page.txt, in the given language (support/reference.mjs, which
// reads the page's table tests/golden/reference-page.json).
import {
  REFERENCE, displayed, referenceDecimals, referenceNumber,
} from './reference.mjs';

/**
 * Everything the reference comparison reads, in one round trip: shown texts and data-values.
 * Runs in the page.
 */
export function readReferenceView() {
  // No-break spaces count as spaces: the page keeps a number and its unit on one line.
  const plain = (value) => value.replace(/[\u00a0\u202f]/g, ' ');
  const text = (element) => (element ? plain(element.innerText) : null);
  const byId = (id) => document.querySelector(`[data-testid="${id}"]`);
  const outputs = {};
  for (const id of ['fit', 'share-weights', 'share-kv', 'share-overhead', 'total', 'per-device', 'weights',
    'kv-cache', 'decode', 'overhead', 'max-context', 'kv-saving', 'context-value']) {
    outputs[id] = { text: text(byId(id)), value: byId(id)?.getAttribute('data-value') ?? null };
  }
  const figureLabels = {};
  for (const dd of document.querySelectorAll('.figures dd[data-testid]')) {
    figureLabels[dd.dataset.testid] = text(dd.previousElementSibling?.tagName === 'DT' ? dd.previousElementSibling : null);
  }
  const headings = {};
  for (const id of ['sim-heading', 'breakdown-heading', 'matrix-heading', 'matrix-caption', 'hw-heading',
    'arch-heading', 'cmd-heading', 'cmd-vllm-heading', 'related-heading']) {
    headings[id] = text(document.getElementById(id));
  }
  // The hardware table's caption has no id of its own.
  headings['hw-caption'] = text(document.querySelector('#hardware > caption'));
  const rowsOf = (table) => [...(table?.tBodies[0]?.rows ?? [])].map((row) => ({
    key: row.dataset.format ?? row.dataset.device,
    cells: [...row.cells].map((cell) => plain(cell.innerText)),
    values: Object.fromEntries([...row.querySelectorAll('[data-testid]')]
      .map((cell) => [`${cell.dataset.testid}${cell.dataset.context ? `@${cell.dataset.context}` : ''}`,
        cell.getAttribute('data-value')])),
    button: text(row.querySelector('button.row-select')),
  }));
  const headerOf = (table) => [...(table?.tHead?.rows[0]?.cells ?? [])].map((cell) => plain(cell.innerText));
  const matrix = byId('matrix');
  const hardware = document.getElementById('hardware');
  const arch = [...(byId('arch')?.querySelectorAll('dd[data-testid]') ?? [])].map((dd) => ({
    id: dd.dataset.testid, label: text(dd.previousElementSibling), value: text(dd),
  }));
  const commands = {};
  for (const id of ['cmd-vllm', 'cmd-ollama-modelfile', 'cmd-ollama-env']) commands[id] = byId(id)?.textContent ?? null;
  return {
    lang: document.documentElement.lang,
    title: text(byId('title')),
    documentTitle: document.title,
    summary: text(byId('summary')),
    outputs, figureLabels, headings, arch, commands,
    explainBpw: text(document.querySelector('[data-i18n="explain.bpw"]')),
    matrixHeader: headerOf(matrix), matrixRows: rowsOf(matrix),
    hardwareHeader: headerOf(hardware), hardwareRows: rowsOf(hardware),
  };
}

/**
 * Every difference between a page read by readReferenceView() and the reference page in
 * `lang`, as a list (a list is easier to act on than the first mismatch); empty when none.
 */
export function referenceViewDifferences(view, lang) {
  const wrong = [];
  const expectText = (what, actual, reference) => {
    const expected = displayed(lang, reference);
    if (actual !== expected) wrong.push(`${what}: shows ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  };
  // The unrounded data-value must round to the number the reference shows.
  const expectValue = (what, raw, reference) => {
    const value = Number(raw);
    const decimals = referenceDecimals(reference);
    const expected = referenceNumber(reference).toFixed(decimals);
    if (raw === null || raw === '' || !Number.isFinite(value) || value.toFixed(decimals) !== expected) {
      wrong.push(`${what}: data-value ${JSON.stringify(raw)} does not round to ${expected}`);
    }
  };

  if (view.lang !== lang) wrong.push(`<html lang> is ${JSON.stringify(view.lang)}, expected ${lang}`);
  if (lang === 'de') {
    // The English page's title and summary are the page's own wording, not the reference's.
    expectText('h1', view.title, REFERENCE.title);
    expectText('document.title', view.documentTitle, REFERENCE.title);
    expectText('summary', view.summary, REFERENCE.summary);
    for (const [id, reference] of Object.entries(REFERENCE.headings)) expectText(`#${id}`, view.headings[id], reference);
  } else {
    // The English page's own wording, with the reference's numbers: "32B", "61 / 6144" → 61,
    // "151,552 / 32,768" → 32,768.
    const card = Object.fromEntries(REFERENCE.arch.map(([id, , value]) => [id, value]));
    const [total, active] = [card['arch-params-total'], card['arch-params-active']];
    const layers = card['arch-layers'].split(' / ')[0];
    const maxPosition = card['arch-vocab'].split(' / ')[1];
    for (const [what, actual, expected] of [
      ['h1', view.title, 'GLM-4-32B-0414 — VRAM requirements, quantization matrix & GPU guide'],
      ['summary', view.summary, `GLM-4-32B-0414 (Zhipu GLM, MIT) uses a dense transformer architecture with ${total} ` +
        `resident parameters (${active} active per token), ${layers} layers and Grouped-Query Attention (GQA) for up ` +
        `to ${maxPosition} context tokens.`],
      ['#hw-heading', view.headings['hw-heading'],
        'Hardware compatibility & decode speed (GLM-4-32B-0414 @ Q4_K_M, 32K context)'],
      // The same words in both languages.
      ['#cmd-vllm-heading', view.headings['cmd-vllm-heading'], REFERENCE.headings['cmd-vllm-heading']],
    ]) {
      if (actual !== expected) wrong.push(`${what}: shows ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
    }
  }

  expectText('context-value', view.outputs['context-value'].text, REFERENCE.contextValue);
  if (view.outputs['context-value'].value !== String(REFERENCE.contextTokens)) {
    wrong.push(`context-value: data-value ${view.outputs['context-value'].value}, expected ${REFERENCE.contextTokens}`);
  }

  for (const [id, reference] of Object.entries(REFERENCE.simulator)) {
    expectText(id, view.outputs[id].text, reference);
    if (id === 'fit') {
      if (view.outputs.fit.value !== REFERENCE.fitId) {
        wrong.push(`fit: data-value ${view.outputs.fit.value}, expected ${REFERENCE.fitId}`);
      }
    } else if (id === 'kv-saving') {
      expectValue(id, view.outputs[id].value, REFERENCE.kvSaving);
    } else {
      expectValue(id, view.outputs[id].value, reference);
    }
  }
  for (const [id, reference] of Object.entries(REFERENCE.figureLabels)) {
    expectText(`label of ${id}`, view.figureLabels[id], reference);
  }

  expectText('matrix header', view.matrixHeader.join(' | '), REFERENCE.matrixHeader.join(' | '));
  const matrixKeys = view.matrixRows.map((row) => row.key);
  const referenceFormats = REFERENCE.matrix.map(([format]) => format);
  if (matrixKeys.join() !== referenceFormats.join()) {
    wrong.push(`matrix rows are ${matrixKeys.join(', ')}, expected ${referenceFormats.join(', ')}`);
  }
  for (const [format, ...reference] of REFERENCE.matrix) {
    const row = view.matrixRows.find((r) => r.key === format);
    if (!row) continue;
    const [label, bpw, weights, at8k, at32k, at128k, recommended] = reference;
    expectText(`matrix ${format} row`, row.cells.join(' | '), reference.join(' | '));
    expectText(`matrix ${format} button`, row.button, label);
    for (const [context, text] of [['weights', weights], ['8192', at8k], ['32768', at32k], ['131072', at128k]]) {
      expectValue(`matrix ${format} @ ${context}`, row.values[`matrix-cell@${context}`], text);
    }
    if (!bpw || !recommended) wrong.push(`matrix ${format}: the reference row is incomplete`);
  }
  // The recommended class's data-value is the device id (the 8 recommended classes of the
  // reference, by name, are compared as text above).
  const recommendedIds = Object.fromEntries(view.matrixRows.map((row) => [row.key, row.values['matrix-recommended']]));
  for (const [format, id] of Object.entries(REFERENCE.recommendedIds)) {
    if (recommendedIds[format] !== id) wrong.push(`matrix-recommended ${format}: data-value ${recommendedIds[format]}, expected ${id}`);
  }

  expectText('hardware header', view.hardwareHeader.join(' | '), REFERENCE.hardwareHeader.join(' | '));
  const hardwareKeys = view.hardwareRows.map((row) => row.key);
  const referenceDevices = REFERENCE.hardware.map(([device]) => device);
  if (hardwareKeys.join() !== referenceDevices.join()) {
    wrong.push(`hardware rows are ${hardwareKeys.join(', ')}, expected ${referenceDevices.join(', ')}`);
  }
  for (const [device, ...reference] of REFERENCE.hardware) {
    const row = view.hardwareRows.find((r) => r.key === device);
    if (!row) continue;
    const [name, memory, needed, , decode] = reference;
    expectText(`hardware ${device} row`, row.cells.join(' | '), reference.join(' | '));
    expectText(`hardware ${device} button`, row.button, name);
    expectValue(`hw-memory ${device}`, row.values['hw-memory'], memory);
    expectValue(`hw-needed ${device}`, row.values['hw-needed'], needed);
    expectValue(`hw-usage ${device}`, row.values['hw-usage'], /\((\d+)%\)/.exec(needed)[1]);
    expectValue(`hw-decode ${device}`, row.values['hw-decode'], decode);
    const fit = REFERENCE.hardwareFitIds[device];
    if (row.values['hw-fit'] !== fit) wrong.push(`hw-fit ${device}: data-value ${row.values['hw-fit']}, expected ${fit}`);
  }

  const arch = Object.fromEntries(view.arch.map((entry) => [entry.id, entry]));
  for (const [id, label, value] of REFERENCE.arch) {
    if (!arch[id]) {
      wrong.push(`architecture card: no dd[data-testid=${id}]`);
      continue;
    }
    expectText(`${id} label`, arch[id].label, label);
    expectText(id, arch[id].value, value);
  }
  if (!arch['arch-sources']) wrong.push('architecture card: no dd[data-testid=arch-sources]');

  for (const number of REFERENCE.explainBpwNumbers) {
    const shown = displayed(lang, number);
    if (!view.explainBpw?.includes(shown)) wrong.push(`the bpw explanation does not mention ${shown}`);
  }
  // Commands are code, the same in both languages: each fragment stands between whitespace.
  for (const [id, fragments] of Object.entries(REFERENCE.commandLines)) {
    const code = view.commands[id] ?? '';
    for (const fragment of fragments) {
      const escaped = fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
      if (!new RegExp(`(^|\\s)${escaped}(\\s|$)`).test(code)) {
        wrong.push(`${id} lacks the reference's ${JSON.stringify(fragment)}:\n${code}`);
      }
    }
  }

  return wrong;
}
