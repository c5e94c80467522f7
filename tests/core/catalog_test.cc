// The compiled-in catalog against its sources, and the catalog parser's error reporting.
#include "vramcalc/catalog.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "test_models.h"
#include "vramcalc/estimate.h"
#include "vramcalc/evaluate.h"
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

// Issue 33: every device's dense peak compute, with the source it was read or derived from; the
// 8-bit rates are never below the 16-bit one. Vendor figures: NVIDIA's Ampere GA102 whitepaper
// Table 9 (RTX 3090: 71 TFLOPS FP16 with FP32 accumulate, 284 TOPS INT8, dense), the A100 and H100
// datasheets (312; 1,979 FP8 and INT8 with sparsity, 989.5 TFLOPS BF16 dense for the SXM).
TEST(BuiltinCatalog, EveryDeviceHasASourcedPeak) {
  for (const Device& d : Builtin().devices) {
    SCOPED_TRACE(d.id);
    EXPECT_GT(d.fp16_tflops, 0);
    EXPECT_NE(d.serving_source.find("http"), std::string::npos) << d.serving_source;
    if (d.int8_tops > 0) EXPECT_GE(d.int8_tops, d.fp16_tflops);
    if (d.fp8_tflops > 0) EXPECT_GE(d.fp8_tflops, d.fp16_tflops);
  }
  const auto peaks = [](std::string_view id) {
    const Device* d = Builtin().FindDevice(id);
    return std::array<double, 3>{d->fp16_tflops, d->int8_tops, d->fp8_tflops};
  };
  EXPECT_EQ(peaks("rtx-3090-24gb"), (std::array<double, 3>{71, 284, 0}));
  EXPECT_EQ(peaks("a100-80gb"), (std::array<double, 3>{312, 624, 0}));
  EXPECT_EQ(peaks("h100-80gb"), (std::array<double, 3>{989.5, 1979, 1979}));
  // NVIDIA's aiconfigurator systems/b300_sxm.yaml (from the Blackwell Ultra datasheet): BF16 2,250
  // and FP8 4,500 dense, INT8 only 153.5 TOPS (Blackwell Ultra cut it below the 16-bit rate), which
  // the catalog leaves out, as no engine multiplies at it.
  EXPECT_EQ(peaks("b300-270gb"), (std::array<double, 3>{2250, 0, 4500}));
}

