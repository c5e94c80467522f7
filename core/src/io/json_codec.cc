// The request side of the JSON contract: evaluate and sweep requests, parsed by nlohmann/json
// (json_value.h) and then field by field from one table (request_reader.h, which reads
// JavaScript objects alike); here what only JSON text has: its syntax errors, and a config.json
// as the model. Nothing here throws (the wasm modules are built without exception support).
#include "vramcalc/json_codec.h"

#include <string>
#include <utility>

#include "io/json_output.h"
#include "io/json_value.h"
#include "io/request_reader.h"
#include "model/hf_config_internal.h"
#include "model/problems.h"

namespace vramcalc {
namespace {

using json::Value;

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
  std::string problem(ProblemText(failure.problem, !field.empty()));
  if (failure.problem == json::Problem::kDuplicateKey) problem += " (\"" + failure.key + "\")";
  if (!field.empty()) return Error{"malformed_json", "The value of " + field + " " + problem + ".", field};
  const std::string at = failure.byte == 0 ? "" : " (error at byte " + std::to_string(failure.byte) + ")";
  return Error{"malformed_json",
               "The " + std::string(what) + " " + problem + at + ". Send an object such as " + std::string(example) + ".",
               ""};
}

// ---- request fields (request_reader.h reads them; here what only JSON carries) --------------

using internal::Problems;

// A config.json or a model description in place of a catalog id: bring your own model.
void ReadConfigModel(Value value, Request& out, Problems& p) {
  Result<ModelSpec> custom = internal::ParseModelObject(value);
  if (!custom.ok()) {
    const Error& e = custom.error();
    p.Fail(e.code, e.field, e.message);
    return;
  }
  out.model = custom.value().id;
  out.custom_model = std::move(custom).value();
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc::internal {
template <>
void ModelObject<json::Value>::Read(json::Value value, Request& out, Problems& p) { ReadConfigModel(value, out, p); }
}  // namespace vramcalc::internal

namespace vramcalc {
namespace {

// ---- whole requests ------------------------------------------------------------------------

// The request text as a JSON object, or the error a request of `example`'s kind gets.
Result<json::Document> ParseRequestObject(std::string_view request_json, std::string_view example) {
  if (request_json.size() > internal::kMaxRequestBytes) return internal::RequestTooLarge(example);
  Result<json::Document> request = ParseText(request_json, "request", "", kMaxNestingDepth, example);
  if (request.ok() && !request.value().root().IsObject()) {
    return Error{"invalid_type",
                 "The request must be a JSON object such as " + std::string(example) + ", not " +
                     std::string(request.value().root().TypeName()) + ".",
                 ""};
  }
  return request;
}

Result<Request> ReadRequest(Value request, Value config = Value()) {
  return internal::ReadRequest<Value>(request, config);
}

}  // namespace

Result<Request> ParseRequest(std::string_view request_json) {
  const Result<json::Document> parsed = ParseRequestObject(request_json, internal::kRequestExample);
  if (!parsed.ok()) return parsed.error();
  return ReadRequest(parsed.value().root());
}

Result<Request> ParseRequest(std::string_view request_json, std::string_view config_json) {
  if (config_json.empty()) return ParseRequest(request_json);
  if (config_json.size() > internal::kMaxRequestBytes) {
    return Error{"request_too_large", "The config.json is larger than 1 MiB; a config.json is a few KB.",
                 "model"};
  }
  const Result<json::Document> config = ParseText(config_json, "config.json", "model", kMaxNestingDepth - 1);
  if (!config.ok()) return config.error();
  if (!config.value().root().IsObject()) {  // not a catalog id: that goes in the request
    return Error{"invalid_type",
                 "A config.json or model description is a JSON object, not " +
                     std::string(config.value().root().TypeName()) + ".",
                 "model"};
  }
  // The request beside a config.json names everything but the model.
  const Result<json::Document> parsed =
      ParseRequestObject(request_json.empty() ? "{}" : request_json, R"({"format": "Q8_0"})");
  if (!parsed.ok()) return parsed.error();
  return ReadRequest(parsed.value().root(), config.value().root());
}

Result<SweepRequest> ParseSweepRequest(std::string_view request_json) {
  const Result<json::Document> parsed = ParseRequestObject(request_json, R"({"context": 32768})");
  if (!parsed.ok()) return parsed.error();
  constexpr std::string_view kSweepFields[] = {"context",      "batch",       "kv_dtype",         "runtime",
                                               "device",       "compare",     "device_count",     "host_memory",
                                               "host_memory_type", "host_bandwidth"};
  Problems problems;
  internal::RejectUnknown(parsed.value().root(), kSweepFields, problems);
  Request fields;
  if (!problems) internal::ReadPresent<Value>(parsed.value().root(), fields, problems);
  if (problems) return problems.first();
  SweepRequest sweep{.context_tokens = fields.context_tokens, .batch = fields.batch, .kv_dtype = fields.kv_dtype,
                     .runtime = fields.runtime, .devices = {}, .custom_device = fields.custom_device,
                     .device_count = fields.device_count.value_or(1), .host_memory_gib = fields.host_memory_gib,
                     .host_memory_type = fields.host_memory_type, .host_bandwidth_gbps = fields.host_bandwidth_gbps};
  if (fields.device) sweep.devices.push_back(*fields.device);
  sweep.devices.insert(sweep.devices.end(), fields.compare.begin(), fields.compare.end());
  return sweep;
}

namespace {

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
  return internal::AnswerJson([&] { return ParseSweepRequest(request_json.empty() ? "{}" : request_json); },
                              [](const SweepRequest& r, const Catalog& c) { return Sweep(r, c); },
                              [](const SweepResult& sweep) { return SerializeSweep(sweep); });
}

std::string EvaluateJson(std::string_view request_json) {
  return EvaluateJsonWithConfig(request_json, "");
}

std::string EvaluateJsonWithConfig(std::string_view request_json, std::string_view config_json) {
  return internal::AnswerRequest([&] { return ParseRequest(request_json, config_json); });
}

std::string ModelsJson() { return CatalogAnswer(internal::ModelsArrayJson); }
std::string DevicesJson() { return CatalogAnswer(internal::DevicesArrayJson); }
std::string CatalogJson() { return CatalogAnswer(internal::CatalogObjectJson); }

}  // namespace vramcalc
