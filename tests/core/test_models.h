// Model specs written out by hand from their sources, so the formula tests do not read the
// catalog they would otherwise be checking.
#ifndef VRAMCALC_TESTS_CORE_TEST_MODELS_H_
#define VRAMCALC_TESTS_CORE_TEST_MODELS_H_

#include "vramcalc/model_spec.h"

namespace vramcalc::testing {

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
  m.mla = MlaSpec{512, 64, 128, 128};
  m.moe = MoeSpec{256, 8, 1};
  m.sources = {{"architecture", "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json"}};
  return m;
}

}  // namespace vramcalc::testing

#endif  // VRAMCALC_TESTS_CORE_TEST_MODELS_H_
