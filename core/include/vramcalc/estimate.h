// The estimation model (core/ESTIMATION.md), one function per formula. Every formula of a whole
// scenario takes the resolved Scenario; its constants come from the scenario's runtime profile.
// Units are in every name: *_gib is GiB (2^30 bytes), *_bytes is bytes, *_tokens is tokens.
// All inputs are assumed valid (see ValidateModel and the request parser); the functions
// themselves never fail.
#ifndef VRAMCALC_ESTIMATE_H_
#define VRAMCALC_ESTIMATE_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "vramcalc/device.h"
#include "vramcalc/host.h"
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

// The engine options of a scenario (runtime_profile.h EngineOption), with the profile's
// defaults filled in. Options an engine does not have keep these values and change nothing.
struct EngineSettings {
  double memory_utilization = 0;       // of the device's visible memory; 0: the profile's default
  int64_t max_num_batched_tokens = 0;  // vLLM; 0: the profile's default for the device
  int64_t max_num_seqs = 0;            // vLLM (not a request option): the profile's default
  int64_t ubatch = 0;                  // llama.cpp; 0: the profile's default
  bool flash_attention = true;         // llama.cpp
  int64_t parallel = 0;                // server slots; 0: one per sequence (batch)
};

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
  EngineSettings engine;
  Host host;  // what runs beside the devices (offload, section 7)

  DeviceClass device_class() const { return device ? device->device_class : runtime->default_class; }
};

enum class Fit { kComfortable, kTight, kNoFit };
inline constexpr Named<Fit> kFitNames[] = {
    {Fit::kComfortable, "comfortable"}, {Fit::kTight, "tight"}, {Fit::kNoFit, "no_fit"}};
inline constexpr Vocabulary<Fit> kFits{kFitNames};

// What shrinks a model's KV cache against naive multi-head attention: grouped or multi-query
// KV heads, a latent (MLA), windowed layers, both of the first and the last, a latent
// compressed along the sequence (DeepSeek-V4), or nothing.
enum class KvCompression { kNone, kGroupedHeads, kLatent, kWindow, kGroupedHeadsAndWindow, kCompressedLatent };
inline constexpr Named<KvCompression> kKvCompressionNames[] = {
    {KvCompression::kNone, "none"},
    {KvCompression::kGroupedHeads, "grouped_heads"},
    {KvCompression::kLatent, "latent"},
    {KvCompression::kWindow, "window"},
    {KvCompression::kGroupedHeadsAndWindow, "grouped_heads_window"},
    {KvCompression::kCompressedLatent, "compressed_latent"}};
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

// One layer of `group` on one of `head_divisor` tensor-parallel devices: its KV heads, max(1,
// kv_heads / N) (a latent, one "head", stays whole), and its recurrent state in bytes at
// `state_bytes_per_element`, the config's float32 elements in float32 (4 B, or the wider
// element), before it is divided among the devices.
inline int64_t KvHeadsOnDevice(const LayerGroup& group, int64_t head_divisor) {
  return head_divisor > 1 ? std::max<int64_t>(1, group.kv_heads / head_divisor) : group.kv_heads;
}
inline double StateBytesPerLayer(const LayerGroup& group, double state_bytes_per_element) {
  const double f32_bytes = state_bytes_per_element > 0 ? std::max(state_bytes_per_element, 4.0) : 0.0;
  return static_cast<double>(group.state_elements - group.state_f32_elements) * state_bytes_per_element +
         static_cast<double>(group.state_f32_elements) * f32_bytes;
}

// The model's recurrent layers (LayerKind::kState: linear attention, SSM, short convolution),
// whose state update decode pays for on top of a layer's fixed cost (section 6).
int64_t RecurrentLayers(const ModelSpec& model);

// 1.2 and Part 2 over the layer groups: each group caches kv_heads × (key_dim + value_dim) + index_dim
// elements per token and layer (GQA: keys and values per KV head; MLA: one latent), windowed
// groups up to their window; state groups keep state_elements × state_bytes_per_element.
// Compressed groups keep their window of latents plus (latent + index_dim) / compress_ratio per
// token of the whole context (ceil(S / ratio) entries, taken as S / ratio: under one entry per layer).
// With head_divisor N > 1 (tensor parallel, KvSplit::kHeadsMinOne) it is one device's share:
// max(1, kv_heads / N) heads per group, so latents (one "head") stay whole on every device.
// windows false: windowed and chunked groups keep the whole context too.
KvLayout KvLayoutOf(const ModelSpec& model, double kv_bytes_per_element, double state_bytes_per_element = 0,
                    int64_t head_divisor = 1, bool windows = true);

