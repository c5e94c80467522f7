// Bring your own model: config.json files of every supported model type (tests/golden/configs,
// sources in SOURCES.md there) read into the architecture, and broken ones rejected by field.
#include "vramcalc/hf_config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "io/json_value.h"
#include "test_models.h"
#include "vramcalc/catalog.h"
#include "vramcalc/estimate.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/i18n.h"
#include "vramcalc/json_codec.h"

namespace vramcalc {
namespace {

std::string Fixture(const std::string& model_type) {
  std::ifstream in(std::string(VRAMCALC_GOLDEN_DIR) + "/configs/" + model_type + ".json");
  EXPECT_TRUE(in) << model_type;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ModelSpec Parse(const std::string& model_type) {
  const Result<ModelSpec> parsed = ParseHfConfig(Fixture(model_type));
  EXPECT_TRUE(parsed.ok()) << model_type << ": " << (parsed.ok() ? "" : parsed.error().field + " " + parsed.error().message);
  return parsed.ok() ? parsed.value() : ModelSpec{};
}

// The architecture fields each config states (read them in the fixture), and what the type's
// rules derive from them.
struct Expected {
  const char* type;
  int64_t layers, hidden, heads, kv_heads, head_dim, max_position;
  Attention attention;
  int64_t window, local_layers;        // 0, 0: no windowed layers
  int64_t experts, per_token, shared;  // 0, 0, 0: dense
};

class Configs : public ::testing::TestWithParam<Expected> {};

TEST_P(Configs, ReadTheArchitecture) {
  const Expected& e = GetParam();
  const ModelSpec m = Parse(e.type);
  EXPECT_EQ(m.num_hidden_layers, e.layers);
  EXPECT_EQ(m.hidden_size, e.hidden);
  EXPECT_EQ(m.num_attention_heads, e.heads);
  EXPECT_EQ(m.num_key_value_heads, e.kv_heads);
  EXPECT_EQ(m.head_dim, e.head_dim);
  EXPECT_EQ(m.max_position_embeddings, e.max_position);
  EXPECT_EQ(m.attention, e.attention);
  EXPECT_EQ(testing::WindowedLayers(m).window, e.window);
  EXPECT_EQ(testing::WindowedLayers(m).layers, e.local_layers);
  if (e.attention == Attention::kMla) {
    // One latent of kv_lora_rank + qk_rope_head_dim per token and layer (both configs: 512 + 64).
    ASSERT_EQ(m.layer_groups.size(), 1u);
    EXPECT_EQ(m.layer_groups[0].kind, LayerKind::kLatent);
    EXPECT_EQ(m.layer_groups[0].key_dim, 576);
  }
  if (e.experts == 0) {  // every weight read per token but a per-layer embedding table's
    EXPECT_EQ(m.topology, Topology::kDense);
    EXPECT_EQ(m.params_active, m.params_total - m.per_layer_embedding_params);
  } else {
    ASSERT_TRUE(m.moe);
    EXPECT_EQ(m.moe->num_experts, e.experts);
    EXPECT_EQ(m.moe->experts_per_token, e.per_token);
    EXPECT_EQ(m.moe->shared_experts, e.shared);
    EXPECT_LT(m.params_active, m.params_total);
  }
  EXPECT_FALSE(m.params_formula.empty());
}

INSTANTIATE_TEST_SUITE_P(
    EveryModelType, Configs,
    ::testing::Values(
        // Llama-3.1-8B-Instruct: no head_dim key, so 4,096 / 32 = 128.
        Expected{"llama", 32, 4096, 32, 8, 128, 131072, Attention::kGqa, 0, 0, 0, 0, 0},
        // Mistral-7B-Instruct-v0.3: sliding_window null, so no window.
        Expected{"mistral", 32, 4096, 32, 8, 128, 32768, Attention::kGqa, 0, 0, 0, 0, 0},
        // Mixtral-8x7B: num_local_experts 8, num_experts_per_tok 2.
        Expected{"mixtral", 32, 4096, 32, 8, 128, 32768, Attention::kGqa, 0, 0, 8, 2, 0},
        // Qwen2.5-7B-Instruct: sliding_window 131072 but use_sliding_window false.
        Expected{"qwen2", 28, 3584, 28, 4, 128, 32768, Attention::kGqa, 0, 0, 0, 0, 0},
        // Qwen3-8B: head_dim 128 stated.
        Expected{"qwen3", 36, 4096, 32, 8, 128, 40960, Attention::kGqa, 0, 0, 0, 0, 0},
        // Qwen3-30B-A3B: head_dim 128 although 2,048 / 32 = 64; 128 experts, 8 per token.
        Expected{"qwen3_moe", 48, 2048, 32, 4, 128, 40960, Attention::kGqa, 0, 0, 128, 8, 0},
        // gemma-2-9b-it: head_dim 256; every other of 42 layers windowed at 4,096.
        Expected{"gemma2", 42, 3584, 16, 8, 256, 8192, Attention::kGqa, 4096, 21, 0, 0, 0},
        // gemma-3-4b-it: sparse text_config; heads 8, KV 4, head_dim 256 and 131,072 positions
        // are Gemma3TextConfig's defaults; 34 layers, every 6th global: 29 windowed at 1,024.
        Expected{"gemma3", 34, 2560, 8, 4, 256, 131072, Attention::kGqa, 1024, 29, 0, 0, 0},
        // gemma-3-1b-it: one KV head (MQA); 26 layers, every 6th global: 22 windowed at 512.
        Expected{"gemma3_text", 26, 1152, 4, 1, 256, 32768, Attention::kMqa, 512, 22, 0, 0, 0},
        // GLM-4-9B-0414.
        Expected{"glm4", 40, 4096, 32, 2, 128, 32768, Attention::kGqa, 0, 0, 0, 0, 0},
        // DeepSeek-V2-Lite: MLA (head_dim is v_head_dim); 64 routed experts top-6, 2 shared.
        Expected{"deepseek_v2", 27, 2048, 16, 16, 128, 163840, Attention::kMla, 0, 0, 64, 6, 2},
        // DeepSeek-V3: 256 routed experts top-8, 1 shared.
        Expected{"deepseek_v3", 61, 7168, 128, 128, 128, 163840, Attention::kMla, 0, 0, 256, 8, 1},
        // gpt-oss-20b: head_dim 64; layer_types alternate sliding (128) and full attention.
        Expected{"gpt_oss", 24, 2880, 64, 8, 64, 131072, Attention::kGqa, 128, 12, 32, 4, 0},
        // Phi-3-mini-4k-instruct: MHA; sliding_window 2047 on every layer.
        Expected{"phi3", 32, 3072, 32, 32, 96, 4096, Attention::kMha, 2047, 32, 0, 0, 0},
        // OLMo-2-1124-7B (olmo2): MHA, no head_dim key (4,096 / 32 = 128), 4,096 positions.
        Expected{"olmo2", 32, 4096, 32, 32, 128, 4096, Attention::kMha, 0, 0, 0, 0, 0},
        // Command R7B (cohere2): sliding_window_pattern 4, so 24 of 32 layers windowed at 4,096.
        Expected{"cohere2", 32, 4096, 32, 8, 128, 8192, Attention::kGqa, 4096, 24, 0, 0, 0},
        // GLM-4.7 (glm4_moe): 160 routed experts top-8, 1 shared, the first 3 layers dense.
        Expected{"glm4_moe", 92, 5120, 96, 8, 128, 202752, Attention::kGqa, 0, 0, 160, 8, 1},
        // GLM-4.7-Flash (glm4_moe_lite): MLA with v_head_dim 256; 64 experts top-4, 1 shared.
        Expected{"glm4_moe_lite", 47, 2048, 20, 20, 256, 202752, Attention::kMla, 0, 0, 64, 4, 1},
        // DeepSeek-V3.2 (deepseek_v32): DeepSeek-V3's shape plus the DSA indexer.
        Expected{"deepseek_v32", 61, 7168, 128, 128, 128, 163840, Attention::kMla, 0, 0, 256, 8, 1},
        // GLM-5.1 (glm_moe_dsa): MLA with v_head_dim 256 (its head_dim 64 is not the attention's).
        Expected{"glm_moe_dsa", 78, 6144, 64, 64, 256, 202752, Attention::kMla, 0, 0, 256, 8, 1},
        // Kimi-K2-Instruct (kimi_k2): DeepSeek-V3's shape with 384 experts and 64 heads.
        Expected{"kimi_k2", 61, 7168, 64, 64, 128, 131072, Attention::kMla, 0, 0, 384, 8, 1},
        // MiniMax-M2.7 (minimax_m2): 256 local experts top-8 of intermediate_size 1,536.
        Expected{"minimax_m2", 62, 3072, 48, 8, 128, 204800, Attention::kGqa, 0, 0, 256, 8, 0},
        // Devstral-Small-2 (mistral3 around a ministral3 text_config): sliding_window null.
        Expected{"mistral3", 40, 5120, 32, 8, 128, 393216, Attention::kGqa, 0, 0, 0, 0, 0},
        // A Ministral-3 3B text model (ministral3): head_dim 128 although 3,072 / 32 = 96.
        Expected{"ministral3", 26, 3072, 32, 8, 128, 262144, Attention::kGqa, 0, 0, 0, 0, 0},
        // Qwen3-VL-30B-A3B-Instruct (qwen3_vl_moe around qwen3_vl_moe_text): 128 experts top-8.
        Expected{"qwen3_vl_moe", 48, 2048, 32, 4, 128, 262144, Attention::kGqa, 0, 0, 128, 8, 0},
        // Qwen3-VL-8B-Instruct (qwen3_vl around a qwen3_vl_text text_config).
        Expected{"qwen3_vl", 36, 4096, 32, 8, 128, 262144, Attention::kGqa, 0, 0, 0, 0, 0},
        // Qwen3.5-9B (qwen3_5 around qwen3_5_text): 8 of 32 layers attend, 24 Gated DeltaNet.
        Expected{"qwen3_5", 32, 4096, 16, 4, 256, 262144, Attention::kGqa, 0, 0, 0, 0, 0},
        // Qwen3-Next-80B-A3B: every 4th of 48 layers attends; 512 experts top-10, 1 shared.
        Expected{"qwen3_next", 48, 2048, 16, 2, 256, 262144, Attention::kGqa, 0, 0, 512, 10, 1},
        // Gemma 4 E4B (gemma4 around gemma4_text): 42 layers, the last 18 reuse earlier KV; of the
        // 24 caching layers 20 are sliding at 512 tokens.
        Expected{"gemma4", 42, 2560, 8, 2, 256, 131072, Attention::kGqa, 512, 20, 0, 0, 0},
        // Gemma 4 31B (transformers' printout of its config): 50 of 60 layers sliding at 1,024.
        Expected{"gemma4_31b", 60, 5376, 32, 16, 256, 262144, Attention::kGqa, 1024, 50, 0, 0, 0},
        // SmolLM3-3B: use_sliding_window false, layer_types all full attention; tied by default.
        Expected{"smollm3", 36, 2048, 16, 4, 128, 65536, Attention::kGqa, 0, 0, 0, 0, 0},
        // EXAONE-4.0-1.2B: head_dim 64 stated; sliding_window null.
        Expected{"exaone4", 30, 2048, 32, 8, 64, 65536, Attention::kGqa, 0, 0, 0, 0, 0},
        // ERNIE-4.5-0.3B-Base-PT: head_dim 128 although 1,024 / 16 = 64.
        Expected{"ernie4_5", 18, 1024, 16, 2, 128, 131072, Attention::kGqa, 0, 0, 0, 0, 0},
        // Hy-MT2-7B (hunyuan_v1_dense, Hunyuan-7B's shape): use_cla false.
        Expected{"hunyuan_v1_dense", 32, 4096, 32, 8, 128, 262144, Attention::kGqa, 0, 0, 0, 0, 0},
        // Kimi-K2.5 (kimi_k25 around a deepseek_v3 text_config): 384 experts, 262,144 positions.
        Expected{"kimi_k25", 61, 7168, 64, 64, 128, 262144, Attention::kMla, 0, 0, 384, 8, 1},
        // LFM2.5-1.2B (lfm2): no head_dim key, 2,048 / 32 = 64.
        Expected{"lfm2", 16, 2048, 32, 8, 64, 128000, Attention::kGqa, 0, 0, 0, 0, 0},
        // Nemotron-3-Nano-30B-A3B (nemotron_h): 6 attention, 23 Mamba2 and 23 expert layers.
        Expected{"nemotron_h", 52, 2688, 32, 2, 128, 262144, Attention::kGqa, 0, 0, 128, 6, 1},
        // Command R 08-2024 (cohere): no head_dim key, 8,192 / 64 = 128; no window.
        Expected{"cohere", 40, 8192, 64, 8, 128, 131072, Attention::kGqa, 0, 0, 0, 0, 0},
        // A Seed-OSS-36B checkpoint (seed_oss): head_dim 128 although 5,120 / 80 = 64.
        Expected{"seed_oss", 64, 5120, 80, 8, 128, 524288, Attention::kGqa, 0, 0, 0, 0, 0},
        // Olmo-3-7B (olmo3, assembled): MHA; layer_types 24 sliding at 4,096, 8 full.
        Expected{"olmo3", 32, 4096, 32, 32, 128, 65536, Attention::kMha, 4096, 24, 0, 0, 0},
        // ERNIE-4.5-21B-A3B (ernie4_5_moe, assembled): 64 experts top-6, 2 shared.
        Expected{"ernie4_5_moe", 28, 2560, 20, 4, 128, 131072, Attention::kGqa, 0, 0, 64, 6, 2},
        // Granite-4.0-H-Small (granitemoehybrid, assembled): 72 experts top-10 beside 1 shared MLP.
        Expected{"granitemoehybrid", 40, 4096, 32, 8, 128, 131072, Attention::kGqa, 0, 0, 72, 10, 1},
        // An LFM2-8B-A1B fine-tune (lfm2_moe): no head_dim key, 2,048 / 32 = 64; 32 experts top-4.
        Expected{"lfm2_moe", 24, 2048, 32, 8, 64, 128000, Attention::kGqa, 0, 0, 32, 4, 0},
        // Hunyuan-A13B (hunyuan_v1_moe, assembled): 64 experts top-8 beside 1 shared MLP.
        Expected{"hunyuan_v1_moe", 32, 4096, 32, 8, 128, 262144, Attention::kGqa, 0, 0, 64, 8, 1},
        // MiMo-V2-Flash (mimo_v2_flash, assembled): 40 of 48 layers windowed at 128; 256 experts top-8.
        Expected{"mimo_v2_flash", 48, 4096, 64, 4, 192, 262144, Attention::kGqa, 128, 40, 256, 8, 0},
        // Gemma 3n E4B (gemma3n around gemma3n_text, assembled): 35 layers, the last 15 reuse
        // earlier KV; of the 20 caching layers 16 are sliding at 512 tokens.
        Expected{"gemma3n", 35, 2048, 8, 2, 256, 32768, Attention::kGqa, 512, 16, 0, 0, 0}),
    [](const ::testing::TestParamInfo<Expected>& info) { return std::string(info.param.type); });

TEST(HfConfig, ParameterCountsFromTheShapes) {
  // Llama-3.1-8B: untied 128,256 × 4,096 × 2 + 32 × (q, o 2 × 4,096² + k, v 2 × 4,096 × 1,024
  // + MLP 3 × 4,096 × 14,336) = 8,029,995,008 (the model card's 8.03B; norms left out).
  EXPECT_EQ(Parse("llama").params_total, 8029995008.0);
  // gemma-3-4b-it text decoder: tied 262,208 × 2,560 + 34 × (2 × 2,560 × 2,048 + 2 × 2,560 ×
  // 1,024 + 3 × 2,560 × 10,240) = 3,879,895,040.
  EXPECT_EQ(Parse("gemma3").params_total, 3879895040.0);
  // DeepSeek-V2-Lite: attention per layer q 2,048 × 16 × 192 + kv_a 2,048 × 576 + kv_b 512 ×
  // 16 × 256 + o 16 × 128 × 2,048 = 13,762,560; layer 0 dense (3 × 2,048 × 10,944); 26 MoE
  // layers of 64 + 2 shared experts of 3 × 2,048 × 1,408 and a 2,048 × 64 router; untied
  // 2 × 102,400 × 2,048 embeddings: 15,706,357,760 total; with 6 routed experts active,
  // 2,661,023,744 read per token.
  const ModelSpec lite = Parse("deepseek_v2");
  EXPECT_EQ(lite.params_total, 15706357760.0);
  EXPECT_EQ(lite.params_active, 2661023744.0);
  // LFM2.5-1.2B: tied 65,536 × 2,048 + 6 attention layers × (2 × 2,048² + 2 × 2,048 × 512) + 10
  // conv layers × (in_proj 2,048 × 6,144 + conv 2,048 × 3 + out_proj 2,048²) + 16 SwiGLU MLPs of
  // 2/3 × 12,288 = 8,192 (a multiple of 256): 3 × 2,048 × 8,192 = 1,170,272,256, the 1.17B its
  // quantization run's request.json states.
  EXPECT_EQ(Parse("lfm2").params_total, 65536.0 * 2048 + 6 * (2 * 2048 * 2048.0 + 2 * 2048 * 512.0) +
                                            10 * (2048 * 6144.0 + 2048 * 3 + 2048 * 2048.0) + 16 * 3 * 2048 * 8192.0);
  EXPECT_EQ(Parse("lfm2").params_total, 1170272256.0);
  EXPECT_NE(lite.params_formula.find("26 × (attention 13,762,560 + 64 experts × 8,650,752 + shared "
                                     "17,301,504 + router 131,072)"),
            std::string::npos)
      << lite.params_formula;
}

TEST(HfConfig, AgreesWithTheCatalogEntries) {
  // The catalog's counts include norms and biases, which the config parser leaves out: they
  // agree within 0.1 %; every architecture field agrees exactly.
  const struct {
    const char* type;
    const char* catalog_id;
  } kPairs[] = {{"llama", "llama-3.1-8b"},        {"mistral", "mistral-7b-v0.3"},
                {"mixtral", "mixtral-8x7b"},      {"qwen2", "qwen2.5-7b"},
                {"qwen3", "qwen3-8b"},            {"qwen3_moe", "qwen3-30b-a3b"},
                {"gemma2", "gemma-2-9b"},         {"gemma3", "gemma-3-4b"},
                {"gemma3_text", "gemma-3-1b"},    {"glm4", "glm-4-9b-0414"},
                {"deepseek_v2", "deepseek-v2-lite"}, {"gpt_oss", "gpt-oss-20b"},
                {"phi3", "phi-3-mini-4k"},        {"cohere2", "command-r7b-12-2024"},
                {"glm4_moe", "glm-4.7"},          {"glm4_moe_lite", "glm-4.7-flash"},
                {"kimi_k2", "kimi-k2-instruct"},  {"mistral3", "devstral-small-2-24b-2512"},
                {"qwen3_vl", "qwen3-vl-8b-instruct"}, {"qwen3_5", "qwen3.5-9b"},
                {"qwen3_next", "qwen3-next-80b-a3b-instruct"}, {"nemotron_h", "nemotron-3-nano-30b-a3b"},
                {"deepseek_v32", "deepseek-v3.2"}, {"glm_moe_dsa", "glm-5"}, {"olmo2", "olmo-2-7b"},
                {"qwen3_vl_moe", "qwen3-vl-30b-a3b-instruct"}, {"deepseek_v4", "deepseek-v4-flash"},
                {"gemma4", "gemma-4-e4b"}, {"gemma4_31b", "gemma-4-31b"}, {"smollm3", "smollm3-3b"},
                {"exaone4", "exaone-4.0-1.2b"}, {"kimi_k25", "kimi-k2.5"}, {"cohere", "command-r-08-2024"},
                {"granitemoehybrid", "granite-4.0-h-small"}, {"llama4", "llama-4-scout-17b-16e"}};
  for (const auto& pair : kPairs) {
    SCOPED_TRACE(pair.type);
    const ModelSpec parsed = Parse(pair.type);
    const ModelSpec* entry = BuiltinCatalog().value().FindModel(pair.catalog_id);
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(parsed.num_hidden_layers, entry->num_hidden_layers);
    EXPECT_EQ(parsed.num_key_value_heads, entry->num_key_value_heads);
    EXPECT_EQ(parsed.head_dim, entry->head_dim);
    EXPECT_EQ(parsed.vocab_size, entry->vocab_size);
    EXPECT_EQ(parsed.tie_word_embeddings, entry->tie_word_embeddings);
    ASSERT_EQ(parsed.moe.has_value(), entry->moe.has_value());
    if (entry->moe) {  // the routed experts' parameters (biases left out: within 0.1 %)
      EXPECT_NEAR(parsed.moe->expert_params, entry->moe->expert_params, 1e-3 * entry->moe->expert_params);
    }
    ASSERT_EQ(parsed.layer_groups.size(), entry->layer_groups.size());
    for (std::size_t i = 0; i < parsed.layer_groups.size(); ++i) {
      const LayerGroup& a = parsed.layer_groups[i];
      const LayerGroup& b = entry->layer_groups[i];
      EXPECT_EQ(a.kind, b.kind);
      EXPECT_EQ(a.layers, b.layers);
      EXPECT_EQ(a.kv_heads, b.kv_heads);
      EXPECT_EQ(a.key_dim, b.key_dim);
      EXPECT_EQ(a.value_dim, b.value_dim);
      EXPECT_EQ(a.index_dim, b.index_dim);
      EXPECT_EQ(a.compress_ratio, b.compress_ratio);
      EXPECT_EQ(a.window_tokens, b.window_tokens);
      EXPECT_EQ(a.state_elements, b.state_elements);
      EXPECT_EQ(a.state_f32_elements, b.state_f32_elements);
      EXPECT_EQ(a.query_heads, b.query_heads);
      EXPECT_EQ(a.query_key_dim, b.query_key_dim);
      EXPECT_EQ(a.query_value_dim, b.query_value_dim);
    }
    EXPECT_NEAR(parsed.params_total / entry->params_total, 1.0, 0.001);
    // The matrices GGUF's blocks do not divide: the same widths, so the same counts (Nemotron-3-
    // Nano's and gpt-oss-20b's hidden sizes, 2,688 and 2,880, are such widths too).
    EXPECT_EQ(parsed.unaligned_params, entry->unaligned_params);
    EXPECT_EQ(parsed.unaligned_expert_params, entry->unaligned_expert_params);
    EXPECT_EQ(parsed.unaligned_hidden_params, entry->unaligned_hidden_params);
    EXPECT_EQ(parsed.unaligned_hidden_expert_params, entry->unaligned_hidden_expert_params);
    EXPECT_EQ(parsed.expert_down_params, entry->expert_down_params);
  }
}

// A multimodal config.json's towers, counted from its vision_config, against each checkpoint's
// published parameter total (the Hub's safetensors total) less its language model (counted from
// the config's shapes, as the catalog entry says), exactly: Gemma 3 4B 4,300,079,472 −
// 3,880,263,168; Qwen3-VL-8B 8,767,123,696 − 8,190,735,360 (its 750-tensor inventory); Qwen3-VL-
// 30B-A3B 31,070,754,032 − 30,532,122,624; Qwen3.5-9B 9,653,104,368 − 8,953,803,264 − MTP
// 243,290,624; Devstral Small 2 24,011,361,280 − 23,572,403,200 (its tower and projector counted
// by hand in the catalog entry's notes as well); Gemma 4 E4B 7,996,156,490 − 7,518,069,034
// (vision and audio together); Gemma 4 31B 31,273,088,876 − 30,697,345,340; Kimi K2.5's
// MoonViT and projector 471,143,920, every tensor of its checkpoint's list summed; Llama 4 Scout
// 108,641,793,536 − 107,769,861,120 (by hand: patches 588 × 1,408, class 1,408, 577 positions
// × 1,408, two LayerNorms 5,632, 34 blocks of 23,807,872, adapter 5,632 × 4,096 + 4,096², projector
// 4,096 × 5,120 = 871,932,416). The catalog entries carry the same figure.
TEST(HfConfig, TheVisionConfigCountsTheTowersAsTheCheckpointsTotalsDo) {
  const struct {
    const char* type;
    const char* catalog_id;
    double towers;
  } kTowers[] = {{"gemma3", "gemma-3-4b", 4300079472.0 - 3880263168.0},
                 {"qwen3_vl", "qwen3-vl-8b-instruct", 8767123696.0 - 8190735360.0},
                 {"qwen3_vl_moe", "qwen3-vl-30b-a3b-instruct", 31070754032.0 - 30532122624.0},
                 {"qwen3_5", "qwen3.5-9b", 9653104368.0 - 8953803264.0 - 243290624.0},
                 {"mistral3", "devstral-small-2-24b-2512", 438958080.0},
                 {"gemma4", "gemma-4-e4b", 7996156490.0 - 7518069034.0},
                 {"gemma4_31b", "gemma-4-31b", 31273088876.0 - 30697345340.0},
                 {"kimi_k25", "kimi-k2.5", 471143920.0},
                 {"llama4", "llama-4-scout-17b-16e", 108641793536.0 - 107769861120.0}};
  for (const auto& row : kTowers) {
    SCOPED_TRACE(row.type);
    const ModelSpec parsed = Parse(row.type);
    EXPECT_EQ(parsed.vision_params, row.towers);
    EXPECT_EQ(BuiltinCatalog().value().FindModel(row.catalog_id)->vision_params, row.towers);
    EXPECT_NE(parsed.params_formula.find("vision tower"), std::string::npos) << parsed.params_formula;
  }
  // A family without a reader says so (a LLaVA wrapper's vision_config); a text-only config has none.
  const Result<ModelSpec> llava = ParseHfConfig(R"({"model_type": "llava", "vision_config": {"hidden_size": 1024},
      "text_config": {"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
      "vocab_size": 100, "max_position_embeddings": 128, "intermediate_size": 128}})");
  ASSERT_TRUE(llava.ok()) << llava.error().message;
  EXPECT_EQ(llava.value().vision_params, 0);
  EXPECT_NE(llava.value().params_formula.find("towers are not counted"), std::string::npos);
  EXPECT_EQ(Parse("llama").vision_params, 0);
  // A bad vision_config field is named with its object.
  std::string broken = Fixture("gemma3");
  const std::size_t at = broken.find(R"("hidden_size": 1152)");
  ASSERT_NE(at, std::string::npos);
  broken.replace(at, 19, R"("hidden_size": -1152)");
  const Result<ModelSpec> refused = ParseHfConfig(broken);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().field, "model.vision_config.hidden_size") << refused.error().message;
  std::string audio = Fixture("gemma4");
  const std::size_t channels = audio.find(R"("subsampling_conv_channels")");
  ASSERT_NE(channels, std::string::npos);
  audio.insert(audio.find_first_of("0123456789", channels), "-");  // a negative channel count
  const Result<ModelSpec> bad_audio = ParseHfConfig(audio);
  ASSERT_FALSE(bad_audio.ok());
  EXPECT_EQ(bad_audio.error().field, "model.audio_config.subsampling_conv_channels") << bad_audio.error().message;
  // Towers beyond 10^15 parameters are no model (the limit params_total has).
  std::string huge = Fixture("gemma3");
  huge.replace(huge.find(R"("intermediate_size": 4304)"), 25, R"("intermediate_size": 1099511627775)");
  huge.replace(huge.find(R"("hidden_size": 1152)"), 19, R"("hidden_size": 1099511627775)");
  const Result<ModelSpec> too_large = ParseHfConfig(huge);
  ASSERT_FALSE(too_large.ok());
  EXPECT_EQ(too_large.error().field, "model.vision_params") << too_large.error().message;
}

struct Broken {
  const char* config;
  const char* field;
};

class BrokenConfigs : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenConfigs, NameTheField) {
  const Result<ModelSpec> parsed = ParseHfConfig(GetParam().config);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().field, GetParam().field) << parsed.error().message;
  EXPECT_FALSE(parsed.error().message.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Rejected, BrokenConfigs,
    ::testing::Values(
        Broken{"{\"model_type\": \"llama\"", "model"},  // not JSON
        Broken{"[1, 2]", "model"},
        Broken{R"({"hidden_size": 4096})", "model.model_type"},
        Broken{R"({"model_type": "bert", "hidden_size": 768})", "model.model_type"},
        Broken{R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                   "vocab_size": 128256, "max_position_embeddings": 8192, "intermediate_size": 14336})",
               "model.num_hidden_layers"},
        Broken{R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": "4096", "num_attention_heads": 32,
                   "vocab_size": 128256, "max_position_embeddings": 8192, "intermediate_size": 14336})",
               "model.hidden_size"},
        Broken{R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
                   "num_key_value_heads": 5, "vocab_size": 128256, "max_position_embeddings": 8192,
                   "intermediate_size": 14336})",
               "model.num_key_value_heads"},
        Broken{R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
                   "vocab_size": 128256, "max_position_embeddings": -1, "intermediate_size": 14336})",
               "model.max_position_embeddings"},
        Broken{R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
                   "vocab_size": 128256, "max_position_embeddings": 8192})",
               "model.intermediate_size"},
        Broken{R"({"model_type": "gpt_oss", "num_hidden_layers": 2, "hidden_size": 2880, "num_attention_heads": 64,
                   "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 201088, "max_position_embeddings": 131072,
                   "intermediate_size": 2880, "num_local_experts": 32, "num_experts_per_tok": 4, "sliding_window": 128,
                   "layer_types": ["sliding_attention"]})",
               "model.layer_types"},
        Broken{R"({"model_type": "deepseek_v3", "num_hidden_layers": 61, "hidden_size": 7168, "num_attention_heads": 128,
                   "vocab_size": 129280, "max_position_embeddings": 163840, "qk_rope_head_dim": 64,
                   "qk_nope_head_dim": 128, "v_head_dim": 128})",
               "model.kv_lora_rank"},
        Broken{R"({"model_type": "mixtral", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
                   "num_key_value_heads": 8, "vocab_size": 32000, "max_position_embeddings": 32768,
                   "intermediate_size": 14336, "num_local_experts": 2, "num_experts_per_tok": 8})",
               "model.num_experts_per_tok"},
        // A Gated DeltaNet hybrid without its linear heads' size; a Nemotron-H pattern that
        // does not name every layer, or names one with a letter it does not know.
        Broken{R"({"model_type": "qwen3_next", "num_hidden_layers": 4, "hidden_size": 2048, "num_attention_heads": 16,
                   "num_key_value_heads": 2, "head_dim": 256, "vocab_size": 151936, "max_position_embeddings": 262144,
                   "intermediate_size": 5120, "full_attention_interval": 4, "linear_conv_kernel_dim": 4,
                   "linear_num_key_heads": 16, "linear_key_head_dim": 128, "linear_num_value_heads": 32,
                   "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 512})",
               "model.linear_value_head_dim"},
        Broken{R"({"model_type": "nemotron_h", "num_hidden_layers": 4, "hidden_size": 2688, "num_attention_heads": 32,
                   "num_key_value_heads": 2, "head_dim": 128, "vocab_size": 131072, "max_position_embeddings": 262144,
                   "hybrid_override_pattern": "M*E", "intermediate_size": 1856})",
               "model.hybrid_override_pattern"},
        Broken{R"({"model_type": "nemotron_h", "num_hidden_layers": 3, "hidden_size": 2688, "num_attention_heads": 32,
                   "num_key_value_heads": 2, "head_dim": 128, "vocab_size": 131072, "max_position_embeddings": 262144,
                   "hybrid_override_pattern": "M*X", "intermediate_size": 1856})",
               "model.hybrid_override_pattern"},
        Broken{R"({"model_type": "nemotron_h", "num_hidden_layers": 3, "hidden_size": 2688, "num_attention_heads": 32,
                   "num_key_value_heads": 2, "head_dim": 128, "vocab_size": 131072, "max_position_embeddings": 262144,
                   "layers_block_type": ["mamba", "attention", "ssm"], "intermediate_size": 1856})",
               "model.layers_block_type"},
        // DeepSeek-V4 with a ratio of 1 (0 or above 1 only) and with too few ratios.
        Broken{R"({"model_type": "deepseek_v4", "num_hidden_layers": 3, "hidden_size": 4096, "num_attention_heads": 64,
                   "num_key_value_heads": 1, "head_dim": 512, "vocab_size": 129280, "max_position_embeddings": 1048576,
                   "q_lora_rank": 1024, "o_lora_rank": 1024, "o_groups": 8, "index_head_dim": 128, "index_n_heads": 64,
                   "hc_mult": 4, "sliding_window": 128, "compress_ratios": [0, 1, 4],
                   "n_routed_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 2048})",
               "model.compress_ratios"},
        Broken{R"({"model_type": "deepseek_v4", "num_hidden_layers": 3, "hidden_size": 4096, "num_attention_heads": 64,
                   "num_key_value_heads": 1, "head_dim": 512, "vocab_size": 129280, "max_position_embeddings": 1048576,
                   "compress_ratios": [0, 4]})",
               "model.compress_ratios"},
        // DeepSeek-V4 without compress_ratios, and Gemma 4 without layer_types: a missing list is
        // named (the config fuzzer's crash-0a5b192a read the absent list before it was checked).
        Broken{R"({"model_type": "deepseek_v4", "num_hidden_layers": 3, "hidden_size": 4096, "num_attention_heads": 64,
                   "num_key_value_heads": 1, "head_dim": 512, "vocab_size": 129280, "max_position_embeddings": 1048576})",
               "model.compress_ratios"},
        Broken{R"({"model_type": "gemma4_text", "num_hidden_layers": 2, "hidden_size": 1536, "num_attention_heads": 8,
                   "num_key_value_heads": 1, "head_dim": 256, "vocab_size": 262144, "max_position_embeddings": 131072})",
               "model.layer_types"},
        // Hunyuan with cross-layer attention, which the importer does not read.
        Broken{R"({"model_type": "hunyuan_v1_dense", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
                   "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 128167, "max_position_embeddings": 262144,
                   "intermediate_size": 14336, "use_cla": true, "cla_share_factor": 2})",
               "model.use_cla"},
        // Granite 4.0 H with a layer kind it does not have, and MiMo-V2-Flash with a pattern that
        // does not name every layer.
        Broken{R"({"model_type": "granitemoehybrid", "num_hidden_layers": 2, "hidden_size": 4096, "num_attention_heads": 32,
                   "num_key_value_heads": 8, "vocab_size": 100352, "max_position_embeddings": 131072,
                   "layer_types": ["mamba", "ssm"], "mamba_n_heads": 128, "mamba_d_head": 64, "mamba_n_groups": 1,
                   "mamba_d_state": 128, "mamba_d_conv": 4, "shared_intermediate_size": 1536})",
               "model.layer_types"},
        Broken{R"({"model_type": "mimo_v2_flash", "num_hidden_layers": 3, "hidden_size": 4096, "num_attention_heads": 64,
                   "num_key_value_heads": 4, "head_dim": 192, "v_head_dim": 128, "vocab_size": 152576,
                   "max_position_embeddings": 262144, "hybrid_layer_pattern": [0, 1]})",
               "model.hybrid_layer_pattern"},
        // Gemma 4 whose shared layers leave none to cache.
        Broken{R"({"model_type": "gemma4_text", "num_hidden_layers": 2, "hidden_size": 1536, "num_attention_heads": 8,
                   "num_key_value_heads": 1, "head_dim": 256, "vocab_size": 262144, "max_position_embeddings": 131072,
                   "layer_types": ["sliding_attention", "full_attention"], "num_kv_shared_layers": 2})",
               "model.num_kv_shared_layers"}));

