#include "vramcalc/model_spec.h"

#include <cmath>
#include <string>

namespace vramcalc {
namespace {

Error Invalid(std::string field, std::string message) {
  return Error{"invalid_model", std::move(message), std::move(field)};
}

}  // namespace

std::optional<Error> ValidateModel(const ModelSpec& model) {
  if (model.id.empty()) return Invalid("id", "Every model needs an id.");
  if (model.name.empty()) return Invalid("name", "Every model needs a display name.");
  if (!std::isfinite(model.params_total) || model.params_total <= 0) {
    return Invalid("params_total", "The total parameter count must be a positive number.");
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
  // The attention kind must match the heads: MHA has a KV head per query head, MQA one,
  // GQA something in between; MLA stores a latent instead.
  const bool heads_match =
      model.attention == Attention::kMla ||
      (model.attention == Attention::kMha && model.num_key_value_heads == model.num_attention_heads) ||
      (model.attention == Attention::kMqa && model.num_key_value_heads == 1) ||
      (model.attention == Attention::kGqa && model.num_key_value_heads > 1 &&
       model.num_key_value_heads < model.num_attention_heads);
  if (!heads_match) {
    return Invalid("attention", "The attention kind does not match the query and KV head counts.");
  }
  if ((model.attention == Attention::kMla) != model.mla.has_value()) {
    return Invalid("mla", "Latent attention (MLA) needs the mla block, and only MLA has one.");
  }
  if (model.mla && (model.mla->kv_lora_rank <= 0 || model.mla->qk_rope_head_dim <= 0 ||
                    model.mla->qk_nope_head_dim <= 0 || model.mla->v_head_dim <= 0)) {
    return Invalid("mla", "Every MLA dimension must be a positive integer.");
  }
  if (model.mla && model.head_dim != model.mla->v_head_dim) {
    return Invalid("head_dim", "An MLA model's head_dim is its v_head_dim.");
  }
  if (model.sliding_window &&
      (model.sliding_window->window_tokens <= 0 || model.sliding_window->local_layers <= 0 ||
       model.sliding_window->local_layers > model.num_hidden_layers)) {
    return Invalid("sliding_window",
                   "A sliding window needs a positive size and 1 to num_hidden_layers local layers.");
  }
  if ((model.topology == Topology::kMoe) != model.moe.has_value()) {
    return Invalid("moe", "A mixture-of-experts model needs the moe block, and only MoE has one.");
  }
  if (model.topology == Topology::kDense && model.params_active != model.params_total) {
    return Invalid("params_active", "A dense model reads all its parameters per token.");
  }
  if (model.moe && (model.moe->experts_per_token <= 0 ||
                    model.moe->experts_per_token > model.moe->num_experts)) {
    return Invalid("moe", "Experts per token must be between 1 and the number of experts.");
  }
  if (model.sources.empty()) return Invalid("sources", "Every catalog entry names its source.");
  return std::nullopt;
}

}  // namespace vramcalc
