// Partial responses ("sections", what the page asks for while the slider moves) and the
// catalog sweep, checked against the reference page (tests/golden/reference-page.txt, its
// figures read from tests/golden/reference-page.json).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "io/json_value.h"
#include "reference_table.h"
#include "vramcalc/display.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/json_codec.h"

namespace vramcalc {
namespace {

const Catalog& Builtin() { return BuiltinCatalog().value(); }

Request Reference(int64_t context_tokens = 32768) {
  Request request;
  request.model = "glm-4-32b-0414";
  request.context_tokens = context_tokens;
  return request;
}

TEST(Sections, ParsedFromTheRequest) {
  const Result<Request> parsed =
      ParseRequest(R"({"model":"glm-4-32b-0414","sections":["commands","simulator"]})");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed.value().sections, kSectionSimulator | kSectionCommands);
  EXPECT_EQ(ParseRequest(R"({"model":"glm-4-32b-0414"})").value().sections, kAllSections);
}

TEST(Sections, BadListsNameTheField) {
  for (const char* request : {R"({"model":"glm-4-32b-0414","sections":"simulator"})",
                              R"({"model":"glm-4-32b-0414","sections":["simulator","simulator"]})",
                              R"({"model":"glm-4-32b-0414","sections":["plot"]})",
                              R"({"model":"glm-4-32b-0414","sections":[1]})",
                              R"({"model":"glm-4-32b-0414","sections":[["model"]]})"}) {
    SCOPED_TRACE(request);
    const Result<Request> parsed = ParseRequest(request);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().field, "sections");
  }
}

// The page keeps the model card, the curve and the matrix while only the context changes;
// that is right only if none of them depends on the context.
TEST(Sections, ModelCurveAndMatrixDoNotDependOnTheContext) {
  for (const char* model : {"glm-4-32b-0414", "gemma-3-27b", "deepseek-v3", "gpt-oss-120b"}) {
    SCOPED_TRACE(model);
    Request at_8k = Reference(8192);
    at_8k.model = model;
    Request at_1m = at_8k;
    at_1m.context_tokens = 1 << 20;
    const Response a = Evaluate(at_8k, Builtin()).value();
    const Response b = Evaluate(at_1m, Builtin()).value();
    ASSERT_EQ(a.curve.size(), b.curve.size());
    for (std::size_t i = 0; i < a.curve.size(); ++i) {
      EXPECT_EQ(a.curve[i].context_tokens, b.curve[i].context_tokens);
      EXPECT_EQ(a.curve[i].total_gib, b.curve[i].total_gib);
    }
    ASSERT_EQ(a.matrix.size(), b.matrix.size());
    for (std::size_t i = 0; i < a.matrix.size(); ++i) {
      EXPECT_EQ(a.matrix[i].total_gib, b.matrix[i].total_gib);
      ASSERT_EQ(a.matrix[i].recommended.has_value(), b.matrix[i].recommended.has_value());
      if (a.matrix[i].recommended) {
        EXPECT_EQ(a.matrix[i].recommended->device, b.matrix[i].recommended->device);
        EXPECT_EQ(a.matrix[i].recommended->device_count, b.matrix[i].recommended->device_count);
      }
    }
    EXPECT_EQ(a.model.id, b.model.id);
    EXPECT_NE(a.simulator.total_gib, b.simulator.total_gib);  // the context did change
  }
}

