// Hugging Face config.json → ModelSpec, parsed by nlohmann/json and read through json_value.h.
//
// Every supported model_type is a row of kModelTypes: which rule finds its windowed layers,
// how its experts are named and sized, whether its attention is a latent (MLA), its embedding
// default and transformers' defaults for fields it may omit. The shared code reads the common
// fields, turns the row's findings into layer groups and counts the parameters; a new model
// type is a row (and, for a new arrangement, one rule function), never a branch here.
#include "vramcalc/hf_config.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/json_value.h"  // up a layer: a config.json is JSON text, read at the edge
#include "model/hf_config_internal.h"
#include "model/problems.h"
#include "vramcalc/display.h"
#include "vramcalc/vocab.h"

namespace vramcalc {
namespace {

using json::Value;

Value NoDefaults();

// Field access with the config's own names in every message. A key set to null is "not set".
// A field that is missing or wrong is recorded in `problems` (internal/problems.h) and read as a
// harmless value (1, the fallback): each reading step below returns at its next check.
class Config {
 public:
  // `within`: the object's key in the config ("vision_config."), for the fields' names.
  Config(Value object, Value defaults, internal::Problems& problems, std::string_view within = {})
      : object_(object), defaults_(defaults), problems_(&problems), within_(within) {}

  void Fail(const std::string& field, const std::string& message) const {
    problems_->Fail("invalid_config", field.empty() ? "model" : "model." + std::string(within_) + field, message);
  }
  bool failed() const { return static_cast<bool>(*problems_); }
  // A nested object (quantization_config, audio_config), its problems recorded with this one's.
  Config Nested(Value object, std::string_view within = {}) const {
    return Config(object, NoDefaults(), *problems_, within);
  }

  bool Has(const char* key) const { return static_cast<bool>(Get(key)); }

  int64_t Count(const char* key) const {
    const Value value = Get(key);
    if (!value) {
      Fail(key, std::string(key) + " is missing from the config.");
      return 1;
    }
    return CountValue(key, value);
  }
  int64_t CountOr(const char* key, int64_t fallback) const {
    const Value value = Get(key);
    return value ? CountValue(key, value) : fallback;
  }
  // A count that may be 0 and may be left out (then 0), e.g. num_kv_shared_layers.
  int64_t CountOrZero(const char* key) const {
    const Value value = Get(key);
    if (value && value.IsInteger() && value.Integer() == 0) return 0;
    return value ? CountValue(key, value) : 0;
  }
  bool Flag(const char* key, bool fallback) const {
    const Value value = Get(key);
    if (!value) return fallback;
    if (value.type() != json::Type::kBool) {
      Fail(key, std::string(key) + " must be true or false.");
      return fallback;
    }
    return value.Bool();
  }
  std::string Text(const char* key) const {
    const Value value = Get(key);
    return value && value.IsString() ? std::string(value.String()) : "";
  }
  Value Raw(const char* key) const { return Get(key); }