TEST(HfConfig, ARequestCarriesAConfigInPlaceOfAnId) {
  // The contract's second form of "model": the config object itself.
  const std::string response =
      EvaluateJson(R"({"model": )" + Fixture("qwen3") + R"(, "format": "Q8_0"})");
  EXPECT_EQ(response.rfind(R"({"ok":true)", 0), 0u) << response.substr(0, 300);
  EXPECT_NE(response.find(R"("topology":"dense","attention":"gqa")"), std::string::npos);
  // A broken config inside a request names the config's field under "model".
  const std::string broken = EvaluateJson(R"({"model": {"model_type": "llama"}})");
  EXPECT_NE(broken.find(R"("field":"model.num_hidden_layers")"), std::string::npos) << broken;
  // And a config given beside the request (the CLI's --config).
  EXPECT_EQ(EvaluateJsonWithConfig(R"({"context": 8192})", Fixture("gemma2")).rfind(R"({"ok":true)", 0), 0u);
  EXPECT_NE(EvaluateJsonWithConfig(R"({"model": "llama-3.1-8b"})", Fixture("gemma2")).find(R"("field":"model")"),
            std::string::npos);
}

// The hybrids' layers as groups: attention layers cache tokens, recurrent layers a state per
// sequence, the rest nothing; the figures are the engines' own (llama.cpp keeps the state in F32).
struct HybridCase {
  const char* type;
  int64_t attention_layers, state_layers, none_layers;
  int64_t state_elements;       // per recurrent layer and sequence
  int64_t state_f32_elements;   // of those, kept in float32 by the config (mamba_ssm_dtype)
  double kv_bytes_per_token;    // FP16, all attention layers
  double state_bytes_f32;       // per sequence
};