TEST(Sections, TheSliderSectionsHoldTheReferenceNumbers) {
  Request request = Reference();
  request.sections = kContextSections;
  const Response response = Evaluate(request, Builtin()).value();
  EXPECT_TRUE(response.curve.empty());
  EXPECT_TRUE(response.matrix.empty());
  EXPECT_TRUE(response.model.id.empty());
  // The reference page: 21.78 GB, 27.3 tok/s, 61,544 tokens, 8 hardware rows; and 5 related.
  EXPECT_EQ(FormatGb(response.simulator.total_gib), reference::Text({"simulator", "figures", "total", "value"}));
  EXPECT_EQ(FormatFixed(response.simulator.decode_tps, 1) + " tok/s",
            reference::Text({"simulator", "figures", "decode", "value"}));
  EXPECT_EQ(FormatGrouped(response.simulator.max_context_tokens),
            reference::Text({"simulator", "figures", "max_context", "value"}));
  EXPECT_EQ(response.hardware.size(), reference::Items({"hardware", "rows"}).size());
  EXPECT_EQ(response.related.size(), 5u);
  ASSERT_FALSE(response.commands.empty());
  EXPECT_NE(response.commands[0].text.find("--max-model-len " +
                                           std::to_string(reference::Integer({"scenario", "context_tokens"}))),
            std::string::npos);

  const std::string json = SerializeResponse(response);
  EXPECT_EQ(json.rfind(R"({"ok":true,"schema":3,"simulator":{"device":"rtx-3090-24gb")", 0), 0u)
      << json.substr(0, 120);
  for (const char* absent : {R"("model":)", R"("curve":)", R"("matrix":)"}) {
    EXPECT_EQ(json.find(absent), std::string::npos) << absent;
  }
  EXPECT_EQ(EvaluateJson(R"({"model":"glm-4-32b-0414","sections":[]})"),
            R"({"ok":true,"schema":3})");
}

TEST(Sweep, CoversTheCatalogDeviceFastest) {
  const SweepResult sweep = Sweep(SweepRequest{}, Builtin()).value();
  EXPECT_EQ(sweep.models.size(), Builtin().models.size());
  EXPECT_EQ(sweep.formats.size(), 8u);  // FP16 … IQ4_XS
  EXPECT_EQ(sweep.devices.size(), Builtin().devices.size());
  EXPECT_EQ(sweep.cells.size(), sweep.models.size() * sweep.formats.size() * sweep.devices.size());
  EXPECT_EQ(sweep.formats.front()->id, "FP16");
  EXPECT_EQ(sweep.formats.back()->id, "IQ4_XS");
}

// The reference page's hardware table (GLM-4-32B-0414, Q4_K_M, 32K, one device each), read
// from the sweep: needed memory, fit and decode rate as displayed.
TEST(Sweep, ReproducesTheReferenceHardwareTable) {
  const SweepResult sweep = Sweep(SweepRequest{}, Builtin()).value();
  const std::string model_id = reference::Text({"scenario", "model_id"});
  const std::string format_id = reference::Text({"scenario", "format_id"});
  const auto model = std::find_if(sweep.models.begin(), sweep.models.end(),
                                  [&](const ModelSpec* m) { return m->id == model_id; });
  const auto format = std::find_if(sweep.formats.begin(), sweep.formats.end(),
                                   [&](const QuantFormat* f) { return f->id == format_id; });
  ASSERT_NE(model, sweep.models.end());
  ASSERT_NE(format, sweep.formats.end());
  const auto rows = reference::Items({"hardware", "rows"});
  ASSERT_EQ(rows.size(), 8u);
  for (const json::Value row : rows) {
    const std::string id = reference::Text(row, "id");
    SCOPED_TRACE(id);
    const auto device = std::find_if(sweep.devices.begin(), sweep.devices.end(),
                                     [&](const Device* d) { return d->id == id; });
    ASSERT_NE(device, sweep.devices.end());
    const std::size_t index =
        (static_cast<std::size_t>(model - sweep.models.begin()) * sweep.formats.size() +
         static_cast<std::size_t>(format - sweep.formats.begin())) * sweep.devices.size() +
        static_cast<std::size_t>(device - sweep.devices.begin());
    const SweepCell& cell = sweep.cells[index];
    // "21.78 GB (91%)": the memory before the usage.
    const std::string needed = reference::Text(row, "needed");
    EXPECT_EQ(FormatGb(cell.total_gib), needed.substr(0, needed.find(" (")));
    EXPECT_EQ(kFits.Id(cell.fit), reference::Text(row, "fit_id"));
    EXPECT_EQ(FormatFixed(cell.decode_tps, 1) + " tok/s", reference::Text(row, "decode"));
    if (id == reference::Text({"scenario", "device_id"})) {
      // The page's 61,544 tokens of memory, beyond GLM-4-32B-0414's own 32,768: the sweep stops
      // at the model's maximum and says memory would allow more (issue 16).
      std::string shown = reference::Text({"simulator", "figures", "max_context", "value"});
      std::erase(shown, ',');
      const int64_t by_memory = std::stoll(shown);
      EXPECT_EQ(by_memory, 61544);
      EXPECT_EQ(cell.max_context_tokens, std::min(by_memory, (*model)->max_position_embeddings));
      EXPECT_EQ(cell.max_context_capped, by_memory > (*model)->max_position_embeddings);
    }
  }
}

