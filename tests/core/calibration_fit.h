// What the calibration tests share: a JSON file of tests/calibration read once, a row's
// scenario, the error summary the runtime profiles record (median, p90, worst of |predicted /
// measured − 1|) checked against the recorded one, the offload sets' split rule, and the normal
// equations of a small least-squares fit.
#ifndef VRAMCALC_TESTS_CORE_CALIBRATION_FIT_H_
#define VRAMCALC_TESTS_CORE_CALIBRATION_FIT_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "io/json_value.h"
#include "vramcalc/catalog.h"
#include "vramcalc/estimate.h"
#include "vramcalc/model_spec.h"
#include "vramcalc/runtime_profile.h"

namespace vramcalc {

// tests/calibration/<name>, parsed once per test program (null after a reported failure).
inline std::unique_ptr<json::Document> ReadCalibration(const std::string& name) {
  std::ifstream in(std::string(VRAMCALC_CALIBRATION_DIR) + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = json::Document::Parse(text.str());
  if (!parsed.ok()) ADD_FAILURE() << name << ": " << parsed.error().message;
  return parsed.ok() ? std::make_unique<json::Document>(std::move(parsed).value()) : nullptr;
}

inline int64_t Int(json::Value object, std::string_view key) { return object.Find(key).Integer(); }
// A decode or prefill rule's scope in words, for the tests' messages and printed tables.
template <typename Rule>
std::string RuleName(const RuntimeProfile& runtime, const Rule& rule) {
  return std::string(runtime.id) + " " + std::string(kPlatforms.Id(rule.platform)) + " " +
         std::string(rule.device_class ? kDeviceClasses.Id(*rule.device_class) : "any") +
         (rule.unified_memory == Tristate::kYes ? " unified" : rule.unified_memory == Tristate::kNo ? " discrete" : "") +
         (rule.from_bandwidth_gbps > 0 ? " ≥" + std::to_string(static_cast<int>(rule.from_bandwidth_gbps)) + " GB/s" : "") +
         (rule.from_compute_capability > 0 ? " family ≥" + std::to_string(static_cast<int>(rule.from_compute_capability)) : "") +
         (rule.moe == Tristate::kYes ? " MoE" : rule.moe == Tristate::kNo ? " dense" : "");
}
// Whether a row states `key` as false (absent, null or true: not).
inline bool StatesFalse(json::Value object, std::string_view key) {
  const json::Value value = object.Find(key);
  return value && value.IsBool() && !value.Bool();
}

// A model of a calibration file (decode.json, prefill.json): its catalog entry, or the shape it states.
inline ModelSpec ModelFrom(json::Value shape) {
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

// A row's scenario of catalog entries (its "model", "device", "format", "kv_dtype" and "gpus")
// under llama.cpp's profile, as the offload sets' rows give them; null where an id is unknown.
inline Scenario LlamaCppScenarioOf(json::Value row) {
  const Catalog& catalog = BuiltinCatalog().value();
  Scenario s;
  s.model = catalog.FindModel(row.Find("model").String());
  s.device = catalog.FindDevice(row.Find("device").String());
  s.runtime = FindRuntimeProfile("llamacpp");
  s.format = FindQuantFormat(row.Find("format").String());
  s.kv_dtype = FindKvDtype(row.Find("kv_dtype").String());
  s.device_count = row.Find("gpus").Integer();
  return s;
}

// The runtime profile of a calibration row's engine.
inline std::string_view ProfileOf(std::string_view engine) {
  if (engine == "llama.cpp") return "llamacpp";
  if (engine == "mlx") return "mlx";
  return engine;  // vllm, sglang
}

inline DecodeError Summary(std::vector<double> errors) {
  for (double& e : errors) e = std::abs(e) * 100;
  std::sort(errors.begin(), errors.end());
  const auto at = [&errors](double q) { return errors[static_cast<std::size_t>(q * (errors.size() - 1) + 0.5)]; };
  return DecodeError{static_cast<int>(errors.size()), at(0.5), at(0.9), errors.back()};
}

// Expects a computed error to be the recorded one: the same number of runs, and its median, p90
// and worst within `tolerance` percentage points (the tables hold two-decimal figures).
inline void ExpectSameError(const DecodeError& recorded, const DecodeError& computed, double tolerance) {
  EXPECT_EQ(recorded.points, computed.points);
  EXPECT_NEAR(Percent(recorded.median_pct), Percent(computed.median_pct), tolerance);
  EXPECT_NEAR(Percent(recorded.p90_pct), Percent(computed.p90_pct), tolerance);
  EXPECT_NEAR(Percent(recorded.worst_pct), Percent(computed.worst_pct), tolerance);
}

// Prints the errors on the fitted and the held-out rows and expects the recorded ones.
inline void ExpectRecordedErrors(const std::vector<double>& fitted, const std::vector<double>& held_out,
                                 const DecodeError& recorded_fit, const DecodeError& recorded_holdout) {
  for (const auto& [errors, recorded] : {std::pair{Summary(fitted), recorded_fit}, std::pair{Summary(held_out), recorded_holdout}}) {
    std::printf("%d runs: median %.2f %%, p90 %.2f %%, worst %.2f %%\n", errors.points, Percent(errors.median_pct),
                Percent(errors.p90_pct), Percent(errors.worst_pct));
    ExpectSameError(recorded, errors, 0.05);
  }
}

// The offload sets' split rule: the sources, ordered by their number of runs (largest first,
// ties by key), go alternately to the fit and the hold-out, the largest to the fit.
inline std::map<std::string, std::string> AlternatingSplit(const std::map<std::string, int>& runs) {
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [source, count] : runs) order.emplace_back(-count, source);
  std::sort(order.begin(), order.end());
  std::map<std::string, std::string> split;
  for (std::size_t i = 0; i < order.size(); ++i) split[order[i].second] = i % 2 == 0 ? "fit" : "holdout";
  return split;
}

// Solves the normal equations of `columns` (2 or 3) by Gaussian elimination.
inline std::vector<double> Solve(std::vector<std::vector<double>> m, std::vector<double> v) {
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = i + 1; k < n; ++k) {
      const double f = m[k][i] / m[i][i];
      for (std::size_t j = i; j < n; ++j) m[k][j] -= f * m[i][j];
      v[k] -= f * v[i];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double sum = v[i];
    for (std::size_t j = i + 1; j < n; ++j) sum -= m[i][j] * x[j];
    x[i] = sum / m[i][i];
  }
  return x;
}

}  // namespace vramcalc

#endif  // VRAMCALC_TESTS_CORE_CALIBRATION_FIT_H_