class Hybrids : public ::testing::TestWithParam<HybridCase> {};

TEST_P(Hybrids, CacheOnTheirAttentionLayersAndAStatePerSequence) {
  const HybridCase& e = GetParam();
  const ModelSpec m = Parse(e.type);
  int64_t attention = 0, state = 0, none = 0, elements = 0, f32 = 0;
  for (const LayerGroup& g : m.layer_groups) {
    if (g.kind == LayerKind::kFull) attention += g.layers;
    if (g.kind == LayerKind::kState) state += g.layers, elements = g.state_elements, f32 = g.state_f32_elements;
    if (g.kind == LayerKind::kNone) none += g.layers;
  }
  EXPECT_EQ(attention, e.attention_layers);
  EXPECT_EQ(state, e.state_layers);
  EXPECT_EQ(none, e.none_layers);
  EXPECT_EQ(elements, e.state_elements);
  EXPECT_EQ(f32, e.state_f32_elements);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(m, 2.0), 1, 1), e.kv_bytes_per_token);
  EXPECT_EQ(static_cast<double>(state * elements) * 4, e.state_bytes_f32);
  // Under llama.cpp (F32 state, one slot) the evaluate response carries it as state_gib.
  const std::string response = EvaluateJson(R"({"model": )" + Fixture(e.type) + R"(, "runtime": "llamacpp",
      "context": 4096, "sections": ["simulator"]})");
  const Result<json::Document> parsed = json::Document::Parse(response);
  ASSERT_TRUE(parsed.ok()) << response.substr(0, 300);
  const json::Value sim = parsed.value().root().Find("simulator");
  ASSERT_TRUE(sim) << response.substr(0, 300);
  EXPECT_NEAR(sim.Find("state_gib").Number(), e.state_bytes_f32 / (1 << 30), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(
    EveryHybridType, Hybrids,
    ::testing::Values(
        // Qwen3.5-9B: 24 Gated DeltaNet layers of conv 3 × (2 × 16 × 128 + 32 × 128) = 24,576 and
        // recurrent 32 × 128 × 128 = 524,288 elements; × 4 B = 52,690,944 B, llama.cpp's own
        // figure ("Reserve both FP32 state buffers", architectures-2026.md §4.4; a llama-server
        // log asks 210,763,776 B for 4 sequences). KV: 8 layers × 2 × 4 heads × 256 × 2 B. The
        // config's mamba_ssm_dtype "float32" keeps the recurrent part in float32.
        HybridCase{"qwen3_5", 8, 24, 0, 548864, 524288, 8 * 2 * 4 * 256 * 2, 52690944},
        // Qwen3-Next-80B-A3B: 36 linear layers of the same 548,864 elements (75.375 MiB per
        // sequence in F32); 12 attention layers × 2 × 2 KV heads × 256 × 2 B = 24,576 B/token.
        // No mamba_ssm_dtype: all in the model's dtype.
        HybridCase{"qwen3_next", 12, 36, 0, 548864, 0, 12 * 2 * 2 * 256 * 2, 79036416},
        // Nemotron-3-Nano-30B-A3B: MEMEM*E… has 6 attention (*), 23 Mamba2 (M), 23 expert (E)
        // layers; Mamba2 conv 3 × (64 × 64 + 2 × 8 × 128) = 18,432 and SSM 64 × 64 × 128 =
        // 524,288 elements; 23 × 542,720 × 4 B = 49,930,240 B = 47.62 MiB per sequence
        // (architectures-2026.md §4.5, mamba_ssm_cache_dtype float32). KV: 6 × 2 × 2 × 128 × 2 B.
        HybridCase{"nemotron_h", 6, 23, 23, 542720, 524288, 6 * 2 * 2 * 128 * 2, 49930240},
        // LFM2.5-1.2B: layer_types holds 10 conv and 6 full_attention layers; a conv layer keeps
        // (conv_L_cache 3 − 1) × conv_dim 2,048 = 4,096 elements (architectures-2026.md §4.6):
        // 10 × 4,096 × 4 B = 163,840 B per sequence. KV: 6 × 2 × 8 heads × 64 × 2 B.
        HybridCase{"lfm2", 6, 10, 0, 4096, 0, 6 * 2 * 8 * 64 * 2, 163840},
        // Granite-4.0-H-Small: layer_types holds 36 mamba and 4 attention layers; Mamba2 conv
        // (mamba_d_conv 4 − 1) × (128 heads × 64 + 2 × 1 group × 128) = 25,344 and SSM 128 × 64 ×
        // 128 = 1,048,576 elements; 36 × 1,073,920 × 4 B = 154,644,480 B (147.48 MiB) per sequence,
        // architectures-2026.md §4.5. KV: 4 × 2 × 8 heads × 128 × 2 B = 16,384 B/token. No
        // mamba_ssm_cache_dtype: all in the model's dtype.
        HybridCase{"granitemoehybrid", 4, 36, 0, 1073920, 0, 4 * 2 * 8 * 128 * 2, 154644480},
        // LFM2-8B-A1B: layer_types holds 18 conv and 6 full_attention layers; no conv_dim key, so a
        // conv layer keeps (conv_L_cache 3 − 1) × hidden 2,048 = 4,096 elements: 18 × 4,096 × 4 B =
        // 294,912 B per sequence. KV: 6 × 2 × 8 heads × 64 × 2 B = 12,288 B/token.
        HybridCase{"lfm2_moe", 6, 18, 0, 4096, 0, 6 * 2 * 8 * 64 * 2, 294912}),
    [](const ::testing::TestParamInfo<HybridCase>& info) { return std::string(info.param.type); });

TEST(HfConfig, NemotronHReadsLayersBlockTypeLikeItsPattern) {
  // Some Nemotron-H configs list layers_block_type instead of hybrid_override_pattern: the same
  // 52 layers written as words give the same groups.
  std::string config = Fixture("nemotron_h");
  const std::string key = R"("hybrid_override_pattern": ")";
  const std::size_t at = config.find(key);
  ASSERT_NE(at, std::string::npos);
  const std::size_t end = config.find('"', at + key.size());
  std::string list = R"("layers_block_type": [)";
  for (std::size_t i = at + key.size(); i < end; ++i) {
    const char c = config[i];
    list += std::string(i == at + key.size() ? "" : ", ") + (c == 'M' ? R"("mamba")" : c == '*' ? R"("attention")"
                                                                      : c == 'E' ? R"("moe")" : R"("mlp")");
  }
  config.replace(at, end + 1 - at, list + "]");
  const Result<ModelSpec> listed = ParseHfConfig(config);
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  const ModelSpec pattern = Parse("nemotron_h");
  ASSERT_EQ(listed.value().layer_groups.size(), pattern.layer_groups.size());
  for (std::size_t i = 0; i < pattern.layer_groups.size(); ++i) {
    EXPECT_EQ(listed.value().layer_groups[i].kind, pattern.layer_groups[i].kind);
    EXPECT_EQ(listed.value().layer_groups[i].layers, pattern.layer_groups[i].layers);
  }
  EXPECT_EQ(listed.value().params_total, pattern.params_total);
}

