// Runtime profiles: how one inference engine uses memory and how fast it decodes, as data.
// A profile is one entry of RuntimeProfiles(); the formulas (estimate.h) read its constants and
// never ask which engine it is. Today's only entry is `reference`: the constants that reproduce
// the reference page (core/ESTIMATION.md).
#ifndef VRAMCALC_RUNTIME_PROFILE_H_
#define VRAMCALC_RUNTIME_PROFILE_H_

#include <array>
#include <span>
#include <string_view>

#include "vramcalc/device.h"

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

struct RuntimeProfile {
  std::string_view id;      // request id: "reference"
  std::string_view models;  // what it reproduces, for people: an engine and its version
  // Memory.
  double usable_fraction = 0;  // of a device's memory, for the max context and the recommended class
  std::array<OverheadRule, kDeviceClassCount> overhead{};  // by DeviceClass
  DeviceClass default_class = DeviceClass::kConsumer;  // when a scenario names no device (the matrix)
  double tensor_parallel_buffers_gib = 0;  // per device, with more than one device
  double state_bytes_per_element = 0;      // recurrent layers' state (LayerKind::kState)
  double comfortable_ratio = 0;            // total / memory up to this rates "comfortable" (1.7)
  // Decode at batch 1 (1.5): bandwidth × utilization × the class's efficiency / bytes per token;
  // N devices in tensor parallel: N × tensor_parallel_efficiency × that.
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
};

inline constexpr std::string_view kDefaultRuntimeId = "reference";

std::span<const RuntimeProfile> RuntimeProfiles();
// nullptr when `id` is not a profile's id.
const RuntimeProfile* FindRuntimeProfile(std::string_view id);

}  // namespace vramcalc

#endif  // VRAMCALC_RUNTIME_PROFILE_H_
