// The catalog's bytes (core/src/catalog_bytes.h), which vramcalc.wasm compiles in instead of
// the catalog's JSON: written and read through the same schema, checked against the catalog
// read from JSON, a layout worked out by hand, and damaged bytes.
#include <gtest/gtest.h>

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

TEST(CatalogBytes, ALayoutWorkedOutByHand) {
  // No models, one device, a ladder of one id, an empty table:
  //   devices: 1, then the device's fields in schema order: id "g" (1, 'g'), name "G" (1, 'G'),
  //   memory_gib 24.0 (8 bytes, IEEE 754 little-endian 0x4038000000000000), bandwidth_gbps 0.5
  //   (0x3FE0000000000000), class, vendor, platform (their enum values, zigzagged: 2 × value),
  //   unified_memory false (0), source "" (0); ladder: 1, "g"; table: 0; models: 0.
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
  const std::string expected = std::string("\x01" "\x01g" "\x01G", 5) +
                               std::string("\x00\x00\x00\x00\x00\x00\x38\x40", 8) +
                               std::string("\x00\x00\x00\x00\x00\x00\xE0\x3F", 8) + zigzag_class +
                               zigzag_vendor + zigzag_platform + std::string("\x00\x00", 2) +
                               std::string("\x01\x01g\x00\x00", 5);
  EXPECT_EQ(CatalogBytes(catalog), expected);
  const Result<Catalog> read = CatalogFromBytes(expected);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(internal::DevicesArrayJson(read.value()), internal::DevicesArrayJson(catalog));
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
  // A device class no vocabulary has: the first device's class set to 60 (zigzag 120, one byte).
  Catalog one;
  one.devices.push_back(Builtin().devices.front());
  std::string changed = CatalogBytes(one);
  const Device& device = one.devices.front();
  const std::size_t class_at = 1 + 1 + device.id.size() + 1 + device.name.size() + 16;
  ASSERT_EQ(changed[class_at], static_cast<char>(2 * static_cast<int>(device.device_class)));
  changed[class_at] = static_cast<char>(120);
  EXPECT_FALSE(CatalogFromBytes(changed).ok());
}

}  // namespace
}  // namespace vramcalc
