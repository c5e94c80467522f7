// What vramcalc.wasm, the module the first numbers wait for, leaves to vramcalc-full.wasm: the
// config.json importer (core/src/hf_config.cc, 10 KiB gzip), the sweep (sweep.cc, 2.5 KiB) and
// the sections below the simulator (core/src/lower_sections.cc with the commands, 9 KiB). Each
// gets an answer here that says where it is done; the page loads the full module after its
// first numbers (or for a config.json, or its fits view), the widget when it shows the hardware
// table, and the package when a request asks for what only the full module answers.
#include <cstdint>

#include <emscripten/emscripten.h>

#include "answer.h"
#include "hf_config_internal.h"
#include "lower_sections.h"
#include "vramcalc/json_codec.h"

namespace vramcalc::internal {

// Linked before the core's archive, this definition keeps hf_config.cc out of the module.
Result<ModelSpec> ParseHfConfigObject(json::Value) {
  return Error{"config_import_unavailable",
               "This module reads no config.json; vramcalc-full.wasm does (the page and the package load it "
               "when a config.json is given).",
               "model"};
}

// Linked before the core's archive, these keep lower_sections.cc (and so the commands) out.
std::optional<Error> BuildLowerSections(const Scenario&, const Request&, const Catalog&, Response&) {
  return Error{"section_unavailable",
               "This module computes no hardware table, related models or commands; vramcalc-full.wasm does "
               "(the page loads it after the first numbers, the package when a request asks for them).",
               "sections"};
}
void WriteLowerSections(JsonWriter&, const Response&) {}  // never reached: the build failed above

}  // namespace vramcalc::internal

extern "C" EMSCRIPTEN_KEEPALIVE char* vramcalc_sweep(const char*, uint32_t) {
  return vramcalc::wasm::Answer(vramcalc::SerializeError(vramcalc::Error{
      "sweep_unavailable",
      "This module has no sweep; vramcalc-full.wasm does (the page's fits view and the package's sweep() load it).",
      ""}));
}
