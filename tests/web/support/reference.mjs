// The reference page, as data: every string below comes from tests/golden/reference-page.json,
// the table of tests/golden/reference-page.txt (GLM-4-32B-0414, Q4_K_M, 32K context, batch 1,
// FP16 KV, recommended device RTX 3090 24GB; tests/wasm/reference-table.test.mjs checks the
// table against the page). The expected values of the browser tests come from here, never from
// the core.
//
// The reference file has German labels but writes its numbers the English way ("21.78 GB",
// "61,544"). The page formats numbers for the active language with Intl.NumberFormat, so the
// German page shows "21,78 GB" and "61.544": toGerman() below converts a reference string
// explicitly. The English page shows the reference's numbers unchanged, with English labels
// (EN_LABELS). Ids in the first columns (format, device, data-testid) are the page's hooks, not
// text of the reference: format and device ids come from the table ("id"), data-testids are
// named after the table's keys ("kv_cache" → "kv-cache", the card's "params_total" →
// "arch-params-total").
import {
  REFERENCE_PAGE_FILE, REFERENCE_TABLE_FILE, cellsOf, referenceTable as table,
} from '../../support/reference-page.mjs';

export const REFERENCE_FILE = REFERENCE_PAGE_FILE;
export { REFERENCE_TABLE_FILE };

/**
 * A reference string with German number formatting: in every run of digits, the English
 * decimal point becomes a comma and the English thousands comma a point:
 * "21.78 GB" → "21,78 GB", "61,544" → "61.544", "151,552 / 32,768" → "151.552 / 32.768".
 * Separators that are not between two digits stay ("(32B aktiv pro Token), 61 Schichten"),
 * and so do numbers written without grouping ("1008 GB/s", as the reference writes bandwidths).
 */
export function toGerman(text) {
  return text.replace(/\d[\d.,]*\d/g, (number) => number.replace(/[.,]/g, (c) => (c === '.' ? ',' : '.')));
}

/** A reference number as a JS number: "61,544" → 61544, "21.78 GB" → 21.78, "(91%)" → 91. */
export function referenceNumber(text) {
  const match = /\d[\d,]*(?:\.\d+)?/.exec(text);
  if (!match) throw new Error(`no number in reference text ${JSON.stringify(text)}`);
  return Number(match[0].replaceAll(',', ''));
}

/** How many decimals the reference shows for a number: "21.78 GB" → 2, "61,544" → 0. */
export function referenceDecimals(text) {
  const match = /\d[\d,]*(?:\.(\d+))?/.exec(text);
  return match?.[1]?.length ?? 0;
}

/** A key of the table as the page's data-testid: "kv_cache" → "kv-cache". */
const testId = (key) => key.replaceAll('_', '-');
const { simulator, matrix, hardware, architecture, commands } = table;

