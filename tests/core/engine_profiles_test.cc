// The engine profiles (core/ESTIMATION.md section 5) against what the engines themselves report:
// llama.cpp's buffer lines, Ollama's launch rules, vLLM's and SGLang's start-up logs, Apple's
// working set and mlx-lm's peak memory. Each test names its source; weights of GGUF formats
// come from fitted body bits (tests/calibration/weight-sizes.json), so they are checked to
// 0.5 %, everything else to the logged digit.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "estimate/engine_memory.h"
#include "vramcalc/catalog.h"
#include "vramcalc/commands.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/json_codec.h"

namespace vramcalc {
namespace {

constexpr double kMib = 1048576.0;
constexpr double kGib = 1073741824.0;

const ModelSpec& Model(std::string_view id) {
  const ModelSpec* model = BuiltinCatalog().value().FindModel(id);
  if (model == nullptr) ADD_FAILURE() << "no catalog model " << id;
  return *model;
}

Device Gpu(double memory_gib, DeviceClass device_class = DeviceClass::kConsumer, std::string id = "gpu") {
  const bool apple = device_class == DeviceClass::kApple;
  return Device{std::move(id), "GPU", memory_gib, 1000, device_class, apple ? Vendor::kApple : Vendor::kNvidia,
                apple ? Platform::kMetal : Platform::kCuda, apple, ""};
}

// `model` at `format` and `context` under `runtime` on `device` (all outliving the scenario).
Scenario On(std::string_view runtime, const ModelSpec& model, std::string_view format, int64_t context,
            const Device& device, std::string_view kv_dtype = "fp16") {
  Scenario s;
  s.model = &model;
  s.format = FindQuantFormat(format);
  s.kv_dtype = FindKvDtype(kv_dtype);
  s.context_tokens = context;
  s.device = &device;
  s.runtime = FindRuntimeProfile(runtime);
  s.engine.flash_attention = s.runtime->defaults.flash_attention;
  return s;
}

double Mib(double gib) { return gib * kGib / kMib; }
double ComputeMib(const Footprint& f) { return Mib(f.parts.compute_gib + f.main_device_extra_gib); }

// ---- llama.cpp ------------------------------------------------------------------------------

// developer0hye/llama-3-korean-bllossom-8b-q4-docker README (llama-cpp-python on an RTX 3070,
// a Llama-3-8B Q4_K_M with the shapes of the catalog's Llama 3.1 8B): "CPU buffer size =
// 281.81 MiB", "CUDA0 buffer size = 4403.49 MiB", "n_ctx = 512", "flash_attn = 0", "CUDA0 KV
// buffer size = 64.00 MiB", "CUDA0 compute buffer size = 258.50 MiB".
TEST(LlamaCpp, Llama3_8bQ4KmAt512TokensMatchesItsBufferLines) {
  const Device rtx3070 = Gpu(8);
  Scenario s = On("llamacpp", Model("llama-3.1-8b"), "Q4_K_M", 512, rtx3070);
  s.engine.flash_attention = false;
  const Footprint f = FootprintOf(s);
  // token_embd stays on the CPU, as Q4_K: 128,256 × 4,096 × 144/256 B = 281.8125 MiB.
  EXPECT_DOUBLE_EQ(Mib(f.host_gib), 281.8125);
  EXPECT_NEAR(Mib(f.weights_gib), 4403.49, 0.005 * 4403.49);
  // 32 layers × 512 cells × (1,024 + 1,024) × 2 B = 64 MiB.
  EXPECT_DOUBLE_EQ(f.kv_cache_bytes / kMib, 64.0);
  // The logits of the whole ubatch dominate: 512 × (128,256 + 4,096) × 4 B = 258.5 MiB.
  EXPECT_DOUBLE_EQ(ComputeMib(f), 258.5);
}

// fedora-copr/logdetective PR #106 (Mistral-7B-Instruct-v0.2, flash_attn 0, ubatch 512): "KV
// buffer size = 256.00 MiB" and "compute buffer size = 164.00 MiB" at n_ctx 2048; 4096.00 and
// 2144.00 MiB at 32768. The catalog's Mistral 7B v0.3 has v0.2's attention (32 layers, 32
// heads, 8 KV heads of 128, hidden 4,096).
TEST(LlamaCpp, WithoutFlashAttentionTheScoresOfEveryHeadGrowWithTheContext) {
  const Device gpu = Gpu(48);
  for (const auto& [context, kv_mib, compute_mib] : {std::tuple{2048, 256.0, 164.0}, {32768, 4096.0, 2144.0}}) {
    Scenario s = On("llamacpp", Model("mistral-7b-v0.3"), "Q4_K_M", context, gpu);
    s.engine.flash_attention = false;
    const Footprint f = FootprintOf(s);
    EXPECT_DOUBLE_EQ(f.kv_cache_bytes / kMib, kv_mib) << context;
    // 512 × n × (32 + 1) × 4 B of scores and mask + 512 × 4,096 × 16 B.
    EXPECT_DOUBLE_EQ(ComputeMib(f), compute_mib) << context;
  }
}

// An Ollama server log of May 2026 (llama.cpp ec98e2002; code-index file 56696108702):
// qwen2.5-coder:7b Q4_K_M, n_ctx 32768, n_ubatch 512, "Flash Attention was auto, set to enabled":
// "CPU_Mapped model buffer size = 292.36 MiB", "CUDA0 model buffer size = 4168.09 MiB", "KV
// buffer size = 1792.00 MiB", "CUDA0 compute buffer size = 382.01 MiB".
TEST(LlamaCpp, Qwen25_7bQ4KmAt32kWithFlashAttentionMatchesItsBufferLines) {
  const Device rtx4090 = Gpu(24);
  Scenario s = On("llamacpp", Model("qwen2.5-7b"), "Q4_K_M", 32768, rtx4090);
  s.engine.ubatch = 512;
  const Footprint f = FootprintOf(s);
  EXPECT_NEAR(Mib(f.host_gib), 292.36, 0.005);  // 152,064 × 3,584 × 144/256 B
  EXPECT_NEAR(Mib(f.weights_gib), 4168.09, 0.005 * 4168.09);
  EXPECT_DOUBLE_EQ(f.kv_cache_bytes / kMib, 1792.0);
  // 512 × (152,064 + 3,584) × 4 B logits + 512 × 32,768 × 4 B mask + 2 × 512 × 3,584 × 4 B.
  EXPECT_DOUBLE_EQ(ComputeMib(f), 382.0);
}

// ik_llama.cpp issue #822 (llama-server b6699, gpt-oss-20b MXFP4, -c 131072, ubatch 512): "creating
// non-SWA KV cache, size = 131072 cells" of 3072.00 MiB and "creating SWA KV cache, size = 768
// cells" of 18.00 MiB: pad256(min(131,072, 128 + 512)) = 768. token_embd stays on the CPU as
// Q8_0 (586.82 MiB in ontouchstart/rabbit-holes' Metal log, where the mapped file, 11,536.18
// MiB, is the Metal buffer).
TEST(LlamaCpp, SlidingWindowLayersKeepTheWindowPlusOneUbatch) {
  const Device gpu = Gpu(24);
  const Scenario s = On("llamacpp", Model("gpt-oss-20b"), "MXFP4_MOE", 131072, gpu);
  const Footprint f = FootprintOf(s);
  EXPECT_DOUBLE_EQ(f.kv_cache_bytes / kMib, 3072.0 + 18.0);
  EXPECT_NEAR(Mib(f.host_gib), 586.82, 0.005);
  const Device m5 = Gpu(32, DeviceClass::kApple);
  const Footprint on_mac = FootprintOf(On("llamacpp", Model("gpt-oss-20b"), "MXFP4_MOE", 131072, m5));
  EXPECT_EQ(on_mac.host_gib, 0);
  EXPECT_NEAR(Mib(on_mac.weights_gib), 11536.18, 0.005 * 11536.18);
}

// gpt-oss-20b at BF16: under llama.cpp a GGUF file, whose converter keeps the checkpoint's MXFP4
// experts (conversion/gpt_oss.py @ 2bbcf7f; unsloth's F16 file is 13.8 GB, 12.85 GiB); under
// vLLM the 16-bit checkpoint, every one of its 20,914,757,184 parameters at 2 B = 38.96 GiB.
TEST(LlamaCpp, A16BitGgufOfGptOssKeepsItsMxfp4Experts) {
  const Device gpu = Gpu(80);
  const Footprint gguf = FootprintOf(On("llamacpp", Model("gpt-oss-20b"), "BF16", 4096, gpu));
  EXPECT_NEAR(gguf.weights_gib + gguf.host_gib, 13.8e9 / kBytesPerGib, 0.01 * 13.8e9 / kBytesPerGib);
  const Footprint checkpoint = FootprintOf(On("vllm", Model("gpt-oss-20b"), "BF16", 4096, gpu));
  EXPECT_NEAR(checkpoint.weights_gib, 20914757184.0 * 2 / kBytesPerGib, 0.005);
}

// Gemma 4 26B-A4B under llama.cpp with one slot: 25 sliding layers × 8 KV heads × 256 × (K + V)
// × 2 B = 204,800 B per token, kept for GGML_PAD(min(n_ctx, 1,024 + 512), 256) = 1,536 cells,
// and 5 global layers × 2 KV heads × 512 × (K + V) × 2 B = 20,480 B per token of context. At
// 4K / 32K / 128K that is 398,458,880 / 985,661,440 / 2,998,927,360 B: the "correct KV" of
// ollama/ollama#16958, 0.40 / 0.99 / 3.00 GB (10^9 B; its old estimate charged every layer the
// whole context, 1.76 to 56.37 GB).
TEST(LlamaCpp, Gemma4KeepsItsSlidingLayersAtTheWindowAndItsGlobalLayersWhole) {
  const Device gpu = Gpu(80);
  const struct {
    int64_t context;
    double bytes, published_gb;
  } kCases[] = {{4096, 398458880, 0.40}, {32768, 985661440, 0.99}, {131072, 2998927360, 3.00}};
  for (const auto& c : kCases) {
    const Footprint f = FootprintOf(On("llamacpp", Model("gemma-4-26b-a4b"), "Q4_K_M", c.context, gpu));
    EXPECT_DOUBLE_EQ(f.kv_cache_bytes, c.bytes) << c.context;
    EXPECT_NEAR(f.kv_cache_bytes / 1e9, c.published_gb, 0.005) << c.context;
  }
}

// Gemma 4 E2B's per-layer embeddings, 262,144 × 35 layers × 256 = 2,348,810,240 parameters
// (hidden_size_per_layer_input 256): a lookup per token like the token embedding, so decoding
// does not read them, and llama.cpp keeps them in host RAM with it (an input tensor,
// llama-arch.cpp). At Q4_K_M both are the file's base type, Q4_K (144 bytes per 256), except the
// tied token embedding, which takes the head's Q6_K (210 per 256) and is copied as the head.
TEST(LlamaCpp, PerLayerEmbeddingsStayInHostRamAndAreNotReadPerToken) {
  const ModelSpec& e2b = Model("gemma-4-e2b");
  EXPECT_EQ(e2b.per_layer_embedding_params, 262144.0 * 35 * 256);
  const Device gpu = Gpu(24);
  const Scenario s = On("llamacpp", e2b, "Q4_K_M", 4096, gpu);
  const double ple = 262144.0 * 35 * 256 * 144 / 256;
  const double token = 262144.0 * 1536 * 210 / 256;
  EXPECT_DOUBLE_EQ(FootprintOf(s).host_gib * kGib, ple + token);
  // The reference profile's flat weights count them; its decode reads params_active, which
  // leaves them out: params_total − params_active = the table.
  EXPECT_DOUBLE_EQ(e2b.params_total - e2b.params_active, 262144.0 * 35 * 256);
  const WeightBytes flat = WeightBytesOf(On("reference", e2b, "Q4_K_M", 4096, gpu));
  EXPECT_NEAR(flat.device - flat.active, 262144.0 * 35 * 256 * 4.85 / 8, 1.0);
}

// Every token's logits read the head's whole matrix; a tied embedding is that matrix. vLLM keeps
// no copy (lm_head is embed_tokens), llama.cpp copies it as the output. Llama 3.2 1B (config.json:
// vocab 128,256, hidden 2,048, tie_word_embeddings true; 1,235,814,400 parameters) in BF16 under
// vLLM: 1,235,814,400 × 2 B on the device, and a token reads all of it, the tied matrix
// (128,256 × 2,048 × 2 = 525,336,576 B) as its head. Under llama.cpp at Q8_0 the copy is on the
// device and read per token, the embedding itself in host RAM.
TEST(Weights, ATiedEmbeddingIsReadPerTokenAsTheHead) {
  const ModelSpec& llama = Model("llama-3.2-1b");
  ASSERT_TRUE(llama.tie_word_embeddings);
  const Device gpu = Gpu(24);
  const WeightBytes vllm = WeightBytesOf(On("vllm", llama, "BF16", 4096, gpu));
  EXPECT_DOUBLE_EQ(vllm.device, 1235814400.0 * 2);
  EXPECT_DOUBLE_EQ(vllm.active, 1235814400.0 * 2);
  EXPECT_DOUBLE_EQ(vllm.head, 0);  // no second copy in memory
  const WeightBytes llamacpp = WeightBytesOf(On("llamacpp", llama, "Q8_0", 4096, gpu));
  EXPECT_DOUBLE_EQ(llamacpp.head, 128256.0 * 2048 * 34 / 32);
  EXPECT_DOUBLE_EQ(llamacpp.active, llamacpp.device);  // the copy counted once, the embedding on the host
}

// MLP down projections whose width is not a multiple of 256 take llama.cpp's fallback types
// (llama-quant.cpp tensor_type_fallback): under Q4_K_M half of them Q6_K -> Q8_0 (+1.9375 bits),
// half Q4_K -> Q5_0 (+1), +47/32 bits a weight; Q4_0's 32-weight blocks take none, nor does the
// reference profile's flat bits. Gemma 4 26B-A4B (config widths 2,112 dense and 704 per expert):
// 30 x 2,816 x 2,112 = 178,421,760 read by every token and 30 x 128 x 2,816 x 704 =
// 7,612,661,760 in the routed experts, 8 of 128 read per token.
TEST(LlamaCpp, UnalignedDownProjectionsTakeTheFallbackTypesBits) {
  const ModelSpec& gemma = Model("gemma-4-26b-a4b");
  EXPECT_EQ(gemma.unaligned_params, 30.0 * 2816 * 2112);
  EXPECT_EQ(gemma.unaligned_expert_params, 30.0 * 128 * 2816 * 704);
  ModelSpec aligned = gemma;
  aligned.unaligned_params = aligned.unaligned_expert_params = 0;
  const Device gpu = Gpu(80);
  const WeightBytes q4km = WeightBytesOf(On("llamacpp", gemma, "Q4_K_M", 4096, gpu));
  const WeightBytes blocks = WeightBytesOf(On("llamacpp", aligned, "Q4_K_M", 4096, gpu));
  EXPECT_NEAR(q4km.device - blocks.device, (178421760.0 + 7612661760.0) * 47 / 32 / 8, 1.0);  // 1,430,394,240 B
  EXPECT_NEAR(q4km.active - blocks.active, (178421760.0 + 7612661760.0 * 8 / 128) * 47 / 32 / 8, 1.0);
  for (const auto& [runtime, format] : {std::pair{"llamacpp", "Q4_0"}, std::pair{"reference", "Q4_K_M"}}) {
    EXPECT_EQ(WeightBytesOf(On(runtime, gemma, format, 4096, gpu)).device,
              WeightBytesOf(On(runtime, aligned, format, 4096, gpu)).device) << runtime << " " << format;
  }
  // Qwen2.5-72B, FFN width 29,568: 80 x 8,192 x 29,568 = 19,377,684,480 (its published files:
  // tests/core/calibration_test.cc).
  EXPECT_EQ(Model("qwen2.5-72b").unaligned_params, 80.0 * 8192 * 29568);
}

// A hidden size that is not a multiple of 256 (Nemotron-3-Nano's 2,688 = 10.5 × 256) makes every
// matrix reading it fall back from the base type (Q4_K -> Q5_0, +1 bit): 23 Mamba2 in_proj 2,688
// × 10,304, 6 attention q, k and v 2,688 × 4,608, 23 shared-expert up projections 2,688 × 3,712,
// and the routed experts' up projections 23 × 128 × 2,688 × 1,856 (6 of 128 read per token).
// The head takes Q8_0 (34 B per 32) and the embedding, kept in host RAM, Q5_0 (22 B per 32).
// Q8_0's blocks of 32 take none, nor do the reference profile's flat bits.
TEST(LlamaCpp, AHiddenSizeTheBlocksDoNotDivideMakesEveryMatrixReadingItFallBack) {
  const ModelSpec& nano = Model("nemotron-3-nano-30b-a3b");
  const double body = 23.0 * 2688 * 10304 + 6.0 * 2688 * 4608 + 23.0 * 2688 * 3712;  // 940,843,008
  const double experts = 23.0 * 128 * 2688 * 1856;                                    // 14,687,404,032
  EXPECT_EQ(nano.unaligned_hidden_params, body);
  EXPECT_EQ(nano.unaligned_hidden_expert_params, experts);
  ModelSpec counted_out = nano;
  counted_out.unaligned_hidden_params = counted_out.unaligned_hidden_expert_params = 0;
  const Device gpu = Gpu(80);
  const WeightBytes q4km = WeightBytesOf(On("llamacpp", nano, "Q4_K_M", 4096, gpu));
  const WeightBytes base = WeightBytesOf(On("llamacpp", counted_out, "Q4_K_M", 4096, gpu));
  EXPECT_NEAR(q4km.device - base.device, (body + experts) / 8, 1.0);  // 1,953,530,880 B
  EXPECT_NEAR(q4km.active - base.active, (body + experts * 6 / 128) / 8, 1.0);
  EXPECT_NEAR(q4km.head, 131072.0 * 2688 * 34 / 32, 1.0);
  // Its experts, relu² (up and down, no gate), to the bit: up Q4_K -> Q5_0 (5.5 bits), down Q6_K
  // -> Q8_0 in half the layers and Q4_K -> Q5_0 in the other half (7 bits): 12.5 bits a pair.
  EXPECT_EQ(nano.expert_down_params, experts);
  EXPECT_NEAR(q4km.experts, experts * 12.5 / 8, 1.0);
  EXPECT_NEAR(q4km.host, 131072.0 * 2688 * 22 / 32, 1.0);
  EXPECT_NEAR(WeightBytesOf(On("llamacpp", nano, "Q8_0", 4096, gpu)).head, 131072.0 * 2688 * 34 / 32, 1.0);
  for (const auto& [runtime, format] : {std::pair{"llamacpp", "Q8_0"}, std::pair{"reference", "Q4_K_M"}}) {
    EXPECT_EQ(WeightBytesOf(On(runtime, nano, format, 4096, gpu)).device,
              WeightBytesOf(On(runtime, counted_out, format, 4096, gpu)).device) << runtime << " " << format;
  }
  // Qwen3-32B's 5,120 = 20 × 256: its head keeps Q6_K (210 B per 256).
  const ModelSpec& qwen = Model("qwen3-32b");
  EXPECT_NEAR(WeightBytesOf(On("llamacpp", qwen, "Q4_K_M", 4096, gpu)).head, 151936.0 * 5120 * 210 / 256, 1.0);
}

// A MoE's routed experts take their GGUF types' own bits, not the body's fit (llama-quant.cpp
// llama_tensor_get_type_impl): gate and up the file's base type, down the FFN_DOWN recipe.
// Qwen3-30B-A3B (gate, up and down alike, 48 × 128 × 3 × 2,048 × 768): Q4_K_M 4.5 for gate and
// up, half Q6_K (6.5625) and half Q4_K for down; Q2_K 2.625 and Q3_K (3.4375) for down.
TEST(LlamaCpp, RoutedExpertsTakeTheirTypesOwnBits) {
  const ModelSpec& qwen = Model("qwen3-30b-a3b");
  const double experts = 48.0 * 128 * 3 * 2048 * 768;
  ASSERT_EQ(qwen.moe->expert_params, experts);
  const Device gpu = Gpu(80);
  EXPECT_NEAR(WeightBytesOf(On("llamacpp", qwen, "Q4_K_M", 4096, gpu)).experts,
              experts * (2 * 4.5 + (4.5 + 6.5625) / 2) / 3 / 8, 1.0);
  EXPECT_NEAR(WeightBytesOf(On("llamacpp", qwen, "Q2_K", 4096, gpu)).experts, experts * (2 * 2.625 + 3.4375) / 3 / 8, 1.0);
  EXPECT_NEAR(WeightBytesOf(On("llamacpp", qwen, "Q8_0", 4096, gpu)).experts, experts * 8.5 / 8, 1.0);
}

// DeepSeek-V3 and Kimi K2 cache one MLA latent of kv_lora_rank 512 + qk_rope_head_dim 64 per token
// in each of 61 layers: 61 × 576 × 2 B = 70,272 B per token at 16 bits (architectures-2026.md
// §4.7), 8.58 GiB at 128K.
TEST(LlamaCpp, AnMlaLatentIs70272BytesPerTokenForDeepSeekV3AndKimiK2) {
  const Device gpu = Gpu(1024);
  for (const char* id : {"deepseek-v3", "kimi-k2-instruct"}) {
    EXPECT_DOUBLE_EQ(FootprintOf(On("reference", Model(id), "Q4_K_M", 1, gpu)).kv_cache_bytes, 70272.0) << id;
    EXPECT_DOUBLE_EQ(FootprintOf(On("llamacpp", Model(id), "Q4_K_M", 131072, gpu)).kv_cache_bytes, 70272.0 * 131072) << id;
  }
}

// nehaai/kvcalc README (llama-server 2026, Llama-3-8B Q4_K_M): "-c 8192 -np 4" gives "2048 cells,
// 32 layers, 4/4 seqs" of 1024.00 MiB, the same total as one slot of 8,192; "-ctk q8_0 -ctv q8_0"
// gives 544.00 MiB (34 bytes per 32 elements).
TEST(LlamaCpp, SlotsShareTheContextAndQ8_0CostsThirtyFourBytesPerThirtyTwo) {
  const Device gpu = Gpu(24);
  Scenario slots = On("llamacpp", Model("llama-3.1-8b"), "Q4_K_M", 2048, gpu);
  slots.engine.parallel = 4;
  EXPECT_DOUBLE_EQ(FootprintOf(slots).kv_cache_bytes / kMib, 1024.0);
  const Scenario q8 = On("llamacpp", Model("llama-3.1-8b"), "Q4_K_M", 8192, gpu, "q8_0");
  EXPECT_DOUBLE_EQ(FootprintOf(q8).kv_cache_bytes / kMib, 544.0);
}

// The same Qwen log on Vulkan at n_ctx 4096 (flash attention off there; code-index file
// 68321245610): "projected to use 4696 MiB of device memory vs. 5752 MiB of free device memory
// … will leave 1055 >= 1024 MiB": model 4168 + KV 224 + compute 304 MiB, and --fit's margin of
// 1,024 MiB ("--fit-target … default: 1024", tools/server/README.md).
TEST(LlamaCpp, FitKeepsOneGibFreeOnTopOfModelCacheAndCompute) {
  const Device gpu = Gpu(24);
  Scenario s = On("llamacpp", Model("qwen2.5-7b"), "Q4_K_M", 4096, gpu);
  s.engine.flash_attention = false;
  s.engine.ubatch = 512;
  const Footprint f = FootprintOf(s);
  EXPECT_NEAR(Mib(f.weights_gib) + f.kv_cache_bytes / kMib + ComputeMib(f), 4696, 0.005 * 4696);
  EXPECT_DOUBLE_EQ(f.kv_cache_bytes / kMib, 224.0);
  EXPECT_DOUBLE_EQ(ComputeMib(f), 304.0);
  EXPECT_DOUBLE_EQ(CapacityGib(s), 24.0 - 1.0);
}

// A Strix Halo's GPU maps 62.82 GiB of its RAM by default under Linux (AMD's ROCm docs, the
// catalog entry's source: "By default, the GTT limit is set to approximately 50 percent of total
// system RAM"; amd-ttm's example, "16469033 pages (62.82 GB)"). Llama 3.3 70B Q8_0 at 32K fits its
// 127 GiB under --fit, but needs 80.70 + 1 GiB (--fit's margin) = 81.70 GiB mapped: `amd-ttm
// --set 82`, in the answer and above the command. An 8B model needs no more than the default, a
// discrete card none, and a model that does not fit is said so instead.
TEST(LlamaCpp, AStrixHaloSaysWhenItsGpuMustMapMoreThanLinuxsDefault) {
  const auto answer = [](std::string_view model, std::string_view format, std::string_view device) {
    Request request;
    request.model = std::string(model);
    request.format = std::string(format);
    request.device = std::string(device);
    request.runtime = "llamacpp";
    return Evaluate(request, BuiltinCatalog().value()).value();
  };
  const Response big = answer("llama-3.3-70b", "Q8_0", "ryzen-ai-max-395-128gb");
  ASSERT_NE(big.simulator.fit, Fit::kNoFit);
  ASSERT_TRUE(big.gpu_map.has_value());
  EXPECT_EQ(big.gpu_map->default_gib, 62.82);
  EXPECT_NEAR(big.simulator.per_device_gib, 80.70, 0.005);
  EXPECT_DOUBLE_EQ(big.gpu_map->needed_gib, big.simulator.per_device_gib + 1.0);
  EXPECT_EQ(big.gpu_map->set_gib, 82);
  EXPECT_NE(big.commands.front().text.find("\n# amd-ttm --set 82\n"), std::string::npos) << big.commands.front().text;
  // The hardware table's row for the Strix Halo says the same; a discrete card's says nothing.
  for (const HardwareRow& row : big.hardware) {
    EXPECT_EQ(row.gpu_map.has_value(), row.device->id == "ryzen-ai-max-395-128gb") << row.device->id;
    if (row.gpu_map) EXPECT_EQ(row.gpu_map->set_gib, 82);
  }
  const Response small = answer("qwen3-8b", "Q4_K_M", "ryzen-ai-max-395-128gb");
  EXPECT_FALSE(small.gpu_map.has_value());
  EXPECT_EQ(small.commands.front().text.find("amd-ttm"), std::string::npos);
  EXPECT_FALSE(answer("llama-3.3-70b", "Q8_0", "rtx-pro-6000-blackwell-96gb").gpu_map.has_value());
  const Response none = answer("deepseek-v3", "Q4_K_M", "ryzen-ai-max-395-128gb");
  ASSERT_EQ(none.simulator.fit, Fit::kNoFit);
  EXPECT_FALSE(none.gpu_map.has_value());
  // The sweep marks the same cells (the fits view's and `vramcalc sweep --device`'s "†"): Llama 3.3
  // 70B Q8_0 with 82, each marked cell one that fits, none of a discrete card's.
  SweepRequest request;
  request.runtime = "llamacpp";
  request.devices = {"ryzen-ai-max-395-128gb", "rtx-pro-6000-blackwell-96gb"};
  const SweepResult sweep = Sweep(request, BuiltinCatalog().value()).value();
  ASSERT_EQ(sweep.gpu_map_cells.size(), sweep.gpu_map_set_gib.size());
  EXPECT_TRUE(std::is_sorted(sweep.gpu_map_cells.begin(), sweep.gpu_map_cells.end()));
  for (const int64_t cell : sweep.gpu_map_cells) {
    EXPECT_NE(sweep.cells[static_cast<std::size_t>(cell)].fit, Fit::kNoFit);
    EXPECT_EQ(cell % 2, 0) << "a cell of the discrete card";  // device fastest: the Strix Halo's are even
  }
  const auto index = [&sweep](std::string_view model, std::string_view format) {
    const auto m = std::find_if(sweep.models.begin(), sweep.models.end(), [&](const ModelSpec* s) { return s->id == model; });
    const auto f = std::find_if(sweep.formats.begin(), sweep.formats.end(), [&](const QuantFormat* q) { return q->id == format; });
    return ((m - sweep.models.begin()) * static_cast<std::ptrdiff_t>(sweep.formats.size()) + (f - sweep.formats.begin())) * 2;
  };
  const auto llama = std::find(sweep.gpu_map_cells.begin(), sweep.gpu_map_cells.end(), index("llama-3.3-70b", "Q8_0"));
  ASSERT_NE(llama, sweep.gpu_map_cells.end());
  EXPECT_EQ(sweep.gpu_map_set_gib[static_cast<std::size_t>(llama - sweep.gpu_map_cells.begin())], 82);
}

// A Mac under the engines is rated against its Metal working set, 81 % of 96 GB = 77.76 GiB on
// macOS 26 (83,494.17 MB, koriym/llm-switch), which `sudo sysctl iogpu.wired_limit_mb=N` raises until a restart
// (mlx-lm's README: N "larger than the size of the model in megabytes but smaller than the memory
// size of the machine"). The answer says so where the model does not fit the default but fits a
// limit of at most max(80 % of 98,304 MiB, 98,304 − 5,120) = 93,184 MiB (exo's configure_mlx.sh).
// Llama 3.3 70B Q8_0 on a 96 GB M2 Max under llama.cpp, by hand: 70.25 GiB besides a KV cache of
// 80 layers × 8 heads × 128 × 2 × 2 B = 0.3125 MiB per token, and --fit's 1 GiB:
// - 32K: 70.25 + 10 + 1 = 81.25 GiB, whole 82 GiB = 83,968 MiB;
// - 61,440: 70.25 + 18.75 + 1 = 90.05 GiB (the compute buffer grows a little), 91 GiB = 93,184;
// - 65,536: 70.25 + 20 + 1 = 91.31 GiB, past the ceiling: none, and "does not fit" stays.
TEST(LlamaCpp, AMacSaysWhenRaisingItsWiredLimitMakesTheModelFit) {
  const auto answer = [](std::string_view model, std::string_view format, std::string_view runtime, int64_t context,
                         std::string_view device = "apple-m2-max-96gb") {  // catalog devices: the response points into the catalog
    Request request;
    request.model = std::string(model);
    request.format = std::string(format);
    request.device = std::string(device);
    request.runtime = std::string(runtime);
    request.context_tokens = context;
    return Evaluate(request, BuiltinCatalog().value()).value();
  };
  const Response at32k = answer("llama-3.3-70b", "Q8_0", "llamacpp", 32768);
  ASSERT_EQ(at32k.simulator.fit, Fit::kNoFit);
  ASSERT_TRUE(at32k.gpu_map.has_value());
  EXPECT_EQ(at32k.gpu_map->limit, GpuLimit::kMacosWired);
  EXPECT_NEAR(at32k.gpu_map->default_gib, 77.76, 1e-9);
  EXPECT_NEAR(at32k.simulator.kv_cache_gib, 10.0, 1e-9);
  EXPECT_NEAR(at32k.gpu_map->needed_gib, 81.25, 0.005);
  EXPECT_EQ(at32k.gpu_map->set_mib, 83968);
  EXPECT_EQ(GpuMapCommand(*at32k.gpu_map), "sudo sysctl iogpu.wired_limit_mb=83968");
  const std::string& command = at32k.commands.front().text;
  EXPECT_LT(command.find("\nsudo sysctl iogpu.wired_limit_mb=83968\n"), command.find("\nllama-server")) << command;
  EXPECT_EQ(command.find("Does not fit"), std::string::npos) << command;
  const Response at60k = answer("llama-3.3-70b", "Q8_0", "llamacpp", 61440);
  ASSERT_TRUE(at60k.gpu_map.has_value());
  EXPECT_NEAR(at60k.gpu_map->needed_gib, 90.05, 0.01);
  EXPECT_EQ(at60k.gpu_map->set_mib, 93184);
  const Response at64k = answer("llama-3.3-70b", "Q8_0", "llamacpp", 65536);
  EXPECT_NEAR(at64k.simulator.per_device_gib + 1.0, 91.31, 0.01);
  EXPECT_FALSE(at64k.gpu_map.has_value());
  EXPECT_NE(at64k.commands.front().text.find("# Does not fit"), std::string::npos);
  // The hardware table's row for the same Mac says so; the 64 GB M-Max's ceiling, max(52,428, 60,416)
  // MiB = 59 GiB, is below 81.25 GiB.
  const auto row = [&at32k](std::string_view device) {
    return *std::find_if(at32k.hardware.begin(), at32k.hardware.end(), [&](const HardwareRow& r) { return r.device->id == device; });
  };
  ASSERT_TRUE(row("apple-m2-max-96gb").gpu_map.has_value());
  EXPECT_EQ(row("apple-m2-max-96gb").gpu_map->set_mib, 83968);
  EXPECT_EQ(row("apple-m2-max-96gb").fit, Fit::kNoFit);
  EXPECT_FALSE(row("apple-m-max-64gb").gpu_map.has_value());
  EXPECT_FALSE(row("mac-studio-128gb").gpu_map.has_value());  // it fits the default
  // mlx-lm keeps no margin: what it needs is the total, 80.49 GiB, so 81 GiB = 82,944 MiB, and its
  // command's general hint gives way to the line.
  const Response mlx = answer("llama-3.3-70b", "MLX_8BIT", "mlx", 32768);
  ASSERT_TRUE(mlx.gpu_map.has_value());
  EXPECT_DOUBLE_EQ(mlx.gpu_map->needed_gib, mlx.simulator.per_device_gib);
  EXPECT_EQ(mlx.gpu_map->set_mib, 82944);
  EXPECT_EQ(mlx.commands.front().text.find("<MB>"), std::string::npos);
  // A 16 GB Mac's working set is 74 % (12,713.12 MB) and its ceiling 80 %: 13,107 MiB. Qwen3-8B
  // Q8_0 at 20K needs 12.28 GiB, whose whole 13 GiB is past it: the ceiling.
  const nlohmann::json small = nlohmann::json::parse(EvaluateJson(
      R"({"model":"qwen3-8b","format":"Q8_0","runtime":"llamacpp","context":20480,"device":"custom:16:120:metal+unified:M4 16GB"})"));
  EXPECT_NEAR(small["gpu_map"]["default_gib"].get<double>() * kGib, 12713115648.0, 16384);
  EXPECT_NEAR(small["gpu_map"]["needed_gib"].get<double>(), 12.28, 0.005);
  EXPECT_EQ(small["gpu_map"]["set_mib"], 13107);
  EXPECT_EQ(small["gpu_map"]["command"], "sudo sysctl iogpu.wired_limit_mb=13107");
  // The sweep (the fits view's and `vramcalc sweep --device`'s "†") marks the same cell with the same
  // MiB, "no fit" by default; its first token and largest context are as once raised, the latter at
  // the 91 GiB ceiling: 61,440 tokens fit it (90.05 GiB above), 65,536 do not (91.31).
  SweepRequest sweep_request;
  sweep_request.runtime = "llamacpp";
  sweep_request.devices = {"apple-m2-max-96gb"};
  const SweepResult sweep = Sweep(sweep_request, BuiltinCatalog().value()).value();
  const auto cell_of = [&sweep](std::string_view model, std::string_view format) {
    const auto m = std::find_if(sweep.models.begin(), sweep.models.end(), [&](const ModelSpec* s) { return s->id == model; });
    const auto f = std::find_if(sweep.formats.begin(), sweep.formats.end(), [&](const QuantFormat* q) { return q->id == format; });
    return (m - sweep.models.begin()) * static_cast<std::ptrdiff_t>(sweep.formats.size()) + (f - sweep.formats.begin());
  };
  const auto marked = std::find(sweep.gpu_map_cells.begin(), sweep.gpu_map_cells.end(), cell_of("llama-3.3-70b", "Q8_0"));
  ASSERT_NE(marked, sweep.gpu_map_cells.end());
  const auto k = static_cast<std::size_t>(marked - sweep.gpu_map_cells.begin());
  EXPECT_EQ(sweep.gpu_map_set_mib[k], 83968);
  EXPECT_EQ(sweep.gpu_map_set_gib[k], 0);
  const SweepCell& raised = sweep.cells[static_cast<std::size_t>(*marked)];
  EXPECT_EQ(raised.fit, Fit::kNoFit);
  EXPECT_GT(raised.ttft_s, 0);
  EXPECT_GE(raised.max_context_tokens, 61440);
  EXPECT_LT(raised.max_context_tokens, 65536);
  EXPECT_EQ(std::count(sweep.gpu_map_cells.begin(), sweep.gpu_map_cells.end(), cell_of("qwen3-8b", "Q8_0")), 0);
  // What fits needs nothing raised, nor does a discrete card or the reference profile.
  EXPECT_FALSE(answer("qwen3-8b", "Q8_0", "llamacpp", 32768).gpu_map.has_value());
  EXPECT_FALSE(answer("llama-3.3-70b", "Q8_0", "llamacpp", 32768, "rtx-3090-24gb").gpu_map.has_value());
  EXPECT_FALSE(answer("llama-3.3-70b", "Q8_0", "reference", 32768).gpu_map.has_value());
}

// A layer split (-sm layer, llama.cpp's and Ollama's default) walks the devices one after another:
// no device count makes it faster than one device, whether the engine has a rule for the
// device's class or not (issue 31: without one, the reference formula's linear scaling applied).
TEST(LlamaCpp, ALayerSplitIsNeverFasterThanOneDeviceOnAnyDevice) {
  for (const std::string_view runtime : {"llamacpp", "ollama"}) {
    for (const Device& device : BuiltinCatalog().value().devices) {
      for (const std::string_view model : {"llama-3.1-8b", "qwen3-30b-a3b"}) {
        Scenario s = On(runtime, Model(model), "Q4_K_M", 4096, device);
        double fewer = DecodeTokensPerSecond(s, FootprintOf(s));
        for (int64_t n = 2; n <= 8; ++n) {
          s.device_count = n;
          const double tps = DecodeTokensPerSecond(s, FootprintOf(s));
          EXPECT_LT(tps, fewer) << runtime << " " << device.id << " x" << n << " " << model;
          fewer = tps;
        }
      }
    }
  }
}

// XiongjieDai/GPU-Benchmarks-on-LLM-Inference @7d5af52, "LLaMA 3/Professional GPUs/
// A100_SXM_4_v3.ipynb" (llama-bench, the default layer split): "| llama 8B Q4_K - Medium | 4.58
// GiB | 8.03 B | CUDA | 99 | tg 1024 | 97.70 ± 0.05 |" on 4 × A100 80GB SXM4 (A100_SXM_v3.ipynb:
// 133.38 on one), and A100_PCIe_4_v3.ipynb's "| tg 1024 | 117.30 ± 0.03 |" on 4 × A100 80GB PCIe
// (138.31 on one). The estimate was 1,021 tok/s (4 × 0.9 × one device's 283.6); now one device's
// time under the rule of datacenter cards from 900 GB/s (135.5 and 131.7) and three hops of the
// datacenter class's 0.400 ms: the mean extra time per extra GPU of five machines' 4-GPU tg512
// runs over their one-GPU runs (decode_calibration_test.cc). 1 / (1 / 135.5 + 0.0012) = 116.6,
// +19.3 %: this SXM machine's own hop is 0.87 ms (8B Q4_K_M), twice the class's, and the PCIe
// machine's 0.42 ms; 1 / (1 / 131.7 + 0.0012) = 113.7, −3.1 %. Until the datacenter runs, the
// hop was the RTX 4090s' 0.732 ms (104.4, +6.9 %), fitted to three runs of one source.
TEST(LlamaCpp, FourA100sWithALayerSplitAreSlowerThanOne) {
  for (const auto& [device, measured, tolerance] :
       {std::tuple{"a100-80gb", 97.70, 0.25}, std::tuple{"a100-80gb-pcie", 117.30, 0.10}}) {
    Scenario s = On("llamacpp", Model("llama-3.1-8b"), "Q4_K_M", 1024, *BuiltinCatalog().value().FindDevice(device));
    const double one = DecodeTokensPerSecond(s, FootprintOf(s));
    s.device_count = 4;
    const double four = DecodeTokensPerSecond(s, FootprintOf(s));
    EXPECT_NEAR(four, 1.0 / (1.0 / one + 3 * 0.400e-3), 1e-9) << device;
    EXPECT_LT(four, one) << device;
    EXPECT_NEAR(four, measured, tolerance * measured) << device;
  }
}

// jiegec/kb @23addc7 docs/software/llm_local_serving.md (one RTX 4090, build 9db77a020 (8820),
// llama-bench -n 64): "| qwen35moe 35B.A3B Q4_K - Medium | 20.81 GiB | 34.66 B | CUDA | 99 | tg64 |
// 167.45 ± 2.84 |" for Qwen3.6-35B-A3B UD-Q4_K_XL. 30 of its 40 layers are Gated DeltaNet
// (full_attention_interval 4): each pays the consumer MoE rule's recurrent cost on top of a
// layer's, 30 / 32 × ts: 164.6 tok/s at the run's mean context of 32 tokens (−1.7 %); without
// that term the rule would say 202.4 (+21 %).
TEST(LlamaCpp, RecurrentLayersPayTheirStateUpdateOnTopOfALayersCost) {
  const Device& rtx4090 = *BuiltinCatalog().value().FindDevice("rtx-4090-24gb");
  const Scenario s = On("llamacpp", Model("qwen3.6-35b-a3b"), "Q4_K_M", 32, rtx4090);
  const DecodeRule& rule = *DecodeRuleOf(s);
  ASSERT_GT(rule.state_ms_per_32_layers, 0.0);
  const Footprint f = FootprintOf(s);
  const double tps = DecodeTokensPerSecond(s, f);
  DecodeRule without = rule;
  without.state_ms_per_32_layers = 0;
  const double plain = DecodeSeconds(s, without, WeightBytesOf(s).active, f.kv_cache_bytes + f.state_bytes);
  EXPECT_NEAR(1.0 / tps - plain, 30.0 / 32.0 * rule.state_ms_per_32_layers * 1e-3, 1e-12);
  EXPECT_NEAR(tps, 167.45, 0.10 * 167.45);
  EXPECT_GT(1.0 / plain, 1.15 * 167.45);
}

// ---- Ollama ---------------------------------------------------------------------------------

// ollama/ollama fb30760 llm/llama_server.go: "-c", NumCtx*numParallel, "-np", numParallel (each
// slot keeps num_ctx); server/sched.go generationBatchForContext: batch 512, 1,024 above 4,096
// tokens, 2,048 above 32,768 (of num_ctx × slots).
TEST(Ollama, EverySlotKeepsTheWholeContextAndTheBatchFollowsIt) {
  const Device gpu = Gpu(48);
  Scenario s = On("ollama", Model("qwen2.5-7b"), "Q4_K_M", 8192, gpu);
  s.engine.parallel = 4;
  // 4 slots × 8,192 cells × 28 layers × 1,024 × 2 elements × 2 B = 4 × 448 MiB.
  EXPECT_DOUBLE_EQ(FootprintOf(s).kv_cache_bytes / kMib, 1792.0);
  EXPECT_EQ(ResolvedSettings(s).ubatch, 1024);  // 4 × 8,192 = 32,768 tokens: above 4,096, not above 32,768
  s.engine.parallel = 1;
  EXPECT_EQ(ResolvedSettings(s).ubatch, 1024);  // 8,192 > 4,096
  s.context_tokens = 4096;
  EXPECT_EQ(ResolvedSettings(s).ubatch, 512);
  s.context_tokens = 65536;
  EXPECT_EQ(ResolvedSettings(s).ubatch, 2048);
}

// The May 2026 Ollama log above (num_ctx 32768, one slot): weights, token embedding and cache
// are the engine's own; at 32,768 tokens fb30760 batches 1,024 (not above 32,768), so the
// compute buffer is 1,024 × (152,064 + 3,584) × 4 B + 1,024 × 32,768 × 4 B + 2 × 1,024 × 3,584 ×
// 4 B = 608 + 128 + 28 MiB.
TEST(Ollama, Qwen25_7bAt32kMatchesTheLogAndBatchesByContext) {
  const Device gpu = Gpu(24);
  const Scenario s = On("ollama", Model("qwen2.5-7b"), "Q4_K_M", 32768, gpu);
  const Footprint f = FootprintOf(s);
  EXPECT_NEAR(Mib(f.host_gib), 292.36, 0.005);
  EXPECT_NEAR(Mib(f.weights_gib), 4168.09, 0.005 * 4168.09);
  EXPECT_DOUBLE_EQ(f.kv_cache_bytes / kMib, 1792.0);
  EXPECT_DOUBLE_EQ(ComputeMib(f), 608.0 + 128.0 + 28.0);
}

// ollama/ollama fb30760 envconfig/config.go: NumParallel = Uint("OLLAMA_NUM_PARALLEL", 1), so a
// single sequence gets one slot; llm/llama_server.go passes OLLAMA_KV_CACHE_TYPE as
// "--cache-type-k X --cache-type-v X": f16, q8_0 and q4_0 (34 and 18 bytes per 32 elements).
TEST(Ollama, OneSlotByDefaultAndLlamaCppsCacheTypes) {
  const Device gpu = Gpu(24);
  Scenario s = On("ollama", Model("llama-3.1-8b"), "Q4_K_M", 8192, gpu, "q4_0");
  EXPECT_EQ(ResolvedSettings(s).parallel, 1);
  // 32 layers × 8,192 cells × 2,048 elements × 18/32 B = 288 MiB.
  EXPECT_DOUBLE_EQ(FootprintOf(s).kv_cache_bytes / kMib, 288.0);
  const RuntimeProfile& ollama = *FindRuntimeProfile("ollama");
  EXPECT_TRUE(OffersKvDtype(ollama, "fp16") && OffersKvDtype(ollama, "q8_0") && OffersKvDtype(ollama, "q4_0"));
  EXPECT_FALSE(OffersKvDtype(ollama, "fp8"));
}

// ---- vLLM -----------------------------------------------------------------------------------

// vLLM v0.31.0 on an A100 80GB, meta-llama/Llama-3.1-8B-Instruct, defaults (course notes,
// code-index file 70682754770): "Free memory on device (78.84/79.25 GiB) … (0.92, 72.91 GiB).
// Actual usage is 15.26 GiB for consumed memory (weights + non-torch), 1.44 GiB for peak
// activation" and "Available KV cache memory: 56.21 GiB", "GPU KV cache size: 460,496 tokens".
TEST(Vllm, Llama31_8bOnAnA100MatchesItsStartUpLog) {
  const Device a100 = Gpu(79.25, DeviceClass::kDatacenter, "a100-80gb");  // the total it reports
  const Scenario s = On("vllm", Model("llama-3.1-8b"), "BF16", 131072, a100);
  EXPECT_NEAR(CapacityGib(s), 72.91, 0.005);
  const std::optional<KvPool> pool = KvPoolOf(s);
  ASSERT_TRUE(pool);
  EXPECT_NEAR(pool->gib, 56.21, 0.005 * 56.21);
  EXPECT_NEAR(static_cast<double>(pool->tokens), 460496, 0.005 * 460496);
  EXPECT_EQ(pool->tokens % 16, 0);  // whole blocks
  // 460,496 tokens, but no request longer than the model's 131,072 (config.json's
  // max_position_embeddings): vLLM takes no longer max_model_len.
  EXPECT_EQ(pool->longest_request, 131072);
  // A100s keep the small batch defaults (vLLM PR #17885): 2,048 tokens, 256 sequences.
  EXPECT_EQ(ResolvedSettings(s).max_num_batched_tokens, 2048);
}

// vLLM's 16-token blocks: Qwen2.5-7B-Instruct-AWQ (code-index file 67578381996) "GPU KV cache
// size: 251,344 tokens", num_gpu_blocks 15709, of "Available KV cache memory: 13.42 GiB"; 28
// layers × 2 × 4 KV heads × 128 × 2 B = 57,344 B per token.
TEST(Vllm, TheCacheIsWholeSixteenTokenBlocks) {
  const KvLayout layout = KvLayoutOf(Model("qwen2.5-7b"), 2.0);
  const KvAllocation blocks{.granule = 16};
  EXPECT_DOUBLE_EQ(layout.tiers[0].bytes_per_token, 57344.0);
  EXPECT_NEAR(KvCacheBytes(layout, 15709 * 16, 1, blocks) / kGib, 13.42, 0.005);
  EXPECT_EQ(KvCacheBytes(layout, 15709 * 16 + 1, 1, blocks), KvCacheBytes(layout, 15710 * 16, 1, blocks));
}

// vllm issue #25350 (Qwen3-30B-A3B shapes, --kv-cache-dtype fp8): "max seq len (221000), (10.12
// GiB KV cache is needed": 13,813 blocks × 16 × 48 layers × 2 × 4 × 128 × 1 B.
TEST(Vllm, Fp8KeepsOneBytePerElement) {
  const KvLayout layout = KvLayoutOf(Model("qwen3-30b-a3b"), FindKvDtype("fp8")->bytes_per_element);
  EXPECT_NEAR(KvCacheBytes(layout, 221000, 1, KvAllocation{.granule = 16}) / kGib, 10.12, 0.005);
}

// noonghunna/club-3090 issue #1087 (2 × RTX 5090 reporting 31.4 GiB each): "Desired GPU memory
// utilization is (0.92, 28.88 GiB)": vLLM's budget is utilization × the device's total.
TEST(Vllm, TheBudgetIsUtilizationTimesTheTotal) {
  const Device rtx5090 = Gpu(31.4);
  Scenario s = On("vllm", Model("qwen3-32b"), "FP8", 32768, rtx5090);
  s.device_count = 2;
  EXPECT_NEAR(CapacityGib(s), 28.88, 0.01);
  s.engine.memory_utilization = 0.5;
  EXPECT_DOUBLE_EQ(CapacityGib(s), 15.7);
}

// vllm/config/model.py get_num_kv_heads: "max(1, total_num_kv_heads // tensor_parallel_size)",
// and 1 for MLA (the latent is kept whole). Qwen3-235B-A22B at TP4 (vllm issue #21348): 94
// layers × 2 × 1 head × 128 × 2 B = 48,128 B per token per GPU; DeepSeek-V3 at TP8: 61 × 576 ×
// 2 B = 70,272 B per token on every GPU.
TEST(Vllm, TensorParallelSplitsKvHeadsButNotLatents) {
  EXPECT_DOUBLE_EQ(KvLayoutOf(Model("qwen3-235b-a22b"), 2.0, 0, 4).tiers[0].bytes_per_token, 48128.0);
  EXPECT_DOUBLE_EQ(KvLayoutOf(Model("deepseek-v3"), 2.0, 0, 8).tiers[0].bytes_per_token, 70272.0);
}

// vLLM v0.19 on an H100 (llm-d report, tests/calibration/vllm-startup.json row V17):
// Llama-3.1-8B prints 1.89 GiB of peak activation at the server defaults of 8,192 batched
// tokens and 1,024 sequences: the sampler's 1,024 × 128,256 × 15.3 B + 0.05 GiB = 1.92 GiB.
TEST(Vllm, TheActivationPeakIsTheSamplersOnLargeVocabularies) {
  const Device h100 = Gpu(80, DeviceClass::kDatacenter, "h100-80gb");
  const Scenario s = On("vllm", Model("llama-3.1-8b"), "BF16", 8192, h100);
  const EngineSettings settings = ResolvedSettings(s);
  EXPECT_EQ(settings.max_num_batched_tokens, 8192);
  EXPECT_EQ(settings.max_num_seqs, 1024);
  EXPECT_NEAR(ActivationGib(s, settings), 1.89, 0.05);
}

// ---- SGLang ---------------------------------------------------------------------------------

// python/sglang/srt/server_args.py _handle_gpu_memory_settings: reserve = 512 + 1.5 × max(chunk,
// 2048) + 2 × CUDA-graph batch + 1,024 × TP / 8 MiB, at least 10 GiB above 60 GiB; f = (M −
// reserve) / M: RTX 4090 (24,564 MiB) 3,760 → 0.847; H100 (81,559 MiB) 13,440 → 0.835; H200
// (143,771 MiB) → 0.907.
TEST(Sglang, TheStaticFractionComesFromItsReserve) {
  const RuntimeProfile& sglang = *FindRuntimeProfile("sglang");
  EXPECT_DOUBLE_EQ(DefaultUtilization(sglang, Gpu(24564 / 1024.0), 1), 0.847);
  EXPECT_DOUBLE_EQ(DefaultUtilization(sglang, Gpu(81559 / 1024.0, DeviceClass::kDatacenter), 1), 0.835);
  EXPECT_DOUBLE_EQ(DefaultUtilization(sglang, Gpu(143771 / 1024.0, DeviceClass::kDatacenter), 1), 0.907);
}

// SGLang 0.4.3.post4, Qwen/QwQ-32B (Qwen2.5-32B shapes) at TP4 on 4 × L4 (code-index file
// 47376055009): "KV Cache is allocated. #tokens: 46611, K size: 1.42 GB": 64 layers × 2 KV heads
// per GPU × 128 × 2 B = 32,768 B of keys per token (46,611 × 32,768 B = 1.42 GiB), 65,536 B
// with the values.
TEST(Sglang, TheTokenPoolHoldsEachGpusShareOfTheHeads) {
  const KvLayout layout = KvLayoutOf(Model("qwen2.5-32b"), 2.0, 0, 4);
  EXPECT_DOUBLE_EQ(layout.tiers[0].bytes_per_token, 65536.0);
  EXPECT_NEAR(KvCacheBytes(layout, 46611, 1) / 2 / kGib, 1.42, 0.005);
}

// vllm issue #21348, SGLang on 4 × H100 with Qwen3-235B-A22B: "KV Cache is allocated. #tokens:
// 367404, K size: 8.23 GB": 94 layers × 1 head × 128 × 2 B = 24,064 B of keys per token per GPU.
TEST(Sglang, Qwen3_235bAtTp4KeepsOneHeadPerGpu) {
  const Device h100 = Gpu(80, DeviceClass::kDatacenter);
  Scenario s = On("sglang", Model("qwen3-235b-a22b"), "FP8", 367404, h100);
  s.device_count = 4;
  EXPECT_NEAR(FootprintOf(s).kv_cache_bytes / 4 / 2 / kGib, 8.23, 0.005);
}

// ---- MLX and Apple's working set -------------------------------------------------------------

// recommendedMaxWorkingSetSize as macOS 26 and 27 report it (engine_memory.cc), in the units each
// source prints: llama.cpp's "MB" are 10^6 bytes (its 2023 builds printed MiB), MLX's and
// slotstream's decimal GB, ds4's GiB; each within the 16 KiB page macOS rounds up to, or the
// printed digit.
TEST(Mlx, AMacOffersItsMetalWorkingSet) {
  const RuntimeProfile& mlx = *FindRuntimeProfile("mlx");
  const auto bytes = [&mlx](double ram) { return VisibleMemoryGib(mlx, Gpu(ram, DeviceClass::kApple)) * kGib; };
  EXPECT_NEAR(bytes(16), 12713115648.0, 16384);      // "mem_total=12713115648", an M4's llama.cpp log
  EXPECT_NEAR(bytes(36) / 1e9, 30.2, 0.05);          // "30.2 GB Metal working set", slotstream#26 (26.0.1)
  EXPECT_NEAR(bytes(48) / 1e6, 40200.90, 0.02);      // llama.cpp#16634
  EXPECT_NEAR(bytes(64) / 1e9, 55.7, 0.05);          // slotstream#22 (27.0)
  EXPECT_NEAR(bytes(96) / 1e6, 83494.17, 0.02);      // koriym/llm-switch @ f65b2be
  EXPECT_NEAR(bytes(128) / kGib, 107.52, 0.005);     // antirez/ds4#893 (26.x)
  EXPECT_NEAR(bytes(192) / kMib, 165150.0, 1.0);     // llama.cpp#18919
  // The reference profile keeps the reference page's rule: all of it.
  EXPECT_DOUBLE_EQ(VisibleMemoryGib(*FindRuntimeProfile("reference"), Gpu(64, DeviceClass::kApple)), 64.0);
}

// mlx_lm/BENCHMARKS.md (64GB M4 Max, -p 2048 -g 128): Qwen3-4B-Instruct-2507 4-bit "3.35" GB
// peak. Weights 4,022,468,096 × 4.5 / 8 B (embedding quantized too), the cache grown in
// 256-token steps to 2,304 cells of 36 layers × 2 × 8 × 128 × 2 B, and the fitted runtime.
TEST(Mlx, Qwen3_4b4BitPeakMemory) {
  const Device mac = Gpu(64, DeviceClass::kApple);
  const Footprint f = FootprintOf(On("mlx", Model("qwen3-4b"), "MLX_4BIT", 2176, mac));
  EXPECT_DOUBLE_EQ(f.weights_gib * kGib, 4022468096.0 * 4.5 / 8.0);
  EXPECT_DOUBLE_EQ(f.kv_cache_bytes, 2304.0 * 147456.0);
  EXPECT_NEAR(f.total_gib() * kGib / 1e9, 3.35, 0.05 * 3.35);
}

// mlx_lm/models/cache.py QuantizedKVCache: a uint32-packed value plus a scale and a bias in the
// model's dtype per 64 elements: 8-bit 1 + 4/64 B per element, 4-bit 0.5 + 4/64.
TEST(Mlx, QuantizedCacheBytesPerElement) {
  EXPECT_DOUBLE_EQ(FindKvDtype("q8_mlx")->bytes_per_element, 1.0625);
  EXPECT_DOUBLE_EQ(FindKvDtype("q4_mlx")->bytes_per_element, 0.5625);
}

// ---- what each engine refuses ----------------------------------------------------------------

std::string ErrorOf(std::string_view request) {
  const std::string response = EvaluateJson(request);
  const std::size_t at = response.find("\"field\":\"");
  return at == std::string::npos ? response : response.substr(at + 9, response.find('"', at + 9) - at - 9);
}

TEST(EngineProfiles, RequestsAnEngineCannotRunNameTheField) {
  // An option of another engine.
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"vllm","format":"BF16","ubatch":256})"), "ubatch");
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","memory_utilization":0.9})"), "memory_utilization");
  // A format or KV type the engine lacks.
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"llamacpp","format":"AWQ_INT4"})"), "format");
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"vllm","format":"BF16","kv_dtype":"q8_0"})"), "kv_dtype");
  // llama.cpp quantizes the V cache only with flash attention (llama-context.cpp).
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"llamacpp","kv_dtype":"q8_0","flash_attention":false})"),
            "flash_attention");
  // mlx-lm runs on Apple silicon, on one device, and not with a quantized sliding-window cache.
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"mlx","format":"MLX_4BIT","device":"rtx-4090-24gb"})"),
            "device");
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"mlx","format":"MLX_4BIT","device_count":2})"),
            "device_count");
  EXPECT_EQ(ErrorOf(R"({"model":"gemma-3-12b","runtime":"mlx","format":"MLX_4BIT","kv_dtype":"q8_mlx"})"),
            "kv_dtype");
  // MXFP4 quantizes experts: a dense model has none.
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"llamacpp","format":"MXFP4_MOE"})"), "format");
  // Out of range.
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"vllm","format":"BF16","memory_utilization":1.5})"),
            "memory_utilization");
}

