// Evaluate(): how the parts of one response fit together beyond the reference page's view.
#include "vramcalc/evaluate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "test_models.h"

namespace vramcalc {
namespace {

const Catalog& Builtin() { return BuiltinCatalog().value(); }

Response EvaluateOk(Request request, const Catalog& catalog = Builtin()) {
  auto response = Evaluate(request, catalog);
  EXPECT_TRUE(response.ok()) << response.error().message;
  return std::move(response).value();
}

// A hand-made 400B dense model (126 layers, 8 KV heads of 128, hidden 16,384): too large for
// one device at most formats. FP16 weights alone are 4e11 × 2 B = 745 GiB.
std::string BigDenseModelJson() {
  return R"([{"id": "big", "name": "Big", "family": "F", "checkpoint": "o/big",
    "ollama_tag": "", "license": "MIT", "release": "2025", "topology": "dense", "attention": "gqa",
    "params_total": 4e11, "params_active": 4e11, "num_hidden_layers": 126, "hidden_size": 16384,
    "num_attention_heads": 128, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 128256, "tie_word_embeddings": false,
    "max_position_embeddings": 131072,
    "layer_groups": [{"kind": "full", "layers": 126, "kv_heads": 8, "key_dim": 128, "value_dim": 128,
                      "query_heads": 128, "query_key_dim": 128, "query_value_dim": 128}],
    "sources": [{"what": "test", "url": "hand-written"}]}])";
}

Request For(const std::string& model) {
  Request request;
  request.model = model;
  return request;
}

TEST(CurveContexts, FourPerOctaveFrom512ToOneMillion) {
  const std::vector<int64_t> contexts = CurveContexts(testing::Glm4_32b());
  ASSERT_EQ(contexts.size(), 45u);  // 11 octaves × 4 + the end point
  EXPECT_EQ(contexts[0], 512);
  EXPECT_EQ(contexts[1], 609);      // 512 × 2^(1/4) = 608.87
  EXPECT_EQ(contexts[2], 724);      // 512 × 2^(1/2) = 724.08
  EXPECT_EQ(contexts[4], 1024);
  EXPECT_EQ(contexts.back(), 1048576);
  EXPECT_TRUE(std::is_sorted(contexts.begin(), contexts.end()));
}

TEST(CurveContexts, ReachesALongerMaxPositionAndTheWindowEdge) {
  ModelSpec m = testing::Glm4_32b();
  m.max_position_embeddings = 10485760;  // 10M tokens: the curve ends at 2^24 = 16,777,216
  testing::SetLayers(m, 4000, 10);
  const std::vector<int64_t> contexts = CurveContexts(m);
  EXPECT_EQ(contexts.back(), 16777216);
  EXPECT_TRUE(std::binary_search(contexts.begin(), contexts.end(), 4000));
}

// A request without a format runs the checkpoint's own where the engine offers it: gpt-oss is
// published with MXFP4 experts (its config.json's quantization_config), which `vllm serve
// openai/gpt-oss-20b` loads as they are; llama.cpp offers no format of that id and takes its
// default, as do models published in 16 bits under vLLM.
TEST(Evaluate, WithoutAFormatTheCheckpointsOwnWhereTheEngineOffersIt) {
  const auto format = [](const char* model, const char* runtime) {
    Request request = For(model);
    request.runtime = runtime;
    request.device = "h100-80gb";
    return std::string(EvaluateOk(request).simulator.format->id);
  };
  EXPECT_EQ(format("gpt-oss-20b", "vllm"), "MXFP4");
  EXPECT_EQ(format("gpt-oss-120b", "sglang"), "MXFP4");
  EXPECT_EQ(format("gpt-oss-20b", "llamacpp"), "Q4_K_M");
  EXPECT_EQ(format("qwen3-8b", "vllm"), "BF16");
}

