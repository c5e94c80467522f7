// Hugging Face config.json → ModelSpec. A second translation unit with nlohmann/json (the
// request codec is the first): the config rules are a subject of their own.
#include "vramcalc/hf_config.h"

#include <cmath>
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "hf_config_internal.h"
#include "vramcalc/display.h"

namespace vramcalc {
namespace {

using Json = nlohmann::json;

struct ConfigError {
  std::string field;
  std::string message;
};

[[noreturn]] void Fail(const std::string& field, const std::string& message) {
  throw ConfigError{field.empty() ? "model" : "model." + field, message};
}

const std::set<std::string>& SupportedTypes() {
  static const std::set<std::string> kTypes = {
      "llama",   "mistral",    "mixtral",     "qwen2",       "qwen2_moe", "qwen3",
      "qwen3_moe", "gemma2",   "gemma3",      "gemma3_text", "glm4",      "deepseek_v2",
      "deepseek_v3", "gpt_oss", "phi3",       "llama4",      "llama4_text"};
  return kTypes;
}

// The defaults transformers fills in for fields a config may leave out. Gemma 3's
// multimodal checkpoints (gemma-3-4b-it and up) omit most of their text_config:
// Gemma3TextConfig in transformers' configuration_gemma3.py.
const Json& NoDefaults() {
  static const Json kNone = Json::object();
  return kNone;
}

const Json& DefaultsFor(const std::string& type) {
  static const Json kGemma3 = {
      {"vocab_size", 262208},        {"hidden_size", 2304},        {"intermediate_size", 9216},
      {"num_hidden_layers", 26},     {"num_attention_heads", 8},   {"num_key_value_heads", 4},
      {"head_dim", 256},             {"max_position_embeddings", 131072},
      {"sliding_window", 4096},      {"sliding_window_pattern", 6}, {"tie_word_embeddings", true}};
  return type == "gemma3" || type == "gemma3_text" ? kGemma3 : NoDefaults();
}

// Field access with the config's own names in every message.
class Config {
 public:
  Config(const Json& object, const Json& defaults) : object_(object), defaults_(defaults) {}

  bool Has(const char* key) const { return Get(key) != nullptr; }

  int64_t Count(const char* key) const {
    const Json* value = Get(key);
    if (value == nullptr) Fail(key, std::string(key) + " is missing from the config.");
    return CountValue(key, *value);
  }
  int64_t CountOr(const char* key, int64_t fallback) const {
    const Json* value = Get(key);
    return value ? CountValue(key, *value) : fallback;
  }
  bool Flag(const char* key, bool fallback) const {
    const Json* value = Get(key);
    if (value == nullptr) return fallback;
    if (!value->is_boolean()) Fail(key, std::string(key) + " must be true or false.");
    return value->get<bool>();
  }
  std::string Text(const char* key) const {
    const Json* value = Get(key);
    return value && value->is_string() ? value->get<std::string>() : "";
  }
  const Json& Raw(const char* key) const { return *Get(key); }

