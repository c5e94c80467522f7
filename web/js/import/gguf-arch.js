// A GGUF header's architecture keys as the config.json the core's importer reads
// (core/src/model/hf_config.cc: its model types and their fields). The core then derives the
// layer groups, the experts and the attention kind, by the same rules as for a pasted
// config.json; nothing here repeats them.
//
// The key names are gguf-py's (gguf-py/gguf/constants.py, Keys.LLM / Keys.Attention /
// Keys.Rope / Keys.SSM, "{arch}." prefixed) and what llama.cpp's convert_hf_to_gguf writes for
// each config.json field (conversion/base.py TextModel.set_gguf_parameters, conversion/qwen.py
// Qwen3NextModel, conversion/deepseek.py DeepseekV2Model, conversion/glm.py Glm4MoeModel,
// conversion/gpt_oss.py, conversion/gemma.py Gemma4Model, conversion/olmo.py, conversion/exaone.py,
// conversion/ernie.py, conversion/command_r.py, conversion/hunyuan.py, conversion/granite.py,
// conversion/nemotron.py, conversion/lfm2.py, conversion/llama.py Llama4Model, conversion/mimo.py; read at
// Raudbjorn/ggml-llama.cpp ae1a0b1c71a8b3a86ede8cb5892ed9ce967d00b2).

/** GGUF key (after "{arch}.") → config.json field, by key set. A row names the sets it uses. */
export const GGUF_KEY_SETS = Object.freeze({
  common: [
    ['block_count', 'num_hidden_layers'], ['embedding_length', 'hidden_size'],
    ['attention.head_count', 'num_attention_heads'], ['attention.head_count_kv', 'num_key_value_heads'],
    ['attention.key_length', 'head_dim'], ['context_length', 'max_position_embeddings'],
    ['feed_forward_length', 'intermediate_size'], ['attention.sliding_window', 'sliding_window'],
  ],
  // Qwen MoE (Qwen2MoeModel): num_experts, moe_intermediate_size, shared_expert_intermediate_size.
  qwenExperts: [
    ['expert_count', 'num_experts'], ['expert_used_count', 'num_experts_per_tok'],
    ['expert_feed_forward_length', 'moe_intermediate_size'],
    ['expert_shared_feed_forward_length', 'shared_expert_intermediate_size'],
  ],
  // Mixtral, gpt-oss, MiniMax-M2: num_local_experts, each as wide as intermediate_size (gpt-oss
  // and MiniMax-M2 write it as expert_feed_forward_length too).
  localExperts: [
    ['expert_count', 'num_local_experts'], ['expert_used_count', 'num_experts_per_tok'],
    ['expert_feed_forward_length', 'intermediate_size'],
  ],
  // DeepSeek, GLM-4.5: routed and shared experts of moe_intermediate_size after the dense layers.
  deepseekExperts: [
    ['expert_count', 'n_routed_experts'], ['expert_used_count', 'num_experts_per_tok'],
    ['expert_shared_count', 'n_shared_experts'], ['expert_feed_forward_length', 'moe_intermediate_size'],
    ['leading_dense_block_count', 'first_k_dense_replace'],
  ],
  // Multi-head latent attention (DeepseekV2Model): the ranks and the rope part of the key.
  latent: [
    ['attention.kv_lora_rank', 'kv_lora_rank'], ['attention.q_lora_rank', 'q_lora_rank'],
    ['rope.dimension_count', 'qk_rope_head_dim'],
  ],
  // ERNIE 4.5 MoE (conversion/ernie.py Ernie4_5MoeModel): its config's own names.
  ernieExperts: [
    ['expert_count', 'moe_num_experts'], ['expert_used_count', 'moe_k'], ['expert_feed_forward_length', 'moe_intermediate_size'],
    ['expert_shared_count', 'moe_num_shared_experts'], ['interleave_moe_layer_step', 'moe_layer_interval'],
  ],
  // Hunyuan-A13B (conversion/hunyuan.py HunYuanMoEModel): the lists moe_topk and num_shared_expert
  // as their one value; each expert as wide as intermediate_size (feed_forward_length).
  hunyuanExperts: [
    ['expert_count', 'num_experts'], ['expert_used_count', 'moe_topk'], ['expert_shared_count', 'num_shared_expert'],
  ],
  // MiMo-V2-Flash (MimoV2Model): its config's DeepSeek-style names.
  mimoExperts: [
    ['expert_count', 'n_routed_experts'], ['expert_used_count', 'num_experts_per_tok'],
    ['expert_feed_forward_length', 'moe_intermediate_size'],
  ],
  // Nemotron-H's experts (conversion/nemotron.py NemotronHModel): DeepSeek-style names, the shared
  // experts' own width.
  nemotronExperts: [
    ['expert_count', 'n_routed_experts'], ['expert_used_count', 'num_experts_per_tok'],
    ['expert_feed_forward_length', 'moe_intermediate_size'], ['expert_shared_count', 'n_shared_experts'],
    ['expert_shared_feed_forward_length', 'moe_shared_expert_intermediate_size'],
  ],
  // DeepSeek Sparse Attention's indexer (DeepseekV32Model, GlmMoeDsaModel).
  indexer: [['attention.indexer.head_count', 'index_n_heads'], ['attention.indexer.key_length', 'index_head_dim']],
  // Gated DeltaNet (Qwen3NextModel.set_gguf_parameters): ssm.state_size is linear_key_head_dim,
  // ssm.group_count linear_num_key_heads, ssm.time_step_rank linear_num_value_heads.
  gatedDeltaNet: [
    ['full_attention_interval', 'full_attention_interval'], ['ssm.conv_kernel', 'linear_conv_kernel_dim'],
    ['ssm.state_size', 'linear_key_head_dim'], ['ssm.group_count', 'linear_num_key_heads'],
    ['ssm.time_step_rank', 'linear_num_value_heads'],
  ],
});