// vLLM and SGLang need CUDA compute capability 7.5 ("compute capability 7.5 or higher (e.g., T4,
// RTX20xx, A100, L4, H100, B200, etc.)", vLLM's docs/getting_started/installation/gpu.cuda.inc.md;
// "sm75 and above", SGLang's quickstart): a Tesla P40 (6.1, NVIDIA's legacy table) and a V100 (7.0)
// are refused, naming the device, an RTX 2080 Ti (7.5) is not; llama.cpp runs on all three.
TEST(Evaluate, ServersNeedTheComputeCapabilityTheirDocsName) {
  const auto evaluate = [](const char* runtime, const char* device) {
    Request request = For("qwen3-8b");
    request.runtime = runtime;
    request.device = device;
    return Evaluate(request, Builtin());
  };
  for (const char* runtime : {"vllm", "sglang"}) {
    for (const char* device : {"tesla-p40-24gb", "tesla-v100-sxm2-32gb"}) {
      SCOPED_TRACE(std::string(runtime) + " on " + device);
      const auto refused = evaluate(runtime, device);
      ASSERT_FALSE(refused.ok());
      EXPECT_EQ(refused.error().code, "unsupported_device");
      EXPECT_EQ(refused.error().field, "device");
    }
    EXPECT_TRUE(evaluate(runtime, "rtx-2080-ti-11gb").ok()) << runtime;
  }
  for (const char* device : {"tesla-p40-24gb", "tesla-v100-sxm2-32gb", "rtx-2080-ti-11gb"}) {
    EXPECT_TRUE(evaluate("llamacpp", device).ok()) << device;
  }
  EXPECT_EQ(evaluate("vllm", "tesla-p40-24gb").error().message, "Runtime vllm does not run on NVIDIA Tesla P40 24GB.");
}

TEST(Evaluate, CurveMeetsTheSimulatorAtItsContext) {
  const Response r = EvaluateOk(For("glm-4-32b-0414"));
  const auto at = std::find_if(r.curve.begin(), r.curve.end(),
                               [](const CurvePoint& p) { return p.context_tokens == 32768; });
  ASSERT_NE(at, r.curve.end());
  EXPECT_DOUBLE_EQ(at->total_gib, r.simulator.total_gib);
  // 1,048,576 tokens × 62,464 B = 61 GiB of KV cache exactly.
  EXPECT_DOUBLE_EQ(r.curve.back().kv_cache_gib, 61.0);
}

TEST(Evaluate, TheSelectedDeviceAlwaysHasAHardwareRow) {
  Request request = For("glm-4-32b-0414");
  request.device = "rtx-3060-12gb";  // not in the page's table
  const Response r = EvaluateOk(request);
  ASSERT_EQ(r.hardware.size(), 9u);
  EXPECT_EQ(r.hardware.back().device->id, "rtx-3060-12gb");
  EXPECT_EQ(r.hardware.back().fit, Fit::kNoFit);  // 21.78 GB on 12 GB
  request.device = "rtx-4090-24gb";  // already in it: no extra row
  EXPECT_EQ(EvaluateOk(request).hardware.size(), 8u);
}

TEST(Evaluate, BatchMultipliesTheKvCache) {
  Request request = For("glm-4-32b-0414");
  request.batch = 4;
  request.device = "rtx-3090-24gb";  // without it, four caches move the recommendation up
  const Response r = EvaluateOk(request);
  EXPECT_DOUBLE_EQ(r.simulator.kv_cache_gib, 4 * 1.90625);  // 4 × 62,464 B × 32,768
  // floor(61,544.75 / 4) = 15,386 tokens per sequence on the 24 GiB card.
  EXPECT_EQ(r.simulator.max_context_tokens, 15386);
}

TEST(Evaluate, KvDtypeScalesTheCacheButNotTheSaving) {
  Request request = For("glm-4-32b-0414");
  request.kv_dtype = "q8_0";
  const Response r = EvaluateOk(request);
  EXPECT_DOUBLE_EQ(r.simulator.kv_cache_gib, 1.90625 * 34.0 / 64.0);  // 34/32 B instead of 2 B
  EXPECT_NEAR(r.simulator.kv_saving_pct, 100.0 * (1 - 2.0 / 48.0), 1e-9);  // 2 of 48 heads
}

