// libFuzzer: any bytes as a request given as a JavaScript object (object_input.h says how) to
// both wasm modules' evaluate(), and to vramcalc-full.wasm's evaluateWithConfig() and sweep():
// wasm/val_value.cc, answers.cc, val_writer.h, first_module.cc and full_module.cc as they are,
// compiled natively against a stand-in for Embind's emscripten::val (stand_in/: JavaScript's
// values, JSON.stringify and Embind's string conversions), under the sanitizers. Asserts:
// - every answer is an object {ok: true or false, schema: a number, …}, an ok:false one with an
//   error {code, message, field} of strings;
// - where ValDocument::Read refuses the value, both modules answer that error, and JSON text of
//   the value (where JSON.stringify writes one) is refused by the JSON reader alike: the same
//   code, field and message, but for the byte where reading stopped, which an object has not;
// - else, where JSON.stringify writes the value as Read read it (it called no toJSON),
//   vramcalc-full.wasm's evaluate() answers what EvaluateJson answers that text (as JSON.parse
//   reads it: the same keys, strings, and numbers the same double), and vramcalc.wasm's what
//   the core answers that text without the sections after the simulator: section_unavailable
//   where they are asked for, config_import_unavailable for a config.json as the model;
// - evaluateWithConfig() answers as EvaluateJsonWithConfig() answers the value's text (a string's
//   own UTF-8, as Embind passes it; else JSON.stringify's), with a small config.json;
// - sweep() refuses what SweepJson() refuses, alike (an accepted sweep is fuzz_request's: the
//   whole catalog is 0.4 s under the sanitizers).
// Both modules link the native catalog here (first_module.cc normally links one without the
// card's fields, which it never writes).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <nlohmann/json.hpp>

#include "object_input.h"
#include "object_known.h"
#include "val_value.h"
#include "vramcalc/catalog.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/json_codec.h"

namespace {

using emscripten::val;
using vramcalc::Error;
using vramcalc::Result;
using vramcalc::wasm::ValDocument;
namespace stand_in = emscripten::stand_in;
using Kind = stand_in::Kind;
using Json = nlohmann::json;

// The model of a request given beside it (corpus/request/config.json's).
constexpr std::string_view kConfig =
    R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"vocab_size":100,)"
    R"("max_position_embeddings":128,"intermediate_size":128})";

// ---- answers -----------------------------------------------------------------------------------

std::string TextOf(const val& value) {
  const stand_in::Stringified json = stand_in::Stringify(value);
  return json.text ? stand_in::Utf8Of(*json.text) : "(no JSON text: " + json.thrown + ")";
}

[[noreturn]] void Fail(std::string_view what, const val& request, const val& answer, const std::string& expected) {
  std::fprintf(stderr, "object fuzzer: %.*s\n  request: %s\n  answer: %s\n  expected: %s\n",
               static_cast<int>(what.size()), what.data(), TextOf(request).c_str(), TextOf(answer).c_str(),
               expected.c_str());
  std::abort();
}

const stand_in::Value* Member(const stand_in::Value& object, std::u16string_view key) {
  for (const auto& [name, value] : object.members) {
    if (name == key) return value.get();
  }
  return nullptr;
}

bool IsString(const stand_in::Value* value) { return value != nullptr && value->kind == Kind::kString; }

// {ok: true or false, schema: a number, …}; ok:false with error {code, message, field}.
bool IsAnswer(const val& answer) {
  const stand_in::Value& a = stand_in::Inspect(answer);
  if (a.kind != Kind::kObject) return false;
  const stand_in::Value* ok = Member(a, u"ok");
  const stand_in::Value* schema = Member(a, u"schema");
  if (ok == nullptr || ok->kind != Kind::kBoolean || schema == nullptr || schema->kind != Kind::kNumber) return false;
  if (ok->boolean) return true;
  const stand_in::Value* error = Member(a, u"error");
  return error != nullptr && error->kind == Kind::kObject && IsString(Member(*error, u"code")) &&
         IsString(Member(*error, u"message")) && IsString(Member(*error, u"field"));
}

