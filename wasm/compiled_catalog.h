// The built-in catalog as bytes (core/src/catalog_bytes.h), as the build's catalog writer wrote
// them from the catalog it read and checked (catalog_export.cc): compiled_catalog.mjs writes them
// into two source files of the build, one with every field (vramcalc-full.wasm's) and one
// without the models' card fields (vramcalc.wasm's, which has no card section); each module
// compiles in one, and compiled_catalog.cc reads it.
#ifndef VRAMCALC_WASM_COMPILED_CATALOG_H_
#define VRAMCALC_WASM_COMPILED_CATALOG_H_

#include <string_view>

#include "schema.h"

namespace vramcalc::wasm {

std::string_view CompiledCatalogBytes();
// The fields the bytes hold.
internal::Fields CompiledCatalogFields();

}  // namespace vramcalc::wasm

#endif  // VRAMCALC_WASM_COMPILED_CATALOG_H_
