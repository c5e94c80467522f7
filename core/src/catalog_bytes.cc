#include "catalog_bytes.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "schema.h"

namespace vramcalc::internal {
namespace {

// Counts and enum values may be negative in principle: zigzag, so small ones stay one byte.
uint64_t Zigzag(int64_t value) { return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63); }
int64_t Unzigzag(uint64_t value) { return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1); }

// Whole and within ±2^53, where every integer is a double; -0 keeps its sign bit as 8 bytes.
bool IsWhole(double value) {
  constexpr double kExact = 9007199254740992.0;  // 2^53
  return value >= -kExact && value <= kExact && value == static_cast<double>(static_cast<int64_t>(value)) &&
         !(value == 0 && std::signbit(value));
}

class ByteWriter {
 public:
  ByteWriter(std::string& out, Fields fields) : out_(out), fields_(fields) {}

  void Text(std::string_view, const std::string& value, unsigned flags) {
    if (!Selected(fields_, flags)) return;
    Varint(value.size());
    out_ += value;
  }
  // A whole number (most of the catalog's: parameter counts, layers, heads) as a varint of twice
  // its zigzag; anything else as a 1 and the double's 8 bytes.
  void Number(std::string_view, double value, unsigned) {
    if (IsWhole(value)) return Varint(Zigzag(static_cast<int64_t>(value)) << 1);
    Varint(1);
    char bytes[sizeof value];
    std::memcpy(bytes, &value, sizeof value);
    out_.append(bytes, sizeof bytes);
  }
  void Count(std::string_view, int64_t value, unsigned) { Varint(Zigzag(value)); }
  void Flag(std::string_view, bool value, unsigned) { out_ += value ? '\1' : '\0'; }
  template <typename E, typename Entry>
  void Enum(std::string_view, E value, Vocabulary<E, Entry>, unsigned) {
    Varint(Zigzag(static_cast<int64_t>(value)));
  }
  template <typename T>
  void Object(std::string_view, const std::optional<T>& value, unsigned) {
    Flag({}, value.has_value(), 0);
    if (value) VisitFields(*this, *value);
  }
  template <typename T>
  void Objects(std::string_view, const std::vector<T>& values, unsigned) {
    Varint(values.size());
    for (const T& value : values) VisitFields(*this, value);
  }
  void Texts(std::string_view, const std::vector<std::string>& values, unsigned) {
    Varint(values.size());
    for (const std::string& value : values) Text({}, value, 0);
  }

 private:
  void Varint(uint64_t value) {
    for (; value >= 0x80; value >>= 7) out_ += static_cast<char>(0x80 | (value & 0x7F));
    out_ += static_cast<char>(value);
  }

  std::string& out_;
  Fields fields_;
};

// Reads what ByteWriter wrote; past the end or on a value no vocabulary has, it stops reading
// (ok() is false) and leaves the rest at the structs' defaults.
class ByteReader {
 public:
  ByteReader(std::string_view bytes, Fields fields) : bytes_(bytes), fields_(fields) {}
  bool ok() const { return ok_; }
  bool AtEnd() const { return at_ == bytes_.size(); }

  void Text(std::string_view, std::string& out, unsigned flags) {
    if (!Selected(fields_, flags)) return;
    const std::size_t size = Length();
    out.assign(bytes_.data() + at_, size);
    at_ += size;
  }
  void Number(std::string_view, double& out, unsigned) {
    const uint64_t head = Varint();
    if ((head & 1) == 0) {
      out = static_cast<double>(Unzigzag(head >> 1));
      return;
    }
    if (head != 1 || bytes_.size() - at_ < sizeof out) return Stop();
    std::memcpy(&out, bytes_.data() + at_, sizeof out);
    at_ += sizeof out;
  }
  void Count(std::string_view, int64_t& out, unsigned) { out = Unzigzag(Varint()); }
  void Flag(std::string_view, bool& out, unsigned) { out = Varint() != 0; }
  template <typename E, typename Entry>
  void Enum(std::string_view, E& out, Vocabulary<E, Entry> vocabulary, unsigned) {
    out = static_cast<E>(Unzigzag(Varint()));
    if (vocabulary.EntryOf(out) == nullptr) Stop();
  }
  template <typename T>
  void Object(std::string_view, std::optional<T>& out, unsigned) {
    if (Varint() == 0) return;
    VisitFields(*this, out.emplace());
  }
  template <typename T>
  void Objects(std::string_view, std::vector<T>& out, unsigned) {
    out.resize(Length());  // each takes a byte at least: Length() is at most what is left
    for (T& value : out) VisitFields(*this, value);
  }
  void Texts(std::string_view, std::vector<std::string>& out, unsigned) {
    out.resize(Length());
    for (std::string& value : out) Text({}, value, 0);
  }

 private:
  void Stop() {
    ok_ = false;
    at_ = bytes_.size();
  }
  uint64_t Varint() {
    uint64_t value = 0;
    for (unsigned shift = 0; shift < 64 && at_ < bytes_.size(); shift += 7) {
      const auto byte = static_cast<unsigned char>(bytes_[at_++]);
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    Stop();
    return 0;
  }
  // A length: at most the bytes that are left.
  std::size_t Length() {
    const uint64_t length = Varint();
    if (length <= bytes_.size() - at_) return static_cast<std::size_t>(length);
    Stop();
    return 0;
  }

  std::string_view bytes_;
  Fields fields_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace

std::string CatalogBytes(const Catalog& catalog, Fields fields) {
  std::string bytes;
  ByteWriter writer(bytes, fields);
  VisitFields(writer, catalog);
  writer.Objects({}, catalog.models, 0);
  return bytes;
}

Result<Catalog> CatalogFromBytes(std::string_view bytes, Fields fields) {
  Catalog catalog;
  ByteReader reader(bytes, fields);
  VisitFields(reader, catalog);
  reader.Objects({}, catalog.models, 0);
  if (!reader.ok() || !reader.AtEnd()) {
    return Error{"invalid_catalog", "The compiled-in catalog's bytes are damaged.", "catalog"};
  }
  return catalog;
}

}  // namespace vramcalc::internal