// The answer a JavaScript caller has against JSON.parse of the core's text: the same keys
// (in any order: JavaScript orders index-like keys itself), strings, and numbers bit for bit.
bool Same(const stand_in::Value& a, const Json& b) {
  switch (a.kind) {
    case Kind::kNull: return b.is_null();
    case Kind::kBoolean: return b.is_boolean() && b.get<bool>() == a.boolean;
    case Kind::kString: {
      if (!b.is_string()) return false;
      const std::string text = stand_in::Utf8Of(a.text);
      return b.get_ref<const std::string&>() == text;
    }
    case Kind::kNumber: {
      if (!b.is_number()) return false;
      const double number = b.get<double>();
      return std::memcmp(&number, &a.number, sizeof number) == 0;
    }
    case Kind::kArray:
      if (!b.is_array() || b.size() != a.elements.size()) return false;
      for (std::size_t i = 0; i < a.elements.size(); ++i) {
        if (a.elements[i] == nullptr || !Same(*a.elements[i], b[i])) return false;
      }
      return true;
    case Kind::kObject:
      if (!b.is_object() || b.size() != a.members.size()) return false;
      for (const auto& [key, value] : a.members) {
        const auto found = b.find(stand_in::Utf8Of(key));
        if (found == b.end() || !Same(*value, *found)) return false;
      }
      return true;
    default: return false;
  }
}

void ExpectText(std::string_view what, const val& request, const val& answer, const std::string& expected) {
  const Json json = Json::parse(expected, nullptr, false);
  if (json.is_discarded()) Fail("the core's answer is not JSON", request, answer, expected);
  if (!Same(stand_in::Inspect(answer), json) && !vramcalc::fuzz::HasKnownTextDifference(request)) {
    Fail(what, request, answer, expected);
  }
}

void ExpectError(std::string_view what, const val& request, const val& answer, const Error& expected) {
  ExpectText(what, request, answer, vramcalc::SerializeError(expected));
}

const stand_in::Value* ErrorOf(const val& answer) { return Member(stand_in::Inspect(answer), u"error"); }

std::u16string ErrorText(const val& answer, std::u16string_view key) {
  const stand_in::Value* error = ErrorOf(answer);
  const stand_in::Value* text = error != nullptr ? Member(*error, key) : nullptr;
  return text != nullptr ? text->text : u"";
}

// ---- the bindings ------------------------------------------------------------------------------

struct Modules {
  val (*first_evaluate)(val) = stand_in::Bound<val(val)>("wasm/first_module.cc", "evaluate");
  val (*evaluate)(val) = stand_in::Bound<val(val)>("wasm/full_module.cc", "evaluate");
  val (*evaluate_with_config)(val, std::string) =
      stand_in::Bound<val(val, std::string)>("wasm/full_module.cc", "evaluateWithConfig");
  val (*sweep)(val) = stand_in::Bound<val(val)>("wasm/full_module.cc", "sweep");
};

const Modules& Bindings() {
  static const Modules modules;
  return modules;
}

val Answer(val (*function)(val), const val& request) {
  const val answer = function(request);
  if (!IsAnswer(answer)) Fail("not an answer", request, answer, "{ok, schema, …}");
  return answer;
}

// ---- the checks --------------------------------------------------------------------------------

// What vramcalc.wasm answers the request `text` reads as: the core's answer without the sections
// after the simulator.
std::string FirstModuleAnswer(const std::string& text) {
  const Result<vramcalc::Request> request = vramcalc::ParseRequest(text);
  if (!request.ok()) return vramcalc::SerializeError(request.error());
  const Result<vramcalc::Response> response =
      vramcalc::Evaluate(request.value(), vramcalc::BuiltinCatalog().value(), nullptr);
  if (!response.ok()) return vramcalc::SerializeError(response.error());
  return vramcalc::SerializeResponse(response.value());
}

// A message of the JSON reader without where reading stopped, which an object has not:
// "The request <problem> (error at byte 12). Send an object such as …" (json_codec.cc ParseText).
std::string WithoutByte(const std::string& message) {
  const std::size_t send = message.find(". Send an object such as ");
  const std::size_t at = message.rfind(" (error at byte ", send);
  if (send == std::string::npos || at == std::string::npos || message[send - 1] != ')') return message;
  return message.substr(0, at) + message.substr(send);
}

// A request, read once as each module reads it first and as JSON.stringify writes it.
struct Case {
  explicit Case(val value)
      : request(std::move(value)), read(ValDocument::Read(request)), json(stand_in::Stringify(request)) {
    if (json.text) text = stand_in::Utf8Of(*json.text);
  }

  val request;
  Result<ValDocument> read;
  stand_in::Stringified json;
  std::optional<std::string> text;  // JSON.stringify's, where it writes one
};

