// The build's catalog writer (catalog-writer.wasm, not shipped): the built-in catalog read from
// its JSON and checked (core/src/builtin_catalog.cc), as bytes: all its fields, or all but the
// models' card fields (core/src/schema.h). compiled_catalog.mjs asks for them and writes them
// into the sources the shipped modules compile in (compiled_catalog.h).
#include <string>

#include <emscripten/emscripten.h>

#include "answer.h"
#include "catalog_bytes.h"
#include "vramcalc/catalog.h"

// The bytes (without the card fields when `card` is 0), or none when the catalog cannot be read
// (the script then stops the build).
extern "C" EMSCRIPTEN_KEEPALIVE char* vramcalc_catalog_bytes(int card) {
  using vramcalc::internal::Fields;
  const vramcalc::Result<vramcalc::Catalog>& catalog = vramcalc::BuiltinCatalog();
  const Fields fields = card != 0 ? Fields::kAll : Fields::kNotCard;
  return vramcalc::wasm::Answer(catalog.ok() ? vramcalc::internal::CatalogBytes(catalog.value(), fields) : std::string());
}
