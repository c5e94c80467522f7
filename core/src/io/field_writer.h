// What every writer of the core's answers shares (response_writer.h writes through it): a
// member as a key and its value, an array of objects, an array of strings. A writer W derives
// from FieldWriter<W> and has the primitives:
//   BeginObject() EndObject() BeginArray() EndArray() Key(std::string_view) Null()
//   Value(std::string_view) Value(double) Value(int64_t) Value(bool)
//   Numbers(key, const std::vector<double>&), Numbers(key, const std::vector<int64_t>&)
//                                   a member that is an array of numbers, written at once
// Two writers exist: JsonWriter (json_writer.h: JSON text, for the CLI and the tests) and the
// wasm modules' ValWriter (wasm/val_writer.h: JavaScript objects, through Embind).
#ifndef VRAMCALC_SRC_IO_FIELD_WRITER_H_
#define VRAMCALC_SRC_IO_FIELD_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace vramcalc::internal {

template <typename W>
class FieldWriter {
 public:
  template <typename T>
  void Field(std::string_view key, const T& value) {
    self().Key(key);
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>) {
      self().Value(std::string_view(value));
    } else if constexpr (std::is_same_v<T, bool>) {
      self().Value(value);
    } else if constexpr (std::is_integral_v<T>) {
      self().Value(static_cast<int64_t>(value));
    } else {
      self().Value(static_cast<double>(value));
    }
  }
  void Field(std::string_view key, const char* text) { Field(key, std::string_view(text)); }
  void Field(std::string_view key, const std::vector<std::string>& values) {
    self().Key(key);
    self().BeginArray();
    for (const std::string& value : values) self().Value(std::string_view(value));
    self().EndArray();
  }
  void Field(std::string_view key, const std::vector<double>& values) {
    self().Key(key);
    self().BeginArray();
    for (const double value : values) self().Value(value);
    self().EndArray();
  }
  // `key`: an array of one object per item, whose members `write(item)` writes.
  template <typename Items, typename Write>
  void Objects(std::string_view key, const Items& items, Write write) {
    self().Key(key);
    self().BeginArray();
    for (const auto& item : items) {
      self().BeginObject();
      write(item);
      self().EndObject();
    }
    self().EndArray();
  }

 private:
  W& self() { return static_cast<W&>(*this); }
};

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_IO_FIELD_WRITER_H_
