// The request's fields, read one by one from one table whatever carries them: a JSON object
// (json_codec.cc, json::Value) or a JavaScript object (the wasm modules' wasm/val_value.h,
// through Embind). Both value types answer the same questions (type, text, number, elements,
// members, the value as JSON for a message), so every rule and every message is written once
// here and a request reads the same either way. A field reader records what is wrong in a
// Problems and goes on with a harmless value; the request's first problem is the answer.
#ifndef VRAMCALC_SRC_IO_REQUEST_READER_H_
#define VRAMCALC_SRC_IO_REQUEST_READER_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/problems.h"
#include "vramcalc/display.h"
#include "vramcalc/evaluate.h"

namespace vramcalc::internal {

inline constexpr std::size_t kMaxRequestBytes = 1 << 20;  // 1 MiB; a real request is ~150 bytes
inline constexpr std::string_view kRequestExample = R"({"model": "glm-4-32b-0414"})";
// The answer to a request beyond kMaxRequestBytes; `example` shows one of its kind.
Error RequestTooLarge(std::string_view example = kRequestExample);

// The value as written in the request, for a message (at most 64 bytes, cut at a character).
std::string Echo(std::string_view source);

// "custom:<memory>:<bandwidth>[:<FP16 TFLOPS>[/<INT8 TOPS>]]:<platform>[+unified][@<version>]:<name>"
// (errors name the field "device").
Device CustomDeviceFromText(std::string_view text, Problems& p);
// A figure of a device of one's own: its key in the object form, its name in messages (both
// forms') and its largest value.
struct CustomFigureKind {
  std::string_view key;
  std::string_view what;
  double max = 0;
};
inline constexpr CustomFigureKind kCustomMemory{"memory_gib", "memory (GB)", 16384};
inline constexpr CustomFigureKind kCustomBandwidth{"bandwidth_gbps", "bandwidth (GB/s)", 100000};
inline constexpr CustomFigureKind kCustomFp16{"fp16_tflops", "peak (TFLOPS)", 100000};
inline constexpr CustomFigureKind kCustomInt8{"int8_tops", "peak (TOPS)", 100000};
inline constexpr CustomFigureKind kCustomHostLink{"host_link_gbps", "host link (GB/s)", 100000};
// Its architecture version (Device::compute_capability): which engines run on it (a CUDA card's)
// and which decode rules hold (an Apple GPU's Metal GPU family: the M5's is 10).
inline constexpr CustomFigureKind kCustomArch{"compute_capability", "compute capability", 99};
// A device from its figures, each checked and named by `field` ("device.memory_gib") in
// messages; `figure` is the number as written.
double CustomFigure(std::string_view figure, std::string_view field, const CustomFigureKind& kind, Problems& p);
std::string CustomName(std::string_view name, std::string_view field, Problems& p);
Platform CustomPlatform(std::string_view id, std::string_view field, Problems& p);
Device CustomDevice(std::string name, double memory_gib, double bandwidth_gbps, Platform platform, bool unified);

// The request fields' names, in kRequestFields' order.
std::vector<std::string_view> RequestFieldNames();
// The error for a request field that is not among `names`.
void FailUnknownField(std::string_view key, std::span<const std::string_view> names, Problems& p);

template <typename Value>
std::string RequestString(Value value, std::string_view key, Problems& p) {
  if (!value.IsString()) {
    p.Fail("invalid_type", std::string(key), std::string(key) + " must be a string, not " + std::string(value.TypeName()) + ".");
    return "";
  }
  return std::string(value.String());
}

// The problem of a number field that broke `rule`: of the wrong type (`got` its type's name), or
// out of range (`got` the value as written). Not a template: its messages are built once.
void FailNumber(std::string_view key, const std::string& rule, bool wrong_type, const std::string& got, Problems& p);
std::string CountRule(std::string_view key, int64_t max, std::string_view what);
std::string AmountRule(std::string_view key, double max, std::string_view unit);

// A positive whole number up to `max`; integral floats (32768.0) are accepted.
template <typename Value>
int64_t RequestCount(Value value, std::string_view key, int64_t max, std::string_view what, Problems& p) {
  const bool number = value.IsNumber();
  const double x = number ? value.Number() : 0;
  if (number && x >= 1 && x <= static_cast<double>(max) && x == std::floor(x)) return static_cast<int64_t>(x);
  FailNumber(key, CountRule(key, max, what), !number, number ? value.Source() : std::string(value.TypeName()), p);
  return 1;
}

// An amount above 0 and at most `max`, of `unit` ("GB"; none for a share of 1).
template <typename Value>
double RequestAmount(Value value, std::string_view key, double max, std::string_view unit, Problems& p) {
  const bool number = value.IsNumber();
  const double x = number ? value.Number() : 0;
  if (number && x > 0 && x <= max) return x;
  FailNumber(key, AmountRule(key, max, unit), !number, number ? value.Source() : std::string(value.TypeName()), p);
  return 1;
}

template <typename Value>
bool RequestFlag(Value value, std::string_view key, Problems& p) {
  if (!value.IsBool()) {
    p.Fail("invalid_type", std::string(key), std::string(key) + " must be true or false, not " + std::string(value.TypeName()) + ".");
    return false;
  }
  return value.Bool();
}

// "sections": an array of distinct section names (evaluate.h), in any order.
template <typename Value>
uint32_t RequestSections(Value value, Problems& p) {
  const std::string rule = "sections must be an array of " + JoinIds(kSections, "and", false);
  if (!value.IsArray() || value.size() > std::size(kSectionNames)) {
    p.Fail("invalid_type", "sections", rule + ", each at most once.");
    return 0;
  }
  uint32_t sections = 0;
  for (const Value name : value.Children()) {
    const auto found = name.IsString() ? kSections.Find(name.String()) : std::nullopt;
    if (!found) {
      p.Fail("invalid_value", "sections", rule + "; got " + Echo(name.Source()) + ".");
    } else if (sections & *found) {
      p.Fail("invalid_value", "sections", rule + ", each at most once.");
    } else {
      sections |= *found;
    }
  }
  return sections;
}

template <typename Value>
std::vector<std::string> RequestCompare(Value value, Problems& p) {
  if (!value.IsArray() || value.size() > kMaxCompareDevices) {
    p.Fail("invalid_type", "compare", "compare must be an array of at most " + std::to_string(kMaxCompareDevices) + " device ids.");
    return {};
  }
  std::vector<std::string> ids;
  for (const Value id : value.Children()) {
    if (!id.IsString()) p.Fail("invalid_type", "compare", "compare must hold device ids (strings).");
    if (id.IsString()) ids.emplace_back(id.String());
  }
  return ids;
}

// A device of one's own as {"name", "memory_gib", "bandwidth_gbps", "platform",
// "unified_memory", and optionally its peaks "fp16_tflops" and "int8_tops", its host link's
// "host_link_gbps" and its "compute_capability"}. A member that is missing is reported and read
// as absent (whose readers then report nothing more: the first problem is the one reported).
template <typename Value>
Device CustomDeviceFromObject(Value object, Problems& p) {
  const auto member = [object, &p](std::string_view key) {
    const Value value = object.Find(key);
    if (!value) p.Fail("missing_field", "device." + std::string(key), "device." + std::string(key) + " is required.");
    return value;
  };
  const auto number = [&](const CustomFigureKind& kind) {
    const Value value = member(kind.key);
    const std::string field = "device." + std::string(kind.key);
    if (value && !value.IsNumber()) p.Fail("invalid_type", field, field + " must be a number, not " + std::string(value.TypeName()) + ".");
    if (!value || !value.IsNumber()) return 1.0;
    return CustomFigure(value.Source(), field, kind, p);
  };
  const auto text = [&](std::string_view key) {
    const Value value = member(key);
    return value ? RequestString(value, "device." + std::string(key), p) : std::string();
  };
  const Value unified = object.Find("unified_memory");
  if (unified && !unified.IsBool()) p.Fail("invalid_type", "device.unified_memory", "device.unified_memory must be true or false.");
  Device d = CustomDevice(CustomName(text("name"), "device.name", p), number(kCustomMemory), number(kCustomBandwidth),
                          CustomPlatform(text("platform"), "device.platform", p), unified && unified.IsBool() && unified.Bool());
  // Its peak compute and host link, optional (serving has no figures without the FP16 peak, nor
  // with experts in RAM without the link).
  if (object.Find(kCustomFp16.key)) d.fp16_tflops = number(kCustomFp16);
  if (object.Find(kCustomInt8.key)) d.int8_tops = number(kCustomInt8);
  if (object.Find(kCustomHostLink.key)) d.host_link_gbps = number(kCustomHostLink);
  if (object.Find(kCustomArch.key)) d.compute_capability = number(kCustomArch);
  return d;
}

// A model given as an object: a config.json, which the value type's reader turns into the
// request's custom model (json_codec.cc for JSON; in the wasm modules, wasm/val_value.h).
template <typename Value>
struct ModelObject {
  static void Read(Value value, Request& out, Problems& p);
};

template <typename Value>
void ReadDeviceField(Value value, Request& out, Problems& p) {
  if (value.IsNull()) return;
  if (value.IsObject()) {
    out.custom_device = CustomDeviceFromObject(value, p);
  } else {
    const std::string id = RequestString(value, "device", p);
    if (id.starts_with(std::string(kCustomDeviceId) + ":")) out.custom_device = CustomDeviceFromText(id, p);
  }
  out.device = std::string(out.custom_device ? kCustomDeviceId : std::string_view(value.IsString() ? value.String() : ""));
}

template <typename Value>
void ReadModelField(Value value, Request& out, Problems& p) {
  if (value.IsObject()) {
    ModelObject<Value>::Read(value, out, p);  // bring your own model: a config.json
  } else if (!value.IsString()) {
    p.Fail("invalid_type", "model",
           "model must be a catalog id such as \"" + std::string(kDefaultModelId) +
               "\" or a config.json object, not " + std::string(value.TypeName()) + ".");
  } else {
    out.model = std::string(value.String());
  }
}

// One reader per request field, in kRequestFields' order (checked below).
template <typename Value>
struct FieldReader {
  std::string_view name;
  void (*read)(Value value, Request& out, Problems& p);
};
template <typename Value>
inline constexpr FieldReader<Value> kFieldReaders[] = {
    {"model", ReadModelField<Value>},
    {"format", [](Value v, Request& r, Problems& p) { r.format = RequestString(v, "format", p); }},
    {"context", [](Value v, Request& r, Problems& p) {
       r.context_tokens = RequestCount(v, "context", kMaxRequestContextTokens, "tokens", p);
     }},
    {"batch", [](Value v, Request& r, Problems& p) {
       r.batch = RequestCount(v, "batch", kMaxRequestBatch, "concurrent sequences", p);
     }},
    {"kv_dtype", [](Value v, Request& r, Problems& p) { r.kv_dtype = RequestString(v, "kv_dtype", p); }},
    {"device", ReadDeviceField<Value>},
    {"device_count", [](Value v, Request& r, Problems& p) {
       r.device_count = RequestCount(v, "device_count", kMaxDeviceCount, "devices in tensor parallel", p);
     }},
    {"compare", [](Value v, Request& r, Problems& p) { r.compare = RequestCompare(v, p); }},
    {"runtime", [](Value v, Request& r, Problems& p) { r.runtime = RequestString(v, "runtime", p); }},
    {"memory_utilization", [](Value v, Request& r, Problems& p) {
       r.memory_utilization = RequestAmount(v, "memory_utilization", 1, "", p);
     }},
    {"max_num_batched_tokens", [](Value v, Request& r, Problems& p) {
       r.max_num_batched_tokens = RequestCount(v, "max_num_batched_tokens", kMaxRequestBatchedTokens, "tokens", p);
     }},
    {"ubatch", [](Value v, Request& r, Problems& p) {
       r.ubatch = RequestCount(v, "ubatch", kMaxRequestBatchedTokens, "tokens", p);
     }},
    {"flash_attention", [](Value v, Request& r, Problems& p) { r.flash_attention = RequestFlag(v, "flash_attention", p); }},
    {"parallel", [](Value v, Request& r, Problems& p) { r.parallel = RequestCount(v, "parallel", kMaxRequestBatch, "slots", p); }},
    {"host_memory", [](Value v, Request& r, Problems& p) {
       r.host_memory_gib = RequestAmount(v, "host_memory", kMaxHostMemoryGib, "GB", p);
     }},
    {"host_memory_type", [](Value v, Request& r, Problems& p) { r.host_memory_type = RequestString(v, "host_memory_type", p); }},
    {"host_bandwidth", [](Value v, Request& r, Problems& p) {
       r.host_bandwidth_gbps = RequestAmount(v, "host_bandwidth", kMaxHostBandwidthGbps, "GB/s", p);
     }},
    {"prompt_tokens", [](Value v, Request& r, Problems& p) {
       r.prompt_tokens = RequestCount(v, "prompt_tokens", kMaxRequestContextTokens, "tokens", p);
     }},
    {"output_tokens", [](Value v, Request& r, Problems& p) {
       r.output_tokens = RequestCount(v, "output_tokens", kMaxRequestContextTokens, "tokens", p);
     }},
    {"min_user_tps", [](Value v, Request& r, Problems& p) {
       r.min_user_tps = RequestAmount(v, "min_user_tps", kMaxMinUserTps, "tok/s", p);
     }},
    {"sections", [](Value v, Request& r, Problems& p) { r.sections = RequestSections(v, p); }},
};

template <typename Value>
constexpr bool ReadersMatchFields() {
  if (std::size(kFieldReaders<Value>) != std::size(kRequestFields)) return false;
  for (std::size_t i = 0; i < std::size(kFieldReaders<Value>); ++i) {
    if (kFieldReaders<Value>[i].name != kRequestFields[i].name) return false;
  }
  return true;
}

// Rejects a field of `request` (an object of Value's kind) that is not among `names`.
template <typename Object>
void RejectUnknown(const Object& request, std::span<const std::string_view> names, Problems& p) {
  for (const auto member : request.Children()) {
    if (std::find(names.begin(), names.end(), member.Key()) == names.end()) return FailUnknownField(member.Key(), names, p);
  }
}

// Reads every field `request` has into `out`, in kRequestFields' order; `model`, when given,
// stands for the request's model field (a config.json given beside the request).
template <typename Value, typename Object>
void ReadPresent(const Object& request, Request& out, Problems& p, Value model = Value()) {
  static_assert(ReadersMatchFields<Value>(), "every request field (evaluate.h) needs its reader, in order");
  for (const FieldReader<Value>& reader : kFieldReaders<Value>) {
    const Value found = reader.name == "model" && model ? model : request.Find(reader.name);
    if (found) reader.read(found, out, p);
  }
}

// A request's fields; `config`, when given, is the model (a config.json beside the request).
template <typename Value, typename Object>
Result<Request> ReadRequest(const Object& request, Value config = Value()) {
  Problems problems;
  RejectUnknown(request, RequestFieldNames(), problems);
  if (problems) return problems.first();
  if (config && request.Find("model")) {
    return Error{"invalid_value", "Give the model either as a config.json or in the request, not both.", "model"};
  }
  if (!config && !request.Find("model")) {
    return Error{"missing_field", "model is required, e.g. \"" + std::string(kDefaultModelId) + "\".", "model"};
  }
  Request parsed;
  ReadPresent(request, parsed, problems, config);
  if (problems) return problems.first();
  return parsed;
}

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_IO_REQUEST_READER_H_
