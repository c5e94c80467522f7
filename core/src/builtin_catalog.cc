// The compiled-in catalog, read from its JSON (builtin_data.h). In a file of its own so that a
// program can compile in another form of it: the wasm modules link wasm/compiled_catalog.cc's,
// which reads the catalog's bytes (catalog_bytes.h), and so link no catalog reader.
#include "builtin_data.h"
#include "vramcalc/catalog.h"

namespace vramcalc {

const Result<Catalog>& BuiltinCatalog() {
  // Built once, then immutable: the catalog is a constant of the program.
  static const Result<Catalog> kCatalog =
      ParseCatalog(internal::BuiltinModelsJson(), internal::BuiltinDevicesJson());
  return kCatalog;
}

}  // namespace vramcalc