TEST(Evaluate, NothingOnTheLadderFits) {
  // A 400B dense model: FP16 weights alone are 745 GiB.
  const std::string models = BigDenseModelJson();
  const std::string devices = R"({"devices": [
    {"id": "small", "name": "Small", "memory_gib": 24, "bandwidth_gbps": 936, "class": "consumer", "vendor": "nvidia", "platform": "cuda", "unified_memory": false, "source": "s"},
    {"id": "large", "name": "Large", "memory_gib": 192, "bandwidth_gbps": 800, "class": "apple", "vendor": "apple", "platform": "metal", "unified_memory": true, "source": "s"}],
    "recommendation_ladder": ["large", "small"], "hardware_table": ["small"]})";
  const Result<Catalog> catalog = ParseCatalog(models, devices);
  ASSERT_TRUE(catalog.ok()) << catalog.error().message;
  Request request = For("big");
  request.format = "FP16";
  const Response r = EvaluateOk(request, catalog.value());
  EXPECT_EQ(r.simulator.device->id, "large");  // the largest class, to show why it does not fit
  EXPECT_EQ(r.simulator.fit, Fit::kNoFit);
  EXPECT_EQ(r.simulator.max_context_tokens, 0);
  for (const MatrixRow& row : r.matrix) EXPECT_FALSE(row.recommended.has_value()) << row.format->id;
  EXPECT_EQ(r.simulator.recommended, nullptr);  // what "auto" would pick: nothing
}

TEST(Evaluate, RecommendedClassTiesKeepLadderOrder) {
  // RTX 3090 and RTX 4090 both have 24 GB; the ladder lists the 3090 first.
  const Response r = EvaluateOk(For("glm-4-32b-0414"));
  EXPECT_EQ(r.matrix[5].format->id, "Q4_K_M");
  EXPECT_EQ(r.matrix[5].recommended->device->id, "rtx-3090-24gb");
}

