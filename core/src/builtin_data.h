// The compiled-in assets: assets/models/*.json (as one JSON array, in file-name order),
// assets/devices.json and assets/i18n/<lang>.json, as JSON text without the keys that start
// with "_" (notes for people). core/embed_assets.cmake writes them into builtin_data.cc; the
// program reads them with the same code as any catalog file (ParseCatalog, ParseStrings).
#ifndef VRAMCALC_SRC_BUILTIN_DATA_H_
#define VRAMCALC_SRC_BUILTIN_DATA_H_

#include <string_view>

#include "vramcalc/catalog.h"
#include "vramcalc/i18n.h"

namespace vramcalc::internal {

std::string_view BuiltinModelsJson();
std::string_view BuiltinDevicesJson();
std::string_view BuiltinStringsJson(Lang lang);
// False where the tables are left out (the wasm module: the page loads them), so that the
// program links no reader for them.
bool BuiltinStringsEmbedded();

// Listings and selectors show families together, smallest model first (ParseCatalog orders
// the models so).
void SortForListing(Catalog& catalog);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_BUILTIN_DATA_H_
