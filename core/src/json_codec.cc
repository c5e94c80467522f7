// The JSON contract's reading side, through nlohmann/json (with hf_config.cc, the only users of
// its json type; json_output.cc writes the output): requests, sweep requests, and catalog
// files (ParseCatalog: the tests and the catalog fuzzer read assets/ with it; the program's own
// catalog is compiled-in data, core/embed_assets.cmake). Parsing uses nlohmann's exceptions
// internally; every one is caught here and turned into an Error that names the field, so
// nothing escapes this file.
#include "vramcalc/json_codec.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "builtin_data.h"
#include "hf_config_internal.h"
#include "json_output.h"
#include "strings_codec.h"
#include "vramcalc/display.h"
#include "vramcalc/quant_format.h"

namespace vramcalc {
namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxRequestBytes = 1 << 20;  // 1 MiB; a real request is ~150 bytes
constexpr int kMaxNestingDepth = 32;

// Thrown while reading catalog or request fields; caught in this file only.
struct FieldError {
  std::string code;
  std::string field;
  std::string message;
};

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

// ---- catalog ---------------------------------------------------------------------------

class ObjectReader {
 public:
  // `allowed` lists the object's known keys (a list literal, not copied: nothing allocates
  // for it, and the built-in catalog is read at every start-up).
  ObjectReader(const Json& object, std::string path, std::initializer_list<std::string_view> allowed)
      : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) Fail(path_, "must be a JSON object");
    for (const auto& [key, value] : object_.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        Fail(Field(key), "is not a known field");
      }
    }
  }

  std::string Field(const std::string& key) const { return path_ + "." + key; }
  bool Has(const char* key) const {
    const auto found = object_.find(key);
    return found != object_.end() && !found->is_null();
  }
  const Json& Raw(const char* key) const {
    const auto found = object_.find(key);
    if (found == object_.end()) Fail(Field(key), "is missing");
    return *found;
  }

  std::string String(const char* key, bool allow_empty = false) const {
    const Json& value = Raw(key);
    if (!value.is_string()) Fail(Field(key), "must be a string, not " + TypeName(value));
    std::string text = value.get<std::string>();
    if (text.empty() && !allow_empty) Fail(Field(key), "must not be empty");
    return text;
  }

  double Number(const char* key) const {
    const Json& value = Raw(key);
    if (!value.is_number()) Fail(Field(key), "must be a number, not " + TypeName(value));
    const double number = value.get<double>();
    if (!std::isfinite(number) || number <= 0) Fail(Field(key), "must be a positive number");
    return number;
  }

  int64_t Integer(const char* key, bool allow_zero = false) const {
    const Json& value = Raw(key);
    if (!value.is_number_integer()) Fail(Field(key), "must be an integer, not " + TypeName(value));
    const int64_t number = value.get<int64_t>();
    if (number < 0 || (number == 0 && !allow_zero)) Fail(Field(key), "must be positive");
    return number;
  }

  [[noreturn]] static void Fail(const std::string& field, const std::string& what) {
    throw FieldError{"invalid_catalog", field, field + " " + what + "."};
  }

 private:
  const Json& object_;
  std::string path_;
};