// Every NVIDIA GPU states its CUDA compute capability, from NVIDIA's tables (assets/devices.json
// _comment): developer.nvidia.com/cuda-gpus ("12.1 | NVIDIA GB10 (DGX Spark)", "10.3 | NVIDIA GB300
// NVIDIA B300", "9.0 | NVIDIA GH200 NVIDIA H200 NVIDIA H100", "8.9 | ... GeForce RTX 4090", "8.6 |
// NVIDIA A40 NVIDIA A10 ...") and cuda-legacy-gpus ("7.0 | NVIDIA V100",
// "6.1 | Tesla P40 Tesla P4"); every Apple GPU its Metal GPU family, from Apple's feature set tables
// (developer.apple.com/metal/feature-sets: "M1-series ... Apple7", "M2-series ... Apple8",
// "M3-series ... Apple9", "M4-series ... Apple9", "M5-series ... Apple10"); every AMD GPU its GFXIP
// version, from AMD's GPU hardware specifications table (ROCm docs/reference/gpu-arch-specs.rst @
// 74e2e7c, "LLVM target name", "GFXIP Major version", "GFXIP Minor version": "Radeon AI PRO R9700 |
// RDNA4 | gfx1201 | ... | 12 | 0", "Radeon RX 9060 XT | RDNA4 | gfx1200 | ... | 12 | 0", "Radeon RX
// 7900 XTX | RDNA3 | gfx1100 | ... | 11 | 0", "AMD Ryzen AI Max+ PRO 395 | Radeon 8060S | RDNA3.5 |
// gfx1151 | ... | 11 | 5", "MI300X | CDNA3 | gfx942 | ... | 9 | 4", "MI355X | CDNA4 | gfx950 | ... | 9 | 5").
TEST(BuiltinCatalog, EveryGpuStatesItsArchitectureVersion) {
  for (const Device& d : Builtin().devices) {
    SCOPED_TRACE(d.id);
    if (d.platform == Platform::kCuda) {
      EXPECT_GE(d.compute_capability, 6.0);
      EXPECT_LE(d.compute_capability, 12.1);
    } else if (d.platform == Platform::kMetal) {
      EXPECT_GE(d.compute_capability, 7);
      EXPECT_LE(d.compute_capability, 10);
    } else {
      EXPECT_GE(d.compute_capability, 9.4);
      EXPECT_LE(d.compute_capability, 12);
    }
  }
  const std::pair<std::string_view, double> versions[] = {
      {"dgx-spark-gb10-128gb", 12.1},
      {"b300-270gb", 10.3},
      {"h100-80gb", 9.0},
      {"rtx-4090-24gb", 8.9},
      {"a10-24gb", 8.6},
      {"tesla-v100-sxm2-32gb", 7.0},
      {"tesla-p40-24gb", 6.1},
      {"apple-m1-max-64gb", 7},
      {"mac-studio-192gb", 8},  // M2 Ultra
      {"apple-m3-ultra-512gb", 9},
      {"apple-m4-pro-48gb", 9},
      {"apple-m5-pro-64gb", 10},
      {"radeon-ai-pro-r9700-32gb", 12},
      {"rx-9060-xt-16gb", 12},
      {"rx-7900-xtx-24gb", 11},
      {"ryzen-ai-max-395-128gb", 11.5},
      {"mi300x-192gb", 9.4},
      {"mi355x-288gb", 9.5},
  };
  for (const auto& [id, version] : versions) EXPECT_EQ(Builtin().FindDevice(id)->compute_capability, version) << id;
}

// Section 8.3: every card with memory of its own names its host link and its source (in
// serving_source, after "host link"), and the
// bandwidth is the link's: lanes × 8, 16 or 32 GT/s (PCIe 3.0, 4.0, 5.0) × 128/130 encoding / 8
// bits per direction (PCI-SIG's line rates; 4.0 x16: 31.5 GB/s, hardwareluxx's "31,5 GB/s" for
// the RTX 6000 Ada's x16 slot). Unified memory has none, nor the RTX 3080 Ti, for which no source
// in reach states its link.
TEST(BuiltinCatalog, EveryCardNamesItsHostLink) {
  for (const Device& d : Builtin().devices) {
    SCOPED_TRACE(d.id);
    if (d.unified_memory || d.id == "rtx-3080-ti-12gb") {
      EXPECT_EQ(d.host_link_gbps, 0);
      EXPECT_EQ(d.serving_source.find("host link"), std::string::npos);
      continue;
    }
    const std::size_t link = d.serving_source.find("; host link PCIe ");
    ASSERT_NE(link, std::string::npos) << d.serving_source;
    EXPECT_NE(d.serving_source.find("http", link), std::string::npos) << d.serving_source;
    int generation = 0, lanes = 0;
    ASSERT_EQ(std::sscanf(d.serving_source.c_str() + link, "; host link PCIe %d.0 x%d: ", &generation, &lanes), 2);
    const double per_lane = (generation == 3 ? 8 : generation == 4 ? 16 : 32) * 128.0 / 130.0 / 8.0;
    EXPECT_NEAR(d.host_link_gbps, lanes * per_lane, 0.02);  // as the sources round it
  }
  EXPECT_NE(Builtin().FindDevice("rtx-4060-ti-16gb")->serving_source.find("; host link PCIe 4.0 x8: "), std::string::npos);
  EXPECT_EQ(Builtin().FindDevice("rtx-5090-32gb")->host_link_gbps, 63.0);
}

