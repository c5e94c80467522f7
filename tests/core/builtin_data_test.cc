// The compiled-in catalog and strings (generated as data by core/embed_assets.cmake) against
// ParseCatalog and ParseStrings reading the same assets/ files: every check the parser makes
// (known fields, types, positive values, sources) thereby holds for the data the program uses.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
  const Catalog& actual = builtin.value();
  ASSERT_EQ(actual.models.size(), expected.models.size());
  for (std::size_t i = 0; i < expected.models.size(); ++i) {
    const ModelSpec& a = actual.models[i];
    const ModelSpec& e = expected.models[i];
    SCOPED_TRACE(e.id);
    EXPECT_EQ(a.id, e.id);
    EXPECT_EQ(a.name, e.name);
    EXPECT_EQ(a.family, e.family);
    EXPECT_EQ(a.checkpoint, e.checkpoint);
    EXPECT_EQ(a.ollama_tag, e.ollama_tag);
    EXPECT_EQ(a.ollama_tag_weights, e.ollama_tag_weights);
    EXPECT_EQ(a.license, e.license);
    EXPECT_EQ(a.release, e.release);
    EXPECT_EQ(a.topology, e.topology);
    EXPECT_EQ(a.attention, e.attention);
    EXPECT_EQ(a.params_total, e.params_total);
    EXPECT_EQ(a.params_active, e.params_active);
    EXPECT_EQ(a.params_formula, e.params_formula);
    EXPECT_EQ(a.num_hidden_layers, e.num_hidden_layers);
    EXPECT_EQ(a.hidden_size, e.hidden_size);
    EXPECT_EQ(a.num_attention_heads, e.num_attention_heads);
    EXPECT_EQ(a.num_key_value_heads, e.num_key_value_heads);
    EXPECT_EQ(a.head_dim, e.head_dim);
    EXPECT_EQ(a.vocab_size, e.vocab_size);
    EXPECT_EQ(a.max_position_embeddings, e.max_position_embeddings);
    ASSERT_EQ(a.mla.has_value(), e.mla.has_value());
    if (e.mla) {
      EXPECT_EQ(a.mla->kv_lora_rank, e.mla->kv_lora_rank);
      EXPECT_EQ(a.mla->qk_rope_head_dim, e.mla->qk_rope_head_dim);
      EXPECT_EQ(a.mla->qk_nope_head_dim, e.mla->qk_nope_head_dim);
      EXPECT_EQ(a.mla->v_head_dim, e.mla->v_head_dim);
    }
    ASSERT_EQ(a.sliding_window.has_value(), e.sliding_window.has_value());
    if (e.sliding_window) {
      EXPECT_EQ(a.sliding_window->window_tokens, e.sliding_window->window_tokens);
      EXPECT_EQ(a.sliding_window->local_layers, e.sliding_window->local_layers);
      EXPECT_EQ(a.sliding_window->pattern, e.sliding_window->pattern);
    }
    ASSERT_EQ(a.moe.has_value(), e.moe.has_value());
    if (e.moe) {
      EXPECT_EQ(a.moe->num_experts, e.moe->num_experts);
      EXPECT_EQ(a.moe->experts_per_token, e.moe->experts_per_token);
      EXPECT_EQ(a.moe->shared_experts, e.moe->shared_experts);
    }
    ASSERT_EQ(a.sources.size(), e.sources.size());
    for (std::size_t k = 0; k < e.sources.size(); ++k) {
      EXPECT_EQ(a.sources[k].what, e.sources[k].what);
      EXPECT_EQ(a.sources[k].url, e.sources[k].url);
    }
  }
  ASSERT_EQ(actual.devices.size(), expected.devices.size());
  for (std::size_t i = 0; i < expected.devices.size(); ++i) {
    const Device& a = actual.devices[i];
    const Device& e = expected.devices[i];
    SCOPED_TRACE(e.id);
    EXPECT_EQ(a.id, e.id);
    EXPECT_EQ(a.name, e.name);
    EXPECT_EQ(a.memory_gib, e.memory_gib);
    EXPECT_EQ(a.bandwidth_gbps, e.bandwidth_gbps);
    EXPECT_EQ(a.device_class, e.device_class);
    EXPECT_EQ(a.vendor, e.vendor);
    EXPECT_EQ(a.source, e.source);
  }
  EXPECT_EQ(actual.recommendation_ladder, expected.recommendation_ladder);
  EXPECT_EQ(actual.hardware_table, expected.hardware_table);
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
