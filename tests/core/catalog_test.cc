// The compiled-in catalog against its sources, and the catalog parser's error reporting.
#include "vramcalc/catalog.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "vramcalc/i18n.h"

namespace vramcalc {
namespace {

const Catalog& Builtin() {
  const Result<Catalog>& catalog = BuiltinCatalog();
  EXPECT_TRUE(catalog.ok()) << catalog.error().field << ": " << catalog.error().message;
  return catalog.value();
}

TEST(BuiltinCatalog, Glm4_32bMatchesItsConfigJson) {
  // https://huggingface.co/THUDM/GLM-4-32B-0414/blob/main/config.json
  const ModelSpec* m = Builtin().FindModel("glm-4-32b-0414");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->num_hidden_layers, 61);
  EXPECT_EQ(m->hidden_size, 6144);
  EXPECT_EQ(m->num_attention_heads, 48);
  EXPECT_EQ(m->num_key_value_heads, 2);
  EXPECT_EQ(m->head_dim, 128);
  EXPECT_EQ(m->vocab_size, 151552);
  EXPECT_EQ(m->max_position_embeddings, 32768);
  EXPECT_EQ(m->topology, Topology::kDense);
  EXPECT_EQ(m->attention, Attention::kGqa);
  // The reference page's card: 32B total and active, MIT, 2025-Q2, glm4:32b.
  EXPECT_EQ(m->params_total, 32e9);
  EXPECT_EQ(m->params_active, 32e9);
  EXPECT_EQ(m->checkpoint, "THUDM/GLM-4-32B-0414");
  EXPECT_EQ(m->ollama_tag, "glm4:32b");
  EXPECT_EQ(m->license, "MIT");
  EXPECT_EQ(m->release, "2025-Q2");
}

TEST(BuiltinCatalog, Glm4_9bMatchesItsConfigJson) {
  // https://huggingface.co/THUDM/GLM-4-9B-0414/blob/main/config.json
  const ModelSpec* m = Builtin().FindModel("glm-4-9b-0414");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->num_hidden_layers, 40);
  EXPECT_EQ(m->hidden_size, 4096);
  EXPECT_EQ(m->num_attention_heads, 32);
  EXPECT_EQ(m->num_key_value_heads, 2);
  EXPECT_EQ(m->head_dim, 128);
  EXPECT_EQ(m->vocab_size, 151552);
  EXPECT_EQ(m->max_position_embeddings, 32768);
  // Counted from the config's shapes (intermediate_size 13696, untied embeddings, QKV bias):
  // 2 × 151,552 × 4,096 + 40 × (2 × 4,096² + 2 × 4,096 × 256 + 4,608 + 3 × 4,096 × 13,696
  // + 4 × 4,096) + 4,096 = 9,400,279,040.
  const double per_layer = 2.0 * 4096 * 4096 + 2.0 * 4096 * 256 + 4608 + 3.0 * 4096 * 13696 + 4 * 4096;
  EXPECT_EQ(m->params_total, 2.0 * 151552 * 4096 + 40 * per_layer + 4096);
  EXPECT_EQ(m->params_active, m->params_total);
}

TEST(BuiltinCatalog, DevicesMatchTheirSpecSheets) {
  // Estimation model 1.9, each from the vendor's page named in the entry's source.
  const struct {
    const char* id;
    const char* name;
    double memory_gib;
    double bandwidth_gbps;
    DeviceClass device_class;
  } kDevices[] = {
      {"rtx-3060-12gb", "RTX 3060 12GB", 12, 360, DeviceClass::kConsumer},
      {"rtx-4060-ti-16gb", "RTX 4060 Ti 16GB", 16, 288, DeviceClass::kConsumer},
      {"rtx-3090-24gb", "RTX 3090 24GB", 24, 936, DeviceClass::kConsumer},
      {"rtx-4090-24gb", "RTX 4090 24GB", 24, 1008, DeviceClass::kConsumer},
      {"rtx-5090-32gb", "RTX 5090 32GB", 32, 1792, DeviceClass::kConsumer},
      {"apple-m4-pro-48gb", "Apple M4 Pro 48GB", 48, 273, DeviceClass::kApple},
      {"apple-m-max-64gb", "Apple M-Max 64GB", 64, 546, DeviceClass::kApple},
      {"a100-80gb", "NVIDIA A100 80GB", 80, 2039, DeviceClass::kDatacenter},
      {"h100-80gb", "NVIDIA H100 80GB", 80, 3350, DeviceClass::kDatacenter},
      {"mac-studio-128gb", "Mac Studio 128GB", 128, 546, DeviceClass::kApple},
      {"mac-studio-192gb", "Mac Studio 192GB", 192, 800, DeviceClass::kApple},
  };
  for (const auto& expected : kDevices) {
    SCOPED_TRACE(expected.id);
    const Device* d = Builtin().FindDevice(expected.id);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->name, expected.name);
    EXPECT_EQ(d->memory_gib, expected.memory_gib);
    EXPECT_EQ(d->bandwidth_gbps, expected.bandwidth_gbps);
    EXPECT_EQ(d->device_class, expected.device_class);
    EXPECT_EQ(d->source.rfind("https://", 0), 0u) << d->source;
  }
}

