#include "answers.h"

#include <string>
#include <utility>

#include <emscripten/bind.h>

#include "estimate/lower_sections.h"
#include "io/request_reader.h"
#include "io/response_writer.h"
#include "val_value.h"
#include "vramcalc/catalog.h"
#include "vramcalc/version.h"

namespace vramcalc::wasm {

val ErrorAnswer(const Error& error) {
  ValWriter w;
  internal::WriteError(w, error);
  return std::move(w).Take();
}

namespace {

std::string Version() { return std::string(kVersion); }

}  // namespace

void BindFunctions(const ModuleFunctions& functions) {
  emscripten::function("version", &Version);
  emscripten::function("catalog", functions.catalog);
  emscripten::function("evaluate", functions.evaluate);
  emscripten::function("evaluateJson", functions.evaluate_json);
  emscripten::function("evaluateWithConfig", functions.evaluate_with_config);
  emscripten::function("sweep", functions.sweep);
}

val CatalogAnswer(internal::TableNotes notes) {
  const Result<Catalog>& catalog = BuiltinCatalog();
  if (!catalog.ok()) return ErrorAnswer(catalog.error());
  ValWriter w;
  internal::WriteCatalogObject(w, catalog.value(), nullptr, notes);  // no UI strings: the page loads them
  return std::move(w).Take();
}

namespace {

val Answer(const Result<Request>& request, LowerSectionsBuilder build, LowerSectionsWriter write) {
  if (!request.ok()) return ErrorAnswer(request.error());
  const Result<Catalog>& catalog = BuiltinCatalog();
  if (!catalog.ok()) return ErrorAnswer(catalog.error());
  const Result<Response> response = Evaluate(request.value(), catalog.value(), build);
  if (!response.ok()) return ErrorAnswer(response.error());
  ValWriter w;
  internal::WriteResponse(w, response.value(), write);
  return std::move(w).Take();
}

}  // namespace

val EvaluateAnswer(val request, LowerSectionsBuilder build, LowerSectionsWriter write) {
  const Result<ValDocument> document = ValDocument::Read(std::move(request));
  if (!document.ok()) return ErrorAnswer(document.error());
  const ValValue root = document.value().root();
  if (!root.IsObject()) {
    return ErrorAnswer(Error{"invalid_type",
                             "The request must be a JSON object such as " + std::string(internal::kRequestExample) +
                                 ", not " + std::string(root.TypeName()) + ".",
                             ""});
  }
  return Answer(internal::ReadRequest<ValValue>(root), build, write);
}

val ResponseAnswer(const Result<Request>& request) {
  return Answer(request, &internal::BuildLowerSections, &internal::WriteLowerSections<ValWriter>);
}

}  // namespace vramcalc::wasm
