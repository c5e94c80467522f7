// `vramcalc page` prints every section of the reference page, in its order.
#include "vramcalc/page_markdown.h"

#include <gtest/gtest.h>

#include <string>

#include "vramcalc/catalog.h"

namespace vramcalc {
namespace {

std::string Page(const std::string& model, Lang lang) {
  Request request;
  request.model = model;
  const auto response = Evaluate(request, BuiltinCatalog().value());
  EXPECT_TRUE(response.ok());
  return RenderPageMarkdown(response.value(), lang);
}

TEST(PageMarkdown, GermanReferenceSectionsInOrder) {
  const std::string page = Page("glm-4-32b-0414", Lang::kDe);
  // Lines of shared/reference/glm-4-32b-0414.txt, in the order they appear there.
  const char* kInOrder[] = {
      "# GLM-4-32B-0414 — VRAM-Anforderungen, Quantisierungsmatrix & GPU-Leitfaden",
      "nutzt eine Dichter Transformer-Architektur mit 32B residenten Parametern (32B aktiv pro Token), "
      "61 Schichten und Grouped-Query Attention (GQA) für bis zu 32,768 Kontext-Tokens.",
      "## Interaktiver Speicher- & Kontextsimulator für GLM-4-32B-0414",
      "32,768 Tokens",
      "Speicheraufschlüsselung & Bandbreitenlimit",
      "Knapp (>90 % nutzbar)",
      "Modellgewichte: 83% · KV: 8.8% · Overhead: 8.2%",
      "| Gesamter Speicherbedarf | 21.78 GB |",
      "| Belegung pro Gerät | 21.78 GB |",
      "| Modellgewichte | 18.07 GB |",
      "| KV-Cache (FP16) | 1.91 GB |",
      "| Gesch. Einzelstream-Decode | 27.3 tok/s |",
      "| Runtime- & TP-Overhead | 1.81 GB |",
      "| Max. Kontext vor OOM | 61,544 Tokens",
      "Architekturbedingte KV-Komprimierung spart 95.8 % gegenüber naiver MHA FP16 (45.75 GB).",
      "## Präzisions- & Quantisierungs-VRAM-Matrix (8K / 32K / 128K Kontext)",
      "(Batch = 1, FP16-KV-Cache)",
      "| FP16 / BF16 | 16.00 bpw | 59.60 GB | 63.13 GB | 64.56 GB | 70.28 GB | NVIDIA A100 80GB |",
      "| IQ4_XS | 4.25 bpw | 15.83 GB | 18.05 GB | 19.48 GB | 25.20 GB | RTX 3090 24GB |",
      "## Hardware-Kompatibilität & Decode-Geschwindigkeit (GLM-4-32B-0414 @ Q4_K_M, 32K Kontext)",
      "| RTX 3090 24GB | 24 GB · 936 GB/s | 21.78 GB (91%) | Knapp (>90 % nutzbar) | 27.3 tok/s |",
      "| NVIDIA H100 80GB | 80 GB · 3350 GB/s | 21.78 GB (27%) | Passt komfortabel | 103.5 tok/s |",
      "## Geprüfte Transformer-Architekturparameter",
      "| Checkpoint ID | THUDM/GLM-4-32B-0414 |",
      "| Ollama Tag | glm4:32b |",
      "| License / Release | MIT · 2025-Q2 |",
      "| Topologie & Attention | Dichter Transformer |",
      "| Aufmerksamkeitsmechanismus | Grouped-Query Attention (GQA) |",
      "| Gesamtparameter (Mrd.) | 32B |",
      "| Aktive Parameter / Token (Mrd.) | 32B |",
      "| Verborgene Schichten / Hidden-Dimension | 61 / 6144 |",
      "| Query-Heads / KV-Heads | 48Q / 2KV (d=128) |",
      "| Vocab / Max Position | 151,552 / 32,768 |",
      "## Schnellstart-Befehle für vLLM & Ollama (GLM-4-32B-0414)",
      "### vLLM CLI (RTX 3090 24GB)",
      "### Ollama Modelfile",
      "FROM glm4:32b",
      "## Verwandte & ähnlich große Open-Weight-Modelle vergleichen",
      // Nearest in total memory: Qwen3-30B-A3B (config: 48 layers, 4 KV heads of 128, hidden
      // 2,048; 30,532,122,624 parameters) at Q4_K_M and 32K: 17.24 GiB weights + 48 × 4 × 128 ×
      // 2 × 2 B × 32,768 = 3.00 GiB KV + 0.85 + 0.03 × 17.24 + 0.04 + 0.125 = 21.77 GB.
      "| Qwen3-30B-A3B | 30.5B | 21.77 GB | Knapp (>90 % nutzbar) |",
  };
  std::size_t from = 0;
  for (const char* line : kInOrder) {
    const std::size_t at = page.find(line, from);
    ASSERT_NE(at, std::string::npos) << "missing or out of order: " << line << "\n\n" << page;
    from = at + 1;
  }
}

TEST(PageMarkdown, EnglishHasNoUntranslatedKeysOrPlaceholders) {
  for (const char* model : {"glm-4-32b-0414", "glm-4-9b-0414"}) {
    for (const Lang lang : {Lang::kDe, Lang::kEn}) {
      const std::string page = Page(model, lang);
      SCOPED_TRACE(std::string(model) + " " + std::string(kLangs.Id(lang)));
      for (const char* leak : {"{model}", "{context}", "sim.", "out.", "arch.", "hw.", "matrix.",
                               "cmd.", "related.", "NaN", " nan", "Infinity", " inf "}) {
        EXPECT_EQ(page.find(leak), std::string::npos) << leak;
      }
    }
  }
  const std::string en = Page("glm-4-32b-0414", Lang::kEn);
  EXPECT_NE(en.find("# GLM-4-32B-0414 — VRAM requirements, quantization matrix & GPU guide"), std::string::npos);
  EXPECT_NE(en.find("| Total memory required | 21.78 GB |"), std::string::npos);
  EXPECT_NE(en.find("Tight (>90 % in use)"), std::string::npos);
}

}  // namespace
}  // namespace vramcalc
