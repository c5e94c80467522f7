// Hugging Face config.json → ModelSpec, read with the core's JSON reader (json_dom.h).
//
// Every supported model_type is a row of kModelTypes: which rule finds its windowed layers,
// how its experts are named and sized, whether its attention is a latent (MLA), its embedding
// default and transformers' defaults for fields it may omit. The shared code reads the common
// fields, turns the row's findings into layer groups and counts the parameters; a new model
// type is a row (and, for a new arrangement, one rule function), never a branch here.
#include "vramcalc/hf_config.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hf_config_internal.h"
#include "json_dom.h"
#include "vramcalc/display.h"
#include "vramcalc/vocab.h"

namespace vramcalc {
namespace {

using json::Value;

struct ConfigError {
  std::string field;
  std::string message;
};

[[noreturn]] void Fail(const std::string& field, const std::string& message) {
  throw ConfigError{field.empty() ? "model" : "model." + field, message};
}

// Field access with the config's own names in every message. A key set to null is "not set".
class Config {
 public:
  Config(Value object, Value defaults) : object_(object), defaults_(defaults) {}

  bool Has(const char* key) const { return static_cast<bool>(Get(key)); }

  int64_t Count(const char* key) const {
    const Value value = Get(key);
    if (!value) Fail(key, std::string(key) + " is missing from the config.");
    return CountValue(key, value);
  }
  int64_t CountOr(const char* key, int64_t fallback) const {
    const Value value = Get(key);
    return value ? CountValue(key, value) : fallback;
  }
  bool Flag(const char* key, bool fallback) const {
    const Value value = Get(key);
    if (!value) return fallback;
    if (value.type() != json::Type::kBool) Fail(key, std::string(key) + " must be true or false.");
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
  static int64_t CountValue(const char* key, Value value) {
    if (!value.IsInteger() || value.Integer() <= 0 || value.Integer() > (int64_t{1} << 40)) {
      Fail(key, std::string(key) + " must be a positive whole number, not " +
                    std::string(value.Source().substr(0, 40)) + ".");
    }
    return value.Integer();
  }
  Value object_;
  Value defaults_;
};

// What a config says beyond ModelSpec's common fields: the latent, the windowed layers and
// the expert layout, as the type's rules find them.
struct Shape {
  struct Latent {
    int64_t kv_lora_rank, qk_rope_head_dim, qk_nope_head_dim, v_head_dim;
  };
  std::optional<Latent> latent;
  int64_t window = 0;        // tokens a windowed layer keeps
  int64_t local_layers = 0;  // how many layers are windowed
  std::string pattern;       // how they interleave, for the layer group's note
  // Experts, in parameters: one routed expert, all shared experts of a layer, the layers with
  // experts, and a dense layer's MLP when a type sizes it apart.
  double expert = 0;
  double shared = 0;
  double moe_layers = 0;
  double dense_layer_mlp = 0;
};

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

// ---- layer groups -------------------------------------------------------------------------

// The layer groups of an attention model: one latent group (MLA), or the global layers and
// the windowed ones.
std::vector<LayerGroup> AttentionGroups(const Config&, const ModelSpec& m, const Shape& shape) {
  if (shape.latent) {
    const Shape::Latent& l = *shape.latent;
    return {LayerGroup{.kind = LayerKind::kLatent, .layers = m.num_hidden_layers, .kv_heads = 1,
                       .key_dim = l.kv_lora_rank + l.qk_rope_head_dim, .query_heads = m.num_attention_heads,
                       .query_key_dim = l.qk_nope_head_dim + l.qk_rope_head_dim, .query_value_dim = l.v_head_dim}};
  }
  const LayerGroup attention{.kind = LayerKind::kFull, .kv_heads = m.num_key_value_heads, .key_dim = m.head_dim,
                             .value_dim = m.head_dim, .query_heads = m.num_attention_heads,
                             .query_key_dim = m.head_dim, .query_value_dim = m.head_dim};
  std::vector<LayerGroup> groups;
  if (m.num_hidden_layers > shape.local_layers) {
    groups.push_back(attention);
    groups.back().layers = m.num_hidden_layers - shape.local_layers;
  }
  if (shape.local_layers > 0) {
    groups.push_back(attention);
    groups.back().kind = LayerKind::kWindow;
    groups.back().layers = shape.local_layers;
    groups.back().window_tokens = shape.window;
  }
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

struct ModelType {
  std::string_view type;
  void (*window)(const Config&, const ModelSpec&, Shape&);  // when the config has no layer_types
  Experts (*experts)(const Config&, const ModelSpec&, Shape&);
  // What its layers cache: a family whose layers are not all attention (linear attention, SSM)
  // reads its own groups from its config.
  std::vector<LayerGroup> (*groups)(const Config&, const ModelSpec&, const Shape&);
  bool latent;                    // DeepSeek's multi-head latent attention fields
  bool tied_by_default;           // tie_word_embeddings when the config omits it
  const char* layer_types_window;  // the window's key when layer_types marks windowed layers
  Value (*defaults)();
};

constexpr ModelType kModelTypes[] = {
    {"deepseek_v2", NoWindow, DeepSeekExperts, AttentionGroups, true, false, "sliding_window", NoDefaults},
    {"deepseek_v3", NoWindow, DeepSeekExperts, AttentionGroups, true, false, "sliding_window", NoDefaults},
    {"gemma2", AlternatingWindow, NoExperts, AttentionGroups, false, true, "sliding_window", NoDefaults},
    {"gemma3", EveryNthGlobal, NoExperts, AttentionGroups, false, true, "sliding_window", Gemma3Defaults},
    {"gemma3_text", EveryNthGlobal, NoExperts, AttentionGroups, false, true, "sliding_window", Gemma3Defaults},
    {"glm4", NoWindow, NoExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
    {"gpt_oss", AlternatingWindow, LocalExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
    {"llama", NoWindow, NoExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
    {"llama4", ChunkedAttention, Llama4Experts, AttentionGroups, false, false, "attention_chunk_size", NoDefaults},
    {"llama4_text", ChunkedAttention, Llama4Experts, AttentionGroups, false, false, "attention_chunk_size", NoDefaults},
    {"mistral", WindowOnEveryLayer, NoExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
    {"mixtral", WindowOnEveryLayer, LocalExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
    {"phi3", WindowOnEveryLayer, NoExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
    {"qwen2", QwenWindow, NoExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
    {"qwen2_moe", QwenWindow, QwenExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
    {"qwen3", QwenWindow, NoExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
    {"qwen3_moe", QwenWindow, QwenExperts, AttentionGroups, false, false, "sliding_window", NoDefaults},
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
  } else {
    const Value kinds = c.Raw("layer_types");
    if (!kinds.IsArray() || static_cast<int64_t>(kinds.size()) != m.num_hidden_layers) {
      Fail("layer_types", "layer_types must list one entry per hidden layer (" +
                              std::to_string(m.num_hidden_layers) + ").");
    }
    for (const Value entry : kinds.Children()) {
      if (!entry.IsString()) Fail("layer_types", "layer_types must hold strings.");
      const std::string_view kind = entry.String();
      if (kind == "sliding_attention" || kind == "chunked_attention") ++shape.local_layers;
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
    m.num_key_value_heads = m.num_attention_heads;
    m.head_dim = shape.latent->v_head_dim;
  } else {
    if (c.Has("head_dim")) {
      m.head_dim = c.Count("head_dim");
    } else if (m.hidden_size % m.num_attention_heads == 0) {
      m.head_dim = m.hidden_size / m.num_attention_heads;
    } else {
      Fail("head_dim", "head_dim is missing and hidden_size is not a multiple of num_attention_heads.");
    }
    m.attention = m.num_key_value_heads == m.num_attention_heads ? Attention::kMha
                  : m.num_key_value_heads == 1                   ? Attention::kMqa
                                                                  : Attention::kGqa;
  }
  const Experts experts = type.experts(c, m, shape);
  if (experts.count > 0) {
    if (experts.per_token > experts.count) Fail("num_experts_per_tok", "More experts per token than experts.");
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
    return h * heads * d * 2 + h * static_cast<double>(m.num_key_value_heads) * d * 2;  // q and o, k and v
  }
  const Shape::Latent& l = *shape.latent;
  const double qk = static_cast<double>(l.qk_nope_head_dim + l.qk_rope_head_dim);
  const double kv_lora = static_cast<double>(l.kv_lora_rank);
  const double q = c.Has("q_lora_rank") ? h * static_cast<double>(c.Count("q_lora_rank")) +
                                              static_cast<double>(c.Count("q_lora_rank")) * heads * qk
                                        : h * heads * qk;
  return q + h * (kv_lora + static_cast<double>(l.qk_rope_head_dim)) +
         kv_lora * heads * static_cast<double>(l.qk_nope_head_dim + l.v_head_dim) +
         heads * static_cast<double>(l.v_head_dim) * h;
}

// The arithmetic of CountParameters, for the card.
std::string ParamsFormula(const ModelSpec& m, const Shape& shape, bool tied, double attention, double router) {
  auto n = [](double value) { return FormatGrouped(static_cast<int64_t>(value)); };
  const double dense_layers = static_cast<double>(m.num_hidden_layers) - shape.moe_layers;
  std::string formula = n(static_cast<double>(m.vocab_size)) + " × " + n(static_cast<double>(m.hidden_size)) +
                        (tied ? " (tied embeddings)" : " × 2 (untied embeddings)");
  if (dense_layers > 0) {
    formula += " + " + n(dense_layers) + " × (attention " + n(attention) + " + MLP " + n(shape.dense_layer_mlp) + ")";
  }
  if (shape.moe_layers > 0) {
    formula += " + " + n(shape.moe_layers) + " × (attention " + n(attention) + " + " +
               n(static_cast<double>(m.moe->num_experts)) + " experts × " + n(shape.expert) +
               (shape.shared > 0 ? " + shared " + n(shape.shared) : "") + " + router " + n(router) + ")";
  }
  formula += " = " + n(m.params_total);
  if (m.moe) {
    formula += "; active per token with " + n(static_cast<double>(m.moe->experts_per_token)) +
               " experts: " + n(m.params_active);
  }
  return formula + " (norms and biases, under 0.1 %, left out)";
}

// Parameters from the shapes: embeddings, attention and gated MLP or expert weights per layer
// (gate, up and down projections).
void CountParameters(const Config& c, const ModelType& type, Shape& shape, ModelSpec& m) {
  const double h = static_cast<double>(m.hidden_size);
  const double layers = static_cast<double>(m.num_hidden_layers);
  const bool tied = c.Flag("tie_word_embeddings", type.tied_by_default);
  m.tie_word_embeddings = tied;
  const double attention = AttentionParams(c, m, shape);
  const double router = m.moe ? h * static_cast<double>(m.moe->num_experts) : 0;
  const double dense_layers = layers - shape.moe_layers;
  if (dense_layers > 0 && shape.dense_layer_mlp == 0) {
    shape.dense_layer_mlp = 3 * h * static_cast<double>(c.Count("intermediate_size"));
  }
  const double embeddings = static_cast<double>(m.vocab_size) * h * (tied ? 1 : 2);
  const double experts = static_cast<double>(m.moe ? m.moe->num_experts : 0);
  const double per_token = static_cast<double>(m.moe ? m.moe->experts_per_token : 0);
  const double per_moe_layer_total = attention + experts * shape.expert + shape.shared + router;
  const double per_moe_layer_active = attention + per_token * shape.expert + shape.shared + router;
  const double per_dense_layer = attention + shape.dense_layer_mlp;
  m.params_total = embeddings + dense_layers * per_dense_layer + shape.moe_layers * per_moe_layer_total;
  m.params_active = embeddings + dense_layers * per_dense_layer + shape.moe_layers * per_moe_layer_active;
  m.params_formula = ParamsFormula(m, shape, tied, attention, router);
  if (m.moe) m.moe->expert_params = experts * shape.expert * shape.moe_layers;
}

// The model_type (the text_config's when it names a supported one, else the outer one) and
// its row.
const ModelType& TypeOf(const Config& outer, const Config& text) {
  std::string type = text.Text("model_type");
  if (type.empty() || !FindModelType(type)) type = outer.Text("model_type");
  if (type.empty()) Fail("model_type", "model_type is missing; is this a Hugging Face config.json?");
  const ModelType* row = FindModelType(type);
  if (row == nullptr) {
    Fail("model_type", "model_type \"" + type.substr(0, 40) + "\" is not supported; supported: " +
                           JoinIds(kModelTypes, [](const ModelType& t) { return t.type; }, "and", false) + ".");
  }
  return *row;
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
  m.checkpoint = name;
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
    Fail("num_key_value_heads", "num_key_value_heads (" + std::to_string(m.num_key_value_heads) +
                                    ") must divide num_attention_heads (" + std::to_string(m.num_attention_heads) + ").");
  }
  return m;
}

ModelSpec Read(Value root) {
  if (!root.IsObject()) Fail("", "A config.json must be a JSON object.");
  // Multimodal checkpoints keep the language model's fields in text_config.
  const Value nested = root.Find("text_config");
  const Value text = nested && nested.IsObject() ? nested : root;
  const Config outer(root, NoDefaults());
  const ModelType& type = TypeOf(outer, Config(text, NoDefaults()));
  const Config c(text, type.defaults());
  ModelSpec m = ReadCommon(c, outer, type.type);
  Shape shape = ReadShape(c, type, m);
  m.layer_groups = type.groups(c, m, shape);
  CountParameters(c, type, shape, m);
  m.sources = {{"architecture", "pasted config.json"}};
  return m;
}

}  // namespace

namespace internal {

Result<ModelSpec> ParseHfConfigObject(json::Value config) {
  try {
    ModelSpec model = Read(config);
    if (auto invalid = ValidateModel(model)) {
      invalid->field = "model." + invalid->field;
      invalid->message = "The config.json describes no model the estimate can use: " + invalid->message;
      return *invalid;
    }
    return model;
  } catch (const ConfigError& e) {
    return Error{"invalid_config", e.message, e.field};
  } catch (const std::exception& e) {
    return Error{"invalid_config", std::string("The config.json could not be read: ") + e.what(), "model"};
  }
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
