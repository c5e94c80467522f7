// Display rounding, estimation model section 0: half-up on the binary value, as JavaScript's
// Number.prototype.toFixed. Expected strings are what toFixed returns in a JS console.
#include "vramcalc/display.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ios>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace vramcalc {
namespace {

// An independent oracle: glibc's printf writes a double's exact decimal expansion when asked
// for enough digits (1,100 covers the 1,074 fractional bits of the smallest subnormal); that
// expansion rounded half-up by hand is toFixed's answer.
std::string ToFixedOracle(double value, int decimals) {
  std::vector<char> buffer(1500);
  std::snprintf(buffer.data(), buffer.size(), "%.1100f", std::fabs(value));
  std::string text(buffer.data());
  const std::size_t point = text.find('.');
  std::string kept = text.substr(0, decimals > 0 ? point + 1 + static_cast<std::size_t>(decimals) : point);
  if (text[point + 1 + static_cast<std::size_t>(decimals)] >= '5') {
    int i = static_cast<int>(kept.size()) - 1;
    for (; i >= 0; --i) {
      char& digit = kept[static_cast<std::size_t>(i)];
      if (digit == '.') continue;
      if (digit != '9') {
        ++digit;
        break;
      }
      digit = '0';
    }
    if (i < 0) kept.insert(kept.begin(), '1');
  }
  return value < 0 ? "-" + kept : kept;
}

TEST(FormatFixed, EqualsTheExactExpansionRoundedHalfUp) {
  std::mt19937_64 random(20261130);
  std::uniform_real_distribution<double> log10_magnitude(-8.0, 22.0);
  std::uniform_int_distribution<int> places(0, 6);
  int checked = 0;
  for (int i = 0; i < 20000; ++i) {
    double value = std::pow(10.0, log10_magnitude(random));
    if (i % 3 == 0) value = std::round(value * 1000.0) / 1000.0;  // near the ties a display meets
    if (i % 7 == 0) value = -value;
    const int d = places(random);
    ASSERT_EQ(FormatFixed(value, d), ToFixedOracle(value, d)) << std::hexfloat << value << " at " << d;
    ++checked;
  }
  // Exact binary ties round up; the extremes of the double range expand exactly.
  for (const double value : {0.5, 1.5, 2.5, 0.125, 0.375, 1e300, 4.9e-324, 1.7976931348623157e308, 0.0}) {
    for (int d = 0; d <= 6; ++d) EXPECT_EQ(FormatFixed(value, d), ToFixedOracle(value, d)) << value << " at " << d;
  }
  EXPECT_EQ(checked, 20000);
}

TEST(FormatFixed, MatchesToFixed) {
  EXPECT_EQ(FormatFixed(21.780937685966492, 2), "21.78");
  EXPECT_EQ(FormatFixed(0.125, 2), "0.13");   // exact binary tie rounds up: (0.125).toFixed(2)
  EXPECT_EQ(FormatFixed(1.005, 2), "1.00");   // 1.005 is 1.00499999999999989...: "1.00"
  EXPECT_EQ(FormatFixed(2.5, 0), "3");
  EXPECT_EQ(FormatFixed(90.75390702486038, 0), "91");
  EXPECT_EQ(FormatFixed(99.996, 2), "100.00");
  EXPECT_EQ(FormatFixed(9.95, 1), "9.9");     // 9.95 is 9.949999999999999289...
  EXPECT_EQ(FormatFixed(16.0, 2), "16.00");
  EXPECT_EQ(FormatFixed(0.0, 1), "0.0");
  EXPECT_EQ(FormatFixed(-0.0001, 2), "-0.00");  // (-0.0001).toFixed(2)
  EXPECT_EQ(FormatFixed(-1.25, 1), "-1.3");
}

TEST(RoundPercentHalfUp, IsTheOraclesTextReadBackForShares) {
  // The shares' rounding (evaluate.cc), without a decimal reader: the same oracle at 0.1, over
  // every share there is and well beyond.
  std::mt19937_64 random(20261202);
  std::uniform_real_distribution<double> percent(-150.0, 150.0);
  for (int i = 0; i < 20000; ++i) {
    double value = percent(random);
    if (i % 3 == 0) value = std::round(value * 100.0) / 100.0;  // halves: 82.95, 8.05 …
    ASSERT_EQ(RoundPercentHalfUp(value), std::strtod(ToFixedOracle(value, 1).c_str(), nullptr)) << std::hexfloat << value;
  }
  for (const double value : {0.0, 100.0, 99.95, 0.05, 123456.75, -999999.95}) {
    EXPECT_EQ(RoundPercentHalfUp(value), std::strtod(ToFixedOracle(value, 1).c_str(), nullptr)) << value;
  }
  EXPECT_EQ(RoundPercentHalfUp(2e6), 1e6);  // beyond kMaxPercent: clamped
  EXPECT_FALSE(std::signbit(RoundPercentHalfUp(-0.0)));
  EXPECT_TRUE(std::signbit(RoundPercentHalfUp(-0.01)));
}

TEST(FormatGrouped, CommasBetweenThousands) {
  EXPECT_EQ(FormatGrouped(61544), "61,544");
  EXPECT_EQ(FormatGrouped(151552), "151,552");
  EXPECT_EQ(FormatGrouped(999), "999");
  EXPECT_EQ(FormatGrouped(1000000), "1,000,000");
  EXPECT_EQ(FormatGrouped(0), "0");
  EXPECT_EQ(FormatGrouped(-1234), "-1,234");
}

TEST(FormatSeconds, AsThePageWritesThem) {
  // web/js/duration.js writes the same (tests/web/fits.test.mjs compares the two).
  const std::pair<double, const char*> cases[] = {{0.517, "0.52 s"},     {9.994, "9.99 s"},       {61.25, "61.3 s"},
                                                  {125.4, "2 min 5 s"}, {90061, "1,501 min 1 s"}, {0, "\u2014"},
                                                  {-1, "\u2014"}};
  for (const auto& [seconds, text] : cases) EXPECT_EQ(FormatSeconds(seconds), text) << seconds;
}

TEST(ContextLabel, BinaryThousands) {
  EXPECT_EQ(ContextLabel(8192), "8K");
  EXPECT_EQ(ContextLabel(32768), "32K");
  EXPECT_EQ(ContextLabel(131072), "128K");
  EXPECT_EQ(ContextLabel(1048576), "1M");
  EXPECT_EQ(ContextLabel(50000), "50,000");
  EXPECT_EQ(ContextLabel(512), "512");
}

TEST(ParamsLabel, BillionsWithoutTrailingZero) {
  EXPECT_EQ(ParamsLabel(32e9), "32B");
  EXPECT_EQ(ParamsLabel(9400279040), "9.4B");
  EXPECT_EQ(ParamsLabel(0.6e9), "0.6B");
  EXPECT_EQ(ParamsLabel(671e9), "671B");
}

TEST(FormatShare, DropsTrailingZero) {
  EXPECT_EQ(FormatShare(83.0), "83");
  EXPECT_EQ(FormatShare(8.8), "8.8");
  EXPECT_EQ(FormatShare(8.2), "8.2");
}

}  // namespace
}  // namespace vramcalc
