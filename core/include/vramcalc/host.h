// The host beside the GPUs: its RAM, which holds what does not fit on them (llama.cpp's
// -ngl and --n-cpu-moe, core/ESTIMATION.md section 7), and how fast a CPU reads it.
#ifndef VRAMCALC_HOST_H_
#define VRAMCALC_HOST_H_

#include <cstddef>
#include <iterator>
#include <span>
#include <string_view>

namespace vramcalc {

// The DRAM generation of a host's RAM: the offload rule's RAM efficiency is keyed by it
// (core/ESTIMATION.md section 7).
enum class MemoryGeneration { kDdr4, kDdr5 };
inline constexpr std::size_t kMemoryGenerationCount = 2;

// A kind of system memory: DIMMs of one speed on some 64-bit channels. Its peak bandwidth is
// transfers per second × 8 bytes × channels (a channel carries 64 data bits; a DDR5 DIMM's two
// 32-bit subchannels count as one channel, as vendors count them), a hand calculation from the
// speed and the platform's channels in its source (kHostMemoryTypeSources), whose own figure it
// matches where it gives one.
struct HostMemoryType {
  // "<type>-<MT/s>-<channels>ch", e.g. "ddr5-5600-2ch": the page writes its label from it.
  std::string_view id;
  double mega_transfers = 0;
  int channels = 0;
  constexpr double bandwidth_gbps() const { return mega_transfers * 8.0 * channels / 1000.0; }
  // The id's "<type>": "ddr4" or "ddr5" (checked below).
  constexpr MemoryGeneration generation() const {
    return id.starts_with("ddr4-") ? MemoryGeneration::kDdr4 : MemoryGeneration::kDdr5;
  }
};

inline constexpr HostMemoryType kHostMemoryTypes[] = {
    {"ddr4-3200-2ch", 3200, 2},
    {"ddr5-5600-2ch", 5600, 2},
    {"ddr5-6400-2ch", 6400, 2},
    {"ddr4-3200-4ch", 3200, 4},
    {"ddr4-3200-8ch", 3200, 8},
    {"ddr5-4800-12ch", 4800, 12},
};
// Each type's source, in kHostMemoryTypes' order (checked below); a table of its own, so that the
// wasm modules, which never show it, carry none of it.
struct HostMemoryTypeSource {
  std::string_view id;
  std::string_view source;
};
inline constexpr HostMemoryTypeSource kHostMemoryTypeSources[] = {
    {"ddr4-3200-2ch",
     "https://hothardware.com/news/amd-ryzen-3000-zen-2-cpus-jedec-ddr4-3200-memory-spec (dual channel DDR4-3200: "
     "25.6 GB/s per channel, 51.2 GB/s)"},
    {"ddr5-5600-2ch",
     "https://www.indiekings.com/2024/06/amd-ryzen-9000-zen-5-cpus-enhanced-ddr5.html (Ryzen 9000: DDR5-5600 by default, "
     "up to DDR5-6400 at 1:1); dual channel on AM5: "
     "https://kingston.com/unitedkingdom/it/blog/gaming/amd-ryzen-ddr5-memory-guide"},
    {"ddr5-6400-2ch",
     "https://www.indiekings.com/2024/06/amd-ryzen-9000-zen-5-cpus-enhanced-ddr5.html (up to DDR5-6400 at 1:1 on "
     "X670/X870 boards); dual channel as above"},
    {"ddr4-3200-4ch",
     "https://www.cpu-monkey.com/it/cpu_family-amd_ryzen_threadripper (Threadripper 3000: 4 channels, DDR4-3200, "
     "over 102 GB/s)"},
    {"ddr4-3200-8ch",
     "https://www.tomshardware.com/news/amd-confirms-12-ddr5-memory-channels-on-genoa (\"204.8 GB/s available to "
     "current-generation EPYC CPUs with DDR4-3200\": 8 channels)"},
    {"ddr5-4800-12ch",
     "https://www.tomshardware.com/news/amd-confirms-12-ddr5-memory-channels-on-genoa (EPYC 9004 Genoa: twelve 64-bit "
     "DDR5 channels, 460.8 GB/s per socket)"},
};
constexpr bool SourcesMatchTypes() {
  if (std::size(kHostMemoryTypeSources) != std::size(kHostMemoryTypes)) return false;
  for (std::size_t i = 0; i < std::size(kHostMemoryTypes); ++i) {
    if (kHostMemoryTypeSources[i].id != kHostMemoryTypes[i].id || kHostMemoryTypeSources[i].source.empty()) return false;
  }
  return true;
}
static_assert(SourcesMatchTypes(), "every host memory type needs its source, in kHostMemoryTypes' order");
// Each type's id names a generation the offload rule knows.
constexpr bool IdsNameAGeneration() {
  for (const HostMemoryType& type : kHostMemoryTypes) {
    if (!type.id.starts_with("ddr4-") && !type.id.starts_with("ddr5-")) return false;
  }
  return true;
}
static_assert(IdsNameAGeneration(), "a host memory type's id starts with ddr4- or ddr5-");
// A typical desktop of 2026: 32 GB of dual-channel DDR5-5600.
inline constexpr std::string_view kDefaultHostMemoryTypeId = "ddr5-5600-2ch";
inline constexpr double kDefaultHostMemoryGib = 32;
inline constexpr double kMaxHostMemoryGib = 65536;
inline constexpr double kMaxHostBandwidthGbps = 10000;

inline std::span<const HostMemoryType> HostMemoryTypes() { return kHostMemoryTypes; }
// nullptr when `id` is not a type's id.
constexpr const HostMemoryType* FindHostMemoryType(std::string_view id) {
  for (const HostMemoryType& type : kHostMemoryTypes) {
    if (type.id == id) return &type;
  }
  return nullptr;
}

inline constexpr double kDefaultHostBandwidthGbps = FindHostMemoryType(kDefaultHostMemoryTypeId)->bandwidth_gbps();

// The host of one scenario: its RAM's size and peak bandwidth, and the type it came from
// (nullptr for a bandwidth given by its figure). A scenario built without a request has no
// bandwidth (0): the offload plans then take the default type's, kDefaultHostBandwidthGbps.
struct Host {
  double memory_gib = kDefaultHostMemoryGib;
  double bandwidth_gbps = 0;
  const HostMemoryType* type = nullptr;
  // Its type's generation; a bandwidth of one's own (no type) takes the default type's.
  constexpr MemoryGeneration generation() const {
    return (type != nullptr ? type : FindHostMemoryType(kDefaultHostMemoryTypeId))->generation();
  }
};

}  // namespace vramcalc

#endif  // VRAMCALC_HOST_H_
