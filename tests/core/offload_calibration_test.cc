// Offload's decode terms (core/ESTIMATION.md section 7) against published runs with part of the
// model in host RAM (tests/calibration/offload.json, each row quoted from its source). The test
// refits the RAM efficiency of each memory generation (DDR4, DDR5) and the cost per layer in RAM
// on the rows of the fit split by weighted least squares on the relative error of a token's time,
// checks that the profile holds the fit, and recomputes the error on the fitted rows and on the
// hold-out split (sources the fit never sees), which must match what the profile records for the
// page. It also checks that the split follows the rule written in the file's _about. Every row is
// printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
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
  MemoryGeneration generation = MemoryGeneration::kDdr5;
  int64_t channels = 0;
  Scenario scenario;
  OffloadPlan plan;  // at the run's own split, under the profile's constants
  double measured_seconds = 0;
  double host_bandwidth = 0;  // B/s
};

MemoryGeneration GenerationOf(json::Value row) {
  const std::string_view generation = row.Find("host").Find("generation").String();
  EXPECT_TRUE(generation == "ddr4" || generation == "ddr5") << row.Find("id").String() << ": " << generation;
  return generation == "ddr4" ? MemoryGeneration::kDdr4 : MemoryGeneration::kDdr5;
}

// A host memory type of the row's generation: the plans read only its generation from it, the
// bandwidth is the row's own.
const HostMemoryType* TypeOf(MemoryGeneration generation) {
  for (const HostMemoryType& type : HostMemoryTypes()) {
    if (type.generation() == generation) return &type;
  }
  return nullptr;
}

Scenario ScenarioOf(json::Value row) {
  Scenario s = LlamaCppScenarioOf(row);
  s.context_tokens = row.Find("depth").Integer() + row.Find("generated").Integer() / 2;
  s.host.bandwidth_gbps = row.Find("host").Find("bandwidth_gbps").Number();
  s.host.type = TypeOf(GenerationOf(row));
  s.host.memory_gib = kMaxHostMemoryGib;  // the runs ran: their RAM held the plan
  return s;
}

std::vector<Row> Rows() {
  std::vector<Row> rows;
  for (const json::Value row : Calibration().root().Find("rows").Children()) {
    Row r;
    r.id = std::string(row.Find("id").String());
    r.holdout = row.Find("split").String() == "holdout";
    r.generation = GenerationOf(row);
    r.channels = row.Find("host").Find("channels").Integer();
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

// A grouping of the rows for the RAM efficiency: its number of groups and a row's group.
struct Grouping {
  std::size_t groups;
  std::size_t (*of)(const Row&);
};
constexpr Grouping kOneEfficiency{1, [](const Row&) -> std::size_t { return 0; }};
constexpr Grouping kByGeneration{kMemoryGenerationCount,
                                 [](const Row& r) { return static_cast<std::size_t>(r.generation); }};
constexpr Grouping kByChannels{2, [](const Row& r) -> std::size_t { return r.channels >= 4 ? 1 : 0; }};

// A fitted row's regressors: the RAM read time at full efficiency in its group's column, the
// layers in RAM in the last, both over the measured time.
std::vector<double> Regressors(const Row& r, const Grouping& grouping) {
  std::vector<double> x(grouping.groups + 1, 0);
  x[grouping.of(r)] = r.plan.ram_read_bytes / r.host_bandwidth / r.measured_seconds;
  x.back() = static_cast<double>(r.plan.cpu_layers) / r.measured_seconds;
  return x;
}

// t = gpu + ram_bytes / B × x_g + layers × c: least squares on (t − measured) / measured over
// the fit split (x_g = 1 / the RAM efficiency of group g, c in seconds).
std::vector<double> Fit(const std::vector<Row>& rows, const Grouping& grouping = kByGeneration) {
  const std::size_t n = grouping.groups + 1;
  std::vector<std::vector<double>> m(n, std::vector<double>(n, 0));
  std::vector<double> v(n, 0);
  for (const Row& r : rows) {
    if (r.holdout) continue;
    const std::vector<double> x = Regressors(r, grouping);
    const double y = (r.measured_seconds - r.plan.gpu_seconds) / r.measured_seconds;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) m[i][j] += x[i] * x[j];
      v[i] += x[i] * y;
    }
  }
  return Solve(m, v);
}

// The fit's corrected Akaike information criterion over the fit split: n ln(RSS / n) + 2k +
// 2k(k + 1) / (n − k − 1), RSS the sum of the squared relative errors of a token's time.
double Aicc(const std::vector<Row>& rows, const Grouping& grouping) {
  const std::vector<double> fit = Fit(rows, grouping);
  double rss = 0, n = 0;
  for (const Row& r : rows) {
    if (r.holdout) continue;
    const std::vector<double> x = Regressors(r, grouping);
    double predicted = r.plan.gpu_seconds / r.measured_seconds;
    for (std::size_t i = 0; i < x.size(); ++i) predicted += x[i] * fit[i];
    rss += (predicted - 1) * (predicted - 1);
    ++n;
  }
  const double k = static_cast<double>(fit.size());
  return n * std::log(rss / n) + 2 * k + 2 * k * (k + 1) / (n - k - 1);
}

// predicted tok/s ÷ measured − 1 under the profile's constants.
double ErrorOf(const Row& r) { return r.measured_seconds * r.plan.decode_tps - 1; }

