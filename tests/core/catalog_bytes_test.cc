// The catalog's bytes (core/src/catalog_bytes.h), which vramcalc.wasm compiles in instead of
// the catalog's JSON: written and read through the same schema, checked against the catalog
// read from JSON, a layout worked out by hand, and damaged bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "catalog_bytes.h"
#include "catalog_expect.h"
#include "json_output.h"
#include "vramcalc/catalog.h"

namespace vramcalc {
namespace {

using internal::CatalogBytes;
using internal::CatalogFromBytes;

const Catalog& Builtin() {
  const Result<Catalog>& builtin = BuiltinCatalog();
  EXPECT_TRUE(builtin.ok());
  return builtin.value();
}

TEST(CatalogBytes, ReadBackTheyAreTheCatalogReadFromJson) {
  // Every field of every model (its sources too: the native build keeps them) and device, in
  // order, as the JSON writer writes them.
  const Catalog& expected = Builtin();
  const Result<Catalog> read = CatalogFromBytes(CatalogBytes(expected));
  ASSERT_TRUE(read.ok()) << read.error().message;
  ExpectSameCatalog(read.value(), expected);
  EXPECT_FALSE(expected.models.front().sources.empty());
}

TEST(CatalogBytes, WithoutTheCardFieldsTheyAreTheCatalogLessItsCards) {
  // vramcalc.wasm's copy: each model's checkpoint, Ollama tag, its weights and release left out
  // (each a length byte and its text: every one is shorter than 128 bytes), read back as a
  // ModelSpec's defaults; the rest as in the JSON.
  const Catalog& full = Builtin();
  Catalog expected = full;
  const ModelSpec blank;
  std::size_t left_out = 0;
  for (ModelSpec& model : expected.models) {
    for (std::string ModelSpec::*card : {&ModelSpec::checkpoint, &ModelSpec::ollama_tag,
                                         &ModelSpec::ollama_tag_weights, &ModelSpec::release}) {
      ASSERT_LT((model.*card).size(), 128u) << model.id;
      left_out += 1 + (model.*card).size();
      model.*card = blank.*card;
    }
  }
  const std::string bytes = CatalogBytes(full, internal::Fields::kNotCard);
  EXPECT_EQ(bytes.size(), CatalogBytes(full).size() - left_out);
  const Result<Catalog> read = CatalogFromBytes(bytes, internal::Fields::kNotCard);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ExpectSameCatalog(read.value(), expected);
  EXPECT_EQ(full.FindModel("glm-4-32b-0414")->checkpoint, "THUDM/GLM-4-32B-0414");  // the reference page's
  // Read as if they held every field, they are damaged.
  EXPECT_FALSE(CatalogFromBytes(bytes).ok());
}

TEST(CatalogBytes, ALayoutWorkedOutByHand) {
  // No models, one device, a ladder of one id, an empty table:
  //   devices: 1, then the device's fields in schema order: id "g" (1, 'g'), name "G" (1, 'G'),
  //   memory_gib 24.0 (whole: zigzag 48, doubled 96 = 0x60), bandwidth_gbps 0.5 (not whole: 1,
  //   then IEEE 754 little-endian 0x3FE0000000000000), class, vendor, platform (their enum values,
  //   zigzagged: 2 × value), unified_memory false (0), source "" (0); ladder: 1, "g"; table: 0;
  //   models: 0.
  Catalog catalog;
  Device device;
  device.id = "g";
  device.name = "G";
  device.memory_gib = 24.0;
  device.bandwidth_gbps = 0.5;
  catalog.devices.push_back(device);
  catalog.recommendation_ladder = {"g"};
  const std::string zigzag_class(1, static_cast<char>(2 * static_cast<int>(device.device_class)));
  const std::string zigzag_vendor(1, static_cast<char>(2 * static_cast<int>(device.vendor)));
  const std::string zigzag_platform(1, static_cast<char>(2 * static_cast<int>(device.platform)));
  const std::string expected = std::string("\x01" "\x01g" "\x01G", 5) + std::string("\x60", 1) +
                               std::string("\x01\x00\x00\x00\x00\x00\x00\xE0\x3F", 9) + zigzag_class +
                               zigzag_vendor + zigzag_platform + std::string("\x00\x00", 2) +
                               std::string("\x01\x01g\x00\x00", 5);
  EXPECT_EQ(CatalogBytes(catalog), expected);
  const Result<Catalog> read = CatalogFromBytes(expected);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(internal::DevicesArrayJson(read.value()), internal::DevicesArrayJson(catalog));
}

TEST(CatalogBytes, NumbersComeBackBitForBit) {
  // Whole numbers take a varint (360: zigzag 720, doubled 1440 = 0xA0 0x0B; a 671B parameter
  // count 6); -0, fractions, and whole numbers past 2^53 keep their 8 bytes.
  const auto bytes_of = [](double memory_gib) {
    Catalog catalog;
    catalog.devices.emplace_back().memory_gib = memory_gib;
    return CatalogBytes(catalog);
  };
  const std::size_t base = bytes_of(0).size() - 1;  // every other field is the same
  EXPECT_EQ(bytes_of(360).substr(3, 2), std::string("\xA0\x0B", 2));
  EXPECT_EQ(bytes_of(671026419712.0).size(), base + 6);
  EXPECT_EQ(bytes_of(-3).size(), base + 1);
  for (const double wide : {-0.0, 0.1, 18014398509481984.0, 1e300}) EXPECT_EQ(bytes_of(wide).size(), base + 9) << wide;
  for (const double value : {0.0, -0.0, 24.0, -3.0, 0.1, 360.0, 671026419712.0, 9007199254740992.0,
                             -9007199254740992.0, 18014398509481984.0, 1e300}) {
    const Result<Catalog> read = CatalogFromBytes(bytes_of(value));
    ASSERT_TRUE(read.ok()) << value;
    const double back = read.value().devices.front().memory_gib;
    EXPECT_EQ(std::memcmp(&back, &value, sizeof value), 0) << value;
  }
}

TEST(CatalogBytes, DamagedBytesAreAnErrorNotACatalog) {
  const std::string bytes = CatalogBytes(Builtin());
  // Cut anywhere (every 61st length, and before the last byte), or one byte too many.
  std::vector<std::size_t> cuts;
  for (std::size_t size = 0; size < bytes.size(); size += 61) cuts.push_back(size);
  cuts.push_back(bytes.size() - 1);
  for (const std::size_t size : cuts) {
    const Result<Catalog> read = CatalogFromBytes(std::string_view(bytes).substr(0, size));
    ASSERT_FALSE(read.ok()) << "cut at " << size << " of " << bytes.size();
    EXPECT_EQ(read.error().field, "catalog");
  }
  EXPECT_FALSE(CatalogFromBytes(bytes + '\0').ok());
  // A device class no vocabulary has: the device's class set to 60 (zigzag 120, one byte), after
  // the count, "g", "G" and two whole numbers of one byte each.
  Catalog one;
  Device& device = one.devices.emplace_back();
  device.id = "g";
  device.name = "G";
  device.memory_gib = 24;
  device.bandwidth_gbps = 1;
  std::string changed = CatalogBytes(one);
  const std::size_t class_at = 1 + 2 + 2 + 2;
  ASSERT_EQ(changed[class_at], static_cast<char>(2 * static_cast<int>(device.device_class)));
  changed[class_at] = static_cast<char>(120);
  EXPECT_FALSE(CatalogFromBytes(changed).ok());
  // A number's head that is odd but not 1 (neither a whole number nor the 8-byte marker).
  std::string odd_head = CatalogBytes(one);
  odd_head[5] = '\x03';
  EXPECT_FALSE(CatalogFromBytes(odd_head).ok());
}

}  // namespace
}  // namespace vramcalc