// config.json fields the keys give only through arithmetic, by key set.
const DERIVED = {
  // key_length is nope + rope (older files), or key_length_mla is (llama.cpp's MLA files, whose
  // key_length is then kv_lora_rank + rope); value_length_mla likewise.
  latent: {
    qk_nope_head_dim: (k) => (k['attention.key_length_mla'] ?? k['attention.key_length']) - k['rope.dimension_count'],
    v_head_dim: (k) => k['attention.value_length_mla'] ?? k['attention.value_length'],
  },
  // ssm.inner_size is linear_value_head_dim × linear_num_value_heads.
  gatedDeltaNet: {
    linear_value_head_dim: (k) => k['ssm.inner_size'] / k['ssm.time_step_rank'],
  },
};

/** A per-layer key's entries as numbers (a scalar key: null). */
const perLayer = (value) => (Array.isArray(value) ? value.map(Number) : null);

/** sliding_window_pattern (one boolean per layer, true: sliding) as layer_types. */
function windowPattern(config, raw) {
  const pattern = raw['attention.sliding_window_pattern'];
  if (Array.isArray(pattern)) config.layer_types = pattern.map((s) => (s ? 'sliding_attention' : 'full_attention'));
}

/**
 * OLMo 3's files say "olmo2" (conversion/olmo.py Olmo2Model registers Olmo3ForCausalLM) and are
 * told apart by the window pattern it writes for OLMo 3 alone.
 */
function olmo(config, raw) {
  windowPattern(config, raw);
  if (config.layer_types) config.model_type = 'olmo3';
}

/** ERNIE 4.5 MoE: the dense layers before the experts, 0 too (the core's default is 1). */
function ernie(config, raw) {
  config.moe_layer_start_index = Number(raw.leading_dense_block_count ?? 0);
}

/** The Mamba2 mixer's keys (conversion/granite.py GraniteHybridModel): inner_size is heads × head dim. */
function mamba2(raw) {
  const heads = Number(raw['ssm.time_step_rank']);
  return { heads, headDim: Number(raw['ssm.inner_size']) / heads, conv: Number(raw['ssm.conv_kernel']),
    state: Number(raw['ssm.state_size']), groups: Number(raw['ssm.group_count']) };
}

/**
 * Granite 4.0 H (GraniteHybridModel): head_count_kv per layer, 0 on the Mamba2 layers; the
 * shared MLP's width as expert_shared_feed_forward_length. Its context_length is 2^20, which the
 * converter writes for every hybrid without RoPE in place of max_position_embeddings, and which
 * llama.cpp then accepts.
 */