ModelSpec ReadModel(const Json& entry, std::size_t index) {
  std::string path = "models[" + std::to_string(index) + "]";
  if (entry.is_object() && entry.contains("id") && entry["id"].is_string()) {
    path = "models[" + entry["id"].get<std::string>() + "]";
  }
  const ObjectReader r(entry, path,
                       {"_comment", "id", "name", "family", "checkpoint", "ollama_tag",
                        "ollama_tag_weights", "license",
                        "release", "topology", "attention", "params_total", "params_active",
                        "num_hidden_layers", "hidden_size", "num_attention_heads",
                        "num_key_value_heads", "head_dim", "vocab_size", "max_position_embeddings",
                        "mla", "sliding_window", "moe", "sources", "notes"});
  ModelSpec m;
  m.id = r.String("id");
  m.name = r.String("name");
  m.family = r.String("family");
  m.checkpoint = r.String("checkpoint");
  m.ollama_tag = r.String("ollama_tag", /*allow_empty=*/true);
  if (r.Has("ollama_tag_weights")) m.ollama_tag_weights = r.String("ollama_tag_weights");
  m.license = r.String("license");
  m.release = r.String("release");
  const std::string topology = r.String("topology");
  if (topology == "dense") m.topology = Topology::kDense;
  else if (topology == "moe") m.topology = Topology::kMoe;
  else ObjectReader::Fail(r.Field("topology"), "must be \"dense\" or \"moe\"");
  const std::string attention = r.String("attention");
  if (attention == "mha") m.attention = Attention::kMha;
  else if (attention == "gqa") m.attention = Attention::kGqa;
  else if (attention == "mqa") m.attention = Attention::kMqa;
  else if (attention == "mla") m.attention = Attention::kMla;
  else ObjectReader::Fail(r.Field("attention"), "must be \"mha\", \"gqa\", \"mqa\" or \"mla\"");
  m.params_total = r.Number("params_total");
  m.params_active = r.Number("params_active");
  m.num_hidden_layers = r.Integer("num_hidden_layers");
  m.hidden_size = r.Integer("hidden_size");
  m.num_attention_heads = r.Integer("num_attention_heads");
  m.num_key_value_heads = r.Integer("num_key_value_heads");
  m.head_dim = r.Integer("head_dim");
  m.vocab_size = r.Integer("vocab_size");
  m.max_position_embeddings = r.Integer("max_position_embeddings");
  if (r.Has("mla")) {
    const ObjectReader mla(r.Raw("mla"), r.Field("mla"),
                           {"kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim"});
    m.mla = MlaSpec{mla.Integer("kv_lora_rank"), mla.Integer("qk_rope_head_dim"),
                    mla.Integer("qk_nope_head_dim"), mla.Integer("v_head_dim")};
  }
  if (r.Has("sliding_window")) {
    const ObjectReader window(r.Raw("sliding_window"), r.Field("sliding_window"),
                              {"window_tokens", "local_layers", "pattern"});
    m.sliding_window = SlidingWindowSpec{window.Integer("window_tokens"),
                                         window.Integer("local_layers"), window.String("pattern")};
  }
  if (r.Has("moe")) {
    const ObjectReader moe(r.Raw("moe"), r.Field("moe"),
                           {"num_experts", "experts_per_token", "shared_experts"});
    m.moe = MoeSpec{moe.Integer("num_experts"), moe.Integer("experts_per_token"),
                    moe.Integer("shared_experts", /*allow_zero=*/true)};
  }
  const Json& sources = r.Raw("sources");
  if (!sources.is_array() || sources.empty()) {
    ObjectReader::Fail(r.Field("sources"), "must be a non-empty array");
  }
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const ObjectReader source(sources[i], r.Field("sources") + "[" + std::to_string(i) + "]",
                              {"what", "url"});
    m.sources.push_back(Source{source.String("what"), source.String("url")});
  }
  if (auto invalid = ValidateModel(m)) {
    ObjectReader::Fail(path + "." + invalid->field, "is invalid: " + invalid->message);
  }
  return m;
}

Device ReadDevice(const Json& entry, std::size_t index) {
  const ObjectReader r(entry, "devices[" + std::to_string(index) + "]",
                       {"_comment", "id", "name", "memory_gib", "bandwidth_gbps", "class",
                        "vendor", "source"});
  Device d;
  d.id = r.String("id");
  d.name = r.String("name");
  d.memory_gib = r.Number("memory_gib");
  d.bandwidth_gbps = r.Number("bandwidth_gbps");
  const std::string device_class = r.String("class");
  if (device_class == "consumer") d.device_class = DeviceClass::kConsumer;
  else if (device_class == "apple") d.device_class = DeviceClass::kApple;
  else if (device_class == "datacenter") d.device_class = DeviceClass::kDatacenter;
  else ObjectReader::Fail(r.Field("class"), "must be \"consumer\", \"apple\" or \"datacenter\"");
  const std::string vendor = r.String("vendor");
  if (vendor == "nvidia") d.vendor = Vendor::kNvidia;
  else if (vendor == "amd") d.vendor = Vendor::kAmd;
  else if (vendor == "apple") d.vendor = Vendor::kApple;
  else ObjectReader::Fail(r.Field("vendor"), "must be \"nvidia\", \"amd\" or \"apple\"");
  if ((d.vendor == Vendor::kApple) != (d.device_class == DeviceClass::kApple)) {
    ObjectReader::Fail(r.Field("class"), "must be \"apple\" exactly for Apple devices");
  }
  d.source = r.String("source");
  return d;
}