TEST(Sweep, RequestErrorsNameTheField) {
  const struct {
    const char* request;
    const char* field;
  } kCases[] = {
      {R"({"context":-5})", "context"},       {R"({"context":1.5})", "context"},
      {R"({"batch":"4"})", "batch"},          {R"({"kv_dtype":"int3"})", "kv_dtype"},
      {R"({"model":"glm-4-32b-0414"})", "model"},  // a sweep covers every model
      {R"({"device":"rtx-9999"})", "device"},  {R"({"device":"rtx-4090-24gb","compare":["h100"]})", "compare"},
      {R"({"device":"m4-max-128gb","runtime":"vllm"})", "device"},  // vLLM does not run on Apple chips
      // vLLM and SGLang need CUDA compute capability 7.5 ("compute capability 7.5 or higher (e.g., T4,
      // RTX20xx, A100, ...)", vLLM's GPU install docs; "sm75 and above", SGLang's quickstart): not a
      // Tesla P40 (6.1) or a V100 (7.0).
      {R"({"device":"tesla-p40-24gb","runtime":"vllm"})", "device"},
      {R"({"device":"tesla-v100-sxm2-32gb","runtime":"sglang"})", "device"},
      {R"({"device_count":2,"runtime":"mlx"})", "device_count"},  // mlx-lm runs on one device
      {R"({"runtime":"llamacpp","host_memory_type":"ddr3-1600-2ch"})", "host_memory_type"},
      {R"({"runtime":"llamacpp","host_memory":-8})", "host_memory"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.request);
    const std::string response = SweepJson(c.request);
    EXPECT_EQ(response.rfind(R"({"ok":false,"schema":3,"error":)", 0), 0u) << response;
    EXPECT_NE(response.find(std::string(R"("field":")") + c.field + "\""), std::string::npos) << response;
  }
  EXPECT_NE(SweepJson("[]").find(R"("code":"invalid_type")"), std::string::npos);
}

