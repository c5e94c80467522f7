// The architecture of one open-weight model, as its config.json and model card state it.
#ifndef VRAMCALC_MODEL_SPEC_H_
#define VRAMCALC_MODEL_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vramcalc/result.h"
#include "vramcalc/vocab.h"

namespace vramcalc {

enum class Topology : uint8_t { kDense, kMoe };
inline constexpr Named<Topology> kTopologyNames[] = {{Topology::kDense, "dense"},
                                                     {Topology::kMoe, "moe"}};
inline constexpr Vocabulary<Topology> kTopologies{kTopologyNames};

// The model's attention as its card names it. What its layers cache is in the layer groups.
enum class Attention : uint8_t { kMha, kGqa, kMqa, kMla };
inline constexpr Named<Attention> kAttentionNames[] = {
    {Attention::kMha, "mha"}, {Attention::kGqa, "gqa"}, {Attention::kMqa, "mqa"}, {Attention::kMla, "mla"}};
inline constexpr Vocabulary<Attention> kAttentions{kAttentionNames};

// What a group of layers keeps per sequence. The kind names the mechanism (for the card and the
// checks); the memory follows from the group's numbers alone, the same way for every kind:
// per token kv_heads × (key_dim + value_dim) + index_dim elements, up to window_tokens tokens
// when the kind is windowed, plus state_elements per sequence whatever the context. A compressed
// group keeps its window of latents and, beside it, one latent (+ index key) per compress_ratio
// tokens of the whole context.
enum class LayerKind : uint8_t {
  kFull,    // attention over the whole context: keys and values of every KV head
  kWindow,  // sliding-window or chunked attention: the same, for the last window_tokens tokens
  kLatent,  // multi-head latent attention (MLA): one latent of kv_lora_rank + rope dims per token
  kState,   // linear attention or SSM: a fixed recurrent state per sequence, no per-token cache
  kShared,  // reuses the cache of an earlier layer: allocates nothing
  kNone,    // no attention cache at all
  // DeepSeek-V4's compressed attention: a window of latents plus one compressed latent per
  // compress_ratio tokens (ratio 4 with indexer keys, "CSA"; ratio 128 without, "HCA").
  kCompressed,
  // Llama 4's chunked local attention: the tokens of the current chunk of window_tokens
  // (attention_chunk_size). llama.cpp and mlx-lm cache it as a window of that size; vLLM keeps
  // every layer of such a model whole (it switches its hybrid KV cache manager off for it).
  kChunked,
};
// Each kind's rule: what its numbers must hold (ValidateModel checks every group against it).
struct LayerKindRule {
  bool caches_tokens;  // kv_heads, key_dim > 0 (value_dim may be 0: a latent is keys and values)
  bool windowed;       // window_tokens > 0 (and only then)
  bool has_state;      // state_elements > 0 (and only then)
  bool compressed;     // compress_ratio > 1 (and only then)
};
struct LayerKindInfo {
  LayerKind value;
  std::string_view id;
  LayerKindRule rule;
};
inline constexpr LayerKindInfo kLayerKindInfo[] = {
    {LayerKind::kFull, "full", {true, false, false, false}},
    {LayerKind::kWindow, "window", {true, true, false, false}},
    {LayerKind::kLatent, "latent", {true, false, false, false}},
    {LayerKind::kState, "state", {false, false, true, false}},
    {LayerKind::kShared, "shared", {false, false, false, false}},
    {LayerKind::kNone, "none", {false, false, false, false}},
    {LayerKind::kCompressed, "compressed", {true, true, false, true}},
    {LayerKind::kChunked, "chunked", {true, true, false, false}},
};
inline constexpr Vocabulary<LayerKind, LayerKindInfo> kLayerKinds{kLayerKindInfo};

// Consecutive or interleaved layers that cache alike. All counts are per layer.
struct LayerGroup {
  LayerKind kind = LayerKind::kFull;
  int64_t layers = 0;
  // The per-token cache: kv_heads × (key_dim + value_dim) elements per layer. MLA caches one
  // latent "head" of kv_lora_rank + qk_rope_head_dim as its key and no separate value.
  int64_t kv_heads = 0;
  int64_t key_dim = 0;
  int64_t value_dim = 0;
  // A sparse-attention indexer's key per token beside the group's cache (DeepSeek-V3.2, GLM-5:
  // index_head_dim): it holds every token, though attention reads only the top-k it selects.
  int64_t index_dim = 0;
  int64_t window_tokens = 0;   // windowed kinds: the cache stops growing here
  // Compressed groups: one more latent per compress_ratio tokens of the whole context, with the
  // index key (index_dim) kept for those entries only.
  int64_t compress_ratio = 0;
  int64_t state_elements = 0;  // per sequence (recurrent layers: conv + recurrent state)
  // Of state_elements, those kept in float32 whatever the model's dtype: the recurrent state
  // where the config's mamba_ssm_dtype or mamba_ssm_cache_dtype is "float32" (Nemotron-H: also
  // where it names none, vLLM's default for the architecture). Engines that keep a state in the
  // model's dtype keep these in float32 (vLLM's mamba state dtypes; llama.cpp keeps all in F32).
  int64_t state_f32_elements = 0;
  // The attention a naive MHA cache would hold instead, for "the saving against naive MHA":
  // every query head's keys and values (MLA: qk_nope + qk_rope and v_head_dim).
  int64_t query_heads = 0;
  int64_t query_key_dim = 0;
  int64_t query_value_dim = 0;
};

struct MoeSpec {
  int64_t num_experts = 0;        // routed experts per MoE layer
  int64_t experts_per_token = 0;  // routed experts active per token
  int64_t shared_experts = 0;
  // The routed experts' parameters over all layers (0: derived from the total and active
  // counts, estimate.h WeightParamsOf).
  double expert_params = 0;
};

// The weights' bytes as a file states them (a GGUF header's or a safetensors header's tensors,
// summed by what each tensor is; a model description's "weights", hub-import.md), for the one
// format the file is. Under that format they replace the parameters × bits of the format's
// stored bits (estimate.h WeightBytesOf); under every other format the parameters count.
struct MeasuredWeights {
  std::string format;  // the request format id of the file's weights: "Q4_K_M", "BF16", "FP8", "MXFP4"
  std::string file;    // what was read, e.g. "Qwen3-8B-Q4_K_M.gguf" (may be empty)
  double embedding = 0;            // the token embedding
  double per_layer_embedding = 0;  // Gemma's per-layer embeddings (placed like the token embedding)
  double head = 0;                 // the output head; 0 when tied to the embedding
  double attention = 0;            // attention, linear attention and SSM mixers, their norms
  double dense_ffn = 0;            // dense MLPs (all of a dense model's, a MoE model's dense layers)
  double shared_experts = 0;       // MoE shared experts (read by every token)
  double routed_experts = 0;       // MoE routed experts, all of them (a token reads k of n)
  double other = 0;                // the rest of the language model: routers, final norm, biases
  // Not loaded by the estimate's engines with the language model: the vision and audio towers and
  // their projector (llama.cpp's separate mmproj file) and multi-token-prediction layers.
  double vision = 0;
  double mtp = 0;

