#include "vramcalc/model_spec.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace vramcalc {
namespace {

Error Invalid(std::string field, std::string message) {
  return Error{"invalid_model", std::move(message), std::move(field)};
}

// A group against its kind's rule (model_spec.h): what it caches per token, per window and per
// sequence, and what a naive MHA cache would hold instead.
std::optional<Error> ValidateGroup(const LayerGroup& group, const std::string& field) {
  const LayerKindRule rule = kLayerKinds.EntryOf(group.kind)->rule;
  const std::string kind(kLayerKinds.Id(group.kind));
  if (group.layers <= 0) return Invalid(field, "Every layer group needs at least one layer.");
  const bool caches = group.kv_heads > 0 && group.key_dim > 0;
  if (caches != rule.caches_tokens || (!rule.caches_tokens && group.value_dim != 0)) {
    return Invalid(field, rule.caches_tokens
                              ? "A " + kind + " group caches kv_heads × (key_dim + value_dim) per token: both must be positive."
                              : "A " + kind + " group caches nothing per token: kv_heads, key_dim and value_dim must be 0.");
  }
  if (group.index_dim > 0 && !rule.caches_tokens) {
    return Invalid(field, "index_dim keys sit beside a cache: a " + kind + " group caches nothing per token.");
  }
  if ((group.window_tokens > 0) != rule.windowed) {
    return Invalid(field, "window_tokens must be positive for a window group and 0 for every other kind.");
  }
  if ((group.state_elements > 0) != rule.has_state) {
    return Invalid(field, "state_elements must be positive for a state group and 0 for every other kind.");
  }
  if (group.state_f32_elements < 0 || group.state_f32_elements > group.state_elements) {
    return Invalid(field, "state_f32_elements are part of the state: from 0 to state_elements.");
  }
  if ((group.compress_ratio > 1) != rule.compressed || group.compress_ratio < 0) {
    return Invalid(field, "compress_ratio must be above 1 for a compressed group and 0 for every other kind.");
  }
  if (rule.caches_tokens && (group.query_heads <= 0 || group.query_key_dim <= 0)) {
    return Invalid(field, "An attention group needs query_heads and query_key_dim for the naive MHA comparison.");
  }
  return std::nullopt;
}

std::optional<Error> ValidateGroups(const ModelSpec& model) {
  if (model.layer_groups.empty()) return Invalid("layer_groups", "A model needs at least one layer group.");
  int64_t layers = 0;
  bool latent = false;
  std::vector<int64_t> windows;
  for (std::size_t i = 0; i < model.layer_groups.size(); ++i) {
    const LayerGroup& group = model.layer_groups[i];
    if (auto invalid = ValidateGroup(group, "layer_groups[" + std::to_string(i) + "]")) return invalid;
    layers += group.layers;
    latent = latent || group.kind == LayerKind::kLatent || group.kind == LayerKind::kCompressed;
    if (std::find(windows.begin(), windows.end(), group.window_tokens) == windows.end()) {
      windows.push_back(group.window_tokens);
    }
  }
  if (windows.size() > kMaxWindowSizes + 1) {
    return Invalid("layer_groups", "At most " + std::to_string(kMaxWindowSizes) + " different window sizes.");
  }
  if (layers != model.num_hidden_layers) {
    return Invalid("layer_groups", "The layer groups hold " + std::to_string(layers) + " layers, not num_hidden_layers (" +
                                       std::to_string(model.num_hidden_layers) + ").");
  }
  if (latent != (model.attention == Attention::kMla)) {
    return Invalid("attention", "Latent attention (MLA) caches a latent: exactly MLA models have latent or compressed layer groups.");
  }
  return std::nullopt;
}

// The attention kind must match the heads: MHA has a KV head per query head, MQA one, GQA
// something in between; MLA stores a latent instead.
bool HeadsMatch(const ModelSpec& model) {
  switch (model.attention) {
    case Attention::kMla: return true;
    case Attention::kMha: return model.num_key_value_heads == model.num_attention_heads;
    case Attention::kMqa: return model.num_key_value_heads == 1;
    case Attention::kGqa:
      return model.num_key_value_heads > 1 && model.num_key_value_heads < model.num_attention_heads;
  }
  return false;
}

// The matrices GGUF's 256-weight blocks do not divide (model_spec.h unaligned_params): parts of
// the parameters read per token and of all of them; none that read a hidden size they divide.
std::optional<Error> ValidateUnaligned(const ModelSpec& model) {
  constexpr const char* kRead = "The unaligned matrices read per token are a part of the active parameters.";
  constexpr const char* kAll = "The unaligned matrices are a part of the parameters.";
  const double read = model.unaligned_params + model.unaligned_hidden_params;
  const double all = read + model.unaligned_expert_params + model.unaligned_hidden_expert_params;
  if (!(model.unaligned_params >= 0 && model.unaligned_params <= model.params_active)) return Invalid("unaligned_params", kRead);
  if (!(model.unaligned_hidden_params >= 0 && read <= model.params_active)) return Invalid("unaligned_hidden_params", kRead);
  if (!(model.unaligned_expert_params >= 0 && all <= model.params_total)) return Invalid("unaligned_expert_params", kAll);
  if (!(model.unaligned_hidden_expert_params >= 0 && all <= model.params_total)) {
    return Invalid("unaligned_hidden_expert_params", kAll);
  }
  const double down = model.expert_down_params;
  if (!(down >= 0 && down <= model.params_total) || (down > 0 && !model.moe)) {
    return Invalid("expert_down_params", "The experts' down projections are a part of a mixture-of-experts model's parameters.");
  }
  if (model.hidden_size % 256 == 0 && model.unaligned_hidden_params + model.unaligned_hidden_expert_params > 0) {
    return Invalid("unaligned_hidden_params", "The hidden size is a multiple of 256: no matrix reading it falls back.");
  }
  return std::nullopt;
}

// The counts of parts of the parameters (or beside them: the towers).
std::optional<Error> ValidateParts(const ModelSpec& model) {
  if (model.per_layer_embedding_params < 0 || model.per_layer_embedding_params >= model.params_total) {
    return Invalid("per_layer_embedding_params", "The per-layer embeddings are a part of the parameters.");
  }
  if (!(model.vision_params >= 0 && model.vision_params <= 1e15)) {
    return Invalid("vision_params", "The vision and audio towers' parameters must be a number from 0 to 10^15.");
  }
  return ValidateUnaligned(model);
}

}  // namespace

