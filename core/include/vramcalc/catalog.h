// The model and device catalog (assets/models/*.json, assets/devices.json, compiled in).
#ifndef VRAMCALC_CATALOG_H_
#define VRAMCALC_CATALOG_H_

#include <string>
#include <string_view>
#include <vector>

#include "vramcalc/device.h"
#include "vramcalc/model_spec.h"
#include "vramcalc/result.h"

namespace vramcalc {

struct Catalog {
  std::vector<ModelSpec> models;
  std::vector<Device> devices;
  // Purchase classes the "recommended class" is chosen from (estimation model 1.8).
  std::vector<std::string> recommendation_ladder;
  // The hardware table's rows, in order.
  std::vector<std::string> hardware_table;

  const ModelSpec* FindModel(std::string_view id) const;
  const Device* FindDevice(std::string_view id) const;
};

// Parses and validates a catalog: models is a JSON array of model objects, devices the
// devices.json object. Errors name the entry and field, e.g. "models[glm-4-9b-0414].head_dim".
Result<Catalog> ParseCatalog(std::string_view models_json, std::string_view devices_json);

// The compiled-in catalog, parsed once on first use and immutable afterwards.
const Result<Catalog>& BuiltinCatalog();

}  // namespace vramcalc

#endif  // VRAMCALC_CATALOG_H_