 private:
  Value Get(const char* key) const {
    const Value value = object_.Find(key);
    if (value && !value.IsNull()) return value;
    return defaults_.Find(key);
  }
  int64_t CountValue(const char* key, Value value) const {
    if (!value.IsInteger() || value.Integer() <= 0 || value.Integer() > (int64_t{1} << 40)) {
      Fail(key, std::string(key) + " must be a positive whole number, not " +
                    std::string(Clipped(value.Source(), 40)) + ".");
      return 1;
    }
    return value.Integer();
  }
  Value object_;
  Value defaults_;
  internal::Problems* problems_;
  std::string_view within_;
};

// What a config says beyond ModelSpec's common fields: the latent, the windowed layers and
// the expert layout, as the type's rules find them.
struct Shape {
  struct Latent {
    int64_t kv_lora_rank, qk_rope_head_dim, qk_nope_head_dim, v_head_dim;
    int64_t index_dim = 0, index_heads = 0;  // DeepSeek Sparse Attention's indexer (V3.2, GLM-5)
  };
  std::optional<Latent> latent;
  int64_t window = 0;        // tokens a windowed layer keeps
  int64_t local_layers = 0;  // how many layers are windowed
  bool chunked = false;      // the windowed layers attend within chunks (Llama 4)
  std::string pattern;       // how they interleave, for the layer group's note
  // Experts, in parameters: one routed expert, all shared experts of a layer, the layers with
  // experts, and a dense layer's MLP when a type sizes it apart.
  double expert = 0;
  double shared = 0;
  double moe_layers = 0;
  double dense_layer_mlp = 0;
  double mlp_matrices = 3;  // per MLP: gate, up and down (SwiGLU); relu² MLPs (Nemotron-H) 2
  // Hybrids: how many layers attend (-1: all), how many keep a recurrent state instead (linear
  // attention, SSM) with its elements per sequence and its mixer's parameters, how many carry a
  // dense MLP (-1: those without experts) and whether attention has an output gate.
  int64_t attention_layers = -1;
  int64_t state_layers = 0;
  int64_t state_elements = 0;
  int64_t state_f32_elements = 0;  // of state_elements, kept in float32 (model_spec.h)
  double state_mixer = 0;
  double state_input = 0;  // of its mixer, the input projections (they read the hidden state)
  int64_t dense_ffn_layers = -1;
  bool attention_gate = false;
  // DeepSeek-V4's compressed attention: how many layers keep each compress ratio (0: the window
  // only), and what its family sizes itself: each attention layer's weights and the rest (the
  // compressors and indexers), with their name for the formula.
  std::vector<std::pair<int64_t, int64_t>> compressed;  // (ratio, layers)
  int64_t compressed_index_dim = 0;                     // the ratio-4 layers' indexer key
  double attention_params = 0;
  double extra_params = 0;
  std::string extra_label;
  // Gemma 4: the global layers' own KV heads and head size, the last layers that reuse an
  // earlier layer's KV, all layers' attention weights when they differ by type (-1: uniform),
  // and the per-layer embedding table.
  int64_t global_kv_heads = 0, global_head_dim = 0;
  // MiMo-V2-Flash: the value head size when it is not head_dim, and the windowed layers' own
  // query heads, KV heads and key and value sizes (0: as the other layers').
  int64_t value_dim = 0;
  int64_t local_query_heads = 0, local_kv_heads = 0, local_key_dim = 0, local_value_dim = 0;
  int64_t kv_shared_layers = 0;
  double attention_sum = -1;
  double per_layer_embedding = 0;
};

// The config's layer_types, one string per hidden layer (none when they are not).
std::vector<std::string_view> LayerTypes(const Config& c, const ModelSpec& m) {
  const Value kinds = c.Raw("layer_types");
  if (!kinds.IsArray() || static_cast<int64_t>(kinds.size()) != m.num_hidden_layers) {
    c.Fail("layer_types", "layer_types must list one entry per hidden layer (" + std::to_string(m.num_hidden_layers) + ").");
    return {};
  }
  std::vector<std::string_view> types;
  for (const Value entry : kinds.Children()) {
    if (!entry.IsString()) {
      c.Fail("layer_types", "layer_types must hold strings.");
      return {};
    }
    types.push_back(entry.String());
  }
  return types;
}

// ---- windowed layers, by rule ------------------------------------------------------------

void NoWindow(const Config&, const ModelSpec&, Shape&) {}

// Gemma 2, gpt-oss: layers 0, 2, 4, … use the window.
void AlternatingWindow(const Config& c, const ModelSpec& m, Shape& shape) {
  shape.window = c.Count("sliding_window");
  shape.local_layers = (m.num_hidden_layers + 1) / 2;
  shape.pattern = "alternating local / global";
}

// Gemma 3: every sliding_window_pattern-th layer is global.
void EveryNthGlobal(const Config& c, const ModelSpec& m, Shape& shape) {
  shape.window = c.Count("sliding_window");
  const int64_t every = c.CountOr("sliding_window_pattern", 6);
  shape.local_layers = m.num_hidden_layers - m.num_hidden_layers / every;
  shape.pattern = std::to_string(every - 1) + " local : 1 global";
}

// OLMo 3 without layer_types: transformers' Olmo3Config makes every 4th layer full attention
// ("sliding_attention" if (i + 1) % 4 != 0), the others windowed.
void EveryFourthGlobal(const Config& c, const ModelSpec& m, Shape& shape) {
  shape.window = c.Count("sliding_window");
  shape.local_layers = m.num_hidden_layers - m.num_hidden_layers / 4;
  shape.pattern = "3 local : 1 global";
}

// Qwen: with use_sliding_window, the layers from max_window_layers on.
void QwenWindow(const Config& c, const ModelSpec& m, Shape& shape) {
  if (!c.Flag("use_sliding_window", false)) return;
  shape.window = c.Count("sliding_window");
  shape.local_layers = m.num_hidden_layers - std::min(m.num_hidden_layers, c.CountOr("max_window_layers", m.num_hidden_layers));
  shape.pattern = "layers from max_window_layers on";
}

// Mistral, Mixtral, Phi-3: a sliding_window applies to every layer.
void WindowOnEveryLayer(const Config& c, const ModelSpec& m, Shape& shape) {
  if (!c.Has("sliding_window")) return;
  shape.window = c.Count("sliding_window");
  shape.local_layers = m.num_hidden_layers;
  shape.pattern = "every layer";
}

// Llama 4: chunked attention on all but every no_rope_layer_interval-th layer.
void ChunkedAttention(const Config& c, const ModelSpec& m, Shape& shape) {
  if (!c.Has("attention_chunk_size")) return;
  shape.window = c.Count("attention_chunk_size");
  shape.chunked = true;
  const int64_t every = c.CountOr("no_rope_layer_interval", 4);
  shape.local_layers = m.num_hidden_layers - m.num_hidden_layers / every;
  shape.pattern = std::to_string(every - 1) + " chunked : 1 global";
}

// ---- experts, by naming -------------------------------------------------------------------

struct Experts {
  int64_t count = 0, per_token = 0, shared = 0;
};

Experts NoExperts(const Config&, const ModelSpec&, Shape&) { return {}; }

// Mixtral, gpt-oss: num_local_experts on every layer, each as wide as intermediate_size.
Experts LocalExperts(const Config& c, const ModelSpec& m, Shape& shape) {
  const int64_t per_token = c.Has("num_experts_per_tok") ? c.Count("num_experts_per_tok") : c.Count("experts_per_token");
  const Experts experts{c.Count("num_local_experts"), per_token, 0};
  shape.expert = 3 * static_cast<double>(m.hidden_size) * static_cast<double>(c.Count("intermediate_size"));
  shape.moe_layers = static_cast<double>(m.num_hidden_layers);
  return experts;
}

// Llama 4: local experts plus one shared expert, on every interleave_moe_layer_step-th layer;
// the dense layers' MLP is intermediate_size_mlp wide.
Experts Llama4Experts(const Config& c, const ModelSpec& m, Shape& shape) {
  Experts experts = LocalExperts(c, m, shape);
  experts.shared = 1;
  shape.shared = shape.expert;
  const int64_t step = c.CountOr("interleave_moe_layer_step", 1);
  shape.moe_layers = std::floor(static_cast<double>(m.num_hidden_layers) / static_cast<double>(step));
  shape.dense_layer_mlp = 3 * static_cast<double>(m.hidden_size) *
                          static_cast<double>(c.CountOr("intermediate_size_mlp", c.Count("intermediate_size")));
  return experts;
}

// Qwen MoE: num_experts of moe_intermediate_size, and a shared expert when it is sized.
Experts QwenExperts(const Config& c, const ModelSpec& m, Shape& shape) {
  const Experts experts{c.Count("num_experts"), c.Count("num_experts_per_tok"),
                        c.Has("shared_expert_intermediate_size") ? 1 : 0};
  const double h = static_cast<double>(m.hidden_size);
  shape.expert = 3 * h * static_cast<double>(c.Count("moe_intermediate_size"));
  if (c.Has("shared_expert_intermediate_size")) {
    shape.shared = 3 * h * static_cast<double>(c.Count("shared_expert_intermediate_size"));
  }
  shape.moe_layers = static_cast<double>(m.num_hidden_layers);
  return experts;
}

// DeepSeek: n_routed_experts and n_shared_experts, all moe_intermediate_size wide, on the
// layers after the first first_k_dense_replace.
Experts DeepSeekExperts(const Config& c, const ModelSpec& m, Shape& shape) {
  const Experts experts{c.Count("n_routed_experts"), c.Count("num_experts_per_tok"), c.CountOr("n_shared_experts", 0)};
  shape.expert = 3 * static_cast<double>(m.hidden_size) * static_cast<double>(c.Count("moe_intermediate_size"));
  shape.shared = static_cast<double>(experts.shared) * shape.expert;
  shape.moe_layers = static_cast<double>(m.num_hidden_layers) -
                     static_cast<double>(std::min(m.num_hidden_layers, c.CountOr("first_k_dense_replace", 0)));
  return experts;
}

// ERNIE 4.5 MoE: moe_num_experts of moe_intermediate_size, moe_k per token, and
// moe_num_shared_experts as one MLP that many times as wide, on the layers i from
// moe_layer_start_index to moe_layer_end_index (-1: the last) with (i + 1) % moe_layer_interval
// == 0; the others a dense MLP of intermediate_size (transformers' Ernie4_5_MoeDecoderLayer and
// Ernie4_5_MoeSparseMoeBlock).
Experts ErnieExperts(const Config& c, const ModelSpec& m, Shape& shape) {
  const Experts experts{c.Count("moe_num_experts"), c.Count("moe_k"), c.CountOrZero("moe_num_shared_experts")};
  const double expert_width = static_cast<double>(c.Count("moe_intermediate_size"));
  shape.expert = 3 * static_cast<double>(m.hidden_size) * expert_width;
  shape.shared = static_cast<double>(experts.shared) * shape.expert;
  const int64_t start = c.CountOrZero("moe_layer_start_index"), interval = c.Count("moe_layer_interval");
  const Value last = c.Raw("moe_layer_end_index");
  const bool to_the_end = last && last.IsInteger() && last.Integer() == -1;
  const int64_t end = to_the_end ? m.num_hidden_layers - 1 : c.CountOrZero("moe_layer_end_index");
  int64_t layers = 0;
  for (int64_t i = start; i <= std::min(end, m.num_hidden_layers - 1); ++i) layers += (i + 1) % interval == 0 ? 1 : 0;
  shape.moe_layers = static_cast<double>(layers);
  return experts;
}

// LFM2-MoE: num_experts of moe_intermediate_size, num_experts_per_tok per token, on the layers
// after the first num_dense_layers (whose MLP ShortConvHybrid sizes; transformers' Lfm2MoeConfig).
Experts Lfm2MoeExperts(const Config& c, const ModelSpec& m, Shape& shape) {
  shape.expert = 3 * static_cast<double>(m.hidden_size) * static_cast<double>(c.Count("moe_intermediate_size"));
  shape.moe_layers = static_cast<double>(m.num_hidden_layers - std::min(m.num_hidden_layers, c.CountOrZero("num_dense_layers")));
  return Experts{c.Count("num_experts"), c.Count("num_experts_per_tok"), 0};
}

// A count that a config gives once or per layer (Hunyuan's num_experts, moe_topk): per-layer lists
// must agree, the importer keeping one expert layout for all layers.
int64_t UniformCount(const Config& c, const char* key) {
  const Value value = c.Raw(key);
  if (!value || !value.IsArray()) return c.Count(key);
  int64_t first = 0;
  for (const Value entry : value.Children()) {
    const int64_t n = entry.IsInteger() ? entry.Integer() : 0;
    if (n <= 0 || (first != 0 && n != first)) {
      c.Fail(key, std::string(key) + " must be one positive count, or the same for every layer (differing counts are not supported).");
      return 1;
    }
    first = n;
  }
  if (first == 0) c.Fail(key, std::string(key) + " must not be an empty list.");
  return first == 0 ? 1 : first;
}

// Hunyuan MoE (hunyuan_v1_moe): on every layer num_experts experts, moe_topk per token, and one
// shared MLP, all intermediate_size wide (transformers' HunYuanMoEV1Moe: its experts and its
// shared_mlp are LlamaMLPs of the config's intermediate_size).
Experts HunyuanExperts(const Config& c, const ModelSpec& m, Shape& shape) {
  shape.expert = 3 * static_cast<double>(m.hidden_size) * static_cast<double>(c.Count("intermediate_size"));
  shape.shared = shape.expert;
  shape.moe_layers = static_cast<double>(m.num_hidden_layers);
  return Experts{UniformCount(c, "num_experts"), UniformCount(c, "moe_topk"), 1};
}

// ---- mixers other than attention, by family ---------------------------------------------------

void AllAttention(const Config&, const ModelSpec&, Shape&) {}

// Gated DeltaNet hybrids (Qwen3-Next, Qwen3.5, Qwen3.6): layer_types marks the linear_attention
// layers, else every full_attention_interval-th layer is full attention. A linear layer keeps a
// conv state of (kernel − 1) × (2 × key heads × key dim + value heads × value dim) and a
// recurrent state of value heads × key dim × value dim per sequence (vLLM's
// gated_delta_net_state_shape); its weights are in_proj_qkvz, in_proj_ba, the depthwise conv
// and out_proj. Full attention has an output gate: q_proj is twice as wide.
void GatedDeltaNet(const Config& c, const ModelSpec& m, Shape& shape) {
  int64_t linear = 0;
  if (c.Has("layer_types")) {
    for (const std::string_view kind : LayerTypes(c, m)) linear += kind == "linear_attention" ? 1 : 0;
  } else {
    linear = m.num_hidden_layers - m.num_hidden_layers / c.Count("full_attention_interval");
  }
  const int64_t kernel = c.Count("linear_conv_kernel_dim");
  const int64_t nk = c.Count("linear_num_key_heads"), dk = c.Count("linear_key_head_dim");
  const int64_t nv = c.Count("linear_num_value_heads"), dv = c.Count("linear_value_head_dim");
  const int64_t conv_channels = 2 * nk * dk + nv * dv;
  const double h = static_cast<double>(m.hidden_size);
  shape.attention_layers = m.num_hidden_layers - linear;
  shape.state_layers = linear;
  shape.state_elements = (kernel - 1) * conv_channels + nv * dk * dv;
  if (c.Text("mamba_ssm_dtype") == "float32") shape.state_f32_elements = nv * dk * dv;
  shape.state_input = h * static_cast<double>(2 * nk * dk + 2 * nv * dv + 2 * nv);
  shape.state_mixer = shape.state_input + h * static_cast<double>(nv * dv) + static_cast<double>(conv_channels * kernel);
  shape.attention_gate = c.Flag("attn_output_gate", true);
}

// Nemotron-H: hybrid_override_pattern names each layer, M Mamba2, * attention, E experts, - MLP
// (some configs list layers_block_type: mamba, attention, moe, mlp, as those letters).
char BlockLetter(Value kind) {
  const std::string_view k = kind.IsString() ? kind.String() : "";
  return k == "mamba" ? 'M' : k == "attention" ? '*' : k == "moe" ? 'E' : k == "mlp" ? '-' : '?';
}

std::string NemotronPattern(const Config& c, const ModelSpec& m) {
  std::string pattern = c.Text("hybrid_override_pattern");
  const Value blocks = c.Raw("layers_block_type");
  const bool listed = pattern.empty() && blocks && blocks.IsArray();
  if (listed) {
    for (const Value kind : blocks.Children()) pattern += BlockLetter(kind);
  }
  const char* field = listed ? "layers_block_type" : "hybrid_override_pattern";
  if (static_cast<int64_t>(pattern.size()) != m.num_hidden_layers ||
      pattern.find_first_not_of("M*E-") != std::string::npos) {
    c.Fail(field, std::string(field) + " must give each of the " + std::to_string(m.num_hidden_layers) +
                      " layers one of M (mamba), * (attention), E (moe) and - (mlp).");
    return "";
  }
  return pattern;
}

// A Mamba2 layer keeps (conv_kernel − 1) × (inner + 2 × n_groups × state) conv and heads ×
// head dim × state SSM elements per sequence (vLLM's mamba2_state_shape), inner = heads × head
// dim; its weights are in_proj (z, x, B, C, dt), the conv and out_proj. Returns the SSM part.
struct Mamba2Dims {
  int64_t heads, head_dim, groups, state, kernel;
};
int64_t Mamba2Mixer(const Mamba2Dims& d, const ModelSpec& m, Shape& shape) {
  const int64_t inner = d.heads * d.head_dim;
  const int64_t conv_channels = inner + 2 * d.groups * d.state;
  shape.state_elements = (d.kernel - 1) * conv_channels + inner * d.state;
  shape.state_input = static_cast<double>(m.hidden_size) * static_cast<double>(inner + conv_channels + d.heads);
  shape.state_mixer = shape.state_input + static_cast<double>(m.hidden_size) * static_cast<double>(inner) +
                      static_cast<double>(conv_channels * d.kernel);
  return inner * d.state;
}

// Nemotron-H's Mamba2 layers, its attention layers and its MLPs, which are relu² (up and down,
// no gate).
void Mamba2Hybrid(const Config& c, const ModelSpec& m, Shape& shape) {
  const std::string pattern = NemotronPattern(c, m);
  const auto count = [&pattern](char kind) { return static_cast<int64_t>(std::count(pattern.begin(), pattern.end(), kind)); };
  const int64_t ssm = Mamba2Mixer({c.Count("mamba_num_heads"), c.Count("mamba_head_dim"), c.Count("n_groups"),
                                   c.Count("ssm_state_size"), c.Count("conv_kernel")}, m, shape);
  shape.attention_layers = count('*');
  shape.state_layers = count('M');
  // The SSM state in float32 unless the config names another type (vLLM's default for Nemotron-H).
  const std::string ssm_dtype = c.Text("mamba_ssm_cache_dtype");
  if (ssm_dtype.empty() || ssm_dtype == "float32") shape.state_f32_elements = ssm;
  shape.dense_ffn_layers = count('-');
  shape.mlp_matrices = 2;
  if (shape.dense_ffn_layers > 0) shape.dense_layer_mlp = 2 * static_cast<double>(m.hidden_size) * static_cast<double>(c.Count("intermediate_size"));
  shape.moe_layers = static_cast<double>(count('E'));  // NemotronExperts sizes their experts
}

// Granite 4.0 H (granitemoehybrid): layer_types marks the Mamba2 ("mamba") and attention layers;
// the Mamba2 sizes are mamba_n_heads, mamba_d_head ("auto": mamba_expand × hidden_size / heads),
// mamba_n_groups, mamba_d_state and mamba_d_conv (transformers' GraniteMoeHybridConfig). Every
// layer has a SwiGLU shared MLP of shared_intermediate_size (GraniteExperts adds the routed ones).
void GraniteMamba2Hybrid(const Config& c, const ModelSpec& m, Shape& shape) {
  int64_t mamba = 0;
  for (const std::string_view kind : LayerTypes(c, m)) {
    if (kind != "mamba" && kind != "attention") c.Fail("layer_types", "layer_types must hold \"mamba\" or \"attention\".");
    mamba += kind == "mamba" ? 1 : 0;
  }
  const int64_t heads = c.Count("mamba_n_heads");
  const Value d_head = c.Raw("mamba_d_head");
  const bool derived = d_head && d_head.IsString() && d_head.String() == "auto";
  const int64_t head_dim = derived ? c.Count("mamba_expand") * m.hidden_size / heads : c.Count("mamba_d_head");
  if (c.failed()) return;
  Mamba2Mixer({heads, head_dim, c.Count("mamba_n_groups"), c.Count("mamba_d_state"), c.Count("mamba_d_conv")}, m, shape);
  shape.attention_layers = m.num_hidden_layers - mamba;
  shape.state_layers = mamba;
  shape.dense_layer_mlp = 3 * static_cast<double>(m.hidden_size) * static_cast<double>(c.Count("shared_intermediate_size"));
}

// Granite 4.0 H's experts: num_local_experts SwiGLU experts of intermediate_size on every layer,
// num_experts_per_tok per token, beside the shared MLP; none (a dense hybrid, H-Micro) when 0.
Experts GraniteExperts(const Config& c, const ModelSpec& m, Shape& shape) {
  const int64_t local = c.CountOrZero("num_local_experts");
  if (local == 0) return {};
  shape.expert = 3 * static_cast<double>(m.hidden_size) * static_cast<double>(c.Count("intermediate_size"));
  shape.shared = shape.dense_layer_mlp;
  shape.moe_layers = static_cast<double>(m.num_hidden_layers);
  return Experts{local, c.Count("num_experts_per_tok"), 1};
}

// Nemotron-H's experts: n_routed_experts relu² experts of moe_intermediate_size and
// n_shared_experts of moe_shared_expert_intermediate_size, on the E layers Mamba2Hybrid counted
// (a type's layout runs before its experts).
Experts NemotronExperts(const Config& c, const ModelSpec& m, Shape& shape) {
  const Experts experts{c.Count("n_routed_experts"), c.Count("num_experts_per_tok"), c.CountOr("n_shared_experts", 0)};
  const double h = static_cast<double>(m.hidden_size);
  shape.expert = 2 * h * static_cast<double>(c.Count("moe_intermediate_size"));
  if (experts.shared > 0) {
    shape.shared = static_cast<double>(experts.shared) * 2 * h * static_cast<double>(c.Count("moe_shared_expert_intermediate_size"));
  }
  return shape.moe_layers > 0 ? experts : Experts{};
}

// DeepSeek-V4: compress_ratios gives each layer's ratio (a trailing entry per MTP layer): 0 keeps
// only the sliding_window of latents, r > 1 adds one latent per r tokens, and ratio-4 layers an
// indexer key of index_head_dim for each (design note 4.9). The latent is one head_dim-wide K = V
// head. Weights as the checkpoint's tensors are shaped: per layer the q low rank (wq_a, wq_b),
// wkv, the grouped output low rank (wo_a: heads × head_dim / o_groups → o_groups × o_lora_rank,
// wo_b) and the hyper-connections' mixing, 2 × (2 + hc) × hc × hc × hidden; per compressed layer
// its compressor's wkv and wgate, head_dim wide per ratio window (twice at ratio 4, whose windows
// overlap), and at ratio 4 the indexer: its own compressor, wq_b and weights_proj.
void CompressedAttention(const Config& c, const ModelSpec& m, Shape& shape) {
  const Value ratios = c.Raw("compress_ratios");
  if (!ratios.IsArray() || static_cast<int64_t>(ratios.size()) < m.num_hidden_layers) {
    c.Fail("compress_ratios", "compress_ratios must give each of the " + std::to_string(m.num_hidden_layers) + " layers a ratio.");
    return;
  }
  const double h = static_cast<double>(m.hidden_size), d = static_cast<double>(c.Count("head_dim"));
  const double q_lora = static_cast<double>(c.Count("q_lora_rank")), heads = static_cast<double>(m.num_attention_heads);
  const double index_dim = static_cast<double>(c.Count("index_head_dim")), index_heads = static_cast<double>(c.Count("index_n_heads"));
  const double hc = static_cast<double>(c.Count("hc_mult"));
  const double o_width = static_cast<double>(c.Count("o_groups") * c.Count("o_lora_rank"));
  shape.attention_params = h * q_lora + q_lora * heads * d + h * d + heads * d / static_cast<double>(c.Count("o_groups")) * o_width +
                           o_width * h + 2 * (2 + hc) * hc * hc * h;
  int64_t layer = 0;
  for (const Value ratio : ratios.Children()) {
    if (layer++ == m.num_hidden_layers) break;  // the MTP layers' entries
    if (!ratio.IsInteger() || ratio.Integer() < 0 || ratio.Integer() == 1) {
      c.Fail("compress_ratios", "compress_ratios must hold 0 or ratios above 1.");
      return;
    }
    const int64_t r = ratio.Integer();
    auto group = std::find_if(shape.compressed.begin(), shape.compressed.end(), [r](const auto& g) { return g.first == r; });
    if (group == shape.compressed.end()) group = shape.compressed.insert(shape.compressed.end(), {r, 0});
    ++group->second;
    const double overlap = r == 4 ? 2 : 1;
    if (r > 0) shape.extra_params += 2 * h * d * overlap;
    if (r == 4) shape.extra_params += 2 * h * index_dim * overlap + q_lora * index_heads * index_dim + h * index_heads;
  }
  shape.extra_label = "compressors and indexers";
  shape.window = c.Count("sliding_window");
  shape.compressed_index_dim = c.Count("index_head_dim");
}

// Gemma 3n and Gemma 4: the last num_kv_shared_layers reuse an earlier layer's KV, so only the
// layers before them cache, windowed where layer_types says "sliding_attention". Returns how
// many cache (0 on an error).
int64_t SharedKvLayers(const Config& c, const ModelSpec& m, const std::vector<std::string_view>& types, Shape& shape) {
  shape.kv_shared_layers = c.CountOrZero("num_kv_shared_layers");
  if (shape.kv_shared_layers >= m.num_hidden_layers) c.Fail("num_kv_shared_layers", "num_kv_shared_layers must leave a layer that caches.");
  if (c.failed()) return 0;
  const int64_t caching = m.num_hidden_layers - shape.kv_shared_layers;
  shape.attention_layers = caching;
  for (int64_t i = 0; i < caching; ++i) shape.local_layers += types[static_cast<std::size_t>(i)] == "full_attention" ? 0 : 1;
  shape.window = c.Count("sliding_window");
  shape.pattern = "layer_types among the " + std::to_string(caching) + " caching layers";
  return caching;
}

// With hidden_size_per_layer_input, Gemma 3n's and the Gemma 4 E-models' per-layer embedding
// table (vocab_size_per_layer_input × layers × that width), its projection from the hidden state
// and per layer a gate and a projection.
void PerLayerEmbeddings(const Config& c, const ModelSpec& m, Shape& shape) {
  const int64_t ple = c.CountOrZero("hidden_size_per_layer_input");
  if (ple == 0) return;
  const double h = static_cast<double>(m.hidden_size);
  shape.per_layer_embedding = static_cast<double>(c.Count("vocab_size_per_layer_input")) * static_cast<double>(m.num_hidden_layers * ple);
  shape.extra_params = shape.per_layer_embedding + h * static_cast<double>(m.num_hidden_layers * ple) +
                       static_cast<double>(m.num_hidden_layers) * 2 * h * static_cast<double>(ple);
  shape.extra_label = "per-layer embeddings";
}

// Gemma 4 (and its E-models): layer_types marks sliding and full layers; full layers attend with
// global_head_dim and, with attention_k_eq_v, num_global_key_value_heads heads whose V is their
// K (no v_proj; runtimes still store V), else num_key_value_heads. Only the layers that cache
// have k_proj and v_proj; use_double_wide_mlp doubles the shared layers' MLP (transformers'
// configuration_gemma4.py and modeling_gemma4.py).
void Gemma4Layout(const Config& c, const ModelSpec& m, Shape& shape) {
  const std::vector<std::string_view> types = LayerTypes(c, m);
  if (c.failed()) return;
  const int64_t caching = SharedKvLayers(c, m, types, shape);
  if (c.failed()) return;
  const bool k_eq_v = c.Flag("attention_k_eq_v", false);
  shape.global_head_dim = c.Count("global_head_dim");
  shape.global_kv_heads = k_eq_v ? c.Count("num_global_key_value_heads") : m.num_key_value_heads;
  const double h = static_cast<double>(m.hidden_size), heads = static_cast<double>(m.num_attention_heads);
  shape.attention_sum = 0;
  for (int64_t i = 0; i < m.num_hidden_layers; ++i) {
    const bool full = types[static_cast<std::size_t>(i)] == "full_attention";
    const double d = static_cast<double>(full ? shape.global_head_dim : m.head_dim);
    const double kv = static_cast<double>(full ? shape.global_kv_heads : m.num_key_value_heads);
    shape.attention_sum += 2 * h * heads * d + (i < caching ? h * kv * d * (full && k_eq_v ? 1 : 2) : 0);
  }
  PerLayerEmbeddings(c, m, shape);
  if (c.Flag("use_double_wide_mlp", false)) {
    shape.extra_params += static_cast<double>(shape.kv_shared_layers) * 3 * h * static_cast<double>(c.Count("intermediate_size"));
    shape.extra_label += shape.extra_label.empty() ? "double-wide MLPs" : " and double-wide MLPs";
  }
}

// Gemma 3n: the KV sharing and per-layer embeddings of the Gemma 4 E-models, with every layer's
// q, k, v and o of head_dim (transformers' Gemma3nTextAttention builds k_proj and v_proj on the
// shared layers too), an MLP of intermediate_size (one width, or a list that agrees), and per
// layer AltUp's router, prediction and correction coefficients (hidden × n + n³ + n², n =
// altup_num_inputs) and LAuReL's two projections of laurel_rank; AltUp's 2 × (n − 1) hidden ×
// hidden projections in and out (modeling_gemma3n.py).
void Gemma3nLayout(const Config& c, const ModelSpec& m, Shape& shape) {
  const std::vector<std::string_view> types = LayerTypes(c, m);
  if (c.failed()) return;
  SharedKvLayers(c, m, types, shape);
  const double h = static_cast<double>(m.hidden_size), layers = static_cast<double>(m.num_hidden_layers);
  const double d = static_cast<double>(m.head_dim);
  shape.attention_sum = layers * h * d * static_cast<double>(2 * m.num_attention_heads + 2 * m.num_key_value_heads);
  shape.dense_layer_mlp = 3 * h * static_cast<double>(UniformCount(c, "intermediate_size"));
  PerLayerEmbeddings(c, m, shape);
  const double n = static_cast<double>(c.Count("altup_num_inputs")), rank = static_cast<double>(c.Count("laurel_rank"));
  shape.extra_params += 2 * (n - 1) * h * h + layers * (h * n + n * n * n + n * n + 2 * h * rank);
  shape.extra_label += shape.extra_label.empty() ? "AltUp and LAuReL" : ", AltUp and LAuReL";
}

// Gemma 4's experts (enable_moe_block): num_experts of moe_intermediate_size, top_k_experts per
// token, on every layer beside the dense MLP of intermediate_size, which counts as shared.
Experts Gemma4Experts(const Config& c, const ModelSpec& m, Shape& shape) {
  if (!c.Flag("enable_moe_block", false)) return {};
  const double h = static_cast<double>(m.hidden_size);
  shape.expert = 3 * h * static_cast<double>(c.Count("moe_intermediate_size"));
  shape.shared = 3 * h * static_cast<double>(c.Count("intermediate_size"));
  shape.moe_layers = static_cast<double>(m.num_hidden_layers);
  return Experts{c.Count("num_experts"), c.Count("top_k_experts"), 1};
}

// MiMo-V2-Flash: hybrid_layer_pattern marks each layer global (0) or sliding-window (1, over
// sliding_window tokens, else sliding_window_size). Global layers attend with
// num_attention_heads / num_key_value_heads of head_dim keys and v_head_dim values, windowed ones
// with the swa_ counterparts, and q, k, v and o are sized by them (the fields of XiaomiMiMo's
// configuration_mimo_v2_flash.py; per-layer KV heads and an asymmetric V head, NeMo
// Megatron-Bridge's MiMoV2FlashSelfAttention). The attention sink biases add no cache.
void MimoHybridAttention(const Config& c, const ModelSpec& m, Shape& shape) {
  const Value pattern = c.Raw("hybrid_layer_pattern");
  if (!pattern.IsArray() || static_cast<int64_t>(pattern.size()) != m.num_hidden_layers) {
    c.Fail("hybrid_layer_pattern", "hybrid_layer_pattern must give each of the " + std::to_string(m.num_hidden_layers) + " layers 0 (global) or 1 (sliding window).");
    return;
  }
  int64_t windowed = 0;
  for (const Value kind : pattern.Children()) {
    if (!kind.IsInteger() || (kind.Integer() != 0 && kind.Integer() != 1)) c.Fail("hybrid_layer_pattern", "hybrid_layer_pattern must hold 0 or 1.");
    windowed += kind.IsInteger() && kind.Integer() == 1 ? 1 : 0;
  }
  shape.value_dim = c.Count("v_head_dim");
  shape.local_query_heads = c.Count("swa_num_attention_heads");
  shape.local_kv_heads = c.Count("swa_num_key_value_heads");
  shape.local_key_dim = c.Count("swa_head_dim");
  shape.local_value_dim = c.Count("swa_v_head_dim");
  shape.window = c.Has("sliding_window") ? c.Count("sliding_window") : c.Count("sliding_window_size");
  shape.local_layers = windowed;
  shape.pattern = "hybrid_layer_pattern: " + std::to_string(windowed) + " sliding-window, " + std::to_string(m.num_hidden_layers - windowed) + " global";
  const auto attention = [&m](int64_t heads, int64_t kv_heads, int64_t key_dim, int64_t value_dim) {
    const double h = static_cast<double>(m.hidden_size);
    return h * static_cast<double>(heads * key_dim + kv_heads * key_dim + kv_heads * value_dim + heads * value_dim);
  };
  shape.attention_sum = static_cast<double>(m.num_hidden_layers - windowed) *
                            attention(m.num_attention_heads, m.num_key_value_heads, m.head_dim, shape.value_dim) +
                        static_cast<double>(windowed) *
                            attention(shape.local_query_heads, shape.local_kv_heads, shape.local_key_dim, shape.local_value_dim);
}

// MiMo-V2-Flash's experts: n_routed_experts of moe_intermediate_size, num_experts_per_tok per
// token (n_shared_experts when set), on the layers moe_layer_freq marks 1; the others a dense MLP
// of intermediate_size.
Experts MimoExperts(const Config& c, const ModelSpec& m, Shape& shape) {
  const Value freq = c.Raw("moe_layer_freq");
  if (!freq.IsArray() || static_cast<int64_t>(freq.size()) != m.num_hidden_layers) {
    c.Fail("moe_layer_freq", "moe_layer_freq must give each of the " + std::to_string(m.num_hidden_layers) + " layers 0 (dense) or 1 (experts).");
    return {};
  }
  int64_t moe = 0;
  for (const Value kind : freq.Children()) moe += kind.IsInteger() && kind.Integer() == 1 ? 1 : 0;
  const Experts experts{c.Count("n_routed_experts"), c.Count("num_experts_per_tok"), c.CountOr("n_shared_experts", 0)};
  shape.expert = 3 * static_cast<double>(m.hidden_size) * static_cast<double>(c.Count("moe_intermediate_size"));
  shape.shared = static_cast<double>(experts.shared) * shape.expert;
  shape.moe_layers = static_cast<double>(moe);
  return experts;
}

// Hunyuan's cross-layer attention (use_cla: cla_share_factor layers share one KV) is not read;
// its checkpoints with it off are plain GQA.
void NoCrossLayerAttention(const Config& c, const ModelSpec&, Shape&) {
  if (c.Flag("use_cla", false)) c.Fail("use_cla", "Cross-layer attention (use_cla true) is not supported yet; only configs with use_cla false.");
}

// LFM2: layer_types marks the short-convolution layers ("conv") and the attention ones. A conv
// layer keeps (conv_L_cache − 1) × conv_dim elements per sequence (vLLM's short_conv_state_shape;
// without conv_dim, as in LFM2-MoE's configs, hidden_size: transformers' Lfm2ShortConv);
// its weights are in_proj (hidden → 3 × conv_dim), the depthwise conv and out_proj. Every layer's
// SwiGLU MLP is intermediate_size wide, or with block_auto_adjust_ff_dim 2/3 of it times
// block_ffn_dim_multiplier, rounded up to block_multiple_of (transformers' Lfm2MLP).
void ShortConvHybrid(const Config& c, const ModelSpec& m, Shape& shape) {
  int64_t conv = 0;
  for (const std::string_view kind : LayerTypes(c, m)) conv += kind == "conv" ? 1 : 0;
  const int64_t width = c.CountOr("conv_dim", m.hidden_size), kernel = c.Count("conv_L_cache");
  const double h = static_cast<double>(m.hidden_size);
  shape.attention_layers = m.num_hidden_layers - conv;
  shape.state_layers = conv;
  shape.state_elements = (kernel - 1) * width;
  shape.state_input = h * 3 * static_cast<double>(width);
  shape.state_mixer = shape.state_input + static_cast<double>(width * kernel) + static_cast<double>(width) * h;
  double ff = static_cast<double>(c.Count("intermediate_size"));
  if (c.Flag("block_auto_adjust_ff_dim", false)) {
    ff = std::floor(2 * ff / 3);
    if (const Value multiplier = c.Raw("block_ffn_dim_multiplier"); multiplier && multiplier.IsNumber()) {
      ff = std::floor(multiplier.Number() * ff);
    }
    const double multiple = static_cast<double>(c.CountOr("block_multiple_of", 1));
    ff = multiple * std::ceil(ff / multiple);
  }
  shape.dense_layer_mlp = 3 * h * ff;
}

// ---- layer groups -------------------------------------------------------------------------

// The attention layers' groups: one latent group (MLA), or the global layers and the windowed
// ones.
// DeepSeek-V4's groups: per compress ratio, one K = V latent of head_dim per token in the window
// and per ratio tokens beyond (index keys at ratio 4); ratio 0 is a plain window.
std::vector<LayerGroup> CompressedGroups(const ModelSpec& m, const Shape& shape) {
  std::vector<LayerGroup> groups;
  for (const auto& [ratio, layers] : shape.compressed) {
    groups.push_back(LayerGroup{.kind = ratio > 0 ? LayerKind::kCompressed : LayerKind::kWindow, .layers = layers,
                                .kv_heads = 1, .key_dim = m.head_dim, .index_dim = ratio == 4 ? shape.compressed_index_dim : 0,
                                .window_tokens = shape.window, .compress_ratio = ratio, .query_heads = m.num_attention_heads,
                                .query_key_dim = m.head_dim, .query_value_dim = m.head_dim});
  }
  return groups;
}

std::vector<LayerGroup> AttentionGroups(const ModelSpec& m, const Shape& shape, int64_t attention_layers) {
  if (!shape.compressed.empty()) return CompressedGroups(m, shape);
  if (shape.latent) {
    const Shape::Latent& l = *shape.latent;
    return {LayerGroup{.kind = LayerKind::kLatent, .layers = attention_layers, .kv_heads = 1,
                       .key_dim = l.kv_lora_rank + l.qk_rope_head_dim, .index_dim = l.index_dim,
                       .query_heads = m.num_attention_heads, .query_key_dim = l.qk_nope_head_dim + l.qk_rope_head_dim,
                       .query_value_dim = l.v_head_dim}};
  }
  const int64_t value_dim = shape.value_dim > 0 ? shape.value_dim : m.head_dim;
  const LayerGroup attention{.kind = LayerKind::kFull, .kv_heads = m.num_key_value_heads, .key_dim = m.head_dim,
                             .value_dim = value_dim, .query_heads = m.num_attention_heads,
                             .query_key_dim = m.head_dim, .query_value_dim = value_dim};
  std::vector<LayerGroup> groups;
  if (attention_layers > shape.local_layers) {
    groups.push_back(attention);
    groups.back().layers = attention_layers - shape.local_layers;
    if (shape.global_head_dim > 0) {  // Gemma 4's global layers attend with their own geometry
      groups.back().kv_heads = shape.global_kv_heads;
      groups.back().key_dim = groups.back().value_dim = shape.global_head_dim;
      groups.back().query_key_dim = groups.back().query_value_dim = shape.global_head_dim;
    }
  }
  if (shape.local_layers > 0) {
    groups.push_back(attention);
    groups.back().kind = shape.chunked ? LayerKind::kChunked : LayerKind::kWindow;
    groups.back().layers = shape.local_layers;
    groups.back().window_tokens = shape.window;
    if (shape.local_kv_heads > 0) {  // MiMo-V2-Flash's windowed layers attend with their own geometry
      LayerGroup& local = groups.back();
      local.kv_heads = shape.local_kv_heads;
      local.query_heads = shape.local_query_heads;
      local.key_dim = local.query_key_dim = shape.local_key_dim;
      local.value_dim = local.query_value_dim = shape.local_value_dim;
    }
  }
  return groups;
}

// Every layer's group: attention, then the recurrent layers' state, then the layers with no
// mixer that caches (Nemotron-H's MLP and expert layers).
std::vector<LayerGroup> LayerGroups(const ModelSpec& m, const Shape& shape) {
  const int64_t attention_layers = shape.attention_layers < 0 ? m.num_hidden_layers : shape.attention_layers;
  std::vector<LayerGroup> groups = AttentionGroups(m, shape, attention_layers);
  if (shape.state_layers > 0) {
    groups.push_back(LayerGroup{.kind = LayerKind::kState, .layers = shape.state_layers, .state_elements = shape.state_elements,
                                .state_f32_elements = shape.state_f32_elements});
  }
  if (shape.kv_shared_layers > 0) groups.push_back(LayerGroup{.kind = LayerKind::kShared, .layers = shape.kv_shared_layers});
  const int64_t rest = m.num_hidden_layers - attention_layers - shape.state_layers - shape.kv_shared_layers;
  if (rest > 0) groups.push_back(LayerGroup{.kind = LayerKind::kNone, .layers = rest});
  return groups;
}

// ---- the model types ------------------------------------------------------------------------

// The defaults transformers fills in for fields a config may leave out. Gemma 3's multimodal
// checkpoints (gemma-3-4b-it and up) omit most of their text_config: Gemma3TextConfig in
// transformers' configuration_gemma3.py.
Value NoDefaults() {
  static const json::Document kNone = json::Document::Parse("{}").value();
  return kNone.root();
}
Value Gemma3Defaults() {
  static const json::Document kGemma3 = json::Document::Parse(R"({
      "vocab_size": 262208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
      "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
      "max_position_embeddings": 131072, "sliding_window": 4096, "sliding_window_pattern": 6,
      "tie_word_embeddings": true})").value();
  return kGemma3.root();
}

// Gemma4TextConfig's global_head_dim when a config leaves it out (architectures-2026.md §5).
Value Gemma4Defaults() {
  static const json::Document kGemma4 = json::Document::Parse(R"({"global_head_dim": 512})").value();
  return kGemma4.root();
}

// Olmo3Config's sliding_window when a config leaves it out (configuration_olmo3.py).
Value Olmo3Defaults() {
  static const json::Document kOlmo3 = json::Document::Parse(R"({"sliding_window": 4096})").value();
  return kOlmo3.root();
}

// Ernie4_5_MoeConfig's expert layout when a config leaves it out (configuration_ernie4_5_moe.py):
// experts from layer 1 on, on every layer to the last, two shared experts.
Value Ernie45MoeDefaults() {
  static const json::Document kErnie = json::Document::Parse(R"({"moe_layer_start_index": 1,
      "moe_layer_end_index": -1, "moe_layer_interval": 1, "moe_num_shared_experts": 2})").value();
  return kErnie.root();
}