// A device whose GPU maps less than its memory by default states that figure in its source: only
// the Strix Halo, from AMD's ROCm docs' amd-ttm example on a 128 GB system (62.82 GB of 125.65).
TEST(BuiltinCatalog, AGpuMappedLimitNamesItsSource) {
  for (const Device& d : Builtin().devices) {
    SCOPED_TRACE(d.id);
    if (d.gpu_mapped_gib == 0) continue;
    EXPECT_TRUE(d.unified_memory);
    EXPECT_LT(d.gpu_mapped_gib, d.memory_gib);
    EXPECT_NE(d.source.find("rdna3-5.rst"), std::string::npos) << d.source;
    EXPECT_NE(d.source.find("(62.82 GB)"), std::string::npos) << d.source;
  }
  EXPECT_EQ(Builtin().FindDevice("ryzen-ai-max-395-128gb")->gpu_mapped_gib, 62.82);
}

// The devices added for published llama.cpp/vLLM runs, each as its entry's source states it:
// the source names the memory ("<N> GB") and the bandwidth figure it was read from.
struct SourcedDevice {
  const char* id;
  double memory_gib;
  double bandwidth_gbps;
  DeviceClass device_class;
  Vendor vendor;
  const char* bandwidth_text;  // as the source writes it
};

constexpr SourcedDevice kSourcedDevices[] = {
    {"rtx-3070-8gb", 8, 448, DeviceClass::kConsumer, Vendor::kNvidia, "448 GB/s"},
    {"rtx-3060-ti-8gb", 8, 448, DeviceClass::kConsumer, Vendor::kNvidia, "448 GB/s"},
    {"rtx-3080-ti-12gb", 12, 912, DeviceClass::kConsumer, Vendor::kNvidia, "912 GB/s"},
    {"rtx-4060-8gb", 8, 272, DeviceClass::kConsumer, Vendor::kNvidia, "272 GB/s"},
    {"rtx-4070-12gb", 12, 504, DeviceClass::kConsumer, Vendor::kNvidia, "504 GB/s"},
    {"rtx-4070-ti-12gb", 12, 504, DeviceClass::kConsumer, Vendor::kNvidia, "504 GB/s"},
    {"rtx-5070-12gb", 12, 672, DeviceClass::kConsumer, Vendor::kNvidia, "672.0 GB/s"},
    {"rtx-2080-8gb", 8, 448, DeviceClass::kConsumer, Vendor::kNvidia, "448 GB/s"},
    {"rtx-2080-ti-11gb", 11, 616, DeviceClass::kConsumer, Vendor::kNvidia, "616 GB/s"},
    {"a40-48gb", 48, 696, DeviceClass::kDatacenter, Vendor::kNvidia, "696 GB/s"},
    {"tesla-p40-24gb", 24, 346, DeviceClass::kDatacenter, Vendor::kNvidia, "346 GB/s"},
    {"tesla-v100-sxm2-32gb", 32, 900, DeviceClass::kDatacenter, Vendor::kNvidia, "900 GB/s"},
    {"dgx-spark-gb10-128gb", 128, 273, DeviceClass::kConsumer, Vendor::kNvidia, "273 GB/s"},
    {"rx-7900-xt-20gb", 20, 800, DeviceClass::kConsumer, Vendor::kAmd, "800 GB/s"},
    {"rx-9070-xt-16gb", 16, 640, DeviceClass::kConsumer, Vendor::kAmd, "640 GB/s"},
    {"rx-9070-16gb", 16, 640, DeviceClass::kConsumer, Vendor::kAmd, "640 GB/s"},
    {"ryzen-ai-max-395-128gb", 128, 256, DeviceClass::kConsumer, Vendor::kAmd, "256 GB/s"},
    {"apple-m4-32gb", 32, 120, DeviceClass::kApple, Vendor::kApple, "120 GB/s"},
    {"apple-m4-pro-64gb", 64, 273, DeviceClass::kApple, Vendor::kApple, "273 GB/s"},
    {"apple-m4-max-128gb", 128, 546, DeviceClass::kApple, Vendor::kApple, "546 GB/s"},
    {"apple-m5-32gb", 32, 153, DeviceClass::kApple, Vendor::kApple, "153 GB/s"},
    {"apple-m5-pro-64gb", 64, 307, DeviceClass::kApple, Vendor::kApple, "307 GB/s"},
    {"apple-m5-max-128gb", 128, 614, DeviceClass::kApple, Vendor::kApple, "614 GB/s"},
    {"apple-m3-ultra-256gb", 256, 819, DeviceClass::kApple, Vendor::kApple, "819 GB/s"},
    {"b300-270gb", 270, 7700, DeviceClass::kDatacenter, Vendor::kNvidia, "7.7 TB/s"},
    {"mi355x-288gb", 288, 8000, DeviceClass::kDatacenter, Vendor::kAmd, "8 TB/s"},
    {"mi325x-256gb", 256, 6000, DeviceClass::kDatacenter, Vendor::kAmd, "6.0 TB/s"},
    {"rtx-pro-5000-blackwell-48gb", 48, 1344, DeviceClass::kConsumer, Vendor::kNvidia, "1344 GB/s"},
    {"rtx-5060-8gb", 8, 448, DeviceClass::kConsumer, Vendor::kNvidia, "448 GB/s"},
    {"rtx-5060-ti-8gb", 8, 448, DeviceClass::kConsumer, Vendor::kNvidia, "448 GB/s"},
    {"rx-9060-xt-16gb", 16, 320, DeviceClass::kConsumer, Vendor::kAmd, "320 GB/s"},
    {"radeon-ai-pro-r9700-32gb", 32, 640, DeviceClass::kConsumer, Vendor::kAmd, "640 GB/s"},
    {"rtx-pro-4000-blackwell-24gb", 24, 672, DeviceClass::kConsumer, Vendor::kNvidia, "672 GB/s"},
    {"rtx-pro-4500-blackwell-32gb", 32, 896, DeviceClass::kConsumer, Vendor::kNvidia, "896 GB/s"},
    {"apple-m4-max-36gb", 36, 410, DeviceClass::kApple, Vendor::kApple, "410 GB/s"},
    {"apple-m5-max-36gb", 36, 460, DeviceClass::kApple, Vendor::kApple, "460 GB/s"},
    {"jetson-agx-thor-128gb", 128, 273, DeviceClass::kConsumer, Vendor::kNvidia, "273 GB/s"},
};