// Issue 16: at 8,192 tokens on an RTX 4090 the sweep said Yi-1.5-34B and OLMo-2 fit, though
// both stop at 4,096 tokens (max_position_embeddings in their config.json), and gave Qwen3-0.6B
// a largest context of 197,043 tokens, though it stops at 40,960.
TEST(Sweep, StopsAtEachModelsOwnMaximumContext) {
  SweepRequest request;
  request.context_tokens = 8192;
  request.devices = {"rtx-4090-24gb"};
  const SweepResult one = Sweep(request, Builtin()).value();
  ASSERT_EQ(one.devices.size(), 1u);
  const auto cell_of = [&](std::string_view id, std::string_view format) {
    const std::size_t m = static_cast<std::size_t>(
        std::find_if(one.models.begin(), one.models.end(), [&](const ModelSpec* x) { return x->id == id; }) - one.models.begin());
    const std::size_t f = static_cast<std::size_t>(
        std::find_if(one.formats.begin(), one.formats.end(), [&](const QuantFormat* x) { return x->id == format; }) -
        one.formats.begin());
    return std::pair{one.models.at(m), one.cells.at(m * one.formats.size() + f)};
  };
  const auto [qwen, small] = cell_of("qwen3-0.6b", "FP16");
  EXPECT_EQ(small.max_context_tokens, 40960);
  EXPECT_TRUE(small.max_context_capped);  // memory alone would allow 197,043 tokens
  for (const char* id : {"yi-1.5-34b", "olmo-2-7b", "olmo-2-13b"}) {
    EXPECT_TRUE(cell_of(id, "Q4_K_M").first->BeyondMaxPosition(request.context_tokens)) << id;
  }
  EXPECT_FALSE(qwen->BeyondMaxPosition(request.context_tokens));
  // The same under an engine profile, whose simulator already stops at the model's maximum:
  // at BF16 (llama.cpp's 16-bit format) Qwen3-0.6B's 1.2 GB of weights leave the RTX 4090 over
  // 15 GiB, and a token costs 28 layers × 8 KV heads × 128 × 2 × 2 B = 114,688 B, room for over
  // 140,000 tokens.
  SweepRequest engine = request;
  engine.runtime = "llamacpp";
  const SweepResult llama = Sweep(engine, Builtin()).value();
  const std::size_t q = static_cast<std::size_t>(
      std::find(llama.models.begin(), llama.models.end(), qwen) - llama.models.begin());
  const std::size_t bf16 = static_cast<std::size_t>(
      std::find_if(llama.formats.begin(), llama.formats.end(), [](const QuantFormat* x) { return x->id == "BF16"; }) -
      llama.formats.begin());
  ASSERT_LT(bf16, llama.formats.size());
  EXPECT_EQ(llama.cells[q * llama.formats.size() + bf16].max_context_tokens, 40960);
  EXPECT_TRUE(llama.cells[q * llama.formats.size() + bf16].max_context_capped);
  // No cell's largest context passes its model's maximum.
  for (std::size_t i = 0; i < one.cells.size(); ++i) {
    EXPECT_LE(one.cells[i].max_context_tokens, one.models[i / one.formats.size()]->max_position_embeddings);
  }
  // A sweep of one device gives that device's cells of the whole catalog's sweep.
  request.devices.clear();
  const SweepResult all = Sweep(request, Builtin()).value();
  const std::size_t d = static_cast<std::size_t>(
      std::find_if(all.devices.begin(), all.devices.end(), [](const Device* x) { return x->id == "rtx-4090-24gb"; }) -
      all.devices.begin());
  for (std::size_t i = 0; i < one.cells.size(); ++i) {
    const SweepCell& a = one.cells[i];
    const SweepCell& b = all.cells[i * all.devices.size() + d];
    EXPECT_EQ(a.total_gib, b.total_gib);
    EXPECT_EQ(a.fit, b.fit);
    EXPECT_EQ(a.decode_tps, b.decode_tps);
    EXPECT_EQ(a.max_context_tokens, b.max_context_tokens);
  }
}

TEST(Sweep, TakesTheRequestsDevicesAndGpuCount) {
  // The device, then the compare list, in that order; a device of one's own; two in parallel
  // hold the weights of one apiece as the simulator's total says.
  const std::string json = SweepJson(R"({"device":"custom:20:800:vulkan:My card","compare":["rtx-3090-24gb"],
      "device_count":2,"runtime":"llamacpp","context":4096})");
  EXPECT_NE(json.find(R"("devices":["custom","rtx-3090-24gb"])"), std::string::npos) << json.substr(0, 400);
  EXPECT_NE(json.find(R"("device_count":2)"), std::string::npos);
  const std::string page = EvaluateJson(R"({"model":"qwen3-8b","format":"Q4_K_M","device":"rtx-3090-24gb",
      "device_count":2,"runtime":"llamacpp","context":4096,"sections":["simulator"]})");
  const json::Document response = json::Document::Parse(page).value();
  const double total = response.root().Find("simulator").Find("total_gib").Number();
  SweepRequest request;
  request.devices = {"rtx-3090-24gb"};
  request.device_count = 2;
  request.runtime = "llamacpp";
  request.context_tokens = 4096;
  const SweepResult sweep = Sweep(request, Builtin()).value();
  const std::size_t m = static_cast<std::size_t>(
      std::find_if(sweep.models.begin(), sweep.models.end(), [](const ModelSpec* x) { return x->id == "qwen3-8b"; }) -
      sweep.models.begin());
  const std::size_t f = static_cast<std::size_t>(
      std::find_if(sweep.formats.begin(), sweep.formats.end(), [](const QuantFormat* x) { return x->id == "Q4_K_M"; }) -
      sweep.formats.begin());
  EXPECT_NEAR(sweep.cells[m * sweep.formats.size() + f].total_gib, total, 1e-9);
}

