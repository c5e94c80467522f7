// The built-in catalog as bytes (core/src/catalog_bytes.h), as the build's catalog writer wrote
// them from the catalog it read and checked (catalog_export.cc): compiled_catalog.mjs writes them
// into a source file of the build, which both shipped modules compile in (compiled_catalog.cc
// reads them).
#ifndef VRAMCALC_WASM_COMPILED_CATALOG_H_
#define VRAMCALC_WASM_COMPILED_CATALOG_H_

#include <string_view>

namespace vramcalc::wasm {

std::string_view CompiledCatalogBytes();

}  // namespace vramcalc::wasm

#endif  // VRAMCALC_WASM_COMPILED_CATALOG_H_