// Every profile but the reference stops the max context at the model's max position, and the
// pool engines report their pool.
// ---- the vision and audio towers -------------------------------------------------------------

// Gemma 3 12B's checkpoint holds 12,187,325,040 parameters (the Hub's safetensors total), its
// language model 11,766,034,176 (counted from the config's shapes): the SigLIP tower and its
// projector are the other 421,290,864, loaded beside the weights in 16 bits by llama.cpp (the
// F16 mmproj), Ollama, vLLM and SGLang (BF16), and not at all by mlx-lm or the reference page.
TEST(Towers, AMultimodalCheckpointsTowersLoadBesideItsWeights) {
  const ModelSpec& gemma = Model("gemma-3-12b");
  EXPECT_EQ(gemma.vision_params, 12187325040.0 - 11766034176.0);
  ModelSpec text_only = gemma;
  text_only.vision_params = 0;
  const Device h100 = Gpu(79.19, DeviceClass::kDatacenter, "h100-80gb");
  for (const auto& [runtime, format] : {std::pair{"vllm", "BF16"}, {"sglang", "BF16"}, {"llamacpp", "Q4_K_M"}, {"ollama", "Q4_K_M"}}) {
    const Scenario s = On(runtime, gemma, format, 32768, h100);
    const Footprint f = FootprintOf(s);
    EXPECT_DOUBLE_EQ(f.vision_gib * kGib, 421290864.0 * 2) << runtime;
    EXPECT_DOUBLE_EQ(f.total_gib(), f.weights_gib + f.vision_gib + (f.kv_cache_bytes + f.state_bytes) / kGib +
                                        f.overhead_gib()) << runtime;
    // The weights line stays the language model's; what is left for the cache shrinks by the tower.
    const Scenario without = On(runtime, text_only, format, 32768, h100);
    EXPECT_DOUBLE_EQ(FootprintOf(without).weights_gib, f.weights_gib) << runtime;
    EXPECT_LT(MaxContextByMemory(s), MaxContextByMemory(without)) << runtime;
    if (s.runtime->kv_pool) EXPECT_NEAR(KvPoolOf(without)->gib - KvPoolOf(s)->gib, f.vision_gib, 1e-9) << runtime;
  }
  // vLLM splits the tower over its tensor-parallel GPUs like the model (mm_encoder_tp_mode
  // "weights"): each of two GPUs gives up half of it.
  Scenario tp = On("vllm", gemma, "BF16", 32768, h100);
  Scenario tp_text = On("vllm", text_only, "BF16", 32768, h100);
  tp.device_count = tp_text.device_count = 2;
  EXPECT_NEAR(KvPoolOf(tp_text)->gib - KvPoolOf(tp)->gib, 421290864.0 * 2 / kGib / 2, 1e-9);
  const Device mac = Gpu(64, DeviceClass::kApple);
  EXPECT_EQ(FootprintOf(On("mlx", gemma, "MLX_4BIT", 32768, mac)).vision_gib, 0);
  EXPECT_EQ(FootprintOf(On("reference", gemma, "Q4_K_M", 32768, h100)).vision_gib, 0);
}

