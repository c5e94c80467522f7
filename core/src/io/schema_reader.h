// Reads catalog JSON (json_value.h) into the structs of schema.h through their VisitFields. Every
// problem becomes an Error with code "invalid_catalog" whose field is the path to the value,
// e.g. "models[glm-4-9b-0414].head_dim" or "models[m].layer_groups[0].kind"; keys starting with
// "_" are notes for people and are skipped.
#ifndef VRAMCALC_SRC_IO_SCHEMA_READER_H_
#define VRAMCALC_SRC_IO_SCHEMA_READER_H_

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/json_value.h"
#include "model/schema.h"
#include "vramcalc/display.h"

namespace vramcalc::internal {

class SchemaReader {
 public:
  // Reads `object` (at `path`, for messages) into `out`; the first problem goes to `error`.
  // Its fields with any of `relaxed` among their flags may be left out or empty (a model
  // description's card fields, kCardField: where to get the model).
  template <typename T>
  static void Read(json::Value object, const std::string& path, T& out, std::optional<Error>& error,
                   unsigned relaxed = 0) {
    if (!object.IsObject()) return Fail(error, path, "must be a JSON object");
    SchemaReader reader(object, path, error, relaxed);
    VisitFields(reader, out);
    reader.RejectUnknown();
  }

  // An array of objects at `path`, each element named by its "id" when it has one:
  // "models[glm-4-9b-0414]", else by its index: "sources[2]".
  template <typename T>
  static void ReadArray(json::Value array, const std::string& path, std::vector<T>& out,
                        std::optional<Error>& error) {
    if (!array.IsArray()) return Fail(error, path, "must be an array");
    std::size_t index = 0;
    for (const json::Value element : array.Children()) {
      const json::Value id = element.Find("id");
      const std::string name = id && id.IsString() ? std::string(id.String()) : std::to_string(index);
      Read(element, path + "[" + name + "]", out.emplace_back(), error);
      if (error) return;
      ++index;
    }
  }

  static void Fail(std::optional<Error>& error, const std::string& field, const std::string& what) {
    if (!error) error = Error{"invalid_catalog", field + " " + what + ".", field};
  }

  void Text(std::string_view key, std::string& out, unsigned flags) {
    if (flags & relaxed_) flags |= kOptional | kMayBeEmpty;
    const json::Value value = Member(key, flags);
    if (!value) return;
    if (!value.IsString()) return Fail(key, "must be a string, not " + std::string(value.TypeName()));
    if (value.String().empty() && !(flags & kMayBeEmpty)) return Fail(key, "must not be empty");
    out = std::string(value.String());
  }

  void Number(std::string_view key, double& out, unsigned flags) {
    const json::Value value = Member(key, flags);
    if (!value) return;
    if (!value.IsNumber()) return Fail(key, "must be a number, not " + std::string(value.TypeName()));
    if (!(value.Number() > 0 || (value.Number() == 0 && (flags & kMayBeZero)))) {
      return Fail(key, (flags & kMayBeZero) ? "must be zero or a positive number" : "must be a positive number");
    }
    out = value.Number();
  }

  void Count(std::string_view key, int64_t& out, unsigned flags) {
    const json::Value value = Member(key, flags);
    if (!value) return;
    if (!value.IsInteger()) return Fail(key, "must be an integer, not " + std::string(value.TypeName()));
    if (value.Integer() < 0 || (value.Integer() == 0 && !(flags & kMayBeZero))) {
      return Fail(key, "must be positive");
    }
    out = value.Integer();
  }

  void Flag(std::string_view key, bool& out, unsigned flags) {
    const json::Value value = Member(key, flags);
    if (!value) return;
    if (!value.IsBool()) return Fail(key, "must be true or false, not " + std::string(value.TypeName()));
    out = value.Bool();
  }

  template <typename E, typename Entry>
  void Enum(std::string_view key, E& out, Vocabulary<E, Entry> vocabulary, unsigned flags) {
    std::string id;
    Text(key, id, flags);
    if (id.empty() || error_) return;
    const std::optional<E> found = vocabulary.Find(id);
    if (!found) return Fail(key, "must be " + JoinIds(vocabulary));
    out = *found;
  }

  template <typename T>
  void Object(std::string_view key, std::optional<T>& out, unsigned flags) {
    const json::Value value = Member(key, flags);
    if (!value || value.IsNull()) return;
    Read(value, Field(key), out.emplace(), error_);
  }

  // A list given empty is an error unless the field may be empty (an optional list may be
  // left out instead).
  template <typename T>
  void Objects(std::string_view key, std::vector<T>& out, unsigned flags) {
    const json::Value value = Member(key, flags);
    if (!value) return;
    if (value.IsArray() && value.size() == 0 && (flags & kMayBeEmpty) == 0) return Fail(key, "must be a non-empty array");
    ReadArray(value, Field(key), out, error_);
  }

  void Texts(std::string_view key, std::vector<std::string>& out, unsigned flags) {
    const json::Value value = Member(key, flags);
    if (!value) return;
    if (!value.IsArray() || value.size() == 0) return Fail(key, "must be a non-empty array");
    for (const json::Value item : value.Children()) {
      if (!item.IsString()) return Fail(key, "must hold strings");
      out.emplace_back(item.String());
    }
  }

 private:
  SchemaReader(json::Value object, std::string path, std::optional<Error>& error, unsigned relaxed)
      : object_(object), path_(std::move(path)), error_(error), relaxed_(relaxed) {}

  // After every field was read: a key the schema did not ask for (and that does not start
  // with "_") is an error.
  void RejectUnknown() {
    for (const json::Value member : object_.Children()) {
      const std::string_view key = member.Key();
      if (key.starts_with("_") || std::find(asked_.begin(), asked_.end(), key) != asked_.end()) continue;
      return Fail(error_, Field(Clipped(key, 64)), "is not a known field");
    }
  }

  // The member `key`, or absent: when there is none (an error unless optional) or an earlier
  // field failed.
  json::Value Member(std::string_view key, unsigned flags) {
    asked_.push_back(key);
    if (error_) return json::Value();
    const json::Value value = object_.Find(key);
    if (!value && !(flags & kOptional)) Fail(key, "is missing");
    return value;
  }

  std::string Field(std::string_view key) const { return path_ + "." + std::string(key); }
  void Fail(std::string_view key, const std::string& what) { Fail(error_, Field(key), what); }

  json::Value object_;
  std::string path_;
  std::optional<Error>& error_;
  unsigned relaxed_;
  std::vector<std::string_view> asked_;  // the keys the schema asked for
};

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_IO_SCHEMA_READER_H_
