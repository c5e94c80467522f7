// The WebAssembly boundary: four functions, strings in and out, no handles to free.
// Every error is inside the returned JSON ({"ok": false, ...}); nothing throws into JS.
#include <string>

#include <emscripten/bind.h>

#include "vramcalc/json_codec.h"
#include "vramcalc/version.h"

namespace {

std::string Version() { return std::string(vramcalc::kVersion); }

// One call per animation frame: the whole response the page renders.
std::string Evaluate(const std::string& request_json) { return vramcalc::EvaluateJson(request_json); }

// Every model × format × device at once (json_codec.h SweepJson).
std::string Sweep(const std::string& request_json) { return vramcalc::SweepJson(request_json); }

// Once at start-up: models, devices, formats and UI strings for the page's selectors.
std::string Catalog() { return vramcalc::CatalogJson(); }

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc) {
  emscripten::function("version", &Version);
  emscripten::function("evaluate", &Evaluate);
  emscripten::function("sweep", &Sweep);
  emscripten::function("catalog", &Catalog);
}
