// A GPU or Apple Silicon machine: memory, bandwidth and the class that sets its efficiency.
#ifndef VRAMCALC_DEVICE_H_
#define VRAMCALC_DEVICE_H_

#include <string>

namespace vramcalc {

// The class sets the decode efficiency (estimation model 1.5) and, for Apple, the overhead.
enum class DeviceClass { kConsumer, kApple, kDatacenter };
enum class Vendor { kNvidia, kAmd, kApple };

struct Device {
  std::string id;              // e.g. "rtx-3090-24gb"
  std::string name;            // e.g. "RTX 3090 24GB"
  double memory_gib = 0;       // sold as "24 GB"; every comparison treats it as 24 GiB
  double bandwidth_gbps = 0;   // decimal GB/s (1e9 B/s)
  DeviceClass device_class = DeviceClass::kConsumer;
  Vendor vendor = Vendor::kNvidia;
  std::string source;          // vendor spec sheet URL
};

inline bool IsApple(const Device& device) { return device.device_class == DeviceClass::kApple; }

}  // namespace vramcalc

#endif  // VRAMCALC_DEVICE_H_
