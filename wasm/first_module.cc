// vramcalc.wasm, the module the page's first numbers wait for, bound with Embind: the model
// and the simulator for a request object, the catalog and the version. It reads no
// JSON text (val_value.h reads the object) and writes none (val_writer.h), and leaves the rest
// to vramcalc-full.wasm (full_module.cc), which has the same functions: a request for the
// sections after the simulator (every section by default) is answered with section_unavailable, a
// config.json as the model with config_import_unavailable, JSON text with json_unavailable and
// a sweep with sweep_unavailable.
#include <string>
#include <utility>

#include <emscripten/bind.h>

#include "answers.h"
#include "val_value.h"

namespace {

using emscripten::val;
using vramcalc::wasm::ErrorAnswer;

// The formats' sources and what each engine profile reproduces stay out: the page shows neither
// (vramcalc-full.wasm's catalog has them).
val Catalog() { return vramcalc::wasm::CatalogAnswer({}); }

val Evaluate(val request) { return vramcalc::wasm::EvaluateAnswer(std::move(request), nullptr, nullptr); }

val EvaluateJson(std::string) {
  return ErrorAnswer({"json_unavailable",
                      "This module reads a request given as an object; vramcalc-full.wasm reads JSON text.", ""});
}

val EvaluateWithConfig(val, std::string) { return ErrorAnswer(vramcalc::wasm::ModelObjectUnavailable()); }

val Sweep(val) {
  return ErrorAnswer({"sweep_unavailable",
                      "This module has no sweep; vramcalc-full.wasm does.", ""});
}

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc) {
  vramcalc::wasm::BindFunctions({.catalog = &Catalog, .evaluate = &Evaluate, .evaluate_json = &EvaluateJson,
                                 .evaluate_with_config = &EvaluateWithConfig, .sweep = &Sweep});
}
