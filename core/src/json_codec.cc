// The request side of the JSON contract, through nlohmann/json (with hf_config.cc, the only
// users of its json type; the catalog is read by json_dom.h, and json_output.cc writes every
// answer): evaluate and sweep requests, field by field from one table. Parsing uses
// nlohmann's exceptions internally; every one is caught here and turned into an Error that
// names the field, so nothing escapes this file.
#include "vramcalc/json_codec.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iterator>
#include <span>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "hf_config_internal.h"
#include "json_output.h"
#include "vramcalc/display.h"
#include "vramcalc/quant_format.h"

namespace vramcalc {
namespace {


using Json = nlohmann::json;

constexpr std::size_t kMaxRequestBytes = 1 << 20;  // 1 MiB; a real request is ~150 bytes
constexpr int kMaxNestingDepth = 32;

// Deepest nesting of arrays/objects outside strings. Rejecting deep input before parsing keeps
// recursion in the JSON library bounded whatever the input.
int NestingDepth(std::string_view text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// Where in a text that failed to parse (or nests too deeply) the reader was: the path of
// object keys down to the value being read ("context", "model.num_hidden_layers"), or "" when
// the failure lies outside any field's value. Runs only on the error path; nlohmann's SAX
// parser is iterative, so any depth is safe.
class FieldLocator {
 public:
  explicit FieldLocator(int max_depth) : max_depth_(max_depth) {}

  // Parses `text`; true when it is well-formed and no deeper than max_depth.
  bool Run(std::string_view text) {
    try {
      return Json::sax_parse(text, this);
    } catch (const std::exception&) {
      return false;  // sax_parse reports through parse_error(); this is only a safeguard
    }
  }
  const std::string& field() const { return field_; }
  bool too_deep() const { return too_deep_; }
  bool not_utf8() const { return not_utf8_; }
  bool too_large() const { return too_large_; }
  std::size_t byte() const { return byte_; }
  bool word() const { return word_; }  // stopped at an unquoted word such as NaN or Infinity

  // The json_sax interface.
  bool null() { return Scalar(); }
  bool boolean(bool) { return Scalar(); }
  bool number_integer(Json::number_integer_t) { return Scalar(); }
  bool number_unsigned(Json::number_unsigned_t) { return Scalar(); }
  bool number_float(Json::number_float_t, const std::string&) { return Scalar(); }
  bool string(std::string&) { return Scalar(); }
  bool binary(Json::binary_t&) { return Scalar(); }
  bool start_object(std::size_t) { return Open(true); }
  bool start_array(std::size_t) { return Open(false); }
  bool key(std::string& key) {
    levels_.back().key = key.substr(0, 64);
    return true;
  }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool parse_error(std::size_t byte, const std::string& last_token,
                   const nlohmann::detail::exception& e) {
    const std::string what = e.what();
    byte_ = byte;
    // NaN, Infinity, undefined and other unquoted words: reading stopped at a letter. (The
    // message avoids those words: the page scans its text for them as signs of a bug.)
    word_ = !last_token.empty() && std::isalpha(static_cast<unsigned char>(last_token.back())) &&
            what.find("end of input") == std::string::npos;
    not_utf8_ = what.find("UTF-8") != std::string::npos || what.find("surrogate") != std::string::npos;
    too_large_ = e.id == 406;  // out_of_range: a number beyond a double's range
    field_ = Path();
    return false;
  }

 private:
  struct Level {
    bool object;
    std::string key;  // the member being read; empty between members and in arrays
  };
  // The keys of the enclosing objects, up to the first array (an array's elements are its field's).
  std::string Path() const {
    std::string path;
    for (const Level& level : levels_) {
      if (!level.object || level.key.empty()) break;
      path += (path.empty() ? "" : ".") + level.key;
    }
    return path;
  }
  bool Scalar() {
    if (!levels_.empty() && levels_.back().object) levels_.back().key.clear();
    return true;
  }
  bool Open(bool object) {
    if (static_cast<int>(levels_.size()) >= max_depth_) {
      too_deep_ = true;
      field_ = Path();
      return false;
    }
    levels_.push_back(Level{object, ""});
    return true;
  }
  bool Close() {
    levels_.pop_back();
    return Scalar();
  }

  int max_depth_;
  std::vector<Level> levels_;
  std::string field_;
  bool too_deep_ = false;
  bool not_utf8_ = false;
  bool too_large_ = false;
  std::size_t byte_ = 0;
  bool word_ = false;
};

// The error for a `text` (the request, or the config.json under `prefix` "model") that is not
// valid JSON or nests too deeply, naming the field where reading stopped when there is one.
Error MalformedError(std::string_view text, std::string_view what, const std::string& prefix,
                     int max_depth, std::string_view example = R"({"model": "glm-4-32b-0414"})") {
  FieldLocator locator(max_depth);
  if (locator.Run(text)) {
    return Error{"malformed_json", "The " + std::string(what) + " could not be read.", prefix};
  }
  std::string field = locator.field();
  if (!prefix.empty()) field = field.empty() ? prefix : prefix + "." + field;
  std::string problem;
  if (locator.too_deep()) problem = "is nested too deeply";
  else if (locator.not_utf8()) problem = "holds text that is not valid UTF-8";
  else if (locator.too_large()) problem = "holds a number too large to read (such as 1e400)";
  else if (locator.word() && !field.empty()) problem = "is not valid JSON (numbers must be finite and words quoted)";
  else problem = "is not valid JSON";
  if (field.empty()) {
    const std::string at = locator.too_deep() ? "" : " (error at byte " + std::to_string(locator.byte()) + ")";
    return Error{"malformed_json", "The " + std::string(what) + " " + problem + at +
                     ". Send an object such as " + std::string(example) + ".", ""};
  }
  return Error{"malformed_json", "The value of " + field + " " + problem + ".", field};
}

std::string TypeName(const Json& value) {
  if (value.is_number()) return "a number";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "true or false";
  if (value.is_null()) return "null";
  if (value.is_array()) return "an array";
  return "an object";
}

// ---- request fields ----------------------------------------------------------------------

// Thrown by a field reader; caught in this file only.
struct FieldError {
  std::string code;
  std::string field;
  std::string message;
};

[[noreturn]] void RequestFail(std::string code, std::string field, std::string message) {
  throw FieldError{std::move(code), std::move(field), std::move(message)};
}

std::string RequestString(const Json& value, std::string_view key) {
  if (!value.is_string()) {
    RequestFail("invalid_type", std::string(key),
                std::string(key) + " must be a string, not " + TypeName(value) + ".");
  }
  return value.get<std::string>();
}

// A positive whole number up to `max`; integral floats (32768.0) are accepted.
int64_t RequestCount(const Json& value, std::string_view key, int64_t max, const char* what) {
  const std::string rule = std::string(key) + " must be a whole number of " + what + " from 1 to " +
                           FormatGrouped(max);
  if (!value.is_number()) {
    RequestFail("invalid_type", std::string(key), rule + ", not " + TypeName(value) + ".");
  }
  const double number = value.get<double>();
  if (!(number >= 1) || number > static_cast<double>(max) || number != std::floor(number)) {
    RequestFail("invalid_value", std::string(key), rule + "; got " + value.dump() + ".");
  }
  return static_cast<int64_t>(number);
}

std::string Echo(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace).substr(0, 64);
}

// "sections": an array of distinct section names (evaluate.h), in any order.
uint32_t RequestSections(const Json& value) {
  const std::string rule = "sections must be an array of " + JoinIds(kSections, "and", false);
  if (!value.is_array() || value.size() > std::size(kSectionNames)) {
    RequestFail("invalid_type", "sections", rule + ", each at most once.");
  }
  uint32_t sections = 0;
  for (const Json& name : value) {
    const auto found = name.is_string() ? kSections.Find(name.get<std::string>()) : std::nullopt;
    if (!found) RequestFail("invalid_value", "sections", rule + "; got " + Echo(name) + ".");
    if (sections & *found) RequestFail("invalid_value", "sections", rule + ", each at most once.");
    sections |= *found;
  }
  return sections;
}

std::vector<std::string> RequestCompare(const Json& value) {
  if (!value.is_array() || value.size() > kMaxCompareDevices) {
    RequestFail("invalid_type", "compare",
                "compare must be an array of at most " + std::to_string(kMaxCompareDevices) + " device ids.");
  }
  std::vector<std::string> ids;
  for (const Json& id : value) {
    if (!id.is_string()) RequestFail("invalid_type", "compare", "compare must hold device ids (strings).");
    ids.push_back(id.get<std::string>());
  }
  return ids;
}

void ReadModelField(const Json& value, Request& out) {
  if (value.is_object()) {
    // Bring your own model: a Hugging Face config.json in place of a catalog id.
    Result<ModelSpec> custom = internal::ParseHfConfigObject(value);
    if (!custom.ok()) {
      const Error& e = custom.error();
      RequestFail(e.code, e.field, e.message);
    }
    out.model = custom.value().id;
    out.custom_model = std::move(custom).value();
  } else if (!value.is_string()) {
    RequestFail("invalid_type", "model",
                "model must be a catalog id such as \"" + std::string(kDefaultModelId) +
                    "\" or a config.json object, not " + TypeName(value) + ".");
  } else {
    out.model = value.get<std::string>();
  }
}

// One reader per request field, in kRequestFields' order (checked below).
struct FieldReader {
  std::string_view name;
  void (*read)(const Json& value, Request& out);
};
constexpr FieldReader kFieldReaders[] = {
    {"model", ReadModelField},
    {"format", [](const Json& v, Request& r) { r.format = RequestString(v, "format"); }},
    {"context", [](const Json& v, Request& r) {
       r.context_tokens = RequestCount(v, "context", kMaxRequestContextTokens, "tokens");
     }},
    {"batch", [](const Json& v, Request& r) {
       r.batch = RequestCount(v, "batch", kMaxRequestBatch, "concurrent sequences");
     }},
    {"kv_dtype", [](const Json& v, Request& r) { r.kv_dtype = RequestString(v, "kv_dtype"); }},
    {"device", [](const Json& v, Request& r) {
       if (!v.is_null()) r.device = RequestString(v, "device");
     }},
    {"device_count", [](const Json& v, Request& r) {
       r.device_count = RequestCount(v, "device_count", kMaxDeviceCount, "devices in tensor parallel");
     }},
    {"compare", [](const Json& v, Request& r) { r.compare = RequestCompare(v); }},
    {"runtime", [](const Json& v, Request& r) { r.runtime = RequestString(v, "runtime"); }},
    {"sections", [](const Json& v, Request& r) { r.sections = RequestSections(v); }},
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
void RejectUnknown(const Json& request, std::span<const std::string_view> names) {
  for (const auto& [key, value] : request.items()) {
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      RequestFail("unknown_field", key.substr(0, 64),
                  "Unknown request field \"" + key.substr(0, 64) + "\"; the fields are " +
                      JoinIds(names, [](std::string_view name) { return name; }, "and", false) + ".");
    }
  }
}

// Reads every field `request` has into `out`, in kRequestFields' order.
void ReadPresent(const Json& request, Request& out) {
  for (const FieldReader& reader : kFieldReaders) {
    const auto found = request.find(reader.name);
    if (found != request.end()) reader.read(*found, out);
  }
}

// ---- whole requests ------------------------------------------------------------------------

constexpr std::string_view kRequestExample = R"({"model": "glm-4-32b-0414"})";

// The request text as a JSON object, or the error a request of `example`'s kind gets.
Result<Json> ParseRequestObject(std::string_view request_json, std::string_view example) {
  if (request_json.size() > kMaxRequestBytes) {
    return Error{"request_too_large", "The request is larger than 1 MiB; a request is a few "
                 "short fields such as " + std::string(example) + ".", ""};
  }
  if (NestingDepth(request_json) > kMaxNestingDepth) {
    return MalformedError(request_json, "request", "", kMaxNestingDepth, example);
  }
  Json request;
  try {
    request = Json::parse(request_json);
  } catch (const Json::exception&) {
    // A parse error, or out_of_range for a number beyond a double's range (1e400).
    return MalformedError(request_json, "request", "", kMaxNestingDepth, example);
  }
  if (!request.is_object()) {
    return Error{"invalid_type",
                 "The request must be a JSON object such as " + std::string(example) + ", not " +
                     TypeName(request) + ".",
                 ""};
  }
  return request;
}

// A config.json's text as a JSON object for the request's "model" field.
Result<Json> ParseConfigObject(std::string_view config_json) {
  if (config_json.size() > kMaxRequestBytes) {
    return Error{"request_too_large", "The config.json is larger than 1 MiB; a config.json is a few KB.",
                 "model"};
  }
  if (NestingDepth(config_json) > kMaxNestingDepth - 1) {
    return MalformedError(config_json, "config.json", "model", kMaxNestingDepth - 1);
  }
  try {
    return Json::parse(config_json);
  } catch (const Json::exception&) {
    return MalformedError(config_json, "config.json", "model", kMaxNestingDepth - 1);
  }
}

std::vector<std::string_view> RequestFieldNames() {
  std::vector<std::string_view> names;
  for (const RequestField& field : kRequestFields) names.push_back(field.name);
  return names;
}

Result<Request> ReadRequest(const Json& request) {
  try {
    RejectUnknown(request, RequestFieldNames());
    if (!request.contains("model")) {
      RequestFail("missing_field", "model", "model is required, e.g. \"" + std::string(kDefaultModelId) + "\".");
    }
    Request parsed;
    ReadPresent(request, parsed);
    return parsed;
  } catch (const FieldError& e) {
    return Error{e.code, e.message, e.field};
  }
}

}  // namespace

Result<Request> ParseRequest(std::string_view request_json) {
  Result<Json> parsed = ParseRequestObject(request_json, kRequestExample);
  if (!parsed.ok()) return parsed.error();
  return ReadRequest(parsed.value());
}

Result<Request> ParseRequest(std::string_view request_json, std::string_view config_json) {
  if (config_json.empty()) return ParseRequest(request_json);
  Result<Json> config = ParseConfigObject(config_json);
  if (!config.ok()) return config.error();
  // The request beside a config.json names everything but the model.
  Result<Json> parsed = ParseRequestObject(request_json.empty() ? "{}" : request_json, R"({"format": "Q8_0"})");
  if (!parsed.ok()) return parsed.error();
  Json request = std::move(parsed).value();
  if (request.contains("model")) {
    return Error{"invalid_value", "Give the model either as a config.json or in the request, not both.",
                 "model"};
  }
  request["model"] = std::move(config).value();
  return ReadRequest(request);
}

Result<SweepRequest> ParseSweepRequest(std::string_view request_json) {
  Result<Json> parsed = ParseRequestObject(request_json, R"({"context": 32768})");
  if (!parsed.ok()) return parsed.error();
  try {
    constexpr std::string_view kSweepFields[] = {"context", "batch", "kv_dtype", "runtime"};
    RejectUnknown(parsed.value(), kSweepFields);
    Request fields;
    ReadPresent(parsed.value(), fields);
    return SweepRequest{fields.context_tokens, fields.batch, fields.kv_dtype, fields.runtime};
  } catch (const FieldError& e) {
    return Error{e.code, e.message, e.field};
  }
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

namespace internal {

std::string InvalidUtf8StringJson(std::string_view text) {
  return Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace internal

}  // namespace vramcalc