TEST(HfConfig, HybridParameterCountsFromTheShapes) {
  // Qwen3.5-9B text decoder: untied 2 × 248,320 × 4,096 = 2,034,237,440; 8 attention layers of
  // q with its gate 2 × 4,096 × 16 × 256, k and v 2 × 4,096 × 4 × 256, o 16 × 256 × 4,096 =
  // 58,720,256; 24 Gated DeltaNet layers of in_proj_qkvz 4,096 × 12,288, in_proj_ba 4,096 × 64,
  // conv 8,192 × 4 and out_proj 4,096 × 4,096 = 67,403,776; 32 MLPs of 3 × 4,096 × 12,288:
  // 8,953,528,320. Hugging Face's safetensors total 9,653,104,368 less the vision tower
  // (456,010,480) and the MTP layer (243,290,624) is 8,953,803,264: the 274,944 between are norms.
  EXPECT_EQ(Parse("qwen3_5").params_total, 8953528320.0);
  // Nemotron-3-Nano-30B-A3B: Hugging Face's count 31,577,940,288 (its FP8 repository's less the
  // scales); the norms and the conv biases this leaves out are under 0.01 %.
  const ModelSpec nano = Parse("nemotron_h");
  EXPECT_NEAR(nano.params_total, 31577940288.0, 31577940288.0 * 1e-4);
  EXPECT_NE(nano.params_formula.find("23 × recurrent mixer"), std::string::npos) << nano.params_formula;
}

