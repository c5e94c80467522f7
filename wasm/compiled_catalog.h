// The built-in catalog as bytes (core/src/catalog_bytes.h), as vramcalc-full.wasm wrote them
// from the catalog it read and checked (catalog_export.cc): compiled_catalog.mjs writes them
// into a source file of the build, which vramcalc.wasm compiles in (light.cc reads them).
#ifndef VRAMCALC_WASM_COMPILED_CATALOG_H_
#define VRAMCALC_WASM_COMPILED_CATALOG_H_

#include <string_view>

namespace vramcalc::wasm {

std::string_view CompiledCatalogBytes();

}  // namespace vramcalc::wasm

#endif  // VRAMCALC_WASM_COMPILED_CATALOG_H_
