// Every computed number of the reference page, shared/reference/glm-4-32b-0414.txt
// (GLM-4-32B-0414, Q4_K_M, 32,768 tokens, batch 1, FP16 KV cache, German), formatted with the
// page's rounding and compared as the strings the page shows.
#include <gtest/gtest.h>

#include <string>

#include "vramcalc/catalog.h"
#include "vramcalc/display.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/i18n.h"

namespace vramcalc {
namespace {

class ReferencePage : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(BuiltinCatalog().ok()) << BuiltinCatalog().error().message;
    Request request;
    request.model = "glm-4-32b-0414";  // every other field: the page's defaults
    auto result = Evaluate(request, BuiltinCatalog().value());
    ASSERT_TRUE(result.ok()) << result.error().message;
    response_ = std::move(result).value();
  }

  Response response_;
};

std::string Gb(double gib) { return FormatGb(gib); }
// The fit as the German page names it.
std::string FitLabel(Fit fit) { return std::string(BuiltinStrings(Lang::kDe).Text("fit." + std::string(kFits.Id(fit)))); }

TEST_F(ReferencePage, Simulator) {
  const SimulatorResult& s = response_.simulator;
  EXPECT_EQ(s.device->name, "RTX 3090 24GB");       // "vLLM CLI (RTX 3090 24GB)"
  EXPECT_EQ(FormatGrouped(s.context_tokens), "32,768");  // "32,768 Tokens"
  EXPECT_EQ(FitLabel(s.fit), "Knapp (>90 % nutzbar)");
  EXPECT_EQ(FormatShare(s.share_weights_pct), "83");     // "Modellgewichte: 83%"
  EXPECT_EQ(FormatShare(s.share_kv_cache_pct), "8.8");   // "KV: 8.8%"
  EXPECT_EQ(FormatShare(s.share_overhead_pct), "8.2");   // "Overhead: 8.2%"
  EXPECT_EQ(Gb(s.total_gib), "21.78 GB");                // "Gesamter Speicherbedarf 21.78 GB"
  EXPECT_EQ(Gb(s.per_device_gib), "21.78 GB");           // "Belegung pro Gerät: 21.78 GB"
  EXPECT_EQ(Gb(s.weights_gib), "18.07 GB");              // "Modellgewichte 18.07 GB"
  EXPECT_EQ(Gb(s.kv_cache_gib), "1.91 GB");              // "KV-Cache (FP16): 1.91 GB"
  EXPECT_EQ(FormatFixed(s.decode_tps, 1), "27.3");       // "27.3 tok/s"
  EXPECT_EQ(Gb(s.overhead_gib), "1.81 GB");              // "Runtime- & TP-Overhead: 1.81 GB"
  EXPECT_EQ(FormatGrouped(s.max_context_tokens), "61,544");  // "Max. Kontext vor OOM 61,544"
  EXPECT_EQ(FormatFixed(s.kv_saving_pct, 1), "95.8");    // "spart 95.8 %"
  EXPECT_EQ(Gb(s.kv_naive_mha_gib), "45.75 GB");         // "naiver MHA FP16 (45.75 GB)"
}

TEST_F(ReferencePage, QuantizationMatrix) {
  // Präzision / Format, Effektive bpw, Nur Gewichte, Gesamt @ 8K / 32K / 128K, Empfohlene Klasse.
  const struct {
    const char* label;
    const char* bpw;
    const char* weights;
    const char* at_8k;
    const char* at_32k;
    const char* at_128k;
    const char* recommended;
  } kRows[] = {
      {"FP16 / BF16", "16.00", "59.60 GB", "63.13 GB", "64.56 GB", "70.28 GB", "NVIDIA A100 80GB"},
      {"FP8", "8.50", "31.66 GB", "34.36 GB", "35.79 GB", "41.50 GB", "Apple M4 Pro 48GB"},
      {"Q8_0", "8.50", "31.66 GB", "34.36 GB", "35.79 GB", "41.50 GB", "Apple M4 Pro 48GB"},
      {"Q6_K", "6.56", "24.44 GB", "26.91 GB", "28.34 GB", "34.06 GB", "RTX 5090 32GB"},
      {"Q5_K_M", "5.69", "21.20 GB", "23.57 GB", "25.00 GB", "30.72 GB", "RTX 5090 32GB"},
      {"Q4_K_M", "4.85", "18.07 GB", "20.35 GB", "21.78 GB", "27.50 GB", "RTX 3090 24GB"},
      {"AWQ INT4", "4.50", "16.76 GB", "19.01 GB", "20.44 GB", "26.16 GB", "RTX 3090 24GB"},
      {"IQ4_XS", "4.25", "15.83 GB", "18.05 GB", "19.48 GB", "25.20 GB", "RTX 3090 24GB"},
  };
  ASSERT_EQ(response_.matrix.size(), std::size(kRows));
  for (std::size_t i = 0; i < std::size(kRows); ++i) {
    const MatrixRow& row = response_.matrix[i];
    SCOPED_TRACE(row.format->label);
    EXPECT_EQ(row.format->label, kRows[i].label);
    EXPECT_EQ(FormatFixed(row.format->bits_per_weight, 2), kRows[i].bpw);
    EXPECT_EQ(Gb(row.weights_gib), kRows[i].weights);
    EXPECT_EQ(Gb(row.total_gib[0]), kRows[i].at_8k);
    EXPECT_EQ(Gb(row.total_gib[1]), kRows[i].at_32k);
    EXPECT_EQ(Gb(row.total_gib[2]), kRows[i].at_128k);
    ASSERT_TRUE(row.recommended);
    EXPECT_EQ(row.recommended->device->name, kRows[i].recommended);
    EXPECT_EQ(row.recommended->device_count, 1);
  }
}

