// The compiled-in catalog and strings (constant tables that core/catalog_source.mjs writes from
// assets/, catalog_tables.h) against what nlohmann/json reads from the assets/ files themselves
// (ParseCatalog for the catalog): the same models and devices, field by field, and the same
// strings. And the catalog's own checks (CheckCatalog: ValidateModel, ids
// listed once, lists naming catalog devices), which ParseCatalog runs on what it reads and the
// compiled-in catalog never runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "io/json_value.h"
#include "io/json_writer.h"
#include "io/schema_writer.h"
#include "model/builtin_data.h"
#include "model/catalog_tables.h"
#include "vramcalc/catalog.h"
#include "vramcalc/i18n.h"

namespace vramcalc {
namespace {

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::filesystem::path kAssets = VRAMCALC_ASSETS_DIR;

// assets/ as ParseCatalog reads it: the model files as one array, in file-name order.
Catalog ParsedFromAssets() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kAssets / "models")) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::string models = "[";
  for (const auto& file : files) models += (models.size() > 1 ? "," : "") + ReadText(file);
  models += "]";
  auto parsed = ParseCatalog(models, ReadText(kAssets / "devices.json"));
  EXPECT_TRUE(parsed.ok()) << parsed.error().message;
  return parsed.ok() ? std::move(parsed).value() : Catalog();
}

const Catalog& Builtin() {
  const Result<Catalog>& builtin = BuiltinCatalog();
  EXPECT_TRUE(builtin.ok()) << builtin.error().message;
  return builtin.value();
}

// Every field of a model or a device, as the catalog's listings write it (schema.h VisitFields).
template <typename T>
std::string Written(const T& entry) {
  internal::JsonWriter w(4096);
  internal::SchemaWriter(w).Write(entry);
  return std::move(w).Take();
}

// Each built-in entry against the one read from assets/, in the same (listing) order.
template <typename T>
void ExpectSameEntries(const std::vector<T>& builtin, const std::vector<T>& expected) {
  ASSERT_EQ(builtin.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(expected[i].id);
    EXPECT_EQ(Written(builtin[i]), Written(expected[i]));
  }
}

TEST(BuiltinData, EveryModelIsTheOneTheParserReadsFromAssets) {
  const Catalog expected = ParsedFromAssets();
  EXPECT_GE(expected.models.size(), 92u);  // assets/models/*.json (none read: nothing compared)
  ExpectSameEntries(Builtin().models, expected.models);
}

TEST(BuiltinData, EveryDeviceAndListIsTheOneTheParserReadsFromAssets) {
  const Catalog expected = ParsedFromAssets();
  EXPECT_GE(expected.devices.size(), 66u);  // assets/devices.json
  ExpectSameEntries(Builtin().devices, expected.devices);
  EXPECT_EQ(Builtin().recommendation_ladder, expected.recommendation_ladder);
  EXPECT_EQ(Builtin().hardware_table, expected.hardware_table);
}

TEST(BuiltinData, ARowLeftAtItsDefaultsIsAStructAtItsDefaults) {
  // A field an asset leaves out (or a wasm module's catalog drops) keeps the struct's default,
  // e.g. ollama_tag_weights "Q4_K_M" (model_spec.h).
  EXPECT_EQ(Written(internal::ModelFromRow(internal::ModelRow{})), Written(ModelSpec{}));
  EXPECT_EQ(Written(internal::DeviceFromRow(internal::DeviceRow{})), Written(Device{}));
  EXPECT_EQ(internal::ModelFromRow(internal::ModelRow{}).ollama_tag_weights, "Q4_K_M");
}

TEST(BuiltinData, TheCatalogPassesTheChecksParseCatalogRuns) {
  const std::optional<Error> error = internal::CheckCatalog(Builtin());
  EXPECT_FALSE(error.has_value()) << error->field << ": " << error->message;
}

TEST(BuiltinData, TheChecksCatchAnInvalidModelAndAnUnknownDevice) {
  // The checks above can fail: a model without layers, a ladder naming no device.
  Catalog no_layers = Builtin();
  no_layers.models.front().num_hidden_layers = 0;
  EXPECT_TRUE(internal::CheckCatalog(no_layers).has_value());
  Catalog unknown_device = Builtin();
  unknown_device.recommendation_ladder.push_back("no-such-device");
  EXPECT_TRUE(internal::CheckCatalog(unknown_device).has_value());
}

TEST(BuiltinData, TheStringsAreTheAssetsTables) {
  // assets/i18n/<lang>.json read by nlohmann/json (json_value.h): every key but the notes ("_"),
  // with its text, and no more.
  for (const auto& [lang, file] : {std::pair{Lang::kDe, "de.json"}, std::pair{Lang::kEn, "en.json"}}) {
    SCOPED_TRACE(file);
    const Result<json::Document> parsed = json::Document::Parse(ReadText(kAssets / "i18n" / file));
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    std::map<std::string, std::string, std::less<>> texts;
    for (const json::Value member : parsed.value().root().Children()) {
      ASSERT_TRUE(member.IsString()) << member.Key();
      if (!member.Key().starts_with("_")) texts.emplace(member.Key(), member.String());
    }
    EXPECT_EQ(BuiltinStrings(lang).texts(), texts);
    EXPECT_GT(texts.size(), 100u);
  }
}

}  // namespace
}  // namespace vramcalc