// A value Read refuses: refused by both modules with that error, and its JSON text alike.
void CheckRefused(const Case& c, const val& first, const val& full) {
  const Error& error = c.read.error();
  ExpectError("vramcalc.wasm answers other than Read refuses", c.request, first, error);
  ExpectError("vramcalc-full.wasm answers other than Read refuses", c.request, full, error);
  if (!c.text || c.json.called_to_json) return;
  const Result<vramcalc::Request> parsed = vramcalc::ParseRequest(*c.text);
  if (parsed.ok()) {
    if (!vramcalc::fuzz::HasKnownTextDifference(c.request)) {
      Fail("Read refuses what the JSON text's reader reads", c.request, full, "an error");
    }
    return;
  }
  std::string message = parsed.error().message;
  if (parsed.error().field.empty()) message = WithoutByte(message);
  const Error text{parsed.error().code, message, parsed.error().field};
  if ((text.code != error.code || text.field != error.field || text.message != error.message) &&
      !vramcalc::fuzz::HasKnownTextDifference(c.request)) {
    Fail("Read refuses otherwise than the JSON text's reader", c.request, full,
         vramcalc::SerializeError(parsed.error()));
  }
}

void CheckEvaluate(const Case& c) {
  const val first = Answer(Bindings().first_evaluate, c.request);
  const val full = Answer(Bindings().evaluate, c.request);
  if (!c.read.ok()) return CheckRefused(c, first, full);
  if (!c.text || c.json.called_to_json) return;  // no text, or a text of something else
  ExpectText("vramcalc-full.wasm answers other than the JSON text", c.request, full, vramcalc::EvaluateJson(*c.text));
  const vramcalc::wasm::ValValue model = c.read.value().root().Find("model");
  if (model && model.IsObject() && ErrorText(full, u"code") != u"unknown_field") {
    if (ErrorText(first, u"code") != u"config_import_unavailable") {
      Fail("vramcalc.wasm reads a config.json", c.request, first, "config_import_unavailable");
    }
    return;
  }
  ExpectText("vramcalc.wasm answers other than the JSON text", c.request, first, FirstModuleAnswer(*c.text));
}

// The text evaluateWithConfig() reads a request as: a string's or a Uint8Array's own bytes (as
// Embind passes them), "{}" for none, else JSON.stringify's once Read has checked the value.
void CheckEvaluateWithConfig(const Case& c) {
  const val answer = Bindings().evaluate_with_config(c.request, std::string(kConfig));
  if (!IsAnswer(answer)) Fail("evaluateWithConfig: not an answer", c.request, answer, "{ok, schema, …}");
  const stand_in::Value& value = stand_in::Inspect(c.request);
  std::string text = "{}";
  if (value.kind == Kind::kString || (value.kind == Kind::kTypedArray && value.bytes)) {
    text = c.request.as<std::string>();
  } else if (value.kind != Kind::kUndefined) {
    if (!c.read.ok()) {
      return ExpectError("evaluateWithConfig answers other than Read refuses", c.request, answer, c.read.error());
    }
    if (!c.text) return;  // no text: an answer is all to ask
    text = *c.text;
  }
  ExpectText("evaluateWithConfig answers other than the JSON text", c.request, answer,
             vramcalc::EvaluateJsonWithConfig(text, kConfig));
}

void CheckSweep(const Case& c) {
  if (c.request.isUndefined()) return;  // the whole catalog's sweep
  if (!c.read.ok()) {
    const val answer = Answer(Bindings().sweep, c.request);
    return ExpectError("sweep answers other than Read refuses", c.request, answer, c.read.error());
  }
  if (!c.text) return (void)Answer(Bindings().sweep, c.request);  // no text: an answer is all to ask
  const Result<vramcalc::SweepRequest> parsed = vramcalc::ParseSweepRequest(*c.text);
  if (parsed.ok()) return;  // accepted: fuzz_request sweeps it
  ExpectError("sweep refuses otherwise than SweepJson", c.request, Answer(Bindings().sweep, c.request), parsed.error());
}

}  // namespace

// AddressSanitizer keeps the stack of every allocation, each distinct one for good: the stand-in's
// values are many small allocations deep in recursion (Read, JSON.stringify, the writer), whose
// distinct 30-frame stacks grew the process by some 35 KB an input (794 MB after 45 s, and on
// towards dev.sh's 2 GB limit), and unwinding them took a quarter of the time. With 8 frames it
// stays near 510 MB and runs 121 -> 161 inputs/s. ASAN_OPTIONS overrides it (a reproducer's
// whole stacks: ASAN_OPTIONS=malloc_context_size=30).
extern "C" const char* __asan_default_options() { return "malloc_context_size=8"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    const Case c(vramcalc::fuzz::ValueOf(data, size));
    if (!vramcalc::fuzz::Throws(c.json)) {
      CheckEvaluate(c);
      CheckEvaluateWithConfig(c);
      CheckSweep(c);
    }
  }
  stand_in::CollectGarbage();
  return 0;
}
