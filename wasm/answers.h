// What both modules answer, as JavaScript objects (val_writer.h): the catalog, errors, and a
// request object's answer. first_module.cc and full_module.cc bind them with Embind.
#ifndef VRAMCALC_WASM_ANSWERS_H_
#define VRAMCALC_WASM_ANSWERS_H_

#include <string>

#include <emscripten/val.h>

#include "io/response_writer.h"
#include "val_writer.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/result.h"

namespace vramcalc::wasm {

using emscripten::val;

// Writes the sections after the simulator (core/src/io/response_writer.h WriteLowerSections).
using LowerSectionsWriter = void (*)(ValWriter&, const Response&);

// {"ok": false, "schema", "error": {"code", "message", "field"}}.
val ErrorAnswer(const Error& error);

// What the page needs for its selectors and links (json_codec.h CatalogJson), with the tables'
// `notes` (none: {}).
val CatalogAnswer(internal::TableNotes notes);

// A module's functions beside the version, which both answer alike; BindFunctions binds them
// with Embind, under the names wasm/README.md lists, for EMSCRIPTEN_BINDINGS.
struct ModuleFunctions {
  val (*catalog)();
  val (*evaluate)(val request);
  val (*evaluate_json)(std::string request);
  val (*evaluate_with_config)(val request, std::string config);
  val (*sweep)(val request);
};
void BindFunctions(const ModuleFunctions& functions);

// The answer to a request object (evaluate.h Request's fields), read as JSON text of it would be
// (val_value.h); the sections after the simulator built by `build` and written by `write`, or, when
// both are null (vramcalc.wasm), answered with section_unavailable.
val EvaluateAnswer(val request, LowerSectionsBuilder build, LowerSectionsWriter write);

// The answer to a request already read, with every section.
val ResponseAnswer(const Result<Request>& request);

}  // namespace vramcalc::wasm

#endif  // VRAMCALC_WASM_ANSWERS_H_
