// The request side of the JSON contract: evaluate and sweep requests, read with the core's own
// JSON reader (json_dom.h) field by field from one table. A field reader records what is wrong
// in a Problems and goes on with a harmless value; the request's first problem is the answer.
// Nothing here throws (the wasm module is built without exception support).
#include "vramcalc/json_codec.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "hf_config_internal.h"
#include "json_dom.h"
#include "json_output.h"
#include "problems.h"
#include "vramcalc/display.h"
#include "vramcalc/quant_format.h"

namespace vramcalc {
namespace {

using json::Value;

constexpr std::size_t kMaxRequestBytes = 1 << 20;  // 1 MiB; a real request is ~150 bytes
constexpr int kMaxNestingDepth = 32;

// What a person reads for each way a text fails to be JSON.
std::string_view ProblemText(json::Problem problem, bool in_value) {
  switch (problem) {
    case json::Problem::kTooDeep: return "is nested too deeply";
    case json::Problem::kNotUtf8: return "holds text that is not valid UTF-8";
    case json::Problem::kTooLarge: return "holds a number too large to read (such as 1e400)";
    case json::Problem::kDuplicateKey: return "names a key twice";
    case json::Problem::kWord:
      // NaN, Infinity, undefined: the message avoids those words, which the page scans its
      // text for as signs of a bug.
      if (in_value) return "is not valid JSON (numbers must be finite and words quoted)";
      break;
    case json::Problem::kSyntax: break;
  }
  return "is not valid JSON";
}

// `text` (the request, or a config.json under `prefix` "model") as a document, or the error
// that names the field where reading stopped when there is one.
Result<json::Document> ParseText(std::string_view text, std::string_view what, const std::string& prefix,
                                 int max_depth, std::string_view example = R"({"model": "glm-4-32b-0414"})") {
  json::ParseFailure failure;
  Result<json::Document> document = json::Document::Parse(text, max_depth, &failure);
  if (document.ok()) return document;
  std::string field = failure.path;
  if (!prefix.empty()) field = field.empty() ? prefix : prefix + "." + field;
  const std::string problem(ProblemText(failure.problem, !field.empty()));
  if (!field.empty()) return Error{"malformed_json", "The value of " + field + " " + problem + ".", field};
  const std::string at =
      failure.problem == json::Problem::kTooDeep ? "" : " (error at byte " + std::to_string(failure.byte) + ")";
  return Error{"malformed_json",
               "The " + std::string(what) + " " + problem + at + ". Send an object such as " + std::string(example) + ".",
               ""};
}

// ---- request fields ----------------------------------------------------------------------

using internal::Problems;

// The value as written in the request, for a message (at most 64 bytes, cut at a character).
std::string Echo(Value value) {
  std::string_view text = value.Source();
  if (text.size() <= 64) return std::string(text);
  std::size_t cut = 64;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

std::string RequestString(Value value, std::string_view key, Problems& p) {
  if (!value.IsString()) {
    p.Fail("invalid_type", std::string(key), std::string(key) + " must be a string, not " + std::string(value.TypeName()) + ".");
    return "";
  }
  return std::string(value.String());
}

// A positive whole number up to `max`; integral floats (32768.0) are accepted.
int64_t RequestCount(Value value, std::string_view key, int64_t max, const char* what, Problems& p) {
  const std::string rule = std::string(key) + " must be a whole number of " + what + " from 1 to " +
                           FormatGrouped(max);
  if (!value.IsNumber()) {
    p.Fail("invalid_type", std::string(key), rule + ", not " + std::string(value.TypeName()) + ".");
    return 1;
  }
  const double number = value.Number();
  if (!(number >= 1) || number > static_cast<double>(max) || number != std::floor(number)) {
    p.Fail("invalid_value", std::string(key), rule + "; got " + Echo(value) + ".");
    return 1;
  }
  return static_cast<int64_t>(number);
}

// A share above 0 and at most 1.
double RequestShare(Value value, std::string_view key, Problems& p) {
  const std::string rule = std::string(key) + " must be a number above 0 and at most 1";
  if (!value.IsNumber()) {
    p.Fail("invalid_type", std::string(key), rule + ", not " + std::string(value.TypeName()) + ".");
    return 1;
  }
  const double number = value.Number();
  if (!(number > 0) || number > 1) {
    p.Fail("invalid_value", std::string(key), rule + "; got " + Echo(value) + ".");
    return 1;
  }
  return number;
}

bool RequestFlag(Value value, std::string_view key, Problems& p) {
  if (!value.IsBool()) {
    p.Fail("invalid_type", std::string(key), std::string(key) + " must be true or false, not " + std::string(value.TypeName()) + ".");
    return false;
  }
  return value.Bool();
}

// "sections": an array of distinct section names (evaluate.h), in any order.
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
      p.Fail("invalid_value", "sections", rule + "; got " + Echo(name) + ".");
    } else if (sections & *found) {
      p.Fail("invalid_value", "sections", rule + ", each at most once.");
    } else {
      sections |= *found;
    }
  }
  return sections;
}

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

