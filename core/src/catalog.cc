#include "vramcalc/catalog.h"

#include <algorithm>
#include <string>
#include <vector>

#include "builtin_data.h"

namespace vramcalc {

const ModelSpec* Catalog::FindModel(std::string_view id) const {
  for (const ModelSpec& model : models) {
    if (model.id == id) return &model;
  }
  return nullptr;
}

const Device* Catalog::FindDevice(std::string_view id) const {
  for (const Device& device : devices) {
    if (device.id == id) return &device;
  }
  return nullptr;
}

namespace internal {

void SortForListing(Catalog& catalog) {
  std::stable_sort(catalog.models.begin(), catalog.models.end(),
                   [](const ModelSpec& a, const ModelSpec& b) {
                     return a.family != b.family ? a.family < b.family
                                                 : a.params_total < b.params_total;
                   });
}

}  // namespace internal

namespace {

// What ParseCatalog would refuse in the generated data beyond its JSON shape (the generator
// copies values, and tests/core/builtin_data_test.cc checks it against ParseCatalog).
Result<Catalog> CheckedBuiltinCatalog() {
  Catalog catalog = internal::BuiltinCatalogData();
  for (const ModelSpec& model : catalog.models) {
    if (auto invalid = ValidateModel(model)) {
      return Error{"invalid_catalog", "models[" + model.id + "]." + invalid->field + " is invalid: " +
                                          invalid->message, "models[" + model.id + "]." + invalid->field};
    }
  }
  for (const std::vector<std::string>* list : {&catalog.recommendation_ladder, &catalog.hardware_table}) {
    for (const std::string& id : *list) {
      if (catalog.FindDevice(id) == nullptr) {
        return Error{"invalid_catalog", "devices.json names a device that is not in the catalog: " + id,
                     "devices"};
      }
    }
  }
  internal::SortForListing(catalog);
  return catalog;
}

}  // namespace

const Result<Catalog>& BuiltinCatalog() {
  // Built once, then immutable: the catalog is a constant of the program.
  static const Result<Catalog> kCatalog = CheckedBuiltinCatalog();
  return kCatalog;
}

}  // namespace vramcalc