TEST(Evaluate, TheSimulatorNamesWhatAutoPicksWhateverTheDevice) {
  // The reference page recommends the RTX 3090 24GB for Q4_K_M (its matrix row); a request for
  // another device still names it, as the device selector's "auto" option does.
  Request request = For("glm-4-32b-0414");
  request.device = "rtx-5090-32gb";
  const Response r = EvaluateOk(request);
  EXPECT_EQ(r.simulator.device->id, "rtx-5090-32gb");
  ASSERT_NE(r.simulator.recommended, nullptr);
  EXPECT_EQ(r.simulator.recommended->id, "rtx-3090-24gb");
  // Q8_0: 35.79 GB at 32K, for which the page recommends the Apple M4 Pro 48GB.
  request.format = "Q8_0";
  const Response q8 = EvaluateOk(request);
  ASSERT_NE(q8.simulator.recommended, nullptr);
  EXPECT_EQ(q8.simulator.recommended->id, "apple-m4-pro-48gb");
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

TEST(TensorParallel, SplitsWeightsAndCacheAndAddsBuffers) {
  Request request = For("glm-4-32b-0414");
  request.device = "rtx-3090-24gb";
  request.device_count = 2;
  const Response r = EvaluateOk(request);
  // Hand calculation (estimation model, Part 2), W = 19.4e9 B = 18.0677 GiB, K = 1.90625 GiB:
  // per device (W + K) / 2 + [0.85 + 0.03 × W/2 + 0.04 + 0.375] + 0.25 = 11.77297 GiB.
  const double w = 19400000000.0 / 1073741824.0;
  const double per_device = (w + 1.90625) / 2 + (0.85 + 0.03 * w / 2 + 0.04 + 0.375) + 0.25;
  EXPECT_NEAR(r.simulator.per_device_gib, per_device, 1e-12);
  EXPECT_NEAR(per_device, 11.77297, 1e-5);
  EXPECT_NEAR(r.simulator.total_gib, 2 * per_device, 1e-12);
  EXPECT_EQ(r.simulator.fit, Fit::kComfortable);  // 11.77 / 24 = 0.49
  // Decode: 2 × 0.9 × the one-device 27.30 tok/s = 49.145 tok/s.
  EXPECT_NEAR(r.simulator.decode_tps, 2 * 0.9 * 936e9 * 0.736 * 0.85 / (19.4e9 + 2046820352.0), 1e-9);
  // Max context per device: K/2 ≤ 0.96 × 24 − 0.85 − 1.03 × W/2 − 0.25 = 12.63516 GiB, so
  // S = floor(2 × 12.63516 GiB / 62,464 B) = 434,390 tokens.
  EXPECT_EQ(r.simulator.max_context_tokens, 434390);
  ASSERT_EQ(r.commands.size(), 3u);
  EXPECT_NE(r.commands[0].text.find("--tensor-parallel-size 2 \\\n"), std::string::npos);
  EXPECT_NE(r.commands[0].text.find("on 2× RTX 3090 24GB"), std::string::npos);
  EXPECT_NE(r.commands[2].text.find("Ollama has no tensor parallelism"), std::string::npos);
}

TEST(TensorParallel, MatrixSuggestsAGroupWhenNoSingleDeviceFits) {
  // A 400B dense model at Q4_K_M: 225.8 GiB of weights, more than any one ladder device.
  const std::string models = BigDenseModelJson();
  const std::string devices = R"({"devices": [
    {"id": "gpu80", "name": "GPU 80", "memory_gib": 80, "bandwidth_gbps": 3350, "class": "datacenter", "vendor": "nvidia", "platform": "cuda", "unified_memory": false, "source": "s"},
    {"id": "mac192", "name": "Mac 192", "memory_gib": 192, "bandwidth_gbps": 800, "class": "apple", "vendor": "apple", "platform": "metal", "unified_memory": true, "source": "s"}],
    "recommendation_ladder": ["gpu80", "mac192"], "hardware_table": ["gpu80"]})";
  const Result<Catalog> catalog = ParseCatalog(models, devices);
  ASSERT_TRUE(catalog.ok()) << catalog.error().message;
  const Response r = EvaluateOk(For("big"), catalog.value());
  // Q4_K_M: W = 4e11 × 4.85 / 8 B = 225.85 GiB; K(32K) = 2 × 126 × 8 × 128 × 2 × 32,768 B =
  // 15.75 GiB; the workspace is 16,384 × 32,768 × 2 B = 1 GiB. On 4 × 80 GiB:
  // (225.85 + 15.75) / 4 + 0.85 + 0.03 × 56.46 + 0.04 + 1 + 0.25 = 64.23 GiB ≤ 0.96 × 80 = 76.8;
  // on 2: 126.33 GiB > 76.8. The Mac (one 192 GiB machine) needs 246.5 GiB: no.
  const MatrixRow& q4 = r.matrix[5];
  ASSERT_EQ(q4.format->id, "Q4_K_M");
  ASSERT_TRUE(q4.recommended);
  EXPECT_EQ(q4.recommended->device->id, "gpu80");
  EXPECT_EQ(q4.recommended->device_count, 4);
  // IQ4_XS (4.25 bpw): on the Mac 197.91 + 15.75 + 0.55 + 0.015 × 197.91 + 1 = 218.2 GiB >
  // 0.96 × 192 = 184.3, so again 4 GPUs.
  EXPECT_EQ(r.matrix[7].recommended->device_count, 4);
  // FP16: W = 745.06 GiB; 8 × 80 GiB would each hold (745.06 + 15.75) / 8 + 0.85 + 0.03 × 93.13
  // + 0.04 + 1 + 0.25 = 100.0 GiB: too much, so nothing is recommended.
  EXPECT_FALSE(r.matrix[0].recommended.has_value());
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

