// The build's catalog writer (catalog-writer.wasm, not shipped): the built-in catalog read from
// its JSON and checked (core/src/builtin_catalog.cc), as bytes. compiled_catalog.mjs asks for
// them and writes them into the source both shipped modules compile in (compiled_catalog.h).
#include <string>

#include <emscripten/emscripten.h>

#include "answer.h"
#include "catalog_bytes.h"
#include "vramcalc/catalog.h"

// The bytes, or none when the catalog cannot be read (the script then stops the build).
extern "C" EMSCRIPTEN_KEEPALIVE char* vramcalc_catalog_bytes() {
  const vramcalc::Result<vramcalc::Catalog>& catalog = vramcalc::BuiltinCatalog();
  return vramcalc::wasm::Answer(catalog.ok() ? vramcalc::internal::CatalogBytes(catalog.value()) : std::string());
}
