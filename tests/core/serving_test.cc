// Serving (core/ESTIMATION.md section 8): prefill FLOPs by hand from the models' config.json
// files, and the serving section's figures and gaps.
#include <gtest/gtest.h>

#include <string>

#include "test_models.h"
#include "vramcalc/catalog.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/json_codec.h"
#include "vramcalc/serving.h"

namespace vramcalc {
namespace {

const Catalog& Builtin() { return BuiltinCatalog().value(); }

TEST(PrefillFlops, ADenseModelByHand) {
  // Qwen3-8B (config.json: hidden 4096, 36 layers, 32 heads of 128, vocab 151,936, untied;
  // 8,190,735,360 parameters): the matmuls skip the embedding and the head, 2 × 151,936 × 4,096
  // = 1,244,659,712, so 2 × 6,946,075,648 FLOPs; a 512-token prompt's tokens attend to 256.5
  // keys on average, 2 × 32 × (128 + 128) × 256.5 × 36 layers.
  const PrefillFlops flops = PrefillFlopsOf(*Builtin().FindModel("qwen3-8b"), 512, 0);
  EXPECT_DOUBLE_EQ(flops.matmul, 13'892'151'296.0);
  EXPECT_DOUBLE_EQ(flops.attention, 151'289'856.0);
  // After 32,768 tokens of context: 32,768 + 256.5 keys.
  EXPECT_DOUBLE_EQ(PrefillFlopsOf(*Builtin().FindModel("qwen3-8b"), 512, 32768).attention,
                   2.0 * 32 * 256 * (32768 + 256.5) * 36);
}

TEST(PrefillFlops, WindowsAndChunksCapTheKeys) {
  // Gemma 3 12B (config.json: 48 layers, every 6th global, sliding_window 1024, 16 heads of 256):
  // over a 4,096-token prompt a windowed layer attends to (1,024 × 1,025 / 2 + 3,072 × 1,024) /
  // 4,096 = 896.125 keys on average, a global one to 2,048.5.
  const PrefillFlops gemma = PrefillFlopsOf(*Builtin().FindModel("gemma-3-12b"), 4096, 0);
  EXPECT_DOUBLE_EQ(gemma.attention, 2.0 * 16 * 512 * (8 * 2048.5 + 40 * 896.125));
  // Llama 4 Scout (attention_chunk_size 8192, 3 chunked : 1 global, 40 heads of 128): over two
  // whole chunks a chunked layer attends to 4,096.5 keys on average.
  const PrefillFlops scout = PrefillFlopsOf(*Builtin().FindModel("llama-4-scout-17b-16e"), 16384, 0);
  EXPECT_DOUBLE_EQ(scout.attention, 2.0 * 40 * 256 * (12 * 8192.5 + 36 * 4096.5));
  // Recurrent layers attend to nothing: Qwen3.5-9B's 8 full layers alone (16 heads of 256).
  EXPECT_DOUBLE_EQ(PrefillFlopsOf(*Builtin().FindModel("qwen3.5-9b"), 512, 0).attention, 2.0 * 16 * 512 * 256.5 * 8);
}

TEST(PrefillFlops, MlaCountsItsQueryHeadsDims) {
  // DeepSeek-V3 (config.json: 128 heads, qk_nope 128 + qk_rope 64, v_head_dim 128, 61 layers).
  EXPECT_DOUBLE_EQ(PrefillFlopsOf(*Builtin().FindModel("deepseek-v3"), 512, 0).attention,
                   2.0 * 128 * (192 + 128) * 256.5 * 61);
}

TEST(Serving, TimeToFirstTokenAndTheAnswer) {
  const Request request = ParseRequest(
      R"({"model":"qwen3-8b","format":"Q4_K_M","runtime":"llamacpp","device":"rtx-4090-24gb","prompt_tokens":20000,"output_tokens":1000})")
                              .value();
  const Response response = Evaluate(request, Builtin()).value();
  const Serving& s = *response.serving;
  ASSERT_EQ(s.gap, ServingGap::kNone);
  EXPECT_FALSE(s.rule_borrowed);
  EXPECT_EQ(s.peak_tflops, 165.2);  // the RTX 4090's FP16 peak (Ada whitepaper)
  // By hand: Q4_K_M's matmuls at the INT8 peak (660.6 TOPS) × η, attention over 10,000.5 keys
  // on average at the FP16 peak × η_attn: 2 × 6,946,075,648 and 2 × 32 × 256 × 10,000.5 × 36 FLOPs.
  ASSERT_NE(s.rule, nullptr);
  EXPECT_EQ(s.rule->platform, Platform::kCuda);
  EXPECT_EQ(s.rule->moe, Tristate::kNo);
  const double per_token = 13'892'151'296.0 / (660.6e12 * s.rule->efficiency) +
                           2.0 * 32 * 256 * 10000.5 * 36 / (165.2e12 * s.rule->attention_efficiency);
  EXPECT_NEAR(s.prefill_tps, 1 / per_token, 1e-6);
  EXPECT_NEAR(s.ttft_s, 20000 * per_token, 1e-9);
  // The answer decodes at its middle's depth, as the simulator does at a context of 20,500 tokens.
  Request middle = request;
  middle.context_tokens = 20500;
  EXPECT_DOUBLE_EQ(s.decode_tps, Evaluate(middle, Builtin()).value().simulator.decode_tps);
  EXPECT_NEAR(s.total_s, s.ttft_s + 999 / s.decode_tps, 1e-9);
  EXPECT_FALSE(s.beyond_context);
  // A prompt and answer longer than the context: still estimated, and said.
  Request longer = request;
  longer.prompt_tokens = 40000;
  EXPECT_TRUE(Evaluate(longer, Builtin()).value().serving->beyond_context);
}

TEST(Serving, SaysWhyItHasNoFigures) {
  // Qwen3-32B BF16 (65.5 GB of weights) on an 8 GB RTX 4060: it does not fit (offload's prefill
  // is not modelled yet).
  Request offload = ParseRequest(R"({"model":"qwen3-32b","format":"BF16","runtime":"llamacpp","device":"rtx-4060-8gb"})").value();
  EXPECT_EQ(Evaluate(offload, Builtin()).value().serving->gap, ServingGap::kNoFit);
  // A device of one's own has no peak compute.
  Request custom = ParseRequest(R"({"model":"qwen3-8b","runtime":"llamacpp","device":"custom:24:1000:cuda:Mine"})").value();
  EXPECT_EQ(Evaluate(custom, Builtin()).value().serving->gap, ServingGap::kNoPeak);
}

TEST(Serving, AnEngineWithoutARuleBorrowsOneAndSaysSo) {
  // No published vLLM prefill run is in tests/calibration/prefill.json, nor any reference one:
  // llama.cpp's rule for the RTX 4090, named, its error unknown.
  for (const char* runtime : {"vllm", "reference"}) {
    const Request request = ParseRequest(std::string(R"({"model":"qwen3-8b","device":"rtx-4090-24gb","runtime":")") + runtime + "\"}").value();
    const Serving s = *Evaluate(request, Builtin()).value().serving;
    EXPECT_TRUE(s.rule_borrowed) << runtime;
    EXPECT_EQ(s.rule_runtime, "llamacpp") << runtime;
    EXPECT_EQ(s.gap, ServingGap::kNone) << runtime;
  }
  // No engine has a rule for ROCm datacenter cards (MI300X): no figures.
  const Request mi300x = ParseRequest(R"({"model":"qwen3-8b","device":"mi300x-192gb","runtime":"vllm"})").value();
  EXPECT_EQ(Evaluate(mi300x, Builtin()).value().serving->gap, ServingGap::kNoRule);
}

TEST(Serving, PromptAndOutputAreCheckedFields) {
  for (const char* field : {"prompt_tokens", "output_tokens"}) {
    for (const char* value : {"0", "-5", "1.5", "\"4096\""}) {
      const Result<Request> parsed = ParseRequest(std::string(R"({"model":"qwen3-8b",")") + field + "\":" + value + "}");
      ASSERT_FALSE(parsed.ok()) << field << value;
      EXPECT_EQ(parsed.error().field, field);
    }
  }
  EXPECT_EQ(ParseRequest(R"({"model":"qwen3-8b","prompt_tokens":20000})").value().prompt_tokens, 20000);
}

}  // namespace
}  // namespace vramcalc