struct ModelType {
  std::string_view type;
  void (*window)(const Config&, const ModelSpec&, Shape&);  // when the config has no layer_types
  Experts (*experts)(const Config&, const ModelSpec&, Shape&);
  // Which layers attend: a family whose layers are not all attention (linear attention, SSM)
  // reads its layout and recurrent state from its config.
  void (*layout)(const Config&, const ModelSpec&, Shape&);
  bool latent;                    // DeepSeek's multi-head latent attention fields
  bool tied_by_default;           // tie_word_embeddings when the config omits it
  const char* layer_types_window;  // the window's key when layer_types marks windowed layers (null: the layout reads them)
  Value (*defaults)();
};

constexpr ModelType kModelTypes[] = {
    {"cohere", NoWindow, NoExperts, AllAttention, false, true, "sliding_window", NoDefaults},
    {"cohere2", EveryNthGlobal, NoExperts, AllAttention, false, true, "sliding_window", NoDefaults},
    {"deepseek_v2", NoWindow, DeepSeekExperts, AllAttention, true, false, "sliding_window", NoDefaults},
    {"deepseek_v3", NoWindow, DeepSeekExperts, AllAttention, true, false, "sliding_window", NoDefaults},
    {"deepseek_v32", NoWindow, DeepSeekExperts, AllAttention, true, false, "sliding_window", NoDefaults},
    {"deepseek_v4", NoWindow, DeepSeekExperts, CompressedAttention, false, false, "sliding_window", NoDefaults},
    {"ernie4_5", NoWindow, NoExperts, AllAttention, false, true, "sliding_window", NoDefaults},
    {"ernie4_5_moe", NoWindow, ErnieExperts, AllAttention, false, true, "sliding_window", Ernie45MoeDefaults},
    {"exaone4", NoWindow, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"gemma2", AlternatingWindow, NoExperts, AllAttention, false, true, "sliding_window", NoDefaults},
    {"gemma3", EveryNthGlobal, NoExperts, AllAttention, false, true, "sliding_window", Gemma3Defaults},
    {"gemma3_text", EveryNthGlobal, NoExperts, AllAttention, false, true, "sliding_window", Gemma3Defaults},
    {"gemma3n", NoWindow, NoExperts, Gemma3nLayout, false, true, nullptr, NoDefaults},
    {"gemma3n_text", NoWindow, NoExperts, Gemma3nLayout, false, true, nullptr, NoDefaults},
    {"gemma4", NoWindow, Gemma4Experts, Gemma4Layout, false, true, nullptr, Gemma4Defaults},
    {"gemma4_text", NoWindow, Gemma4Experts, Gemma4Layout, false, true, nullptr, Gemma4Defaults},
    {"glm4", NoWindow, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"glm4_moe", NoWindow, DeepSeekExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"glm4_moe_lite", NoWindow, DeepSeekExperts, AllAttention, true, false, "sliding_window", NoDefaults},
    {"glm_moe_dsa", NoWindow, DeepSeekExperts, AllAttention, true, false, "sliding_window", NoDefaults},
    {"gpt_oss", AlternatingWindow, LocalExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"granitemoehybrid", NoWindow, GraniteExperts, GraniteMamba2Hybrid, false, false, nullptr, NoDefaults},
    {"hunyuan_v1_dense", NoWindow, NoExperts, NoCrossLayerAttention, false, true, "sliding_window", NoDefaults},
    {"hunyuan_v1_moe", NoWindow, HunyuanExperts, NoCrossLayerAttention, false, false, "sliding_window", NoDefaults},
    {"kimi_k2", NoWindow, DeepSeekExperts, AllAttention, true, false, "sliding_window", NoDefaults},
    {"kimi_k25", NoWindow, DeepSeekExperts, AllAttention, true, false, "sliding_window", NoDefaults},
    {"lfm2", NoWindow, NoExperts, ShortConvHybrid, false, true, "sliding_window", NoDefaults},
    {"lfm2_moe", NoWindow, Lfm2MoeExperts, ShortConvHybrid, false, true, "sliding_window", NoDefaults},
    {"llama", NoWindow, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"llama4", ChunkedAttention, Llama4Experts, AllAttention, false, false, "attention_chunk_size", NoDefaults},
    {"llama4_text", ChunkedAttention, Llama4Experts, AllAttention, false, false, "attention_chunk_size", NoDefaults},
    {"mimo_v2_flash", NoWindow, MimoExperts, MimoHybridAttention, false, false, "sliding_window", NoDefaults},
    {"minimax_m2", NoWindow, LocalExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"ministral3", WindowOnEveryLayer, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"mistral", WindowOnEveryLayer, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"mixtral", WindowOnEveryLayer, LocalExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"nemotron_h", NoWindow, NemotronExperts, Mamba2Hybrid, false, false, "sliding_window", NoDefaults},
    {"olmo2", NoWindow, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"olmo3", EveryFourthGlobal, NoExperts, AllAttention, false, false, "sliding_window", Olmo3Defaults},
    {"phi3", WindowOnEveryLayer, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"qwen2", QwenWindow, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"qwen2_moe", QwenWindow, QwenExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"qwen3", QwenWindow, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"qwen3_5", NoWindow, NoExperts, GatedDeltaNet, false, false, "sliding_window", NoDefaults},
    {"qwen3_5_moe", NoWindow, QwenExperts, GatedDeltaNet, false, false, "sliding_window", NoDefaults},
    {"qwen3_5_moe_text", NoWindow, QwenExperts, GatedDeltaNet, false, false, "sliding_window", NoDefaults},
    {"qwen3_5_text", NoWindow, NoExperts, GatedDeltaNet, false, false, "sliding_window", NoDefaults},
    {"qwen3_moe", QwenWindow, QwenExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"qwen3_next", NoWindow, QwenExperts, GatedDeltaNet, false, false, "sliding_window", NoDefaults},
    {"qwen3_vl_moe_text", QwenWindow, QwenExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"qwen3_vl_text", QwenWindow, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"seed_oss", NoWindow, NoExperts, AllAttention, false, false, "sliding_window", NoDefaults},
    {"smollm3", QwenWindow, NoExperts, AllAttention, false, true, "sliding_window", NoDefaults},
};

