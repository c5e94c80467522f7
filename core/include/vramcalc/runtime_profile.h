// Runtime profiles: how one inference engine uses memory and how fast it decodes, as data.
// A profile is one entry of RuntimeProfiles(); the formulas (estimate.h) read its numbers and
// never ask which engine it is. A term an engine does not have is a zero. `reference` holds
// the constants that reproduce the reference page (core/ESTIMATION.md Part 1); the engine
// profiles (llamacpp, ollama, vllm, sglang, mlx) follow section 5.
#ifndef VRAMCALC_RUNTIME_PROFILE_H_
#define VRAMCALC_RUNTIME_PROFILE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "vramcalc/device.h"
#include "vramcalc/host.h"
#include "vramcalc/vocab.h"

namespace vramcalc {

// The runtime overhead on one device (estimation model 1.3), independent of the context:
// runtime_gib + weight_slack × W + workspace_gib + hidden × workspace_tokens × 2 B (one FP16
// hidden vector per workspace token).
struct OverheadRule {
  double runtime_gib = 0;       // the engine's own allocation: CUDA context, Metal runtime
  double weight_slack = 0;      // allocator slack, as a share of the weights on the device
  double workspace_gib = 0;     // a fixed activation workspace
  double workspace_tokens = 0;  // tokens of FP16 hidden activations
};

// Options a request may set for the engines that have them (section 5.6). A profile names the
// ones it takes; the others are an error for it.
enum EngineOption : unsigned {
  kOptionMemoryUtilization = 1u << 0,  // vLLM --gpu-memory-utilization, SGLang --mem-fraction-static
  kOptionMaxNumBatchedTokens = 1u << 1,  // vLLM --max-num-batched-tokens
  kOptionUbatch = 1u << 2,              // llama.cpp -ub
  kOptionFlashAttention = 1u << 3,      // llama.cpp -fa on|off
  kOptionParallel = 1u << 4,            // llama-server -np, OLLAMA_NUM_PARALLEL
};
// By request field name (evaluate.h kRequestFields).
inline constexpr Named<EngineOption> kEngineOptionNames[] = {
    {kOptionMemoryUtilization, "memory_utilization"}, {kOptionMaxNumBatchedTokens, "max_num_batched_tokens"},
    {kOptionUbatch, "ubatch"},                        {kOptionFlashAttention, "flash_attention"},
    {kOptionParallel, "parallel"}};
inline constexpr Vocabulary<EngineOption> kEngineOptions{kEngineOptionNames};

// How much of a device the engine may fill (section 5.1): utilization × visible memory − margin,
// where an Apple device's visible memory is its Metal working set (device.h WorkingSetGib).
// With reserve tiers (SGLang) the default utilization is (M − reserve) / M instead.
struct ReserveTier {
  double below_gib;         // devices with less memory than this (the last tier: any)
  int64_t chunk_tokens;     // chunked prefill size
  int64_t graph_batch;      // CUDA-graph batch size below 4 devices
  int64_t graph_batch_tp4;  // with 4 or more devices in tensor parallel
};
struct CapacityRule {
  bool working_set = false;        // Apple: the Metal working set, not the whole RAM
  double default_utilization = 1;  // of the visible memory
  double margin_gib = 0;           // left free on every device (llama.cpp --fit-target)
  double tower_margin_gib = 0;     // and beside a model's vision and audio towers (Ollama)
  // SGLang's reserve in MiB: base + per_chunk_token × max(chunk, min_chunk) + per_graph_seq ×
  // graph batch + per_device × devices, at least floor_mib on devices above floor_above_gib.
  std::span<const ReserveTier> reserve_tiers;
  double reserve_base_mib = 0, reserve_per_chunk_token_mib = 0, reserve_min_chunk_tokens = 0,
         reserve_per_graph_seq_mib = 0, reserve_per_device_mib = 0, reserve_floor_mib = 0,
         reserve_floor_above_gib = 0;
};

// Where the weights live and how many bytes they take (section 5.2).
enum class WeightsRule {
  kFlat,      // reference: P × the format's effective bits (estimation model 1.1)
  kAsStored,  // body, experts, embedding and head at the format's stored bits
};
struct WeightsPlacement {
  WeightsRule rule = WeightsRule::kFlat;
  bool embedding_on_host = false;  // llama.cpp keeps token_embd in host RAM
  bool tied_head_copy = false;     // llama.cpp duplicates a tied embedding as the output head
  // A multimodal model's vision and audio towers, loaded beside the weights at this many bytes a
  // parameter (llama.cpp's mmproj file in F16, a checkpoint's BF16 tower); 0: not loaded.
  double tower_bytes_per_param = 0;
  // The engine loads GGUF files, so its 16-bit format is a converted file (convert_hf_to_gguf),
  // which keeps a checkpoint's MXFP4 experts as they are (engine_memory.cc KeepsMxfp4Experts).
  bool gguf_files = false;
};

// How the KV cache is allocated (section 5.3). Cells per sequence are rounded up to the granule;
// a windowed layer keeps min(context, window + extra) cells, extra being the engine's step
// (llama.cpp: the ubatch; vLLM: max_num_batched_tokens − 1) plus spare granules.
enum class WindowExtra { kNone, kUbatch, kBatchedTokensMinusOne };
enum class KvSplit {
  kEven,           // reference, llama.cpp's layer split: 1/N of the cache on each device
  kHeadsMinOne,    // tensor parallel: KV heads / N, at least one per device; latents whole
};
struct KvRule {
  int64_t granule_tokens = 1;
  WindowExtra window_extra = WindowExtra::kNone;
  int64_t window_spare_granules = 0;
  KvSplit split = KvSplit::kEven;
  double state_bytes_per_element = 0;  // recurrent layers' state (LayerKind::kState)
  // vLLM's hybrid KV cache manager (kv_pages.h): the pool in blocks of layer groups, a state
  // group taking state_blocks blocks per request; 0: no such allocator.
  int64_t state_blocks = 0;
  // A model with chunked local attention keeps every layer whole (vLLM: the hybrid manager off).
  bool chunked_whole = false;
};

// llama.cpp's compute buffer on the device holding the output layer (section 5.4), in bytes, with
// ub the ubatch, n the KV cells of one sequence, V the vocabulary, H the hidden size, h heads:
// flash attention on:  ub·(V+H)·logits + ub·n·fa_mask + ub·H·fa_hidden
// flash attention off: max(ub·(V+H)·logits, ub·n·(h+1)·scores + ub·H·scores_hidden)
// Other devices of a layer split carry the same without the logits term.
struct ComputeRule {
  double logits = 0, fa_mask = 0, fa_hidden = 0, scores = 0, scores_hidden = 0;
};

// vLLM's reservations besides weights and KV cache (section 5.5), per device, in GiB unless
// named: the activation peak of its profiling run, max(forward, sampler) + base, where the
// forward pass of max_num_batched_tokens tokens holds forward_bytes × (3 × MLP width / N + 3 ×
// hidden) per token and the sampler pass sampler_bytes per sequence and vocabulary entry; the
// non-torch memory it measures (NCCL and cuBLAS buffers; more with tensor parallelism); and its
// CUDA-graph estimate, graphs_base + graphs_per_billion × billions of active parameters per device.
struct ActivationRule {
  double forward_bytes = 0;
  double sampler_bytes = 0;
  double base_gib = 0;
  double non_torch_gib = 0;
  double non_torch_multi_gib = 0;  // with more than one device
  double graphs_base_gib = 0;
  double graphs_per_billion_gib = 0;
};

// Decode at batch 1 under an engine profile (estimation model section 6): one token takes
// t = weights read / (bandwidth × efficiency) + KV cache read / (bandwidth × kv_efficiency)
// + t0 × layers / 32 + ts × recurrent layers / 32, t0 the fixed per-token cost of kernel
// launches and synchronization, ts what 32 recurrent layers (linear attention, SSM, short
// convolution: LayerKind::kState) cost on top, their state update's kernels. A rule holds for
// the devices of one platform and class (and unified memory or not) from a bandwidth up, for
// dense or mixture-of-experts models; its constants are fitted to a cited calibration set
// (tests/calibration/decode.json) with a hold-out split by source, and its error is recorded
// beside them for the page to show: `error` on the rows it was fitted to, `holdout` on the rows
// of the held-out sources (0 points: none, unknown).
enum class Tristate : uint8_t { kAny, kNo, kYes };
inline constexpr Named<Tristate> kTristateNames[] = {{Tristate::kAny, "any"}, {Tristate::kNo, "no"}, {Tristate::kYes, "yes"}};
inline constexpr Vocabulary<Tristate> kTristates{kTristateNames};
// A rule constant written with log10(Scale) decimals, held as that many units (0.977 as 977
// thousandths) and read as the double it was written as (an integer over a power of ten rounds to
// the literal's double): the rule tables hold hundreds of such figures, and as doubles they cost
// the first module bytes it does not have.
template <int Scale, typename Units = int32_t>
struct Decimal {
  Units units = 0;
  constexpr Decimal() = default;
  constexpr Decimal(double value)  // NOLINT(google-explicit-constructor): the tables' literals
      : units(static_cast<Units>(value * Scale + (value < 0 ? -0.5 : 0.5))) {}
  constexpr operator double() const { return units / static_cast<double>(Scale); }  // NOLINT
};
// Hundredths of a percent (Decimal<100>'s units), read through Percent().
struct DecodeError {
  int points = 0;               // calibration rows the error is taken over
  int32_t median_pct = 0;       // |predicted / measured − 1|, in hundredths of a percent
  int32_t p90_pct = 0;
  int32_t worst_pct = 0;
  constexpr DecodeError() = default;
  constexpr DecodeError(int rows, double median, double p90, double worst)
      : points(rows),
        median_pct(Decimal<100>(median).units),
        p90_pct(Decimal<100>(p90).units),
        worst_pct(Decimal<100>(worst).units) {}
};
// A recorded error in percent, the two-decimal figure it was written as (826 reads 8.26).
constexpr double Percent(int32_t hundredths) { return hundredths / 100.0; }
struct DecodeRule {
  Platform platform = Platform::kCuda;
  std::optional<DeviceClass> device_class;  // none: any class
  Tristate unified_memory = Tristate::kAny;
  Decimal<1> from_bandwidth_gbps = 0;  // tiers: Apple's base and Pro, Max, Ultra; HBM; ROCm's 7900s
  // From a GPU architecture version (Device::compute_capability: Apple's M5 is Metal GPU family
  // 10); a byte in the padding before `moe`.
  Decimal<10, uint8_t> from_compute_capability = 0;
  Tristate moe = Tristate::kAny;   // mixture-of-experts models, dense ones, or both
  Decimal<1000> efficiency = 0;       // η: the share of peak bandwidth a token's weight reads reach
  Decimal<1000> kv_efficiency = 0;    // the same for the KV cache's reads (attention kernels are slower)
  Decimal<100> t0_ms_per_32_layers = 0;
  Decimal<100> state_ms_per_32_layers = 0;  // ts: 0 where the rule's fit runs cannot fix it
  DecodeError error;           // on the rows it was fitted to
  DecodeError holdout;         // on the held-out sources' rows
  // The arithmetic a weight costs the format's dequantizing kernels (QuantFormat::decode_kernels:
  // [0] the 32-weight blocks, [1] the K-quants), in operations at the device's FP16 rate: a token's
  // weights take the longer of their bytes at η × bandwidth and this. 0: not measured (no term).
  Decimal<10, uint16_t> ops_per_weight[2] = {};
};
// Published batch-1 runs of an engine on devices none of its decode rules holds for: a rule's
// scope and `error`, the error of the reference page's constants on them (section 6; nothing is
// fitted to them, so it is all out of sample; its constants and `holdout` stay 0).
// tests/core/decode_calibration_test.cc recomputes it. A DecodeRule, so that one BestRule picks
// both (the first module's bytes).
using DecodeCheck = DecodeRule;
// Prompt processing (prefill) of one sequence under an engine profile (estimation model section
// 8): a prompt token takes t = matmul FLOPs / (peak × efficiency) + attention FLOPs at its depth /
// (FP16 peak × attention_efficiency), peak the device's dense FP16 TFLOPS (device.h) or, for GGUF
// integer quants under a rule whose engine multiplies them as such (llama.cpp's MMQ kernels: int8
// dot products on the quantized blocks), its INT8 TOPS where it has INT8 units; matmul FLOPs 2
// × the active parameters but the embeddings, attention FLOPs 2 × query heads × (key + value
// dims) × the keys a layer attends to, summed over the attention layers. A rule holds for a
// platform and class, like a decode rule; its constants are fitted to a cited calibration set
// (tests/calibration/prefill.json) with a hold-out split by source, and its errors recorded
// beside them. The rules are the engines' data like the rest of a profile, but kept beside the
// serving estimate (serving.h PrefillRules), which only vramcalc-full.wasm and the CLI carry.
struct PrefillRule {
  Platform platform = Platform::kCuda;
  std::optional<DeviceClass> device_class;  // none: any class
  Tristate unified_memory = Tristate::kAny;
  double from_bandwidth_gbps = 0;
  Decimal<10, uint8_t> from_compute_capability = 0;  // as a decode rule's
  Tristate moe = Tristate::kAny;
  bool integer_quants_on_int8 = false;  // GGUF integer quants: the INT8 peak (serving.h PrefillPeak)
  double efficiency = 0;            // the share of the peak the weights' matmuls reach
  // The same for attention over the context with flash attention (the engines' default), and
  // without it (llama.cpp's -fa off), where the rule's runs at depth hold both; else the two are one.
  double attention_efficiency = 0;
  double attention_efficiency_without_fa = 0;
  DecodeError error;
  DecodeError holdout;
  // A fixed time per prompt, in ms, where the rule's runs time whole requests (mlx-lm's
  // stream_generate, llama-benchy's HTTP requests to vLLM and SGLang) at two prompt lengths or
  // more of one model, which separate it from the per-token time; 0 elsewhere (llama-bench times
  // only the prompt's batches).
  double prompt_ms = 0;
};

// Several devices: a layer split reads one device after another, a token no faster than on one
// device, plus a hop per extra device; tensor parallelism reads 1/N on each device, plus an
// all-reduce twice per layer.
enum class SplitKind { kTensorParallel, kLayers };
struct MultiDeviceRule {
  SplitKind split = SplitKind::kTensorParallel;
  std::array<double, kDeviceClassCount> hop_ms{};  // layer split, per extra device, by DeviceClass
  std::array<double, kDeviceClassCount> allreduce_us{};  // tensor parallel, per all-reduce, by DeviceClass
  double HopMs(DeviceClass device_class) const { return hop_ms[static_cast<std::size_t>(device_class)]; }
  double AllreduceUs(DeviceClass device_class) const { return allreduce_us[static_cast<std::size_t>(device_class)]; }
};

// Offload to host RAM (core/ESTIMATION.md section 7): what does not fit on the devices stays in
// RAM, whole layers (llama.cpp -ngl) or the routed experts of some layers (--n-cpu-moe), and a
// token then also reads those bytes at the RAM efficiency of the host's memory generation × its
// peak bandwidth and pays cpu_layer_ms for every layer with weights in RAM (the CPU's share of
// the graph, its synchronization with the devices). Fitted to tests/calibration/offload.json
// with a hold-out split by source: `error` on the fitted runs, `holdout` on the others.
struct OffloadRule {
  bool layers = false;   // whole layers to RAM
  bool experts = false;  // routed experts to RAM
  std::array<double, kMemoryGenerationCount> ram_efficiency{};  // by MemoryGeneration
  double cpu_layer_ms = 0;
  double host_reserve_gib = 0;  // RAM the system and other programs keep
  bool towers_in_ram_when_split = false;  // the towers run on the CPU when some layers do
  DecodeError error;
  DecodeError holdout;

