// The engine profiles' decode rules (estimation model section 6) against published batch-1
// measurements (tests/calibration/decode.json, each row quoted from its source). For every rule
// the test refits its efficiency and fixed cost by weighted least squares on the relative error
// of a token's time, checks that the table holds the fit, recomputes its error on its rows and
// fails when that error is worse than the one recorded beside the rule (which the page shows).
// Every row's error is printed, the rows no rule covers too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "calibration_fit.h"
#include "io/json_value.h"
#include "vramcalc/catalog.h"
#include "vramcalc/estimate.h"
#include "vramcalc/runtime_profile.h"

namespace vramcalc {
namespace {

const json::Document& Calibration() {
  static const std::unique_ptr<json::Document> document = ReadCalibration("decode.json");
  return *document;
}

int64_t Int(json::Value object, std::string_view key) { return object.Find(key).Integer(); }

// A model of the calibration file: its catalog entry, or the shape it states.
ModelSpec ModelFrom(json::Value shape) {
  if (const json::Value id = shape.Find("catalog_id")) return *BuiltinCatalog().value().FindModel(id.String());
  ModelSpec m;
  m.id = std::string(shape.Find("name").String());
  m.params_total = shape.Find("params").Number();
  m.params_active = shape.Find("active_params") ? shape.Find("active_params").Number() : m.params_total;
  m.num_hidden_layers = Int(shape, "layers");
  m.hidden_size = Int(shape, "hidden");
  m.num_attention_heads = Int(shape, "heads");
  m.vocab_size = Int(shape, "vocab");
  m.tie_word_embeddings = shape.Find("tied").Bool();
  if (const json::Value experts = shape.Find("experts")) {
    std::vector<int64_t> e;
    for (const json::Value v : experts.Children()) e.push_back(v.Integer());
    m.moe = MoeSpec{e[0], e[1], 0, shape.Find("expert_params").Number()};
  }
  for (const json::Value g : shape.Find("layer_groups").Children()) {
    LayerGroup group;
    group.kind = *kLayerKinds.Find(g.Find("kind").String());
    group.layers = Int(g, "layers");
    group.kv_heads = Int(g, "kv_heads");
    group.key_dim = Int(g, "key_dim");
    group.value_dim = Int(g, "value_dim");
    if (const json::Value w = g.Find("window_tokens")) group.window_tokens = w.Integer();
    m.layer_groups.push_back(group);
  }
  return m;
}

std::string_view ProfileOf(std::string_view engine) {
  if (engine == "llama.cpp") return "llamacpp";
  if (engine == "mlx") return "mlx";
  return engine;  // vllm, sglang
}

// One calibration row as a scenario: its model, format and device at the row's depth plus half
// the tokens it generated, one sequence.
struct Row {
  json::Value data;
  ModelSpec model;
  Device device;
  Scenario scenario;
  double measured_seconds = 0;
  double weight_bytes = 0;  // read per token
  double cache_bytes = 0;   // KV cache and state read per token
};

std::optional<Row> RowFrom(json::Value row, const std::map<std::string, ModelSpec>& models) {
  const RuntimeProfile* runtime = FindRuntimeProfile(ProfileOf(row.Find("engine").String()));
  const auto platform = kPlatforms.Find(row.Find("platform").String());
  // The profiles model CUDA graphs on (vLLM's and SGLang's default): eager runs are left out.
  const json::Value graphs = row.Find("cuda_graphs");
  if (runtime == nullptr || !platform || (graphs && graphs.IsBool() && !graphs.Bool())) return std::nullopt;
  Row r{row, models.at(std::string(row.Find("model").String())), Device{}, Scenario{}, 0, 0, 0};
  r.device.id = std::string(row.Find("id").String());
  r.device.name = std::string(row.Find("device").String());
  r.device.bandwidth_gbps = row.Find("bandwidth_gbps").Number();
  r.device.memory_gib = 1024;
  r.device.platform = *platform;
  r.device.device_class = *kDeviceClasses.Find(row.Find("device_class").String());
  r.device.unified_memory = row.Find("unified_memory").Bool();
  // Tokens generated (tgN) or fed one at a time (ppN with ubatch 1); anything else: 128.
  const std::string_view test = row.Find("test").String();
  const bool counted = (test.starts_with("tg") || test.starts_with("pp")) && test.size() > 2 &&
                       std::isdigit(static_cast<unsigned char>(test[2]));
  const int64_t generated = counted ? std::stoll(std::string(test.substr(2))) : 128;
  r.scenario.runtime = runtime;
  r.scenario.format = FindQuantFormat(row.Find("format").String());
  r.scenario.kv_dtype = FindKvDtype("fp16");
  r.scenario.context_tokens = std::max<int64_t>(1, Int(row, "depth") + generated / 2);
  r.scenario.device_count = Int(row, "gpus");
  r.measured_seconds = 1.0 / row.Find("tok_s").Number();
  return r;
}

std::vector<Row> Rows() {
  const json::Value root = Calibration().root();
  std::map<std::string, ModelSpec> models;
  for (const json::Value shape : root.Find("models").Children()) models[std::string(shape.Key())] = ModelFrom(shape);
  std::vector<Row> rows;
  for (const json::Value row : root.Find("rows").Children()) {
    std::optional<Row> r = RowFrom(row, models);
    if (r) rows.push_back(std::move(*r));
  }
  for (Row& r : rows) {  // pointers into the vector's elements, now that it no longer grows
    r.scenario.model = &r.model;
    r.scenario.device = &r.device;
    const Footprint f = FootprintOf(r.scenario);
    r.weight_bytes = WeightBytesOf(r.scenario).active;
    r.cache_bytes = f.kv_cache_bytes + f.state_bytes;
  }
  return rows;
}

double Error(const Row& r, const DecodeRule& rule) {
  return r.measured_seconds / DecodeSeconds(r.scenario, rule, r.weight_bytes, r.cache_bytes) - 1;  // predicted / measured − 1
}

std::string RuleName(const RuntimeProfile& runtime, const DecodeRule& rule) {
  return std::string(runtime.id) + " " + std::string(kPlatforms.Id(rule.platform)) + " " +
         std::string(rule.device_class ? kDeviceClasses.Id(*rule.device_class) : "any") +
         (rule.unified_memory == Tristate::kYes ? " unified" : rule.unified_memory == Tristate::kNo ? " discrete" : "") +
         (rule.from_bandwidth_gbps > 0 ? " ≥" + std::to_string(static_cast<int>(rule.from_bandwidth_gbps)) + " GB/s" : "") +
         (rule.moe == Tristate::kYes ? " MoE" : rule.moe == Tristate::kNo ? " dense" : "");
}

// Weighted least squares of t = W/BW × a + KV/BW × c + layers/32 × 1 ms × b with weights 1/t²
// (relative error): a = 1/η, c = 1/η_kv, b = t0 per 32 layers. When the rows barely read a
// cache (no depth runs), c = a: two unknowns.
struct Constants {
  double efficiency, kv_efficiency, t0_ms;
};

// One weighted least-squares fit: columns of x per row (weight bytes, cache bytes, layers) as
// `use` says, the fixed cost known (t0_ms) when the layers are not a column.
struct Columns {
  bool separate_cache;
  bool fit_t0;
};
std::vector<double> LeastSquares(const std::vector<const Row*>& rows, Columns use, double t0_ms) {
  const std::size_t n = 1 + (use.separate_cache ? 1 : 0) + (use.fit_t0 ? 1 : 0);
  std::vector<std::vector<double>> m(n, std::vector<double>(n, 0));
  std::vector<double> v(n, 0);
  for (const Row* r : rows) {
    const double bw = r->device.bandwidth_gbps * 1e9;
    const double layers = static_cast<double>(r->model.num_hidden_layers) / 32.0 * 1e-3;
    std::vector<double> x;
    if (use.separate_cache) {
      x = {r->weight_bytes / bw, r->cache_bytes / bw};
    } else {
      x = {(r->weight_bytes + r->cache_bytes) / bw};
    }
    if (use.fit_t0) x.push_back(layers);
    const double y = r->measured_seconds - (use.fit_t0 ? 0.0 : t0_ms * layers);
    const double w = 1.0 / (r->measured_seconds * r->measured_seconds);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) m[i][j] += w * x[i] * x[j];
      v[i] += w * x[i] * y;
    }
  }
  return Solve(m, v);
}

