#include "vramcalc/estimate.h"

#include <algorithm>
#include <cmath>

#include "estimate/engine_memory.h"
#include "vramcalc/kv_pages.h"
#include "model/small_sort.h"

namespace vramcalc {
namespace {

constexpr double kActivationBytes = 2;  // FP16 hidden activations in the workspace

// The largest S ≥ 0 with K(S) ≤ budget_bytes for `batch` sequences, where K is piecewise
// linear in S: between two tier caps, the tiers not yet capped grow. Solved exactly per piece.
int64_t InverseKv(const KvLayout& layout, int64_t batch, double budget_bytes) {
  constexpr double kCap = static_cast<double>(kMaxContextTokens);
  if (!(budget_bytes > 0)) return 0;
  const double per_seq = budget_bytes / static_cast<double>(batch);
  // On the piece that starts at tiers[first]'s cap (tiers are in ascending cap after the
  // unbounded one): K = fixed + slope × S, where fixed holds the tiers capped before it and
  // slope the tiers still growing.
  const std::span<const KvLayout::Tier> tiers = layout.used();
  const auto slope_from = [tiers](std::size_t first) {
    double slope = tiers.front().bytes_per_token;
    for (std::size_t i = first; i < tiers.size(); ++i) slope += tiers[i].bytes_per_token;
    return slope;
  };
  std::size_t piece = 1;
  double fixed = 0;
  for (; piece < tiers.size(); ++piece) {
    const KvLayout::Tier& tier = tiers[piece];
    const double cap = static_cast<double>(tier.tokens_cap);
    if (per_seq < fixed + slope_from(piece) * cap) break;  // the answer lies before this cap
    fixed += tier.bytes_per_token * cap;
  }
  const double slope = slope_from(piece);
  const double tokens = slope > 0 ? (per_seq - fixed) / slope : kCap;
  return static_cast<int64_t>(std::floor(std::min(tokens, kCap)));
}

// Sums what `per_group` gives each layer group, as an exact integer (element counts).
template <typename PerGroup>
int64_t SumOverGroups(const ModelSpec& model, PerGroup per_group) {
  int64_t sum = 0;
  for (const LayerGroup& group : model.layer_groups) sum += group.layers * per_group(group);
  return sum;
}

}  // namespace

KvCompression KvCompressionOf(const ModelSpec& model) {
  const auto any = [&model](LayerKind kind) {
    return std::any_of(model.layer_groups.begin(), model.layer_groups.end(),
                       [kind](const LayerGroup& group) { return group.kind == kind; });
  };
  if (any(LayerKind::kCompressed)) return KvCompression::kCompressedLatent;
  if (any(LayerKind::kLatent)) return KvCompression::kLatent;
  const bool grouped = model.num_key_value_heads < model.num_attention_heads;
  const bool windowed = any(LayerKind::kWindow) || any(LayerKind::kChunked);
  if (grouped && windowed) return KvCompression::kGroupedHeadsAndWindow;
  if (grouped) return KvCompression::kGroupedHeads;
  if (windowed) return KvCompression::kWindow;
  return KvCompression::kNone;
}

double WeightsGib(double params, double bits_per_weight) {
  return params * bits_per_weight / 8.0 / kBytesPerGib;
}

namespace {

// Adds `bytes_per_token` to the tier capped at `tokens_cap`, opening it when it is new.
void AddToTier(KvLayout& layout, int64_t tokens_cap, double bytes_per_token) {
  const auto end = layout.tiers.begin() + static_cast<std::ptrdiff_t>(layout.tier_count);
  auto tier = std::find_if(layout.tiers.begin(), end, [&](const KvLayout::Tier& t) { return t.tokens_cap == tokens_cap; });
  if (tier == end) {
    if (layout.tier_count == KvLayout::kMaxTiers) return;  // ValidateModel rules this out
    tier = end;
    tier->tokens_cap = tokens_cap;
    ++layout.tier_count;
  }
  tier->bytes_per_token += bytes_per_token;
}

}  // namespace

KvLayout KvLayoutOf(const ModelSpec& model, double kv_bytes_per_element, double state_bytes_per_element,
                    int64_t head_divisor, bool windows) {
  KvLayout layout;
  for (const LayerGroup& group : model.layer_groups) {
    // Elements per token over the group's layers (an exact integer), then bytes.
    const int64_t heads = KvHeadsOnDevice(group, head_divisor);
    const int64_t cached = group.layers * heads * (group.key_dim + group.value_dim);
    const int64_t indexed = group.layers * group.index_dim;
    if (heads == 0 || cached == 0) continue;
    if (group.compress_ratio > 1) {
      // The window of latents, and over the whole context one latent and index key per ratio tokens.
      AddToTier(layout, group.window_tokens, static_cast<double>(cached) * kv_bytes_per_element);
      AddToTier(layout, 0, static_cast<double>(cached + indexed) * kv_bytes_per_element / static_cast<double>(group.compress_ratio));
    } else {
      AddToTier(layout, windows ? group.window_tokens : 0, static_cast<double>(cached + indexed) * kv_bytes_per_element);
    }
  }
  const auto end = layout.tiers.begin() + static_cast<std::ptrdiff_t>(layout.tier_count);
  internal::StableSortSmall(layout.tiers.begin() + 1, end,
                            [](const KvLayout::Tier& a, const KvLayout::Tier& b) { return a.tokens_cap < b.tokens_cap; });
  for (const LayerGroup& g : model.layer_groups) {
    layout.state_bytes += static_cast<double>(g.layers) * StateBytesPerLayer(g, state_bytes_per_element);
  }
  layout.state_bytes /= static_cast<double>(std::max<int64_t>(1, head_divisor));
  return layout;
}

double KvCacheBytes(const KvLayout& layout, int64_t context_tokens, int64_t batch, const KvAllocation& allocation) {
  double per_sequence = 0;
  for (const KvLayout::Tier& tier : layout.used()) {
    per_sequence += tier.bytes_per_token * static_cast<double>(KvCells(allocation, context_tokens, tier.tokens_cap));
  }
  return static_cast<double>(batch) * per_sequence;
}

int64_t RecurrentLayers(const ModelSpec& model) {
  return SumOverGroups(model, [](const LayerGroup& g) { return g.kind == LayerKind::kState ? 1 : 0; });
}

double NaiveMhaKvBytes(const ModelSpec& model, int64_t context_tokens, int64_t batch) {
  const int64_t elements = SumOverGroups(model, [](const LayerGroup& g) {
    return g.query_heads * (g.query_key_dim + g.query_value_dim);
  });
  return static_cast<double>(elements) * static_cast<double>(context_tokens) * static_cast<double>(batch) * 2.0;
}

double OverheadGib(const ModelSpec& model, double weights_gib, const OverheadRule& rule) {
  const double workspace_gib =
      static_cast<double>(model.hidden_size) * rule.workspace_tokens * kActivationBytes / kBytesPerGib;
  return rule.runtime_gib + rule.weight_slack * weights_gib + rule.workspace_gib + workspace_gib;
}

namespace {

// Every device's KV layout together, per token: the whole model's with an even split; under
// tensor parallelism with KV heads split (KvSplit::kHeadsMinOne), N times one device's share.
KvLayout ScenarioLayout(const Scenario& s) {
  const RuntimeProfile& runtime = *s.runtime;
  const int64_t divisor = runtime.kv.split == KvSplit::kHeadsMinOne ? s.device_count : 1;
  const bool whole = runtime.kv.chunked_whole && std::any_of(s.model->layer_groups.begin(), s.model->layer_groups.end(),
                                                             [](const LayerGroup& g) { return g.kind == LayerKind::kChunked; });
  KvLayout layout =
      KvLayoutOf(*s.model, s.kv_dtype->bytes_per_element, runtime.kv.state_bytes_per_element, divisor, !whole);
  if (divisor > 1) {
    for (KvLayout::Tier& tier : layout.tiers) tier.bytes_per_token *= static_cast<double>(divisor);
    layout.state_bytes *= static_cast<double>(divisor);
  }
  return layout;
}

// The sequences the engine allocates for: its server slots where it has them, else the batch.
int64_t AllocatedSequences(const Scenario& s, const EngineSettings& settings) {
  return s.runtime->Takes(kOptionParallel) ? settings.parallel : s.batch;
}

// The cells of one sequence's longest tier (what the compute buffer attends over).
int64_t LongestTierCells(const KvLayout& layout, const KvAllocation& allocation, int64_t context_tokens) {
  int64_t cells = 0;
  for (const KvLayout::Tier& tier : layout.used()) {
    if (tier.bytes_per_token > 0) cells = std::max(cells, KvCells(allocation, context_tokens, tier.tokens_cap));
  }
  return cells;
}

// The engine terms of one device's overhead (sections 5.4, 5.5), in GiB; zero for the reference.
OverheadParts EngineParts(const Scenario& s, const EngineSettings& settings, int64_t cells) {
  OverheadParts parts;
  parts.compute_gib = ComputeBufferBytes(s, settings, cells, false) / kBytesPerGib;
  parts.activation_gib = ActivationGib(s, settings);
  parts.non_torch_gib = NonTorchGib(s);
  parts.graphs_gib = GraphsGib(s);
  return parts;
}

}  // namespace

Footprint FootprintOf(const Scenario& s) {
  const RuntimeProfile& runtime = *s.runtime;
  const EngineSettings settings = ResolvedSettings(s);
  const OverheadRule& rule = runtime.OverheadFor(s.device_class());
  Footprint footprint;
  footprint.device_count = s.device_count;
  const WeightBytes weights = WeightBytesOf(s);
  footprint.weights_gib = weights.device / kBytesPerGib;
  footprint.vision_gib = weights.tower / kBytesPerGib;
  footprint.host_gib = weights.host / kBytesPerGib;
  const KvLayout layout = ScenarioLayout(s);
  const KvAllocation allocation = AllocationOf(runtime, settings);
  const int64_t sequences = AllocatedSequences(s, settings);
  footprint.kv_cache_bytes = KvCacheBytes(layout, s.context_tokens, sequences, allocation);
  footprint.state_bytes = layout.state_bytes * static_cast<double>(sequences);
  const double n = static_cast<double>(s.device_count);
  const double device_weights_gib = footprint.loaded_weights_gib() / n;
  const double buffers_gib = s.device_count > 1 ? runtime.tensor_parallel_buffers_gib : 0.0;
  const int64_t cells = LongestTierCells(layout, allocation, s.context_tokens);
  OverheadParts parts = EngineParts(s, settings, cells);
  const double engine_gib = parts.total();
  footprint.device_overhead_gib = OverheadGib(*s.model, device_weights_gib, rule) + buffers_gib + engine_gib;
  footprint.main_device_extra_gib =
      ComputeBufferBytes(s, settings, cells, true) / kBytesPerGib - parts.compute_gib;
  parts.runtime_gib = rule.runtime_gib;
  parts.slack_gib = rule.weight_slack * device_weights_gib;
  parts.workspace_gib = OverheadGib(*s.model, device_weights_gib, rule) - parts.runtime_gib - parts.slack_gib;
  parts.tensor_parallel_gib = buffers_gib;
  footprint.parts = parts;
  return footprint;
}

// Section 6: the engine's rule for the device, or nullptr (the reference formula applies).
const DecodeRule* DecodeRuleOf(const Scenario& s) {
  return s.runtime->DecodeRuleFor(*s.device, s.model->moe.has_value());
}

namespace {

// A layer split's extra time per token (llama.cpp's -sm layer walks the devices one after
// another): a hop per extra device, the device class's.
double LayerSplitHopSeconds(const Scenario& s) {
  return static_cast<double>(s.device_count - 1) * s.runtime->multi_device_decode.HopMs(s.device->device_class) * 1e-3;
}

}  // namespace

double DeviceDecodeSeconds(const Scenario& s, double weight_bytes, double cache_bytes) {
  const RuntimeProfile& runtime = *s.runtime;
  if (const DecodeRule* rule = DecodeRuleOf(s)) return DecodeSeconds(s, *rule, weight_bytes, cache_bytes);
  const double one_device = (weight_bytes + cache_bytes) / (s.device->bandwidth_gbps * 1e9 * runtime.bandwidth_utilization *
                                                            runtime.DecodeEfficiency(s.device->device_class));
  if (s.device_count <= 1) return one_device;
  // A layer split: one device's time and the hops, as DecodeSeconds has it, never faster than one
  // device. Tensor parallelism (and the reference formula) scale with the devices.
  if (runtime.multi_device_decode.split == SplitKind::kLayers) return one_device + LayerSplitHopSeconds(s);
  return one_device / (static_cast<double>(s.device_count) * runtime.tensor_parallel_efficiency);
}

double DecodeTokensPerSecond(const Scenario& s, const Footprint& footprint) {
  return 1.0 / DeviceDecodeSeconds(s, WeightBytesOf(s).active, footprint.kv_cache_bytes + footprint.state_bytes);
}

namespace {

// A token's weight reads: their bytes at the rule's share of the bandwidth or, where the rule has
// measured the arithmetic a weight of the format's kernels costs, that at the device's FP16 rate
// if it takes longer (Apple's Max chips read K-quants below their bandwidth: section 6).
double WeightSeconds(const Scenario& s, const DecodeRule& rule, double weight_bytes) {
  const double memory = weight_bytes / (s.device->bandwidth_gbps * 1e9 * rule.efficiency);
  const int kernels = s.format ? s.format->decode_kernels : 0;
  if (kernels == 0 || s.device->fp16_tflops <= 0) return memory;
  const double weights = weight_bytes * 8 / s.format->bits_per_weight;
  return std::max(memory, weights * rule.ops_per_weight[kernels - 1] / (s.device->fp16_tflops * 1e12));
}

}  // namespace

double DecodeSeconds(const Scenario& s, const DecodeRule& rule, double weight_bytes, double cache_bytes) {
  const MultiDeviceRule& multi = s.runtime->multi_device_decode;
  const double n = static_cast<double>(s.device_count);
  const double layers = static_cast<double>(s.model->num_hidden_layers);
  const double fixed =
      (rule.t0_ms_per_32_layers * layers + rule.state_ms_per_32_layers * static_cast<double>(RecurrentLayers(*s.model))) *
      1e-3 / 32.0;
  const double bandwidth = s.device->bandwidth_gbps * 1e9;
  const double reads = WeightSeconds(s, rule, weight_bytes) + cache_bytes / (bandwidth * rule.kv_efficiency);
  if (s.device_count <= 1) return reads + fixed;
  if (multi.split == SplitKind::kLayers) return reads + fixed + LayerSplitHopSeconds(s);
  const double allreduce = multi.AllreduceUs(s.device->device_class) * 1e-6;
  return reads / n + fixed + 2.0 * layers * allreduce;
}

Fit RateFit(const RuntimeProfile& runtime, double total_gib, double capacity_gib) {
  const double ratio = total_gib / capacity_gib;
  if (ratio <= runtime.comfortable_ratio) return Fit::kComfortable;
  if (ratio <= 1.00) return Fit::kTight;
  return Fit::kNoFit;
}

namespace {

// Whether the scenario at `context_tokens` rates anything but "no fit" on `capacity_gib`.
bool FitsAt(Scenario s, int64_t context_tokens, double capacity_gib) {
  s.context_tokens = context_tokens;
  return RateFit(*s.runtime, FootprintOf(s).per_device_gib(), capacity_gib) != Fit::kNoFit;
}

// The largest context ≤ `upper` that fits, by bisection (the footprint grows with the
// context); `upper` itself when it fits, 0 when nothing does.
int64_t LargestFitting(const Scenario& s, int64_t upper, double capacity_gib) {
  if (upper <= 0 || FitsAt(s, upper, capacity_gib)) return std::max<int64_t>(upper, 0);
  // Cells come in granules: a whole number of them is the first guess.
  const int64_t granule = std::max<int64_t>(1, s.runtime->kv.granule_tokens);
  int64_t fits = 0;
  int64_t fails = upper;
  if (const int64_t whole = upper / granule * granule; whole > 0 && whole < upper) {
    if (!FitsAt(s, whole, capacity_gib)) {
      fails = whole;
    } else if (!FitsAt(s, whole + 1, capacity_gib)) {
      return whole;
    } else {
      fits = whole + 1;
    }
  }
  while (fails - fits > 1) {
    const int64_t middle = fits + (fails - fits) / 2;
    (FitsAt(s, middle, capacity_gib) ? fits : fails) = middle;
  }
  return fits;
}

}  // namespace

int64_t MaxContextByMemory(const Scenario& s) {
  const RuntimeProfile& runtime = *s.runtime;
  const OverheadRule& rule = runtime.OverheadFor(s.device_class());
  const double capacity_gib = CapacityGib(s);
  Scenario empty = s;
  empty.context_tokens = 0;
  // The overhead at the smallest context: the linear bound below is then never too low.
  const Footprint footprint = FootprintOf(empty);
  const KvLayout layout = ScenarioLayout(s);
  const int64_t sequences = AllocatedSequences(s, ResolvedSettings(s));
  const double n = static_cast<double>(s.device_count);
  const double device_weights_gib = footprint.loaded_weights_gib() / n;
  const double buffers_gib = s.device_count > 1 ? runtime.tensor_parallel_buffers_gib : 0.0;
  // 1.6 as the page computes it, per device: the usable share of memory, less the runtime, the
  // slackened weights and (with N > 1) the buffers.
  const double budget_gib = runtime.usable_fraction * capacity_gib - rule.runtime_gib -
                            (1.0 + rule.weight_slack) * device_weights_gib - buffers_gib;
  // 1.7: never report a context whose total would rate "does not fit".
  const double fit_budget_gib =
      capacity_gib - device_weights_gib - footprint.device_overhead_gib - footprint.main_device_extra_gib;
  // Each device holds 1/N of the KV cache and the state, so all N together hold N budgets.
  int64_t tokens = InverseKv(layout, sequences,
                             n * std::min(budget_gib, fit_budget_gib) * kBytesPerGib - footprint.state_bytes);
  // Guard the last ulp: step down while the rating at `tokens` would still be "no fit".
  const auto device_total_gib = [&](int64_t tokens_now) {
    return device_weights_gib +
           (KvCacheBytes(layout, tokens_now, sequences) + footprint.state_bytes) / kBytesPerGib / n +
           footprint.device_overhead_gib;
  };
  for (int step = 0; step < 8 && tokens > 0 &&
                     RateFit(runtime, device_total_gib(tokens), capacity_gib) == Fit::kNoFit;
       ++step) {
    --tokens;
  }
  // Section 5: granules, the windows' extra cells and a compute buffer that grows with the
  // context are above the linear bound; the whole footprint decides.
  return LargestFitting(s, tokens, capacity_gib);
}

int64_t MaxContextTokens(const Scenario& s) {
  const int64_t tokens = MaxContextByMemory(s);
  return s.runtime->context_within_model ? std::min(tokens, s.model->max_position_embeddings) : tokens;
}

namespace {

// Section 5.7: vLLM's pool in blocks of its layer groups, a state's blocks among them; false
// where its allocator is not modelled (kv_pages.h KvPagesOf).
bool PageThePool(const Scenario& s, double pool_gib, KvPool& pool) {
  const KvRule& rule = s.runtime->kv;
  const int64_t divisor = rule.split == KvSplit::kHeadsMinOne ? s.device_count : 1;
  const std::optional<KvPages> pages =
      KvPagesOf(*s.model, s.kv_dtype->bytes_per_element, rule.state_bytes_per_element, rule.granule_tokens, divisor);
  if (!pages) return false;
  const KvPageRequest request{.max_num_batched_tokens = ResolvedSettings(s).max_num_batched_tokens,
                              .state_blocks = rule.state_blocks};
  const int64_t per_request = std::max<int64_t>(1, pages->BlocksPerRequest(s.context_tokens, request));
  pool.gib = pool_gib;
  pool.blocks = std::max<int64_t>(0, static_cast<int64_t>(std::floor(pool_gib * kBytesPerGib / pages->BlockBytes())));
  pool.block_tokens = pages->block_tokens;
  pool.groups = pages->Groups();
  pool.group_layers = pages->group_layers;
  pool.padding_layers = pages->padding_layers;
  pool.request_gib = static_cast<double>(per_request) * pages->BlockBytes() / kBytesPerGib;
  pool.concurrency = static_cast<double>(pool.blocks) / static_cast<double>(per_request);
  pool.tokens = static_cast<int64_t>(std::floor(pool.concurrency * static_cast<double>(s.context_tokens)));
  pool.longest_request = pages->LongestRequest(
      pool.blocks, request, s.runtime->context_within_model ? s.model->max_position_embeddings : kMaxContextTokens);
  return true;
}

}  // namespace

std::optional<KvPool> KvPoolOf(const Scenario& s) {
  if (!s.runtime->kv_pool) return std::nullopt;
  Scenario empty = s;
  empty.context_tokens = 0;
  const Footprint footprint = FootprintOf(empty);
  const double n = static_cast<double>(s.device_count);
  const double pool_gib = CapacityGib(s) - footprint.loaded_weights_gib() / n - footprint.device_overhead_gib - footprint.main_device_extra_gib;
  KvPool pool;
  // vLLM keeps states in the pool's blocks; SGLang beside its token pool.
  if (s.runtime->kv.state_blocks > 0 && PageThePool(s, pool_gib, pool)) return pool;
  pool.gib = pool_gib - footprint.state_bytes / kBytesPerGib / n;
  const KvLayout layout = ScenarioLayout(s);
  const int64_t granule = std::max<int64_t>(1, s.runtime->kv.granule_tokens);
  pool.tokens = InverseKv(layout, 1, n * pool.gib * kBytesPerGib) / granule * granule;
  return pool;
}

}  // namespace vramcalc