// ollama/ollama#17482 (llama-server under Ollama, a Qwen3.5/3.6-27B BF16 mmproj: "projection_dim:
// 5120", "n_layer: 27"): "load_hparams: model size: 887.99 MiB". Qwen3.6-27B's tower is
// 460,730,096 parameters: 878.77 MiB at two bytes, 1.0 % under the file, whose norms, biases and
// position table are F32.
TEST(Towers, Qwen36_27bsMmprojMatchesItsLoadLine) {
  const Device gpu = Gpu(24);
  const Footprint f = FootprintOf(On("llamacpp", Model("qwen3.6-27b"), "Q4_K_M", 4096, gpu));
  EXPECT_NEAR(Mib(f.vision_gib), 887.99, 0.015 * 887.99);
  EXPECT_NEAR(Mib(f.vision_gib), 460730096.0 * 2 / kMib, 1e-6);
}

// Ollama (fb30760, llm/llama_server.go) leaves mmprojOffloadHeadroom ("1 GiB for backend
// buffers beyond projector weights") free beside a projector, and keeps the projector on the CPU
// when some layers are there (shouldDisableMMProjOffload "partial-text-offload"); llama.cpp keeps
// its mmproj on the GPU (--mmproj-offload, the default) whatever -ngl is.
TEST(Towers, OllamaLeavesAGibBesideTheProjectorAndRunsItOnTheCpuWithLayersThere) {
  const ModelSpec& gemma = Model("gemma-3-27b");
  ModelSpec text_only = gemma;
  text_only.vision_params = 0;
  const Device gpu = Gpu(16);
  const Scenario ollama = On("ollama", gemma, "Q4_K_M", 8192, gpu);
  const Scenario llamacpp = On("llamacpp", gemma, "Q4_K_M", 8192, gpu);
  EXPECT_DOUBLE_EQ(CapacityGib(llamacpp) - CapacityGib(ollama), 1.0);
  EXPECT_DOUBLE_EQ(CapacityGib(On("ollama", text_only, "Q4_K_M", 8192, gpu)), CapacityGib(llamacpp));
  // 423,060,336 tower parameters at 2 B: with 30 of 62 layers on the GPU, in RAM under Ollama
  // (against the same model without towers), on the GPU under llama.cpp.
  const double tower = 423060336.0 * 2 / kGib;
  for (const auto& [runtime, in_ram] : {std::pair{"ollama", true}, {"llamacpp", false}}) {
    const OffloadPlan with = LayerOffloadPlan(On(runtime, gemma, "Q4_K_M", 8192, gpu), 30, true);
    const OffloadPlan without = LayerOffloadPlan(On(runtime, text_only, "Q4_K_M", 8192, gpu), 30, true);
    EXPECT_NEAR(with.host_gib - without.host_gib, in_ram ? tower : 0, 1e-9) << runtime;
    EXPECT_NEAR(with.device_gib - without.device_gib, in_ram ? 0 : tower, 1e-9) << runtime;
  }
  // With every layer on the GPU Ollama's projector stays there too.
  const int64_t layers = gemma.num_hidden_layers;
  const OffloadPlan whole = LayerOffloadPlan(ollama, layers, true);
  EXPECT_NEAR(whole.device_gib - LayerOffloadPlan(On("ollama", text_only, "Q4_K_M", 8192, gpu), layers, true).device_gib, tower, 1e-9);
}

