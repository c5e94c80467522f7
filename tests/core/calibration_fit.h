// What the calibration tests share: a JSON file of tests/calibration read once, the error
// summary the runtime profiles record (median, p90, worst of |predicted / measured − 1|), and
// the normal equations of a small least-squares fit.
#ifndef VRAMCALC_TESTS_CORE_CALIBRATION_FIT_H_
#define VRAMCALC_TESTS_CORE_CALIBRATION_FIT_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "io/json_value.h"
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

inline DecodeError Summary(std::vector<double> errors) {
  for (double& e : errors) e = std::abs(e) * 100;
  std::sort(errors.begin(), errors.end());
  const auto at = [&errors](double q) { return errors[static_cast<std::size_t>(q * (errors.size() - 1) + 0.5)]; };
  return DecodeError{static_cast<int>(errors.size()), at(0.5), at(0.9), errors.back()};
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
