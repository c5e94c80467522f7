// The WebAssembly boundary: six C functions, UTF-8 bytes in and out (vramcalc.mjs, the loader
// beside this file, wraps them as string functions). Four are here, in both modules; the JSON
// requests and the sweep are in full.cc (vramcalc-full.wasm) or light.cc (vramcalc.wasm, which
// answers them with where they are done). Every error is inside the returned JSON
// ({"ok": false, ...}); nothing throws into JS. No Embind: the module imports nothing but the
// two functions a standalone wasm needs, and its loader is a page of hand-written JS instead of
// Emscripten's generated glue.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <emscripten/emscripten.h>

#include "answer.h"
#include "vramcalc/json_codec.h"
#include "vramcalc/version.h"

using vramcalc::wasm::Answer;

extern "C" {

// Blocks for the loader's arguments, and for it to free the answers.
EMSCRIPTEN_KEEPALIVE void* vramcalc_alloc(uint32_t size) { return std::malloc(size == 0 ? 1 : size); }
EMSCRIPTEN_KEEPALIVE void vramcalc_free(void* block) { std::free(block); }

EMSCRIPTEN_KEEPALIVE char* vramcalc_version() { return Answer(vramcalc::kVersion); }

// One call per animation frame: the whole response the page renders, for a request object's
// fields as the loader writes them (core/src/request_fields.h).
EMSCRIPTEN_KEEPALIVE char* vramcalc_evaluate_fields(const char* fields, uint32_t fields_size) {
  return Answer(vramcalc::EvaluateFields(std::string_view(fields, fields_size)));
}

// Once at start-up: models, devices, formats and vocabularies for the page's selectors.
EMSCRIPTEN_KEEPALIVE char* vramcalc_catalog() { return Answer(vramcalc::CatalogJson()); }

}  // extern "C"
