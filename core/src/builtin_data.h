// The compiled-in catalog and UI strings, generated into builtin_data.cc by
// core/embed_assets.cmake from assets/ as data (no JSON is parsed at run time).
#ifndef VRAMCALC_SRC_BUILTIN_DATA_H_
#define VRAMCALC_SRC_BUILTIN_DATA_H_

#include <functional>
#include <map>
#include <string>

#include "vramcalc/catalog.h"
#include "vramcalc/i18n.h"

namespace vramcalc::internal {

// Every assets/models/*.json (in file-name order) and assets/devices.json, as read; not yet
// sorted for listing (SortForListing) nor checked (BuiltinCatalog does both).
Catalog BuiltinCatalogData();
// assets/i18n/<lang>.json without its "_comment" keys.
std::map<std::string, std::string, std::less<>> BuiltinStringTable(Lang lang);

// Listings and selectors show families together, smallest model first (ParseCatalog and
// BuiltinCatalog both order the models so).
void SortForListing(Catalog& catalog);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_BUILTIN_DATA_H_
