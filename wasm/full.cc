// What only vramcalc-full.wasm answers (light.cc answers them in vramcalc.wasm with where they
// are done): a request as JSON text, and so a config.json, read by the core's JSON reader
// (core/src/json_dom.cc) and the importer (core/src/hf_config.cc), and the sweep, every model ×
// format × device at once (json_codec.h SweepJson). The page sends its requests as fields
// (bindings.cc), which both modules read; a pasted config.json, the fits view and the package's
// sweep() load this module.
#include <cstdint>
#include <string_view>

#include <emscripten/emscripten.h>

#include "answer.h"
#include "vramcalc/json_codec.h"

namespace {

std::string_view Text(const char* bytes, uint32_t size) { return {bytes, size}; }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* vramcalc_evaluate(const char* request, uint32_t request_size) {
  return vramcalc::wasm::Answer(vramcalc::EvaluateJson(Text(request, request_size)));
}

// The same with the model as a pasted config.json's text beside a request without "model":
// the text is checked as pasted, and its errors name its own fields ("model.hidden_size").
EMSCRIPTEN_KEEPALIVE char* vramcalc_evaluate_with_config(const char* request, uint32_t request_size,
                                                         const char* config, uint32_t config_size) {
  return vramcalc::wasm::Answer(vramcalc::EvaluateJsonWithConfig(Text(request, request_size), Text(config, config_size)));
}

EMSCRIPTEN_KEEPALIVE char* vramcalc_sweep(const char* request, uint32_t request_size) {
  return vramcalc::wasm::Answer(vramcalc::SweepJson(Text(request, request_size)));
}

}  // extern "C"