TEST(BuiltinCatalog, AddedDevicesMatchTheFiguresTheirSourcesQuote) {
  for (const SourcedDevice& expected : kSourcedDevices) {
    SCOPED_TRACE(expected.id);
    const Device* d = Builtin().FindDevice(expected.id);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->memory_gib, expected.memory_gib);
    EXPECT_EQ(d->bandwidth_gbps, expected.bandwidth_gbps);
    EXPECT_EQ(d->device_class, expected.device_class);
    EXPECT_EQ(d->vendor, expected.vendor);
    EXPECT_EQ(d->source.rfind("http", 0), 0u) << d->source;
    const std::string memory = std::to_string(static_cast<int>(expected.memory_gib)) + " GB";
    EXPECT_NE(d->source.find(memory), std::string::npos) << memory << " not in " << d->source;
    EXPECT_NE(d->source.find(expected.bandwidth_text), std::string::npos) << d->source;
    for (const auto* list : {&Builtin().recommendation_ladder, &Builtin().hardware_table}) {
      EXPECT_EQ(std::count(list->begin(), list->end(), d->id), 0) << "the short lists stay as they are";
    }
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
  {"id": "gpu", "name": "GPU", "memory_gib": 24, "bandwidth_gbps": 936, "class": "consumer", "vendor": "nvidia", "platform": "cuda", "unified_memory": false, "source": "sheet"}],
  "recommendation_ladder": ["gpu"], "hardware_table": ["gpu"]})";

