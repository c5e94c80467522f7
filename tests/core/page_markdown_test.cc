// `vramcalc page` prints every section of the reference page (tests/golden/reference-page.txt,
// read from its table tests/golden/reference-page.json), in its order.
#include "vramcalc/page_markdown.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "reference_table.h"
#include "vramcalc/catalog.h"
#include "vramcalc/display.h"

namespace vramcalc {
namespace {

std::string Page(const std::string& model, Lang lang) {
  Request request;
  request.model = model;
  const auto response = Evaluate(request, BuiltinCatalog().value());
  EXPECT_TRUE(response.ok());
  return RenderPageMarkdown(response.value(), lang);
}

// A Markdown table row: "| a | b |".
std::string Row(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const std::string& cell : cells) row += " " + cell + " |";
  return row;
}

// The reference page's lines (tests/golden/reference-page.json, the table of
// tests/golden/reference-page.txt) as the Markdown page writes them, in the page's order.
std::vector<std::string> GermanReferenceLines() {
  using reference::At;
  using reference::Items;
  using reference::Text;
  std::vector<std::string> lines = {
      "# " + Text({"title"}),
      Text({"summary"}),
      "## " + Text({"simulator", "heading"}),
      Text({"simulator", "context_label"}),
      Text({"simulator", "breakdown_heading"}),
      Text({"simulator", "fit"}),
  };
  std::string shares;  // "Modellgewichte: 83% · KV: 8.8% · Overhead: 8.2%"
  for (const json::Value share : Items({"simulator", "shares"})) {
    shares += (shares.empty() ? "" : " · ") + Text(share, "label") + ": " + Text(share, "value");
  }
  lines.push_back(shares);
  for (const json::Value figure : Items({"simulator", "figures"})) {
    if (figure.Key() == "max_context") {  // "| Max. Kontext vor OOM | 61,544 Tokens (Modell-Maximum: 32,768) |"
      lines.push_back("| " + Text(figure, "label") + " | " + Text(figure, "value") + " " + Text(figure, "unit"));
    } else {
      lines.push_back(Row({Text(figure, "label"), Text(figure, "value")}));
    }
  }
  lines.push_back(Text({"simulator", "kv_saving", "text"}));
  for (const char* section : {"matrix", "hardware"}) {
    lines.push_back("## " + Text({section, "heading"}));
    lines.push_back(Text({section, "caption"}));
    lines.push_back(Row(reference::Texts({section, "header"})));
    for (const json::Value row : Items({section, "rows"})) {
      std::vector<std::string> cells;
      for (const json::Value cell : row.Children()) {
        if (cell.Key() != "id" && !cell.Key().ends_with("_id")) cells.push_back(Text(cell));
      }
      lines.push_back(Row(cells));
    }
  }
  lines.push_back("## " + Text({"architecture", "heading"}));
  for (const json::Value field : Items({"architecture", "fields"})) {
    lines.push_back(Row({Text(field, "label"), Text(field, "value")}));
  }
  lines.push_back("## " + Text({"commands", "heading"}));
  for (const char* block : {"vllm", "ollama_modelfile", "ollama_env"}) {
    const json::Value heading = At({"commands", block}).Find("heading");  // the env block has none
    if (heading) lines.push_back("### " + Text(heading));
    for (const std::string& fragment : reference::Texts({"commands", block, "shared"})) lines.push_back(fragment);
  }
  lines.push_back("## " + Text({"related", "heading"}));
  return lines;
}

TEST(PageMarkdown, GermanReferenceSectionsInOrder) {
  const std::string page = Page(reference::Text({"scenario", "model_id"}), Lang::kDe);
  std::vector<std::string> in_order = GermanReferenceLines();
  // The reference page lists no related models under its heading. Nearest in total memory:
  // Qwen3-30B-A3B (config: 48 layers, 4 KV heads of 128, hidden 2,048; 30,532,122,624
  // parameters) at Q4_K_M and 32K: 17.24 GiB weights + 48 × 4 × 128 × 2 × 2 B × 32,768 =
  // 3.00 GiB KV + 0.85 + 0.03 × 17.24 + 0.04 + 0.125 = 21.77 GB.
  in_order.push_back("| Qwen3-30B-A3B | 30.5B | 21.77 GB | Knapp (>90 % nutzbar) |");
  ASSERT_EQ(in_order.size(), 61u);  // 60 lines of the table's, and Qwen3's
  std::size_t from = 0;
  for (const std::string& line : in_order) {
    const std::size_t at = page.find(line, from);
    ASSERT_NE(at, std::string::npos) << "missing or out of order: " << line << "\n\n" << page;
    from = at + 1;
  }
}

// The card's layer pattern, for models whose layers are not all one group (none for the
// reference page's GLM-4-32B): Nemotron-3-Nano's 52 layers, and 23 Mamba2 layers × 542,720
// state elements × 4 B / 2^20 = 47.62 MiB per sequence.
TEST(PageMarkdown, TheCardSaysHowTheLayersDivide) {
  EXPECT_NE(Page("nemotron-3-nano-30b-a3b", Lang::kEn)
                .find(Row({"Layer pattern", "52 layers: 6 full attention + 23 linear attention / SSM + 23 without "
                                            "attention; 47.62 MiB recurrent state per sequence at 32 bits"})),
            std::string::npos);
  EXPECT_NE(Page("gemma-3-27b", Lang::kDe).find(Row({"Schichtmuster", "62 Schichten: 10 volle Attention + 52 Sliding Window (1,024 Tokens)"})),
            std::string::npos);
  EXPECT_EQ(Page("glm-4-32b-0414", Lang::kEn).find("Layer pattern"), std::string::npos);
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
  // English is not on the reference page: its words are the product's, its numbers the page's.
  const std::string en = Page(reference::Text({"scenario", "model_id"}), Lang::kEn);
  const std::string model = reference::Text({"scenario", "model"});
  EXPECT_NE(en.find("# " + model + " — VRAM requirements, quantization matrix & GPU guide"), std::string::npos);
  EXPECT_NE(en.find("| Total memory required | " + reference::Text({"simulator", "figures", "total", "value"}) + " |"),
            std::string::npos);
  EXPECT_NE(en.find("Tight (>90 % in use)"), std::string::npos);
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

Request RequestOf(std::string_view model, std::string_view runtime, std::string_view device) {
  Request request;
  request.model = std::string(model);
  request.runtime = std::string(runtime);
  request.device = std::string(device);
  return request;
}

Result<Response> Answer(std::string_view model, std::string_view runtime, std::string_view device) {
  return Evaluate(RequestOf(model, runtime, device), BuiltinCatalog().value());
}

std::string EnginePage(std::string_view runtime, std::string_view device) {
  const auto response = Answer("qwen2.5-7b", runtime, device);
  EXPECT_TRUE(response.ok());
  return response.ok() ? RenderPageMarkdown(response.value(), Lang::kEn) : "";
}

// The engine profiles' rows, and none under the reference profile.
TEST(PageMarkdown, EngineProfilesAddUsableMemoryPoolAndHostRows) {
  // vLLM: 0.92 × 80 GiB = 73.60 GB usable on an A100 80GB, and a KV pool.
  const std::string vllm = EnginePage("vllm", "a100-80gb");
  EXPECT_NE(vllm.find("| Usable per device | 73.60 GB (gpu_memory_utilization 0.92 × 80.00 GB) |"), std::string::npos);
  EXPECT_NE(vllm.find("| KV cache pool | "), std::string::npos);
  // llama.cpp: 24 − 1 GiB, and Q4_K_M's token embedding in RAM: 152,064 × 3,584 × 4.5 bits = 0.29 GB.
  const std::string llamacpp = EnginePage("llamacpp", "rtx-4090-24gb");
  EXPECT_NE(llamacpp.find("| Usable per device | 23.00 GB (24.00 GB less the 1 GB --fit keeps free) |"),
            std::string::npos);
  EXPECT_NE(llamacpp.find("| Weights in RAM | 0.29 GB (the token embedding stays in RAM) |"), std::string::npos);
  EXPECT_EQ(llamacpp.find("| KV cache pool |"), std::string::npos);
  EXPECT_EQ(EnginePage("reference", "rtx-4090-24gb").find("Usable per device"), std::string::npos);
}

// The commands' heading names the engine whose commands they are; the reference page's names vLLM
// and Ollama, as the reference page does.
TEST(PageMarkdown, TheCommandsHeadingNamesTheEngine) {
  EXPECT_NE(EnginePage("llamacpp", "rtx-4090-24gb").find("## Quick-start commands for llama.cpp (Qwen2.5-7B-Instruct)\n"),
            std::string::npos);
  EXPECT_NE(EnginePage("vllm", "a100-80gb").find("## Quick-start commands for vLLM (Qwen2.5-7B-Instruct)\n"),
            std::string::npos);
  EXPECT_NE(EnginePage("reference", "rtx-4090-24gb").find("## Quick-start commands for vLLM & Ollama (Qwen2.5-7B-Instruct)\n"),
            std::string::npos);
}

// A model that does not fit, in the hardware table and among related models: the plan that runs it
// with a part in RAM, at the verdict's rate (Qwen3-30B-A3B-Instruct-2507 Q4_K_M, 32K, on a 12 GB
// RTX 5070 with 32 GB of DDR5: the page shows 34.4 tok/s in its verdict; tests/web/engines.test.mjs
// checks the page's tables at 4,096 tokens).
TEST(PageMarkdown, WhatRunsWithOffloadSaysSoInTheTables) {
  const auto response = Answer("qwen3-30b-a3b-instruct-2507", "llamacpp", "rtx-5070-12gb");
  ASSERT_TRUE(response.ok());
  const std::string page = RenderPageMarkdown(response.value(), Lang::kEn);
  EXPECT_NE(page.find("| RTX 5070 12GB | 12 GB · 672 GB/s | 20.91 GB (190%) | Runs with offload | 34.4 tok/s |"),
            std::string::npos) << page;
  EXPECT_NE(page.find("| Qwen3-30B-A3B | 30.5B | 20.91 GB | Runs with offload, 34.4 tok/s |"), std::string::npos);
  EXPECT_NE(RenderPageMarkdown(response.value(), Lang::kDe).find("| Läuft mit Auslagerung | 34.4 tok/s |"), std::string::npos);
  // With the layers split over two cards, a plan's device side is each card's.
  Request two = RequestOf("llama-3.3-70b", "llamacpp", "rtx-3090-24gb");
  two.device_count = 2;
  const auto split = Evaluate(two, BuiltinCatalog().value());
  ASSERT_TRUE(split.ok() && split.value().offload && split.value().offload->Chosen());
  const std::string gpu = FormatGb(split.value().offload->Chosen()->device_gib);
  EXPECT_NE(RenderPageMarkdown(split.value(), Lang::kEn).find(gpu + " on each of the 2 GPUs"), std::string::npos);
}

// A Mac whose model fits only past its default Metal working set: the verdict is a stock Mac's,
// and the line under it gives the wired limit to set (tests/core/engine_profiles_test.cc, by hand:
// Llama 3.3 70B Q8_0 at 32K, 80.25 + 1 GiB against 81 % of 96 GB) and the rate once it is set.
TEST(PageMarkdown, AMacSaysWhichWiredLimitMakesTheModelFit) {
  Request request = RequestOf("llama-3.3-70b", "llamacpp", "apple-m2-max-96gb");
  request.format = "Q8_0";
  const auto response = Evaluate(request, BuiltinCatalog().value());
  ASSERT_TRUE(response.ok());
  const std::string rate = FormatFixed(response.value().simulator.decode_tps, 1);
  const std::string page = RenderPageMarkdown(response.value(), Lang::kEn);
  EXPECT_NE(page.find("**Does not fit**"), std::string::npos);
  EXPECT_NE(page.find("macOS lets the GPU wire 77.76 GB by default; this needs 81.25 GB: raise it with "
                      "`sudo sysctl iogpu.wired_limit_mb=83968` (until a restart; mlx-lm's README), then it runs at about " +
                      rate + " tok/s."),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("\nsudo sysctl iogpu.wired_limit_mb=83968\n"), std::string::npos);
  EXPECT_NE(page.find("| Apple M2 Max 96GB | 96 GB · 400 GB/s | 80.25 GB (105%) | Fits with sudo sysctl iogpu.wired_limit_mb=83968 | " + rate +
                      " tok/s |"),
            std::string::npos);
  EXPECT_NE(RenderPageMarkdown(response.value(), Lang::kDe)
                .find("macOS lässt die GPU standardmäßig 77.76 GB belegen; dies braucht 81.25 GB: mit "
                      "`sudo sysctl iogpu.wired_limit_mb=83968` anheben"),
            std::string::npos);
}

// A multimodal checkpoint's towers on lines of their own (core/ESTIMATION.md section 5.2): Gemma 3
// 12B's 421,290,864 tower parameters (its checkpoint's 12,187,325,040 less the language model's
// 11,766,034,176) in BF16 under vLLM: 842,581,728 B = 0.78 GB; none under the reference profile.
TEST(PageMarkdown, TheTowersHaveALineAndACardRowOfTheirOwn) {
  const auto response = Answer("gemma-3-12b", "vllm", "h100-80gb");
  ASSERT_TRUE(response.ok());
  const std::string page = RenderPageMarkdown(response.value(), Lang::kEn);
  EXPECT_NE(page.find("| Vision & audio encoders | 0.78 GB |"), std::string::npos) << page;
  EXPECT_NE(page.find(" · Vision: "), std::string::npos);
  EXPECT_NE(page.find("| Vision & audio encoders (B) | 0.4B |"), std::string::npos);
  EXPECT_NE(page.find("# The vision and audio towers load too, 0.78 GB (--language-model-only leaves them out"),
            std::string::npos);
  // llama.cpp loads them as the mmproj file, named in its command.
  const auto llamacpp = Answer("gemma-3-12b", "llamacpp", "rtx-4090-24gb");
  ASSERT_TRUE(llamacpp.ok());
  EXPECT_NE(RenderPageMarkdown(llamacpp.value(), Lang::kEn).find("  --mmproj ./mmproj-Gemma-3-12B-F16.gguf \\\n"),
            std::string::npos);
  // Ollama keeps 1 GiB more free beside the projector: 24 − 1 − 1 GiB usable, and says why.
  const auto ollama = Answer("gemma-3-12b", "ollama", "rtx-4090-24gb");
  ASSERT_TRUE(ollama.ok());
  EXPECT_NE(RenderPageMarkdown(ollama.value(), Lang::kEn)
                .find("| Usable per device | 22.00 GB (24.00 GB less the 1 GB llama.cpp's --fit keeps free and the 1 GB "
                      "Ollama keeps beside the projector) |"),
            std::string::npos);
  EXPECT_EQ(Page("glm-4-32b-0414", Lang::kEn).find("Vision"), std::string::npos);
  EXPECT_EQ(Page("glm-4-32b-0414", Lang::kEn).find("--mmproj"), std::string::npos);
}

// Gemma 4 26B-A4B's down projections of widths 2,112 and 704, which GGUF's 256-weight blocks do
// not divide: 30 × 2,816 × (2,112 + 128 × 704) = 7,791,083,520 parameters, a row of the card.
// Nemotron-3-Nano's hidden size 2,688 adds every matrix reading it: down projections 229,490,688
// + 14,687,404,032, readers 940,843,008 + 14,687,404,032 = 30,545,141,760 of its 31.6B.
TEST(PageMarkdown, TheCardNamesTheParametersKQuantsStoreLarger) {
  EXPECT_NE(Page("gemma-4-26b-a4b", Lang::kEn).find("| Stored larger in GGUF K-quants (B) | 7.8B |"), std::string::npos);
  EXPECT_NE(Page("nemotron-3-nano-30b-a3b", Lang::kEn).find("| Stored larger in GGUF K-quants (B) | 30.5B |"),
            std::string::npos);
  EXPECT_NE(Page("gemma-4-26b-a4b", Lang::kDe).find("| In GGUF-K-Quants größer gespeichert (Mrd.) |"), std::string::npos);
  EXPECT_EQ(Page("glm-4-32b-0414", Lang::kEn).find("K-quants store"), std::string::npos);
}

// Section 7 on the page: a model that does not fit runs with offload; the plan, its flags (under
// Ollama the split in words) and the host, with the plan's speed in the decode row.
// A request for `model` on `device` at `context` tokens, the rest the defaults.
Request On(std::string model, std::string device, int64_t context) {
  Request request;
  request.model = std::move(model);
  request.device = std::move(device);
  request.context_tokens = context;
  return request;
}

TEST(PageMarkdown, AModelThatDoesNotFitShowsWhatRunsWithOffload) {
  Request request = On("qwen3-30b-a3b-instruct-2507", "rtx-5070-12gb", 4096);
  request.runtime = "llamacpp";
  request.host_memory_gib = 64;
  request.host_memory_type = "ddr5-6400-2ch";
  const auto response = Evaluate(request, BuiltinCatalog().value());
  ASSERT_TRUE(response.ok());
  const Offload& offload = *response.value().offload;
  const OffloadPlan& plan = offload.plans[*offload.chosen];
  const std::string page = RenderPageMarkdown(response.value(), Lang::kEn);
  EXPECT_NE(page.find("**Runs with offload**: "), std::string::npos);
  EXPECT_NE(page.find("llama.cpp flags: `-ngl 999 --n-cpu-moe " + std::to_string(plan.ram_expert_layers) + "`"),
            std::string::npos);
  // 6,400 MT/s × 8 B × 2 channels = 102.4 GB/s; 64 GB less the 4 the system keeps.
  EXPECT_NE(page.find("System RAM: 64.00 GB, 60.00 GB usable · DDR5-6400, 2 channels (desktop), 102.4 GB/s"),
            std::string::npos);
  EXPECT_NE(page.find(Row({"Est. single-stream decode", FormatFixed(plan.decode_tps, 1) + " tok/s"})),
            std::string::npos);
  // The rows beside it say the same as the plan: the weights in RAM are the plan's (not the token
  // embedding's alone), the longest context is the GPU's alone (17.3 GiB of weights on an 11 GiB
  // share: none) and with offload the model's own maximum (its 262,144 tokens' KV cache, 48 layers
  // × 4 KV heads × 256 × 2 B × 262,144 = 24 GiB, and the 17.3 GiB of weights hold in the 11 GiB
  // card and 60 GiB of RAM), and the error is the offload rule's on its held-out runs (README:
  // 9.6 % on 21).
  EXPECT_GT(plan.host_gib, response.value().simulator.host_gib + 1);
  EXPECT_NE(page.find(Row({"Weights in RAM", FormatGb(plan.host_gib) + " (the plan above)"})), std::string::npos);
  EXPECT_NE(page.find(Row({"Max. context before OOM",
                           "0 tokens on the GPU alone (Model maximum: 262,144 · With offload: up to 262,144 tokens)"})),
            std::string::npos);
  EXPECT_NE(page.find(Row({"Decode estimate's error", "± 9.6 % (median error with offload on 21 runs the fit never saw)"})),
            std::string::npos);
  request.runtime = "ollama";
  request.host_memory_gib = 8;  // 4 GB usable: too small for any split
  const auto small = Evaluate(request, BuiltinCatalog().value());
  ASSERT_TRUE(small.ok());
  EXPECT_NE(RenderPageMarkdown(small.value(), Lang::kDe)
                .find("Auch mit Auslagerung läuft es nicht: auch der Arbeitsspeicher ist zu klein"),
            std::string::npos);
}

// Issue 31, item 7: the page's line of ways under the verdict, as the web page writes it (its
// test, tests/web/offload.test.mjs): Qwen3-32B Q4_K_M at 32K on an RTX 4060 Ti 16GB under the
// reference profile runs with llama.cpp's offload, or on a larger card; in German too.
TEST(PageMarkdown, AModelThatDoesNotFitSaysTheNearestWaysToMakeItRun) {
  Request request = On("qwen3-32b", "rtx-4060-ti-16gb", 32768);
  request.format = "Q4_K_M";
  const auto response = Evaluate(request, BuiltinCatalog().value());
  ASSERT_TRUE(response.ok() && response.value().ways);
  const Ways& ways = *response.value().ways;
  ASSERT_TRUE(ways.offload_runtime && ways.device);
  EXPECT_NE(RenderPageMarkdown(response.value(), Lang::kEn)
                .find("**Does not fit**\n\nTo make it run: llama.cpp with offload in Q4_K_M: " +
                      FormatFixed(ways.offload_decode_tps, 1) + " tok/s · " + ways.device->name + " holds it\n\n"),
            std::string::npos);
  EXPECT_NE(RenderPageMarkdown(response.value(), Lang::kDe)
                .find("So läuft es: llama.cpp mit Auslagerung in Q4_K_M: " + FormatFixed(ways.offload_decode_tps, 1) +
                      " tok/s · " + ways.device->name + " fasst es"),
            std::string::npos);
  request.model = "qwen3-8b";  // it fits: no line
  EXPECT_EQ(RenderPageMarkdown(Evaluate(request, BuiltinCatalog().value()).value(), Lang::kEn).find("To make it run"),
            std::string::npos);
}

}  // namespace
}  // namespace vramcalc
