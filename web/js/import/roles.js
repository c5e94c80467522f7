// What each tensor of a GGUF file or a safetensors checkpoint is (its role in a model
// description, wasm/README.md "A model description"), and how many bytes and parameters it holds.
// Everything here is a table: a new naming or a new type is a row, never a branch.

/**
 * The roles of a model description's `weights`, in the order the import's lines list them
 * (core/include/vramcalc/model_spec.h MeasuredWeights). `vision` and `mtp` are not part of the
 * language model: the engines load them apart (llama.cpp's mmproj file) or not at all.
 */
export const ROLES = Object.freeze(['embedding', 'per_layer_embedding', 'head', 'attention', 'dense_ffn',
  'shared_experts', 'routed_experts', 'other', 'vision', 'mtp']);

/** The roles outside the language model: counted on their own lines, not in params_total. */
export const APART_ROLES = Object.freeze(['vision', 'mtp']);

// GGUF tensor names, as llama.cpp's gguf-py names them (gguf-py/gguf/constants.py,
// TENSOR_NAMES: token_embd, per_layer_token_embd, output, blk.{bid}.attn_*, ssm_*, time_mix_*,
// shortconv.*, indexer.*, ffn_{gate,up,down}[_exps|_shexp|_chexps], ffn_gate_inp[_shexp],
// exp_probs_b, nextn.*, and the mmproj's v.*, mm.*, a.*; read at ggml-org/llama.cpp
// ef035f779276d5f5636a0fd8cbeff6a83d646d2b). The first row that matches wins. Norms follow
// their block: attn_norm with attention; ffn_norm, post_attention_norm, the routers and the
// final output_norm are `other`, as tests/golden/descriptions/deepseek-v2-lite-mla-f16.json sums
// them.
const GGUF_ROLE_PATTERNS = [
  ['vision', /^(v|mm|a)\./],
  ['mtp', /(^|\.)nextn\./],
  ['per_layer_embedding', /^per_layer_token_embd\./],
  ['embedding', /^(token_embd|position_embd|token_types)\./],
  ['head', /^output\.(weight|bias)$/],
  ['other', /\.ffn_gate_inp(_shexp)?\.|\.exp_probs_b(\.|$)/],
  ['routed_experts', /\.ffn_[a-z_]*_(exps|chexps)(\.|$)/],
  ['shared_experts', /\.ffn_[a-z_]*_shexp(\.|$)/],
  ['dense_ffn', /^blk\.\d+\.ffn_(gate|up|down|gate_up)(\.|$)/],
  ['attention', /^blk\.\d+\.(attn_|ssm_|time_mix_|shortconv\.|indexer\.)/],
];

// Hugging Face checkpoint names, as transformers' modeling files write them (model.embed_tokens
// or Mamba's and Nemotron-H's backbone.embeddings, lm_head, layers.N.self_attn / linear_attn /
// mamba / mixer, mlp.experts.*, mlp.shared_expert(s), mlp.gate / router). Vision and audio towers: llama.cpp's rule for what a text model's
// conversion leaves out ("Skip multimodal tensors", conversion/base.py TextModel.filter_tensors:
// visual., vision., vision_, audio., audio_, projector., patch_embed, merger., resampler., …;
// read at Raudbjorn/ggml-llama.cpp ae1a0b1c71a8b3a86ede8cb5892ed9ce967d00b2). MTP: Qwen3-Next's
// and Qwen3.5's `mtp.*` (the same conversion's _Qwen35MtpMixin); DeepSeek-V3's and GLM-4.5's
// extra layers past num_hidden_layers are found by their index (safetensorsRole's `layers`).
const HF_VISION = new RegExp([
  '(^|\\.)(visual|vision|audio|talker|token2wav|code2wav)\\.', 'vision_', 'audio_', 'projector\\.', 'pre_mm_projector_norm',
  'image_newline', 'patch_embed', 'patch_merger\\.', '(^|\\.)(vit|vpm|siglip2|conformer|merger|resampler|connector)\\.',
].join('|'));
const HF_ROLE_PATTERNS = [
  ['vision', HF_VISION],
  ['mtp', /^(model\.)?mtp\.|\.nextn\./],
  ['per_layer_embedding', /(^|\.)embed_tokens_per_layer\./],
  ['embedding', /(^|\.)(embed_tokens|embeddings|wte|word_embeddings|tok_embeddings)\.(weight|bias)$/],
  ['head', /(^|\.)lm_head\.(weight|bias)$/],
  ['other', /\.(mlp|block_sparse_moe|feed_forward)\.(gate|router)\.|\.shared_expert_gate\./],
  ['routed_experts', /\.experts\./],
  ['shared_experts', /\.(shared_experts?|shared_mlp)\./],
  // Nemotron-H names every block's module "mixer": its MLP blocks are the up and down projections.
  ['dense_ffn', /\.(mlp|feed_forward|ffn)\.|\.mixer\.(up_proj|down_proj|gate_proj)\./],
  ['attention', /\.(self_attn|attention|attn|linear_attn|mamba|mixer|short_conv|conv|input_layernorm)\./],
];

// A block's index in a name (blk.7., layers.7.): layers past the language model's are MTP.
const GGUF_BLOCK = /^blk\.(\d+)\./;
const HF_LAYER = /(^|\.)layers\.(\d+)\./;

function roleFrom(patterns, name) {
  for (const [role, pattern] of patterns) {
    if (pattern.test(name)) return role;
  }
  return 'other';
}

