// The engine profiles' memory terms (core/ESTIMATION.md section 5): capacity, settings, weights as
// stored, llama.cpp's compute buffer and vLLM's reservations. Every number comes from the
// scenario's runtime profile; the reference profile's entries make each term reduce to Part 1.
#include <algorithm>
#include <cmath>

#include "estimate/engine_memory.h"
#include "vramcalc/estimate.h"

namespace vramcalc {
namespace {

constexpr double kMibPerGib = 1024;

// Apple's Metal working set (recommendedMaxWorkingSetSize) as a share of RAM, as macOS 26 and 27
// report it: a share that steps up with the RAM (the values are that share of the GiB, to a 16 KiB
// page), each step from the next size Apple sells after the last one measured below it:
// - 74 %: 12,713.12 MB of 16 GB (llama.cpp's logs on M4 Macs, "mem_total=12713115648"; "12.7 GB
//   Metal working set" on 26.6.2, carloslfu/slotstream#5);
// - 78 % from 32 GB: "30.2 GB Metal working set" of 36 GB on 26.0.1 (slotstream#26); 40,200.90 MB
//   of 48 GB (llama.cpp#16634);
// - 81 % from 64 GB: "55.7 GB" of 64 GB on 27.0 (slotstream#22); 83,494.17 MB of 96 GB ("= 77.76
//   GiB, on a 96 GiB machine", koriym/llm-switch README @ f65b2be);
// - 84 % from 128 GB: 107.52 GiB of 128 GB on 26.x (antirez/ds4#893); 165,150 MiB of 192 GB
//   (llama.cpp#18919). Below 16 GB and above 192 GB no macOS 26 value was found: the nearest step
//   is kept.
// Before macOS 26 it was 2/3 up to 32 GB and 3/4 above (73,728 MiB of 96 GB, llama.cpp#3213).
// In whole percent: the first module carries this, and every byte of it counts.
int WorkingSetPercent(double memory_gib) {
  return memory_gib >= 128 ? 84 : memory_gib >= 64 ? 81 : memory_gib >= 32 ? 78 : 74;
}

int64_t RoundUp(int64_t value, int64_t granule) {
  return granule <= 1 ? value : (value + granule - 1) / granule * granule;
}

// vLLM's device tier: enough memory and not on the list of exceptions (A100: "Setting large
// max_num_batched_tokens for A100 reduces throughput", vLLM PR #17885).
bool LargeBatchDevice(const EngineDefaults& defaults, const Device& device) {
  if (defaults.large_memory_gib <= 0 || device.memory_gib < defaults.large_memory_gib) return false;
  return std::none_of(defaults.small_batch_devices.begin(), defaults.small_batch_devices.end(),
                      [&device](std::string_view prefix) { return device.id.starts_with(prefix); });
}

}  // namespace

double VisibleMemoryGib(const RuntimeProfile& runtime, const Device& device) {
  if (!runtime.capacity.working_set || device.platform != Platform::kMetal) return device.memory_gib;
  return WorkingSetPercent(device.memory_gib) * device.memory_gib / 100;
}

namespace {

// What the GPU must be let use for `per_device_gib` to fit: the engine's margins are those of
// capacity = u × visible − margins, the same under any limit (`capacity`: CapacityGib(s)).
double NeededGib(const Scenario& s, double per_device_gib, double capacity) {
  const double utilization = ResolvedSettings(s).memory_utilization;
  const double margins = utilization * VisibleMemoryGib(*s.runtime, *s.device) - capacity;
  return (per_device_gib + margins) / utilization;
}

// The highest wired limit this offers on macOS: what exo's configure_mlx.sh sets (exo-explore/exo
// @ 191553a), max(80 % of the RAM, the RAM less 5 GiB), in MiB as it computes it. mlx-lm's README
// (ml-explore/mlx-lm @ 0130d3b, "Large Models") only asks for less than the RAM.
int64_t WiredCeilingMib(const Device& device) {
  const auto total_mib = static_cast<int64_t>(device.memory_gib * kMibPerGib);
  return std::max(total_mib * 80 / 100, total_mib - 5 * static_cast<int64_t>(kMibPerGib));
}

std::optional<GpuMap> MacosWiredLimit(const Scenario& s, double per_device_gib) {
  const double capacity = CapacityGib(s);
  if (per_device_gib <= capacity) return std::nullopt;
  const double needed = NeededGib(s, per_device_gib, capacity);
  const int64_t ceiling = WiredCeilingMib(*s.device);
  if (needed * kMibPerGib > static_cast<double>(ceiling)) return std::nullopt;
  const auto whole_gib = static_cast<int64_t>(std::ceil(needed) * kMibPerGib);
  return GpuMap{GpuLimit::kMacosWired, VisibleMemoryGib(*s.runtime, *s.device), needed, 0, std::min(whole_gib, ceiling)};
}

}  // namespace

int64_t RaisedWiredMaxContext(const Scenario& s) {
  // The Mac as the raised limit leaves it: a device of that much memory, all of it the GPU's. (The
  // engines that run on a Mac read a device's memory only through its working set.)
  Device raised = *s.device;
  raised.memory_gib = static_cast<double>(WiredCeilingMib(*s.device)) / kMibPerGib;
  RuntimeProfile runtime = *s.runtime;
  runtime.capacity.working_set = false;
  Scenario at = s;
  at.device = &raised;
  at.runtime = &runtime;
  return MaxContextByMemory(at);
}

std::optional<GpuMap> GpuMapOf(const Scenario& s, double per_device_gib) {
  if (s.runtime->capacity.working_set && s.device->platform == Platform::kMetal) return MacosWiredLimit(s, per_device_gib);
  const double mapped = s.device->gpu_mapped_gib;
  if (mapped <= 0) return std::nullopt;
  const double capacity = CapacityGib(s);
  if (per_device_gib > capacity) return std::nullopt;
  const double needed = NeededGib(s, per_device_gib, capacity);
  if (needed <= mapped) return std::nullopt;
  return GpuMap{GpuLimit::kLinuxGtt, mapped, needed, static_cast<int64_t>(std::ceil(needed)), 0};
}

double DefaultUtilization(const RuntimeProfile& runtime, const Device& device, int64_t device_count) {
  const CapacityRule& rule = runtime.capacity;
  if (rule.reserve_tiers.empty()) return rule.default_utilization;
  const double memory_mib = device.memory_gib * kMibPerGib;
  const ReserveTier* tier = &rule.reserve_tiers.back();
  for (const ReserveTier& candidate : rule.reserve_tiers) {
    if (device.memory_gib < candidate.below_gib) {
      tier = &candidate;
      break;
    }
  }
  const double graph_batch = static_cast<double>(device_count >= 4 ? tier->graph_batch_tp4 : tier->graph_batch);
  double reserve_mib =
      rule.reserve_base_mib +
      rule.reserve_per_chunk_token_mib *
          std::max(static_cast<double>(tier->chunk_tokens), rule.reserve_min_chunk_tokens) +
      rule.reserve_per_graph_seq_mib * graph_batch + rule.reserve_per_device_mib * static_cast<double>(device_count);
  if (device.memory_gib > rule.reserve_floor_above_gib) reserve_mib = std::max(reserve_mib, rule.reserve_floor_mib);
  // SGLang rounds the fraction to three decimals.
  return std::round((memory_mib - reserve_mib) / memory_mib * 1000.0) / 1000.0;
}

EngineSettings ResolvedSettings(const Scenario& s) {
  const RuntimeProfile& runtime = *s.runtime;
  const EngineDefaults& defaults = runtime.defaults;
  EngineSettings settings = s.engine;
  if (settings.parallel == 0) settings.parallel = s.batch;
  settings.parallel = std::max(settings.parallel, s.batch);
  if (!runtime.Takes(kOptionFlashAttention)) settings.flash_attention = defaults.flash_attention;
  if (settings.memory_utilization == 0 || !runtime.Takes(kOptionMemoryUtilization)) {
    settings.memory_utilization =
        s.device ? DefaultUtilization(runtime, *s.device, s.device_count) : runtime.capacity.default_utilization;
  }
  const bool large = s.device && LargeBatchDevice(defaults, *s.device);
  if (settings.max_num_batched_tokens == 0) {
    settings.max_num_batched_tokens = large ? defaults.large_batched_tokens : defaults.small_batched_tokens;
  }
  if (settings.max_num_seqs == 0) settings.max_num_seqs = large ? defaults.large_max_seqs : defaults.small_max_seqs;
  if (settings.ubatch == 0) {
    settings.ubatch = defaults.ubatch;
    for (const EngineDefaults::UbatchTier& tier : defaults.ubatch_tiers) {
      if (s.context_tokens * settings.parallel > tier.above_tokens) settings.ubatch = tier.ubatch;
    }
  }
  return settings;
}

namespace {

// The vision and audio towers the engine loads (section 5.2): the bytes a model description's
// file states for them (an mmproj, a checkpoint's tower tensors) where that file is the request's
// format or the model names no parameter count, else the parameters at the engine's precision.
double TowerBytes(const Scenario& s) {
  const double per_param = s.runtime->weights.tower_bytes_per_param;
  if (per_param == 0) return 0;
  const MeasuredWeights* file = s.model->weights ? &*s.model->weights : nullptr;
  if (file && file->vision > 0 && (s.model->WeightsIn(s.format->id) || s.model->vision_params == 0)) return file->vision;
  return s.model->vision_params * per_param;
}

}  // namespace

double CapacityGib(const Scenario& s) {
  const RuntimeProfile& runtime = *s.runtime;
  const double utilization = ResolvedSettings(s).memory_utilization;
  const double towers_margin = runtime.capacity.tower_margin_gib > 0 && TowerBytes(s) > 0 ? runtime.capacity.tower_margin_gib : 0;
  return utilization * VisibleMemoryGib(runtime, *s.device) - runtime.capacity.margin_gib - towers_margin;
}

int64_t KvCells(const KvAllocation& allocation, int64_t context_tokens, int64_t tokens_cap) {
  const int64_t cells = RoundUp(context_tokens, allocation.granule);
  if (tokens_cap == 0) return cells;
  const int64_t window = RoundUp(tokens_cap + allocation.window_extra, allocation.granule) +
                         allocation.window_spare_granules * allocation.granule;
  return std::min(cells, window);
}

KvAllocation AllocationOf(const RuntimeProfile& runtime, const EngineSettings& settings) {
  KvAllocation allocation;
  allocation.granule = runtime.kv.granule_tokens;
  allocation.window_spare_granules = runtime.kv.window_spare_granules;
  switch (runtime.kv.window_extra) {
    case WindowExtra::kNone:
      break;
    case WindowExtra::kUbatch:
      allocation.window_extra = settings.ubatch;
      break;
    case WindowExtra::kBatchedTokensMinusOne:
      allocation.window_extra = settings.max_num_batched_tokens - 1;
      break;
  }
  return allocation;
}

WeightParams WeightParamsOf(const ModelSpec& m) {
  WeightParams params;
  const double matrix = static_cast<double>(m.vocab_size) * static_cast<double>(m.hidden_size);
  params.embedding = matrix;
  params.head = m.tie_word_embeddings ? 0 : matrix;
  // Routed experts: as the model states them, else from total and active, which differ by the
  // experts a token does not use, (E − k) of E.
  if (m.moe && m.moe->expert_params > 0) {
    params.experts = m.moe->expert_params;
  } else if (m.moe && m.moe->num_experts > m.moe->experts_per_token) {
    const double unused_share = static_cast<double>(m.moe->num_experts - m.moe->experts_per_token) /
                                static_cast<double>(m.moe->num_experts);
    params.experts = (m.params_total - m.params_active) / unused_share;
  }
  params.per_layer_embedding = m.per_layer_embedding_params;
  const double lookups = params.embedding + params.per_layer_embedding + params.head;
  params.experts = std::min(params.experts, std::max(0.0, m.params_total - lookups));
  params.body = std::max(0.0, m.params_total - params.experts - lookups);
  return params;
}

namespace {
// Whether the weights keep the routed experts of a checkpoint published in MXFP4 (gpt-oss) as
// they are: a GGUF file does whatever its type, its 16-bit one included (model_spec.h
// GgufKeepsPublishedExperts: GptOssModel.dequant_model and repack_mxfp4), as the published files
// show (unsloth's gpt-oss-20b Q2_K to Q5_K_M 11.5 to 11.7 GB, its F16 13.8 GB;
// tests/calibration/weight-sizes.json).
bool KeepsMxfp4Experts(const Scenario& s) {
  const bool gguf = s.format->family == WeightFamily::kGguf || s.runtime->weights.gguf_files;
  return gguf && s.model->GgufKeepsPublishedExperts();
}

// The bits of a format for a model: where GGUF's 256-weight blocks do not divide the hidden size,
// the token embedding falls back and the head (a tied embedding's too) takes Q8_0, 34 B per 32
// weights (quant_format.h StoredBits::hidden_fallback); MXFP4 experts kept take its 17 B per 32.
StoredBits BitsOf(const Scenario& s) {
  const QuantFormat& format = *s.format;
  const ModelSpec& m = *s.model;
  StoredBits bits = format.stored;
  if (KeepsMxfp4Experts(s)) bits.experts = bits.expert_down = 17.0f * 8 / 32;
  if (format.family != WeightFamily::kGguf || m.hidden_size % 256 == 0) return bits;
  bits.embedding = bits.embedding_fallback;
  bits.head = 34.0f * 8 / 32;
  return bits;
}
}  // namespace

WeightBytes WeightBytesOf(const Scenario& s) {
  const RuntimeProfile& runtime = *s.runtime;
  const QuantFormat& format = *s.format;
  const ModelSpec& m = *s.model;
  WeightBytes bytes;
  if (runtime.weights.rule == WeightsRule::kFlat) {
    bytes.device = m.params_total * format.bits_per_weight / 8.0;
    bytes.active = m.params_active * format.bits_per_weight / 8.0;
    return bytes;
  }
  const StoredBits bits = BitsOf(s);
  const WeightParams p = WeightParamsOf(m);
  const bool tied = m.tie_word_embeddings;
  // The file's own bytes where the model has them for this format (model_spec.h MeasuredWeights).
  const MeasuredWeights* file = m.WeightsIn(format.id);
  const double token_embedding = file ? file->embedding : p.embedding * (tied ? bits.head : bits.embedding) / 8.0;
  const double head = tied ? (runtime.weights.tied_head_copy ? token_embedding : 0.0)
                           : (file ? file->head : p.head * bits.head / 8.0);
  const double embedding = token_embedding + (file ? file->per_layer_embedding : p.per_layer_embedding * format.stored.embedding / 8.0);
  // The experts' down projections at their own bits; matrices whose rows GGUF's blocks do not
  // divide at their fallback types'.
  const double down = m.expert_down_params > 0 ? std::min(m.expert_down_params, p.experts) : p.experts / 3;
  const double fallbacks = KeepsMxfp4Experts(s) ? 0.0  // MXFP4's blocks of 32 divide them
                          : m.unaligned_expert_params * bits.fallback + m.unaligned_hidden_expert_params * bits.hidden_fallback;
  const double experts =
      file ? file->routed_experts : ((p.experts - down) * bits.experts + down * bits.expert_down + fallbacks) / 8.0;
  const double body = file ? file->body()
                           : (p.body * bits.body + m.unaligned_params * bits.fallback +
                              m.unaligned_hidden_params * bits.hidden_fallback) / 8.0;
  // With unified memory host RAM is the device's memory: on Apple the mapped file, token
  // embedding included, is a Metal buffer (gpt-oss-20b: MTL0_Mapped 11,536.18 MiB, the whole
  // 11.27 GiB file).
  const bool on_host = runtime.weights.embedding_on_host && !(s.device && s.device->unified_memory);
  bytes.host = on_host ? embedding : 0.0;
  bytes.device = body + experts + head + (on_host ? 0.0 : embedding);
  // Per token: the body, the head and the experts in use (the embedding is one row). A tied
  // embedding is the head's matrix, read whole for every token's logits whether or not the engine
  // keeps a copy of it (vLLM's and mlx-lm's lm_head is embed_tokens itself).
  const MoeSpec* moe = m.moe ? &*m.moe : nullptr;
  const double used = moe && moe->num_experts > 0
                          ? static_cast<double>(moe->experts_per_token) / static_cast<double>(moe->num_experts)
                          : 1.0;
  bytes.logits_read = tied ? token_embedding : head;
  bytes.active = body + bytes.logits_read + experts * used;
  bytes.experts = experts;
  bytes.experts_read = experts * used;
  bytes.head = head;
  bytes.tower = TowerBytes(s);
  return bytes;
}

double ComputeBufferBytes(const Scenario& s, const EngineSettings& settings, int64_t cells, bool with_logits) {
  const ComputeRule& rule = s.runtime->compute;
  const double ub = static_cast<double>(std::min(settings.ubatch, std::max<int64_t>(1, s.context_tokens)));
  const double n = static_cast<double>(cells);
  const double hidden = static_cast<double>(s.model->hidden_size);
  const double logits = with_logits ? ub * static_cast<double>(s.model->vocab_size + s.model->hidden_size) * rule.logits : 0;
  if (settings.flash_attention) return logits + ub * n * rule.fa_mask + ub * hidden * rule.fa_hidden;
  const double heads = static_cast<double>(s.model->num_attention_heads);
  return std::max(logits, ub * n * (heads + 1) * rule.scores + ub * hidden * rule.scores_hidden);
}

double MlpWidth(const ModelSpec& m) {
  const double hidden = static_cast<double>(m.hidden_size);
  double attention = 0;
  for (const LayerGroup& g : m.layer_groups) {
    const double q = static_cast<double>(g.query_heads * g.query_key_dim);
    const double o = static_cast<double>(g.query_heads * g.query_value_dim);
    const double kv = static_cast<double>(g.kv_heads * (g.key_dim + g.value_dim));
    attention += static_cast<double>(g.layers) * hidden * (q + o + kv);
  }
  const WeightParams p = WeightParamsOf(m);
  const double used = m.moe && m.moe->num_experts > 0 ? static_cast<double>(m.moe->experts_per_token) /
                                                            static_cast<double>(m.moe->num_experts)
                                                      : 1.0;
  const double mlp = p.body + p.experts * used - attention;
  return std::max(0.0, mlp / static_cast<double>(m.num_hidden_layers) / (3.0 * hidden));
}

double ActivationGib(const Scenario& s, const EngineSettings& settings) {
  const ActivationRule& rule = s.runtime->activation;
  if (rule.forward_bytes == 0 && rule.sampler_bytes == 0) return 0;
  const double n = static_cast<double>(s.device_count);
  const double hidden = static_cast<double>(s.model->hidden_size);
  const double tokens = static_cast<double>(settings.max_num_batched_tokens);
  const double forward = tokens * (3.0 * MlpWidth(*s.model) / n + 3.0 * hidden) * rule.forward_bytes;
  const double rows = static_cast<double>(std::min(settings.max_num_seqs, settings.max_num_batched_tokens));
  const double sampler = rows * static_cast<double>(s.model->vocab_size) * rule.sampler_bytes;
  return std::max(forward, sampler) / kBytesPerGib + rule.base_gib;
}

double NonTorchGib(const Scenario& s) {
  const ActivationRule& rule = s.runtime->activation;
  return s.device_count > 1 ? rule.non_torch_multi_gib : rule.non_torch_gib;
}

double GraphsGib(const Scenario& s) {
  const ActivationRule& rule = s.runtime->activation;
  const double billions = s.model->params_active / static_cast<double>(s.device_count) / 1e9;
  return rule.graphs_base_gib + rule.graphs_per_billion_gib * billions;
}

}  // namespace vramcalc