TEST_F(ReferencePage, HardwareTable) {
  // Hardware-Klasse, Speicher & Bandbreite, Benötigt (32K), Bewertung, Gesch. Decode-Rate.
  const struct {
    const char* name;
    const char* memory_and_bandwidth;
    const char* needed;
    const char* rating;
    const char* decode;
  } kRows[] = {
      {"RTX 3090 24GB", "24 GB · 936 GB/s", "21.78 GB (91%)", "Knapp (>90 % nutzbar)", "27.3 tok/s"},
      {"RTX 4090 24GB", "24 GB · 1008 GB/s", "21.78 GB (91%)", "Knapp (>90 % nutzbar)", "29.4 tok/s"},
      {"RTX 5090 32GB", "32 GB · 1792 GB/s", "21.78 GB (68%)", "Passt komfortabel", "52.3 tok/s"},
      {"Apple M-Max 64GB", "64 GB · 546 GB/s", "21.17 GB (33%)", "Passt komfortabel", "15.0 tok/s"},
      {"Mac Studio 128GB", "128 GB · 546 GB/s", "21.17 GB (17%)", "Passt komfortabel", "15.0 tok/s"},
      {"Mac Studio 192GB", "192 GB · 800 GB/s", "21.17 GB (11%)", "Passt komfortabel", "22.0 tok/s"},
      {"NVIDIA A100 80GB", "80 GB · 2039 GB/s", "21.78 GB (27%)", "Passt komfortabel", "63.0 tok/s"},
      {"NVIDIA H100 80GB", "80 GB · 3350 GB/s", "21.78 GB (27%)", "Passt komfortabel", "103.5 tok/s"},
  };
  ASSERT_EQ(response_.hardware.size(), std::size(kRows));
  for (std::size_t i = 0; i < std::size(kRows); ++i) {
    const HardwareRow& row = response_.hardware[i];
    SCOPED_TRACE(row.device->name);
    EXPECT_EQ(row.device->name, kRows[i].name);
    EXPECT_EQ(FormatShare(row.device->memory_gib) + " GB · " + FormatShare(row.device->bandwidth_gbps) + " GB/s",
              kRows[i].memory_and_bandwidth);
    EXPECT_EQ(Gb(row.needed_gib) + " (" + FormatFixed(row.usage_pct, 0) + "%)", kRows[i].needed);
    EXPECT_EQ(FitLabel(row.fit), kRows[i].rating);
    EXPECT_EQ(FormatFixed(row.decode_tps, 1) + " tok/s", kRows[i].decode);
  }
}

TEST_F(ReferencePage, ArchitectureCard) {
  const ModelSpec& m = response_.model;
  EXPECT_EQ(m.checkpoint, "THUDM/GLM-4-32B-0414");
  EXPECT_EQ(m.ollama_tag, "glm4:32b");
  EXPECT_EQ(m.license + " · " + m.release, "MIT · 2025-Q2");
  EXPECT_EQ(ParamsLabel(m.params_total), "32B");
  EXPECT_EQ(ParamsLabel(m.params_active), "32B");
  EXPECT_EQ(std::to_string(m.num_hidden_layers) + " / " + std::to_string(m.hidden_size), "61 / 6144");
  EXPECT_EQ(std::to_string(m.num_attention_heads) + "Q / " + std::to_string(m.num_key_value_heads) +
                "KV (d=" + std::to_string(m.head_dim) + ")",
            "48Q / 2KV (d=128)");
  EXPECT_EQ(FormatGrouped(m.vocab_size) + " / " + FormatGrouped(m.max_position_embeddings),
            "151,552 / 32,768");
}

TEST_F(ReferencePage, CommandsServeTheScenario) {
  // The page's vLLM line (--max-model-len 32768) and Ollama's num_ctx 32768 follow the context.
  ASSERT_EQ(response_.commands.size(), 3u);
  EXPECT_NE(response_.commands[0].text.find("--max-model-len 32768"), std::string::npos);
  EXPECT_NE(response_.commands[1].text.find("PARAMETER num_ctx 32768"), std::string::npos);
  EXPECT_NE(response_.commands[1].text.find("FROM glm4:32b"), std::string::npos);
}

}  // namespace
}  // namespace vramcalc
