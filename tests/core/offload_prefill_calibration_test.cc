// A prompt with a MoE model's routed experts partly in host RAM (core/ESTIMATION.md section 8.3)
// against published llama.cpp runs (tests/calibration/offload-prefill.json, each row quoted from
// its source). The test refits the offload rule's link efficiency on the rows of the fit split by
// least squares on the relative error of the prompt's time (every source weighing alike), checks
// that the profile holds the fit, and recomputes the error on the fitted rows and on the hold-out
// split (sources the fit never sees), which must match what the profile records. It also checks
// that the split follows the rule in the file's _about. Every row is printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "calibration_fit.h"
#include "vramcalc/catalog.h"
#include "vramcalc/offload.h"
#include "vramcalc/serving.h"

namespace vramcalc {
namespace {

const json::Document& Calibration() {
  static const std::unique_ptr<json::Document> document = ReadCalibration("offload-prefill.json");
  return *document;
}

struct Row {
  std::string id;
  std::string source;
  bool holdout = false;
  int64_t prompt_tokens = 0;
  int64_t ubatch = 0;
  OffloadPlan plan;
  OffloadPrompt prompt;  // under the profile's constants
  double device_seconds = 0;  // the prompt's time on the device alone (the prefill rule)
  double measured_seconds = 0;
  double copy_bytes = 0;      // over the whole prompt
};

Scenario ScenarioOf(json::Value row) {
  Scenario s = LlamaCppScenarioOf(row);
  s.context_tokens = row.Find("prompt_tokens").Integer();
  s.host.memory_gib = kMaxHostMemoryGib;  // the runs ran: their RAM held the plan
  return s;
}

std::vector<Row> Rows() {
  std::vector<Row> rows;
  for (const json::Value row : Calibration().root().Find("rows").Children()) {
    Row r;
    r.id = std::string(row.Find("id").String());
    r.source = std::string(row.Find("source_key").String());
    r.holdout = row.Find("split").String() == "holdout";
    const Scenario s = ScenarioOf(row);
    EXPECT_TRUE(s.model && s.device && s.format && s.kv_dtype) << r.id;
    if (!(s.model && s.device && s.format && s.kv_dtype)) continue;
    const PrefillRule* rule = ServingPrefillRule(s);
    EXPECT_NE(rule, nullptr) << r.id;
    if (rule == nullptr) continue;
    r.prompt_tokens = row.Find("prompt_tokens").Integer();
    r.ubatch = row.Find("ubatch").Integer();
    r.plan = ExpertOffloadPlan(s, row.Find("offload").Find("ram_expert_layers").Integer());
    r.prompt = OffloadPromptOf(s, *rule, r.plan, r.prompt_tokens, r.ubatch);
    r.device_seconds = r.prompt.seconds - r.prompt.copy_seconds;
    r.copy_bytes = r.prompt.copy_seconds * s.device->host_link_gbps * 1e9 * OffloadPrefillRuleOf("llamacpp")->link_efficiency;
    r.measured_seconds = static_cast<double>(r.prompt_tokens) / row.Find("tok_s").Number();
    rows.push_back(r);
  }
  return rows;
}

// t = device + copy_at_the_whole_link × x, x = 1 / the link efficiency: least squares on
// (t − measured) / measured over the fit split, each row weighted by 1 / its source's rows.
double FitLinkEfficiency(const std::vector<Row>& rows, double efficiency_in_profile) {
  std::map<std::string, int> per_source;
  for (const Row& r : rows) per_source[r.source] += r.holdout ? 0 : 1;
  double xx = 0, xy = 0;
  for (const Row& r : rows) {
    if (r.holdout) continue;
    const double w = 1.0 / per_source[r.source];
    const double x = r.prompt.copy_seconds * efficiency_in_profile / r.measured_seconds;
    const double y = 1 - r.device_seconds / r.measured_seconds;
    xx += w * x * x;
    xy += w * x * y;
  }
  return xx / xy;
}

// predicted tok/s ÷ measured − 1 under the profile's constants.
double ErrorOf(const Row& r) { return r.measured_seconds / r.prompt.seconds - 1; }

TEST(OffloadPrefillCalibration, TheProfileHoldsTheFitOfItsRows) {
  const std::vector<Row> rows = Rows();
  ASSERT_EQ(rows.size(), 13u);
  const OffloadPrefillRule& rule = *OffloadPrefillRuleOf("llamacpp");
  const double efficiency = FitLinkEfficiency(rows, rule.link_efficiency);
  std::printf("offload prefill fit: link_efficiency %.4f\n", efficiency);
  ASSERT_GT(efficiency, 0.1);
  ASSERT_LT(efficiency, 2.0);
  EXPECT_NEAR(rule.link_efficiency, efficiency, 0.0005);  // the table keeps three decimals
  EXPECT_EQ(OffloadPrefillRuleOf("ollama"), &rule);  // llama-server's
}

TEST(OffloadPrefillCalibration, ErrorsOnTheFitAndTheHoldOutAreTheRecordedOnes) {
  std::vector<double> fitted, held_out;
  for (const Row& r : Rows()) {
    const double error = ErrorOf(r);
    (r.holdout ? held_out : fitted).push_back(error);
    // The link's rate the measured time implies if the device's part is as estimated.
    const double implied_gbps = r.copy_bytes / (r.measured_seconds - r.device_seconds) / 1e9;
    std::printf("%-8s %-52s ub %5lld  %2lld × %5.2f GB  implied %5.1f GB/s  measured %7.1f  estimated %7.1f tok/s  %+6.1f %%\n",
                r.holdout ? "holdout" : "fit", r.id.c_str(), static_cast<long long>(r.ubatch),
                static_cast<long long>(r.prompt.ubatches), r.copy_bytes / r.prompt.ubatches / 1e9, implied_gbps,
                static_cast<double>(r.prompt_tokens) / r.measured_seconds,
                static_cast<double>(r.prompt_tokens) / r.prompt.seconds, 100 * error);
  }
  const OffloadPrefillRule& rule = *OffloadPrefillRuleOf("llamacpp");
  ExpectRecordedErrors(fitted, held_out, rule.error, rule.holdout);
}

// The split is the _about's rule: the sources, ordered by their number of runs (largest first,
// ties by source_key), alternate fit, hold-out, fit, …; the hold-out is at least a quarter.
TEST(OffloadPrefillCalibration, TheSplitFollowsItsRule) {
  std::map<std::string, int> runs;
  for (const json::Value row : Calibration().root().Find("rows").Children()) ++runs[std::string(row.Find("source_key").String())];
  std::map<std::string, std::string> split = AlternatingSplit(runs);
  int held = 0, total = 0;
  for (const json::Value row : Calibration().root().Find("rows").Children()) {
    EXPECT_EQ(row.Find("split").String(), split[std::string(row.Find("source_key").String())]) << row.Find("id").String();
    held += row.Find("split").String() == "holdout" ? 1 : 0;
    ++total;
  }
  EXPECT_GE(4 * held, total);
}

}  // namespace
}  // namespace vramcalc
