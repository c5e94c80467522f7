// Every computed number of the reference page, tests/golden/reference-page.txt (GLM-4-32B-0414,
// Q4_K_M, 32,768 tokens, batch 1, FP16 KV cache, German), formatted with the page's rounding
// and compared as the strings the page shows. The expected strings are read from the page's
// table, tests/golden/reference-page.json (reference_table.h).
#include <gtest/gtest.h>

#include <string>

#include "reference_table.h"
#include "vramcalc/catalog.h"
#include "vramcalc/display.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/i18n.h"

namespace vramcalc {
namespace {

using reference::At;
using reference::Items;
using reference::Text;

class ReferencePage : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(BuiltinCatalog().ok()) << BuiltinCatalog().error().message;
    Request request;
    request.model = Text({"scenario", "model_id"});  // every other field: the page's defaults
    auto result = Evaluate(request, BuiltinCatalog().value());
    ASSERT_TRUE(result.ok()) << result.error().message;
    response_ = std::move(result).value();
  }

  Response response_;
};

std::string Gb(double gib) { return FormatGb(gib); }
// A UI string of the German page: the fit as it names it ("fit.tight"), the topology …
std::string German(const std::string& key) { return std::string(BuiltinStrings(Lang::kDe).Text(key)); }
std::string FitLabel(Fit fit) { return German("fit." + std::string(kFits.Id(fit))); }
// A figure of the simulator ("total", "kv_cache" …) as the page shows it.
std::string Figure(std::string_view id) { return Text({"simulator", "figures", id, "value"}); }
std::string Share(std::string_view id) { return Text({"simulator", "shares", id, "value"}); }

TEST_F(ReferencePage, DefaultsAreTheScenario) {
  // A request naming only the model gets the page's scenario.
  const SimulatorResult& s = response_.simulator;
  EXPECT_EQ(response_.model.name, Text({"scenario", "model"}));
  EXPECT_EQ(s.format->id, Text({"scenario", "format_id"}));
  EXPECT_EQ(s.format->label, Text({"scenario", "format"}));
  EXPECT_EQ(s.context_tokens, reference::Integer({"scenario", "context_tokens"}));
  EXPECT_EQ(s.batch, reference::Integer({"scenario", "batch"}));
  EXPECT_EQ(s.kv_dtype->id, Text({"scenario", "kv_dtype_id"}));
  EXPECT_EQ(s.kv_dtype->label, Text({"scenario", "kv_cache"}));
  EXPECT_EQ(s.device->id, Text({"scenario", "device_id"}));
  EXPECT_EQ(s.device_count, 1);
}

TEST_F(ReferencePage, Simulator) {
  const SimulatorResult& s = response_.simulator;
  EXPECT_EQ(s.device->name, Text({"scenario", "device"}));                 // "vLLM CLI (RTX 3090 24GB)"
  EXPECT_EQ(FormatGrouped(s.context_tokens), Text({"scenario", "context"}));  // "32,768 Tokens"
  EXPECT_EQ(FitLabel(s.fit), Text({"simulator", "fit"}));
  EXPECT_EQ(kFits.Id(s.fit), Text({"simulator", "fit_id"}));
  EXPECT_EQ(FormatShare(s.share_weights_pct) + "%", Share("weights"));    // "Modellgewichte: 83%"
  EXPECT_EQ(FormatShare(s.share_kv_cache_pct) + "%", Share("kv"));        // "KV: 8.8%"
  EXPECT_EQ(FormatShare(s.share_overhead_pct) + "%", Share("overhead"));  // "Overhead: 8.2%"
  EXPECT_EQ(Gb(s.total_gib), Figure("total"));                            // "Gesamter Speicherbedarf 21.78 GB"
  EXPECT_EQ(Gb(s.per_device_gib), Figure("per_device"));                  // "Belegung pro Gerät: 21.78 GB"
  EXPECT_EQ(Gb(s.weights_gib), Figure("weights"));                        // "Modellgewichte 18.07 GB"
  EXPECT_EQ(Gb(s.kv_cache_gib), Figure("kv_cache"));                      // "KV-Cache (FP16): 1.91 GB"
  EXPECT_EQ(FormatFixed(s.decode_tps, 1) + " tok/s", Figure("decode"));   // "27.3 tok/s"
  EXPECT_EQ(Gb(s.overhead_gib), Figure("overhead"));                      // "Runtime- & TP-Overhead: 1.81 GB"
  EXPECT_EQ(FormatGrouped(s.max_context_tokens), Figure("max_context"));  // "Max. Kontext vor OOM 61,544"
  EXPECT_EQ(FormatFixed(s.kv_saving_pct, 1) + " %", Text({"simulator", "kv_saving", "saving"}));  // "spart 95.8 %"
  EXPECT_EQ(Gb(s.kv_naive_mha_gib), Text({"simulator", "kv_saving", "naive_mha"}));  // "naiver MHA FP16 (45.75 GB)"
}

