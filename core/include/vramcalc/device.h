// A GPU or Apple Silicon machine: memory, bandwidth and the class that sets its efficiency.
#ifndef VRAMCALC_DEVICE_H_
#define VRAMCALC_DEVICE_H_

#include <string>

#include "vramcalc/vocab.h"

namespace vramcalc {

// The class a runtime profile keys its constants by: decode efficiency (estimation model 1.5)
// and overheads (1.3). "consumer" also holds workstation cards (RTX A6000, RTX PRO 6000).
enum class DeviceClass : uint8_t { kConsumer, kApple, kDatacenter };
inline constexpr int kDeviceClassCount = 3;
inline constexpr Named<DeviceClass> kDeviceClassNames[] = {
    {DeviceClass::kConsumer, "consumer"}, {DeviceClass::kApple, "apple"}, {DeviceClass::kDatacenter, "datacenter"}};
inline constexpr Vocabulary<DeviceClass> kDeviceClasses{kDeviceClassNames};

enum class Vendor : uint8_t { kNvidia, kAmd, kApple };
inline constexpr Named<Vendor> kVendorNames[] = {
    {Vendor::kNvidia, "nvidia"}, {Vendor::kAmd, "amd"}, {Vendor::kApple, "apple"}};
inline constexpr Vocabulary<Vendor> kVendors{kVendorNames};

// The software stack a device runs engines on: which engines it can run (runtime_profile.h).
enum class Platform : uint8_t { kCuda, kRocm, kVulkan, kMetal };
inline constexpr int kPlatformCount = 4;
inline constexpr Named<Platform> kPlatformNames[] = {
    {Platform::kCuda, "cuda"}, {Platform::kRocm, "rocm"}, {Platform::kVulkan, "vulkan"}, {Platform::kMetal, "metal"}};
inline constexpr Vocabulary<Platform> kPlatforms{kPlatformNames};

struct Device {
  std::string id;              // e.g. "rtx-3090-24gb"; "custom" for one given in a request
  std::string name;            // e.g. "RTX 3090 24GB"
  double memory_gib = 0;       // sold as "24 GB"; every comparison treats it as 24 GiB
  double bandwidth_gbps = 0;   // decimal GB/s (1e9 B/s)
  DeviceClass device_class = DeviceClass::kConsumer;
  Vendor vendor = Vendor::kNvidia;
  Platform platform = Platform::kCuda;
  // The GPU shares the machine's RAM (Apple silicon, DGX Spark, Ryzen AI Max): what an engine
  // keeps "in host RAM" takes the same memory.
  bool unified_memory = false;
  std::string source;          // vendor spec sheet URL
  // Peak dense matrix throughput (no sparsity), what prompt processing is bound by: FP16/BF16
  // with FP32 accumulate (a GPU without 16-bit matrix units: its FP32 rate), and INT8 and FP8
  // where the hardware has them; 0: not known. From the vendor's sheet or derived from its unit
  // counts and clocks (serving_source).
  double fp16_tflops = 0;
  double int8_tops = 0;
  double fp8_tflops = 0;
  // The sources of the figures serving reads: the peaks' (with a derived figure's arithmetic),
  // then, after "host link", the host link's name and its source.
  std::string serving_source;
  // The link to the host's CPU and RAM (a discrete card's PCIe slot), what a prompt's weights in
  // RAM cross under offload (section 8.3): its theoretical bandwidth per direction after line
  // encoding in decimal GB/s (lanes × 0.985, 1.969 or 3.938 GB/s for PCIe 3.0, 4.0, 5.0); 0:
  // unified memory, or not known.
  double host_link_gbps = 0;
  // What a unified-memory GPU may map of the RAM as the operating system sets it up, where that is
  // less than the RAM (an AMD APU under Linux: its GTT limit, about half the RAM, which
  // `amd-ttm --set` raises); 0: the whole memory_gib.
  double gpu_mapped_gib = 0;
  // The GPU's architecture version as its vendor's API reports it: an NVIDIA GPU's CUDA compute
  // capability (8.9 for Ada), which some engines require a minimum of
  // (RuntimeProfile::min_compute_capability); an Apple GPU's Metal GPU family, MTLGPUFamilyAppleN
  // as N (M1 7, M2 8, M3 and M4 9, M5 10; llama.cpp logs it at start-up), which a decode rule may
  // start from (DecodeRule::from_compute_capability); an AMD GPU's GFXIP version, major.minor of its
  // LLVM target (gfx1201 12.0, gfx1151 11.5, gfx942 9.4), which a prefill rule may start from
  // (RDNA4's); 0: not known.
  double compute_capability = 0;
};

inline bool IsApple(const Device& device) { return device.device_class == DeviceClass::kApple; }

}  // namespace vramcalc

#endif  // VRAMCALC_DEVICE_H_
