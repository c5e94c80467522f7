// Model specs written out by hand from their sources, so the formula tests do not read the
// catalog they would otherwise be checking.
#ifndef VRAMCALC_TESTS_CORE_TEST_MODELS_H_
#define VRAMCALC_TESTS_CORE_TEST_MODELS_H_

#include <cstdint>

#include "vramcalc/model_spec.h"

namespace vramcalc::testing {

// A GQA/MHA/MQA model's layers: `m.num_hidden_layers` layers of full attention, the last
// `local_layers` of them windowed at `window` tokens (none when local_layers is 0).
inline void SetLayers(ModelSpec& m, int64_t window = 0, int64_t local_layers = 0) {
  const LayerGroup attention{.kind = LayerKind::kFull, .layers = m.num_hidden_layers - local_layers,
                             .kv_heads = m.num_key_value_heads, .key_dim = m.head_dim, .value_dim = m.head_dim,
                             .query_heads = m.num_attention_heads, .query_key_dim = m.head_dim,
                             .query_value_dim = m.head_dim};
  m.layer_groups.clear();
  if (attention.layers > 0) m.layer_groups.push_back(attention);
  if (local_layers > 0) {
    LayerGroup windowed = attention;
    windowed.kind = LayerKind::kWindow;
    windowed.layers = local_layers;
    windowed.window_tokens = window;
    m.layer_groups.push_back(windowed);
  }
}

// The windowed layers of a model: how many, and their window (0, 0 when there are none).
struct Windowed {
  int64_t window = 0;
  int64_t layers = 0;
};
inline Windowed WindowedLayers(const ModelSpec& m) {
  Windowed windowed;
  for (const LayerGroup& group : m.layer_groups) {
    if (group.kind != LayerKind::kWindow) continue;
    windowed.window = group.window_tokens;
    windowed.layers += group.layers;
  }
  return windowed;
}

// GLM-4-32B-0414: https://huggingface.co/THUDM/GLM-4-32B-0414/blob/main/config.json
// (num_hidden_layers 61, hidden_size 6144, num_attention_heads 48, num_key_value_heads 2,
// head_dim 128, vocab_size 151552, max_position_embeddings 32768); 32B parameters as the
// reference page computes with.
inline ModelSpec Glm4_32b() {
  ModelSpec m;
  m.id = "glm-4-32b-0414";
  m.name = "GLM-4-32B-0414";
  m.family = "Zhipu GLM";
  m.checkpoint = "THUDM/GLM-4-32B-0414";
  m.license = "MIT";
  m.release = "2025-Q2";
  m.params_total = 32e9;
  m.params_active = 32e9;
  m.num_hidden_layers = 61;
  m.hidden_size = 6144;
  m.num_attention_heads = 48;
  m.num_key_value_heads = 2;
  m.head_dim = 128;
  m.vocab_size = 151552;
  m.max_position_embeddings = 32768;
  SetLayers(m);
  m.sources = {{"architecture", "https://huggingface.co/THUDM/GLM-4-32B-0414/blob/main/config.json"}};
  return m;
}

// DeepSeek-V3's attention: https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json
// (num_hidden_layers 61, num_attention_heads 128, kv_lora_rank 512, qk_rope_head_dim 64,
// qk_nope_head_dim 128, v_head_dim 128, hidden_size 7168); 671B total, 37B active.
inline ModelSpec DeepSeekV3() {
  ModelSpec m;
  m.id = "deepseek-v3";
  m.name = "DeepSeek-V3";
  m.topology = Topology::kMoe;
  m.attention = Attention::kMla;
  m.params_total = 671e9;
  m.params_active = 37e9;
  m.num_hidden_layers = 61;
  m.hidden_size = 7168;
  m.num_attention_heads = 128;
  m.num_key_value_heads = 128;
  m.head_dim = 128;
  m.vocab_size = 129280;
  m.max_position_embeddings = 163840;
  // One latent of kv_lora_rank + qk_rope_head_dim = 576 per token and layer; a naive MHA cache
  // would hold 128 heads × (qk_nope 128 + qk_rope 64 + v 128).
  m.layer_groups = {LayerGroup{.kind = LayerKind::kLatent, .layers = 61, .kv_heads = 1, .key_dim = 512 + 64,
                               .query_heads = 128, .query_key_dim = 128 + 64, .query_value_dim = 128}};
  m.moe = MoeSpec{256, 8, 1};
  m.sources = {{"architecture", "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json"}};
  return m;
}

}  // namespace vramcalc::testing

#endif  // VRAMCALC_TESTS_CORE_TEST_MODELS_H_
