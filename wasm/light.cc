// What vramcalc.wasm, the module the first numbers wait for, leaves to vramcalc-full.wasm: a
// request as JSON text, and with it the JSON reader (core/src/json_dom.cc) and the config.json
// importer (core/src/hf_config.cc; full.cc has them), the sweep (full.cc) and the sections after
// the simulator's figures and the matrix (core/src/lower_sections.cc: the curve, the hardware
// table, the related models, the commands and the card), with the card's fields of the
// catalog's models (wasm/CMakeLists.txt). Each gets an answer here that
// says where it is done. The first module reads requests as fields (bindings.cc), which the
// loader writes from a request object; the page loads the full module after its first numbers
// (or for a config.json, or its fits view), the widget when it shows the hardware table, and
// the package when a request asks for what only the full module answers.
#include <cstdint>

#include <emscripten/emscripten.h>

#include "answer.h"
#include "lower_sections.h"
#include "vramcalc/json_codec.h"

namespace vramcalc::internal {

// Linked before the core's archive, these keep lower_sections.cc (and so the commands) out.
std::optional<Error> BuildLowerSections(const Scenario&, const Request&, const Catalog&, Response&) {
  return Error{"section_unavailable",
               "This module computes the model, the simulator and the matrix, no curve, hardware table, related "
               "models, commands or card; vramcalc-full.wasm does (the page loads it after the first numbers, the "
               "package when a request asks for them).",
               "sections"};
}
void WriteLowerSections(JsonWriter&, const Response&) {}  // never reached: the build failed above

}  // namespace vramcalc::internal

namespace {

char* Unavailable(const char* code, const char* message, const char* field) {
  return vramcalc::wasm::Answer(vramcalc::SerializeError(vramcalc::Error{code, message, field}));
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* vramcalc_evaluate(const char*, uint32_t) {
  return Unavailable("json_unavailable",
                     "This module reads a request given as an object (the loader writes its fields); "
                     "vramcalc-full.wasm reads JSON text, and the objects the fields do not carry (a config.json, "
                     "a device given as an object).",
                     "");
}

EMSCRIPTEN_KEEPALIVE char* vramcalc_evaluate_with_config(const char*, uint32_t, const char*, uint32_t) {
  return Unavailable("config_import_unavailable",
                     "This module reads no config.json; vramcalc-full.wasm does (the page and the package load it "
                     "when a config.json is given).",
                     "model");
}

EMSCRIPTEN_KEEPALIVE char* vramcalc_sweep(const char*, uint32_t) {
  return Unavailable("sweep_unavailable",
                     "This module has no sweep; vramcalc-full.wasm does (the page's fits view and the package's "
                     "sweep() load it).",
                     "");
}

}  // extern "C"