TEST(Sweep, JsonCarriesTheExactFigures) {
  // The reference cell's 21.780937… GiB and 27.302956… tok/s as the shortest digits that read
  // back to the same doubles: a reader rounding them shows the page's 21.78 GB and 27.3 tok/s,
  // never a second rounding of a rounded figure (17.5049 → 17.505 → 17.51 instead of 17.50).
  SweepRequest request;
  request.devices = {"rtx-3090-24gb"};
  const SweepResult sweep = Sweep(request, Builtin()).value();
  const std::string json = SweepJson(R"({"context":32768,"device":"rtx-3090-24gb"})");
  EXPECT_EQ(json.rfind(R"({"ok":true,"schema":3,"context":32768,"batch":1,"kv_dtype":"fp16","runtime":"reference","device_count":1,"models":[)", 0), 0u);
  EXPECT_NE(json.find(R"("fit_ids":["comfortable","tight","no_fit"])"), std::string::npos);
  const json::Document parsed = json::Document::Parse(json).value();
  const json::Value totals = parsed.root().Find("total_gib");
  const json::Value decodes = parsed.root().Find("decode_tps");
  ASSERT_EQ(totals.size(), sweep.cells.size());
  std::size_t i = 0;
  for (const json::Value total : totals.Children()) EXPECT_EQ(total.Number(), sweep.cells[i++].total_gib);
  i = 0;
  for (const json::Value decode : decodes.Children()) EXPECT_EQ(decode.Number(), sweep.cells[i++].decode_tps);
}

// An array's numbers and texts.
std::vector<double> NumbersOf(json::Value array) {
  std::vector<double> numbers;
  for (const json::Value v : array.Children()) numbers.push_back(v.Number());
  return numbers;
}
std::vector<std::string> TextsOf(json::Value array) {
  std::vector<std::string> texts;
  for (const json::Value v : array.Children()) texts.emplace_back(v.String());
  return texts;
}
std::size_t IndexOf(const std::vector<std::string>& texts, std::string_view text) {
  return static_cast<std::size_t>(std::find(texts.begin(), texts.end(), text) - texts.begin());
}

// The chosen offload plan of the simulator's offload block for `model` at Q4_K_M on an RTX 3060
// 12GB under llama.cpp at 8,192 tokens with 128 GB of RAM, or an absent value.
json::Document SimulatorOffload(const std::string& model) {
  return json::Document::Parse(EvaluateJson(R"({"model":")" + model + R"(","format":"Q4_K_M","device":"rtx-3060-12gb",
      "runtime":"llamacpp","context":8192,"host_memory":128,"sections":["simulator","offload"]})")).value();
}

