#include "vramcalc/runtime_profile.h"

namespace vramcalc {
namespace {

// The reference page's constants (core/ESTIMATION.md, sections 1.3 to 1.8).
// 1.3: discrete GPUs pay a CUDA/runtime constant, 3 % allocator slack on the weights and an
// activation workspace of 0.04 GiB plus one FP16 hidden vector for a 32,768-token window;
// Apple's unified memory has a smaller runtime and half the slack, and no 0.04.
constexpr OverheadRule kDiscreteOverhead{0.85, 0.03, 0.04, 32768};
constexpr OverheadRule kAppleOverhead{0.55, 0.015, 0.0, 32768};
constexpr std::string_view kReferenceCommands[] = {"vllm", "ollama-modelfile", "ollama-env"};

constexpr RuntimeProfile kProfiles[] = {
    {
        .id = "reference",
        .models = "the reference page (GLM-4-32B-0414): vLLM and Ollama commands, one formula for every engine",
        .usable_fraction = 0.96,
        // By DeviceClass: consumer, apple, datacenter.
        .overhead = {kDiscreteOverhead, kAppleOverhead, kDiscreteOverhead},
        .default_class = DeviceClass::kConsumer,  // 1.4: the matrix uses the non-Apple overhead
        .tensor_parallel_buffers_gib = 0.25,
        .state_bytes_per_element = 4,  // FP32, as llama.cpp keeps recurrent state
        .comfortable_ratio = 0.90,
        .bandwidth_utilization = 0.736,
        .decode_efficiency = {0.85, 0.80, 0.90},
        .tensor_parallel_efficiency = 0.9,
        .commands = kReferenceCommands,
    },
};

}  // namespace

std::span<const RuntimeProfile> RuntimeProfiles() { return kProfiles; }

const RuntimeProfile* FindRuntimeProfile(std::string_view id) {
  for (const RuntimeProfile& profile : kProfiles) {
    if (profile.id == id) return &profile;
  }
  return nullptr;
}

}  // namespace vramcalc