TEST(Evaluate, RelatedModelsAreTheNearestByTotalMemory) {
  const Response r = EvaluateOk(For("glm-4-32b-0414"));
  ASSERT_EQ(r.related.size(), 5u);
  double previous = 0;
  for (const RelatedModel& related : r.related) {
    EXPECT_NE(related.model->id, "glm-4-32b-0414");
    const double distance = std::abs(related.total_gib - r.simulator.total_gib);
    EXPECT_GE(distance, previous) << related.model->id;
    previous = distance;
  }
  // No model left out is nearer than the farthest one listed.
  for (const ModelSpec& m : Builtin().models) {
    const bool listed = std::any_of(r.related.begin(), r.related.end(),
                                    [&](const RelatedModel& x) { return x.model->id == m.id; });
    if (listed || m.id == "glm-4-32b-0414") continue;
    Request other = For(m.id);
    other.device = "rtx-3090-24gb";
    EXPECT_GE(std::abs(EvaluateOk(other).simulator.total_gib - r.simulator.total_gib), previous) << m.id;
  }
}

TEST(Evaluate, ARelatedModelBeyondItsMaximumContextSaysSo) {
  // At 8,192 tokens every listed model whose own maximum is shorter is flagged, and none that
  // reaches 8,192 is.
  Request request = For("qwen3-8b");
  request.context_tokens = 8192;
  for (const char* id : {"qwen3-8b", "phi-3.5-mini", "yi-1.5-34b", "gemma-2-9b"}) {
    request.model = id;
    for (const RelatedModel& related : EvaluateOk(request).related) {
      EXPECT_EQ(related.beyond_max_position, related.model->max_position_embeddings < 8192) << related.model->id;
    }
  }
  // Beside Gemma 2 9B at 8K: OLMo-2-1124-7B, whose config stops at 4,096 positions.
  request.model = "gemma-2-9b";
  const Response gemma = EvaluateOk(request);
  const auto olmo = std::find_if(gemma.related.begin(), gemma.related.end(),
                                 [](const RelatedModel& x) { return x.model->id == "olmo-2-7b"; });
  ASSERT_NE(olmo, gemma.related.end());
  EXPECT_TRUE(olmo->beyond_max_position);
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

TEST(TensorParallel, WithoutADeviceTheRecommendedGroupIsSimulated) {
  // DeepSeek-V3 at Q4_K_M: W = 671e9 × 4.85 / 8 B = 378.86 GiB, K(32K) = 61 × 576 × 2 B ×
  // 32,768 = 2.1445 GiB. On 4 × 80 GiB each would hold 381.0 / 4 + 0.85 + 0.03 × 94.7 + 0.04 +
  // 7,168 × 64 KiB (0.4375) + 0.25 = 99.6 GiB > 76.8; on 8: 47.63 + 0.85 + 1.42 + 0.04 + 0.4375
  // + 0.25 = 50.62 GiB ≤ 76.8, and the A100 comes before the H100 on the ladder.
  const Response r = EvaluateOk(For("deepseek-v3"));
  EXPECT_EQ(r.simulator.device->id, "a100-80gb");
  EXPECT_EQ(r.simulator.device_count, 8);
  const double w = 671e9 * 4.85 / 8 / 1073741824.0;
  const double k = 61.0 * 576 * 2 * 32768 / 1073741824.0;
  EXPECT_NEAR(r.simulator.per_device_gib, (w + k) / 8 + 0.85 + 0.03 * w / 8 + 0.04 + 0.4375 + 0.25, 1e-9);
  EXPECT_EQ(r.matrix[5].recommended->device_count, 8);
  // A device named without a count is one device.
  Request one = For("deepseek-v3");
  one.device = "h100-80gb";
  EXPECT_EQ(EvaluateOk(one).simulator.device_count, 1);
}

}  // namespace
}  // namespace vramcalc