TEST(OffloadCalibration, TheProfileHoldsTheFitOfItsRows) {
  const std::vector<Row> rows = Rows();
  ASSERT_EQ(rows.size(), 38u);
  const std::vector<double> fit = Fit(rows);
  const OffloadRule& rule = *FindRuntimeProfile("llamacpp")->offload;
  for (const MemoryGeneration generation : {MemoryGeneration::kDdr4, MemoryGeneration::kDdr5}) {
    const double efficiency = 1.0 / fit[static_cast<std::size_t>(generation)];
    std::printf("offload fit: ram_efficiency[%d] %.4f\n", static_cast<int>(generation), efficiency);
    ASSERT_GT(efficiency, 0.2);
    ASSERT_LE(efficiency, 1.0);
    EXPECT_NEAR(rule.RamEfficiency(generation), efficiency, 0.0005);  // the table keeps three decimals
  }
  const double layer_ms = fit.back() * 1e3;
  std::printf("offload fit: cpu_layer_ms %.4f\n", layer_ms);
  ASSERT_GE(layer_ms, 0.0);
  EXPECT_NEAR(rule.cpu_layer_ms, layer_ms, 0.0005);
  // Ollama runs llama-server: the same fit (its own rule only keeps a projector on the CPU).
  const OffloadRule& ollama = *FindRuntimeProfile("ollama")->offload;
  EXPECT_EQ(ollama.ram_efficiency, rule.ram_efficiency);
  EXPECT_EQ(ollama.cpu_layer_ms, rule.cpu_layer_ms);
  EXPECT_EQ(ollama.host_reserve_gib, rule.host_reserve_gib);
  EXPECT_TRUE(ollama.towers_in_ram_when_split);
  EXPECT_FALSE(rule.towers_in_ram_when_split);
}

// The model is the simplest the fit split supports: an efficiency per memory generation lowers
// the AICc by more than 2 against one efficiency, and more than an efficiency per channel class
// (2; 4 or more) does. Recorded in runtime_profile.cc's comment: −71.4, −58.4, −59.0.
TEST(OffloadCalibration, TheFitRowsSupportAnEfficiencyPerMemoryGeneration) {
  const std::vector<Row> rows = Rows();
  const double one = Aicc(rows, kOneEfficiency), generation = Aicc(rows, kByGeneration),
               channels = Aicc(rows, kByChannels);
  std::printf("AICc: one efficiency %.2f, by generation %.2f, by channels %.2f\n", one, generation, channels);
  EXPECT_LT(generation, one - 2);
  EXPECT_LT(generation, channels - 2);
  EXPECT_NEAR(one, -58.42, 0.005);
  EXPECT_NEAR(generation, -71.36, 0.005);
  EXPECT_NEAR(channels, -59.00, 0.005);
}

TEST(OffloadCalibration, ErrorsOnTheFitAndTheHoldOutAreTheRecordedOnes) {
  std::vector<double> fitted, held_out;
  for (const Row& r : Rows()) {
    const double error = ErrorOf(r);
    (r.holdout ? held_out : fitted).push_back(error);
    std::printf("%-8s %-50s %s %s %3lld in RAM  measured %6.2f  estimated %6.2f tok/s  %+6.1f %%\n",
                r.holdout ? "holdout" : "fit", r.id.c_str(), r.generation == MemoryGeneration::kDdr4 ? "ddr4" : "ddr5", std::string(kOffloadKinds.Id(r.plan.kind)).c_str(),
                static_cast<long long>(r.plan.cpu_layers), 1.0 / r.measured_seconds, r.plan.decode_tps, 100 * error);
  }
  const OffloadRule& rule = *FindRuntimeProfile("llamacpp")->offload;
  ExpectRecordedErrors(fitted, held_out, rule.error, rule.holdout);
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

// The split is the _about's rule: a source whose RAM speed is assumed is only held out; the
// others, ordered by their number of runs (largest first, ties by source_key), alternate fit,
// hold-out, fit, … And both host classes, 2 channels and 4 or more, are on both sides.
TEST(OffloadCalibration, TheSplitFollowsItsRuleAndHoldsBothHostClassesOnBothSides) {
  std::map<std::string, int> runs;
  std::set<std::string> assumed;
  for (const json::Value row : Calibration().root().Find("rows").Children()) {
    const std::string source(row.Find("source_key").String());
    ++runs[source];
    if (row.Find("host").Find("speed_assumed").Bool()) assumed.insert(source);
  }
  std::map<std::string, int> known;
  for (const auto& [source, count] : runs) {
    if (!assumed.contains(source)) known[source] = count;
  }
  std::map<std::string, std::string> split = AlternatingSplit(known);
  for (const std::string& source : assumed) split[source] = "holdout";
  std::set<std::pair<std::string, bool>> classes;  // (split, 4 or more channels)
  for (const json::Value row : Calibration().root().Find("rows").Children()) {
    const std::string id(row.Find("id").String());
    EXPECT_EQ(row.Find("split").String(), split[std::string(row.Find("source_key").String())]) << id;
    classes.emplace(std::string(row.Find("split").String()), row.Find("host").Find("channels").Integer() >= 4);
  }
  EXPECT_EQ(classes.size(), 4u);
}

}  // namespace
}  // namespace vramcalc
