// What vramcalc.wasm, the module the first numbers wait for, leaves to vramcalc-full.wasm: the
// config.json importer (core/src/hf_config.cc, 10 KiB gzip) and the sweep (sweep.cc, 2.5 KiB).
// Each gets an answer here that says where it is done; the page, the widget and the package load
// the full module when a config.json is given or a sweep is asked for.
#include <cstdint>

#include <emscripten/emscripten.h>

#include "answer.h"
#include "hf_config_internal.h"
#include "vramcalc/json_codec.h"

namespace vramcalc::internal {

// Linked before the core's archive, this definition keeps hf_config.cc out of the module.
Result<ModelSpec> ParseHfConfigObject(json::Value) {
  return Error{"config_import_unavailable",
               "This module reads no config.json; vramcalc-full.wasm does (the page and the package load it "
               "when a config.json is given).",
               "model"};
}

}  // namespace vramcalc::internal

extern "C" EMSCRIPTEN_KEEPALIVE char* vramcalc_sweep(const char*, uint32_t) {
  return vramcalc::wasm::Answer(vramcalc::SerializeError(vramcalc::Error{
      "sweep_unavailable",
      "This module has no sweep; vramcalc-full.wasm does (the page's fits view and the package's sweep() load it).",
      ""}));
}
