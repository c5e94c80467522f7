// Both shipped modules' built-in catalog: the bytes (core/src/catalog_bytes.h) that the build's
// catalog writer wrote of the catalog it read from its JSON and checked (catalog_export.cc,
// compiled_catalog.mjs). Linked before the core's archive, this definition keeps
// core/src/builtin_catalog.cc, and with it the catalog's JSON, its reader and its checks, out of
// vramcalc.wasm and vramcalc-full.wasm: neither reads JSON for its catalog.
#include "catalog_bytes.h"
#include "compiled_catalog.h"
#include "vramcalc/catalog.h"

namespace vramcalc {

const Result<Catalog>& BuiltinCatalog() {
  static const Result<Catalog> kCatalog = internal::CatalogFromBytes(wasm::CompiledCatalogBytes(), wasm::CompiledCatalogFields());
  return kCatalog;
}

}  // namespace vramcalc
