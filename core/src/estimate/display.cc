#include "vramcalc/display.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace vramcalc {

namespace {

__extension__ typedef unsigned __int128 Wide;  // GCC and Clang; __extension__: not ISO C++

// 10^n for n in 0..kMaxDecimals, exactly.
constexpr int kMaxDecimals = 18;
constexpr uint64_t Pow10(int n) { return n == 0 ? 1 : 10 * Pow10(n - 1); }

// |value| as mantissa × 2^exponent, the mantissa an integer below 2^53 (exact for every double).
struct Binary {
  uint64_t mantissa;
  int exponent;
};
Binary Decompose(double magnitude) {
  int exponent = 0;
  const double fraction = std::frexp(magnitude, &exponent);  // [0.5, 1) × 2^exponent
  return {static_cast<uint64_t>(std::ldexp(fraction, 53)), exponent - 53};
}

// The decimal digits of a 128-bit integer.
std::string WideDigits(Wide n) {
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  } while (n != 0);
  return {digits.rbegin(), digits.rend()};
}

// The decimal digits of mantissa × 2^exponent for exponent >= 0 (up to 2^1024), in base-1e9 limbs.
std::string IntegerDigits(Binary b) {
  constexpr uint32_t kBase = 1000000000;
  std::vector<uint32_t> limbs{static_cast<uint32_t>(b.mantissa % kBase), static_cast<uint32_t>(b.mantissa / kBase % kBase),
                              static_cast<uint32_t>(b.mantissa / kBase / kBase)};
  for (int i = 0; i < b.exponent; ++i) {
    uint32_t carry = 0;
    for (uint32_t& limb : limbs) {
      const uint64_t doubled = uint64_t{limb} * 2 + carry;
      limb = static_cast<uint32_t>(doubled % kBase);
      carry = static_cast<uint32_t>(doubled / kBase);
    }
    if (carry != 0) limbs.push_back(carry);
  }
  while (limbs.size() > 1 && limbs.back() == 0) limbs.pop_back();
  std::string digits = std::to_string(limbs.back());
  for (auto limb = limbs.rbegin() + 1; limb != limbs.rend(); ++limb) {
    const std::string part = std::to_string(*limb);
    digits.append(9 - part.size(), '0').append(part);
  }
  return digits;
}

// round(|value| × 10^places), half-up on the exact binary value (places <= kMaxDecimals), for
// |value| < 2^63; the exact integer needs at most 113 bits below that.
Wide ScaledUnits(Binary b, int places) {
  const Wide scaled = Wide{b.mantissa} * Pow10(places);
  if (b.exponent >= 0) return scaled << b.exponent;
  const int shift = -b.exponent;
  if (shift > 113) return 0;  // below a half unit: scaled < 2^113 <= 2^(shift - 1)
  const Wide units = scaled >> shift;
  const Wide rest = scaled - (units << shift);
  return rest >= (Wide{1} << (shift - 1)) ? units + 1 : units;
}

}  // namespace

std::string FormatFixed(double value, int decimals) {
  // Exact integer arithmetic on the binary value, rounded half-up: what toFixed does (without
  // printf's long double, which wasm emulates in software at microseconds per call).
  if (!std::isfinite(value)) return std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity");
  const int places = std::clamp(decimals, 0, kMaxDecimals);
  const Binary b = Decompose(std::fabs(value));
  std::string digits;
  if (std::fabs(value) >= 0x1p63) {
    digits = IntegerDigits(b) + std::string(static_cast<std::size_t>(places), '0');  // no fraction
  } else {
    digits = WideDigits(ScaledUnits(b, places));
  }
  const auto point = static_cast<std::size_t>(places);
  if (digits.size() <= point) digits.insert(0, point + 1 - digits.size(), '0');
  if (point > 0) digits.insert(digits.size() - point, 1, '.');
  if (value < 0) digits.insert(digits.begin(), '-');  // as toFixed: (-0.0001).toFixed(2) is "-0.00"
  return digits;
}

std::string FormatGb(double gib) { return FormatFixed(gib, 2) + " GB"; }

std::string FormatSeconds(double seconds) {
  if (!(seconds > 0)) return "\u2014";
  if (seconds < 10) return FormatFixed(seconds, 2) + " s";
  if (seconds < 120) return FormatFixed(seconds, 1) + " s";
  return FormatGrouped(static_cast<int64_t>(std::floor(seconds / 60))) + " min " +
         FormatGrouped(static_cast<int64_t>(std::round(std::fmod(seconds, 60)))) + " s";
}

namespace {

// units / 10^places with the sign of `value`, for units below 2^53: both exact, so the one
// division is the correctly rounded value of the decimal FormatFixed writes (what reading that
// text back gives).
double FromUnits(uint64_t units, int places, double value) {
  const double rounded = static_cast<double>(units) / static_cast<double>(Pow10(places));
  return value < 0 ? -rounded : rounded;  // -0.0 reads back as "0.00": 0
}

// ScaledUnits(b, 1) in 64 bits, for a magnitude below 2^52 (its exponent is negative): ten times
// a 53-bit mantissa stays below 2^57.
uint64_t TenthsHalfUp(Binary b) {
  const uint64_t scaled = b.mantissa * 10;
  const int shift = -b.exponent;
  if (shift >= 58) return 0;  // below half a unit: scaled < 2^57 <= 2^(shift - 1)
  const uint64_t units = scaled >> shift;
  const uint64_t rest = scaled - (units << shift);
  return rest >= (uint64_t{1} << (shift - 1)) ? units + 1 : units;
}

}  // namespace

double RoundPercentHalfUp(double percent) {
  if (!std::isfinite(percent)) return percent;
  const double value = std::clamp(percent, -kMaxPercent, kMaxPercent);
  return FromUnits(TenthsHalfUp(Decompose(std::fabs(value))), 1, value);
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

std::string ShellWord(std::string_view text, bool slashes) {
  std::string word;
  for (const char c : text) {
    const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '_' || (c == '-' && !word.empty() && word.back() != '-') || (slashes && c == '/');
    if (kept) {
      word.push_back(c);
    } else if (!word.empty() && word.back() != '-') {
      word.push_back('-');
    }
  }
  while (word.ends_with('-')) word.pop_back();
  return word.empty() ? "model" : word;
}

}  // namespace vramcalc