std::string Model(const std::string& replace_from, const std::string& replace_to) {
  std::string model = R"({"id": "m", "name": "M", "family": "F", "checkpoint": "o/m", "ollama_tag": "",
    "license": "MIT", "release": "2025", "topology": "dense", "attention": "gqa",
    "params_total": 1e9, "params_active": 1e9, "num_hidden_layers": 16, "hidden_size": 2048,
    "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 32000, "tie_word_embeddings": false,
    "max_position_embeddings": 4096,
    "layer_groups": [{"kind": "full", "layers": 16, "kv_heads": 8, "key_dim": 64, "value_dim": 64,
                      "query_heads": 32, "query_key_dim": 64, "query_value_dim": 64}],
    "sources": [{"what": "architecture", "url": "u"}]})";
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
      {Model(R"("attention": "gqa")", R"("attention": "mla")"), "models[m].attention"},
      {Model(R"("kind": "full")", R"("kind": "latent")"), "models[m].attention"},
      {Model(R"("kind": "full")", R"("kind": "window")"), "models[m].layer_groups[0]"},
      {Model(R"("kind": "full")", R"("kind": "sliding")"), "models[m].layer_groups[0].kind"},
      {Model(R"("layers": 16)", R"("layers": 15)"), "models[m].layer_groups"},
      {Model(R"("key_dim": 64)", R"("key_dim": -64)"), "models[m].layer_groups[0].key_dim"},
      {Model(R"(, "query_value_dim": 64)", R"(, "query_value_dim": 64, "window": 8)"), "models[m].layer_groups[0].window"},
      {Model(R"("topology": "dense")", R"("topology": "sparse")"), "models[m].topology"},
      {Model(R"("params_active": 1e9)", R"("params_active": 2e9)"), "models[m].params_active"},
      {Model(R"("sources": [{"what": "architecture", "url": "u"}])", R"("sources": [])"), "models[m].sources"},
      {Model(R"("vocab_size": 32000)", R"("vocab_size": 32000, "vocab": 1)"), "models[m].vocab"},
      {Model(R"("family": "F", )", ""), "models[m].family"},
      // Its hidden size, 2,048, is 8 × 256: no matrix reading it falls back.
      {Model(R"("params_active": 1e9,)", R"("params_active": 1e9, "unaligned_hidden_params": 1e8,)"),
       "models[m].unaligned_hidden_params"},
      {Model(R"("params_active": 1e9,)", R"("params_active": 1e9, "unaligned_expert_params": 2e9,)"),
       "models[m].unaligned_expert_params"},
      // A dense model has no experts' down projections.
      {Model(R"("params_active": 1e9,)", R"("params_active": 1e9, "expert_down_params": 1e8,)"),
       "models[m].expert_down_params"},
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
  EXPECT_EQ(ParseCatalog("not json", kDevices).error().field, "models");
  EXPECT_EQ(ParseCatalog(Model("", ""), R"({"devices": [}")").error().field, "devices.json");
}

