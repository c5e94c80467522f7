#include "vramcalc/catalog.h"

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

const Result<Catalog>& BuiltinCatalog() {
  // Parsed once, then immutable: the catalog is a constant of the program.
  static const Result<Catalog> kCatalog =
      ParseCatalog(internal::BuiltinModelsJson(), internal::BuiltinDevicesJson());
  return kCatalog;
}

}  // namespace vramcalc
