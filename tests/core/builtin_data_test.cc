// The compiled-in catalog and strings (embedded as JSON text by core/embed_assets.cmake) against
// ParseCatalog and ParseStrings reading the assets/ files themselves: the generator drops the
// notes for people and nothing else.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "builtin_data.h"
#include "catalog_expect.h"
#include "strings_codec.h"
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
  return std::move(parsed).value();
}

TEST(BuiltinData, TheCatalogIsWhatTheParserReadsFromAssets) {
  const Catalog expected = ParsedFromAssets();
  const Result<Catalog>& builtin = BuiltinCatalog();
  ASSERT_TRUE(builtin.ok()) << builtin.error().message;
  ExpectSameCatalog(builtin.value(), expected);
}

TEST(BuiltinData, NotesForPeopleAreNotCompiledIn) {
  // assets/models/*.json keep their notes under "_notes" (and windows their "_pattern");
  // the generator leaves every "_" key out.
  EXPECT_EQ(std::string(internal::BuiltinModelsJson()).find("\"_"), std::string::npos);
  EXPECT_EQ(std::string(internal::BuiltinDevicesJson()).find("\"_comment\""), std::string::npos);
  EXPECT_NE(ReadText(kAssets / "models" / "gemma-3-27b.json").find("\"_notes\""), std::string::npos);
}

TEST(BuiltinData, TheStringsAreWhatTheParserReadsFromAssets) {
  for (const auto& [lang, file] : {std::pair{Lang::kDe, "de.json"}, std::pair{Lang::kEn, "en.json"}}) {
    SCOPED_TRACE(file);
    const Result<Strings> parsed = internal::ParseStrings(ReadText(kAssets / "i18n" / file));
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(BuiltinStrings(lang).texts(), parsed.value().texts());
    EXPECT_GT(parsed.value().texts().size(), 100u);
  }
}

}  // namespace
}  // namespace vramcalc