TEST(HfConfig, TheNineLateTypesAgreeWithAHandCount) {
  // Norms and biases left out, as everywhere in the importer (under 0.1 %).
  // Command R 08-2024 (cohere, tied): 256,000 × 8,192 + 40 × (q, o 2 × 8,192² + k, v 2 × 8,192 ×
  // 1,024 + MLP 3 × 8,192 × 24,576) = 32,296,140,800. The card says "35 billion" (the v01 figure);
  // the catalog entry's count from the same shapes with norms is 32,296,476,672. KV per token at
  // 16 bits: 40 layers × 8 KV heads × (128 + 128) × 2 B = 163,840 B.
  const ModelSpec command_r = Parse("cohere");
  EXPECT_EQ(command_r.params_total, 32296140800.0);
  EXPECT_TRUE(command_r.tie_word_embeddings);  // CohereConfig's default: the config has no key
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(command_r, 2.0), 1, 1), 163840.0);
  // Seed-OSS-36B (seed_oss, untied): 2 × 155,136 × 5,120 + 64 × (q, o 2 × 5,120 × 80 × 128 + k, v
  // 2 × 5,120 × 8 × 128 + MLP 3 × 5,120 × 27,648) = 36,149,657,600, the card's "36B". KV:
  // 64 × 8 × 256 × 2 B = 262,144 B/token.
  const ModelSpec seed = Parse("seed_oss");
  EXPECT_EQ(seed.params_total, 36149657600.0);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(seed, 2.0), 1, 1), 262144.0);
  // Olmo-3-7B (olmo3, untied): 2 × 100,278 × 4,096 + 32 × (4 × 4,096² + 3 × 4,096 × 11,008) =
  // 7,297,482,752 (the card's "7B"; with the 32 × 4 norms of 4,096 and the final norm,
  // 7,298,011,136). KV at 32,768 tokens: 8 full layers × 32 × 256 × 2 B × 32,768 + 24 sliding
  // layers × 32 × 256 × 2 B × 4,096 = 4,294,967,296 + 1,610,612,736 = 5,905,580,032 B.
  const ModelSpec olmo = Parse("olmo3");
  EXPECT_EQ(olmo.params_total, 7297482752.0);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(olmo, 2.0), 32768, 1), 5905580032.0);
  // ERNIE-4.5-21B-A3B (ernie4_5_moe, tied): 103,424 × 2,560 + 28 × attention (2 × 2,560² + 2 × 2,560
  // × 512) + layer 0's MLP 3 × 2,560 × 12,288 + 27 MoE layers × (2 shared as one MLP 3 × 2,560 ×
  // 3,072 + router 2,560 × 64 + 64 experts × 3 × 2,560 × 1,536) = 21,825,290,240 (card: 21B total);
  // with 6 experts per token 3,352,002,560 (card: 3B active). KV: 28 × 4 × 256 × 2 B = 57,344 B.
  const ModelSpec ernie = Parse("ernie4_5_moe");
  EXPECT_EQ(ernie.params_total, 21825290240.0);
  EXPECT_EQ(ernie.params_active, 3352002560.0);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(ernie, 2.0), 1, 1), 57344.0);
  // Granite-4.0-H-Small (granitemoehybrid, tied): 100,352 × 4,096 + 36 Mamba2 mixers of in_proj
  // 4,096 × (8,192 + 8,448 + 128), conv 8,448 × 4 and out_proj 8,192 × 4,096 (102,269,952) + 4
  // attention layers of 2 × 4,096² + 2 × 4,096 × 1,024 + 40 × (shared MLP 3 × 4,096 × 1,536 +
  // router 4,096 × 72 + 72 experts × 3 × 4,096 × 768) = 32,206,393,344 (card: 32B total); with 10
  // experts 8,802,177,024 (card: 9B active). The catalog entry, with norms and biases:
  // 32,207,337,984 and 8,803,121,664.
  const ModelSpec granite = Parse("granitemoehybrid");
  EXPECT_EQ(granite.params_total, 32206393344.0);
  EXPECT_EQ(granite.params_active, 8802177024.0);
  // LFM2-8B-A1B (lfm2_moe, tied): 65,536 × 2,048 + 6 attention layers × (2 × 2,048² + 2 × 2,048 ×
  // 512) + 18 conv layers × (in_proj 2,048 × 6,144 + conv 2,048 × 3 + out_proj 2,048²) + the first
  // num_dense_layers 2 MLPs of 3 × 2,048 × 7,168 + 22 MoE layers × (router 2,048 × 32 + 32 experts
  // × 3 × 2,048 × 1,792) = 8,339,828,736 (transformers' model page: 8.3B total); with 4 experts
  // per token 1,557,639,168 (1.5B active).
  const ModelSpec lfm = Parse("lfm2_moe");
  EXPECT_EQ(lfm.params_total, 8339828736.0);
  EXPECT_EQ(lfm.params_active, 1557639168.0);
  // Hunyuan-A13B (hunyuan_v1_moe; no tie_word_embeddings key, HunYuanMoEV1Config's default untied):
  // 2 × 128,167 × 4,096 + 32 × (attention 2 × 4,096² + 2 × 4,096 × 1,024 + router 4,096 × 64 + 64
  // experts and 1 shared MLP × 3 × 4,096 × 3,072) = 80,917,880,832 (card: 80B total); with 8
  // experts and the shared one 13,272,145,920 (card: 13B active). KV: 32 × 8 × 256 × 2 B =
  // 131,072 B/token.
  const ModelSpec hunyuan = Parse("hunyuan_v1_moe");
  EXPECT_EQ(hunyuan.params_total, 80917880832.0);
  EXPECT_EQ(hunyuan.params_active, 13272145920.0);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(hunyuan, 2.0), 1, 1), 131072.0);
  // Per-layer lists (the remote-code configs' form) read when they agree; differing ones are named.
  std::string listed = Fixture("hunyuan_v1_moe");
  listed.replace(listed.find(R"("moe_topk": 8)"), 13, R"("moe_topk": [8, 8])");
  listed.replace(listed.find(R"("num_hidden_layers": 32)"), 23, R"("num_hidden_layers": 2)");
  ASSERT_TRUE(ParseHfConfig(listed).ok());
  EXPECT_EQ(ParseHfConfig(listed).value().moe->experts_per_token, 8);
  listed.replace(listed.find("[8, 8]"), 6, "[8, 4]");
  ASSERT_FALSE(ParseHfConfig(listed).ok());
  EXPECT_EQ(ParseHfConfig(listed).error().field, "model.moe_topk");
  // MiMo-V2-Flash (mimo_v2_flash, untied): 2 × 152,576 × 4,096 + 8 global layers of q 4,096 × 64 ×
  // 192, k 4,096 × 4 × 192, v 4,096 × 4 × 128, o 64 × 128 × 4,096 (89,128,960) + 40 windowed
  // layers with 8 KV heads (94,371,840) + layer 0's MLP 3 × 4,096 × 16,384 + 47 MoE layers ×
  // (router 4,096 × 256 + 256 experts × 3 × 4,096 × 2,048) = 308,783,611,904 (card: 309B total);
  // with 8 experts 15,450,767,360 (card: 15B active).
  const ModelSpec mimo = Parse("mimo_v2_flash");
  EXPECT_EQ(mimo.params_total, 308783611904.0);
  EXPECT_EQ(mimo.params_active, 15450767360.0);
  // K and V sized apart (192 + 128): the global layers' own 4 KV heads, the windowed ones' 8 over
  // the last 128 tokens. At 32,768 tokens, 16 bits: 8 × 4 × 320 × 2 B × 32,768 + 40 × 8 × 320 ×
  // 2 B × 128 = 671,088,640 + 26,214,400 = 697,303,040 B.
  ASSERT_EQ(mimo.layer_groups.size(), 2u);
  EXPECT_EQ(mimo.layer_groups[0].kv_heads, 4);
  EXPECT_EQ(mimo.layer_groups[0].value_dim, 128);
  EXPECT_EQ(mimo.layer_groups[1].kv_heads, 8);
  EXPECT_EQ(mimo.layer_groups[1].window_tokens, 128);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(mimo, 2.0), 32768, 1), 697303040.0);
  // Gemma 3n E4B's text decoder (gemma3n, tied): 262,400 × 2,048 + per-layer embeddings 262,144 ×
  // 35 × 256 (2,348,810,240) with their projection 2,048 × 35 × 256 and per layer gate and
  // projection 2 × 2,048 × 256 + AltUp's 2 × 3 × 2,048² and per layer 2,048 × 4 + 4³ + 4² + LAuReL
  // 2 × 2,048 × 64 + 35 × (q, o 2 × 2,048 × 8 × 256 + k, v 2 × 2,048 × 2 × 256 + MLP 3 × 2,048 ×
  // 16,384) = 6,866,103,024; less the per-layer table, 4,517,292,784 read per token. The card's
  // "8B raw, 4B effective" counts the vision and audio encoders too, which the importer leaves out.
  const ModelSpec e4b = Parse("gemma3n");
  EXPECT_EQ(e4b.params_total, 6866103024.0);
  EXPECT_EQ(e4b.per_layer_embedding_params, 2348810240.0);
  EXPECT_EQ(e4b.params_active, 4517292784.0);
  // KV: the 15 shared layers allocate nothing; of the 20 that cache, layers 4, 9, 14 and 19 are
  // full. At 32,768 tokens, 16 bits: 4 × 2 × 512 × 2 B × 32,768 + 16 × 2 × 512 × 2 B × 512 =
  // 268,435,456 + 16,777,216 = 285,212,672 B.
  ASSERT_EQ(e4b.layer_groups.size(), 3u);
  EXPECT_EQ(e4b.layer_groups[2].kind, LayerKind::kShared);
  EXPECT_EQ(e4b.layer_groups[2].layers, 15);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(e4b, 2.0), 32768, 1), 285212672.0);
}