const ModelType* FindModelType(std::string_view type) {
  for (const ModelType& row : kModelTypes) {
    if (row.type == type) return &row;
  }
  return nullptr;
}

// The windowed layers from layer_types when the config lists them, else by the type's rule.
// A window as long as the model's context never bounds anything.
void ReadWindow(const Config& c, const ModelType& type, const ModelSpec& m, Shape& shape) {
  if (!c.Has("layer_types")) {
    type.window(c, m, shape);
  } else if (type.layer_types_window != nullptr) {  // else the type's layout read them
    for (const std::string_view kind : LayerTypes(c, m)) {
      if (kind == "sliding_attention" || kind == "chunked_attention") ++shape.local_layers;
      if (kind == "chunked_attention") shape.chunked = true;
    }
    shape.pattern = "layer_types: " + std::to_string(shape.local_layers) + " windowed, " +
                    std::to_string(m.num_hidden_layers - shape.local_layers) + " global";
    if (shape.local_layers > 0) shape.window = c.Count(type.layer_types_window);
  }
  if (shape.local_layers == 0 || shape.window >= m.max_position_embeddings) shape.local_layers = 0;
}

// The type's rules applied: the latent or the head size, the experts and the windowed layers.
Shape ReadShape(const Config& c, const ModelType& type, ModelSpec& m) {
  Shape shape;
  if (type.latent) {
    m.attention = Attention::kMla;
    shape.latent = Shape::Latent{c.Count("kv_lora_rank"), c.Count("qk_rope_head_dim"), c.Count("qk_nope_head_dim"),
                                 c.Count("v_head_dim")};
    if (c.Has("index_head_dim")) {  // an indexer key per token and layer, its own heads on the query side
      shape.latent->index_dim = c.Count("index_head_dim");
      shape.latent->index_heads = c.Count("index_n_heads");
    }
    m.num_key_value_heads = m.num_attention_heads;
    m.head_dim = shape.latent->v_head_dim;
  } else {
    if (c.Has("head_dim")) {
      m.head_dim = c.Count("head_dim");
    } else if (m.hidden_size % m.num_attention_heads == 0) {
      m.head_dim = m.hidden_size / m.num_attention_heads;
    } else {
      c.Fail("head_dim", "head_dim is missing and hidden_size is not a multiple of num_attention_heads.");
      return shape;
    }
    m.attention = m.num_key_value_heads == m.num_attention_heads ? Attention::kMha
                  : m.num_key_value_heads == 1                   ? Attention::kMqa
                                                                  : Attention::kGqa;
  }
  type.layout(c, m, shape);  // first: a hybrid's layout counts the layers its experts sit on
  if (c.failed()) return shape;
  const Experts experts = type.experts(c, m, shape);
  if (experts.count > 0) {
    if (experts.per_token > experts.count) c.Fail("num_experts_per_tok", "More experts per token than experts.");
    m.topology = Topology::kMoe;
    m.moe = MoeSpec{experts.count, experts.per_token, experts.shared};
  }
  ReadWindow(c, type, m, shape);
  return shape;
}

