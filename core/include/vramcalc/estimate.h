// The estimation model (shared/design/estimation-model.md), one function per formula.
// Units are in every name: *_gib is GiB (2^30 bytes), *_bytes is bytes, *_tokens is tokens.
// All inputs are assumed valid (see ValidateModel and the request parser); the functions
// themselves never fail.
#ifndef VRAMCALC_ESTIMATE_H_
#define VRAMCALC_ESTIMATE_H_

#include <cstdint>

#include "vramcalc/device.h"
#include "vramcalc/model_spec.h"

namespace vramcalc {

inline constexpr double kBytesPerGib = 1073741824.0;  // every "GB" of memory is a GiB
inline constexpr int64_t kMatrixContexts[] = {8192, 32768, 131072};  // 8K, 32K, 128K
inline constexpr int64_t kRecommendationContextTokens = 32768;       // "@ 32K"
inline constexpr double kUsableFraction = 0.96;  // of device memory, for max context and ladder
// The longest context the core computes: requests may not ask for more, and a max context
// beyond it (a model whose KV cache stops growing, such as one with only windowed layers) is
// reported as this value.
inline constexpr int64_t kMaxContextTokens = int64_t{1} << 27;  // 134,217,728

// The two overhead constant sets: every non-Apple device, and Apple Silicon's unified memory.
enum class Platform { kDiscrete, kApple };
inline Platform PlatformOf(const Device& device) {
  return IsApple(device) ? Platform::kApple : Platform::kDiscrete;
}

enum class Fit { kComfortable, kTight, kNoFit };

// What shrinks a model's KV cache against naive multi-head attention: grouped or multi-query
// KV heads, a latent (MLA), windowed layers, both of the first and the last, or nothing.
enum class KvCompression { kNone, kGroupedHeads, kLatent, kWindow, kGroupedHeadsAndWindow };
KvCompression KvCompressionOf(const ModelSpec& model);

// 1.1: W = P × bpw / 8 / 2^30.
double WeightsGib(double params, double bits_per_weight);

// KV cache bytes per token of one sequence, split by how they grow with context S:
// `global_bytes` grow with S, `local_bytes` with min(S, window_tokens).
struct KvLayout {
  double global_bytes_per_token = 0;
  double local_bytes_per_token = 0;
  int64_t window_tokens = 0;
};

// 1.2 and Part 2: GQA/MHA/MQA store keys and values (2 × H_kv × d_h per layer); MLA stores one
// latent of kv_lora_rank + qk_rope_head_dim per layer; windowed layers are counted as local.
KvLayout KvLayoutOf(const ModelSpec& model, double kv_bytes_per_element);

// K(S) in bytes for `batch` sequences of `context_tokens` each.
double KvCacheBytes(const KvLayout& layout, int64_t context_tokens, int64_t batch);

// The "naive MHA FP16" comparison: every layer stores keys and values for all H_q heads at
// FP16 over the full context (for MLA models: H_q × (d_qk + d_v) per layer).
double NaiveMhaKvBytes(const ModelSpec& model, int64_t context_tokens, int64_t batch);

// Part 2, tensor parallelism over N identical devices: each holds 1/N of the weights and the KV
// cache, its own runtime overhead for its share of the weights, and 0.25 GiB of communication
// buffers; decoding runs at N × 0.9 × the one-device rate.
inline constexpr int64_t kMaxDeviceCount = 8;
inline constexpr double kTensorParallelBuffersGib = 0.25;
inline constexpr double kTensorParallelEfficiency = 0.9;

// 1.3: runtime overhead, independent of context.
// Discrete: 0.85 + 0.03 W + 0.04 + d_model × 32768 × 2 B. Apple: 0.55 + 0.015 W + d_model × 64 KiB.
double OverheadGib(const ModelSpec& model, double weights_gib, Platform platform);

// The overhead on each of `device_count` devices: O(W/N), plus the buffers when N > 1.
double PerDeviceOverheadGib(const ModelSpec& model, double weights_gib, Platform platform,
                            int64_t device_count);

// 1.5: single-stream decode rate. Every token reads the active weights once and the whole KV
// cache; the achievable share of peak bandwidth is 0.736 × the device class's efficiency
// (0.85 consumer NVIDIA, 0.80 Apple, 0.90 datacenter).
// With N > 1 devices in tensor parallel: N × 0.9 × that rate.
double DecodeTokensPerSecond(const Device& device, double params_active, double bits_per_weight,
                             double kv_cache_bytes, int64_t device_count = 1);

// 1.7: r = total / memory; r ≤ 0.90 comfortable, ≤ 1.00 tight, else no fit.
Fit RateFit(double total_gib, double memory_gib);

// 1.6: the largest context (tokens per sequence) before running out of memory:
// K(S) ≤ 0.96 M − c − (1 + s) W with (c, s) = (0.85, 0.03) discrete or (0.55, 0.015) Apple,
// lowered where needed so that the fit rating at that context is never "no fit".
// 0 when not even one token fits. Not capped at the model's max position; capped at
// kMaxContextTokens.
// With N devices it is solved per device: W and K are split N ways, the buffers come off each
// device's budget, and `per_device_overhead_gib` is PerDeviceOverheadGib().
int64_t MaxContextTokens(const KvLayout& layout, int64_t batch, double weights_gib,
                         double per_device_overhead_gib, double memory_gib, Platform platform,
                         int64_t device_count = 1);

}  // namespace vramcalc

#endif  // VRAMCALC_ESTIMATE_H_
