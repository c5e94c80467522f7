// The compiled-in data besides BuiltinCatalog() (vramcalc/catalog.h): the UI strings. Both are
// defined in the C++ source that core/catalog_source.mjs writes from assets/ into the build tree,
// one per program (core/CMakeLists.txt, wasm/CMakeLists.txt); the core library holds neither.
#ifndef VRAMCALC_SRC_MODEL_BUILTIN_DATA_H_
#define VRAMCALC_SRC_MODEL_BUILTIN_DATA_H_

#include <optional>
#include <span>
#include <string_view>

#include "vramcalc/catalog.h"
#include "vramcalc/i18n.h"
#include "vramcalc/result.h"

namespace vramcalc::internal {

// One UI string: its key and its text in one language.
struct StringEntry {
  std::string_view key;
  std::string_view text;
};

// The UI strings of `lang` (assets/i18n/<lang>.json without its "_" notes); none in the wasm
// modules, whose page loads them (i18n.cc BuiltinStrings builds its tables from these).
std::span<const StringEntry> BuiltinStringEntries(Lang lang);

// Listings and selectors show families together, smallest model first (ParseCatalog and
// BuiltinCatalog order the models so): whether model `a` comes before `b`, for a ModelSpec and
// for a row of the compiled-in tables (catalog_tables.h) alike.
template <typename Model>
bool ListedBefore(const Model& a, const Model& b) {
  const std::string_view family_a(a.family), family_b(b.family);  // a row's is a C string
  return family_a != family_b ? family_a < family_b : a.params_total < b.params_total;
}
void SortForListing(Catalog& catalog);

// What the schema alone cannot say: models the estimate can compute (ValidateModel), ids listed
// once, devices whose class and vendor agree, and lists that name catalog devices. ParseCatalog
// runs it on what it reads; tests/core/builtin_data_test.cc on the built-in catalog.
std::optional<Error> CheckCatalog(const Catalog& catalog);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_MODEL_BUILTIN_DATA_H_