// Attention weights per layer: q, k, v and o, or MLA's low-rank projections.
double AttentionParams(const Config& c, const ModelSpec& m, const Shape& shape) {
  const double h = static_cast<double>(m.hidden_size);
  const double heads = static_cast<double>(m.num_attention_heads);
  if (!shape.latent) {
    const double d = static_cast<double>(m.head_dim);
    const double gate = shape.attention_gate ? h * heads * d : 0;  // q_proj's second half
    return h * heads * d * 2 + gate + h * static_cast<double>(m.num_key_value_heads) * d * 2;  // q and o, k and v
  }
  const Shape::Latent& l = *shape.latent;
  const double qk = static_cast<double>(l.qk_nope_head_dim + l.qk_rope_head_dim);
  const double kv_lora = static_cast<double>(l.kv_lora_rank);
  const double q = c.Has("q_lora_rank") ? h * static_cast<double>(c.Count("q_lora_rank")) +
                                              static_cast<double>(c.Count("q_lora_rank")) * heads * qk
                                        : h * heads * qk;
  // The indexer: its query from the q low rank (wq_b), its key (wk) and its head weights.
  const double index = static_cast<double>(l.index_dim);
  const double indexer = l.index_dim == 0 ? 0
                         : static_cast<double>(c.CountOr("q_lora_rank", m.hidden_size)) * static_cast<double>(l.index_heads) * index +
                               h * index + h * static_cast<double>(l.index_heads);
  return q + h * (kv_lora + static_cast<double>(l.qk_rope_head_dim)) +
         kv_lora * heads * static_cast<double>(l.qk_nope_head_dim + l.v_head_dim) +
         heads * static_cast<double>(l.v_head_dim) * h + indexer;
}

