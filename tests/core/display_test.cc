// Display rounding, estimation model section 0: half-up on the binary value, as JavaScript's
// Number.prototype.toFixed. Expected strings are what toFixed returns in a JS console.
#include "vramcalc/display.h"

#include <gtest/gtest.h>

namespace vramcalc {
namespace {

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

TEST(RoundHalfUp, ReadsBackTheDisplayedValue) {
  EXPECT_DOUBLE_EQ(RoundHalfUp(82.95, 1), 83.0);  // 82.95 is 82.9500000000000028...
  EXPECT_DOUBLE_EQ(RoundHalfUp(8.751, 1), 8.8);
}

TEST(FormatGrouped, CommasBetweenThousands) {
  EXPECT_EQ(FormatGrouped(61544), "61,544");
  EXPECT_EQ(FormatGrouped(151552), "151,552");
  EXPECT_EQ(FormatGrouped(999), "999");
  EXPECT_EQ(FormatGrouped(1000000), "1,000,000");
  EXPECT_EQ(FormatGrouped(0), "0");
  EXPECT_EQ(FormatGrouped(-1234), "-1,234");
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
