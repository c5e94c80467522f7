// The architecture of one open-weight model, as its config.json and model card state it.
#ifndef VRAMCALC_MODEL_SPEC_H_
#define VRAMCALC_MODEL_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vramcalc/result.h"

namespace vramcalc {

enum class Topology { kDense, kMoe };
enum class Attention { kMha, kGqa, kMqa, kMla };

// Multi-head latent attention (DeepSeek-V2/V3): one compressed latent per token and layer.
struct MlaSpec {
  int64_t kv_lora_rank = 0;
  int64_t qk_rope_head_dim = 0;
  int64_t qk_nope_head_dim = 0;
  int64_t v_head_dim = 0;
};

// Layers that attend to a bounded window (sliding window or chunked attention) keep at most
// `window_tokens` tokens of KV cache; the other layers are global and keep all S tokens.
struct SlidingWindowSpec {
  int64_t window_tokens = 0;
  int64_t local_layers = 0;  // how many of num_hidden_layers are windowed
  std::string pattern;       // how they interleave, for display: "5 local : 1 global"
};

struct MoeSpec {
  int64_t num_experts = 0;        // routed experts per MoE layer
  int64_t experts_per_token = 0;  // routed experts active per token
  int64_t shared_experts = 0;
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
  std::string license;
  std::string release;      // e.g. "2025-Q2"
  Topology topology = Topology::kDense;
  Attention attention = Attention::kGqa;
  double params_total = 0;   // parameters resident in memory (all experts)
  double params_active = 0;  // parameters read per decoded token
  // For a model from a pasted config.json whose parameter count was computed from its
  // architecture: the arithmetic, for the card. Empty for catalog entries.
  std::string params_formula;
  int64_t num_hidden_layers = 0;
  int64_t hidden_size = 0;
  int64_t num_attention_heads = 0;
  int64_t num_key_value_heads = 0;
  int64_t head_dim = 0;
  int64_t vocab_size = 0;
  int64_t max_position_embeddings = 0;
  std::optional<MlaSpec> mla;
  std::optional<SlidingWindowSpec> sliding_window;
  std::optional<MoeSpec> moe;
  std::vector<Source> sources;
};

// Checks that every number the estimate divides by or multiplies with is present and sane.
// The error's field is the model field's name (e.g. "num_key_value_heads").
std::optional<Error> ValidateModel(const ModelSpec& model);

}  // namespace vramcalc

#endif  // VRAMCALC_MODEL_SPEC_H_
