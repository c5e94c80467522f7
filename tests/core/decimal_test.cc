// Reading numbers without strtod (core/src/decimal.h): every number's text reads as glibc's
// strtod reads it, the independent oracle (correctly rounded, half to even), on the fast path
// and off it: long significands, large and tiny exponents, subnormals, overflow, exact halves.
#include "decimal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace vramcalc {
namespace {

double Oracle(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

void ExpectSameAsStrtod(const std::string& text) {
  const double ours = ReadDecimal(text);
  const double theirs = Oracle(text);
  EXPECT_EQ(std::signbit(ours), std::signbit(theirs)) << text;
  EXPECT_EQ(ours, theirs) << text;
}

TEST(ReadDecimal, ReadsWhatStrtodReads) {
  // The catalog's and config.json's kinds of numbers, the fast path's edges, and its fallbacks.
  for (const char* text : {"0", "-0", "0.0", "-0.0", "1", "0.0195", "8.5", "4.85", "131072", "1e-06", "1E-6",
                           "1e+30", "0.1", "0.2", "0.3", "2.675", "1.005", "21.780937685966492",
                           "9007199254740992", "9007199254740993", "9007199254740993.0", "1e22", "1e23",
                           "1e-22", "1e-23", "123456789012345678", "1234567890123456789",
                           "12345678901234567890", "0.000000000000000000000000001", "1.7976931348623157e308",
                           "4.9e-324", "2.2250738585072014e-308", "1000000.0", "10000.000000000002",
                           "0.30000000000000004", "1e400", "-1e400", "1e-400", "500000000000000000000000.5",
                           "00012", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-324",
                           "9007199254740993e-5", "1.7976931348623158e308", "1.7976931348623159e308",
                           "2.2250738585072011e-308", "0.000000000000000000000000000000000000000001e330",
                           "7.038531e-26", "123456789e-330", "4503599627370496.5", "4503599627370497.5"}) {
    ExpectSameAsStrtod(text);
  }
  // 800 digits and beyond: a halfway case decided by a nonzero digit far out.
  ExpectSameAsStrtod("9007199254740993" + std::string(900, '0') + "1e-900");
  ExpectSameAsStrtod("9007199254740993" + std::string(900, '0') + "e-900");
}

TEST(ReadDecimal, TextThatIsNoNumberIsNaN) {
  for (const char* text : {"", "-", ".5", "1.", "1e", "1e+", "12x", "1.2.3", "--1", "+1", "1e5x", " 1"}) {
    EXPECT_TRUE(std::isnan(ReadDecimal(text))) << text;
  }
}

TEST(ReadDecimal, RandomNumbersReadAsStrtodReadsThem) {
  std::mt19937_64 random(20261202);
  std::uniform_int_distribution<int> digit_count(1, 22);
  std::uniform_int_distribution<int> digit(0, 9);
  std::uniform_int_distribution<int> exponent(-340, 320);
  std::uniform_int_distribution<int> shape(0, 3);
  int checked = 0;
  std::uniform_int_distribution<int> long_digits(20, 60);
  for (int i = 0; i < 50000; ++i) {
    std::string text = shape(random) == 0 ? "-" : "";
    const int digits = i % 5 == 0 ? long_digits(random) : digit_count(random);
    const int point = std::uniform_int_distribution<int>(0, digits)(random);
    for (int d = 0; d < digits; ++d) {
      if (d == point && d > 0) text += '.';
      text += static_cast<char>('0' + digit(random));
    }
    if (shape(random) == 1) text += "e" + std::to_string(exponent(random));
    ExpectSameAsStrtod(text);
    ++checked;
  }
  EXPECT_EQ(checked, 50000);
}

}  // namespace
}  // namespace vramcalc