function graniteHybrid(config, raw) {
  const mixer = mamba2(raw);
  Object.assign(config, {
    layer_types: (perLayer(raw['attention.head_count_kv']) ?? []).map((n) => (n > 0 ? 'attention' : 'mamba')),
    mamba_n_heads: mixer.heads, mamba_d_head: mixer.headDim, mamba_d_conv: mixer.conv, mamba_d_state: mixer.state,
    mamba_n_groups: mixer.groups, shared_intermediate_size: Number(raw.expert_shared_feed_forward_length ?? 0),
  });
}

/**
 * Nemotron-H (conversion/nemotron.py NemotronHModel): the layer pattern is not stored but is the
 * zeros of two per-layer keys (src/models/nemotron-h.cpp): KV heads on attention layers (*), an
 * MLP width on MLP (-) or expert (E) layers, neither on Mamba2 layers (M). Context as Granite's.
 */
function nemotronH(config, raw) {
  const kv = perLayer(raw['attention.head_count_kv']) ?? [];
  const ff = perLayer(raw.feed_forward_length) ?? [];
  const moe = Number(raw.expert_count ?? 0) > 0;
  const mixer = mamba2(raw);
  Object.assign(config, {
    hybrid_override_pattern: kv.map((n, i) => (n > 0 ? '*' : ff[i] > 0 ? (moe ? 'E' : '-') : 'M')).join(''),
    mamba_num_heads: mixer.heads, mamba_head_dim: mixer.headDim, conv_kernel: mixer.conv, ssm_state_size: mixer.state,
    n_groups: mixer.groups,
  });
}

/**
 * LFM2 and LFM2-MoE (conversion/lfm2.py): head_count_kv per layer, 0 on the short-convolution
 * layers; feed_forward_length is the MLP's width after LFM2's auto-adjustment (so no further one);
 * the MoE's dense layers before the experts as leading_dense_block_count.
 */
function lfm2(config, raw) {
  Object.assign(config, {
    layer_types: (perLayer(raw['attention.head_count_kv']) ?? []).map((n) => (n > 0 ? 'full_attention' : 'conv')),
    conv_L_cache: Number(raw['shortconv.l_cache']), block_auto_adjust_ff_dim: false,
  });
  if (raw.leading_dense_block_count !== undefined) config.num_dense_layers = Number(raw.leading_dense_block_count);
}

/**
 * Llama 4 (conversion/llama.py Llama4Model): feed_forward_length is the dense layers' MLP
 * (intermediate_size_mlp) and expert_feed_forward_length each expert's (intermediate_size). The
 * chunked attention is not in the file: llama.cpp takes chunks of 8192 tokens on 3 of every 4
 * layers unless attention.sliding_window is 0 (src/models/llama4.cpp), as Llama 4's configs have it
 * (attention_chunk_size 8192, every 4th layer without RoPE).
 */
function llama4(config, raw) {
  Object.assign(config, {
    intermediate_size_mlp: Number(raw.feed_forward_length), intermediate_size: Number(raw.expert_feed_forward_length),
    interleave_moe_layer_step: Number(raw.interleave_moe_layer_step ?? 1),
  });
  if (raw['attention.sliding_window'] === undefined || Number(raw['attention.sliding_window']) !== 0) {
    Object.assign(config, { attention_chunk_size: 8192, no_rope_layer_interval: 4 });
  }
}

/**
 * MiMo-V2-Flash (conversion/mimo.py MimoV2Model): the window pattern per layer (1: sliding) with
 * the KV heads of each kind, the 3 MTP layers' entries after the model's; its sliding layers have
 * the full ones' query heads and dims (the converter asserts it); which layers have experts is
 * not a key but their tensors (blk.N.ffn_*_exps).
 */
function mimo2(config, raw, tensors) {
  const layers = config.num_hidden_layers;
  const pattern = (perLayer(raw['attention.sliding_window_pattern']) ?? []).slice(0, layers);
  const kv = perLayer(raw['attention.head_count_kv']) ?? [];
  const experts = (i) => tensors.some((t) => t.name.startsWith(`blk.${i}.ffn_`) && /_exps\.weight$/.test(t.name));
  Object.assign(config, {
    hybrid_layer_pattern: pattern, num_key_value_heads: kv[pattern.indexOf(0)], swa_num_key_value_heads: kv[pattern.indexOf(1)],
    v_head_dim: Number(raw['attention.value_length']), swa_head_dim: config.head_dim, swa_v_head_dim: Number(raw['attention.value_length']),
    swa_num_attention_heads: config.num_attention_heads, moe_layer_freq: Array.from({ length: layers }, (_, i) => (experts(i) ? 1 : 0)),
  });
}

