// Two catalogs alike: every field of every model and device, in order (both written out through
// the same schema, json_output.cc), and the ladder and hardware-table lists.
#ifndef VRAMCALC_TESTS_CORE_CATALOG_EXPECT_H_
#define VRAMCALC_TESTS_CORE_CATALOG_EXPECT_H_

#include <gtest/gtest.h>

#include "json_output.h"
#include "vramcalc/catalog.h"

namespace vramcalc {

inline void ExpectSameCatalog(const Catalog& actual, const Catalog& expected) {
  ASSERT_EQ(actual.models.size(), expected.models.size());
  EXPECT_EQ(internal::ModelsArrayJson(actual), internal::ModelsArrayJson(expected));
  EXPECT_EQ(internal::DevicesArrayJson(actual), internal::DevicesArrayJson(expected));
  EXPECT_EQ(actual.recommendation_ladder, expected.recommendation_ladder);
  EXPECT_EQ(actual.hardware_table, expected.hardware_table);
}

}  // namespace vramcalc

#endif  // VRAMCALC_TESTS_CORE_CATALOG_EXPECT_H_
