// vLLM's hybrid KV cache manager (core/ESTIMATION.md section 5.7, vramcalc/kv_pages.h) against
// the figures vLLM prints at start-up ("Available KV cache memory", "GPU KV cache size",
// "Maximum concurrency for L tokens per request") and the block sizes it reports, each quoted
// with its source; and hand calculations of its grouping rule from vllm/v1/core/kv_cache_utils.py.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string_view>

#include "vramcalc/catalog.h"
#include "vramcalc/estimate.h"
#include "vramcalc/kv_pages.h"
#include "vramcalc/runtime_profile.h"

namespace vramcalc {
namespace {

const ModelSpec& Model(std::string_view id) {
  const ModelSpec* model = BuiltinCatalog().value().FindModel(id);
  if (model == nullptr) ADD_FAILURE() << "no catalog model " << id;
  return *model;
}

// vLLM's pages of a catalog model: 16-token blocks, the state in bf16 (its float32 elements in
// float32), the KV cache at `kv_bytes` per element, on one of `devices` tensor-parallel GPUs.
KvPages PagesOf(std::string_view id, double kv_bytes, int64_t devices = 1) {
  const std::optional<KvPages> pages = KvPagesOf(Model(id), kv_bytes, 2, 16, devices);
  if (!pages) ADD_FAILURE() << id << " has no pages";
  return pages.value_or(KvPages{});
}

int64_t BlocksIn(double gib, const KvPages& pages) {
  return static_cast<int64_t>(std::floor(gib * kBytesPerGib / pages.BlockBytes()));
}

// The grouping: layer slots per group, groups, padding layers ("Add N padding layers").
void ExpectGroups(const KvPages& pages, int64_t group_layers, int64_t groups, int64_t padding_layers) {
  EXPECT_EQ(pages.group_layers, group_layers);
  EXPECT_EQ(pages.Groups(), groups);
  EXPECT_EQ(pages.padding_layers, padding_layers);
}

// `id` in BF16 with an FP16 KV cache and 131,072 tokens under vLLM on an 80 GB H100.
Scenario BF16On131072TokensUnderVllm(std::string_view id) {
  static const Device h100{"h100-80gb", "H100", 80, 3350, DeviceClass::kDatacenter, Vendor::kNvidia, Platform::kCuda, false, ""};
  Scenario s;
  s.model = &Model(id);
  s.format = FindQuantFormat("BF16");
  s.kv_dtype = FindKvDtype("fp16");
  s.context_tokens = 131072;
  s.device = &h100;
  s.runtime = FindRuntimeProfile("vllm");
  return s;
}

// Qwen3.6-35B-A3B NVFP4 on an RTX 5090, vLLM 0.24.0, fp8 KV cache, --max-model-len 131072,
// max_num_batched_tokens 8192 (noonghunna/club-3090 issue #612): "Available KV cache memory:
// 5.98 GiB", "GPU KV cache size: 567,978 tokens", "Maximum concurrency for 131,072 tokens per
// request: 4.33x".
TEST(KvPages, Qwen36MoeOnAnRtx5090MatchesItsStartUpLog) {
  const KvPages pages = PagesOf("qwen3.6-35b-a3b", 1);
  // A Gated DeltaNet state: conv 24,576 elements in bf16 + recurrent 524,288 in float32 (the
  // config's mamba_ssm_dtype) = 2,146,304 B; an fp8 attention token 2 × 2 heads × 256 = 1,024 B;
  // so the attention block is 16 × cdiv(2,146,304, 16 × 1,024) = 2,096 tokens and a page is a state.
  EXPECT_EQ(pages.block_tokens, 2096);
  EXPECT_EQ(pages.page_bytes, 2146304);
  // 10 attention and 30 state layers: groups of 10, the attention group and 3 state groups.
  EXPECT_EQ(pages.group_layers, 10);
  EXPECT_EQ(pages.Groups(), 4);
  EXPECT_EQ(pages.padding_layers, 0);
  const int64_t blocks = BlocksIn(5.98, pages);
  EXPECT_EQ(blocks, 299);
  // cdiv(131,072, 2,096) = 63 attention blocks + 2 per state group (prefix caching's "align").
  const KvPageRequest request{.max_num_batched_tokens = 8192, .state_blocks = 2};
  const int64_t per_request = pages.BlocksPerRequest(131072, request);
  EXPECT_EQ(per_request, 69);
  const double concurrency = static_cast<double>(blocks) / static_cast<double>(per_request);
  EXPECT_NEAR(concurrency, 4.33, 0.005);
  EXPECT_EQ(static_cast<int64_t>(concurrency * 131072), 567978);
}

// Qwen3.5-27B on an H20, vLLM 0.19.0, --max-model-len 32768, max_num_batched_tokens 16384
// (vllm-project/vllm issue #40691): "GPU KV cache size: 290,864 tokens", "Maximum concurrency
// for 32,768 tokens per request: 33.04x". v0.19 logged blocks // groups × block size.
TEST(KvPages, Qwen35DenseOnAnH20MatchesItsStartUpLog) {
  const KvPages pages = PagesOf("qwen3.5-27b", 2);
  // State: conv 30,720 × 2 B + recurrent 786,432 × 4 B = 3,207,168 B; a bf16 token 2 × 4 × 256 ×
  // 2 = 4,096 B: 16 × cdiv(3,207,168, 65,536) = 784 tokens.
  EXPECT_EQ(pages.block_tokens, 784);
  EXPECT_EQ(pages.group_layers, 16);  // 16 attention, 48 state layers
  EXPECT_EQ(pages.Groups(), 4);
  // 1,487 blocks give both figures, with one block per state group (the run's "none" mode):
  // 1,487 // 4 × 784 = 290,864 and 1,487 / (cdiv(32,768, 784) + 3) = 1,487 / 45 = 33.04.
  const int64_t blocks = 1487;
  EXPECT_EQ(blocks / pages.Groups() * pages.block_tokens, 290864);
  const int64_t per_request = pages.BlocksPerRequest(32768, {.max_num_batched_tokens = 16384, .state_blocks = 1});
  EXPECT_EQ(per_request, 45);
  EXPECT_NEAR(static_cast<double>(blocks) / static_cast<double>(per_request), 33.04, 0.005);
}

// Qwen3-Next on two GPUs: "block size is 544 (Qwen3-Next TP2)" (vLLM PR #54076 as quoted in
// code-index file 71206461717). Per GPU 1 KV head × 512 × 2 B = 1,024 B a token and half the
// state, (12,288 + 262,144) × 2 B = 548,864 B (no float32 in this config): 16 × cdiv(548,864, 16,384).
TEST(KvPages, Qwen3NextOnTwoGpusHasItsLoggedBlockSize) {
  EXPECT_EQ(PagesOf("qwen3-next-80b-a3b-instruct", 2, 2).block_tokens, 544);
  EXPECT_EQ(PagesOf("qwen3-next-80b-a3b-instruct", 2, 1).block_tokens, 16 * 34);  // 1,097,728 / 32,768 → 34
}

// Gemma 3 27B by the grouping rule (_get_kv_cache_groups_uniform_page_size): 10 full and 52
// sliding layers → groups of 10, one full and cdiv(52, 10) = 6 sliding, 8 padding layers ("Add 8
// padding layers, may waste at most 15.38% KV cache memory"). A 131,072-token request with
// max_num_batched_tokens 8,192 pins 8,192 full blocks + 6 × (cdiv(1,023 + 8,192, 16) + 1) = 3,462.
TEST(KvPages, Gemma3GroupsItsSlidingLayersByTenWithPadding) {
  const KvPages pages = PagesOf("gemma-3-27b", 2);
  ExpectGroups(pages, 10, 7, 8);
  EXPECT_EQ(pages.page_bytes, 16 * 2 * 16 * 128 * 2);  // 131,072 B
  const KvPageRequest request{.max_num_batched_tokens = 8192, .state_blocks = 2};
  EXPECT_EQ(pages.BlocksPerRequest(131072, request), 8192 + 6 * 577);
  // 13,107 blocks (16 GiB) hold 1.12 such requests; the longest alone: 13,107 − 3,462 = 9,645 full blocks.
  EXPECT_EQ(BlocksIn(16, pages), 13107);
  EXPECT_EQ(pages.LongestRequest(13107, request, kMaxContextTokens), 9645 * 16);
}

// Gemma 3's start-up logs: vLLM pages its 5 : 1 sliding and full layers as the grouping rule says,
// and the blocks the logged "Available KV cache memory" holds give the logged concurrency. The
// logged GiB has two decimals, so the blocks it holds are known to ± 0.005 GiB / block bytes.
void ExpectLoggedConcurrency(const KvPages& pages, double gib, int64_t tokens_per_request, const KvPageRequest& request,
                             double logged_concurrency) {
  const double blocks = static_cast<double>(BlocksIn(gib, pages));
  const double per_request = static_cast<double>(pages.BlocksPerRequest(tokens_per_request, request));
  EXPECT_NEAR(blocks / per_request, logged_concurrency, 0.005 + 0.005 * kBytesPerGib / pages.BlockBytes() / per_request);
}

// The same with prefix caching on (2 blocks a state) and `mnbt` batched tokens: a request of
// `tokens_per_request` pins `blocks_per_request` blocks, and the logged GiB give the concurrency.
void ExpectLoggedRequest(const KvPages& pages, double gib, int64_t tokens_per_request, int64_t mnbt,
                         int64_t blocks_per_request, double logged_concurrency) {
  const KvPageRequest request{.max_num_batched_tokens = mnbt, .state_blocks = 2};
  EXPECT_EQ(pages.BlocksPerRequest(tokens_per_request, request), blocks_per_request);
  ExpectLoggedConcurrency(pages, gib, tokens_per_request, request, logged_concurrency);
}

// Two logs of vLLM before 0.21, which counted "GPU KV cache size" as blocks // groups × block
// tokens, with one block a state (prefix caching off):
// - Qwen3-Next-80B-A3B-Instruct in BF16 on two H200s, vLLM 0.10.2, TP 2, --max-model-len 262144,
//   max_num_batched_tokens 8192 (code-index file id 7292846353, a terminal transcript): "Hybrid or
//   mamba-based model detected: disabling prefix caching", "Setting attention block size to 544
//   tokens", "Padding mamba page size by 1.49%" (548,864 B to a 544-token page of 557,056 B),
//   "Available KV cache memory: 44.59 GiB", "GPU KV cache size: 973,760 tokens", "Maximum
//   concurrency for 262,144 tokens per request: 14.77x".
// - Qwen3.5-2B in BF16 on one GPU, vLLM 0.17.1, --max-model-len 262144 (code-index file id
//   58718033200, a README's grep of its container log): "Available KV cache memory: 5.95 GiB",
//   "GPU KV cache size: 129,472 tokens", "Maximum concurrency for 262,144 tokens per request: 1.97x".
//   The grep shows no prefix-caching line; one block a state gives 1.97, two would give 1.96.
// A request pins cdiv(262,144, 544) = 482 attention blocks and one block in each of 3 state groups.
TEST(KvPages, GatedDeltaNetHybridsMatchTheirStartUpLogs) {
  const KvPageRequest request{.max_num_batched_tokens = 8192, .state_blocks = 1};
  const KvPages next = PagesOf("qwen3-next-80b-a3b-instruct", 2, 2);
  EXPECT_EQ(next.page_bytes, 557056);
  ExpectGroups(next, 12, 4, 0);
  EXPECT_EQ(next.BlocksPerRequest(262144, request), 485);
  ExpectLoggedConcurrency(next, 44.59, 262144, request, 14.77);
  EXPECT_EQ(BlocksIn(44.59, next) / next.Groups() * next.block_tokens, 973760);  // 7,162 blocks
  const KvPages small = PagesOf("qwen3.5-2b", 2);
  ExpectGroups(small, 6, 4, 0);
  EXPECT_EQ(small.block_tokens, 544);
  ExpectLoggedConcurrency(small, 5.95, 262144, request, 1.97);
  EXPECT_EQ(BlocksIn(5.95, small) / small.Groups() * small.block_tokens, 129472);  // 955 blocks
}

// google/gemma-3-27b-it in BF16 on an AMD Instinct (ROCm), vLLM 0.11.0rc2, --max-model-len 4096,
// max_num_batched_tokens 8192 (TaintsAndTokenizersInc/vllm_multimodal_rocm_examples, example_logs.md
// at 67f2118): "Available KV cache memory: 109.86 GiB", "Add 8 padding layers, may waste at most
// 15.38% KV cache memory", "GPU KV cache size: 205,696 tokens", "Maximum concurrency for 4,096
// tokens per request: 50.05x", "num_gpu_blocks is: 89994".
TEST(KvPages, Gemma3Of27bOnAnAmdGpuMatchesItsStartUpLog) {
  const KvPages pages = PagesOf("gemma-3-27b", 2);
  ExpectGroups(pages, 10, 7, 8);  // 8 of 52 sliding layers: 15.38 %
  // A block is 10 pages of 16 × 2 × 16 heads × 128 × 2 B = 1,310,720 B: 109.86 GiB hold 89,997.
  EXPECT_EQ(pages.BlockBytes(), 1310720);
  EXPECT_EQ(BlocksIn(109.86, pages), 89997);
  // A 4,096-token request: 256 full blocks + 6 × (cdiv(min(1,023 + 8,192, 4,096), 16) + 1) = 1,798.
  ExpectLoggedRequest(pages, 109.86, 4096, 8192, 1798, 50.05);
  // The logged blocks give both logged figures: 89,994 / 1,798 = 50.05 and, as v0.11 counted
  // tokens, 89,994 // 7 groups × 16 = 205,696.
  EXPECT_NEAR(89994.0 / 1798.0, 50.05, 0.005);
  EXPECT_EQ(89994 / pages.Groups() * pages.block_tokens, 205696);
}

// google/gemma-3-1b-it, vLLM 0.13.0, --max-model-len 2048, --gpu-memory-utilization 0.95,
// max_num_batched_tokens 8192 (eole-nlp/eole, benchmarks/genai/results.md at 38d4e46): "Available
// KV cache memory: 25.39 GiB", "Add 2 padding layers, may waste at most 9.09% KV cache memory",
// "GPU KV cache size: 950,864 tokens", "Maximum concurrency for 2,048 tokens per request: 461.21x".
TEST(KvPages, Gemma3Of1bMatchesItsStartUpLog) {
  const KvPages pages = PagesOf("gemma-3-1b", 2);
  // 4 full and 22 sliding layers (window 512): groups of 4, cdiv(22, 4) = 6 sliding groups, 2
  // padding layers (2 / 22 = 9.09 %); a page 16 × 2 × 1 head × 256 × 2 B = 16,384 B.
  ExpectGroups(pages, 4, 7, 2);
  EXPECT_EQ(pages.page_bytes, 16384);
  // 128 full blocks + 6 × (cdiv(min(511 + 8,192, 2,048), 16) + 1) = 902 a request.
  ExpectLoggedRequest(pages, 25.39, 2048, 8192, 902, 461.21);
  // 950,864 tokens are 59,429 blocks per group (v0.13: blocks // groups × 16), so 416,003 to
  // 416,009 blocks, and of those 416,007 to 416,009 give 461.21 a 902-block request.
  EXPECT_EQ(416008 / pages.Groups() * pages.block_tokens, 950864);
  EXPECT_NEAR(416008.0 / 902.0, 461.21, 0.005);
}

// google/gemma-3-4b-it in BF16 on one AMD Instinct MI300X, vLLM 0.23.0, --max-model-len 8192,
// gpu_memory_utilization 0.9 (the default), max_num_batched_tokens 8192 (Logicrithm/orbit-ai,
// evidence/vllm.log at 09b4c19): "Model loading took 8.58 GiB memory", "Available KV cache memory:
// 162.84 GiB", "Add 1 padding layers, may waste at most 3.45% KV cache memory", "GPU KV cache size:
// 1,217,591 tokens", "Maximum concurrency for 8,192 tokens per request: 148.63x". The whole chain,
// from the catalog's MI300X to the pool, is checked too.
TEST(KvPages, Gemma3Of4bOnAnMi300xMatchesItsStartUpLog) {
  const KvPages pages = PagesOf("gemma-3-4b", 2);
  // 5 full and 29 sliding layers: groups of 5, 6 sliding groups, 1 padding layer (1 / 29 = 3.45 %).
  ExpectGroups(pages, 5, 7, 1);
  EXPECT_EQ(pages.BlockBytes(), 5 * 16 * 2 * 4 * 256 * 2);  // 327,680 B
  // 512 full blocks + 6 × (cdiv(min(1,023 + 8,192, 8,192), 16) + 1) = 3,590 a request.
  ExpectLoggedRequest(pages, 162.84, 8192, 8192, 3590, 148.63);
  // v0.23 logs floor(concurrency × 8,192): 533,588 blocks give 148.63x and 1,217,591 tokens.
  EXPECT_EQ(static_cast<int64_t>(533588.0 / 3590.0 * 8192), 1217591);

  Scenario s = BF16On131072TokensUnderVllm("gemma-3-4b");
  s.device = BuiltinCatalog().value().FindDevice("mi300x-192gb");
  s.context_tokens = 8192;
  const std::optional<KvPool> pool = KvPoolOf(s);
  ASSERT_TRUE(pool);
  // The estimate: 163.88 GiB and 1,225,352 tokens, 0.64 % above the log's.
  EXPECT_NEAR(pool->gib / 162.84 - 1, 0, 0.01);
  EXPECT_NEAR(static_cast<double>(pool->tokens) / 1217591 - 1, 0, 0.01);
  EXPECT_EQ(pool->padding_layers, 1);
}

// gpt-oss-20b: "12 sw + 12 full" layers make 2 groups of 12 (the comment in kv_cache_utils.py);
// a page is 16 × 8 × (64 + 64) × 2 = 32,768 B; with 2,048 batched tokens a 131,072-token request
// pins 8,192 + cdiv(127 + 2,048, 16) + 1 = 8,329 blocks.
TEST(KvPages, GptOss20bHasTwoGroupsOfTwelve) {
  const KvPages pages = PagesOf("gpt-oss-20b", 2);
  ExpectGroups(pages, 12, 2, 0);
  EXPECT_EQ(pages.page_bytes, 32768);
  EXPECT_EQ(pages.BlocksPerRequest(131072, {.max_num_batched_tokens = 2048, .state_blocks = 2}), 8329);
}

// gpt-oss-120b on one GPU without native FP4, vLLM 0.11.2, --max-model-len 98304,
// --gpu-memory-utilization 0.96, --max-num-seqs 6, max_num_batched_tokens 8192 (tonghuikang/blog,
// _posts/2025-12-28-vllm-logs.md at 034b47c, a Kaggle notebook's log): "Available KV cache memory:
// 8.99 GiB", "GPU KV cache size: 130,960 tokens", "Maximum concurrency for 98,304 tokens per
// request: 2.46x". 18 sliding (window 128) and 18 full layers: 2 groups of 18, a block 18 pages of
// 16 × 8 × (64 + 64) × 2 B = 589,824 B.
TEST(KvPages, GptOss120bMatchesItsStartUpLog) {
  const KvPages pages = PagesOf("gpt-oss-120b", 2);
  ExpectGroups(pages, 18, 2, 0);
  EXPECT_EQ(pages.BlockBytes(), 589824);
  EXPECT_EQ(BlocksIn(8.99, pages), 16365);
  // 6,144 full blocks + cdiv(127 + 8,192, 16) + 1 = 6,665 a request.
  ExpectLoggedRequest(pages, 8.99, 98304, 8192, 6665, 2.46);
  // v0.11 counted blocks // groups × 16: 130,960 tokens are 16,370 or 16,371 blocks (8.99 GiB
  // holds 16,357 to 16,375), and 16,370 / 6,665 = 2.456.
  EXPECT_EQ(16370 / pages.Groups() * pages.block_tokens, 130960);
  EXPECT_NEAR(16370.0 / 6665.0, 2.46, 0.005);
}

// The whole chain for gpt-oss-120b MXFP4 on one H100 80GB, vLLM 0.25.1, --max-model-len 131072,
// --gpu-memory-utilization 0.95 (JaminJeong/CodingAgent, docs/gpt-oss-120b.md at 46559ab, section
// 8-1): "Model loading took 61.29 GiB memory", "Available KV cache memory: 10.52 GiB", "GPU KV cache
// size: 303,646 tokens", and vLLM's note that with CUDA-graph profiling 0.95 acts as 0.9439 (a
// graph estimate of 0.48 GiB, tests/calibration/vllm-startup.json V25). The pasted lines do not
// show max_num_seqs or max_num_batched_tokens; the estimate takes vLLM's defaults (the document's
// .env.example sets 8 and 1,024, which would leave the sampler's 2.9 GiB out of the peak).
TEST(KvPages, GptOss120bOnAnH100IsWithinATenthOfItsLoggedPool) {
  Scenario s = BF16On131072TokensUnderVllm("gpt-oss-120b");
  s.format = FindQuantFormat("MXFP4");
  s.device = BuiltinCatalog().value().FindDevice("h100-80gb");
  s.engine.memory_utilization = 0.95;
  const Footprint footprint = FootprintOf(s);
  EXPECT_NEAR(footprint.parts.graphs_gib, 0.48, 0.2);  // 0.66: 0.402 + 0.0494 × 5.13
  const std::optional<KvPool> pool = KvPoolOf(s);
  ASSERT_TRUE(pool);
  // The estimate: 11.44 GiB (+8.7 %) and 313,155 tokens (+3.1 %); counted on all 117 B
  // parameters, the graphs' 5.87 GiB left it at 6.22 GiB (−41 %).
  EXPECT_NEAR(pool->gib / 10.52 - 1, 0, 0.1);
  EXPECT_NEAR(static_cast<double>(pool->tokens) / 303646 - 1, 0, 0.1);
}

// Llama 4 Scout in BF16 on eight H200s, vLLM 0.12.0, TP 8, --gpu-memory-utilization 0.90
// (fuhengwu2021/coderepo, cursor_llama_4_scout_model_loading.md at b874b44 and
// extra/run-vllm-docker.sh at 5345771): "Available KV cache memory: 89.71 GiB", "GPU KV cache
// size: 3,919,664 tokens" per GPU at --max-model-len 8388608 (the hybrid manager forced on by
// VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1) and, by default (off), "Maximum
// concurrency for 5,242,880 tokens per request: 0.75x" beside the same 3,919,664 tokens (a
// transcription in the same file). One group of 48 layers with 1 KV head per GPU: a block
// 48 × 16 × 128 × 2 × 2 B = 393,216 B, so the pool's size is the same whichever the manager.
TEST(KvPages, Llama4ScoutOnEightGpusMatchesItsStartUpLog) {
  const KvPages pages = PagesOf("llama-4-scout-17b-16e", 2, 8);
  EXPECT_EQ(pages.BlockBytes(), 393216);
  // 89.71 GiB hold 244,954 to 244,981 blocks; 3,919,664 tokens are 244,979 of them.
  EXPECT_EQ(BlocksIn(89.71, pages), 244968);
  EXPECT_EQ(244979 * pages.block_tokens, 3919664);
  EXPECT_NEAR(244979.0 * 16 / 5242880, 0.75, 0.005);

  Scenario s = BF16On131072TokensUnderVllm("llama-4-scout-17b-16e");
  s.device = BuiltinCatalog().value().FindDevice("h200-141gb");
  s.device_count = 8;
  s.context_tokens = 5242880;
  s.engine.memory_utilization = 0.9;
  const std::optional<KvPool> pool = KvPoolOf(s);
  ASSERT_TRUE(pool);
  // The estimate: 96.04 GiB and 4,195,920 tokens per GPU, 7.1 % and 7.0 % above the log's.
  EXPECT_NEAR(pool->gib / 89.71 - 1, 0, 0.1);
  EXPECT_NEAR(static_cast<double>(pool->tokens) / 3919664 - 1, 0, 0.1);
  EXPECT_NEAR(pool->concurrency / 0.75 - 1, 0, 0.1);
}

// Gemma 4 26B-A4B (nvidia/Gemma-4-26B-A4B-NVFP4) on one Blackwell GPU, vLLM 0.20.2,
// --max-model-len 256000, fp8_e4m3 KV cache, max_num_batched_tokens 16384, max_num_seqs 2
// (code-index file id 56816929356, a launch's compose file and log): "Available KV cache memory:
// 4.58 GiB", "GPU KV cache size: 286,007 tokens", "Maximum concurrency for 256,000 tokens per
// request: 1.12x". 5 full layers (2 KV heads of 512, K and V stored) and 25 sliding (8 of 256,
// window 1,024): groups of 5; a sliding page is 16 × 8 × 512 × 1 B = 65,536 B, and the full
// layers' pages reach it with 32-token blocks (32 × 2 × 1,024 × 1 B).
TEST(KvPages, Gemma4sTwoHeadShapesShareOnePageSize) {
  const KvPages pages = PagesOf("gemma-4-26b-a4b", 1);
  ExpectGroups(pages, 5, 6, 0);
  EXPECT_EQ(pages.page_bytes, 65536);
  EXPECT_EQ(BlocksIn(4.58, pages), 15007);  // 4.575 to 4.585 GiB: 14,991 to 15,024
  // cdiv(256,000, 32) = 8,000 full blocks + 5 × (cdiv(1,023 + 16,384, 16) + 1) = 13,445.
  ExpectLoggedRequest(pages, 4.58, 256000, 16384, 13445, 1.12);
  // v0.20 logs floor(concurrency × 256,000): 15,021 blocks give 1.12x and 286,007 tokens.
  EXPECT_EQ(static_cast<int64_t>(15021.0 / 13445.0 * 256000), 286007);
}

// StarCoder2-3B, every layer sliding (bigcode/starcoder2-3b: 30 layers, 24 heads of 128, 2 KV
// heads, sliding_window 4,096), vLLM PR #19029: "GPU KV cache size: 2,198,512 tokens" (137,407
// blocks of 16) and, with the window counted, "Maximum concurrency for 16,384 tokens per
// request: 178.68x": a request keeps cdiv(4,095 + 8,192, 16) + 1 = 769 blocks.
TEST(KvPages, StarCoder2WithEveryLayerSlidingMatchesItsLoggedConcurrency) {
  ModelSpec m;
  m.num_hidden_layers = 30;
  m.layer_groups = {LayerGroup{.kind = LayerKind::kWindow, .layers = 30, .kv_heads = 2, .key_dim = 128, .value_dim = 128,
                               .window_tokens = 4096, .query_heads = 24, .query_key_dim = 128, .query_value_dim = 128}};
  const std::optional<KvPages> pages = KvPagesOf(m, 2, 2, 16, 1);
  ASSERT_TRUE(pages);
  EXPECT_EQ(pages->Groups(), 1);
  const int64_t per_request = pages->BlocksPerRequest(16384, {.max_num_batched_tokens = 8192, .state_blocks = 2});
  EXPECT_EQ(per_request, 769);
  EXPECT_NEAR(137407.0 / static_cast<double>(per_request), 178.68, 0.005);
}

// Llama 4 Scout: 12 global and 36 chunked layers (attention_chunk_size 8,192). vLLM switches its
// hybrid manager off for chunked local attention ("There is a latency regression when using
// chunked local attention with the hybrid KV cache manager. Disabling it, by default.",
// VllmConfig.__post_init__, vLLM PR #21761), so every layer keeps the whole context: one group of
// 48 layers, and 48 × 2 × 8 × 128 × 2 B = 192 KiB a token, 24 GiB at 131,072 tokens. llama.cpp
// keeps a chunked layer's chunk and ubatch as for a window.
TEST(KvPages, Llama4sChunkedLayersKeepTheWholeContextUnderVllmOnly) {
  const KvPages pages = PagesOf("llama-4-scout-17b-16e", 2);
  EXPECT_EQ(pages.Groups(), 1);
  EXPECT_EQ(pages.BlocksPerRequest(131072, {.max_num_batched_tokens = 8192, .state_blocks = 2}), 131072 / 16);
  EXPECT_EQ(pages.BlockBytes() * 131072 / 16, 24.0 * kBytesPerGib);
  Scenario s = BF16On131072TokensUnderVllm("llama-4-scout-17b-16e");
  EXPECT_EQ(FootprintOf(s).kv_cache_bytes, 24.0 * kBytesPerGib);
  s.runtime = FindRuntimeProfile("llamacpp");
  s.format = FindQuantFormat("Q4_K_M");
  // 12 × 2 × 8 × 128 × 2 B × 131,072 cells + 36 layers × the same per cell × (8,192 + 512) cells.
  EXPECT_EQ(FootprintOf(s).kv_cache_bytes, 12.0 * 4096 * 131072 + 36.0 * 4096 * (8192 + 512));
}

// Models whose further specs vLLM keeps apart (DeepSeek-V3.2's indexer keys, V4's compressed
// latents) have no pages here: their pool stays the layout's.
TEST(KvPages, IndexerAndCompressedAttentionAreLeftToTheLayout) {
  EXPECT_FALSE(KvPagesOf(Model("deepseek-v3.2"), 2, 2, 16, 1));
  EXPECT_FALSE(KvPagesOf(Model("deepseek-v4-flash"), 2, 2, 16, 1));
}

// The pool of a scenario: vLLM pages it and a request of the context pins what BlocksPerRequest
// says; a dense model's pool is one group whose tokens are its blocks × 16 (as before); SGLang
// keeps no pages.
TEST(KvPages, TheScenariosPoolIsPagedUnderVllmOnly) {
  Scenario s = BF16On131072TokensUnderVllm("gemma-3-27b");
  const std::optional<KvPool> pool = KvPoolOf(s);
  ASSERT_TRUE(pool);
  const KvPages pages = PagesOf("gemma-3-27b", 2);
  EXPECT_EQ(pool->blocks, BlocksIn(pool->gib, pages));
  EXPECT_EQ(pool->padding_layers, 8);
  // On an H100 max_num_batched_tokens is 8,192: 11,654 blocks of 1.25 MiB = 14.23 GiB a request.
  EXPECT_NEAR(pool->request_gib, 11654 * 1.25 / 1024, 1e-9);
  EXPECT_NEAR(pool->concurrency, static_cast<double>(pool->blocks) / 11654, 1e-12);
  EXPECT_EQ(pool->tokens, static_cast<int64_t>(std::floor(pool->concurrency * 131072)));
  s.model = &Model("qwen2.5-7b");
  const std::optional<KvPool> dense = KvPoolOf(s);
  ASSERT_TRUE(dense);
  EXPECT_EQ(dense->groups, 1);
  EXPECT_EQ(dense->tokens, dense->blocks * 16);
  s.runtime = FindRuntimeProfile("sglang");
  EXPECT_EQ(KvPoolOf(s).value().group_layers, 0);
}

}  // namespace
}  // namespace vramcalc