std::optional<Error> ValidateModel(const ModelSpec& model) {
  if (model.id.empty()) return Invalid("id", "Every model needs an id.");
  if (model.name.empty()) return Invalid("name", "Every model needs a display name.");
  // About a thousand times the largest open models (some 1e12): beyond, a config.json's sizes
  // are no model (fuzz_config's hidden_size of 4.1e11 made 1.6e19, past int64 in the card).
  constexpr double kMaxParams = 1e15;
  if (!std::isfinite(model.params_total) || model.params_total <= 0 || model.params_total > kMaxParams) {
    return Invalid("params_total", "The total parameter count must be a positive number of at most 10^15.");
  }
  if (!std::isfinite(model.params_active) || model.params_active <= 0 ||
      model.params_active > model.params_total) {
    return Invalid("params_active",
                   "Active parameters must be positive and at most the total parameters.");
  }
  const struct {
    const char* field;
    int64_t value;
  } positive[] = {
      {"num_hidden_layers", model.num_hidden_layers},
      {"hidden_size", model.hidden_size},
      {"num_attention_heads", model.num_attention_heads},
      {"num_key_value_heads", model.num_key_value_heads},
      {"head_dim", model.head_dim},
      {"vocab_size", model.vocab_size},
      {"max_position_embeddings", model.max_position_embeddings},
  };
  for (const auto& [field, value] : positive) {
    if (value <= 0) return Invalid(field, std::string(field) + " must be a positive integer.");
  }
  if (model.num_key_value_heads > model.num_attention_heads ||
      model.num_attention_heads % model.num_key_value_heads != 0) {
    return Invalid("num_key_value_heads",
                   "The KV heads must divide the query heads evenly (each serves a group).");
  }
  if (!HeadsMatch(model)) {
    return Invalid("attention", "The attention kind does not match the query and KV head counts.");
  }
  if (auto invalid = ValidateGroups(model)) return invalid;
  if ((model.topology == Topology::kMoe) != model.moe.has_value()) {
    return Invalid("moe", "A mixture-of-experts model needs the moe block, and only MoE has one.");
  }
  if (auto invalid = ValidateParts(model)) return invalid;
  if (model.topology == Topology::kDense && model.params_active != model.params_total - model.per_layer_embedding_params) {
    return Invalid("params_active", "A dense model reads all its parameters per token but its per-layer embeddings.");
  }
  if (model.moe && (model.moe->experts_per_token <= 0 ||
                    model.moe->experts_per_token > model.moe->num_experts)) {
    return Invalid("moe", "Experts per token must be between 1 and the number of experts.");
  }
  return std::nullopt;
}

}  // namespace vramcalc