TEST_F(ReferencePage, QuantizationMatrix) {
  // Präzision / Format, Effektive bpw, Nur Gewichte, Gesamt @ 8K / 32K / 128K, Empfohlene Klasse.
  const auto rows = Items({"matrix", "rows"});
  ASSERT_EQ(rows.size(), 8u);
  ASSERT_EQ(response_.matrix.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MatrixRow& row = response_.matrix[i];
    const json::Value expected = rows[i];
    SCOPED_TRACE(row.format->label);
    EXPECT_EQ(row.format->id, Text(expected, "id"));
    EXPECT_EQ(row.format->label, Text(expected, "label"));
    EXPECT_EQ(FormatFixed(row.format->bits_per_weight, 2) + " bpw", Text(expected, "bpw"));
    EXPECT_EQ(Gb(row.weights_gib), Text(expected, "weights"));
    EXPECT_EQ(Gb(row.total_gib[0]), Text(expected, "at_8k"));
    EXPECT_EQ(Gb(row.total_gib[1]), Text(expected, "at_32k"));
    EXPECT_EQ(Gb(row.total_gib[2]), Text(expected, "at_128k"));
    ASSERT_TRUE(row.recommended);
    EXPECT_EQ(row.recommended->device->name, Text(expected, "recommended"));
    EXPECT_EQ(row.recommended->device->id, Text(expected, "recommended_id"));
    EXPECT_EQ(row.recommended->device_count, 1);
  }
}

TEST_F(ReferencePage, HardwareTable) {
  // Hardware-Klasse, Speicher & Bandbreite, Benötigt (32K), Bewertung, Gesch. Decode-Rate.
  const auto rows = Items({"hardware", "rows"});
  ASSERT_EQ(rows.size(), 8u);
  ASSERT_EQ(response_.hardware.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const HardwareRow& row = response_.hardware[i];
    const json::Value expected = rows[i];
    SCOPED_TRACE(row.device->name);
    EXPECT_EQ(row.device->id, Text(expected, "id"));
    EXPECT_EQ(row.device->name, Text(expected, "name"));
    EXPECT_EQ(FormatShare(row.device->memory_gib) + " GB · " + FormatShare(row.device->bandwidth_gbps) + " GB/s",
              Text(expected, "memory_bandwidth"));
    EXPECT_EQ(Gb(row.needed_gib) + " (" + FormatFixed(row.usage_pct, 0) + "%)", Text(expected, "needed"));
    EXPECT_EQ(FitLabel(row.fit), Text(expected, "rating"));
    EXPECT_EQ(kFits.Id(row.fit), Text(expected, "fit_id"));
    EXPECT_EQ(FormatFixed(row.decode_tps, 1) + " tok/s", Text(expected, "decode"));
  }
}

TEST_F(ReferencePage, ArchitectureCard) {
  const ModelSpec& m = response_.model;
  const json::Value fields = At({"architecture", "fields"});
  const auto value = [&](std::string_view id) { return Text(At(At(fields, id), "value")); };
  EXPECT_EQ(m.checkpoint, value("checkpoint"));
  EXPECT_EQ(m.ollama_tag, value("ollama"));
  EXPECT_EQ(m.license + " · " + m.release, value("license"));
  EXPECT_EQ(German("topology." + std::string(kTopologies.Id(m.topology))), value("topology"));
  EXPECT_EQ(German("attention." + std::string(kAttentions.Id(m.attention))), value("attention"));
  EXPECT_EQ(ParamsLabel(m.params_total), value("params_total"));
  EXPECT_EQ(ParamsLabel(m.params_active), value("params_active"));
  EXPECT_EQ(std::to_string(m.num_hidden_layers) + " / " + std::to_string(m.hidden_size), value("layers"));
  EXPECT_EQ(std::to_string(m.num_attention_heads) + "Q / " + std::to_string(m.num_key_value_heads) +
                "KV (d=" + std::to_string(m.head_dim) + ")",
            value("heads"));
  EXPECT_EQ(FormatGrouped(m.vocab_size) + " / " + FormatGrouped(m.max_position_embeddings), value("vocab"));
}

TEST_F(ReferencePage, CommandsServeTheScenario) {
  // The fragments of the page's commands that the product's commands share with it: the vLLM
  // line --max-model-len 32768 and Ollama's num_ctx 32768 follow the context, and so on.
  ASSERT_EQ(response_.commands.size(), 3u);
  const char* kBlocks[] = {"vllm", "ollama_modelfile", "ollama_env"};
  for (std::size_t i = 0; i < std::size(kBlocks); ++i) {
    SCOPED_TRACE(kBlocks[i]);
    const std::string& text = response_.commands[i].text;
    std::size_t from = 0;
    for (const std::string& fragment : reference::Texts({"commands", kBlocks[i], "shared"})) {
      const std::size_t at = text.find(fragment, from);
      ASSERT_NE(at, std::string::npos) << "missing or out of order: " << fragment << "\n\n" << text;
      from = at + fragment.size();
    }
  }
}

}  // namespace
}  // namespace vramcalc