// How an engine allocates cells (section 5.3): every sequence's cells rounded up to `granule`; a
// windowed tier keeps at most its cap + window_extra tokens, rounded up, plus spare granules.
struct KvAllocation {
  int64_t granule = 1;
  int64_t window_extra = 0;
  int64_t window_spare_granules = 0;
};
// The cells one sequence of `context_tokens` keeps in a tier capped at `tokens_cap` (0: none).
int64_t KvCells(const KvAllocation& allocation, int64_t context_tokens, int64_t tokens_cap);

// K(S) in bytes for `batch` sequences of `context_tokens` each (the state not included).
double KvCacheBytes(const KvLayout& layout, int64_t context_tokens, int64_t batch,
                    const KvAllocation& allocation = {});

// The "naive MHA FP16" comparison: every layer stores keys and values for all its query heads
// at FP16 over the full context (for MLA models: H_q × (d_qk + d_v) per layer).
double NaiveMhaKvBytes(const ModelSpec& model, int64_t context_tokens, int64_t batch);

// 1.3: the runtime overhead of a model with `weights_gib` on one device, by `rule`.
double OverheadGib(const ModelSpec& model, double weights_gib, const OverheadRule& rule);

// A model's parameters by how formats store them (section 5.2): routed experts, the token
// embedding, the output head (0 when tied) and the body (everything else).
struct WeightParams {
  double body = 0;
  double experts = 0;
  double embedding = 0;            // the token embedding
  double per_layer_embedding = 0;  // Gemma's per-layer embeddings, stored and placed like it
  double head = 0;
};
WeightParams WeightParamsOf(const ModelSpec& model);

// The weights' bytes under the scenario's profile: on the devices (all together), in host RAM,
// and read per token on the devices (the active experts only).
struct WeightBytes {
  double device = 0;
  double host = 0;
  double active = 0;
  // Parts of `device`: the routed experts (all of them) and the output head; the rest is the
  // layers' own weights. Of `active`: the experts a token reads.
  double experts = 0;
  double head = 0;
  double experts_read = 0;
  // Of `active`: the matrix a token's logits read (the head, or the embedding a model ties to it).
  double logits_read = 0;
  // Beside `device`, on the devices too: the vision and audio towers the engine loads (never read
  // by a decoded token).
  double tower = 0;
};
WeightBytes WeightBytesOf(const Scenario& scenario);

// The engine settings the scenario runs with: its own, else the profile's defaults for its
// device and context (section 5.6).
EngineSettings ResolvedSettings(const Scenario& scenario);

// What one device may hold under the scenario's profile (section 5.1): utilization × visible
// memory − margin. The reference profile: the device's memory.
double CapacityGib(const Scenario& scenario);

// A unified-memory GPU whose operating system lets it use less of the RAM by default than a model
// needs (section 5.1), and the setting that raises it:
// - Linux on an AMD APU (Device::gpu_mapped_gib): when what fits the whole memory needs more than
//   the GTT maps by default, `amd-ttm --set <GiB>` (then a reboot);
// - macOS under the engine profiles, which rate it against the Metal working set: when what does
//   not fit that default would fit a wired limit of at most max(80 %, RAM − 5 GiB) (exo's
//   configure_mlx.sh), `sudo sysctl iogpu.wired_limit_mb=<MiB>` (until a restart).
// What it uses by default, what it must (per_device_gib and the engine's margins at its
// utilization) and the value to set, the whole GiB at least that (macOS: at most the ceiling);
// none otherwise.
enum class GpuLimit : uint8_t { kLinuxGtt, kMacosWired };
struct GpuMap {
  GpuLimit limit = GpuLimit::kLinuxGtt;
  double default_gib = 0;
  double needed_gib = 0;
  int64_t set_gib = 0;  // Linux: what `amd-ttm --set` takes; 0 on macOS
  int64_t set_mib = 0;  // macOS: what iogpu.wired_limit_mb takes; 0 on Linux
};
std::optional<GpuMap> GpuMapOf(const Scenario& scenario, double per_device_gib);
// The share of visible memory the engine uses by default on this device (SGLang: from its
// reserve); 1 for engines that take all of it.
double DefaultUtilization(const RuntimeProfile& runtime, const Device& device, int64_t device_count);

// The overhead on one device, by source (sections 5.4, 5.5; the reference profile has the first
// three and tensor_parallel).
struct OverheadParts {
  double runtime_gib = 0;
  double slack_gib = 0;
  double workspace_gib = 0;
  double tensor_parallel_gib = 0;
  double compute_gib = 0;     // llama.cpp's compute buffer (without the logits on other devices)
  double activation_gib = 0;  // vLLM's activation peak
  double non_torch_gib = 0;   // vLLM's non-torch memory
  double graphs_gib = 0;      // vLLM's CUDA graphs
  double total() const {
    return runtime_gib + slack_gib + workspace_gib + tensor_parallel_gib + compute_gib + activation_gib +
           non_torch_gib + graphs_gib;
  }
};