/**
 * The Gemma E-models' shared-KV layers and per-layer embeddings (Gemma3NModel, Gemma4Model): the
 * embeddings' vocabulary is per_layer_token_embd's rows (the converter writes no key), else the
 * model's.
 */
function sharedKvAndPerLayerEmbeddings(config, raw, tensors) {
  const table = tensors.find((t) => t.name === 'per_layer_token_embd.weight');
  Object.assign(config, {
    num_kv_shared_layers: Number(raw['attention.shared_kv_layers'] ?? 0),
    hidden_size_per_layer_input: Number(raw.embedding_length_per_layer_input ?? 0),
    vocab_size_per_layer_input: table ? Number(table.shape[1]) : config.vocab_size,
  });
}

/**
 * Gemma 3n (conversion/gemma.py Gemma3NModel): Gemma 3's keys, layer_types as sliding_window_pattern,
 * the shared-KV layers, the per-layer embeddings and AltUp's inputs; LAuReL's rank is not a key
 * but the width of its first projection, blk.0.laurel_l (gguf-py MODEL_TENSOR.LAUREL_L: hidden →
 * rank, stored as [hidden, rank]).
 */
function gemma3n(config, raw, tensors) {
  windowPattern(config, raw);
  sharedKvAndPerLayerEmbeddings(config, raw, tensors);
  const laurel = tensors.find((t) => t.name === 'blk.0.laurel_l.weight');
  Object.assign(config, { altup_num_inputs: Number(raw['altup.num_inputs']), laurel_rank: laurel ? Number(laurel.shape[1]) : undefined });
}

/**
 * Gemma 4 (Gemma4Model.set_gguf_parameters): attention.key_length is global_head_dim (the full
 * layers') and key_length_swa head_dim; sliding_window_pattern is layer_types as booleans (true:
 * sliding); head_count_kv is per layer (num_key_value_heads on sliding layers,
 * num_global_key_value_heads on full ones) exactly where the config sets
 * num_global_key_value_heads, which every Gemma 4 config sets with attention_k_eq_v (31B: 4,
 * 26B-A4B: 2; the E-models neither); feed_forward_length is per layer with use_double_wide_mlp
 * (twice intermediate_size on the last shared_kv_layers layers). The per-layer embeddings' vocabulary
 * is per_layer_token_embd's rows, else the model's.
 */
function gemma4(config, raw, tensors) {
  const sliding = (raw['attention.sliding_window_pattern'] ?? []).map(Boolean);
  const kv = perLayer(raw['attention.head_count_kv']);
  const ff = perLayer(raw.feed_forward_length);
  const experts = Number(raw.expert_count ?? 0);
  windowPattern(config, raw);
  sharedKvAndPerLayerEmbeddings(config, raw, tensors);
  Object.assign(config, {
    head_dim: Number(raw['attention.key_length_swa']), global_head_dim: Number(raw['attention.key_length']),
    num_key_value_heads: kv ? kv[sliding.indexOf(true)] : Number(raw['attention.head_count_kv']),
    attention_k_eq_v: kv !== null,
    intermediate_size: ff ? ff[0] : Number(raw.feed_forward_length),
    use_double_wide_mlp: ff !== null && ff.some((width) => width !== ff[0]),
    enable_moe_block: experts > 0,
  });
  if (kv) config.num_global_key_value_heads = kv[sliding.indexOf(false)];
  if (experts > 0) {
    Object.assign(config, { num_experts: experts, top_k_experts: Number(raw.expert_used_count),
      moe_intermediate_size: Number(raw.expert_feed_forward_length) });
  }
}

/**
 * GGUF general.architecture → the config.json model_type the core reads, the key sets, and
 * config.json fields the GGUF does not carry (`defaults`, each with its source). `moe_type`:
 * the model type when the file has experts (llama.cpp writes Mixtral as "llama"). `finish`:
 * the fields an architecture's per-layer keys give (it reads the keys as stored, arrays whole).
 */