 private:
  const Json* Get(const char* key) const {
    if (object_.contains(key) && !object_[key].is_null()) return &object_[key];
    if (defaults_.contains(key)) return &defaults_[key];
    return nullptr;
  }
  static int64_t CountValue(const char* key, const Json& value) {
    if (!value.is_number_integer() || value.get<int64_t>() <= 0 ||
        value.get<int64_t>() > (int64_t{1} << 40)) {
      Fail(key, std::string(key) + " must be a positive whole number, not " +
                    value.dump().substr(0, 40) + ".");
    }
    return value.get<int64_t>();
  }
  const Json& object_;
  const Json& defaults_;
};

// How many of the layers attend to a bounded window, from layer_types or the type's rule.
void ReadWindow(const Config& c, const std::string& type, ModelSpec& m) {
  const int64_t layers = m.num_hidden_layers;
  int64_t window = 0;
  int64_t local = 0;
  std::string pattern;
  if (c.Has("layer_types")) {
    const Json& types = c.Raw("layer_types");
    if (!types.is_array() || static_cast<int64_t>(types.size()) != layers) {
      Fail("layer_types", "layer_types must list one entry per hidden layer (" +
                              std::to_string(layers) + ").");
    }
    for (const Json& entry : types) {
      if (!entry.is_string()) Fail("layer_types", "layer_types must hold strings.");
      const std::string kind = entry.get<std::string>();
      if (kind == "sliding_attention" || kind == "chunked_attention") ++local;
    }
    pattern = "layer_types: " + std::to_string(local) + " windowed, " +
              std::to_string(layers - local) + " global";
    if (local > 0) {
      window = type.rfind("llama4", 0) == 0 ? c.Count("attention_chunk_size") : c.Count("sliding_window");
    }
  } else if (type == "gemma2") {
    window = c.Count("sliding_window");
    local = (layers + 1) / 2;  // layers 0, 2, 4, … use the window
    pattern = "alternating local / global";
  } else if (type == "gemma3" || type == "gemma3_text") {
    window = c.Count("sliding_window");
    const int64_t every = c.CountOr("sliding_window_pattern", 6);
    local = layers - layers / every;  // every `every`-th layer is global
    pattern = std::to_string(every - 1) + " local : 1 global";
  } else if (type == "gpt_oss") {
    window = c.Count("sliding_window");
    local = (layers + 1) / 2;
    pattern = "alternating sliding / full attention";
  } else if (type.rfind("qwen", 0) == 0) {
    if (c.Flag("use_sliding_window", false)) {
      window = c.Count("sliding_window");
      local = layers - std::min(layers, c.CountOr("max_window_layers", layers));
      pattern = "layers from max_window_layers on";
    }
  } else if (type == "mistral" || type == "mixtral" || type == "phi3") {
    if (c.Has("sliding_window")) {
      window = c.Count("sliding_window");
      local = layers;
      pattern = "every layer";
    }
  } else if (type.rfind("llama4", 0) == 0) {
    if (c.Has("attention_chunk_size")) {
      window = c.Count("attention_chunk_size");
      const int64_t every = c.CountOr("no_rope_layer_interval", 4);
      local = layers - layers / every;
      pattern = std::to_string(every - 1) + " chunked : 1 global";
    }
  }
  // A window as long as the model's context never bounds anything.
  if (local > 0 && window < m.max_position_embeddings) {
    m.sliding_window = SlidingWindowSpec{window, local, pattern};
  }
}

// Parameters from the shapes: embeddings, attention and MLP/expert weights per layer.
void CountParameters(const Config& c, const std::string& type, ModelSpec& m) {
  const double h = static_cast<double>(m.hidden_size);
  const double heads = static_cast<double>(m.num_attention_heads);
  const double kv_heads = static_cast<double>(m.num_key_value_heads);
  const double d = static_cast<double>(m.head_dim);
  const double layers = static_cast<double>(m.num_hidden_layers);
  const double vocab = static_cast<double>(m.vocab_size);
  const bool gemma = type.rfind("gemma", 0) == 0;
  const bool tied = c.Flag("tie_word_embeddings", gemma);

  double attention;
  if (m.mla) {
    const double qk = static_cast<double>(m.mla->qk_nope_head_dim + m.mla->qk_rope_head_dim);
    const double kv_lora = static_cast<double>(m.mla->kv_lora_rank);
    const double q = c.Has("q_lora_rank")
                         ? h * static_cast<double>(c.Count("q_lora_rank")) +
                               static_cast<double>(c.Count("q_lora_rank")) * heads * qk
                         : h * heads * qk;
    attention = q + h * (kv_lora + static_cast<double>(m.mla->qk_rope_head_dim)) +
                kv_lora * heads * static_cast<double>(m.mla->qk_nope_head_dim + m.mla->v_head_dim) +
                heads * static_cast<double>(m.mla->v_head_dim) * h;
  } else {
    attention = h * heads * d * 2 + h * kv_heads * d * 2;  // q and o, k and v
  }

  // Dense and MoE layers (every MLP is gated: gate, up and down projections).
  double moe_layers = 0;
  double expert = 0;         // one routed expert
  double shared = 0;         // all shared experts of one layer
  double router = 0;
  double dense_layer_mlp = 0;
  if (m.moe) {
    const double experts = static_cast<double>(m.moe->num_experts);
    if (type == "mixtral" || type == "gpt_oss") {
      expert = 3 * h * static_cast<double>(c.Count("intermediate_size"));
      moe_layers = layers;
    } else if (type.rfind("llama4", 0) == 0) {
      expert = 3 * h * static_cast<double>(c.Count("intermediate_size"));
      shared = expert;  // one shared expert per MoE layer
      const int64_t step = c.CountOr("interleave_moe_layer_step", 1);
      moe_layers = std::floor(layers / static_cast<double>(step));
      dense_layer_mlp = 3 * h * static_cast<double>(c.CountOr("intermediate_size_mlp", c.Count("intermediate_size")));
    } else if (type == "deepseek_v2" || type == "deepseek_v3") {
      expert = 3 * h * static_cast<double>(c.Count("moe_intermediate_size"));
      shared = static_cast<double>(m.moe->shared_experts) * expert;
      moe_layers = layers - static_cast<double>(std::min(m.num_hidden_layers, c.CountOr("first_k_dense_replace", 0)));
    } else {  // qwen2_moe, qwen3_moe
      expert = 3 * h * static_cast<double>(c.Count("moe_intermediate_size"));
      if (c.Has("shared_expert_intermediate_size")) {
        shared = 3 * h * static_cast<double>(c.Count("shared_expert_intermediate_size"));
      }
      moe_layers = layers;
    }
    router = h * experts;
  }
  const double dense_layers = layers - moe_layers;
  if (dense_layers > 0 && dense_layer_mlp == 0) {
    dense_layer_mlp = 3 * h * static_cast<double>(c.Count("intermediate_size"));
  }
  const double embeddings = vocab * h * (tied ? 1 : 2);
  const double per_moe_layer_total =
      attention + static_cast<double>(m.moe ? m.moe->num_experts : 0) * expert + shared + router;
  const double per_moe_layer_active =
      attention + static_cast<double>(m.moe ? m.moe->experts_per_token : 0) * expert + shared + router;
  const double per_dense_layer = attention + dense_layer_mlp;
  m.params_total = embeddings + dense_layers * per_dense_layer + moe_layers * per_moe_layer_total;
  m.params_active = embeddings + dense_layers * per_dense_layer + moe_layers * per_moe_layer_active;

  auto n = [](double value) { return FormatGrouped(static_cast<int64_t>(value)); };
  std::string formula = n(vocab) + " × " + n(h) + (tied ? " (tied embeddings)" : " × 2 (untied embeddings)");
  if (dense_layers > 0) {
    formula += " + " + n(dense_layers) + " × (attention " + n(attention) + " + MLP " + n(dense_layer_mlp) + ")";
  }
  if (moe_layers > 0) {
    formula += " + " + n(moe_layers) + " × (attention " + n(attention) + " + " +
               n(static_cast<double>(m.moe->num_experts)) + " experts × " + n(expert) +
               (shared > 0 ? " + shared " + n(shared) : "") + " + router " + n(router) + ")";
  }
  formula += " = " + n(m.params_total);
  if (m.moe) {
    formula += "; active per token with " + n(static_cast<double>(m.moe->experts_per_token)) +
               " experts: " + n(m.params_active);
  }
  m.params_formula = formula + " (norms and biases, under 0.1 %, left out)";
}

ModelSpec Read(const Json& root) {
  if (!root.is_object()) Fail("", "A config.json must be a JSON object.");
  // Multimodal checkpoints keep the language model's fields in text_config.
  const bool nested = root.contains("text_config") && root["text_config"].is_object();
  const Json& text = nested ? root["text_config"] : root;
  // Config keeps a reference to its defaults: they must outlive it (no temporaries).
  const Config outer(root, NoDefaults());

  std::string type = Config(text, NoDefaults()).Text("model_type");
  if (type.empty() || !SupportedTypes().count(type)) type = outer.Text("model_type");
  if (type.empty()) Fail("model_type", "model_type is missing; is this a Hugging Face config.json?");
  if (!SupportedTypes().count(type)) {
    std::string list;
    for (const std::string& known : SupportedTypes()) list += (list.empty() ? "" : ", ") + known;
    Fail("model_type", "model_type \"" + type.substr(0, 40) + "\" is not supported; supported: " + list + ".");
  }
  const Config c(text, DefaultsFor(type));

  ModelSpec m;
  m.id = "custom";
  std::string name = outer.Text("_name_or_path");
  if (name.size() > 100) name.resize(100);
  m.checkpoint = name;
  m.name = name.empty() ? "Custom " + type : name;
  m.family = "config.json (" + type + ")";
  m.license = "—";
  m.release = "—";
  m.num_hidden_layers = c.Count("num_hidden_layers");
  m.hidden_size = c.Count("hidden_size");
  m.num_attention_heads = c.Count("num_attention_heads");
  m.num_key_value_heads = c.CountOr("num_key_value_heads", m.num_attention_heads);
  m.vocab_size = c.Count("vocab_size");
  m.max_position_embeddings = c.Count("max_position_embeddings");
  if (m.num_key_value_heads > m.num_attention_heads ||
      m.num_attention_heads % m.num_key_value_heads != 0) {
    Fail("num_key_value_heads", "num_key_value_heads (" + std::to_string(m.num_key_value_heads) +
                                    ") must divide num_attention_heads (" +
                                    std::to_string(m.num_attention_heads) + ").");
  }

  if (type == "deepseek_v2" || type == "deepseek_v3") {
    m.attention = Attention::kMla;
    m.mla = MlaSpec{c.Count("kv_lora_rank"), c.Count("qk_rope_head_dim"), c.Count("qk_nope_head_dim"),
                    c.Count("v_head_dim")};
    m.num_key_value_heads = m.num_attention_heads;
    m.head_dim = m.mla->v_head_dim;
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

  // Mixture of experts: the type's own names for the expert counts.
  int64_t experts = 0;
  int64_t per_token = 0;
  int64_t shared_experts = 0;
  if (type == "mixtral" || type == "gpt_oss" || type.rfind("llama4", 0) == 0) {
    experts = c.Count("num_local_experts");
    per_token = c.Has("num_experts_per_tok") ? c.Count("num_experts_per_tok") : c.Count("experts_per_token");
    if (type.rfind("llama4", 0) == 0) shared_experts = 1;
  } else if (type == "qwen2_moe" || type == "qwen3_moe") {
    experts = c.Count("num_experts");
    per_token = c.Count("num_experts_per_tok");
    shared_experts = c.Has("shared_expert_intermediate_size") ? 1 : 0;
  } else if (type == "deepseek_v2" || type == "deepseek_v3") {
    experts = c.Count("n_routed_experts");
    per_token = c.Count("num_experts_per_tok");
    shared_experts = c.CountOr("n_shared_experts", 0);
  }
  if (experts > 0) {
    if (per_token > experts) Fail("num_experts_per_tok", "More experts per token than experts.");
    m.topology = Topology::kMoe;
    m.moe = MoeSpec{experts, per_token, shared_experts};
  }

  ReadWindow(c, type, m);
  CountParameters(c, type, m);
  m.sources = {{"architecture", "pasted config.json"}};
  return m;
}

}  // namespace

namespace internal {

Result<ModelSpec> ParseHfConfigObject(const nlohmann::json& config) {
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
  try {
    return internal::ParseHfConfigObject(nlohmann::json::parse(config_json));
  } catch (const nlohmann::json::parse_error& e) {
    return Error{"malformed_json",
                 "The config.json is not valid JSON (error at byte " + std::to_string(e.byte) + ").",
                 "model"};
  } catch (const nlohmann::json::exception&) {
    // out_of_range while parsing: a number beyond a double's range, such as 1e400.
    return Error{"malformed_json", "The config.json holds a number too large to read.", "model"};
  }
}

}  // namespace vramcalc
