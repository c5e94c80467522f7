// Partial responses ("sections", what the page asks for while the slider moves) and the
// catalog sweep, checked against the reference page (tests/golden/reference-page.txt, its
// figures read from tests/golden/reference-page.json).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "vramcalc/display.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/json_codec.h"
#include "reference_table.h"

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
  EXPECT_EQ(json.rfind(R"({"ok":true,"schema":2,"simulator":{"device":"rtx-3090-24gb")", 0), 0u)
      << json.substr(0, 120);
  for (const char* absent : {R"("model":)", R"("curve":)", R"("matrix":)"}) {
    EXPECT_EQ(json.find(absent), std::string::npos) << absent;
  }
  EXPECT_EQ(EvaluateJson(R"({"model":"glm-4-32b-0414","sections":[]})"),
            R"({"ok":true,"schema":2})");
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
      EXPECT_EQ(FormatGrouped(cell.max_context_tokens),
                reference::Text({"simulator", "figures", "max_context", "value"}));
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
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.request);
    const std::string response = SweepJson(c.request);
    EXPECT_EQ(response.rfind(R"({"ok":false,"schema":2,"error":)", 0), 0u) << response;
    EXPECT_NE(response.find(std::string(R"("field":")") + c.field + "\""), std::string::npos) << response;
  }
  EXPECT_NE(SweepJson("[]").find(R"("code":"invalid_type")"), std::string::npos);
}

TEST(Sweep, JsonRoundsToTheStatedPlaces) {
  // 21.780937… GiB and 27.302956… tok/s (the reference cell) at 3 and 2 places.
  const std::string json = SweepJson(R"({"context":32768})");
  EXPECT_EQ(json.rfind(R"({"ok":true,"schema":2,"context":32768,"batch":1,"kv_dtype":"fp16","runtime":"reference","models":[)", 0), 0u);
  EXPECT_NE(json.find(R"("fit_ids":["comfortable","tight","no_fit"])"), std::string::npos);
  EXPECT_NE(json.find(",21.781,"), std::string::npos);
  EXPECT_NE(json.find(",27.3,"), std::string::npos);
}

}  // namespace
}  // namespace vramcalc