// Issue 31, item 7: the fits view lists apart what fits in no format but runs with offload, as
// the simulator's offload block shows it for the engine's default format: the same plan, its
// memory in RAM and its speed, with the request's host. Nothing where a format fits, on a device
// with unified memory (no RAM beside it) or under an engine that does not offload; a format but
// no plan where the RAM is too small too.
TEST(Sweep, ListsWhatRunsWithOffloadAsTheSimulatorShowsIt) {
  const json::Document sweep = json::Document::Parse(SweepJson(R"({"device":"rtx-3060-12gb",
      "compare":["apple-m4-max-128gb"],"runtime":"llamacpp","context":8192,"host_memory":128})")).value();
  const json::Value root = sweep.root();
  const std::vector<std::string> models = TextsOf(root.Find("models"));
  const std::vector<std::string> kinds = TextsOf(root.Find("offload_kinds"));
  const std::size_t formats = root.Find("formats").size();
  const std::size_t q4 = IndexOf(TextsOf(root.Find("formats")), "Q4_K_M");
  const std::vector<double> fit = NumbersOf(root.Find("fit"));
  const auto column = [&](std::string_view key) { return NumbersOf(root.Find(key)); };
  const std::vector<double> format = column("offload_format"), kind = column("offload_kind");
  const std::vector<double> gpu_layers = column("offload_gpu_layers"), expert_layers = column("offload_ram_expert_layers");
  const std::vector<double> host = column("offload_host_gib"), share = column("offload_ram_share_pct");
  const std::vector<double> decode = column("offload_decode_tps");
  ASSERT_EQ(format.size(), models.size() * 2);
  int offloaded = 0;
  for (std::size_t m = 0; m < models.size(); ++m) {
    SCOPED_TRACE(models[m]);
    for (std::size_t d = 0; d < 2; ++d) {
      const std::size_t i = m * 2 + d;
      bool fits = false;
      for (std::size_t f = 0; f < formats; ++f) fits = fits || fit[(m * formats + f) * 2 + d] != 2;  // 2: no_fit
      if (fits || d == 1) {  // the M4 Max: unified memory
        EXPECT_EQ(format[i], -1);
        EXPECT_EQ(kind[i], -1);
        continue;
      }
      EXPECT_EQ(format[i], static_cast<double>(q4));
      const json::Document page = SimulatorOffload(models[m]);
      const json::Value offload = page.root().Find("offload");
      if (offload.Find("chosen").IsNull()) {
        EXPECT_EQ(kind[i], -1);
        continue;
      }
      ++offloaded;
      std::size_t chosen = static_cast<std::size_t>(offload.Find("chosen").Number());
      json::Value plan;
      for (const json::Value p : offload.Find("plans").Children()) {
        if (chosen-- == 0) plan = p;
      }
      EXPECT_EQ(kinds.at(static_cast<std::size_t>(kind[i])), plan.Find("kind").String());
      EXPECT_EQ(gpu_layers[i], plan.Find("gpu_layers").Number());
      EXPECT_EQ(expert_layers[i], plan.Find("ram_expert_layers").Number());
      EXPECT_EQ(host[i], plan.Find("host_gib").Number());
      EXPECT_EQ(share[i], plan.Find("ram_share_pct").Number());
      EXPECT_EQ(decode[i], plan.Find("decode_tps").Number());
    }
  }
  EXPECT_GE(offloaded, 10);
  // 16 GB of RAM hold no part of Qwen2.5-72B at Q4_K_M (some 44 GB of weights, 12 on the card):
  // the format, no plan.
  const json::Document small = json::Document::Parse(SweepJson(R"({"device":"rtx-3060-12gb","runtime":"llamacpp",
      "context":8192,"host_memory":16})")).value();
  const std::size_t qwen = IndexOf(TextsOf(small.root().Find("models")), "qwen2.5-72b");
  EXPECT_EQ(NumbersOf(small.root().Find("offload_format")).at(qwen), static_cast<double>(q4));
  EXPECT_EQ(NumbersOf(small.root().Find("offload_kind")).at(qwen), -1);
  // The reference profile does not offload.
  const json::Document reference = json::Document::Parse(SweepJson(R"({"device":"rtx-3060-12gb","context":8192})")).value();
  for (const double f : NumbersOf(reference.root().Find("offload_format"))) EXPECT_EQ(f, -1);
}

}  // namespace
}  // namespace vramcalc
