// The estimation model (core/ESTIMATION.md), one function per formula. Every formula of a whole
// scenario takes the resolved Scenario; its constants come from the scenario's runtime profile.
// Units are in every name: *_gib is GiB (2^30 bytes), *_bytes is bytes, *_tokens is tokens.
// All inputs are assumed valid (see ValidateModel and the request parser); the functions
// themselves never fail.
#ifndef VRAMCALC_ESTIMATE_H_
#define VRAMCALC_ESTIMATE_H_

#include <array>
#include <cstdint>
#include <span>

#include "vramcalc/device.h"
#include "vramcalc/model_spec.h"
#include "vramcalc/quant_format.h"
#include "vramcalc/runtime_profile.h"
#include "vramcalc/vocab.h"

namespace vramcalc {

inline constexpr double kBytesPerGib = 1073741824.0;  // every "GB" of memory is a GiB
// The quantization matrix's contexts, with their labels: 8K, 32K, 128K.
struct MatrixContext {
  int64_t tokens;
  std::string_view label;
};
inline constexpr MatrixContext kMatrixContexts[] = {{8192, "8K"}, {32768, "32K"}, {131072, "128K"}};
inline constexpr int64_t kRecommendationContextTokens = 32768;  // "@ 32K"
// The longest context the core computes: requests may not ask for more, and a max context
// beyond it (a model whose KV cache stops growing, such as one with only windowed layers) is
// reported as this value.
inline constexpr int64_t kMaxContextTokens = int64_t{1} << 27;  // 134,217,728
inline constexpr int64_t kMaxDeviceCount = 8;  // identical devices in tensor parallel

// Everything one estimate depends on, resolved against the catalog and the tables.
struct Scenario {
  const ModelSpec* model = nullptr;
  const QuantFormat* format = nullptr;
  const KvDtype* kv_dtype = nullptr;
  int64_t context_tokens = 0;  // per sequence
  int64_t batch = 1;           // concurrent sequences
  // nullptr: no particular device (the quantization matrix); the runtime's default class then
  // sets the overhead.
  const Device* device = nullptr;
  int64_t device_count = 1;  // identical devices in tensor parallel
  const RuntimeProfile* runtime = nullptr;

  DeviceClass device_class() const { return device ? device->device_class : runtime->default_class; }
};

enum class Fit { kComfortable, kTight, kNoFit };
inline constexpr Named<Fit> kFitNames[] = {
    {Fit::kComfortable, "comfortable"}, {Fit::kTight, "tight"}, {Fit::kNoFit, "no_fit"}};
inline constexpr Vocabulary<Fit> kFits{kFitNames};

// What shrinks a model's KV cache against naive multi-head attention: grouped or multi-query
// KV heads, a latent (MLA), windowed layers, both of the first and the last, or nothing.
enum class KvCompression { kNone, kGroupedHeads, kLatent, kWindow, kGroupedHeadsAndWindow };
inline constexpr Named<KvCompression> kKvCompressionNames[] = {
    {KvCompression::kNone, "none"},
    {KvCompression::kGroupedHeads, "grouped_heads"},
    {KvCompression::kLatent, "latent"},
    {KvCompression::kWindow, "window"},
    {KvCompression::kGroupedHeadsAndWindow, "grouped_heads_window"}};
inline constexpr Vocabulary<KvCompression> kKvCompressions{kKvCompressionNames};
KvCompression KvCompressionOf(const ModelSpec& model);

// 1.1: W = P × bpw / 8 / 2^30.
double WeightsGib(double params, double bits_per_weight);

// What one sequence keeps, from the model's layer groups: per token, in tiers by how far they
// grow (tokens_cap 0: with the context; else up to tokens_cap tokens), and a fixed state.
struct KvLayout {
  struct Tier {
    int64_t tokens_cap = 0;
    double bytes_per_token = 0;
  };
  static constexpr std::size_t kMaxTiers = 8;  // distinct window sizes + 1 (ValidateModel checks)
  std::array<Tier, kMaxTiers> tiers{};  // tiers[0] is the unbounded one, then by ascending cap
  std::size_t tier_count = 1;
  double state_bytes = 0;  // per sequence, whatever the context

  std::span<const Tier> used() const { return std::span<const Tier>(tiers).first(tier_count); }
};

// 1.2 and Part 2 over the layer groups: each group caches kv_heads × (key_dim + value_dim)
// elements per token and layer (GQA: keys and values per KV head; MLA: one latent), windowed
// groups up to their window; state groups keep state_elements × state_bytes_per_element.
KvLayout KvLayoutOf(const ModelSpec& model, double kv_bytes_per_element, double state_bytes_per_element = 0);

// K(S) in bytes for `batch` sequences of `context_tokens` each (the state not included).
double KvCacheBytes(const KvLayout& layout, int64_t context_tokens, int64_t batch);

// The "naive MHA FP16" comparison: every layer stores keys and values for all its query heads
// at FP16 over the full context (for MLA models: H_q × (d_qk + d_v) per layer).
double NaiveMhaKvBytes(const ModelSpec& model, int64_t context_tokens, int64_t batch);

// 1.3: the runtime overhead of a model with `weights_gib` on one device, by `rule`.
double OverheadGib(const ModelSpec& model, double weights_gib, const OverheadRule& rule);

// Weights, KV cache, state and overhead of one scenario on its device_count identical devices
// (Part 2, tensor parallelism: each holds 1/N of the weights, the KV cache and the state, its
// own overhead for its share of the weights, and the profile's buffers when N > 1).
struct Footprint {
  double weights_gib = 0;
  double kv_cache_bytes = 0;
  double state_bytes = 0;
  double device_overhead_gib = 0;  // on each device
  int64_t device_count = 1;

  double overhead_gib() const { return static_cast<double>(device_count) * device_overhead_gib; }
  double total_gib() const {
    return weights_gib + kv_cache_bytes / kBytesPerGib + state_bytes / kBytesPerGib + overhead_gib();
  }
  double per_device_gib() const { return total_gib() / static_cast<double>(device_count); }
};
Footprint FootprintOf(const Scenario& scenario);

// 1.5: single-stream decode: every token reads the active weights, the KV cache and the state
// once, at the runtime's share of the device's bandwidth; N devices in tensor parallel run at
// N × the runtime's tensor-parallel efficiency × the one-device rate.
double DecodeTokensPerSecond(const Scenario& scenario, const Footprint& footprint);

// 1.7: r = total / memory; r ≤ the profile's comfortable ratio is comfortable, ≤ 1 tight, else
// no fit.
Fit RateFit(const RuntimeProfile& runtime, double total_gib, double memory_gib);

// 1.6: the largest context (tokens per sequence) on the scenario's device(s) before running out
// of memory: K(S) ≤ usable × M − runtime − (1 + slack) W, per device with N devices, lowered
// where needed so that the fit rating at that context is never "no fit". 0 when not even one
// token fits; capped at kMaxContextTokens; not capped at the model's max position.
int64_t MaxContextTokens(const Scenario& scenario);

}  // namespace vramcalc

#endif  // VRAMCALC_ESTIMATE_H_