/**
 * The role of a GGUF tensor. `layers` is the language model's block count (blocks past it, the
 * nextn layers llama.cpp appends, are MTP).
 * @param {string} name  e.g. "blk.3.ffn_down_exps.weight"
 * @param {{layers?: number}} [model]
 * @returns {string} one of ROLES
 */
export function ggufRole(name, { layers = Infinity } = {}) {
  const block = GGUF_BLOCK.exec(name);
  if (block && Number(block[1]) >= layers && !/^(v|mm|a)\./.test(name)) return 'mtp';
  return roleFrom(GGUF_ROLE_PATTERNS, name);
}

/**
 * The role of a safetensors tensor. `layers` is the config's num_hidden_layers: a decoder layer
 * past it (DeepSeek-V3's model.layers.61) is an MTP module.
 * @param {string} name  e.g. "model.language_model.layers.0.self_attn.q_proj.weight"
 * @param {{layers?: number}} [model]
 * @returns {string} one of ROLES
 */
export function safetensorsRole(name, { layers = Infinity } = {}) {
  const role = roleFrom(HF_ROLE_PATTERNS, name);
  const layer = HF_LAYER.exec(name);
  if (role !== 'vision' && layer && Number(layer[2]) >= layers) return 'mtp';
  return role;
}

// ggml type id → [name, elements per block, bytes per block]: ggml's type traits, as gguf-py's
// GGML_QUANT_SIZES and @huggingface/gguf 0.4.6's GGML_QUANT_SIZES (src/quant-descriptions.ts,
// which the package does not export) state them. tests/web/import.test.mjs compares the two.
export const GGML_TYPES = Object.freeze({
  0: ['F32', 1, 4], 1: ['F16', 1, 2], 2: ['Q4_0', 32, 18], 3: ['Q4_1', 32, 20], 6: ['Q5_0', 32, 22],
  7: ['Q5_1', 32, 24], 8: ['Q8_0', 32, 34], 9: ['Q8_1', 32, 40], 10: ['Q2_K', 256, 84], 11: ['Q3_K', 256, 110],
  12: ['Q4_K', 256, 144], 13: ['Q5_K', 256, 176], 14: ['Q6_K', 256, 210], 15: ['Q8_K', 256, 292],
  16: ['IQ2_XXS', 256, 66], 17: ['IQ2_XS', 256, 74], 18: ['IQ3_XXS', 256, 98], 19: ['IQ1_S', 256, 50],
  20: ['IQ4_NL', 32, 18], 21: ['IQ3_S', 256, 110], 22: ['IQ2_S', 256, 82], 23: ['IQ4_XS', 256, 136],
  24: ['I8', 1, 1], 25: ['I16', 1, 2], 26: ['I32', 1, 4], 27: ['I64', 1, 8], 28: ['F64', 1, 8],
  29: ['IQ1_M', 256, 56], 30: ['BF16', 1, 2], 34: ['TQ1_0', 256, 54], 35: ['TQ2_0', 256, 66],
  39: ['MXFP4', 32, 17], 40: ['NVFP4', 64, 36], 41: ['Q1_0', 128, 18], 42: ['Q2_0', 64, 18],
});

// safetensors dtype → bytes per stored element (the format's README: its dtypes; sub-byte F4/F6
// pack 2 or 4/3 values per byte). Packed quantized weights (MXFP4 `_blocks` in U8, GPTQ/AWQ
// `qweight` in I32, NVFP4 in U8) and their scales count by their container's bytes.
export const SAFETENSORS_DTYPE_BYTES = Object.freeze({
  BOOL: 1, U8: 1, I8: 1, F8_E5M2: 1, F8_E4M3: 1, F8_E8M0: 1, E8M0: 1, UE8: 1, I16: 2, U16: 2, F16: 2,
  BF16: 2, I32: 4, U32: 4, F32: 4, I64: 8, U64: 8, F64: 8, C64: 8, F4: 0.5, F6_E2M3: 0.75, F6_E3M2: 0.75,
});

/** The product of a shape's dimensions (numbers or BigInts), as a Number. */
export function elementsOf(shape) {
  return shape.reduce((product, dim) => product * Number(dim), 1);
}

/**
 * A GGUF tensor's data bytes: elements / block size × bytes per block of its ggml type; null for
 * a type the table lacks.
 */
export function ggmlTensorBytes(type, elements) {
  const traits = GGML_TYPES[type];
  return traits ? (elements / traits[1]) * traits[2] : null;
}

/** A safetensors tensor's bytes: its dtype's size × elements, else its data_offsets' span. */
export function safetensorsTensorBytes({ dtype, shape, data_offsets: offsets }) {
  const size = SAFETENSORS_DTYPE_BYTES[dtype];
  if (size !== undefined) return size * elementsOf(shape);
  return Array.isArray(offsets) ? offsets[1] - offsets[0] : null;
}

/**
 * Sums tensors by role.
 * @param {Iterable<{role: string, bytes: number, params: number}>} tensors
 * @returns {{role: string, bytes: number, tensors: number, params: number}[]} one line per role
 *   that holds a tensor, in ROLES order
 */
export function linesByRole(tensors) {
  const sums = new Map(ROLES.map((role) => [role, { role, bytes: 0, tensors: 0, params: 0 }]));
  for (const { role, bytes, params } of tensors) {
    const line = sums.get(role);
    line.bytes += bytes;
    line.tensors += 1;
    line.params += params;
  }
  return [...sums.values()].filter((line) => line.tensors > 0);
}