// The rule's constants from its rows: efficiencies and fixed cost together when the rows span
// enough (three deep-context runs give the cache its own efficiency); where that fit is not
// physical (an efficiency outside 0.2–1, a negative cost), the fixed cost is the rule's cited
// prior and only the efficiencies are fitted.
Constants Fit(const std::vector<const Row*>& rows, double t0_prior_ms) {
  int deep = 0;
  for (const Row* r : rows) deep += r->cache_bytes > 0.15 * (r->weight_bytes + r->cache_bytes) ? 1 : 0;
  const auto physical = [](const Constants& c) {
    return c.efficiency > 0.2 && c.efficiency <= 1 && c.kv_efficiency > 0.05 && c.kv_efficiency <= 1 && c.t0_ms >= 0;
  };
  const auto solve = [&](Columns use) {
    const std::vector<double> x = LeastSquares(rows, use, t0_prior_ms);
    const double kv = use.separate_cache ? x[1] : x[0];
    return Constants{1 / x[0], 1 / kv, use.fit_t0 ? x.back() : t0_prior_ms};
  };
  for (const Columns use : {Columns{deep >= 3, true}, Columns{false, true}, Columns{deep >= 3, false}}) {
    const Constants c = solve(use);
    if (physical(c)) return c;
  }
  // Still faster than the bandwidth allows (the device's figure or the rows disagree): the
  // physical bound, all of it.
  Constants c = solve(Columns{false, false});
  c.efficiency = c.kv_efficiency = std::min(c.efficiency, 1.0);
  return c;
}

