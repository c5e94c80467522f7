// A model that does not fit on its devices, run anyway with a part in host RAM (core/ESTIMATION.md
// section 7): llama.cpp's and Ollama's layer offload (-ngl) and MoE expert offload
// (--n-cpu-moe, --cpu-moe), each with its memory on the devices and in RAM and its decode speed.
#ifndef VRAMCALC_OFFLOAD_H_
#define VRAMCALC_OFFLOAD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vramcalc/estimate.h"
#include "vramcalc/host.h"
#include "vramcalc/runtime_profile.h"
#include "vramcalc/vocab.h"

namespace vramcalc {

enum class OffloadKind {
  kLayers,      // the first layers whole in RAM, the last gpu_layers (and the output layer) on the devices
  kExperts,     // every layer on the devices, the routed experts of the first ram_expert_layers in RAM
};
inline constexpr Named<OffloadKind> kOffloadKindNames[] = {{OffloadKind::kLayers, "layers"},
                                                           {OffloadKind::kExperts, "experts"}};
inline constexpr Vocabulary<OffloadKind> kOffloadKinds{kOffloadKindNames};

struct OffloadPlan {
  OffloadKind kind = OffloadKind::kLayers;
  int64_t gpu_layers = 0;         // repeating layers on the devices (experts: all)
  bool head_on_gpu = true;        // the output layer (llama.cpp's -ngl K: it and K − 1 layers)
  int64_t ram_expert_layers = 0;  // experts: layers whose routed experts stay in RAM (--n-cpu-moe)
  double device_gib = 0;          // what the fullest device holds
  double host_gib = 0;            // in RAM: the weights there, their KV cache, the embedding, buffers
  double ram_share_pct = 0;       // of the weights' bytes, the share in RAM
  Fit fit = Fit::kNoFit;          // on the devices
  bool fits_host = false;         // host_gib within the host's usable RAM
  double decode_tps = 0;
  // What a token's time is made of: the devices' part (section 6), the bytes read from RAM and
  // the layers with weights in RAM (section 7).
  double gpu_seconds = 0;
  double ram_read_bytes = 0;
  int64_t cpu_layers = 0;
  // What a prompt's ubatch copies to the devices (section 8.3): the weights in RAM, and of them
  // the routed experts, of which it copies only those its tokens route to.
  double ram_weight_bytes = 0;
  double ram_expert_bytes = 0;
  // The time of a prompt of the offload's prompt_tokens with this plan (serving.h
  // FillPromptTimes); 0: not modelled (whole layers in RAM, or the device's peak or host link
  // not known).
  double prompt_s = 0;

  // Every layer's routed experts in RAM (--cpu-moe).
  bool AllExpertsInRam() const { return kind == OffloadKind::kExperts && ram_expert_layers >= gpu_layers; }
};

struct Offload {
  Host host;
  double host_usable_gib = 0;  // the host's RAM less what the system keeps
  // Whole layers first; for MoE models then the fewest expert layers that fit and all of them.
  // A kind of which not even the smallest step fits the devices is left out.
  std::vector<OffloadPlan> plans;
  // The plan llama.cpp's --fit makes (Ollama's too): for a MoE model the fewest expert layers in
  // RAM, else whole layers; none when it does not fit the host's RAM: the model does not run.
  std::optional<std::size_t> chosen;
  const OffloadRule* rule = nullptr;
  int64_t prompt_tokens = 0;  // the plans' prompt_s are for a prompt this long
  // The longest context at which the model runs on these devices, alone or with a plan: the
  // model's maximum where the engine stops there, else below it in steps of 1,024 tokens; 0: none
  // (filled with the offload section, lower_sections.cc).
  int64_t max_context_tokens = 0;

  // The plan that runs, else nullptr.
  const OffloadPlan* Chosen() const { return chosen ? &plans[*chosen] : nullptr; }
};

// The plans when the scenario does not fit its devices under an engine that offloads, on a device
// with memory of its own (unified memory has no RAM beside it); otherwise none.
std::optional<Offload> OffloadOf(const Scenario& scenario);

// llama.cpp's flags for a plan: "-ngl K" (the output layer and K − 1 layers), "-ngl 999
// --n-cpu-moe N" or "-ngl 999 --cpu-moe" (common/arg.cpp).
std::string LlamaCppOffloadFlags(const OffloadPlan& plan);

// One plan at a split of one's own, under a runtime that offloads (runtime->offload set):
// gpu_layers of the model's repeating layers (0 to all) with or without the output layer, or
// --n-cpu-moe ram_expert_layers (1 to all).
OffloadPlan LayerOffloadPlan(const Scenario& scenario, int64_t gpu_layers, bool head_on_gpu);
OffloadPlan ExpertOffloadPlan(const Scenario& scenario, int64_t ram_expert_layers);

}  // namespace vramcalc

#endif  // VRAMCALC_OFFLOAD_H_