TEST(EngineProfiles, MaxContextStopsAtTheModelAndPoolsAreReported) {
  const Device big = Gpu(80, DeviceClass::kDatacenter);
  for (const RuntimeProfile& runtime : RuntimeProfiles()) {
    if (runtime.id == "reference" || !runtime.RunsOn(big)) continue;
    const Scenario s = On(runtime.id, Model("qwen2.5-7b"), runtime.formats.front(), 8192, big);
    EXPECT_EQ(MaxContextTokens(s), 32768) << runtime.id;
    EXPECT_EQ(KvPoolOf(s).has_value(), runtime.kv_pool) << runtime.id;
  }
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

// ---- a device of one's own -------------------------------------------------------------------

std::string Evaluated(std::string_view request) { return EvaluateJson(request); }

TEST(CustomDevice, ItsFiguresAndPlatformDecideWhatRunsAndHowMuchFits) {
  // llama.cpp on Vulkan: 20 GiB less --fit's 1 GiB.
  const std::string vulkan =
      Evaluated(R"({"model":"qwen3-8b","runtime":"llamacpp","device":"custom:20:800:vulkan:RX 7900 XT","sections":["simulator"]})");
  EXPECT_NE(vulkan.find(R"("device":"custom","device_name":"RX 7900 XT","memory_gib":20.0,"bandwidth_gbps":800.0,"device_platform":"vulkan","device_class":"consumer","unified_memory":false)"),
            std::string::npos) << vulkan;
  EXPECT_NE(vulkan.find(R"("capacity_gib":19.0)"), std::string::npos) << vulkan;
  // vLLM runs on CUDA and ROCm, not Vulkan.
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"vllm","device":"custom:20:800:vulkan:RX 7900 XT"})"), "device");
  // Metal: an Apple device, its working set: 74 % of 24 GiB = 17.76 GiB for mlx-lm (macOS 26's
  // 19,069.67 MB of a 24 GB M5).
  const std::string mac =
      Evaluated(R"({"model":"qwen3-8b","runtime":"mlx","device":"custom:24:120:metal:Mac mini","sections":["simulator"]})");
  EXPECT_NE(mac.find(R"("capacity_gib":17.76,)"), std::string::npos) << mac;
  // "+unified": host RAM is the device's memory, so llama.cpp's token embedding counts on it.
  const std::string spark = Evaluated(
      R"({"model":"qwen3-8b","runtime":"llamacpp","device":"custom:128:273:cuda+unified:DGX Spark","sections":["simulator"]})");
  EXPECT_NE(spark.find(R"("host_gib":0.0)"), std::string::npos) << spark;
  // The object form, with the same figures.
  const std::string object = Evaluated(
      R"({"model":"qwen3-8b","runtime":"llamacpp","device":{"name":"RX 7900 XT","memory_gib":20,"bandwidth_gbps":800,"platform":"vulkan"},"sections":["simulator"]})");
  EXPECT_NE(object.find(R"("capacity_gib":19.0)"), std::string::npos) << object;
}