TEST(DecodeCalibration, EveryRuleIsItsFitAndKeepsItsRecordedError) {
  const std::vector<Row> rows = Rows();
  ASSERT_FALSE(rows.empty());
  std::vector<const DecodeRule*> seen;  // Ollama decodes by llama.cpp's table: fitted once
  for (const RuntimeProfile& runtime : RuntimeProfiles()) {
    if (std::find(seen.begin(), seen.end(), runtime.decode.data()) != seen.end()) continue;
    seen.push_back(runtime.decode.data());
    for (const DecodeRule& rule : runtime.decode) {
      std::vector<const Row*> mine;
      for (const Row& r : rows) {
        if (r.scenario.runtime == &runtime && r.scenario.device_count == 1 &&
            runtime.DecodeRuleFor(r.device, r.model.moe.has_value()) == &rule) {
          mine.push_back(&r);
        }
      }
      const std::string name = RuleName(runtime, rule);
      SCOPED_TRACE(name);
      EXPECT_GE(mine.size(), 3u) << "a rule needs three measurements or more";
      if (mine.size() < 3) continue;
      const Constants fit = Fit(mine, rule.t0_prior_ms);
      EXPECT_NEAR(rule.efficiency, fit.efficiency, 0.005) << "refit η " << fit.efficiency;
      EXPECT_NEAR(rule.kv_efficiency, fit.kv_efficiency, 0.005) << "refit η_kv " << fit.kv_efficiency;
      EXPECT_NEAR(rule.t0_ms_per_32_layers, fit.t0_ms, 0.05) << "refit t0 " << fit.t0_ms;
      std::vector<double> errors;
      for (const Row* r : mine) errors.push_back(Error(*r, rule));
      const DecodeError e = Summary(errors);
      DecodeRule refit = rule;
      refit.efficiency = fit.efficiency;
      refit.kv_efficiency = fit.kv_efficiency;
      refit.t0_ms_per_32_layers = fit.t0_ms;
      std::vector<double> refit_errors;
      for (const Row* r : mine) refit_errors.push_back(Error(*r, refit));
      const DecodeError f = Summary(refit_errors);
      for (std::size_t i = 0; i < mine.size(); ++i) {
        if (std::abs(refit_errors[i]) > 0.15) {
          const Row& r = *mine[i];
          std::printf("   worst %+6.1f %%  %s | %s | %s | %s | depth %lld | %.2f tok/s | KV share %.2f\n", 100 * refit_errors[i],
                      std::string(r.data.Find("id").String()).c_str(), r.device.name.c_str(), r.model.id.c_str(),
                      std::string(r.data.Find("format").String()).c_str(), static_cast<long long>(Int(r.data, "depth")),
                      r.data.Find("tok_s").Number(), r.cache_bytes / (r.weight_bytes + r.cache_bytes));
        }
      }
      std::printf("[decode fit] %-44s {%.3f, %.3f, %.2f, {%d, %.1f, %.1f, %.1f}}\n", name.c_str(), fit.efficiency,
                  fit.kv_efficiency, fit.t0_ms, f.points, f.median_pct, f.p90_pct, f.worst_pct);
      std::printf("[decode] %-44s n %3d  median %6.2f %%  p90 %6.2f %%  worst %6.2f %%\n", name.c_str(), e.points,
                  e.median_pct, e.p90_pct, e.worst_pct);
      EXPECT_EQ(rule.error.points, e.points);
      EXPECT_LE(e.median_pct, rule.error.median_pct + 0.05) << "the median got worse than recorded";
      EXPECT_NEAR(rule.error.median_pct, e.median_pct, 0.05);
      EXPECT_NEAR(rule.error.p90_pct, e.p90_pct, 0.05);
      EXPECT_NEAR(rule.error.worst_pct, e.worst_pct, 0.05);
    }
  }
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

// The bar: every profile with ten single-device rows or more stays within 10 % in the
// median over all of them.
TEST(DecodeCalibration, EveryWellMeasuredProfileIsWithinTenPercentInTheMedian) {
  const std::vector<Row> rows = Rows();
  std::map<std::string, std::vector<double>> by_profile;
  for (const Row& r : rows) {
    if (r.scenario.device_count != 1) continue;
    if (const DecodeRule* rule = r.scenario.runtime->DecodeRuleFor(r.device, r.model.moe.has_value())) {
      by_profile[std::string(r.scenario.runtime->id)].push_back(Error(r, *rule));
    }
  }
  for (const auto& [id, errors] : by_profile) {
    const DecodeError e = Summary(errors);
    std::printf("[decode] profile %-10s n %3d  median %5.1f %%  p90 %5.1f %%  worst %5.1f %%\n", id.c_str(), e.points,
                e.median_pct, e.p90_pct, e.worst_pct);
    if (e.points >= 10) EXPECT_LE(e.median_pct, 10.0) << id;
  }
}

// Several devices: a layer split (llama.cpp's default) is no faster than one device, plus a hop
// per extra device, refitted here as the mean of the measured runs' extra time; the error of
// every multi-device row is printed.
TEST(DecodeCalibration, ALayerSplitIsNoFasterThanOneDevice) {
  const std::vector<Row> rows = Rows();
  const RuntimeProfile& llamacpp = *FindRuntimeProfile("llamacpp");
  double extra_ms = 0;
  int layer_rows = 0;
  for (const Row& r : rows) {
    if (r.scenario.device_count == 1) continue;
    const DecodeRule* rule = r.scenario.runtime->DecodeRuleFor(r.device, r.model.moe.has_value());
    const std::string split(r.data.Find("split").IsString() ? r.data.Find("split").String() : "");
    if (rule == nullptr) continue;
    const double error = Error(r, *rule);
    std::printf("[decode] %d× %-28s %-8s %-14s %+6.1f %%\n", static_cast<int>(r.scenario.device_count),
                r.device.name.c_str(), split.c_str(), r.model.id.substr(0, 14).c_str(), 100 * error);
    if (r.scenario.runtime != &llamacpp || split != "layer") continue;
    Scenario one = r.scenario;
    one.device_count = 1;
    const double single = DecodeSeconds(one, *rule, r.weight_bytes, r.cache_bytes);
    extra_ms += (r.measured_seconds - single) * 1e3 / static_cast<double>(r.scenario.device_count - 1);
    ++layer_rows;
    EXPECT_GE(DecodeSeconds(r.scenario, *rule, r.weight_bytes, r.cache_bytes), single);  // never faster
  }
  ASSERT_GE(layer_rows, 3);
  const double hop = std::max(0.0, extra_ms / layer_rows);
  std::printf("[decode] layer split: %d rows, refit hop %.3f ms per extra device\n", layer_rows, hop);
  EXPECT_NEAR(llamacpp.multi_device_decode.hop_ms, hop, 0.005) << "refit hop " << hop;
}

}  // namespace
}  // namespace vramcalc
