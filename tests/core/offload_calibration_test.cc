// Offload's decode terms (core/ESTIMATION.md section 7) against published runs with part of the
// model in host RAM (tests/calibration/offload.json, each row quoted from its source). The test
// refits the RAM efficiency and the cost per layer in RAM on the rows of the fit split by
// weighted least squares on the relative error of a token's time, checks that the profile holds
// the fit, and recomputes the error on the fitted rows and on the hold-out split (sources the
// fit never sees), which must match what the profile records for the page. Every row is printed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "calibration_fit.h"
#include "vramcalc/catalog.h"
#include "vramcalc/offload.h"

namespace vramcalc {
namespace {

const json::Document& Calibration() {
  static const std::unique_ptr<json::Document> document = ReadCalibration("offload.json");
  return *document;
}

struct Row {
  std::string id;
  bool holdout = false;
  Scenario scenario;
  OffloadPlan plan;  // at the run's own split, under the profile's constants
  double measured_seconds = 0;
  double host_bandwidth = 0;  // B/s
};

Scenario ScenarioOf(json::Value row) {
  const Catalog& catalog = BuiltinCatalog().value();
  Scenario s;
  s.model = catalog.FindModel(row.Find("model").String());
  s.device = catalog.FindDevice(row.Find("device").String());
  s.runtime = FindRuntimeProfile("llamacpp");
  s.format = FindQuantFormat(row.Find("format").String());
  s.kv_dtype = FindKvDtype(row.Find("kv_dtype").String());
  s.device_count = row.Find("gpus").Integer();
  s.context_tokens = row.Find("depth").Integer() + row.Find("generated").Integer() / 2;
  s.host.bandwidth_gbps = row.Find("host").Find("bandwidth_gbps").Number();
  s.host.memory_gib = kMaxHostMemoryGib;  // the runs ran: their RAM held the plan
  return s;
}

std::vector<Row> Rows() {
  std::vector<Row> rows;
  for (const json::Value row : Calibration().root().Find("rows").Children()) {
    Row r;
    r.id = std::string(row.Find("id").String());
    r.holdout = row.Find("split").String() == "holdout";
    r.scenario = ScenarioOf(row);
    EXPECT_TRUE(r.scenario.model && r.scenario.device && r.scenario.format && r.scenario.kv_dtype) << r.id;
    if (!(r.scenario.model && r.scenario.device && r.scenario.format && r.scenario.kv_dtype)) continue;
    const json::Value offload = row.Find("offload");
    r.plan = offload.Find("kind").String() == "layers"
                 ? LayerOffloadPlan(r.scenario, offload.Find("gpu_layers").Integer(), offload.Find("head_on_gpu").Bool())
                 : ExpertOffloadPlan(r.scenario, offload.Find("ram_expert_layers").Integer());
    r.measured_seconds = 1.0 / row.Find("tok_s").Number();
    r.host_bandwidth = r.scenario.host.bandwidth_gbps * 1e9;
    rows.push_back(r);
  }
  return rows;
}

// t = gpu + ram_bytes / B × x + layers × c: least squares on (t − measured) / measured over
// (x = 1 / ram_efficiency, c in seconds).
std::vector<double> Fit(const std::vector<Row>& rows) {
  std::vector<std::vector<double>> m(2, std::vector<double>(2, 0));
  std::vector<double> v(2, 0);
  for (const Row& r : rows) {
    if (r.holdout) continue;
    const double t = r.measured_seconds;
    const double x[2] = {r.plan.ram_read_bytes / r.host_bandwidth / t, static_cast<double>(r.plan.cpu_layers) / t};
    const double y = (t - r.plan.gpu_seconds) / t;
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) m[i][j] += x[i] * x[j];
      v[i] += x[i] * y;
    }
  }
  return Solve(m, v);
}

// predicted tok/s ÷ measured − 1 under the profile's constants.
double ErrorOf(const Row& r) { return r.measured_seconds * r.plan.decode_tps - 1; }

TEST(OffloadCalibration, TheProfileHoldsTheFitOfItsRows) {
  const std::vector<Row> rows = Rows();
  ASSERT_EQ(rows.size(), 15u);
  const std::vector<double> fit = Fit(rows);
  const double efficiency = 1.0 / fit[0];
  const double layer_ms = fit[1] * 1e3;
  std::printf("offload fit: ram_efficiency %.4f, cpu_layer_ms %.4f\n", efficiency, layer_ms);
  ASSERT_GT(efficiency, 0.2);
  ASSERT_LE(efficiency, 1.0);
  ASSERT_GE(layer_ms, 0.0);
  const OffloadRule& rule = *FindRuntimeProfile("llamacpp")->offload;
  for (const double e : rule.ram_efficiency) EXPECT_NEAR(e, efficiency, 0.0005);  // the table keeps three decimals
  EXPECT_NEAR(rule.cpu_layer_ms, layer_ms, 0.0005);
  EXPECT_EQ(FindRuntimeProfile("ollama")->offload, &rule);  // Ollama runs llama-server
}

TEST(OffloadCalibration, ErrorsOnTheFitAndTheHoldOutAreTheRecordedOnes) {
  std::vector<double> fitted, held_out;
  for (const Row& r : Rows()) {
    const double error = ErrorOf(r);
    (r.holdout ? held_out : fitted).push_back(error);
    std::printf("%-8s %-44s %s %3lld in RAM  measured %6.2f  estimated %6.2f tok/s  %+6.1f %%\n",
                r.holdout ? "holdout" : "fit", r.id.c_str(), std::string(kOffloadKinds.Id(r.plan.kind)).c_str(),
                static_cast<long long>(r.plan.cpu_layers), 1.0 / r.measured_seconds, r.plan.decode_tps, 100 * error);
  }
  const OffloadRule& rule = *FindRuntimeProfile("llamacpp")->offload;
  for (const auto& [errors, recorded] : {std::pair{Summary(fitted), rule.error}, std::pair{Summary(held_out), rule.holdout}}) {
    std::printf("%d runs: median %.2f %%, p90 %.2f %%, worst %.2f %%\n", errors.points, errors.median_pct,
                errors.p90_pct, errors.worst_pct);
    EXPECT_EQ(recorded.points, errors.points);
    EXPECT_NEAR(recorded.median_pct, errors.median_pct, 0.05);
    EXPECT_NEAR(recorded.p90_pct, errors.p90_pct, 0.05);
    EXPECT_NEAR(recorded.worst_pct, errors.worst_pct, 0.05);
  }
}

// The hold-out is at least a quarter of the runs, and no source is on both sides.
TEST(OffloadCalibration, TheHoldOutIsAQuarterAndSplitBySource) {
  int held = 0, total = 0;
  std::vector<std::string> fit_sources, holdout_sources;
  for (const json::Value row : Calibration().root().Find("rows").Children()) {
    const bool holdout = row.Find("split").String() == "holdout";
    held += holdout ? 1 : 0;
    ++total;
    (holdout ? holdout_sources : fit_sources).emplace_back(row.Find("source_key").String());
  }
  EXPECT_GE(4 * held, total);
  for (const std::string& source : holdout_sources) {
    EXPECT_EQ(std::count(fit_sources.begin(), fit_sources.end(), source), 0) << source;
  }
}

}  // namespace
}  // namespace vramcalc
