// The parts of the request's readers (request_reader.h) that depend on no value type: messages,
// the field names, and a device of one's own given as text.
#include "io/request_reader.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "vramcalc/display.h"

namespace vramcalc::internal {

std::string Echo(std::string_view source) {
  if (source.size() <= 64) return std::string(source);
  std::size_t cut = 64;
  while (cut > 0 && (static_cast<unsigned char>(source[cut]) & 0xC0) == 0x80) --cut;
  return std::string(source.substr(0, cut)) + "…";
}

Error RequestTooLarge(std::string_view example) {
  return Error{"request_too_large",
               "The request is larger than 1 MiB; a request is a few short fields such as " + std::string(example) + ".", ""};
}

void FailNumber(std::string_view key, const std::string& rule, bool wrong_type, const std::string& got, Problems& p) {
  std::string message = rule;
  message += wrong_type ? ", not " : "; got ";
  message += wrong_type ? got : Echo(got);
  message += ".";
  p.Fail(wrong_type ? "invalid_type" : "invalid_value", std::string(key), message);
}

std::string CountRule(std::string_view key, int64_t max, std::string_view what) {
  return std::string(key) + " must be a whole number of " + std::string(what) + " from 1 to " + FormatGrouped(max);
}

std::string AmountRule(std::string_view key, double max, std::string_view unit) {
  return std::string(key) + " must be a number " + (unit.empty() ? "" : "of " + std::string(unit) + " ") +
         "above 0 and at most " + FormatGrouped(static_cast<int64_t>(max));
}

std::vector<std::string_view> RequestFieldNames() {
  std::vector<std::string_view> names;
  for (const RequestField& field : kRequestFields) names.push_back(field.name);
  return names;
}

void FailUnknownField(std::string_view key, std::span<const std::string_view> names, Problems& p) {
  const std::string shown(Clipped(key, 64));
  p.Fail("unknown_field", shown,
         "Unknown request field \"" + shown + "\"; the fields are " +
             JoinIds(names, [](std::string_view name) { return name; }, "and", false) + ".");
}

// ---- a device of one's own ---------------------------------------------------------------------

namespace {

constexpr std::size_t kMaxCustomName = 64;
constexpr std::string_view kCustomDeviceRule =
    "a device of your own is \"custom:<memory GB>:<bandwidth GB/s>[:<FP16 TFLOPS>[/<INT8 TOPS>]]:<cuda, rocm, vulkan or "
    "metal>[+unified][@<compute capability>]:<name>\", e.g. \"custom:20:800:vulkan:RX 7900 XT\"";

// A figure as a plain decimal: digits without a leading zero (but "0" and "0.5"), at most one
// point with digits after it, no sign, no exponent, at most 15 digits; else NaN. So few digits
// make a whole number below 2^53 over a power of ten up to 10^15, both exact: the one division is
// the correctly rounded value, as a JSON reader's (Clinger's fast path), without its slow path.
double ReadFigure(std::string_view text) {
  const std::size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? "" : text.substr(point + 1);
  const auto digits = [](std::string_view part) {
    return !part.empty() && part.find_first_not_of("0123456789") == std::string_view::npos;
  };
  const bool plain = digits(whole) && (point == std::string_view::npos || digits(fraction)) &&
                     (whole.size() == 1 || whole[0] != '0') && whole.size() + fraction.size() <= 15;
  if (!plain) return std::nan("");
  uint64_t significand = 0;
  double scale = 1;
  for (const char c : whole) significand = significand * 10 + static_cast<uint64_t>(c - '0');
  for (const char c : fraction) significand = significand * 10 + static_cast<uint64_t>(c - '0'), scale *= 10;
  return static_cast<double>(significand) / scale;
}

}  // namespace

// The class and vendor follow the platform (Metal: Apple, unified memory; CUDA: NVIDIA; ROCm
// and Vulkan: AMD).
Device CustomDevice(std::string name, double memory_gib, double bandwidth_gbps, Platform platform, bool unified) {
  Device d;
  d.id = std::string(kCustomDeviceId);
  d.name = std::move(name);
  d.memory_gib = memory_gib;
  d.bandwidth_gbps = bandwidth_gbps;
  d.platform = platform;
  d.device_class = platform == Platform::kMetal ? DeviceClass::kApple : DeviceClass::kConsumer;
  d.vendor = platform == Platform::kMetal ? Vendor::kApple : platform == Platform::kCuda ? Vendor::kNvidia : Vendor::kAmd;
  d.unified_memory = unified || platform == Platform::kMetal;
  d.source = "given in the request";
  return d;
}

double CustomFigure(std::string_view figure, std::string_view field, const CustomFigureKind& kind, Problems& p) {
  const std::string rule = std::string(field) + ": the " + std::string(kind.what) + " must be a number above 0 up to " +
                           FormatGrouped(static_cast<int64_t>(kind.max)) + " in at most 15 digits";
  const double value = ReadFigure(figure);
  if (!(value > 0) || value > kind.max) {
    p.Fail("invalid_value", std::string(field), rule + "; got \"" + std::string(Clipped(figure, 32)) + "\".");
    return 1;
  }
  return value;
}

std::string CustomName(std::string_view name, std::string_view field, Problems& p) {
  if (name.empty() || name.size() > kMaxCustomName || HasControlCharacter(name)) {
    p.Fail("invalid_value", std::string(field),
           std::string(field) + ": the name must be 1 to 64 characters without control characters.");
    return "";
  }
  return std::string(name);
}

Platform CustomPlatform(std::string_view id, std::string_view field, Problems& p) {
  const std::optional<Platform> platform = kPlatforms.Find(id);
  if (!platform) {
    p.Fail("invalid_value", std::string(field), std::string(field) + ": the platform must be " + JoinIds(kPlatforms) + ".");
    return Platform::kCuda;
  }
  return *platform;
}

// "custom:<memory>:<bandwidth>[:<FP16 TFLOPS>[/<INT8 TOPS>]]:<platform>[+unified][@<version>]:<name>":
// the segment after the bandwidth is the peak where it starts with a digit (a platform never
// does); the version after "@" is the device's compute capability (an Apple GPU's Metal family, an AMD
// GPU's GFXIP version).
Device CustomDeviceFromText(std::string_view text, Problems& p) {
  std::string_view rest = text.substr(kCustomDeviceId.size() + 1);
  std::string_view parts[4];
  std::size_t n = 0;
  while (n < 4) {
    const std::size_t colon = rest.find(':');
    if (colon == std::string_view::npos) {
      p.Fail("invalid_value", "device", "device: " + std::string(kCustomDeviceRule) + ".");
      return {};
    }
    parts[n++] = rest.substr(0, colon);
    rest = rest.substr(colon + 1);
    if (n == 3 && (parts[2].empty() || parts[2][0] < '0' || parts[2][0] > '9')) break;  // no peak segment
  }
  std::string_view platform = parts[n - 1];
  const std::size_t at = platform.find('@');
  const std::string_view version = at == std::string_view::npos ? std::string_view() : platform.substr(at + 1);
  platform = platform.substr(0, at);
  const bool unified = platform.ends_with("+unified");
  if (unified) platform.remove_suffix(std::string_view("+unified").size());
  Device d = CustomDevice(CustomName(rest, "device", p), CustomFigure(parts[0], "device", kCustomMemory, p),
                          CustomFigure(parts[1], "device", kCustomBandwidth, p), CustomPlatform(platform, "device", p), unified);
  if (n == 4) {
    const std::size_t slash = parts[2].find('/');
    d.fp16_tflops = CustomFigure(parts[2].substr(0, slash), "device", kCustomFp16, p);
    if (slash != std::string_view::npos) d.int8_tops = CustomFigure(parts[2].substr(slash + 1), "device", kCustomInt8, p);
  }
  if (at != std::string_view::npos) d.compute_capability = CustomFigure(version, "device", kCustomArch, p);
  return d;
}

}  // namespace vramcalc::internal