// ---- a device of one's own ---------------------------------------------------------------------

constexpr double kMaxCustomMemoryGib = 16384;
constexpr double kMaxCustomBandwidthGbps = 100000;
constexpr std::size_t kMaxCustomName = 64;
constexpr std::string_view kCustomDeviceRule =
    "a device of your own is \"custom:<memory GB>:<bandwidth GB/s>:<cuda, rocm, vulkan or metal>[+unified]:<name>\", "
    "e.g. \"custom:20:800:vulkan:RX 7900 XT\"";

// A device from its figures: the class and vendor follow the platform (Metal: Apple, unified
// memory; CUDA: NVIDIA; ROCm and Vulkan: AMD).
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

// One figure of a custom device (`what`: "memory (GB)", "bandwidth (GB/s)"), named by `field`.
double CustomFigure(std::string_view text, std::string_view field, std::string_view what, double max, Problems& p) {
  const std::string rule = std::string(field) + ": the " + std::string(what) + " must be a number above 0 up to " +
                           FormatGrouped(static_cast<int64_t>(max));
  // The figure is read as a JSON number: digits, one point, no signs or exponents beyond it.
  const bool plain = !text.empty() && text.size() <= 24 && text.find_first_not_of("0123456789.") == std::string_view::npos;
  const Result<json::Document> parsed = plain ? json::Document::Parse(text) : Result<json::Document>(Error{});
  const double value = parsed.ok() && parsed.value().root().IsNumber() ? parsed.value().root().Number() : 0;
  if (!(value > 0) || value > max) {
    p.Fail("invalid_value", std::string(field), rule + "; got \"" + std::string(text.substr(0, 32)) + "\".");
    return 1;
  }
  return value;
}

