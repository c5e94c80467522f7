// Which of the core's formats a file is: the request format id its measured bytes stand for
// (wasm/README.md "A model description": weights.format). The formats and which engine offers
// which come from the core's catalog (catalog().formats and .runtimes), never from a copy here.

// A GGUF file is llama.cpp's: its format is one the llamacpp profile lists.
const GGUF_RUNTIME = 'llamacpp';

// GGUF file types without a quantization: llama.cpp's 16-bit format (or wider) stands for them.
const FLOAT_FILE_TYPES = new Set(['F32', 'F16', 'BF16', 'F64']);

// A type the catalog lacks is estimated as the nearest listed format of its family, tried from
// the narrowest family: the K-quant of its bits (Q3_K_S → Q3_K_*), then its bits (Q4_1 → Q4_*,
// IQ2_XS → IQ2_*), then any format.
const FAMILIES = [/^(I?Q\d+_K)/, /^(I?Q\d+)/];

// safetensors dtypes that are a format by themselves (no quantization_config needed).
const DTYPE_FORMATS = { BF16: 'BF16', F16: 'BF16', F32: 'BF16', F64: 'BF16', F8_E4M3: 'FP8', F8_E5M2: 'FP8' };

/** The catalog's format entries ({id, bpw, moe_only, …}) a runtime offers. */
function runtimeFormats(catalog, runtime) {
  const offered = new Set(catalog.runtimes.find((r) => r.id === runtime)?.formats ?? []);
  return catalog.formats.filter((format) => offered.has(format.id));
}

function nearest(formats, bits) {
  return formats.reduce((best, format) => (Math.abs(format.bpw - bits) < Math.abs(best.bpw - bits) ? format : best));
}

/**
 * The format id of a GGUF file.
 * @param {{fileType: string, bitsPerWeight: number, moe: boolean,
 *          catalog: {formats: {id: string, bpw: number, moe_only: boolean}[], runtimes: {id: string, formats: string[]}[]}}} file
 *   `fileType` the file's own type name (general.file_type, e.g. "Q3_K_S"); `bitsPerWeight` its
 *   language model's bytes × 8 / parameters
 * @returns {{id: string, exact: boolean, note: string}} `exact` when the catalog lists the type;
 *   else `note` says which format stands for it
 */
export function ggufFormat({ fileType, bitsPerWeight, moe, catalog }) {
  const formats = runtimeFormats(catalog, GGUF_RUNTIME).filter((format) => moe || !format.moe_only);
  const listed = formats.find((format) => format.id === fileType);
  if (listed) return { id: listed.id, exact: true, note: '' };
  if (FLOAT_FILE_TYPES.has(fileType)) {
    const wide = nearest(formats.filter((format) => format.bpw >= 16), 16);
    return { id: wide.id, exact: false, note: `${fileType} weights are estimated as ${wide.id}, llama.cpp's `
      + `${wide.bpw}-bit format, with the file's own bytes.` };
  }
  let family = formats;
  for (const pattern of FAMILIES) {
    const stem = pattern.exec(fileType)?.[1];
    const members = stem ? formats.filter((format) => format.id.startsWith(stem)) : [];
    if (members.length) {
      family = members;
      break;
    }
  }
  const chosen = nearest(family, bitsPerWeight);
  return { id: chosen.id, exact: false, note: `${fileType} is not among the estimate's GGUF formats; it is estimated as `
    + `${chosen.id}, the nearest listed one, with the file's own bytes.` };
}

/**
 * The format id of a safetensors checkpoint: its quantization as the core read it from the
 * config.json (the model section's checkpoint_format: FP8, MXFP4, NVFP4, AWQ_INT4, GPTQ_INT4),
 * else the dtype holding most of its bytes (BF16, F16 → BF16; F8_E4M3 → FP8).
 * @param {{checkpointFormat: string, bytesByDtype: Record<string, number>, catalog: {formats: {id: string}[]}}} checkpoint
 * @returns {{ok: true, id: string, fileType: string} | {ok: false, error: {field: string, message: string}}}
 *   `fileType` what the checkpoint holds, for display (its format, else its main dtype)
 */
export function safetensorsFormat({ checkpointFormat, bytesByDtype, catalog }) {
  const [dtype] = Object.entries(bytesByDtype).sort((a, b) => b[1] - a[1])[0] ?? ['none'];
  const id = checkpointFormat || DTYPE_FORMATS[dtype];
  if (id && catalog.formats.some((format) => format.id === id)) return { ok: true, id, fileType: checkpointFormat || dtype };
  return {
    ok: false,
    error: {
      field: 'file',
      message: `The checkpoint's weights are mostly ${dtype}, packed by a quantization the estimate does not read `
        + '(its config.json names none of FP8, MXFP4, NVFP4, AWQ or GPTQ at 4 bits).',
    },
  };
}