export const GGUF_ARCHITECTURES = Object.freeze({
  llama: { model_type: 'llama', moe_type: 'mixtral', keys: ['common', 'localExperts'] },
  llama4: { model_type: 'llama4_text', keys: ['common', 'localExperts'], finish: llama4 },
  mimo2: { model_type: 'mimo_v2_flash', keys: ['common', 'mimoExperts'], finish: mimo2 },
  mistral3: { model_type: 'ministral3', keys: ['common'] },
  qwen2: { model_type: 'qwen2', keys: ['common'] },
  qwen2moe: { model_type: 'qwen2_moe', keys: ['common', 'qwenExperts'] },
  qwen3: { model_type: 'qwen3', keys: ['common'] },
  qwen3moe: { model_type: 'qwen3_moe', keys: ['common', 'qwenExperts'] },
  qwen3vl: { model_type: 'qwen3_vl_text', keys: ['common'] },
  qwen3vlmoe: { model_type: 'qwen3_vl_moe_text', keys: ['common', 'qwenExperts'] },
  qwen3next: { model_type: 'qwen3_next', keys: ['common', 'qwenExperts', 'gatedDeltaNet'] },
  // Qwen3.5's config.json keeps the recurrent state in float32 (mamba_ssm_dtype,
  // tests/golden/configs/qwen3_5.json); the GGUF does not say.
  qwen35: { model_type: 'qwen3_5_text', keys: ['common', 'gatedDeltaNet'], defaults: { mamba_ssm_dtype: 'float32' } },
  qwen35moe: {
    model_type: 'qwen3_5_moe_text', keys: ['common', 'qwenExperts', 'gatedDeltaNet'],
    defaults: { mamba_ssm_dtype: 'float32' },
  },
  gemma2: { model_type: 'gemma2', keys: ['common'] },
  gemma3: { model_type: 'gemma3_text', keys: ['common'] },
  gemma3n: { model_type: 'gemma3n_text', keys: ['common'], finish: gemma3n },
  gemma4: { model_type: 'gemma4_text', keys: ['common'], finish: gemma4 },
  'gpt-oss': { model_type: 'gpt_oss', keys: ['common', 'localExperts'] },
  'minimax-m2': { model_type: 'minimax_m2', keys: ['common', 'localExperts'] },
  glm4: { model_type: 'glm4', keys: ['common'] },
  glm4moe: { model_type: 'glm4_moe', keys: ['common', 'deepseekExperts'] },
  // DeepSeek V2/V3, Kimi K2 and GLM-4.7-Flash are all "deepseek2" in llama.cpp.
  deepseek2: { model_type: 'deepseek_v2', keys: ['common', 'deepseekExperts', 'latent'] },
  deepseek32: { model_type: 'deepseek_v32', keys: ['common', 'deepseekExperts', 'latent', 'indexer'] },
  'glm-dsa': { model_type: 'glm_moe_dsa', keys: ['common', 'deepseekExperts', 'latent', 'indexer'] },
  phi3: { model_type: 'phi3', keys: ['common'] },
  smollm3: { model_type: 'smollm3', keys: ['common'] },
  seed_oss: { model_type: 'seed_oss', keys: ['common'] },
  olmo2: { model_type: 'olmo2', keys: ['common'], finish: olmo },
  exaone4: { model_type: 'exaone4', keys: ['common'], finish: windowPattern },
  ernie4_5: { model_type: 'ernie4_5', keys: ['common'] },
  // llama.cpp's MoE layers run from leading_dense_block_count to the last layer (moe_layer_end_index
  // is not in the file; src/models/ernie4-5-moe.cpp).
  'ernie4_5-moe': {
    model_type: 'ernie4_5_moe', keys: ['common', 'ernieExperts'], finish: ernie, defaults: { moe_layer_end_index: -1 },
  },
  'command-r': { model_type: 'cohere', keys: ['common'] },
  // No pattern key: llama.cpp takes every 4th layer as global (src/models/cohere2.cpp, swa_period 4),
  // as Cohere2's config.json has it (sliding_window_pattern 4).
  cohere2: { model_type: 'cohere2', keys: ['common'], defaults: { sliding_window_pattern: 4 } },
  'hunyuan-dense': { model_type: 'hunyuan_v1_dense', keys: ['common'] },
  'hunyuan-moe': { model_type: 'hunyuan_v1_moe', keys: ['common', 'hunyuanExperts'] },
  granitehybrid: { model_type: 'granitemoehybrid', keys: ['common', 'localExperts'], finish: graniteHybrid },
  nemotron_h: { model_type: 'nemotron_h', keys: ['common'], finish: nemotronH },
  nemotron_h_moe: { model_type: 'nemotron_h', keys: ['common', 'nemotronExperts'], finish: nemotronH },
  lfm2: { model_type: 'lfm2', keys: ['common'], finish: lfm2 },
  lfm2moe: { model_type: 'lfm2_moe', keys: ['common', 'qwenExperts'], finish: lfm2 },
});