TEST(HfConfig, ThePageNamesEveryTypeItReads) {
  // The config.json form's help lists the model types; a text_config's own type ("qwen3_5_text")
  // is named by its checkpoint's ("qwen3_5").
  for (const Lang lang : {Lang::kDe, Lang::kEn}) {
    const std::string help(BuiltinStrings(lang).Text("custom.help"));
    for (std::string_view type : SupportedModelTypes()) {
      if (type.ends_with("_text")) type.remove_suffix(5);
      const bool named = help.find(" " + std::string(type) + ",") != std::string::npos ||
                         help.find(" " + std::string(type) + ".") != std::string::npos;
      EXPECT_TRUE(named) << type << " in " << help;
    }
  }
}

TEST(HfConfig, SparseAttentionKeepsAnIndexerKeyBesideTheLatent) {
  // DeepSeek-V3.2: per token and layer the latent of 512 + 64 and an indexer key of
  // index_head_dim 128, at 16 bits 61 × (576 + 128) × 2 B = 85,888 B (architectures-2026.md
  // §4.8: vLLM's BF16 layout; its FP8 default stores 656 + 132 B). GLM-5.1: 78 × 704 × 2 B.
  const ModelSpec v32 = Parse("deepseek_v32");
  ASSERT_EQ(v32.layer_groups.size(), 1u);
  EXPECT_EQ(v32.layer_groups[0].index_dim, 128);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(v32, 2.0), 1, 1), 85888.0);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(Parse("glm_moe_dsa"), 2.0), 1, 1), 78.0 * 704 * 2);
  // The indexer's weights per layer: wq_b 1,536 × 64 heads × 128, wk 7,168 × 128 and the head
  // weights 7,168 × 64 = 13,959,168; over 61 layers DeepSeek-V3.2 counts 851,509,248 more than
  // DeepSeek-V3 (whose config is the same otherwise).
  EXPECT_EQ(v32.params_total - Parse("deepseek_v3").params_total, 61.0 * 13959168);
}

