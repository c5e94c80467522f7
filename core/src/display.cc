#include "vramcalc/display.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace vramcalc {

std::string FormatFixed(double value, int decimals) {
  // printf prints the exact decimal expansion of the binary value when asked for enough
  // digits (a double below 1e21 with a fraction has at most 1074 fractional digits, but those
  // past the 60th never decide a half-up at up to 6 decimals for the magnitudes shown here).
  // Rounding that expansion half-up is what toFixed does.
  if (!std::isfinite(value)) return std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity");
  constexpr int kExactDigits = 60;
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "%.*f", kExactDigits, std::fabs(value));
  std::string digits(buffer);
  const std::size_t point = digits.find('.');
  const std::size_t kept_decimals = decimals > 0 ? static_cast<std::size_t>(decimals) : 0;
  std::string kept = digits.substr(0, point + (kept_decimals > 0 ? 1 + kept_decimals : 0));
  const char next = digits[point + 1 + kept_decimals];
  if (next >= '5') {
    // Carry from the last kept digit leftwards, skipping the point.
    int i = static_cast<int>(kept.size()) - 1;
    for (; i >= 0; --i) {
      if (kept[static_cast<std::size_t>(i)] == '.') continue;
      if (kept[static_cast<std::size_t>(i)] == '9') {
        kept[static_cast<std::size_t>(i)] = '0';
      } else {
        ++kept[static_cast<std::size_t>(i)];
        break;
      }
    }
    if (i < 0) kept.insert(kept.begin(), '1');
  }
  if (value < 0) kept.insert(kept.begin(), '-');  // as toFixed: (-0.0001).toFixed(2) is "-0.00"

  return kept;
}

std::string FormatGb(double gib) { return FormatFixed(gib, 2) + " GB"; }

double RoundHalfUp(double value, int decimals) {
  return std::strtod(FormatFixed(value, decimals).c_str(), nullptr);
}

std::string FormatGrouped(int64_t value) {
  const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  const std::string digits = std::to_string(magnitude);
  std::string grouped;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) grouped.push_back(',');
    grouped.push_back(digits[i]);
  }
  return value < 0 ? "-" + grouped : grouped;
}

std::string ContextLabel(int64_t tokens) {
  constexpr int64_t kKi = 1024;
  constexpr int64_t kMi = 1024 * 1024;
  if (tokens >= kMi && tokens % kMi == 0) return std::to_string(tokens / kMi) + "M";
  if (tokens >= kKi && tokens % kKi == 0) return std::to_string(tokens / kKi) + "K";
  return FormatGrouped(tokens);
}

std::string ParamsLabel(double params) {
  std::string text = FormatFixed(params / 1e9, 1);
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text + "B";
}

std::string FormatShare(double percent) {
  std::string text = FormatFixed(percent, 1);
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text;
}

}  // namespace vramcalc