std::vector<std::string> ReadDeviceList(const ObjectReader& r, const char* key,
                                        const Catalog& catalog) {
  const Json& list = r.Raw(key);
  if (!list.is_array() || list.empty()) ObjectReader::Fail(r.Field(key), "must be a non-empty array");
  std::vector<std::string> ids;
  for (const Json& id : list) {
    if (!id.is_string() || catalog.FindDevice(id.get<std::string>()) == nullptr) {
      ObjectReader::Fail(r.Field(key), "names a device that is not in the catalog: " + id.dump());
    }
    ids.push_back(id.get<std::string>());
  }
  return ids;
}

// ---- request -----------------------------------------------------------------------------

[[noreturn]] void RequestFail(std::string code, std::string field, std::string message) {
  throw FieldError{std::move(code), std::move(field), std::move(message)};
}

std::string RequestString(const Json& request, const char* key) {
  const Json& value = request[key];
  if (!value.is_string()) {
    RequestFail("invalid_type", key,
                std::string(key) + " must be a string, not " + TypeName(value) + ".");
  }
  return value.get<std::string>();
}

// A positive whole number up to `max`; integral floats (32768.0) are accepted.
int64_t RequestCount(const Json& request, const char* key, int64_t max, const char* what) {
  const Json& value = request[key];
  const std::string rule = std::string(key) + " must be a whole number of " + what + " from 1 to " +
                           FormatGrouped(max);
  if (!value.is_number()) {
    RequestFail("invalid_type", key, rule + ", not " + TypeName(value) + ".");
  }
  const double number = value.get<double>();
  if (!(number >= 1) || number > static_cast<double>(max) || number != std::floor(number)) {
    RequestFail("invalid_value", key, rule + "; got " + value.dump() + ".");
  }
  return static_cast<int64_t>(number);
}

// "sections": an array of distinct section names (evaluate.h), in any order.
uint32_t RequestSections(const Json& value) {
  const std::string rule =
      "sections must be an array of model, simulator, curve, matrix, hardware, related and commands";
  if (!value.is_array() || value.size() > std::size(kSectionNames)) {
    RequestFail("invalid_type", "sections", rule + ", each at most once.");
  }
  uint32_t sections = 0;
  for (const Json& name : value) {
    const auto* found = name.is_string()
        ? std::find(std::begin(kSectionNames), std::end(kSectionNames), name.get<std::string>())
        : std::end(kSectionNames);
    if (found == std::end(kSectionNames)) {
      RequestFail("invalid_value", "sections", rule + "; got " + name.dump(-1, ' ', false, Json::error_handler_t::replace).substr(0, 64) + ".");
    }
    const uint32_t bit = 1u << static_cast<uint32_t>(found - std::begin(kSectionNames));
    if (sections & bit) RequestFail("invalid_value", "sections", rule + ", each at most once.");
    sections |= bit;
  }
  return sections;
}

}  // namespace

