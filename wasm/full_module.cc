// vramcalc-full.wasm, bound with Embind: every section for a request object, and what JSON text
// carries: a request as text (nlohmann/json reads it, core/src/json_value.h), a config.json as
// the model, and the sweep. The page loads it after its first numbers and asks it from then on;
// the package and the single file use it alone.
#include <string>
#include <utility>

#include <emscripten/bind.h>

#include "answers.h"
#include "estimate/lower_sections.h"
#include "io/response_writer.h"
#include "val_value.h"
#include "vramcalc/catalog.h"
#include "vramcalc/json_codec.h"

namespace {

using emscripten::val;
using vramcalc::wasm::ErrorAnswer;
using vramcalc::wasm::ResponseAnswer;

// A request object as JSON text, for the readers of JSON: checked as evaluate() checks it
// first (so that JSON.stringify meets nothing it throws on), or the error it gets. None is {}.
vramcalc::Result<std::string> TextOf(val request) {
  if (request.isUndefined()) return std::string("{}");
  const auto document = vramcalc::wasm::ValDocument::Read(request);
  if (!document.ok()) return document.error();
  return vramcalc::wasm::JsonText(request);
}

bool IsObject(const val& value) { return !value.isNull() && value.typeOf().as<std::string>() == "object"; }

// The catalog with the formats' sources and what each profile reproduces (the package's and the
// CLI's, which vramcalc.wasm leaves out).
val Catalog() { return vramcalc::wasm::CatalogAnswer(vramcalc::internal::kTableNotes); }

// Every section. A model given as an object is a config.json: the request is read as its JSON
// text then.
val Evaluate(val request) {
  if (IsObject(request) && IsObject(request["model"])) {
    const vramcalc::Result<std::string> text = TextOf(request);
    return text.ok() ? ResponseAnswer(vramcalc::ParseRequest(text.value())) : ErrorAnswer(text.error());
  }
  return vramcalc::wasm::EvaluateAnswer(std::move(request), &vramcalc::internal::BuildLowerSections,
                                        &vramcalc::internal::WriteLowerSections<vramcalc::wasm::ValWriter>);
}

// A request as JSON text (a string, or its UTF-8 bytes as a Uint8Array).
val EvaluateJson(std::string request) { return ResponseAnswer(vramcalc::ParseRequest(request)); }

// A request without "model" (an object, or its JSON text as a string or UTF-8 bytes), the model
// given as a config.json's text (checked as pasted: its errors name its keys, "model.hidden_size").
val EvaluateWithConfig(val request, std::string config) {
  const bool text = request.isString() || request.instanceof(val::global("Uint8Array"));
  const vramcalc::Result<std::string> json = text ? request.as<std::string>() : TextOf(request);
  if (!json.ok()) return ErrorAnswer(json.error());
  return ResponseAnswer(vramcalc::ParseRequest(json.value(), config));
}

// Every model × format × device at once (json_codec.h SweepJson).
val Sweep(val request) {
  const vramcalc::Result<std::string> text = TextOf(request);
  if (!text.ok()) return ErrorAnswer(text.error());
  const vramcalc::Result<vramcalc::SweepRequest> parsed = vramcalc::ParseSweepRequest(text.value());
  if (!parsed.ok()) return ErrorAnswer(parsed.error());
  const vramcalc::Result<vramcalc::Catalog>& catalog = vramcalc::BuiltinCatalog();
  if (!catalog.ok()) return ErrorAnswer(catalog.error());
  const vramcalc::Result<vramcalc::SweepResult> sweep = vramcalc::Sweep(parsed.value(), catalog.value());
  if (!sweep.ok()) return ErrorAnswer(sweep.error());
  vramcalc::wasm::ValWriter w;
  vramcalc::internal::WriteSweep(w, sweep.value());
  return std::move(w).Take();
}

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc) {
  vramcalc::wasm::BindFunctions({.catalog = &Catalog, .evaluate = &Evaluate, .evaluate_json = &EvaluateJson,
                                 .evaluate_with_config = &EvaluateWithConfig, .sweep = &Sweep});
}
