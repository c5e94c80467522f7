#include "vramcalc/catalog.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

// Up a layer: ParseCatalog reads a catalog from JSON text (what the tests compare the built-in
// catalog with, assets/ itself, and what the catalog fuzzer feeds it), through the schema's
// reader at the edge.
#include "io/json_value.h"
#include "io/schema_reader.h"
#include "model/builtin_data.h"
#include "model/small_sort.h"

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

namespace {

using internal::SchemaReader;

constexpr int kMaxCatalogDepth = 16;  // the catalog nests four deep

}  // namespace

namespace internal {

std::optional<Error> CheckCatalog(const Catalog& catalog) {  // builtin_data.h
  std::optional<Error> error;
  for (std::size_t i = 0; i < catalog.models.size() && !error; ++i) {
    const ModelSpec& model = catalog.models[i];
    const std::string path = "models[" + model.id + "]";
    if (catalog.FindModel(model.id) != &model) SchemaReader::Fail(error, path + ".id", "is listed twice");
    if (auto invalid = ValidateModel(model)) {
      SchemaReader::Fail(error, path + "." + invalid->field, "is invalid: " + invalid->message);
    }
  }
  for (std::size_t i = 0; i < catalog.devices.size() && !error; ++i) {
    const Device& device = catalog.devices[i];
    const std::string path = "devices.json.devices[" + device.id + "]";
    if (catalog.FindDevice(device.id) != &device) SchemaReader::Fail(error, path + ".id", "is listed twice");
    if ((device.vendor == Vendor::kApple) != (device.device_class == DeviceClass::kApple)) {
      SchemaReader::Fail(error, path + ".class", "must be \"apple\" exactly for Apple devices");
    }
  }
  for (const auto& [list, name] : {std::pair{&catalog.recommendation_ladder, "recommendation_ladder"},
                                   std::pair{&catalog.hardware_table, "hardware_table"}}) {
    for (const std::string& id : *list) {
      if (catalog.FindDevice(id) == nullptr) {
        SchemaReader::Fail(error, std::string("devices.json.") + name,
                           "names a device that is not in the catalog: \"" + std::string(Clipped(id, 64)) + "\"");
      }
    }
  }
  return error;
}

}  // namespace internal

namespace {

// Parses `text` (a catalog file named `what`), or the error naming the file.
Result<json::Document> ParseFile(std::string_view text, std::string_view what) {
  Result<json::Document> document = json::Document::Parse(text, kMaxCatalogDepth);
  if (!document.ok()) {
    return Error{"invalid_catalog", std::string(what) + ": " + document.error().message, std::string(what)};
  }
  return document;
}

}  // namespace

namespace internal {

void SortForListing(Catalog& catalog) {
  StableSortSmall(catalog.models.begin(), catalog.models.end(), ListedBefore<ModelSpec>);
}

}  // namespace internal

Result<Catalog> ParseCatalog(std::string_view models_json, std::string_view devices_json) {
  const Result<json::Document> devices = ParseFile(devices_json, "devices.json");
  if (!devices.ok()) return devices.error();
  const Result<json::Document> models = ParseFile(models_json, "models");
  if (!models.ok()) return models.error();
  Catalog catalog;
  std::optional<Error> error;
  SchemaReader::Read(devices.value().root(), "devices.json", catalog, error);
  if (!error && (!models.value().root().IsArray() || models.value().root().size() == 0)) {
    SchemaReader::Fail(error, "models", "must be a non-empty array");
  }
  if (!error) SchemaReader::ReadArray(models.value().root(), "models", catalog.models, error);
  if (!error) error = internal::CheckCatalog(catalog);
  if (error) return *error;
  internal::SortForListing(catalog);
  return catalog;
}

}  // namespace vramcalc