// How many layers carry each part (CountParameters' terms).
struct LayerCounts {
  double attention, state, dense, moe;
};
LayerCounts CountsOf(const ModelSpec& m, const Shape& shape) {
  const double layers = static_cast<double>(m.num_hidden_layers);
  return {shape.attention_layers < 0 ? layers : static_cast<double>(shape.attention_layers),
          static_cast<double>(shape.state_layers),
          shape.dense_ffn_layers < 0 ? layers - shape.moe_layers : static_cast<double>(shape.dense_ffn_layers),
          shape.moe_layers};
}

// The arithmetic of CountParameters, for the card: per layer when every layer attends and has
// an MLP or experts, else per part (hybrids).
std::string ParamsFormula(const ModelSpec& m, const Shape& shape, bool tied, double attention, double router) {
  // Within int64's range: a count beyond (a hostile config.json's) is refused after this
  // (ValidateModel's 10^15), and must not overflow on its way there.
  auto n = [](double value) { return FormatGrouped(static_cast<int64_t>(std::clamp(value, 0.0, 9e18))); };
  const LayerCounts count = CountsOf(m, shape);
  const bool per_layer = count.attention == static_cast<double>(m.num_hidden_layers) && shape.dense_ffn_layers < 0 &&
                         shape.attention_sum < 0;
  const std::string experts = m.moe ? n(static_cast<double>(m.moe->num_experts)) + " experts × " + n(shape.expert) +
                                          (shape.shared > 0 ? " + shared " + n(shape.shared) : "") + " + router " + n(router)
                                    : "";
  std::string formula = n(static_cast<double>(m.vocab_size)) + " × " + n(static_cast<double>(m.hidden_size)) +
                        (tied ? " (tied embeddings)" : " × 2 (untied embeddings)");
  const std::string attend = per_layer ? "attention " + n(attention) + " + " : "";
  if (shape.attention_sum >= 0) {
    formula += " + attention by layer type " + n(shape.attention_sum);
  } else if (!per_layer) {
    formula += " + " + n(count.attention) + " × attention " + n(attention);
  }
  if (count.state > 0) formula += " + " + n(count.state) + " × recurrent mixer " + n(shape.state_mixer);
  if (shape.extra_params > 0) formula += " + " + shape.extra_label + " " + n(shape.extra_params);
  if (count.dense > 0) formula += " + " + n(count.dense) + " × (" + attend + "MLP " + n(shape.dense_layer_mlp) + ")";
  if (count.moe > 0) formula += " + " + n(count.moe) + " × (" + attend + experts + ")";
  formula += " = " + n(m.params_total);
  if (m.moe) {
    formula += "; active per token with " + n(static_cast<double>(m.moe->experts_per_token)) +
               " experts: " + n(m.params_active);
  }
  return formula + " (norms and biases, under 0.1 %, left out)";
}

// Of the attention layers' weights, those that read the hidden state: all but the output
// projections and, with a latent (MLA), the projections up from the low ranks (q_b, kv_b). Types
// that size their attention themselves (attention_params, attention_sum) are taken to have an
// output projection of heads × head_dim, never more than all of it.
double AttentionInputs(const Config& c, const ModelSpec& m, const Shape& shape, double layers, double all) {
  const double h = static_cast<double>(m.hidden_size);
  const double heads = static_cast<double>(m.num_attention_heads);
  if (!shape.latent) return std::max(0.0, all - layers * h * heads * static_cast<double>(m.head_dim));
  const Shape::Latent& l = *shape.latent;
  const double q = c.Has("q_lora_rank") ? static_cast<double>(c.Count("q_lora_rank"))
                                        : heads * static_cast<double>(l.qk_nope_head_dim + l.qk_rope_head_dim);
  const double index = static_cast<double>(l.index_dim + l.index_heads);
  return layers * h * (q + static_cast<double>(l.kv_lora_rank + l.qk_rope_head_dim) + index);
}

// The matrices whose rows GGUF's 256-weight blocks do not divide (model_spec.h unaligned_params):
// the MLPs' down projections, whose rows are the MLP's width, the dense and shared MLPs' and the
// routed experts'; and where the hidden size is such a width, every matrix that reads it: the
// attention's `inputs`, the recurrent mixers' input projections and the MLPs' gate and up.
void CountUnaligned(const Shape& shape, const LayerCounts& count, double experts, double inputs, ModelSpec& m) {
  const double h = static_cast<double>(m.hidden_size);
  const auto down = [&](double mlp) {
    const double width = mlp / (shape.mlp_matrices * h);
    return std::fmod(width, 256.0) != 0 ? h * width : 0.0;
  };
  m.unaligned_params = count.dense * down(shape.dense_layer_mlp) + count.moe * down(shape.shared);
  m.unaligned_expert_params = count.moe * experts * down(shape.expert);
  // The experts' down projections where they are not a third (relu² experts: half).
  if (shape.mlp_matrices != 3) m.expert_down_params = count.moe * experts * shape.expert / shape.mlp_matrices;
  if (m.hidden_size % 256 == 0) return;
  const double gate_up = (shape.mlp_matrices - 1) / shape.mlp_matrices;
  m.unaligned_hidden_params = inputs + count.state * shape.state_input +
                              (count.dense * shape.dense_layer_mlp + count.moe * shape.shared) * gate_up;
  m.unaligned_hidden_expert_params = count.moe * experts * shape.expert * gate_up;
}

