// Serving (estimation model section 8): prefill FLOPs, the engines' prefill rules, the time to
// the first token and to the end of an answer.
#include "vramcalc/serving.h"

#include "vramcalc/evaluate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>

namespace vramcalc {
namespace {

using enum Platform;
using enum Tristate;

// Prefill rules (section 8), fitted to the rows of tests/calibration/prefill.json whose sources
// are not held out by tests/core/prefill_calibration_test.cc, which also recomputes each rule's
// recorded errors. Columns: platform, class, unified memory, from bandwidth, from architecture
// version (Device::compute_capability: Apple's Metal GPU family, AMD's GFXIP), MoE, GGUF integer
// quants on the INT8 peak, η (matmuls), η_attn (attention at the FP16 peak) with flash attention
// and without, {runs, median, p90, worst error in %} on the fitted rows, the same on the held-out
// sources' rows ({}: none) and the fixed time per prompt in ms (else omitted: 0;
// PrefillRule::prompt_ms).
// llama.cpp's MMQ kernels multiply integer quants with int8 dot products: on consumer CUDA cards
// dense models' prompts run past the FP16 peak (RTX 4090, Llama 2 7B Q4_0: 14,771 tok/s × 12.9
// GFLOP = 190 TFLOPS against 165), so the INT8 peak is theirs. Not for MoE models, whose expert
// matmuls over a few tokens each reach a far smaller share of it, nor for the datacenter rule,
// whose runs (XiongjieDai's, builds b2824-b2843 of May 2024) predate MMQ on the int8 tensor
// cores (llama.cpp PRs #7676 and #7860, June 2024): their prompts were dequantized to FP16 for
// cuBLAS. Both flags were chosen after the errors of either choice were seen, hold-out included
// (core/ESTIMATION.md section 8).
// Vulkan takes the FP16 peak: ggml-vulkan multiplies integer quants either dequantized to FP16 on
// the cooperative-matrix units or with integer dot products on the vector units; it detects int8
// cooperative matrices but never uses them (ggml-org/ggml src/ggml-vulkan @ d99724f, the
// `coopmat_int_support` flag is set and not read). On RDNA3 the two peaks are one; on RDNA4 the
// INT8 rate is twice the FP16 one. The ROCm rules fitted to Strix Halo (RDNA3.5) estimated the
// Radeon AI PRO R9700's (RDNA4) held-out prompts of build 7423 1.9 to 3.1 times too fast: RDNA4 has
// rules of its own (below; core/ESTIMATION.md section 8).
// Vulkan's rules are apart for unified memory (Strix Halo) and discrete
// cards, as the CUDA decode rules are: fitted together, one 7900 XTX run moved the MoE η 2x.
// Attention runs at another share of the peak with flash attention (llama.cpp's default) than
// without it: the consumer CUDA rules' fits hold both, benches/dgx-spark's runs with it and
// jiegec/kb's without at 4K-64K tokens of depth (dense 0.472 against 0.200); where a rule's runs
// at depth are of one setting, both are theirs, but where all are without it (the discrete cards'
// MoE rule: 0.136), attention with it takes the matmuls' share (core/ESTIMATION.md section 8).
// The DGX Spark's (GB10, unified memory) MoE prompts reach 0.126 of its FP16 peak, a discrete
// card's 0.339: fitted together, neither fitted (the Spark's held-out runs 20-55 % too fast), so
// MoE models are apart by unified memory, as the CUDA decode rules are; the dense rule stays one
// (its discrete runs at depth are all without flash attention, the Spark's with it).
// On M5 GPUs (Metal GPU family 10) llama.cpp multiplies on the Neural Accelerators through the
// Metal 4 tensor API (PR #16634), whose peak is the catalog's, at a smaller share than the older
// GPUs reach of their ALU peak: rules of their own, dense and MoE (ax-engine's M5 Max runs fitted,
// TensorSharp's M5 Pro held out).
constexpr PrefillRule kLlamaCppPrefill[] = {
    {kCuda, DeviceClass::kConsumer, kAny, 0, 0, kNo, true, 0.216, 0.472, 0.200, {19, 5.46, 21.28, 37.98}, {30, 23.03, 47.59, 52.58}},
    {kCuda, DeviceClass::kConsumer, kNo, 0, 0, kYes, false, 0.339, 0.339, 0.136, {22, 11.25, 41.16, 42.79}, {8, 26.80, 29.19, 34.86}},
    {kCuda, DeviceClass::kConsumer, kYes, 0, 0, kYes, false, 0.126, 0.464, 0.464, {15, 12.36, 19.16, 21.76}, {10, 8.35, 21.92, 24.48}},
    {kCuda, DeviceClass::kDatacenter, kAny, 0, 0, kAny, false, 0.267, 0.267, 0.267, {48, 21.05, 45.80, 58.65}, {4, 16.96, 44.21, 44.21}},
    {kMetal, DeviceClass::kApple, kAny, 0, 0, kAny, true, 0.722, 0.722, 0.722, {4, 27.67, 34.05, 34.05}, {1, 6.87, 6.87, 6.87}},
    {kMetal, DeviceClass::kApple, kAny, 0, 10, kNo, false, 0.503, 0.503, 0.503, {16, 7.34, 20.16, 20.20}, {10, 12.22, 17.74, 26.76}},
    {kMetal, DeviceClass::kApple, kAny, 0, 10, kYes, false, 0.290, 0.290, 0.290, {8, 15.03, 21.18, 26.42}, {}},
    {kRocm, DeviceClass::kConsumer, kAny, 0, 0, kNo, true, 0.361, 0.094, 0.094, {30, 15.87, 34.74, 51.04}, {11, 20.32, 46.48, 47.32}},
    {kRocm, DeviceClass::kConsumer, kAny, 0, 0, kYes, true, 0.115, 0.167, 0.167, {70, 19.02, 41.50, 62.24}, {4, 12.61, 14.89, 14.89}},
    // RDNA4 (GFX 12: the R9700 and the RX 9000s) multiplies llama.cpp's quants through WMMA-MMQ
    // kernels of its own (llama.cpp#17156), at a smaller share of its INT8 peak than RDNA3.5 reaches
    // of its: fitted to one R9700 of a May 2026 build (daimonionnn's), kyuz0's of December 2025
    // held out; no runs at depth, so one share for attention.
    {kRocm, DeviceClass::kConsumer, kAny, 0, 12, kNo, true, 0.123, 0.123, 0.123, {6, 9.86, 17.26, 17.26}, {6, 29.12, 36.73, 36.73}},
    {kRocm, DeviceClass::kConsumer, kAny, 0, 12, kYes, true, 0.060, 0.060, 0.060, {3, 0.79, 1.68, 1.68}, {18, 8.55, 28.08, 30.28}},
    {kVulkan, DeviceClass::kConsumer, kYes, 0, 0, kNo, false, 0.287, 0.081, 0.081, {12, 18.31, 36.11, 47.61}, {29, 26.20, 45.40, 64.23}},
    {kVulkan, DeviceClass::kConsumer, kYes, 0, 0, kYes, false, 0.077, 0.191, 0.191, {36, 10.29, 75.85, 82.40}, {45, 20.28, 38.15, 69.25}},
    {kVulkan, DeviceClass::kConsumer, kNo, 0, 0, kAny, false, 0.264, 0.264, 0.264, {6, 31.04, 32.32, 32.32}, {5, 32.74, 45.79, 45.79}},
};

// mlx-lm: its MLX_4BIT/8BIT matmuls dequantize to FP16, so the FP16 peak (on an M5, its GPU's
// Neural Accelerators, which MLX 0.30+ uses). Prompts of 512 tokens or more: mlx-lm runs shorter
// ones at a third to a half of its rate at 2,048 (tests/calibration/prefill.json left_out). Its
// runs time a whole request (stream_generate), which costs a fixed time per prompt beside the
// tokens' (Qwen3.6-35B-A3B on an M5 Max: 512 tokens in 269 ms, 2,048 in 554), and MoE models reach
// a smaller share of the peak than dense ones (their experts' matmuls over a few tokens each), so
// dense and MoE apart as for llama.cpp (core/ESTIMATION.md section 8).
constexpr PrefillRule kMlxPrefill[] = {
    {kMetal, DeviceClass::kApple, kAny, 0, 0, kNo, false, 0.832, 0.832, 0.832, {8, 23.20, 33.11, 54.01}, {5, 10.37, 36.39, 36.39}, 14.8},
    {kMetal, DeviceClass::kApple, kAny, 0, 0, kYes, false, 0.516, 0.516, 0.516, {4, 11.44, 16.39, 16.39}, {9, 14.90, 40.20, 73.53}, 172.0},
};

// vLLM and SGLang on consumer CUDA cards (llama-benchy pp, one cold request, timed with its
// handling: a fixed time per prompt): BF16 and NVFP4 (Marlin dequantizes to FP16) on the FP16
// peak. SGLang on datacenter cards: its cookbook's
// time to the first token of one cold 8,192-token prompt (H100, H200, B200), dense and MoE apart
// as for llama.cpp (Qwen3.6-27B reaches 2.3 times the share of the peak Qwen3.6-35B-A3B does).
// FP8 checkpoints multiply on the FP8 peak where the device has one (PrefillPeak). vLLM has no
// datacenter run yet: it borrows SGLang's rule, marked (kPrefillRules' kin).
constexpr PrefillRule kVllmPrefill[] = {
    {kCuda, DeviceClass::kConsumer, kAny, 0, 0, kAny, false, 0.744, 0.744, 0.744, {4, 1.04, 1.12, 1.12}, {2, 7.23, 7.23, 7.23}, 90.2},
};
constexpr PrefillRule kSglangPrefill[] = {
    {kCuda, DeviceClass::kConsumer, kAny, 0, 0, kAny, false, 0.724, 0.724, 0.724, {4, 0.15, 0.42, 0.42}, {}, 95.7},
    {kCuda, DeviceClass::kDatacenter, kAny, 0, 0, kNo, false, 0.471, 0.471, 0.471, {6, 14.86, 31.27, 31.27}, {}},
    {kCuda, DeviceClass::kDatacenter, kAny, 0, 0, kYes, false, 0.203, 0.203, 0.203, {6, 13.74, 51.93, 51.93}, {}},
};

// Section 8.3: a prompt with experts in RAM under llama-server, fitted by
// tests/core/offload_prefill_calibration_test.cc on 8 runs of 2 sources
// (tests/calibration/offload-prefill.json): over 1, as the runs copy fewer experts than uniform
// routing gives (or their devices run a large ubatch faster than the prefill rule: the runs cannot
// tell which). Fitted: the RTX 3090 ubatch sweep of gpt-oss-120b (5 runs) and ik_llama.cpp#357's
// mainline runs (RTX 4080, RTX A6000, RTX 3090; 3). Hold-out: the RTX 4070 Ti SUPER's ubatch sweep
// (4) and ik_llama.cpp#370's RTX A6000 run with a q8_0 cache, estimated 106 % too fast.
constexpr OffloadPrefillRule kLlamaServerOffloadPrefill = {1.021, {8, 24.18, 35.43, 158.24}, {5, 20.06, 105.96, 105.96}};
struct EngineOffloadPrefill {
  std::string_view runtime;
  const OffloadPrefillRule* rule;
};
constexpr EngineOffloadPrefill kOffloadPrefillRules[] = {{"llamacpp", &kLlamaServerOffloadPrefill},
                                                         {"ollama", &kLlamaServerOffloadPrefill}};

// The profiles with rules of their own (Ollama runs llama.cpp's kernels). A profile without a
// rule for the device borrows its kin's, else the first of these that has one. vLLM and SGLang
// are kin: the same kinds of kernels (FlashInfer or FlashAttention 3, CUTLASS and Marlin GEMMs),
// and on the consumer cards where both have runs their rules differ by 3 %.
struct EngineRules {
  std::string_view runtime;
  std::span<const PrefillRule> rules;
  std::string_view kin = {};
};
constexpr EngineRules kPrefillRules[] = {{"llamacpp", kLlamaCppPrefill},
                                         {"ollama", kLlamaCppPrefill},
                                         {"mlx", kMlxPrefill},
                                         {"vllm", kVllmPrefill, "sglang"},
                                         {"sglang", kSglangPrefill, "vllm"}};

// Keys a windowed layer attends to, summed over the tokens at positions 1 … n: min(position,
// window) each (chunked: the position within its chunk).
double WindowKeys(int64_t n, int64_t window, bool chunked) {
  const double w = static_cast<double>(window);
  if (chunked) {
    const double chunks = static_cast<double>(n / window);
    const double rest = static_cast<double>(n % window);
    return chunks * w * (w + 1) / 2 + rest * (rest + 1) / 2;
  }
  const double tokens = static_cast<double>(n);
  if (n <= window) return tokens * (tokens + 1) / 2;
  return w * (w + 1) / 2 + (tokens - w) * w;
}

// The keys one layer of `group` attends to per token, averaged over the prompt's tokens at
// positions depth + 1 … depth + prompt.
double MeanKeys(const LayerGroup& group, int64_t prompt, int64_t depth) {
  const double full = static_cast<double>(depth) + (static_cast<double>(prompt) + 1) / 2;
  const auto windowed = [&](bool chunked) {
    return (WindowKeys(depth + prompt, group.window_tokens, chunked) - WindowKeys(depth, group.window_tokens, chunked)) /
           static_cast<double>(prompt);
  };
  switch (group.kind) {
    case LayerKind::kState:
    case LayerKind::kNone:
      return 0;
    case LayerKind::kChunked:
      return group.window_tokens > 0 ? windowed(true) : full;
    case LayerKind::kCompressed:
      return windowed(false) + full / static_cast<double>(std::max<int64_t>(1, group.compress_ratio));
    default:  // full, windowed, latent and shared layers (these with their own queries)
      return group.window_tokens > 0 ? windowed(false) : full;
  }
}

// A group's query heads × their key + value dims: the group's own (MLA's: qk_nope + qk_rope and
// v_head_dim), else the cache's dims under the model's heads (a layer reusing another's cache:
// the model's head dims).
double QueryHeadDims(const ModelSpec& model, const LayerGroup& group) {
  const double heads = static_cast<double>(group.query_heads > 0 ? group.query_heads : model.num_attention_heads);
  if (group.query_key_dim > 0) return heads * static_cast<double>(group.query_key_dim + group.query_value_dim);
  if (group.key_dim == 0) return heads * 2.0 * static_cast<double>(model.head_dim);
  return heads * static_cast<double>(group.key_dim + (group.value_dim > 0 ? group.value_dim : group.key_dim));
}

const EngineRules* EngineRulesOf(std::string_view runtime) {
  for (const EngineRules& engine : kPrefillRules) {
    if (engine.runtime == runtime) return &engine;
  }
  return nullptr;
}

}  // namespace

const OffloadPrefillRule* OffloadPrefillRuleOf(std::string_view runtime) {
  for (const EngineOffloadPrefill& engine : kOffloadPrefillRules) {
    if (engine.runtime == runtime) return engine.rule;
  }
  return nullptr;
}

std::span<const PrefillRule> PrefillRules(std::string_view runtime) {
  const EngineRules* engine = EngineRulesOf(runtime);
  return engine ? engine->rules : std::span<const PrefillRule>{};
}

PrefillFlops PrefillFlopsOf(const ModelSpec& model, int64_t prompt_tokens, int64_t depth) {
  const WeightParams p = WeightParamsOf(model);
  PrefillFlops flops;
  // params_active leaves the per-layer embeddings out already (model_spec.cc checks it).
  flops.matmul = 2.0 * std::max(0.0, model.params_active - p.embedding - p.head);
  for (const LayerGroup& group : model.layer_groups) {
    flops.attention += 2.0 * QueryHeadDims(model, group) * static_cast<double>(group.layers) *
                       MeanKeys(group, std::max<int64_t>(1, prompt_tokens), depth);
  }
  return flops;
}

// FP8 checkpoints multiply on the FP8 tensor cores where the device has them (vLLM: "FP8
// computation is supported on NVIDIA GPUs with compute capability >= 8.9"; older ones run them
// weight-only through FP8 Marlin, at the FP16 peak; docs/features/quantization/fp8.md).
double PrefillPeak(const Device& device, const QuantFormat& format, const PrefillRule& rule) {
  if (format.family == WeightFamily::kFp8 && device.fp8_tflops > 0) return device.fp8_tflops * 1e12;
  const bool integer = format.family == WeightFamily::kGguf && format.bits_per_weight < 16;
  return (rule.integer_quants_on_int8 && integer && device.int8_tops > 0 ? device.int8_tops : device.fp16_tflops) * 1e12;
}

namespace {

// Attention's share of the FP16 peak: with flash attention or without, as the engine runs.
double AttentionEfficiency(const Scenario& s, const PrefillRule& rule) {
  return s.engine.flash_attention ? rule.attention_efficiency : rule.attention_efficiency_without_fa;
}

}  // namespace

double PrefillSecondsPerToken(const Scenario& s, const PrefillRule& rule, const PrefillFlops& flops) {
  const double one_device = flops.matmul / (PrefillPeak(*s.device, *s.format, rule) * rule.efficiency) +
                            flops.attention / (s.device->fp16_tflops * 1e12 * AttentionEfficiency(s, rule));
  if (s.device_count <= 1 || s.runtime->multi_device_decode.split == SplitKind::kLayers) return one_device;
  return one_device / static_cast<double>(s.device_count);
}

double PrefillSeconds(const Scenario& s, const PrefillRule& rule, const PrefillFlops& flops, int64_t prompt_tokens) {
  return static_cast<double>(prompt_tokens) * PrefillSecondsPerToken(s, rule, flops) + rule.prompt_ms / 1000;
}

namespace {

// The rule serving follows on the scenario's device: the engine's, else the first other
// profile's (its error unknown), with the profile whose rule it is; none where no profile has one.
struct RuleChoice {
  const PrefillRule* rule = nullptr;
  std::string_view runtime;
  bool borrowed = false;
};
RuleChoice PrefillRuleOf(const Scenario& s) {
  const bool moe = s.model->moe.has_value();
  if (const EngineRules* engine = EngineRulesOf(s.runtime->id)) {
    if (const PrefillRule* own = BestRule(engine->rules, *s.device, moe)) return {own, engine->runtime, false};
    if (const PrefillRule* kin = BestRule(PrefillRules(engine->kin), *s.device, moe)) return {kin, engine->kin, true};
  }
  for (const EngineRules& other : kPrefillRules) {
    if (const PrefillRule* rule = BestRule(other.rules, *s.device, moe)) return {rule, other.runtime, true};
  }
  return {nullptr, {}, true};
}

// Seconds to read a prompt under `rule`, or 0 without a peak or a rule.
double PromptSeconds(const Scenario& s, const PrefillRule* rule, int64_t prompt_tokens) {
  if (rule == nullptr || s.device->fp16_tflops <= 0) return 0;
  return PrefillSeconds(s, *rule, PrefillFlopsOf(*s.model, prompt_tokens, 0), prompt_tokens);
}

}  // namespace

const PrefillRule* ServingPrefillRule(const Scenario& s) { return PrefillRuleOf(s).rule; }

double TimeToFirstToken(const Scenario& s, int64_t prompt_tokens) {
  return PromptSeconds(s, PrefillRuleOf(s).rule, prompt_tokens);
}

namespace {

// x^n by squaring: the same multiplications on every platform (std::pow's last bit is not, and
// the native and wasm answers must agree to the bit).
double PowerOf(double x, int64_t n) {
  double result = 1;
  for (; n > 0; n /= 2, x *= x) {
    if (n % 2 == 1) result *= x;
  }
  return result;
}

// What a decode step costs at one context, whatever the number of sequences: the weights (a MoE
// model's routed experts apart), one sequence's KV cache and state, and one token's compute.
struct StepCosts {
  WeightBytes weights;
  double expert_share = 0;  // k/E: the routed experts one token reads; 0 for a dense model
  double cache_bytes = 0;
  double compute_s = 0;     // 0: no prefill rule or peak, memory alone
};

// k/E: the share of a layer's routed experts one token reads; 0 for a dense model.
double ExpertShare(const ModelSpec& model) {
  if (!model.moe || model.moe->num_experts <= 0) return 0;
  return static_cast<double>(model.moe->experts_per_token) / static_cast<double>(model.moe->num_experts);
}

StepCosts StepCostsOf(Scenario s, const PrefillRule* rule, int64_t context) {
  StepCosts c;
  c.weights = WeightBytesOf(s);
  c.expert_share = ExpertShare(*s.model);
  if (rule != nullptr && s.device->fp16_tflops > 0) {
    c.compute_s = PrefillSecondsPerToken(s, *rule, PrefillFlopsOf(*s.model, 1, context - 1));
  }
  s.batch = 1;
  s.context_tokens = context;
  const Footprint f = FootprintOf(s);
  c.cache_bytes = f.kv_cache_bytes + f.state_bytes;
  return c;
}

// A step of `sequences` sequences: the memory reads, the weights once and, of a MoE model's
// routed experts, those any of them routes to, E × (1 − (1 − k/E)^B) of each layer's E on average
// (routing taken as uniform) [ours], under the engine's decode rule; or the compute, whichever is
// longer.
ConcurrencyPoint StepAt(const Scenario& s, const StepCosts& c, int64_t sequences) {
  const double n = static_cast<double>(sequences);
  const WeightBytes& w = c.weights;
  const double weights = c.expert_share > 0 ? w.active - w.experts_read + w.experts * (1 - PowerOf(1 - c.expert_share, sequences))
                                            : w.active;
  const double memory = DeviceDecodeSeconds(s, weights, n * c.cache_bytes);
  const double compute = n * c.compute_s;
  const double step = std::max(memory, compute);
  return ConcurrencyPoint{sequences, 1 / step, n / step, compute > memory};
}

// The largest n in [lowest, highest] for which `holds` (true at `lowest`, and false for every n
// beyond the first it fails at).
template <typename Holds>
int64_t LargestHolding(int64_t lowest, int64_t highest, Holds holds) {
  int64_t good = lowest, bad = highest + 1;
  while (bad - good > 1) {
    const int64_t middle = good + (bad - good) / 2;
    (holds(middle) ? good : bad) = middle;
  }
  return good;
}

// The most sequences of `request_tokens` each the memory admits: an engine's KV pool (vLLM's
// "maximum concurrency", SGLang's tokens), else as many slots with their whole context as fit.
int64_t MaxSequences(Scenario s, int64_t request_tokens) {
  s.context_tokens = request_tokens;
  s.batch = 1;
  if (s.runtime->kv_pool) {
    const std::optional<KvPool> pool = KvPoolOf(s);
    if (!pool) return 0;
    const double n = pool->group_layers > 0 ? pool->concurrency
                                            : static_cast<double>(pool->tokens) / static_cast<double>(request_tokens);
    return std::min<int64_t>(kMaxRequestBatch, static_cast<int64_t>(std::floor(n)));
  }
  const double capacity = CapacityGib(s);
  const auto fits = [&](int64_t batch) {
    s.batch = batch;
    s.engine.parallel = 0;  // one slot per sequence
    return RateFit(*s.runtime, FootprintOf(s).per_device_gib(), capacity) != Fit::kNoFit;
  };
  return fits(1) ? LargestHolding(1, kMaxRequestBatch, fits) : 0;
}

// The concurrency curve (1, 2, 4, … and the most admitted) and how many are served at the rate.
void FillConcurrency(const Scenario& s, int64_t prompt_tokens, int64_t output_tokens, Serving& serving) {
  const StepCosts costs = StepCostsOf(s, serving.rule, prompt_tokens + std::max<int64_t>(1, output_tokens / 2));
  serving.max_sequences = MaxSequences(s, prompt_tokens + output_tokens);
  const auto at = [&](int64_t n) { return StepAt(s, costs, n); };
  for (int64_t n = 1; n <= serving.max_sequences; n *= 2) serving.concurrency.push_back(at(n));
  if (serving.max_sequences > 0 && serving.concurrency.back().sequences != serving.max_sequences) {
    serving.concurrency.push_back(at(serving.max_sequences));
  }
  if (serving.max_sequences == 0 || at(1).per_user_tps < serving.min_user_tps) return;
  // Per-user rates fall as sequences are added.
  serving.users_at_min_tps =
      LargestHolding(1, serving.max_sequences, [&](int64_t n) { return at(n).per_user_tps >= serving.min_user_tps; });
}

// The answer's context: the prompt and half the answer, one sequence.
Scenario AnswerOf(Scenario s, const Serving& serving) {
  s.batch = 1;
  s.context_tokens = serving.prompt_tokens + std::max<int64_t>(1, serving.output_tokens / 2);
  return s;
}

// The prompt on the devices, the answer's decode at its middle and the concurrency curve.
void FillOnDevices(const Scenario& s, Serving& serving) {
  serving.ttft_s = PromptSeconds(s, serving.rule, serving.prompt_tokens);
  const Scenario answer = AnswerOf(s, serving);
  serving.decode_tps = DecodeTokensPerSecond(answer, FootprintOf(answer));
  FillConcurrency(s, serving.prompt_tokens, serving.output_tokens, serving);
}

// The prompt's figures with the offload plan's experts in RAM (section 8.3), and the answer's
// decode under the same plan at the middle of the answer; or why there are none.
ServingGap FillOffload(const Scenario& s, const OffloadPlan* plan, Serving& serving) {
  if (plan == nullptr) return ServingGap::kNoFit;
  if (plan->kind != OffloadKind::kExperts) return ServingGap::kLayersInRam;
  if (s.device->host_link_gbps <= 0) return ServingGap::kNoLink;
  const OffloadPrefillRule* copy = OffloadPrefillRuleOf(s.runtime->id);
  if (copy == nullptr) return ServingGap::kNoRule;
  const OffloadPrompt prompt =
      OffloadPromptOf(s, *serving.rule, *plan, serving.prompt_tokens, ResolvedSettings(s).ubatch);
  serving.offload = true;
  serving.ram_expert_layers = plan->ram_expert_layers;
  serving.link_gbps = s.device->host_link_gbps;
  serving.offload_rule = copy;
  serving.ttft_s = prompt.seconds;
  serving.copy_s = prompt.copy_seconds;
  serving.decode_tps = ExpertOffloadPlan(AnswerOf(s, serving), plan->ram_expert_layers).decode_tps;
  return ServingGap::kNone;
}

}  // namespace

OffloadPrompt OffloadPromptOf(const Scenario& s, const PrefillRule& rule, const OffloadPlan& plan,
                              int64_t prompt_tokens, int64_t ubatch) {
  const OffloadPrefillRule* copy_rule = OffloadPrefillRuleOf(s.runtime->id);
  if (copy_rule == nullptr || s.device->host_link_gbps <= 0) return {};
  const double link = s.device->host_link_gbps * 1e9 * copy_rule->link_efficiency;
  const double share = ExpertShare(*s.model);
  const auto copy = [&](int64_t tokens) {
    const double untouched = share > 0 ? PowerOf(1 - share, tokens) : 0;
    return (plan.ram_weight_bytes - plan.ram_expert_bytes * untouched) / link;
  };
  ubatch = std::max<int64_t>(1, ubatch);
  const int64_t full = prompt_tokens / ubatch, rest = prompt_tokens % ubatch;
  OffloadPrompt prompt;
  prompt.ubatches = full + (rest > 0 ? 1 : 0);
  prompt.copy_seconds = static_cast<double>(full) * copy(ubatch) + (rest > 0 ? copy(rest) : 0.0);
  prompt.seconds = PromptSeconds(s, &rule, prompt_tokens) + prompt.copy_seconds;
  return prompt;
}

void FillPromptTimes(const Scenario& s, int64_t prompt_tokens, Offload& offload) {
  offload.prompt_tokens = prompt_tokens;
  const PrefillRule* rule = PrefillRuleOf(s).rule;
  if (rule == nullptr || s.device->fp16_tflops <= 0) return;
  const int64_t ubatch = ResolvedSettings(s).ubatch;
  for (OffloadPlan& plan : offload.plans) {
    if (plan.kind == OffloadKind::kExperts) plan.prompt_s = OffloadPromptOf(s, *rule, plan, prompt_tokens, ubatch).seconds;
  }
}

ConcurrencyPoint DecodeAtConcurrency(const Scenario& s, const PrefillRule* rule, int64_t sequences, int64_t context) {
  return StepAt(s, StepCostsOf(s, rule, context), sequences);
}

Serving ServingOf(const Scenario& s, int64_t prompt_tokens, int64_t output_tokens, bool fits, double min_user_tps,
                  const OffloadPlan* offload) {
  Serving serving;
  serving.prompt_tokens = prompt_tokens;
  serving.output_tokens = output_tokens;
  serving.beyond_context = prompt_tokens + output_tokens > s.context_tokens;
  serving.short_prompt = prompt_tokens < kShortestCalibratedPrompt;
  serving.peak_tflops = s.device->fp16_tflops;
  serving.min_user_tps = min_user_tps;
  const RuleChoice choice = PrefillRuleOf(s);
  serving.rule = choice.rule;
  serving.rule_runtime = choice.runtime;
  serving.rule_borrowed = choice.borrowed;
  if (s.device->fp16_tflops <= 0) serving.gap = ServingGap::kNoPeak;
  else if (serving.rule == nullptr) serving.gap = ServingGap::kNoRule;
  else if (fits) FillOnDevices(s, serving);
  else serving.gap = FillOffload(s, offload, serving);
  if (serving.gap != ServingGap::kNone) return serving;
  serving.prefill_tps = static_cast<double>(prompt_tokens) / serving.ttft_s;
  serving.total_s = serving.ttft_s + static_cast<double>(std::max<int64_t>(0, output_tokens - 1)) / serving.decode_tps;
  return serving;
}

}  // namespace vramcalc
