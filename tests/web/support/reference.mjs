// The reference page, as data: every string below is copied verbatim from
// shared/reference/glm-4-32b-0414.txt (GLM-4-32B-0414, Q4_K_M, 32K context, batch 1, FP16 KV,
// recommended device RTX 3090 24GB). The expected values of the browser tests come from here,
// never from the core.
//
// The reference file has German labels but writes its numbers the English way ("21.78 GB",
// "61,544"). The page formats numbers for the active language with Intl.NumberFormat, so the
// German page shows "21,78 GB" and "61.544": toGerman() below converts a reference string
// explicitly. The English page shows the reference's numbers unchanged, with English labels
// (EN_LABELS). Ids in the first columns (format, device, data-testid) are the page's hooks, not
// text of the reference.

export const REFERENCE_FILE = 'shared/reference/glm-4-32b-0414.txt';

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

export const REFERENCE = {
  title: 'GLM-4-32B-0414 — VRAM-Anforderungen, Quantisierungsmatrix & GPU-Leitfaden',
  summary: 'GLM-4-32B-0414 (Zhipu GLM, MIT) nutzt eine Dichter Transformer-Architektur mit 32B residenten ' +
    'Parametern (32B aktiv pro Token), 61 Schichten und Grouped-Query Attention (GQA) für bis zu 32,768 Kontext-Tokens.',
  headings: {
    'sim-heading': 'Interaktiver Speicher- & Kontextsimulator für GLM-4-32B-0414',
    'breakdown-heading': 'Speicheraufschlüsselung & Bandbreitenlimit',
    'matrix-heading': 'Präzisions- & Quantisierungs-VRAM-Matrix (8K / 32K / 128K Kontext)',
    'matrix-caption':
      'Gesamter GPU-Speicherbedarf nach Gewichtspräzision und Kontextlänge (Batch = 1, FP16-KV-Cache)',
    'hw-heading': 'Hardware-Kompatibilität & Decode-Geschwindigkeit (GLM-4-32B-0414 @ Q4_K_M, 32K Kontext)',
    'arch-heading': 'Geprüfte Transformer-Architekturparameter',
    'cmd-heading': 'Schnellstart-Befehle für vLLM & Ollama (GLM-4-32B-0414)',
    'cmd-vllm-heading': 'vLLM CLI (RTX 3090 24GB)',
    'related-heading': 'Verwandte & ähnlich große Open-Weight-Modelle vergleichen',
  },
  // The slider's label: "32,768 Tokens".
  contextValue: '32,768 Tokens',
  // The simulator card, by data-testid.
  simulator: {
    fit: 'Knapp (>90 % nutzbar)',
    'share-weights': '83%', // "Modellgewichte: 83% KV: 8.8% Overhead: 8.2%"
    'share-kv': '8.8%',
    'share-overhead': '8.2%',
    total: '21.78 GB', // "Gesamter Speicherbedarf 21.78 GB"
    'per-device': '21.78 GB', // "Belegung pro Gerät: 21.78 GB"
    weights: '18.07 GB',
    'kv-cache': '1.91 GB', // "KV-Cache (FP16): 1.91 GB"
    decode: '27.3 tok/s',
    overhead: '1.81 GB', // "Runtime- & TP-Overhead: 1.81 GB"
    'max-context': '61,544 Tokens', // "Max. Kontext vor OOM 61,544 Tokens"
    'kv-saving': 'Architekturbedingte KV-Komprimierung spart 95.8 % gegenüber naiver MHA FP16 (45.75 GB).',
  },
  // Labels of the simulator's figures, by the id of the dd they label.
  figureLabels: {
    total: 'Gesamter Speicherbedarf',
    weights: 'Modellgewichte',
    'kv-cache': 'KV-Cache (FP16)',
    decode: 'Gesch. Einzelstream-Decode',
    overhead: 'Runtime- & TP-Overhead',
    'max-context': 'Max. Kontext vor OOM',
  },
  matrixHeader: ['Präzision / Format', 'Effektive bpw', 'Nur Gewichte', 'Gesamt @ 8K', 'Gesamt @ 32K',
    'Gesamt @ 128K', 'Empfohlene Klasse (@ 32K)'],
  // [format id (page hook), label, bpw, weights only, total @ 8K, @ 32K, @ 128K, recommended class]
  matrix: [
    ['FP16', 'FP16 / BF16', '16.00 bpw', '59.60 GB', '63.13 GB', '64.56 GB', '70.28 GB', 'NVIDIA A100 80GB'],
    ['FP8', 'FP8', '8.50 bpw', '31.66 GB', '34.36 GB', '35.79 GB', '41.50 GB', 'Apple M4 Pro 48GB'],
    ['Q8_0', 'Q8_0', '8.50 bpw', '31.66 GB', '34.36 GB', '35.79 GB', '41.50 GB', 'Apple M4 Pro 48GB'],
    ['Q6_K', 'Q6_K', '6.56 bpw', '24.44 GB', '26.91 GB', '28.34 GB', '34.06 GB', 'RTX 5090 32GB'],
    ['Q5_K_M', 'Q5_K_M', '5.69 bpw', '21.20 GB', '23.57 GB', '25.00 GB', '30.72 GB', 'RTX 5090 32GB'],
    ['Q4_K_M', 'Q4_K_M', '4.85 bpw', '18.07 GB', '20.35 GB', '21.78 GB', '27.50 GB', 'RTX 3090 24GB'],
    ['AWQ_INT4', 'AWQ INT4', '4.50 bpw', '16.76 GB', '19.01 GB', '20.44 GB', '26.16 GB', 'RTX 3090 24GB'],
    ['IQ4_XS', 'IQ4_XS', '4.25 bpw', '15.83 GB', '18.05 GB', '19.48 GB', '25.20 GB', 'RTX 3090 24GB'],
  ],
  hardwareHeader: ['Hardware-Klasse', 'Speicher & Bandbreite', 'Benötigt (32K)', 'Bewertung', 'Gesch. Decode-Rate'],
  // [device id (page hook), hardware class, memory · bandwidth, needed (usage), rating, decode]
  hardware: [
    ['rtx-3090-24gb', 'RTX 3090 24GB', '24 GB · 936 GB/s', '21.78 GB (91%)', 'Knapp (>90 % nutzbar)', '27.3 tok/s'],
    ['rtx-4090-24gb', 'RTX 4090 24GB', '24 GB · 1008 GB/s', '21.78 GB (91%)', 'Knapp (>90 % nutzbar)', '29.4 tok/s'],
    ['rtx-5090-32gb', 'RTX 5090 32GB', '32 GB · 1792 GB/s', '21.78 GB (68%)', 'Passt komfortabel', '52.3 tok/s'],
    ['apple-m-max-64gb', 'Apple M-Max 64GB', '64 GB · 546 GB/s', '21.17 GB (33%)', 'Passt komfortabel', '15.0 tok/s'],
    ['mac-studio-128gb', 'Mac Studio 128GB', '128 GB · 546 GB/s', '21.17 GB (17%)', 'Passt komfortabel', '15.0 tok/s'],
    ['mac-studio-192gb', 'Mac Studio 192GB', '192 GB · 800 GB/s', '21.17 GB (11%)', 'Passt komfortabel', '22.0 tok/s'],
    ['a100-80gb', 'NVIDIA A100 80GB', '80 GB · 2039 GB/s', '21.78 GB (27%)', 'Passt komfortabel', '63.0 tok/s'],
    ['h100-80gb', 'NVIDIA H100 80GB', '80 GB · 3350 GB/s', '21.78 GB (27%)', 'Passt komfortabel', '103.5 tok/s'],
  ],
  // [dd data-testid (page hook), label, value]
  arch: [
    ['arch-checkpoint', 'Checkpoint ID', 'THUDM/GLM-4-32B-0414'],
    ['arch-ollama', 'Ollama Tag', 'glm4:32b'],
    ['arch-license', 'License / Release', 'MIT · 2025-Q2'],
    ['arch-topology', 'Topologie & Attention', 'Dichter Transformer'],
    ['arch-attention', 'Aufmerksamkeitsmechanismus', 'Grouped-Query Attention (GQA)'],
    ['arch-params-total', 'Gesamtparameter (Mrd.)', '32B'],
    ['arch-params-active', 'Aktive Parameter / Token (Mrd.)', '32B'],
    ['arch-layers', 'Verborgene Schichten / Hidden-Dimension', '61 / 6144'],
    ['arch-heads', 'Query-Heads / KV-Heads', '48Q / 2KV (d=128)'],
    ['arch-vocab', 'Vocab / Max Position', '151,552 / 32,768'],
  ],
  // Numbers of the explanatory paragraph ("4.85 effektive Bits pro Parameter (nicht 4.00), während
  // Q8_0 bei 8.50 bpw liegt"): the page words it differently, so only the numbers are compared.
  explainBpwNumbers: ['4.85', '4.00', '8.50'],
  // Lines of the quick-start commands that the page's commands share with the reference page.
  commandLines: {
    'cmd-vllm': ['--tensor-parallel-size 1', '--max-model-len 32768', '--gpu-memory-utilization 0.95',
      '--enable-prefix-caching', '--port 8000'],
    'cmd-ollama-modelfile': ['FROM glm4:32b', 'PARAMETER num_ctx 32768'],
    'cmd-ollama-env': ['OLLAMA_FLASH_ATTENTION=1'],
  },
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