  double RamEfficiency(MemoryGeneration generation) const {
    return ram_efficiency[static_cast<std::size_t>(generation)];
  }
};

// What the request's engine options default to.
struct EngineDefaults {
  int64_t ubatch = 0;                 // llama.cpp -ub
  bool flash_attention = true;        // llama.cpp -fa auto turns it on where supported
  // vLLM's max_num_batched_tokens and max_num_seqs: the large pair on devices with at least
  // large_memory_gib whose id does not start with one of small_batch_devices, else the small
  // pair (EngineArgs.get_batch_defaults for the OpenAI server).
  int64_t small_batched_tokens = 0, large_batched_tokens = 0;
  int64_t small_max_seqs = 0, large_max_seqs = 0;
  double large_memory_gib = 0;
  std::span<const std::string_view> small_batch_devices;
  // Ollama picks its batch by context × slots: above_tokens → ubatch, in ascending order.
  struct UbatchTier {
    int64_t above_tokens;
    int64_t ubatch;
  };
  std::span<const UbatchTier> ubatch_tiers;
};

struct RuntimeProfile {
  std::string_view id;  // request id: "reference", "llamacpp", ...
  // What it runs: formats (QuantFormat ids, the matrix's rows in order), KV cache types, the
  // device classes, tensor or layer split, and the request options it takes.
  std::span<const std::string_view> formats;
  std::string_view default_format;  // what the page picks when switching to this engine
  std::span<const std::string_view> kv_dtypes;
  std::array<bool, kPlatformCount> runs_on{true, true, true, true};  // by Platform
  // The lowest CUDA compute capability it supports (0: any); a device whose capability is not
  // known (0) is taken to have it.
  double min_compute_capability = 0;
  // The CUDA compute capability from which it replays a token's kernels as a CUDA graph, as its
  // decode rules assume (0: not modelled); below it, decode is slower than they say.
  double cuda_graphs_from = 0;
  bool multi_device = true;
  unsigned options = 0;  // EngineOption bits
  EngineDefaults defaults;
  // Memory.
  CapacityRule capacity;
  double usable_fraction = 0;  // of the capacity, for the max context and the recommended class
  bool context_within_model = false;  // the max context stops at the model's max position
  WeightsPlacement weights;
  KvRule kv;
  bool kv_pool = false;  // preallocates a KV pool in what is left (vLLM, SGLang): KvPoolOf
  std::array<OverheadRule, kDeviceClassCount> overhead{};  // by DeviceClass
  DeviceClass default_class = DeviceClass::kConsumer;  // when a scenario names no device (the matrix)
  double tensor_parallel_buffers_gib = 0;  // per device, with more than one device
  ComputeRule compute;
  ActivationRule activation;
  double comfortable_ratio = 0;  // per-device total / capacity up to this rates "comfortable" (1.7)
  // Decode at batch 1 by the engine's rules (section 6); without rules, the reference page's
  // formula (1.5): bandwidth × utilization × the class's efficiency / bytes per token; N devices
  // in tensor parallel: N × tensor_parallel_efficiency × that.
  std::span<const DecodeRule> decode;
  std::span<const DecodeCheck> decode_checks;  // where no rule holds but published runs exist
  MultiDeviceRule multi_device_decode;
  const OffloadRule* offload = nullptr;  // none: the engine runs only what fits on the devices
  double bandwidth_utilization = 0;
  std::array<double, kDeviceClassCount> decode_efficiency{};  // by DeviceClass
  double tensor_parallel_efficiency = 0;
  // The commands shown with an estimate, by template id (commands.h), in order.
  std::span<const std::string_view> commands;