  // The layers' own bytes but the routed experts': what the estimate calls the body.
  double body() const { return attention + dense_ffn + shared_experts + other; }
  // The language model's bytes: what the engines load as the model.
  double language() const { return embedding + per_layer_embedding + head + body() + routed_experts; }
};

struct Source {
  std::string what;  // which fields it backs, e.g. "architecture", "parameters"
  std::string url;
};

struct ModelSpec {
  std::string id;           // catalog id, e.g. "glm-4-32b-0414"
  std::string name;         // display name, e.g. "GLM-4-32B-0414"
  std::string family;       // e.g. "Zhipu GLM"
  std::string checkpoint;   // Hugging Face repo id
  std::string ollama_tag;   // empty when the Ollama library has no build of this model
  std::string ollama_tag_weights = "Q4_K_M";  // what that tag holds (gpt-oss: "MXFP4")
  // The format the checkpoint is published in, from a config.json's quantization_config (FP8,
  // MXFP4, NVFP4, AWQ_INT4, GPTQ_INT4); empty for 16-bit weights or a method not recognized.
  std::string checkpoint_format;
  std::string license;
  std::string release;      // e.g. "2025-Q2"
  Topology topology = Topology::kDense;
  Attention attention = Attention::kGqa;
  double params_total = 0;   // parameters resident in memory (all experts)
  double params_active = 0;  // parameters read per decoded token (not the per-layer embeddings)
  // Gemma 3n and Gemma 4 E-models: the per-layer embedding table (vocab_size_per_layer_input ×
  // layers × hidden_size_per_layer_input). Part of params_total; like the token embedding a
  // lookup of one row per token, not read whole, and kept in host RAM by llama.cpp (an input
  // tensor, llama-arch.cpp LLM_TENSOR_PER_LAYER_TOKEN_EMBD).
  double per_layer_embedding_params = 0;
  // The vision and audio towers with their projectors into the language model: the checkpoint's
  // parameters beyond params_total (which counts the language model alone) and its MTP layers;
  // 0 for a text-only checkpoint. Engines that load them (runtime_profile.h WeightsPlacement)
  // hold them beside the weights (estimate.h WeightBytes::tower).
  double vision_params = 0;
  // The parameters of the MLP down projections whose rows (the MLP's width, the projection's
  // input) are not a multiple of 256 weights, the block of GGUF's K-quant and IQ types: llama.cpp
  // stores them in a larger type instead (llama-quant.cpp tensor_type_fallback; quant_format.h
  // StoredBits::fallback). Those of the dense and shared MLPs (read by every token) and those of
  // the routed experts; 0 where every width is a multiple of 256.
  double unaligned_params = 0;
  double unaligned_expert_params = 0;
  // When the hidden size is not a multiple of 256, every matrix that reads the hidden state (the
  // attention's query, key and value, the MLPs' gate and up projections, the recurrent mixers'
  // input projections) falls back too (quant_format.h StoredBits::hidden_fallback): their
  // parameters, of the layers read by every token and of the routed experts; 0 otherwise.
  double unaligned_hidden_params = 0;
  double unaligned_hidden_expert_params = 0;
  // The routed experts' down projections, which GGUF K-quant files store in more bits than their
  // gate and up (quant_format.h StoredBits::expert_down); 0: a third of the routed experts, as
  // gate, up and down are alike in size. Experts without a gate (Nemotron-H's relu²) are half.
  double expert_down_params = 0;
  // For a model from a pasted config.json whose parameter count was computed from its
  // architecture: the arithmetic, for the card. Empty for catalog entries.
  std::string params_formula;
  int64_t num_hidden_layers = 0;
  int64_t hidden_size = 0;
  int64_t num_attention_heads = 0;
  int64_t num_key_value_heads = 0;
  int64_t head_dim = 0;
  int64_t vocab_size = 0;
  // The output head reuses the token embedding (one vocab × hidden matrix, not two).
  bool tie_word_embeddings = false;
  int64_t max_position_embeddings = 0;
  std::vector<LayerGroup> layer_groups;  // their layers add up to num_hidden_layers
  std::optional<MoeSpec> moe;
  std::vector<Source> sources;
  // The weights' bytes as the model's file states them (a model description's; catalog entries
  // have none).
  std::optional<MeasuredWeights> weights;