// Parameters from the shapes: embeddings, each attention layer's and recurrent layer's mixer,
// and each layer's MLP or experts (gate, up and down projections, or up and down).
void CountParameters(const Config& c, const ModelType& type, Shape& shape, ModelSpec& m) {
  const double h = static_cast<double>(m.hidden_size);
  const bool tied = c.Flag("tie_word_embeddings", type.tied_by_default);
  m.tie_word_embeddings = tied;
  const double attention = shape.attention_params > 0 ? shape.attention_params : AttentionParams(c, m, shape);
  const double router = m.moe ? h * static_cast<double>(m.moe->num_experts) : 0;
  const LayerCounts count = CountsOf(m, shape);
  if (count.dense > 0 && shape.dense_layer_mlp == 0) {
    shape.dense_layer_mlp = 3 * h * static_cast<double>(c.Count("intermediate_size"));
  }
  const double embeddings = static_cast<double>(m.vocab_size) * h * (tied ? 1 : 2);
  const double experts = static_cast<double>(m.moe ? m.moe->num_experts : 0);
  const double per_token = static_cast<double>(m.moe ? m.moe->experts_per_token : 0);
  const double attention_all = shape.attention_sum >= 0 ? shape.attention_sum : count.attention * attention;
  const double common = embeddings + attention_all + count.state * shape.state_mixer +
                        count.dense * shape.dense_layer_mlp + count.moe * (shape.shared + router) + shape.extra_params;
  m.params_total = common + count.moe * experts * shape.expert;
  m.params_active = common + count.moe * per_token * shape.expert - shape.per_layer_embedding;  // a lookup, not read whole
  m.per_layer_embedding_params = shape.per_layer_embedding;
  m.params_formula = ParamsFormula(m, shape, tied, attention, router);
  if (m.moe) m.moe->expert_params = experts * shape.expert * shape.moe_layers;
  CountUnaligned(shape, count, experts, AttentionInputs(c, m, shape, count.attention, attention_all), m);
}

// ---- the vision towers (vision_config) ---------------------------------------------------------
// A multimodal checkpoint's towers and their projector into the language model, counted from the
// vision_config's shapes as transformers builds them, by the checkpoint's own model_type (its
// tower and projector): each family a row of kVisionTypes. A type without a row leaves them
// uncounted (its params_formula says so).

// One ViT block: q, k, v and o with biases, two LayerNorms and a two-layer MLP with biases
// (modeling_siglip.py SiglipEncoderLayer, modeling_qwen3_vl.py Qwen3VLVisionBlock).
double VitBlock(double h, double i) { return 4 * h * h + 4 * h + 4 * h + 2 * h * i + i + h; }

// A ViT of `layers` such blocks of width h and MLP width i: a patch embedding of `inputs` values
// per patch with bias, a learned position per entry of `positions`, and one LayerNorm of width h
// after the blocks (SigLIP's post_layernorm, MoonViT's final_layernorm, the norm of Qwen's merger).
double VitTower(double inputs, double positions, double layers, double h, double i) {
  return inputs * h + h + positions * h + layers * VitBlock(h, i) + 2 * h;
}

// Gemma 3: SigLIP (a patch convolution with bias, a learned position per patch, the blocks, a
// LayerNorm after them, no head; modeling_siglip.py) and the projector: a matrix into the text's
// width and an RMSNorm (modeling_gemma3.py Gemma3MultiModalProjector).
double Gemma3Tower(const Config& v, const Config&, double text) {
  const double h = static_cast<double>(v.Count("hidden_size"));
  const double p = static_cast<double>(v.Count("patch_size"));
  const double side = static_cast<double>(v.Count("image_size") / v.Count("patch_size"));
  const double tower = VitTower(static_cast<double>(v.CountOr("num_channels", 3)) * p * p, side * side,
                                static_cast<double>(v.Count("num_hidden_layers")), h,
                                static_cast<double>(v.Count("intermediate_size")));
  return tower + h * text + h;
}

// Qwen3-VL and Qwen3.5: a 3D patch convolution with bias, learned positions, the blocks, the
// merger of spatial_merge_size² patches (a LayerNorm, VitTower's, and two linear layers with
// biases) and one more per DeepStack layer, normed after the shuffle (modeling_qwen3_vl.py
// Qwen3VLVisionModel).
double QwenVisionTower(const Config& v, const Config&, double) {
  const double h = static_cast<double>(v.Count("hidden_size"));
  const double p = static_cast<double>(v.Count("patch_size"));
  const double s = static_cast<double>(v.CountOr("spatial_merge_size", 2));
  const double merged = h * s * s;
  const double out = static_cast<double>(v.Count("out_hidden_size"));
  const double merger = merged * merged + merged + merged * out + out;
  const Value deepstack = v.Raw("deepstack_visual_indexes");
  const double stacks = deepstack && deepstack.IsArray() ? static_cast<double>(deepstack.size()) : 0;
  const double inputs = static_cast<double>(v.CountOr("in_channels", 3)) * static_cast<double>(v.CountOr("temporal_patch_size", 2)) * p * p;
  return VitTower(inputs, static_cast<double>(v.Count("num_position_embeddings")), static_cast<double>(v.Count("depth")),
                  h, static_cast<double>(v.Count("intermediate_size"))) +
         merger + stacks * (2 * merged + merger);
}

// Mistral 3: Pixtral (a patch convolution without bias, an RMSNorm, blocks of RMSNorms,
// attention and a gated MLP without biases; modeling_pixtral.py) and the projector: an RMSNorm,
// the merger of spatial_merge_size² patches and two linear layers (modeling_mistral3.py).
double PixtralTower(const Config& v, const Config& outer, double text) {
  const double h = static_cast<double>(v.Count("hidden_size"));
  const double p = static_cast<double>(v.Count("patch_size"));
  const int64_t heads = v.Count("num_attention_heads");
  const double attention = static_cast<double>(heads) * static_cast<double>(v.CountOr("head_dim", v.Count("hidden_size") / heads));
  const double s = static_cast<double>(outer.CountOr("spatial_merge_size", 2));
  const double tower = static_cast<double>(v.CountOr("num_channels", 3)) * p * p * h + h +
                       static_cast<double>(v.Count("num_hidden_layers")) *
                           (2 * h + 4 * h * attention + 3 * h * static_cast<double>(v.Count("intermediate_size")));
  const double bias = outer.Flag("multimodal_projector_bias", false) ? 2 * text : 0;
  return tower + h + h * s * s * h + h * text + text * text + bias;
}

// Two positive whole numbers under `key` (subsampling_conv_channels, merge_kernel_size), else
// `fallback`; anything else is a problem named by the key.
std::array<double, 2> Pair(const Config& c, const char* key, std::array<double, 2> fallback) {
  const Value given = c.Raw(key);
  if (!given) return fallback;
  bool ok = given.IsArray() && given.size() == 2;
  std::size_t i = 0;
  for (const Value item : given.Children()) {
    ok = ok && item.IsInteger() && item.Integer() > 0 && item.Integer() < (int64_t{1} << 20);
    if (ok) fallback[i++] = static_cast<double>(item.Integer());
  }
  if (!ok) c.Fail(key, std::string(key) + " must be two positive whole numbers.");
  return fallback;
}

// Gemma 4's USM audio conformer (a two-convolution subsampler, blocks of two feed-forward
// halves, attention with a relative key projection, a light convolution and norms, an output
// projection with bias) and its projector into the text's width; the defaults are
// Gemma4AudioConfig's (modeling_gemma4.py Gemma4AudioModel, Gemma4MultimodalEmbedder).
double Gemma4Audio(const Config& a, double text) {
  const double h = static_cast<double>(a.CountOr("hidden_size", 1024));
  const double heads = static_cast<double>(a.CountOr("num_attention_heads", 8));
  const double hd = std::floor(h / heads);
  const auto [c0, c1] = Pair(a, "subsampling_conv_channels", {128, 32});
  const double k = static_cast<double>(a.CountOr("conv_kernel_size", 5));
  const double out = static_cast<double>(a.CountOr("output_proj_dims", 1536));
  const double subsample = 9 * c0 + c0 + 9 * c0 * c1 + c1 + std::floor(c0 / 4) * c1 * h;
  const double layer = 2 * (8 * h * h + 2 * h) + 5 * h * heads * hd + hd + 3 * h * h + k * h + 5 * h;
  return subsample + static_cast<double>(a.CountOr("num_hidden_layers", 12)) * layer + out * h + out + out * text;
}

// Gemma 4: the vision tower (a linear patch embedding, a two-axis position table, blocks of
// RMSNorms, attention with q and k norms and a gated MLP, no biases, and the standardization
// vectors when `standardize`) and its projector into the text's width, defaults
// Gemma4VisionConfig's; with an audio_config, the audio tower too (modeling_gemma4.py).
double Gemma4Towers(const Config& v, const Config& outer, double text) {
  const double h = static_cast<double>(v.CountOr("hidden_size", 768));
  const double p = static_cast<double>(v.CountOr("patch_size", 16));
  const double hd = static_cast<double>(v.CountOr("head_dim", 64));
  const double q = static_cast<double>(v.CountOr("num_attention_heads", 12)) * hd;
  const double kv = static_cast<double>(v.CountOr("num_key_value_heads", v.CountOr("num_attention_heads", 12))) * hd;
  const double layer = 2 * h * q + 2 * h * kv + 2 * hd + 3 * h * static_cast<double>(v.CountOr("intermediate_size", 3072)) + 4 * h;
  const double vision = 3 * p * p * h + 2 * static_cast<double>(v.CountOr("position_embedding_size", 10240)) * h +
                        static_cast<double>(v.CountOr("num_hidden_layers", 16)) * layer +
                        (v.Flag("standardize", false) ? 2 * h : 0) + static_cast<double>(v.CountOr("output_proj_dims", v.CountOr("hidden_size", 768))) * text;
  const Value audio = outer.Raw("audio_config");
  return vision + (audio && audio.IsObject() ? Gemma4Audio(outer.Nested(audio, "audio_config."), text) : 0);
}

