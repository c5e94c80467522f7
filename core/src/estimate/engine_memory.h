// The engine profiles' memory terms that estimate.cc composes (core/ESTIMATION.md section 5).
#ifndef VRAMCALC_SRC_ESTIMATE_ENGINE_MEMORY_H_
#define VRAMCALC_SRC_ESTIMATE_ENGINE_MEMORY_H_

#include <cstdint>

#include "vramcalc/estimate.h"

namespace vramcalc {

// A device's memory as the profile's engine sees it: the Metal working set on Apple devices for
// profiles that use it (section 5.1), else all of it.
double VisibleMemoryGib(const RuntimeProfile& runtime, const Device& device);

// The largest context (MaxContextByMemory) on the scenario's Mac once its wired limit is at the
// highest GpuMapOf offers (estimate.h; max(80 %, RAM − 5 GiB)).
int64_t RaisedWiredMaxContext(const Scenario& scenario);

// The profile's cell allocation with the scenario's settings (ubatch, batched tokens).
KvAllocation AllocationOf(const RuntimeProfile& runtime, const EngineSettings& settings);

// llama.cpp's compute buffer in bytes for a cache of `cells` cells per sequence (section 5.4);
// with_logits for the device that holds the output layer.
double ComputeBufferBytes(const Scenario& scenario, const EngineSettings& settings, int64_t cells, bool with_logits);

// The MLP width per layer a token passes through (active experts for MoE models), from the
// parameters left after attention: the intermediate_size of a dense SwiGLU model.
double MlpWidth(const ModelSpec& model);

// vLLM's reservations on one device, in GiB (section 5.5): activation peak, non-torch memory and
// the CUDA-graph estimate.
double ActivationGib(const Scenario& scenario, const EngineSettings& settings);
double NonTorchGib(const Scenario& scenario);
double GraphsGib(const Scenario& scenario);

}  // namespace vramcalc

#endif  // VRAMCALC_SRC_ESTIMATE_ENGINE_MEMORY_H_
