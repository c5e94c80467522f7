// Offload to host RAM (core/ESTIMATION.md section 7).
#include "vramcalc/offload.h"

#include <algorithm>
#include <string>

namespace vramcalc {
namespace {

// What one scenario's parts weigh, in bytes: the repeating layers' weights (their routed experts
// also on their own), the head, what stays in RAM anyway (the token embedding), the KV cache and
// state, and what a token reads.
struct Parts {
  Footprint footprint;
  double layers = 0;    // the repeating layers' weights, experts included
  double experts = 0;   // all routed experts
  double head = 0;
  double embedding = 0;  // in host RAM whatever the plan
  double cache = 0;     // KV cache and state
  double expert_reads = 0;  // per token, of all layers' experts
  double active = 0;    // per token, all weights
  int64_t layers_count = 1;
};

Parts PartsOf(const Scenario& s) {
  Parts parts;
  parts.footprint = FootprintOf(s);
  const WeightBytes bytes = WeightBytesOf(s);
  parts.head = bytes.head;
  parts.experts = bytes.experts;
  parts.layers = bytes.device - bytes.head;
  parts.embedding = bytes.host;
  parts.cache = parts.footprint.kv_cache_bytes + parts.footprint.state_bytes;
  parts.expert_reads = bytes.experts_read;
  parts.active = bytes.active;
  parts.layers_count = s.model->num_hidden_layers;
  return parts;
}

// One plan's figures from what stays on the devices (`device` a footprint of only that) and what
// a token reads where, at `cpu_layers` layers with weights in RAM.
struct Split {
  Footprint device;
  double ram_bytes = 0;        // in RAM beside the embedding
  double ram_weight_bytes = 0;  // of which weights
  double ram_expert_bytes = 0;  // of which routed experts
  double gpu_reads = 0, gpu_cache_reads = 0, ram_reads = 0;
  int64_t cpu_layers = 0;
};

// The host's RAM a plan may fill: its memory less what the system keeps.
double UsableRamGib(const Scenario& s, const OffloadRule& rule) {
  return std::max(0.0, s.host.memory_gib - rule.host_reserve_gib);
}

OffloadPlan PlanOf(const Scenario& s, const Parts& parts, const OffloadRule& rule, const Split& split) {
  OffloadPlan plan;
  plan.device_gib = split.device.per_device_gib();
  plan.fit = RateFit(*s.runtime, plan.device_gib, CapacityGib(s));
  plan.host_gib = (parts.embedding + split.ram_bytes) / kBytesPerGib;
  plan.fits_host = plan.host_gib <= UsableRamGib(s, rule);
  plan.ram_share_pct = 100.0 * split.ram_weight_bytes / (parts.layers + parts.head);
  plan.gpu_seconds = DeviceDecodeSeconds(s, split.gpu_reads, split.gpu_cache_reads);
  plan.ram_read_bytes = split.ram_reads;
  plan.cpu_layers = split.cpu_layers;
  plan.ram_weight_bytes = split.ram_weight_bytes;
  plan.ram_expert_bytes = split.ram_expert_bytes;
  const double bandwidth = s.host.bandwidth_gbps > 0 ? s.host.bandwidth_gbps : kDefaultHostBandwidthGbps;
  const double ram_seconds = split.ram_reads / (bandwidth * 1e9 * rule.RamEfficiency(s.host.generation()));
  const double seconds = plan.gpu_seconds + ram_seconds + static_cast<double>(split.cpu_layers) * rule.cpu_layer_ms * 1e-3;
  plan.decode_tps = 1.0 / seconds;
  return plan;
}

// -ngl: the last `gpu_layers` repeating layers and their KV cache on the devices, the output
// layer there too when `head_on_gpu` (llama.cpp since #18148 offloads it first: -ngl K is the
// output layer and the last K − 1 layers), the rest in RAM.
OffloadPlan LayerPlan(const Scenario& s, const Parts& parts, const OffloadRule& rule, int64_t gpu_layers,
                      bool head_on_gpu) {
  const double on_gpu = static_cast<double>(gpu_layers) / static_cast<double>(parts.layers_count);
  const double head_in_ram = head_on_gpu ? 0.0 : parts.head;
  Split split;
  split.device = parts.footprint;
  split.device.weights_gib = (parts.layers * on_gpu + parts.head - head_in_ram) / kBytesPerGib;
  split.device.kv_cache_bytes *= on_gpu;
  split.device.state_bytes *= on_gpu;
  if (!head_on_gpu) split.device.main_device_extra_gib = 0;  // the logits are computed in RAM
  split.ram_weight_bytes = parts.layers * (1.0 - on_gpu) + head_in_ram;
  split.ram_expert_bytes = parts.experts * (1.0 - on_gpu);
  split.ram_bytes = split.ram_weight_bytes + parts.cache * (1.0 - on_gpu) +
                    (head_on_gpu ? 0.0 : parts.footprint.main_device_extra_gib * kBytesPerGib);
  if (rule.towers_in_ram_when_split && gpu_layers < parts.layers_count) {  // Ollama: the projector on the CPU
    split.ram_bytes += split.device.vision_gib * kBytesPerGib;
    split.device.vision_gib = 0;
  }
  const double layer_reads = parts.active - parts.head;
  split.gpu_reads = layer_reads * on_gpu + parts.head - head_in_ram;
  split.gpu_cache_reads = parts.cache * on_gpu;
  split.ram_reads = layer_reads * (1.0 - on_gpu) + head_in_ram + parts.cache * (1.0 - on_gpu);
  split.cpu_layers = parts.layers_count - gpu_layers;
  OffloadPlan plan = PlanOf(s, parts, rule, split);
  plan.kind = OffloadKind::kLayers;
  plan.gpu_layers = gpu_layers;
  plan.head_on_gpu = head_on_gpu;
  return plan;
}

// --n-cpu-moe n: every layer on the devices but the routed experts of the first n.
OffloadPlan ExpertPlan(const Scenario& s, const Parts& parts, const OffloadRule& rule, int64_t ram_layers) {
  const double in_ram = static_cast<double>(ram_layers) / static_cast<double>(parts.layers_count);
  Split split;
  split.device = parts.footprint;
  split.device.weights_gib -= parts.experts * in_ram / kBytesPerGib;
  split.ram_weight_bytes = parts.experts * in_ram;
  split.ram_expert_bytes = split.ram_weight_bytes;
  split.ram_bytes = split.ram_weight_bytes;
  split.ram_reads = parts.expert_reads * in_ram;
  split.gpu_reads = parts.active - split.ram_reads;
  split.gpu_cache_reads = parts.cache;
  split.cpu_layers = ram_layers;
  OffloadPlan plan = PlanOf(s, parts, rule, split);
  plan.kind = OffloadKind::kExperts;
  plan.gpu_layers = parts.layers_count;
  plan.ram_expert_layers = ram_layers;
  return plan;
}

// What llama.cpp's --fit picks (common/fit.cpp), and so Ollama, which leaves the placement to
// it: for a MoE model the fewest experts in RAM, else whole layers; none when that does not fit
// the host's RAM either.
void ChooseAsFit(Offload& offload) {
  const auto& plans = offload.plans;
  const auto experts = std::find_if(plans.begin(), plans.end(),
                                    [](const OffloadPlan& plan) { return plan.kind == OffloadKind::kExperts; });
  const auto pick = experts != plans.end() ? experts : plans.begin();
  if (pick != plans.end() && pick->fits_host) offload.chosen = static_cast<std::size_t>(pick - plans.begin());
}

}  // namespace

std::string LlamaCppOffloadFlags(const OffloadPlan& plan) {
  if (plan.kind == OffloadKind::kLayers) return "-ngl " + std::to_string(plan.gpu_layers + (plan.head_on_gpu ? 1 : 0));
  if (plan.AllExpertsInRam()) return "-ngl 999 --cpu-moe";
  return "-ngl 999 --n-cpu-moe " + std::to_string(plan.ram_expert_layers);
}

OffloadPlan LayerOffloadPlan(const Scenario& s, int64_t gpu_layers, bool head_on_gpu) {
  return LayerPlan(s, PartsOf(s), *s.runtime->offload, gpu_layers, head_on_gpu);
}

OffloadPlan ExpertOffloadPlan(const Scenario& s, int64_t ram_expert_layers) {
  return ExpertPlan(s, PartsOf(s), *s.runtime->offload, ram_expert_layers);
}

std::optional<Offload> OffloadOf(const Scenario& s) {
  const OffloadRule* rule = s.runtime->offload;
  if (rule == nullptr || s.device->unified_memory) return std::nullopt;
  const Parts parts = PartsOf(s);
  if (RateFit(*s.runtime, parts.footprint.per_device_gib(), CapacityGib(s)) != Fit::kNoFit) return std::nullopt;
  Offload offload;
  offload.host = s.host;
  offload.host_usable_gib = UsableRamGib(s, *rule);
  offload.rule = rule;
  const int64_t layers = parts.layers_count;
  // The most whole layers that fit beside the output layer: their sizes are equal, so the first
  // from the top.
  for (int64_t g = layers; rule->layers && g >= 0; --g) {
    const OffloadPlan plan = LayerPlan(s, parts, *rule, g, true);
    if (plan.fit == Fit::kNoFit) continue;
    offload.plans.push_back(plan);
    break;
  }
  if (rule->experts && parts.experts > 0) {
    for (int64_t n = 1; n <= layers; ++n) {
      const OffloadPlan plan = ExpertPlan(s, parts, *rule, n);
      if (plan.fit == Fit::kNoFit) continue;
      offload.plans.push_back(plan);
      if (n < layers) offload.plans.push_back(ExpertPlan(s, parts, *rule, layers));
      break;
    }
  }
  ChooseAsFit(offload);
  return offload;
}

}  // namespace vramcalc
