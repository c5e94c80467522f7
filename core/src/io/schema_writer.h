// Writes any struct of schema.h as an object through its VisitFields, with any writer of
// field_writer.h: the catalog's listings, the response's model section and its card section.
#ifndef VRAMCALC_SRC_IO_SCHEMA_WRITER_H_
#define VRAMCALC_SRC_IO_SCHEMA_WRITER_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/schema.h"

namespace vramcalc::internal {

template <typename W>
class SchemaWriter {
 public:
  explicit SchemaWriter(W& w, Fields fields = Fields::kAll) : w_(w), fields_(fields) {}

  template <typename T>
  void Write(const T& value) {
    w_.BeginObject();
    VisitFields(*this, value);
    w_.EndObject();
  }

  void Text(std::string_view key, const std::string& value, unsigned flags) {
    if (Shown(flags)) w_.Field(key, value);
  }
  void Number(std::string_view key, double value, unsigned flags) {
    if (Shown(flags)) w_.Field(key, value);
  }
  void Count(std::string_view key, int64_t value, unsigned flags) {
    if (Shown(flags)) w_.Field(key, value);
  }
  void Flag(std::string_view key, bool value, unsigned flags) {
    if (Shown(flags)) w_.Field(key, value);
  }
  template <typename E, typename Entry>
  void Enum(std::string_view key, E value, Vocabulary<E, Entry> vocabulary, unsigned flags) {
    if (Shown(flags)) w_.Field(key, vocabulary.Id(value));
  }
  template <typename T>
  void Object(std::string_view key, const std::optional<T>& value, unsigned flags) {
    if (!Shown(flags)) return;
    w_.Key(key);
    if (value) {
      Write(*value);
    } else {
      w_.Null();
    }
  }
  template <typename T>
  void Objects(std::string_view key, const std::vector<T>& values, unsigned flags) {
    if (!Shown(flags)) return;
    w_.Key(key);
    w_.BeginArray();
    for (const T& value : values) Write(value);
    w_.EndArray();
  }
  void Texts(std::string_view key, const std::vector<std::string>& values, unsigned flags) {
    if (Shown(flags)) w_.Field(key, values);
  }

 private:
  bool Shown(unsigned flags) const { return Selected(fields_, flags); }

  W& w_;
  Fields fields_;
};

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_IO_SCHEMA_WRITER_H_