  // Whether a context is longer than the model's own maximum: it is not run there, whatever
  // memory allows (the related models, the sweep).
  bool BeyondMaxPosition(int64_t context_tokens) const { return context_tokens > max_position_embeddings; }

  // The file's measured bytes when the model has them for this request format, else nullptr.
  const MeasuredWeights* WeightsIn(std::string_view format_id) const {
    return weights && weights->format == format_id ? &*weights : nullptr;
  }

  // Whether a GGUF file of this model keeps its routed experts as published, whatever its type:
  // a checkpoint published with MXFP4 experts (gpt-oss), which llama.cpp's converter writes as
  // MXFP4 and dequantizes nothing else (conversion/gpt_oss.py @ 2bbcf7f; engine_memory.cc).
  bool GgufKeepsPublishedExperts() const { return checkpoint_format == "MXFP4"; }

  // Whether the Ollama library's tag holds weights of this GGUF type (else `ollama create` builds
  // it): its build's type, or, where GGUF files keep the published experts and the tag holds the
  // published format, the 16-bit GGUF: Ollama's gpt-oss:20b and :120b, 14 and 65 GB, are that
  // file (12.8 and 60.7 GiB), not the MXFP4_MOE build with a Q8_0 rest (11.3 and 58.9 GiB).
  bool OllamaTagHolds(std::string_view gguf_type) const {
    const bool published = GgufKeepsPublishedExperts() && ollama_tag_weights == checkpoint_format && gguf_type == "BF16";
    return !ollama_tag.empty() && (ollama_tag_weights == gguf_type || published);
  }
};

// The most different window sizes a model's groups may have (the estimate keeps one tier per
// window size, estimate.h KvLayout).
inline constexpr std::size_t kMaxWindowSizes = 7;

// Checks that every number the estimate divides by or multiplies with is present and sane.
// The error's field is the model field's name (e.g. "num_key_value_heads", "layer_groups[1]").
std::optional<Error> ValidateModel(const ModelSpec& model);

}  // namespace vramcalc

#endif  // VRAMCALC_MODEL_SPEC_H_