TEST(CustomDevice, ItsComputeCapabilityPicksTheEnginesAndTheDecodeRule) {
  // Apple's Metal feature set tables: the M5 series is MTLGPUFamilyApple10. A 20-core M5 Pro of
  // one's own (307 GB/s) takes the M5 generation's rule, as the catalog's does; without its family
  // the rule from 300 GB/s fitted to M1, M2 and M4 Max runs.
  const auto field = [](std::string_view device, std::string_view key) {
    const std::string answer =
        Evaluated(std::string(R"({"model":"qwen3.5-9b","format":"Q8_0","runtime":"llamacpp","context":128,"device":)") +
                  std::string(device) + R"(,"sections":["simulator"]})");
    const std::string quoted = "\"" + std::string(key) + "\":";
    const std::size_t from = answer.find(quoted) + quoted.size();
    return answer.substr(from, answer.find_first_of(",}", from) - from);
  };
  EXPECT_EQ(field(R"("custom:48:307:metal@10:My M5 Pro")", "from_compute_capability"), "10.0");
  EXPECT_EQ(field(R"("custom:48:307:metal:My M5 Pro")", "from_compute_capability"), "0.0");
  EXPECT_EQ(field(R"({"name":"My M5 Pro","memory_gib":48,"bandwidth_gbps":307,"platform":"metal","compute_capability":10})",
                  "from_compute_capability"),
            "10.0");
  // zhongkaifu/TensorSharp's llama-bench run of Qwen3.5-9B Q8_0 on a 20-core M5 Pro: tg128 30.5
  // tok/s at depth 0 (tests/calibration/decode.json). With its family, within 10 %; without, the
  // Max rule's memory share (0.783 against the M5 rule's 0.949; a device of one's own states no
  // FP16 rate, so no arithmetic term), at least 10 % slower.
  const double m5 = std::stod(field(R"("custom:48:307:metal@10:My M5 Pro")", "decode_tps"));
  EXPECT_NEAR(m5, 30.5, 3.05);
  EXPECT_LT(std::stod(field(R"("custom:48:307:metal:My M5 Pro")", "decode_tps")), 0.9 * m5);
  // vLLM needs compute capability 7.5 (its install docs): a Tesla P40 of one's own (6.1) is refused,
  // as the catalog's is; a card of unknown capability is not.
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","runtime":"vllm","device":"custom:24:347:cuda@6.1:P40"})"), "device");
  EXPECT_NE(Evaluated(R"({"model":"qwen3-8b","runtime":"vllm","device":"custom:24:347:cuda:P40"})").find(R"("device":"custom")"),
            std::string::npos);
}

