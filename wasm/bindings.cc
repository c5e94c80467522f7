// The WebAssembly boundary: five C functions, UTF-8 bytes in and out (vramcalc.mjs, the loader
// beside this file, wraps them as string functions); the fifth, vramcalc_sweep, is in sweep.cc
// (vramcalc-full.wasm) or light.cc (vramcalc.wasm). Every error is inside the returned JSON
// ({"ok": false, ...}); nothing throws into JS. No Embind: the module imports nothing but the
// two functions a standalone wasm needs, and its loader is a page of hand-written JS instead of
// Emscripten's generated glue.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <emscripten/emscripten.h>

#include "answer.h"
#include "vramcalc/json_codec.h"
#include "vramcalc/version.h"

namespace {

using vramcalc::wasm::Answer;

std::string_view Text(const char* bytes, uint32_t size) { return {bytes, size}; }

}  // namespace

extern "C" {

// Blocks for the loader's arguments, and for it to free the answers.
EMSCRIPTEN_KEEPALIVE void* vramcalc_alloc(uint32_t size) { return std::malloc(size == 0 ? 1 : size); }
EMSCRIPTEN_KEEPALIVE void vramcalc_free(void* block) { std::free(block); }

EMSCRIPTEN_KEEPALIVE char* vramcalc_version() { return Answer(vramcalc::kVersion); }

// One call per animation frame: the whole response the page renders.
EMSCRIPTEN_KEEPALIVE char* vramcalc_evaluate(const char* request, uint32_t request_size) {
  return Answer(vramcalc::EvaluateJson(Text(request, request_size)));
}

// The same with the model as a pasted config.json's text beside a request without "model":
// the text is checked as pasted, and its errors name its own fields ("model.hidden_size").
EMSCRIPTEN_KEEPALIVE char* vramcalc_evaluate_with_config(const char* request, uint32_t request_size,
                                                         const char* config, uint32_t config_size) {
  return Answer(vramcalc::EvaluateJsonWithConfig(Text(request, request_size), Text(config, config_size)));
}

// Once at start-up: models, devices, formats and vocabularies for the page's selectors.
EMSCRIPTEN_KEEPALIVE char* vramcalc_catalog() { return Answer(vramcalc::CatalogJson()); }

}  // extern "C"