// Kimi K2.5: MoonViT (a patch convolution with bias, a learned 2D position table, blocks with
// biases, a final LayerNorm; its fields named vt_*) and the projector: a LayerNorm and two linear
// layers with biases from the merge_kernel_size merged patches to the text's width (vLLM's port
// kimi_k25_vit.py, checked shape for shape against the checkpoint's tensors).
double KimiTower(const Config& v, const Config&, double text) {
  const double h = static_cast<double>(v.Count("vt_hidden_size"));
  const double p = static_cast<double>(v.Count("patch_size"));
  const double positions = static_cast<double>(v.CountOr("init_pos_emb_height", 64)) * static_cast<double>(v.CountOr("init_pos_emb_width", 64));
  const auto [kh, kw] = Pair(v, "merge_kernel_size", {2, 2});
  const double merged = h * kh * kw;
  const double tower = VitTower(3 * p * p, positions, static_cast<double>(v.Count("vt_num_hidden_layers")), h,
                                static_cast<double>(v.Count("vt_intermediate_size")));
  return tower + 2 * h + merged * merged + merged + merged * text + text;
}

// Llama 4: a ViT (an unfolded patch convolution without bias, a class embedding, a learned
// position per patch and for the class, LayerNorms before and after the blocks), the pixel-shuffle
// adapter (a two-layer MLP from intermediate_size through projector_input_dim to
// projector_output_dim, biases as multi_modal_projector_bias says) and the projector from
// vision_output_dim into the text's width without bias (modeling_llama4.py Llama4VisionModel,
// Llama4VisionPixelShuffleMLP, Llama4MultiModalProjector).
double Llama4Tower(const Config& v, const Config&, double text) {
  const double h = static_cast<double>(v.Count("hidden_size"));
  const double i = static_cast<double>(v.Count("intermediate_size"));
  const double p = static_cast<double>(v.Count("patch_size"));
  const double side = static_cast<double>(v.Count("image_size") / v.Count("patch_size"));
  const double in = static_cast<double>(v.Count("projector_input_dim"));
  const double out = static_cast<double>(v.Count("projector_output_dim"));
  // VitTower's lone h (a patch bias elsewhere) is the class embedding here, which also has a
  // position; the LayerNorm before the blocks adds 2h beside the one after them.
  const double tower = VitTower(static_cast<double>(v.CountOr("num_channels", 3)) * p * p, side * side + 1,
                                static_cast<double>(v.Count("num_hidden_layers")), h, i) +
                       2 * h;
  const double adapter = i * in + in * out + (v.Flag("multi_modal_projector_bias", false) ? in + out : 0);
  return tower + adapter + static_cast<double>(v.Count("vision_output_dim")) * text;
}

struct VisionType {
  std::string_view type;  // the checkpoint's model_type
  double (*count)(const Config& vision, const Config& outer, double text_hidden);
};

constexpr VisionType kVisionTypes[] = {
    {"gemma3", Gemma3Tower},       {"gemma4", Gemma4Towers},        {"kimi_k25", KimiTower},
    {"llama4", Llama4Tower},         {"mistral3", PixtralTower},      {"qwen3_5", QwenVisionTower},
    {"qwen3_5_moe", QwenVisionTower}, {"qwen3_vl", QwenVisionTower}, {"qwen3_vl_moe", QwenVisionTower},
};

// The towers' parameters, added to the model's note; 0 without a vision_config or a row for it.
void CountTowers(const Config& outer, internal::Problems& problems, ModelSpec& m) {
  const Value vision = outer.Raw("vision_config");
  if (!vision || !vision.IsObject()) return;
  const std::string type = outer.Text("model_type");
  const auto row = std::find_if(std::begin(kVisionTypes), std::end(kVisionTypes),
                                [&type](const VisionType& t) { return t.type == type; });
  if (row == std::end(kVisionTypes)) {
    m.params_formula += "; its vision_config's towers are not counted (no reader for " +
                        std::string(Clipped(type, 40)) + ")";
    return;
  }
  const double towers = row->count(Config(vision, NoDefaults(), problems, "vision_config."), outer,
                                   static_cast<double>(m.hidden_size));
  m.vision_params = std::clamp(towers, 0.0, 9e18);
  m.params_formula += "; the vision tower and its projector apart: " + FormatGrouped(static_cast<int64_t>(m.vision_params)) +
                      " (vision_config)";
}

// The model_type (the text_config's when it names a supported one, else the outer one) and
// its row; none when it is missing or not supported.
const ModelType* TypeOf(const Config& outer, const Config& text) {
  std::string type = text.Text("model_type");
  if (type.empty() || !FindModelType(type)) type = outer.Text("model_type");
  if (type.empty()) {
    outer.Fail("model_type", "model_type is missing; is this a Hugging Face config.json?");
    return nullptr;
  }
  const ModelType* row = FindModelType(type);
  if (row == nullptr) {
    outer.Fail("model_type", "model_type \"" + std::string(Clipped(type, 40)) + "\" is not supported; supported: " +
                                 JoinIds(kModelTypes, [](const ModelType& t) { return t.type; }, "and", false) + ".");
  }
  return row;
}

// The format a quantized checkpoint is published in (quantization_config, at the top or in the
// text_config): transformers' quant_method fp8, mxfp4, awq and gptq (4-bit), ModelOpt's
// quant_algo FP8 or NVFP4, llm-compressor's float-quantized or nvfp4-pack-quantized packing.
// Anything else is left to the request's format.
std::string CheckpointFormat(const Config& outer, const Config& text) {
  Value q = text.Raw("quantization_config");
  if (!q || !q.IsObject()) q = outer.Raw("quantization_config");
  if (!q || !q.IsObject()) return "";
  const Config quant = outer.Nested(q);
  const std::string method = quant.Text("quant_method");
  const std::string algo = quant.Text("quant_algo");
  const bool four_bit = quant.Raw("bits") && quant.Raw("bits").IsInteger() && quant.Raw("bits").Integer() == 4;
  if (method == "fp8" || (method == "modelopt" && algo == "FP8")) return "FP8";
  if (method == "mxfp4") return "MXFP4";
  if (method == "modelopt" && algo == "NVFP4") return "NVFP4";
  // llm-compressor's checkpoints name their packing: FP8 floats or NVFP4.
  if (method == "compressed-tensors" && quant.Text("format") == "float-quantized") return "FP8";
  if (method == "compressed-tensors" && quant.Text("format") == "nvfp4-pack-quantized") return "NVFP4";
  if (method == "awq" && four_bit) return "AWQ_INT4";
  if (method == "gptq" && four_bit) return "GPTQ_INT4";
  return "";
}

// The fields every type shares, named as every type names them.
ModelSpec ReadCommon(const Config& c, const Config& outer, std::string_view type) {
  ModelSpec m;
  m.id = "custom";
  std::string name = outer.Text("_name_or_path");
  if (name.size() > 100) {
    std::size_t cut = 100;  // at a character, not inside one
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
    name.resize(cut);
  }
  // Shown in comments and used in commands: one line, and the repo id or path one shell word.
  for (char& ch : name) ch = static_cast<unsigned char>(ch) < 0x20 ? ' ' : ch;
  m.checkpoint = name.empty() ? "" : ShellWord(name, true);
  m.name = name.empty() ? "Custom " + std::string(type) : name;
  m.family = "config.json (" + std::string(type) + ")";
  m.license = "—";
  m.release = "—";
  m.num_hidden_layers = c.Count("num_hidden_layers");
  m.hidden_size = c.Count("hidden_size");
  m.num_attention_heads = c.Count("num_attention_heads");
  m.num_key_value_heads = c.CountOr("num_key_value_heads", m.num_attention_heads);
  m.vocab_size = c.Count("vocab_size");
  m.max_position_embeddings = c.Count("max_position_embeddings");
  if (m.num_key_value_heads > m.num_attention_heads || m.num_attention_heads % m.num_key_value_heads != 0) {
    c.Fail("num_key_value_heads", "num_key_value_heads (" + std::to_string(m.num_key_value_heads) +
                                      ") must divide num_attention_heads (" + std::to_string(m.num_attention_heads) + ").");
  }
  return m;
}

// The model, or nothing when `problems` holds why not.
std::optional<ModelSpec> Read(Value root, internal::Problems& problems) {
  if (!root.IsObject()) {
    problems.Fail("invalid_config", "model", "A config.json must be a JSON object.");
    return std::nullopt;
  }
  // Multimodal checkpoints keep the language model's fields in text_config.
  const Value nested = root.Find("text_config");
  const Value text = nested && nested.IsObject() ? nested : root;
  const Config outer(root, NoDefaults(), problems);
  const ModelType* type = TypeOf(outer, Config(text, NoDefaults(), problems));
  if (type == nullptr) return std::nullopt;
  const Config c(text, type->defaults(), problems);
  ModelSpec m = ReadCommon(c, outer, type->type);
  m.checkpoint_format = CheckpointFormat(outer, Config(text, NoDefaults(), problems));
  if (problems) return std::nullopt;
  Shape shape = ReadShape(c, *type, m);
  if (problems) return std::nullopt;
  m.layer_groups = LayerGroups(m, shape);
  if (!shape.compressed.empty()) m.attention = Attention::kMla;  // a latent, compressed
  CountParameters(c, *type, shape, m);
  CountTowers(outer, problems, m);
  if (problems) return std::nullopt;
  m.sources = {{"architecture", "pasted config.json"}};
  return m;
}

}  // namespace

namespace internal {

Result<ModelSpec> ParseHfConfigObject(json::Value config) {
  Problems problems;
  std::optional<ModelSpec> model = Read(config, problems);
  if (!model) return problems.first();
  if (auto invalid = ValidateModel(*model)) {
    invalid->field = "model." + invalid->field;
    invalid->message = "The config.json describes no model the estimate can use: " + invalid->message;
    return *invalid;
  }
  return *std::move(model);
}

}  // namespace internal

Result<ModelSpec> ParseHfConfig(std::string_view config_json) {
  json::ParseFailure failure;
  const Result<json::Document> config = json::Document::Parse(config_json, 64, &failure);
  if (config.ok()) return internal::ParseHfConfigObject(config.value().root());
  if (failure.problem == json::Problem::kTooLarge) {
    return Error{"malformed_json", "The config.json holds a number too large to read.", "model"};
  }
  return Error{"malformed_json",
               "The config.json is not valid JSON (error at byte " + std::to_string(failure.byte) + ").", "model"};
}

std::vector<std::string_view> SupportedModelTypes() {
  std::vector<std::string_view> types;
  for (const ModelType& row : kModelTypes) types.push_back(row.type);
  return types;
}

}  // namespace vramcalc