TEST(CustomDevice, BadFiguresNameTheField) {
  for (const char* device : {"custom:x:800:vulkan:A", "custom:0:800:cuda:A", "custom:20:-1:cuda:A", "custom:20:800:opencl:A",
                             "custom:20:800:cuda:", "custom:20:800", "custom:1e3:800:cuda:A", "custom:20:800:cuda@:A",
                             "custom:20:800:cuda@0:A", "custom:20:800:cuda@100:A", "custom:20:800:cuda@x:A"}) {
    EXPECT_EQ(ErrorOf(std::string(R"({"model":"qwen3-8b","device":")") + device + R"("})"), "device") << device;
  }
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","device":{"name":"A","memory_gib":"20","bandwidth_gbps":800,"platform":"cuda"}})"),
            "device.memory_gib");
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","device":{"name":"A","memory_gib":20,"platform":"cuda"}})"),
            "device.bandwidth_gbps");
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","device":{"name":"A","memory_gib":20,"bandwidth_gbps":800,"platform":"x"}})"),
            "device.platform");
  EXPECT_EQ(ErrorOf(R"({"model":"qwen3-8b","device":{"name":"A","memory_gib":20,"bandwidth_gbps":800,"platform":"cuda",)"
                    R"("compute_capability":0}})"),
            "device.compute_capability");
}

}  // namespace
}  // namespace vramcalc