TEST(ParseCatalog, KeysStartingWithAnUnderscoreAreNotesForPeople) {
  const Result<Catalog> catalog =
      ParseCatalog(Model(R"("family": "F")", R"("family": "F", "_notes": "counted by hand")"), kDevices);
  ASSERT_TRUE(catalog.ok()) << catalog.error().message;
  EXPECT_EQ(catalog.value().models.at(0).family, "F");
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

TEST(BuiltinCatalog, EveryEntryIsConsistentAndSourced) {
  const Catalog& catalog = Builtin();
  EXPECT_GE(catalog.models.size(), 40u);
  EXPECT_GE(catalog.devices.size(), 30u);
  std::set<std::string> ids;
  for (const ModelSpec& m : catalog.models) {
    SCOPED_TRACE(m.id);
    EXPECT_TRUE(ids.insert(m.id).second) << "id repeats";
    EXPECT_FALSE(ValidateModel(m).has_value());
    EXPECT_EQ(m.num_attention_heads % m.num_key_value_heads, 0);
    switch (m.attention) {
      case Attention::kMha: EXPECT_EQ(m.num_key_value_heads, m.num_attention_heads); break;
      case Attention::kMqa: EXPECT_EQ(m.num_key_value_heads, 1); break;
      case Attention::kGqa: EXPECT_LT(m.num_key_value_heads, m.num_attention_heads); break;
      case Attention::kMla:  // one latent "head" per token, no separate value (DeepSeek-V4: compressed, windowed)
        for (const LayerGroup& group : m.layer_groups) {
          EXPECT_TRUE(group.kind == LayerKind::kLatent || group.kind == LayerKind::kCompressed || group.kind == LayerKind::kWindow);
          EXPECT_EQ(group.kv_heads, 1);
          EXPECT_EQ(group.value_dim, 0);
        }
        break;
    }
    int64_t layers = 0;
    for (const LayerGroup& group : m.layer_groups) layers += group.layers;
    EXPECT_EQ(layers, m.num_hidden_layers);
    if (m.topology == Topology::kMoe) {
      ASSERT_TRUE(m.moe);
      EXPECT_LT(m.params_active, m.params_total);
    }
    const bool has_config_source = std::any_of(m.sources.begin(), m.sources.end(), [](const Source& s) {
      return s.url.find("config") != std::string::npos || s.url.find("reference") != std::string::npos;
    });
    EXPECT_TRUE(has_config_source) << "no config.json (or reference page) among the sources";
  }
  for (const Device& d : catalog.devices) {
    SCOPED_TRACE(d.id);
    EXPECT_TRUE(ids.insert(d.id).second) << "id repeats";
    EXPECT_GT(d.memory_gib, 0);
    EXPECT_GT(d.bandwidth_gbps, 0);
    EXPECT_FALSE(d.source.empty());
  }
}

// KV cache at 32,768 tokens, FP16, one sequence, per family: the config.json fields written
// out here, the catalog entry checked against them, and the bytes counted by hand.
struct KvCase {
  const char* id;
  int64_t layers, kv_heads, head_dim, window, local_layers;
  double kv_bytes;  // the hand calculation
};

TEST(BuiltinCatalog, KvCacheAt32kPerFamily) {
  const KvCase kCases[] = {
      // GQA, Llama 3.1 8B: 2 × 32 layers × 8 KV heads × 128 × 2 B × 32,768 = 4 GiB.
      {"llama-3.1-8b", 32, 8, 128, 0, 0, 2.0 * 32 * 8 * 128 * 2 * 32768},
      // 5 local : 1 global, Gemma 3 27B: 62 layers, 52 windowed at 1,024, 16 KV heads × 128:
      // 8,192 B per layer and token × (10 × 32,768 + 52 × 1,024) = 3,120,562,176 B.
      {"gemma-3-27b", 62, 16, 128, 1024, 52, 8192.0 * (10 * 32768 + 52 * 1024)},
      // Alternating, gpt-oss-120b: 36 layers, 18 windowed at 128, 8 KV heads × 64:
      // 2,048 B × (18 × 32,768 + 18 × 128) = 1,212,678,144 B.
      {"gpt-oss-120b", 36, 8, 64, 128, 18, 2048.0 * (18 * 32768 + 18 * 128)},
      // MoE, Qwen3-30B-A3B: 48 layers × 4 KV heads × 128 × 2 × 2 B × 32,768 = 3 GiB.
      {"qwen3-30b-a3b", 48, 4, 128, 0, 0, 2.0 * 48 * 4 * 128 * 2 * 32768},
  };
  for (const KvCase& c : kCases) {
    SCOPED_TRACE(c.id);
    const ModelSpec* m = Builtin().FindModel(c.id);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->num_hidden_layers, c.layers);
    EXPECT_EQ(m->num_key_value_heads, c.kv_heads);
    EXPECT_EQ(m->head_dim, c.head_dim);
    EXPECT_EQ(testing::WindowedLayers(*m).window, c.window);
    EXPECT_EQ(testing::WindowedLayers(*m).layers, c.local_layers);
    EXPECT_EQ(KvCacheBytes(KvLayoutOf(*m, 2.0), 32768, 1), c.kv_bytes);
  }
  // MLA, DeepSeek-V3 (kv_lora_rank 512, qk_rope_head_dim 64): 61 × 576 × 2 B × 32,768 =
  // 2,302,672,896 B = 2.14453125 GiB, against 61 × 128 × (192 + 128) × 2 B × 32,768 naive.
  const ModelSpec* v3 = Builtin().FindModel("deepseek-v3");
  ASSERT_NE(v3, nullptr);
  ASSERT_EQ(v3->layer_groups.size(), 1u);
  EXPECT_EQ(v3->layer_groups[0].kind, LayerKind::kLatent);
  EXPECT_EQ(v3->layer_groups[0].kv_heads, 1);
  EXPECT_EQ(v3->layer_groups[0].key_dim, 512 + 64);
  EXPECT_EQ(v3->layer_groups[0].value_dim, 0);
  EXPECT_EQ(KvCacheBytes(KvLayoutOf(*v3, 2.0), 32768, 1), 2302672896.0);
  EXPECT_EQ(NaiveMhaKvBytes(*v3, 32768, 1), 61.0 * 128 * 320 * 2 * 32768);
}