// Architectures whose files are not a language model.
const NOT_A_LANGUAGE_MODEL = {
  clip: 'is a vision or audio projector (an mmproj file), not a language model: import the model\'s own GGUF, '
    + 'and an mmproj file beside it is counted on the vision line',
};

/** A key's value: a per-layer array counts by its largest entry (the attention layers'). */
function scalar(value) {
  if (Array.isArray(value)) return value.length ? Math.max(...value.map(Number)) : undefined;
  return typeof value === 'bigint' ? Number(value) : value;
}

/** The file's "{arch}.*" keys without the prefix, as stored. */
function archKeys(metadata, arch) {
  const prefix = `${arch}.`;
  const keys = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (key.startsWith(prefix)) keys[key.slice(prefix.length)] = value;
  }
  return keys;
}

/** The vocabulary: the embedding's rows, else the tokenizer's list (which files may trim). */
function vocabSize(keys, metadata, tensors) {
  if (keys.vocab_size) return keys.vocab_size;
  const embedding = tensors.find((t) => t.name === 'token_embd.weight');
  if (embedding?.shape?.length === 2) return Number(embedding.shape[1]);
  const tokens = metadata['tokenizer.ggml.tokens'];
  return Array.isArray(tokens) && tokens.length ? tokens.length : undefined;
}

function fail(message) {
  return { ok: false, error: { field: 'file', message } };
}

/** The architectures this module reads, sorted (for messages and the page). */
export function supportedGgufArchitectures() {
  return Object.keys(GGUF_ARCHITECTURES).sort();
}

/**
 * A config.json-like object from a GGUF header, for the core's importer.
 * @param {Record<string, unknown>} metadata  the header's key/value pairs (@huggingface/gguf)
 * @param {{name: string, shape: (number|bigint)[]}[]} tensors  every tensor of the file (all shards)
 * @returns {{ok: true, arch: string, config: object, layers: number} |
 *           {ok: false, error: {field: string, message: string}}}
 *   `layers`: the language model's blocks (block_count less the nextn/MTP blocks llama.cpp appends)
 */
export function configFromGguf(metadata, tensors) {
  const arch = metadata['general.architecture'];
  if (typeof arch !== 'string' || arch === '') return fail('The GGUF file names no architecture (general.architecture).');
  if (NOT_A_LANGUAGE_MODEL[arch]) return fail(`This GGUF file ("${arch}") ${NOT_A_LANGUAGE_MODEL[arch]}.`);
  const row = GGUF_ARCHITECTURES[arch];
  if (!row) {
    return fail(`The GGUF architecture "${arch.slice(0, 40)}" is not supported yet; supported: `
      + `${supportedGgufArchitectures().join(', ')}.`);
  }
  const raw = archKeys(metadata, arch);
  const keys = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, scalar(value)]));
  const hasExperts = (keys.expert_count ?? 0) > 0;
  const config = { model_type: hasExperts && row.moe_type ? row.moe_type : row.model_type, ...row.defaults };
  for (const set of row.keys) {
    for (const [key, field] of GGUF_KEY_SETS[set]) {
      if (keys[key] !== undefined && keys[key] !== 0) config[field] = keys[key];
    }
    for (const [field, derive] of Object.entries(DERIVED[set] ?? {})) {
      const value = derive(keys);
      if (Number.isFinite(value)) config[field] = value;
    }
  }
  const layers = (keys.block_count ?? 0) - (keys.nextn_predict_layers ?? 0);
  config.num_hidden_layers = layers;
  config.vocab_size = vocabSize(keys, metadata, tensors);
  config.tie_word_embeddings = !tensors.some((t) => t.name === 'output.weight');
  row.finish?.(config, raw, tensors);
  return { ok: true, arch, config, layers };
}
