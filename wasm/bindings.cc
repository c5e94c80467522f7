// The WebAssembly boundary: five functions, strings in and out, no handles to free.
// Every error is inside the returned JSON ({"ok": false, ...}); nothing throws into JS.
// wasm/README.md describes the contract for callers.
#include <string>

#include <emscripten/bind.h>

#include "vramcalc/json_codec.h"
#include "vramcalc/version.h"

namespace {

std::string Version() { return std::string(vramcalc::kVersion); }

// One call per animation frame: the whole response the page renders.
std::string Evaluate(const std::string& request_json) { return vramcalc::EvaluateJson(request_json); }

// The same with the model as a pasted config.json's text beside a request without "model":
// the text is checked as pasted, and its errors name its own fields ("model.hidden_size").
std::string EvaluateWithConfig(const std::string& request_json, const std::string& config_json) {
  return vramcalc::EvaluateJsonWithConfig(request_json, config_json);
}

// Every model × format × device at once (json_codec.h SweepJson).
std::string Sweep(const std::string& request_json) { return vramcalc::SweepJson(request_json); }

// Once at start-up: models, devices, formats and UI strings for the page's selectors.
std::string Catalog() { return vramcalc::CatalogJson(); }

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc) {
  emscripten::function("version", &Version);
  emscripten::function("evaluate", &Evaluate);
  emscripten::function("evaluateWithConfig", &EvaluateWithConfig);
  emscripten::function("sweep", &Sweep);
  emscripten::function("catalog", &Catalog);
}