TEST(BuiltinCatalog, LadderAndHardwareTableAreThePagesLists) {
  EXPECT_EQ(Builtin().recommendation_ladder,
            (std::vector<std::string>{"rtx-3060-12gb", "rtx-4060-ti-16gb", "rtx-3090-24gb",
                                      "rtx-4090-24gb", "rtx-5090-32gb", "apple-m4-pro-48gb",
                                      "apple-m-max-64gb", "a100-80gb", "h100-80gb",
                                      "mac-studio-128gb", "mac-studio-192gb"}));
  EXPECT_EQ(Builtin().hardware_table,
            (std::vector<std::string>{"rtx-3090-24gb", "rtx-4090-24gb", "rtx-5090-32gb",
                                      "apple-m-max-64gb", "mac-studio-128gb", "mac-studio-192gb",
                                      "a100-80gb", "h100-80gb"}));
}

TEST(BuiltinCatalog, EveryModelNamesItsSources) {
  for (const ModelSpec& m : Builtin().models) {
    SCOPED_TRACE(m.id);
    ASSERT_FALSE(m.sources.empty());
    for (const Source& s : m.sources) {
      EXPECT_FALSE(s.what.empty());
      EXPECT_FALSE(s.url.empty());
    }
  }
}

TEST(BuiltinStrings, GermanAndEnglishHaveTheSameKeys) {
  const Strings& de = BuiltinStrings(Lang::kDe);
  const Strings& en = BuiltinStrings(Lang::kEn);
  ASSERT_GT(de.texts().size(), 50u);
  std::set<std::string> de_keys, en_keys;
  for (const auto& [key, text] : de.texts()) de_keys.insert(key);
  for (const auto& [key, text] : en.texts()) en_keys.insert(key);
  EXPECT_EQ(de_keys, en_keys);
  // The reference page's German terms.
  EXPECT_EQ(de.Text("out.total"), "Gesamter Speicherbedarf");
  EXPECT_EQ(de.Text("out.max_context"), "Max. Kontext vor OOM");
  EXPECT_EQ(de.Text("fit.comfortable"), "Passt komfortabel");
  EXPECT_EQ(de.Text("fit.tight"), "Knapp (>90 % nutzbar)");
}

TEST(FillTemplate, ReplacesKnownPlaceholdersOnly) {
  EXPECT_EQ(FillTemplate("{a} and {b} and {c}", {{"a", "1"}, {"b", "2"}}), "1 and 2 and {c}");
  EXPECT_EQ(FillTemplate("no placeholder {", {{"a", "1"}}), "no placeholder {");
}

// ---- the parser's errors name the entry and field --------------------------------------

constexpr const char* kDevices = R"({"devices": [
  {"id": "gpu", "name": "GPU", "memory_gib": 24, "bandwidth_gbps": 936, "class": "consumer", "vendor": "nvidia", "source": "sheet"}],
  "recommendation_ladder": ["gpu"], "hardware_table": ["gpu"]})";

std::string Model(const std::string& replace_from, const std::string& replace_to) {
  std::string model = R"({"id": "m", "name": "M", "family": "F", "checkpoint": "o/m", "ollama_tag": "",
    "license": "MIT", "release": "2025", "topology": "dense", "attention": "gqa",
    "params_total": 1e9, "params_active": 1e9, "num_hidden_layers": 16, "hidden_size": 2048,
    "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 32000,
    "max_position_embeddings": 4096, "sources": [{"what": "architecture", "url": "u"}]})";
  if (!replace_from.empty()) model.replace(model.find(replace_from), replace_from.size(), replace_to);
  return "[" + model + "]";
}

TEST(ParseCatalog, AcceptsAValidEntry) {
  const Result<Catalog> catalog = ParseCatalog(Model("", ""), kDevices);
  ASSERT_TRUE(catalog.ok()) << catalog.error().message;
  EXPECT_EQ(catalog.value().models.at(0).num_key_value_heads, 8);
}

TEST(ParseCatalog, ErrorsNameEntryAndField) {
  const struct {
    std::string models;
    const char* field;
  } kCases[] = {
      {Model(R"("head_dim": 64)", R"("head_dim": 0)"), "models[m].head_dim"},
      {Model(R"("head_dim": 64)", R"("head_dim": "64")"), "models[m].head_dim"},
      {Model(R"("num_key_value_heads": 8)", R"("num_key_value_heads": 64)"), "models[m].num_key_value_heads"},
      {Model(R"("attention": "gqa")", R"("attention": "mla")"), "models[m].mla"},
      {Model(R"("topology": "dense")", R"("topology": "sparse")"), "models[m].topology"},
      {Model(R"("params_active": 1e9)", R"("params_active": 2e9)"), "models[m].params_active"},
      {Model(R"("sources": [{"what": "architecture", "url": "u"}])", R"("sources": [])"), "models[m].sources"},
      {Model(R"("vocab_size": 32000)", R"("vocab_size": 32000, "vocab": 1)"), "models[m].vocab"},
      {Model(R"("family": "F", )", ""), "models[m].family"},
  };
  for (const auto& c : kCases) {
    const Result<Catalog> catalog = ParseCatalog(c.models, kDevices);
    ASSERT_FALSE(catalog.ok()) << c.models;
    EXPECT_EQ(catalog.error().field, c.field) << catalog.error().message;
  }
  const Result<Catalog> bad_ladder =
      ParseCatalog(Model("", ""), R"({"devices": [], "recommendation_ladder": ["x"], "hardware_table": ["x"]})");
  ASSERT_FALSE(bad_ladder.ok());
  EXPECT_EQ(bad_ladder.error().field, "devices.json.recommendation_ladder");
  EXPECT_FALSE(ParseCatalog("not json", kDevices).ok());
}

}  // namespace
}  // namespace vramcalc