std::string CustomName(std::string_view name, std::string_view field, Problems& p) {
  const bool control = std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (name.empty() || name.size() > kMaxCustomName || control) {
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

// "custom:<memory>:<bandwidth>:<platform>[+unified]:<name>".
Device CustomDeviceFromText(std::string_view text, Problems& p) {
  std::string_view rest = text.substr(kCustomDeviceId.size() + 1);
  std::string_view parts[3];
  for (std::string_view& part : parts) {
    const std::size_t colon = rest.find(':');
    if (colon == std::string_view::npos) {
      p.Fail("invalid_value", "device", "device: " + std::string(kCustomDeviceRule) + ".");
      return {};
    }
    part = rest.substr(0, colon);
    rest = rest.substr(colon + 1);
  }
  const bool unified = parts[2].ends_with("+unified");
  if (unified) parts[2].remove_suffix(std::string_view("+unified").size());
  return CustomDevice(CustomName(rest, "device", p), CustomFigure(parts[0], "device", "memory (GB)", kMaxCustomMemoryGib, p),
                      CustomFigure(parts[1], "device", "bandwidth (GB/s)", kMaxCustomBandwidthGbps, p),
                      CustomPlatform(parts[2], "device", p), unified);
}

// {"name", "memory_gib", "bandwidth_gbps", "platform", "unified_memory"}.
// A member that is missing is reported and read as null (whose readers then report nothing
// more: the first problem is the one reported).
Device CustomDeviceFromObject(Value object, Problems& p) {
  const auto member = [object, &p](std::string_view key) {
    const Value value = object.Find(key);
    if (!value) p.Fail("missing_field", "device." + std::string(key), "device." + std::string(key) + " is required.");
    return value;
  };
  const auto number = [&](std::string_view key, double max) {
    const Value value = member(key);
    const std::string field = "device." + std::string(key);
    if (value && !value.IsNumber()) p.Fail("invalid_type", field, field + " must be a number, not " + std::string(value.TypeName()) + ".");
    if (!value || !value.IsNumber()) return 1.0;
    return CustomFigure(value.Source(), field, key == "memory_gib" ? "memory (GB)" : "bandwidth (GB/s)", max, p);
  };
  const auto text = [&](std::string_view key) {
    const Value value = member(key);
    return value ? RequestString(value, "device." + std::string(key), p) : std::string();
  };
  const Value unified = object.Find("unified_memory");
  if (unified && !unified.IsBool()) p.Fail("invalid_type", "device.unified_memory", "device.unified_memory must be true or false.");
  return CustomDevice(CustomName(text("name"), "device.name", p),
                      number("memory_gib", kMaxCustomMemoryGib), number("bandwidth_gbps", kMaxCustomBandwidthGbps),
                      CustomPlatform(text("platform"), "device.platform", p),
                      unified && unified.IsBool() && unified.Bool());
}

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

void ReadModelField(Value value, Request& out, Problems& p) {
  if (value.IsObject()) {
    // Bring your own model: a Hugging Face config.json in place of a catalog id.
    Result<ModelSpec> custom = internal::ParseHfConfigObject(value);
    if (!custom.ok()) {
      const Error& e = custom.error();
      p.Fail(e.code, e.field, e.message);
      return;
    }
    out.model = custom.value().id;
    out.custom_model = std::move(custom).value();
  } else if (!value.IsString()) {
    p.Fail("invalid_type", "model",
           "model must be a catalog id such as \"" + std::string(kDefaultModelId) +
               "\" or a config.json object, not " + std::string(value.TypeName()) + ".");
  } else {
    out.model = std::string(value.String());
  }
}

// One reader per request field, in kRequestFields' order (checked below).
struct FieldReader {
  std::string_view name;
  void (*read)(Value value, Request& out, Problems& p);
};
constexpr FieldReader kFieldReaders[] = {
    {"model", ReadModelField},
    {"format", [](Value v, Request& r, Problems& p) { r.format = RequestString(v, "format", p); }},
    {"context", [](Value v, Request& r, Problems& p) {
       r.context_tokens = RequestCount(v, "context", kMaxRequestContextTokens, "tokens", p);
     }},
    {"batch", [](Value v, Request& r, Problems& p) {
       r.batch = RequestCount(v, "batch", kMaxRequestBatch, "concurrent sequences", p);
     }},
    {"kv_dtype", [](Value v, Request& r, Problems& p) { r.kv_dtype = RequestString(v, "kv_dtype", p); }},
    {"device", ReadDeviceField},
    {"device_count", [](Value v, Request& r, Problems& p) {
       r.device_count = RequestCount(v, "device_count", kMaxDeviceCount, "devices in tensor parallel", p);
     }},
    {"compare", [](Value v, Request& r, Problems& p) { r.compare = RequestCompare(v, p); }},
    {"runtime", [](Value v, Request& r, Problems& p) { r.runtime = RequestString(v, "runtime", p); }},
    {"memory_utilization", [](Value v, Request& r, Problems& p) {
       r.memory_utilization = RequestShare(v, "memory_utilization", p);
     }},
    {"max_num_batched_tokens", [](Value v, Request& r, Problems& p) {
       r.max_num_batched_tokens = RequestCount(v, "max_num_batched_tokens", kMaxRequestBatchedTokens, "tokens", p);
     }},
    {"ubatch", [](Value v, Request& r, Problems& p) {
       r.ubatch = RequestCount(v, "ubatch", kMaxRequestBatchedTokens, "tokens", p);
     }},
    {"flash_attention", [](Value v, Request& r, Problems& p) { r.flash_attention = RequestFlag(v, "flash_attention", p); }},
    {"parallel", [](Value v, Request& r, Problems& p) { r.parallel = RequestCount(v, "parallel", kMaxRequestBatch, "slots", p); }},
    {"sections", [](Value v, Request& r, Problems& p) { r.sections = RequestSections(v, p); }},
};

constexpr bool ReadersMatchFields() {
  if (std::size(kFieldReaders) != std::size(kRequestFields)) return false;
  for (std::size_t i = 0; i < std::size(kFieldReaders); ++i) {
    if (kFieldReaders[i].name != kRequestFields[i].name) return false;
  }
  return true;
}
static_assert(ReadersMatchFields(), "every request field (evaluate.h) needs its reader, in order");

// Rejects a field of `request` that is not among `names`.
void RejectUnknown(Value request, std::span<const std::string_view> names, Problems& p) {
  for (const Value member : request.Children()) {
    const std::string key(member.Key().substr(0, 64));
    if (std::find(names.begin(), names.end(), member.Key()) == names.end()) {
      p.Fail("unknown_field", key,
             "Unknown request field \"" + key + "\"; the fields are " +
                 JoinIds(names, [](std::string_view name) { return name; }, "and", false) + ".");
      return;
    }
  }
}

// Reads every field `request` has into `out`, in kRequestFields' order; `model`, when given,
// stands for the request's model field (a config.json given beside the request).
void ReadPresent(Value request, Request& out, Problems& p, Value model = Value()) {
  for (const FieldReader& reader : kFieldReaders) {
    const Value found = reader.name == "model" && model ? model : request.Find(reader.name);
    if (found) reader.read(found, out, p);
  }
}

// ---- whole requests ------------------------------------------------------------------------

constexpr std::string_view kRequestExample = R"({"model": "glm-4-32b-0414"})";

// The request text as a JSON object, or the error a request of `example`'s kind gets.
Result<json::Document> ParseRequestObject(std::string_view request_json, std::string_view example) {
  if (request_json.size() > kMaxRequestBytes) {
    return Error{"request_too_large", "The request is larger than 1 MiB; a request is a few "
                 "short fields such as " + std::string(example) + ".", ""};
  }
  Result<json::Document> request = ParseText(request_json, "request", "", kMaxNestingDepth, example);
  if (request.ok() && !request.value().root().IsObject()) {
    return Error{"invalid_type",
                 "The request must be a JSON object such as " + std::string(example) + ", not " +
                     std::string(request.value().root().TypeName()) + ".",
                 ""};
  }
  return request;
}

std::vector<std::string_view> RequestFieldNames() {
  std::vector<std::string_view> names;
  for (const RequestField& field : kRequestFields) names.push_back(field.name);
  return names;
}

// A request's fields; `config`, when given, is the model (a config.json beside the request).
Result<Request> ReadRequest(Value request, Value config = Value()) {
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

}  // namespace

Result<Request> ParseRequest(std::string_view request_json) {
  const Result<json::Document> parsed = ParseRequestObject(request_json, kRequestExample);
  if (!parsed.ok()) return parsed.error();
  return ReadRequest(parsed.value().root());
}

Result<Request> ParseRequest(std::string_view request_json, std::string_view config_json) {
  if (config_json.empty()) return ParseRequest(request_json);
  if (config_json.size() > kMaxRequestBytes) {
    return Error{"request_too_large", "The config.json is larger than 1 MiB; a config.json is a few KB.",
                 "model"};
  }
  const Result<json::Document> config = ParseText(config_json, "config.json", "model", kMaxNestingDepth - 1);
  if (!config.ok()) return config.error();
  // The request beside a config.json names everything but the model.
  const Result<json::Document> parsed =
      ParseRequestObject(request_json.empty() ? "{}" : request_json, R"({"format": "Q8_0"})");
  if (!parsed.ok()) return parsed.error();
  return ReadRequest(parsed.value().root(), config.value().root());
}

Result<SweepRequest> ParseSweepRequest(std::string_view request_json) {
  const Result<json::Document> parsed = ParseRequestObject(request_json, R"({"context": 32768})");
  if (!parsed.ok()) return parsed.error();
  constexpr std::string_view kSweepFields[] = {"context", "batch", "kv_dtype", "runtime", "device", "compare",
                                               "device_count"};
  Problems problems;
  RejectUnknown(parsed.value().root(), kSweepFields, problems);
  Request fields;
  if (!problems) ReadPresent(parsed.value().root(), fields, problems);
  if (problems) return problems.first();
  SweepRequest sweep{.context_tokens = fields.context_tokens, .batch = fields.batch, .kv_dtype = fields.kv_dtype,
                     .runtime = fields.runtime, .devices = {}, .custom_device = fields.custom_device,
                     .device_count = fields.device_count.value_or(1)};
  if (fields.device) sweep.devices.push_back(*fields.device);
  sweep.devices.insert(sweep.devices.end(), fields.compare.begin(), fields.compare.end());
  return sweep;
}

namespace {

// A request answered against the built-in catalog: parsed, computed, written; every failure on
// the way (and anything thrown) an ok:false answer.
template <typename Parse, typename Compute, typename Write>
std::string Answer(Parse parse, Compute compute, Write write) {
  return internal::NeverThrowing([&] {
    const auto request = parse();
    if (!request.ok()) return SerializeError(request.error());
    const Result<Catalog>& catalog = BuiltinCatalog();
    if (!catalog.ok()) return SerializeError(catalog.error());
    const auto result = compute(request.value(), catalog.value());
    if (!result.ok()) return SerializeError(result.error());
    return write(result.value());
  });
}

// The built-in catalog written by `write`, or its error.
template <typename Write>
std::string CatalogAnswer(Write write) {
  return internal::NeverThrowing([&] {
    const Result<Catalog>& catalog = BuiltinCatalog();
    if (!catalog.ok()) return SerializeError(catalog.error());
    return write(catalog.value());
  });
}

}  // namespace

std::string SweepJson(std::string_view request_json) {
  return Answer([&] { return ParseSweepRequest(request_json.empty() ? "{}" : request_json); },
                [](const SweepRequest& r, const Catalog& c) { return Sweep(r, c); },
                [](const SweepResult& sweep) { return SerializeSweep(sweep); });
}

std::string EvaluateJson(std::string_view request_json) {
  return EvaluateJsonWithConfig(request_json, "");
}

std::string EvaluateJsonWithConfig(std::string_view request_json, std::string_view config_json) {
  return Answer([&] { return ParseRequest(request_json, config_json); },
                [](const Request& r, const Catalog& c) { return Evaluate(r, c); },
                [](const Response& response) { return SerializeResponse(response); });
}

std::string ModelsJson() { return CatalogAnswer(internal::ModelsArrayJson); }
std::string DevicesJson() { return CatalogAnswer(internal::DevicesArrayJson); }
std::string CatalogJson() { return CatalogAnswer(internal::CatalogObjectJson); }

}  // namespace vramcalc