namespace internal {

std::string InvalidUtf8StringJson(std::string_view text) {
  return Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<Strings> ParseStrings(std::string_view strings_json) {
  try {
    const Json parsed = Json::parse(strings_json);
    if (!parsed.is_object()) return Error{"invalid_strings", "must be a JSON object", ""};
    std::map<std::string, std::string, std::less<>> texts;
    for (const auto& [key, value] : parsed.items()) {
      if (key.rfind("_comment", 0) == 0) continue;
      if (!value.is_string()) return Error{"invalid_strings", key + " must be a string", key};
      texts.emplace(key, value.get<std::string>());
    }
    return Strings(std::move(texts));
  } catch (const std::exception& e) {
    return Error{"invalid_strings", e.what(), ""};
  }
}

}  // namespace internal

Result<Catalog> ParseCatalog(std::string_view models_json, std::string_view devices_json) {
  try {
    Catalog catalog;
    const Json devices = Json::parse(devices_json);
    const ObjectReader root(devices, "devices.json",
                            {"_comment", "devices", "recommendation_ladder", "hardware_table"});
    const Json& device_list = root.Raw("devices");
    if (!device_list.is_array()) ObjectReader::Fail(root.Field("devices"), "must be an array");
    for (std::size_t i = 0; i < device_list.size(); ++i) {
      Device device = ReadDevice(device_list[i], i);
      if (catalog.FindDevice(device.id)) {
        ObjectReader::Fail("devices[" + device.id + "].id", "is listed twice");
      }
      catalog.devices.push_back(std::move(device));
    }
    catalog.recommendation_ladder = ReadDeviceList(root, "recommendation_ladder", catalog);
    catalog.hardware_table = ReadDeviceList(root, "hardware_table", catalog);

    const Json models = Json::parse(models_json);
    if (!models.is_array() || models.empty()) {
      ObjectReader::Fail("models", "must be a non-empty array");
    }
    for (std::size_t i = 0; i < models.size(); ++i) {
      ModelSpec model = ReadModel(models[i], i);
      if (catalog.FindModel(model.id)) {
        ObjectReader::Fail("models[" + model.id + "].id", "is listed twice");
      }
      catalog.models.push_back(std::move(model));
    }
    internal::SortForListing(catalog);
    return catalog;
  } catch (const FieldError& e) {
    return Error{e.code, e.message, e.field};
  } catch (const std::exception& e) {
    return Error{"invalid_catalog", e.what(), ""};
  }
}

namespace {

// The request text as a JSON object, or the error a request of `example`'s kind gets.
Result<Json> ParseRequestObject(std::string_view request_json, std::string_view example) {
  if (request_json.size() > kMaxRequestBytes) {
    return Error{"request_too_large", "The request is larger than 1 MiB; a request is a few " \
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

// Rejects a key that is not among `known` (listed for people in `listing`).
void RequireKnownFields(const Json& request, std::initializer_list<std::string_view> known,
                        std::string_view listing) {
  for (const auto& [key, value] : request.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      RequestFail("unknown_field", key.substr(0, 64),
                  "Unknown request field \"" + key.substr(0, 64) + "\"; the fields are " +
                      std::string(listing) + ".");
    }
  }
}

constexpr std::string_view kRequestExample = R"({"model": "glm-4-32b-0414"})";

}  // namespace

Result<Request> ParseRequest(std::string_view request_json, std::string_view config_json) {
  if (config_json.empty()) return ParseRequest(request_json);
  // Checked before parsing: the config is written out again below, and that recurses.
  if (config_json.size() > kMaxRequestBytes) {
    return Error{"request_too_large", "The config.json is larger than 1 MiB; a config.json is a few KB.",
                 "model"};
  }
  Json config;
  if (NestingDepth(config_json) > kMaxNestingDepth - 1) {
    return MalformedError(config_json, "config.json", "model", kMaxNestingDepth - 1);
  }
  try {
    config = Json::parse(config_json);
  } catch (const Json::exception&) {
    return MalformedError(config_json, "config.json", "model", kMaxNestingDepth - 1);
  }
  // The request beside a config.json names everything but the model.
  Result<Json> parsed_request =
      ParseRequestObject(request_json.empty() ? "{}" : request_json, R"({"format": "Q8_0"})");
  if (!parsed_request.ok()) return parsed_request.error();
  Json request = std::move(parsed_request).value();
  if (request.contains("model")) {
    return Error{"invalid_value", "Give the model either as a config.json or in the request, not both.",
                 "model"};
  }
  request["model"] = std::move(config);
  return ParseRequest(request.dump());
}


Result<Request> ParseRequest(std::string_view request_json) {
  Result<Json> parsed_json = ParseRequestObject(request_json, kRequestExample);
  if (!parsed_json.ok()) return parsed_json.error();
  const Json request = std::move(parsed_json).value();
  try {
    RequireKnownFields(request,
                       {"model", "format", "context", "batch", "kv_dtype", "device", "device_count",
                        "compare", "lang", "sections"},
                       "model, format, context, batch, kv_dtype, device, device_count, compare, "
                       "lang and sections");
    Request parsed;
    if (!request.contains("model")) {
      RequestFail("missing_field", "model", "model is required, e.g. \"glm-4-32b-0414\".");
    }
    if (request["model"].is_object()) {
      // Bring your own model: a Hugging Face config.json in place of a catalog id.
      Result<ModelSpec> custom = internal::ParseHfConfigObject(request["model"]);
      if (!custom.ok()) return custom.error();
      parsed.model = custom.value().id;
      parsed.custom_model = std::move(custom).value();
    } else if (!request["model"].is_string()) {
      RequestFail("invalid_type", "model",
                  "model must be a catalog id such as \"glm-4-32b-0414\" or a config.json object, not " +
                      TypeName(request["model"]) + ".");
    } else {
      parsed.model = RequestString(request, "model");
    }
    if (request.contains("format")) parsed.format = RequestString(request, "format");
    if (request.contains("context")) {
      parsed.context_tokens = RequestCount(request, "context", kMaxRequestContextTokens, "tokens");
    }
    if (request.contains("batch")) {
      parsed.batch = RequestCount(request, "batch", kMaxRequestBatch, "concurrent sequences");
    }
    if (request.contains("kv_dtype")) parsed.kv_dtype = RequestString(request, "kv_dtype");
    if (request.contains("device") && !request["device"].is_null()) {
      parsed.device = RequestString(request, "device");
    }
    if (request.contains("device_count")) {
      parsed.device_count =
          RequestCount(request, "device_count", kMaxDeviceCount, "devices in tensor parallel");
    }
    if (request.contains("compare")) {
      constexpr std::size_t kMaxCompare = 64;
      const Json& compare = request["compare"];
      if (!compare.is_array() || compare.size() > kMaxCompare) {
        RequestFail("invalid_type", "compare", "compare must be an array of at most 64 device ids.");
      }
      for (const Json& id : compare) {
        if (!id.is_string()) RequestFail("invalid_type", "compare", "compare must hold device ids (strings).");
        parsed.compare.push_back(id.get<std::string>());
      }
    }
    if (request.contains("lang")) {
      const auto lang = ParseLang(RequestString(request, "lang"));
      if (!lang) RequestFail("invalid_value", "lang", "lang must be \"de\" or \"en\".");
      parsed.lang = *lang;
    }
    if (request.contains("sections")) parsed.sections = RequestSections(request["sections"]);
    return parsed;
  } catch (const FieldError& e) {
    return Error{e.code, e.message, e.field};
  }
}

Result<SweepRequest> ParseSweepRequest(std::string_view request_json) {
  Result<Json> parsed_json = ParseRequestObject(request_json, R"({"context": 32768})");
  if (!parsed_json.ok()) return parsed_json.error();
  const Json request = std::move(parsed_json).value();
  try {
    RequireKnownFields(request, {"context", "batch", "kv_dtype"}, "context, batch and kv_dtype");
    SweepRequest parsed;
    if (request.contains("context")) {
      parsed.context_tokens = RequestCount(request, "context", kMaxRequestContextTokens, "tokens");
    }
    if (request.contains("batch")) {
      parsed.batch = RequestCount(request, "batch", kMaxRequestBatch, "concurrent sequences");
    }
    if (request.contains("kv_dtype")) parsed.kv_dtype = RequestString(request, "kv_dtype");
    return parsed;
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

std::string ModelsJson() {
  return internal::NeverThrowing([&] {
    const Result<Catalog>& catalog = BuiltinCatalog();
    if (!catalog.ok()) return SerializeError(catalog.error());
    return internal::ModelsArrayJson(catalog.value());
  });
}

std::string DevicesJson() {
  return internal::NeverThrowing([&] {
    const Result<Catalog>& catalog = BuiltinCatalog();
    if (!catalog.ok()) return SerializeError(catalog.error());
    return internal::DevicesArrayJson(catalog.value());
  });
}

std::string CatalogJson() {
  return internal::NeverThrowing([&] {
    const Result<Catalog>& catalog = BuiltinCatalog();
    if (!catalog.ok()) return SerializeError(catalog.error());
    return internal::CatalogObjectJson(catalog.value());
  });
}

}  // namespace vramcalc