export const REFERENCE = {
  title: table.title,
  summary: table.summary,
  // By the id of the element that shows them.
  headings: {
    'sim-heading': simulator.heading,
    'breakdown-heading': simulator.breakdown_heading,
    'matrix-heading': matrix.heading,
    'matrix-caption': matrix.caption,
    'hw-heading': hardware.heading,
    'hw-caption': hardware.caption,
    'arch-heading': architecture.heading,
    'cmd-heading': commands.heading,
    'cmd-vllm-heading': commands.vllm.heading,
    'related-heading': table.related.heading,
  },
  // The slider's label: "32,768 Tokens", and its data-value.
  contextValue: simulator.context_label,
  contextTokens: table.scenario.context_tokens,
  // The simulator card, by data-testid: "fit", "share-weights" …, "total", "per-device" …
  simulator: {
    fit: simulator.fit,
    ...Object.fromEntries(Object.entries(simulator.shares).map(([key, { value }]) => [`share-${testId(key)}`, value])),
    ...Object.fromEntries(Object.entries(simulator.figures).map(([key, { value, unit }]) =>
      [testId(key), unit === undefined ? value : `${value} ${unit}`])), // "61,544 Tokens"
    'kv-saving': simulator.kv_saving.text,
  },
  // The fit's data-value, and the KV saving's number ("95.8 %").
  fitId: simulator.fit_id,
  kvSaving: simulator.kv_saving.saving,
  // Labels of the simulator's figures, by the id of the dd they label ("Belegung pro Gerät" is
  // not a dd of the figures).
  figureLabels: Object.fromEntries(Object.entries(simulator.figures).filter(([key]) => key !== 'per_device')
    .map(([key, { label }]) => [testId(key), label])),
  matrixHeader: matrix.header,
  // [format id (page hook), label, bpw, weights only, total @ 8K, @ 32K, @ 128K, recommended class]
  matrix: matrix.rows.map((row) => [row.id, ...cellsOf(row)]),
  // The recommended class's device id (data-value), by format id.
  recommendedIds: Object.fromEntries(matrix.rows.map((row) => [row.id, row.recommended_id])),
  hardwareHeader: hardware.header,
  // [device id (page hook), hardware class, memory · bandwidth, needed (usage), rating, decode]
  hardware: hardware.rows.map((row) => [row.id, ...cellsOf(row)]),
  // The fit cell's data-value, by device id.
  hardwareFitIds: Object.fromEntries(hardware.rows.map((row) => [row.id, row.fit_id])),
  // [dd data-testid (page hook), label, value]
  arch: Object.entries(architecture.fields).map(([key, { label, value }]) => [`arch-${testId(key)}`, label, value]),
  // Numbers of the explanatory paragraph ("4.85 effektive Bits pro Parameter (nicht 4.00), während
  // Q8_0 bei 8.50 bpw liegt"): the page words it differently, so only the numbers are compared.
  explainBpwNumbers: table.explanations.bpw_numbers,
  // Fragments of the quick-start commands that the page's commands share with the reference page,
  // by the data-testid of the code block.
  commandLines: Object.fromEntries(['vllm', 'ollama_modelfile', 'ollama_env']
    .map((key) => [`cmd-${testId(key)}`, commands[key].shared])),
};

/**
 * The English page's words for the reference's German ones (the page's en.json). Numbers are
 * the reference's, unchanged.
 */
export const EN_LABELS = {
  'Knapp (>90 % nutzbar)': 'Tight (>90 % in use)',
  'Passt komfortabel': 'Fits comfortably',
  'Dichter Transformer': 'Dense transformer',
  'Kontext-Tokens': 'context tokens',
  Tokens: 'tokens',
  'Architekturbedingte KV-Komprimierung spart': 'Architectural KV compression saves',
  'gegenüber naiver MHA FP16': 'against naive MHA FP16',
  'Gesamter Speicherbedarf': 'Total memory required',
  Modellgewichte: 'Model weights',
  'KV-Cache (FP16)': 'KV cache (FP16)',
  'Gesch. Einzelstream-Decode': 'Est. single-stream decode',
  'Runtime- & TP-Overhead': 'Runtime & TP overhead',
  'Max. Kontext vor OOM': 'Max. context before OOM',
  'Ollama Tag': 'Ollama tag',
  'License / Release': 'License / release',
  'Topologie & Attention': 'Topology & attention',
  Aufmerksamkeitsmechanismus: 'Attention mechanism',
  'Gesamtparameter (Mrd.)': 'Total parameters (B)',
  'Aktive Parameter / Token (Mrd.)': 'Active parameters / token (B)',
  'Verborgene Schichten / Hidden-Dimension': 'Hidden layers / hidden size',
  'Query-Heads / KV-Heads': 'Query heads / KV heads',
  'Vocab / Max Position': 'Vocab / max position',
  'Präzision / Format': 'Precision / format',
  'Effektive bpw': 'Effective bpw',
  'Nur Gewichte': 'Weights only',
  'Gesamt @': 'Total @',
  'Empfohlene Klasse (@ 32K)': 'Recommended class (@ 32K)',
  'Hardware-Klasse': 'Hardware class',
  'Speicher & Bandbreite': 'Memory & bandwidth',
  'Benötigt (32K)': 'Needed (32K)',
  Bewertung: 'Rating',
  'Gesch. Decode-Rate': 'Est. decode rate',
};

/** A reference string as the English page shows it: English words, the reference's numbers. */
export function toEnglish(text) {
  // Longest phrases first, so "Kontext-Tokens" wins over "Tokens".
  const phrases = Object.keys(EN_LABELS).sort((a, b) => b.length - a.length);
  let out = text;
  for (const phrase of phrases) {
    if (out.includes(phrase)) out = out.replaceAll(phrase, EN_LABELS[phrase]);
  }
  return out;
}

/** A reference string as the page shows it in `lang`. */
export const displayed = (lang, text) => (lang === 'de' ? toGerman(text) : toEnglish(text));