TEST(HfConfig, CompressedAttentionKeepsAWindowAndOneLatentPerRatioTokens) {
  // DeepSeek-V4-Flash: compress_ratios [0, 0, 4, 128, 4, …, 128, 4, 0] over 43 layers and the MTP
  // layer: 2 window-only layers, 21 at ratio 4 with an indexer key, 20 at ratio 128; every layer
  // keeps a sliding_window of 128 K = V latents of head_dim 512 (architectures-2026.md §4.9).
  const ModelSpec v4 = Parse("deepseek_v4");
  EXPECT_EQ(v4.attention, Attention::kMla);
  ASSERT_EQ(v4.layer_groups.size(), 3u);
  EXPECT_EQ(v4.layer_groups[0].kind, LayerKind::kWindow);
  EXPECT_EQ(v4.layer_groups[0].layers, 2);
  EXPECT_EQ(v4.layer_groups[1].compress_ratio, 4);
  EXPECT_EQ(v4.layer_groups[1].layers, 21);
  EXPECT_EQ(v4.layer_groups[1].index_dim, 128);
  EXPECT_EQ(v4.layer_groups[2].compress_ratio, 128);
  EXPECT_EQ(v4.layer_groups[2].layers, 20);
  EXPECT_EQ(v4.layer_groups[2].index_dim, 0);
  // One sequence of 131,072 tokens at 16 bits: the windows 43 × 128 × 1,024 B = 5,636,096; the
  // ratio-4 latents 21 × 32,768 × 1,024 = 704,643,072 and index keys 21 × 32,768 × 256 =
  // 176,160,768; the ratio-128 latents 20 × 1,024 × 1,024 = 20,971,520: 907,411,456 B (0.845 GiB,
  // against 43 × 1,024 × 131,072 = 5.38 GiB for a plain latent on every layer).
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(v4, 2.0), 131072, 1), 907411456.0);
  // At 1,048,576 tokens, 8 times the compressed part plus the same windows.
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(v4, 2.0), 1048576, 1), 5636096.0 + 8 * (704643072.0 + 176160768 + 20971520));
  // Weights: untied 2 × 129,280 × 4,096 = 1,059,061,760; per layer wq_a 4,096 × 1,024, wq_b
  // 1,024 × 64 × 512, wkv 4,096 × 512, wo_a 4,096 × 8,192, wo_b 8,192 × 4,096 and the
  // hyper-connections 2 × 24 × 16,384: 107,741,184; per ratio-4 layer the compressor 2 × 4,096 ×
  // 1,024 and the indexer 2 × 4,096 × 256 + 4,096 × 64 + 1,024 × 64 × 128 (19,136,512), per
  // ratio-128 layer 2 × 4,096 × 512; per layer 257 experts × 3 × 4,096 × 2,048 and the router
  // 4,096 × 256: 284,330,295,296, within 0.001 % of the 284,332,240,471 the checkpoint's tensor
  // list holds (catalog entry: norms, compressor position biases, sinks and the head's mixing).
  EXPECT_EQ(v4.params_total, 1059061760.0 + 43 * 107741184.0 + 21 * 19136512.0 + 20 * 8388608.0 / 2 +
                                 43 * (257 * 25165824.0 + 1048576));
  EXPECT_EQ(v4.params_total, 284330295296.0);
}