// Weights, KV cache, state and overhead of one scenario on its device_count identical devices
// (Part 2, tensor parallelism: each holds 1/N of the weights, the KV cache and the state, its
// own overhead for its share of the weights, and the profile's buffers when N > 1; section 5 for
// the engines: the device that holds the output layer also holds the logits).
struct Footprint {
  double weights_gib = 0;
  double vision_gib = 0;  // the vision and audio towers, split over the devices like the weights
  double host_gib = 0;  // weights and buffers in host RAM (not in device memory)
  double kv_cache_bytes = 0;
  double state_bytes = 0;
  double device_overhead_gib = 0;  // on each device
  double main_device_extra_gib = 0;  // on the device holding the output layer only
  OverheadParts parts;             // device_overhead_gib by source
  int64_t device_count = 1;

  double overhead_gib() const {
    return static_cast<double>(device_count) * device_overhead_gib + main_device_extra_gib;
  }
  double total_gib() const {
    return loaded_weights_gib() + kv_cache_bytes / kBytesPerGib + state_bytes / kBytesPerGib + overhead_gib();
  }
  // The weights and the towers: what the engine loads before any context.
  double loaded_weights_gib() const { return weights_gib + vision_gib; }
  // What the fullest device holds.
  double per_device_gib() const {
    return (total_gib() - main_device_extra_gib) / static_cast<double>(device_count) + main_device_extra_gib;
  }
};
Footprint FootprintOf(const Scenario& scenario);

// 1.5: single-stream decode: every token reads the active weights, the KV cache and the state
// once, at the runtime's share of the device's bandwidth; N devices in tensor parallel run at
// N × the runtime's tensor-parallel efficiency × the one-device rate.
double DecodeTokensPerSecond(const Scenario& scenario, const Footprint& footprint);
// One token's seconds on the scenario's device(s) reading `weight_bytes` of weights and
// `cache_bytes` of KV cache and state: by the engine's rule, else the reference formula (1.5).
double DeviceDecodeSeconds(const Scenario& scenario, double weight_bytes, double cache_bytes);
// Section 6: one token's seconds under a decode rule, reading `weight_bytes` of weights and
// `cache_bytes` of KV cache and state, on the scenario's device(s).
double DecodeSeconds(const Scenario& scenario, const DecodeRule& rule, double weight_bytes, double cache_bytes);
// The rule the scenario decodes by, else nullptr (the reference formula).
const DecodeRule* DecodeRuleOf(const Scenario& scenario);

// 1.7: r = total / capacity; r ≤ the profile's comfortable ratio is comfortable, ≤ 1 tight,
// else no fit.
Fit RateFit(const RuntimeProfile& runtime, double total_gib, double capacity_gib);

// 1.6: the largest context (tokens per sequence) on the scenario's device(s) before running out
// of memory: K(S) ≤ usable × M − runtime − (1 + slack) W, per device with N devices, lowered
// where needed so that the fit rating at that context is never "no fit". 0 when not even one
// token fits; capped at kMaxContextTokens. MaxContextTokens also stops at the model's max
// position for profiles that say so (context_within_model); MaxContextByMemory never does.
int64_t MaxContextByMemory(const Scenario& scenario);
int64_t MaxContextTokens(const Scenario& scenario);

// The KV pool an engine that preallocates one (vLLM, SGLang) reserves on each device (section
// 5.5): the capacity less weights, state and overhead. SGLang: `tokens` is the longest single
// sequence it holds, in its granules. vLLM (section 5.7): the pool in blocks of its layer groups
// (kv_pages.h), what a request of the context pins, how many such requests it holds at once
// ("Maximum concurrency for L tokens per request"), `tokens` that many times the context (its
// "GPU KV cache size" since v0.21; the longest sequence for models of one kind of layer) and the
// longest request it admits.
struct KvPool {
  double gib = 0;
  int64_t tokens = 0;
  int64_t blocks = 0;        // vLLM: num_gpu_blocks
  int64_t block_tokens = 0;  // the attention block
  int64_t groups = 0;
  int64_t group_layers = 0;  // 0: not paged in groups (SGLang, models kv_pages.h leaves out)
  int64_t padding_layers = 0;
  double request_gib = 0;
  double concurrency = 0;
  // The longest request the pool holds, up to the model's max position: vLLM takes no longer
  // max_model_len than the model's (its estimate_max_model_len searches up to max_model_len).
  int64_t longest_request = 0;
};
std::optional<KvPool> KvPoolOf(const Scenario& scenario);

}  // namespace vramcalc

#endif  // VRAMCALC_ESTIMATE_H_