TEST(BuiltinCatalog, MoeDecodeReadsTheActiveParameters) {
  // Qwen3-30B-A3B at Q4_K_M, 32K, on an RTX 4090: 3,353,032,704 active parameters × 4.85 / 8
  // plus the 3 GiB KV cache per token: 1008e9 × 0.736 × 0.85 / (2,032,526,092.8 + 3,221,225,472).
  Request request;
  request.model = "qwen3-30b-a3b";
  request.device = "rtx-4090-24gb";
  const auto response = Evaluate(request, Builtin());
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response.value().model.params_active, 3353032704.0);
  EXPECT_NEAR(response.value().simulator.decode_tps,
              1008e9 * 0.736 * 0.85 / (3353032704.0 * 4.85 / 8 + 3221225472.0), 1e-9);
  EXPECT_NEAR(response.value().simulator.decode_tps, 120.0, 0.05);
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

// Weights as the engines store them (estimation model section 5.2) need each mixture-of-experts
// model's routed experts from its config shapes, not derived from its total and active counts
// (whose embedding conventions differ: gpt-oss counts no input embedding as active).
TEST(Catalog, MixtureOfExpertsModelsStateTheirExpertParameters) {
  int moe_models = 0;
  for (const ModelSpec& model : BuiltinCatalog().value().models) {
    if (!model.moe) continue;
    ++moe_models;
    EXPECT_GT(model.moe->expert_params, 0) << model.id;
    EXPECT_LT(model.moe->expert_params, model.params_total) << model.id;
  }
  EXPECT_EQ(moe_models, 37);
  // gpt-oss-20b: 24 layers × 32 experts × (2,880 × 5,760 + 5,760 + 2,880 × 2,880 + 2,880).
  EXPECT_EQ(BuiltinCatalog().value().FindModel("gpt-oss-20b")->moe->expert_params, 24.0 * 32 * 24891840);
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

// Every device names its source (the schema lets the wasm module's copy leave it out).
TEST(Catalog, EveryDeviceNamesItsSource) {
  for (const Device& device : BuiltinCatalog().value().devices) {
    EXPECT_EQ(device.source.rfind("http", 0), 0u) << device.id << ": " << device.source;
  }
}

}  // namespace
}  // namespace vramcalc
