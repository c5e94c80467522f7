#include "vramcalc/estimate.h"

#include <algorithm>
#include <cmath>

namespace vramcalc {
namespace {

// 1.3: discrete GPUs pay a CUDA/runtime constant, 3 % allocator slack on the weights and an
// activation workspace of 0.04 GiB plus one FP16 hidden vector for a 32,768-token window.
// Apple's unified memory has a smaller runtime and half the slack; the workspace has no 0.04.
constexpr double kDiscreteRuntimeGib = 0.85;
constexpr double kDiscreteWeightSlack = 0.03;
constexpr double kDiscreteWorkspaceGib = 0.04;
constexpr double kAppleRuntimeGib = 0.55;
constexpr double kAppleWeightSlack = 0.015;
constexpr double kWorkspaceTokens = 32768;
constexpr double kActivationBytes = 2;  // FP16

// 1.5: achievable fraction of peak bandwidth, times the device class's efficiency.
constexpr double kBandwidthUtilization = 0.736;

double DecodeEfficiency(DeviceClass device_class) {
  switch (device_class) {
    case DeviceClass::kConsumer: return 0.85;
    case DeviceClass::kApple: return 0.80;
    case DeviceClass::kDatacenter: return 0.90;
  }
  return 0.85;
}

// The largest S ≥ 0 with K(S) ≤ budget_bytes for `batch` sequences, where
// K(S) = batch × (g × S + l × min(S, w)). Piecewise linear, so solved exactly per piece.
int64_t InverseKv(const KvLayout& layout, int64_t batch, double budget_bytes) {
  constexpr double kCap = static_cast<double>(kMaxContextTokens);
  if (!(budget_bytes > 0)) return 0;
  const double per_seq = budget_bytes / static_cast<double>(batch);
  const double g = layout.global_bytes_per_token;
  const double l = layout.local_bytes_per_token;
  const double w = static_cast<double>(layout.window_tokens);
  double tokens;
  if (l > 0 && per_seq >= (g + l) * w) {
    // Past the window, only the global layers grow.
    tokens = g > 0 ? (per_seq - l * w) / g : kCap;
  } else {
    tokens = per_seq / (g + l);
  }
  return static_cast<int64_t>(std::floor(std::min(tokens, kCap)));
}

}  // namespace

KvCompression KvCompressionOf(const ModelSpec& model) {
  if (model.mla) return KvCompression::kLatent;
  const bool grouped = model.num_key_value_heads < model.num_attention_heads;
  const bool windowed = model.sliding_window.has_value();
  if (grouped && windowed) return KvCompression::kGroupedHeadsAndWindow;
  if (grouped) return KvCompression::kGroupedHeads;
  if (windowed) return KvCompression::kWindow;
  return KvCompression::kNone;
}

double WeightsGib(double params, double bits_per_weight) {
  return params * bits_per_weight / 8.0 / kBytesPerGib;
}

KvLayout KvLayoutOf(const ModelSpec& model, double kv_bytes_per_element) {
  // Elements per token and layer.
  double per_layer;
  if (model.mla) {
    per_layer = static_cast<double>(model.mla->kv_lora_rank + model.mla->qk_rope_head_dim);
  } else {
    per_layer = 2.0 * static_cast<double>(model.num_key_value_heads * model.head_dim);
  }
  const double bytes_per_layer = per_layer * kv_bytes_per_element;
  KvLayout layout;
  int64_t local_layers = 0;
  if (model.sliding_window) {
    local_layers = model.sliding_window->local_layers;
    layout.window_tokens = model.sliding_window->window_tokens;
  }
  layout.global_bytes_per_token =
      bytes_per_layer * static_cast<double>(model.num_hidden_layers - local_layers);
  layout.local_bytes_per_token = bytes_per_layer * static_cast<double>(local_layers);
  return layout;
}

double KvCacheBytes(const KvLayout& layout, int64_t context_tokens, int64_t batch) {
  const double s = static_cast<double>(context_tokens);
  const double local_tokens = std::min(s, static_cast<double>(layout.window_tokens));
  return static_cast<double>(batch) *
         (layout.global_bytes_per_token * s + layout.local_bytes_per_token * local_tokens);
}

double NaiveMhaKvBytes(const ModelSpec& model, int64_t context_tokens, int64_t batch) {
  double per_layer;
  if (model.mla) {
    const double qk_dim =
        static_cast<double>(model.mla->qk_nope_head_dim + model.mla->qk_rope_head_dim);
    per_layer = static_cast<double>(model.num_attention_heads) *
                (qk_dim + static_cast<double>(model.mla->v_head_dim));
  } else {
    per_layer = 2.0 * static_cast<double>(model.num_attention_heads * model.head_dim);
  }
  return per_layer * static_cast<double>(model.num_hidden_layers) *
         static_cast<double>(context_tokens) * static_cast<double>(batch) * 2.0;
}

double OverheadGib(const ModelSpec& model, double weights_gib, Platform platform) {
  const double workspace_gib =
      static_cast<double>(model.hidden_size) * kWorkspaceTokens * kActivationBytes / kBytesPerGib;
  if (platform == Platform::kApple) {
    return kAppleRuntimeGib + kAppleWeightSlack * weights_gib + workspace_gib;
  }
  return kDiscreteRuntimeGib + kDiscreteWeightSlack * weights_gib + kDiscreteWorkspaceGib +
         workspace_gib;
}

double PerDeviceOverheadGib(const ModelSpec& model, double weights_gib, Platform platform,
                            int64_t device_count) {
  const double n = static_cast<double>(device_count);
  return OverheadGib(model, weights_gib / n, platform) +
         (device_count > 1 ? kTensorParallelBuffersGib : 0.0);
}

double DecodeTokensPerSecond(const Device& device, double params_active, double bits_per_weight,
                             double kv_cache_bytes, int64_t device_count) {
  const double bytes_per_token = params_active * bits_per_weight / 8.0 + kv_cache_bytes;
  const double one_device = device.bandwidth_gbps * 1e9 * kBandwidthUtilization *
                            DecodeEfficiency(device.device_class) / bytes_per_token;
  if (device_count <= 1) return one_device;
  return static_cast<double>(device_count) * kTensorParallelEfficiency * one_device;
}

Fit RateFit(double total_gib, double memory_gib) {
  const double ratio = total_gib / memory_gib;
  if (ratio <= 0.90) return Fit::kComfortable;
  if (ratio <= 1.00) return Fit::kTight;
  return Fit::kNoFit;
}

int64_t MaxContextTokens(const KvLayout& layout, int64_t batch, double weights_gib,
                         double per_device_overhead_gib, double memory_gib, Platform platform,
                         int64_t device_count) {
  const bool apple = platform == Platform::kApple;
  const double runtime_gib = apple ? kAppleRuntimeGib : kDiscreteRuntimeGib;
  const double slack = apple ? kAppleWeightSlack : kDiscreteWeightSlack;
  const double n = static_cast<double>(device_count);
  const double device_weights_gib = weights_gib / n;
  const double buffers_gib = device_count > 1 ? kTensorParallelBuffersGib : 0.0;
  // 1.6 as the page computes it, per device: 96 % of memory, less the runtime, the slackened
  // weights and (with N > 1) the communication buffers.
  const double budget_gib =
      kUsableFraction * memory_gib - runtime_gib - (1.0 + slack) * device_weights_gib - buffers_gib;
  // 1.7: never report a context whose total would rate "does not fit".
  const double fit_budget_gib = memory_gib - device_weights_gib - per_device_overhead_gib;
  // Each device holds 1/N of the KV cache, so all N together hold N budgets' worth.
  int64_t tokens =
      InverseKv(layout, batch, n * std::min(budget_gib, fit_budget_gib) * kBytesPerGib);
  // Guard the last ulp: step down while the rating at `tokens` would still be "no fit".
  const auto device_total_gib = [&](int64_t s) {
    return device_weights_gib + KvCacheBytes(layout, s, batch) / kBytesPerGib / n +
           per_device_overhead_gib;
  };
  for (int step = 0; step < 8 && tokens > 0 && RateFit(device_total_gib(tokens), memory_gib) == Fit::kNoFit;
       ++step) {
    --tokens;
  }
  return tokens;
}

}  // namespace vramcalc
