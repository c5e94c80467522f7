// The core's answers as JSON text (the CLI's, and the tests'): the writing of
// response_writer.h into a JsonWriter. The wasm modules write the same answers as JavaScript
// objects instead (wasm/val_writer.h).
#include "io/json_output.h"

#include <string>
#include <string_view>
#include <utility>

#include "estimate/lower_sections.h"
#include "io/json_writer.h"
#include "io/response_writer.h"

namespace vramcalc {

using internal::JsonWriter;

namespace internal {

std::string ModelsArrayJson(const Catalog& catalog) {
  JsonWriter w(1 << 17);
  WriteSchemaArray(w, catalog.models);  // each as the response's "model" object
  return std::move(w).Take();
}

std::string DevicesArrayJson(const Catalog& catalog) {
  JsonWriter w(1 << 15);
  WriteSchemaArray(w, catalog.devices);
  return std::move(w).Take();
}

std::string CatalogObjectJson(const Catalog& catalog) {
  JsonWriter w(1 << 16);
  WriteCatalogObject(w, catalog, &BuiltinStrings, kTableNotes);
  return std::move(w).Take();
}

}  // namespace internal

std::string JsonString(std::string_view text) {
  JsonWriter w(text.size() + 8);
  w.Value(text);
  return std::move(w).Take();
}

std::string SerializeError(const Error& error) {
  JsonWriter w(512);
  internal::WriteError(w, error);
  return std::move(w).Take();
}

std::string SerializeResponse(const Response& response) {
  JsonWriter w(response.sections == kAllSections ? 16384 : 6144);
  internal::WriteResponse(w, response, &internal::WriteLowerSections<JsonWriter>);
  return std::move(w).Take();
}

std::string SerializeSweep(const SweepResult& sweep) {
  JsonWriter w(256 + 64 * sweep.cells.size());
  internal::WriteSweep(w, sweep);
  return std::move(w).Take();
}

}  // namespace vramcalc