  const OverheadRule& OverheadFor(DeviceClass device_class) const {
    return overhead[static_cast<std::size_t>(device_class)];
  }
  double DecodeEfficiency(DeviceClass device_class) const {
    return decode_efficiency[static_cast<std::size_t>(device_class)];
  }
  bool RunsOn(Platform platform) const { return runs_on[static_cast<std::size_t>(platform)]; }
  bool RunsOn(const Device& device) const;
  // A CUDA device below the compute capability the engine needs.
  bool TooOld(const Device& device) const;
  bool Takes(EngineOption option) const { return (options & option) != 0; }
  // The decode rule for a device and model kind, else nullptr: among the rules that hold, the
  // one naming the most (class, unified memory, MoE), then the highest bandwidth tier reached.
  const DecodeRule* DecodeRuleFor(const Device& device, bool moe) const;
};

// The most specific of `rules` that holds for the device and a model (MoE or not): the one naming
// the most of class, unified memory and MoE, then the higher bandwidth tier; nullptr when none
// holds. For DecodeRule and PrefillRule.
template <typename Rule>
const Rule* BestRule(std::span<const Rule> rules, const Device& device, bool moe);

inline constexpr std::string_view kDefaultRuntimeId = "reference";

std::span<const RuntimeProfile> RuntimeProfiles();
// nullptr when `id` is not a profile's id.
const RuntimeProfile* FindRuntimeProfile(std::string_view id);
// What a profile reproduces, for people: an engine and its version; empty for an id that is not a
// profile's. In a translation unit of its own (table_notes.cc): the page's first module, which
// shows none, links without them.
std::string_view RuntimeProfileModels(std::string_view id);
// Whether `runtime` offers the format or KV cache type `id`.
bool OffersFormat(const RuntimeProfile& runtime, std::string_view id);
bool OffersKvDtype(const RuntimeProfile& runtime, std::string_view id);

}  // namespace vramcalc

#endif  // VRAMCALC_RUNTIME_PROFILE_H_