TEST(HfConfig, Gemma4AttendsGloballyWithItsOwnHeadsAndSharesKv) {
  // Gemma 4 E4B: the last num_kv_shared_layers 18 of 42 layers reuse earlier KV; of the 24 that
  // cache, the 4 full layers keep 2 KV heads × global_head_dim 512 (attention_k_eq_v false: the
  // ordinary KV heads) and the 20 sliding ones 2 × 256 for 512 tokens. At 16 bits and 32,768
  // tokens: 4 × 2 × 1,024 × 2 B × 32,768 + 20 × 2 × 512 × 2 B × 512 = 557,842,432 B.
  const ModelSpec e4b = Parse("gemma4");
  ASSERT_EQ(e4b.layer_groups.size(), 3u);
  EXPECT_EQ(e4b.layer_groups[2].kind, LayerKind::kShared);
  EXPECT_EQ(e4b.layer_groups[2].layers, 18);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(e4b, 2.0), 32768, 1), 16384.0 * 32768 + 40960.0 * 512);
  // Its per-layer embeddings: vocab_size_per_layer_input 262,144 × 42 layers × 256, counted in
  // the weights but not read per token.
  EXPECT_EQ(e4b.per_layer_embedding_params, 262144.0 * 42 * 256);
  EXPECT_EQ(e4b.params_total - e4b.params_active, 262144.0 * 42 * 256);
  // Gemma 4 31B: attention_k_eq_v, so its 10 full layers keep num_global_key_value_heads 4 × 512
  // (V stored like K) and have no v_proj: per full layer q and o 2 × 5,376 × 32 × 512 and k
  // 5,376 × 4 × 512; per sliding layer q and o 2 × 5,376 × 32 × 256, k and v 2 × 5,376 × 16 × 256
  // (the shapes the checkpoint's tensor list shows, catalog entry gemma-4-31b).
  const ModelSpec g31 = Parse("gemma4_31b");
  EXPECT_EQ(g31.layer_groups[0].kv_heads, 4);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(g31, 2.0), 131072, 1), 10 * 4 * 1024 * 2 * 131072.0 + 50 * 16 * 512 * 2 * 1024.0);
  const double attention = 10 * (2 * 5376 * 32 * 512.0 + 5376 * 4 * 512.0) + 50 * (2 * 5376 * 32 * 256.0 + 2 * 5376 * 16 * 256.0);
  EXPECT_EQ(attention, 8477736960.0);
  EXPECT_NE(g31.params_formula.find("attention by layer type 8,477,736,960"), std::string::npos) << g31.params_formula;
}

TEST(HfConfig, AQuantizedCheckpointNamesItsFormat) {
  // quantization_config as the published files state it: DeepSeek-V3, Kimi K2 and MiniMax-M2.7
  // {"quant_method": "fp8", "weight_block_size": [128, 128]}, gpt-oss {"quant_method": "mxfp4"};
  // the 16-bit checkpoints have none.
  for (const char* type : {"deepseek_v3", "deepseek_v32", "kimi_k2", "minimax_m2"}) EXPECT_EQ(Parse(type).checkpoint_format, "FP8") << type;
  EXPECT_EQ(Parse("gpt_oss").checkpoint_format, "MXFP4");
  for (const char* type : {"llama", "qwen3_5", "nemotron_h", "glm4_moe"}) EXPECT_EQ(Parse(type).checkpoint_format, "") << type;
  // An unknown method names no format rather than a wrong one.
  const Result<ModelSpec> other = ParseHfConfig(R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
      "num_attention_heads": 4, "vocab_size": 100, "max_position_embeddings": 128, "intermediate_size": 128,
      "quantization_config": {"quant_method": "bitsandbytes", "load_in_4bit": true}})");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other.value().checkpoint_format, "");
}

TEST(HfConfig, KvCacheOfAConfigMatchesAHandCalculation) {
  // gemma-3-4b-it at 32,768 tokens, FP16: 5 global layers × 32,768 + 29 windowed × 1,024 tokens,
  // each 2 × 4 KV heads × 256 × 2 B = 4,096 B per token and layer:
  // 4,096 × (5 × 32,768 + 29 × 1,024) = 792,723,456 B.
  const ModelSpec m = Parse("gemma3");
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(m, 2.0), 32768, 1), 792723456.0);
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

// Found by the config fuzzer: see tests/core/json_codec_test.cc, Regression.
TEST(HfConfigRegression, ANumberTooLargeForADoubleIsMalformed) {
  const Result<ModelSpec> parsed = ParseHfConfig(R"({"model_type": "mistral", "rope_theta": 1e400})");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().code, "malformed_json");
  EXPECT_EQ(parsed.error().field, "model");
}

// Found by the config fuzzer (2026-12-04, a qwen3_next config.json with hidden_size
// 409,999,999,996): sizes within each field's limit (2^40) whose product is no model. Here
// 2 layers × 3 × 400,000,000,000 × 400,000,000,000 of MLP alone are 9.6e23 parameters, past
// int64 in the card's formula (which overflowed) and past the limit of 10^15.
TEST(HfConfigRegression, AModelOfMoreThanTenToTheFifteenParametersIsRefused) {
  const Result<ModelSpec> parsed = ParseHfConfig(
      R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 400000000000, "num_attention_heads": 4,)"
      R"( "vocab_size": 100, "max_position_embeddings": 128, "intermediate_size": 400000000000})");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().field, "model.params_total");
  EXPECT_EQ(parsed.error().message,
            "The config.json describes no model the estimate can use: The total parameter count must be a "
            "positive number of at most 10^15.");
}

}  // namespace
}  // namespace vramcalc
