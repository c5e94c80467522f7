// Every JSON text the core reads (requests, config.json files, catalog files, UI string tables)
// is parsed by nlohmann/json (json_value.cc: its SAX parser with a handler of ours that builds
// an nlohmann::ordered_json) and read through Value, a read-only view that answers the questions
// the core's readers ask (request_reader.h, hf_config.cc, schema_reader.h).
//
// nlohmann's parser is RFC 8259 strict on its own: no comments, trailing commas, NaN, leading
// zeros, control characters, invalid UTF-8 or lone surrogates, nor numbers beyond a double. The
// handler adds what RFC 8259 leaves to the reader: duplicate keys are refused and nesting is
// limited. A failure says where reading stopped: the byte, and the path of object keys down to
// the value being read, so that a message can name the field. Nothing here throws.
#ifndef VRAMCALC_SRC_IO_JSON_VALUE_H_
#define VRAMCALC_SRC_IO_JSON_VALUE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "vramcalc/result.h"

namespace vramcalc::json {

enum class Type : uint8_t { kNull, kBool, kInteger, kFloat, kString, kArray, kObject };

// "a number", "a string", "true or false", "null", "an array" or "an object", for messages.
constexpr std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kInteger:
    case Type::kFloat: return "a number";
    case Type::kString: return "a string";
    case Type::kBool: return "true or false";
    case Type::kNull: return "null";
    case Type::kArray: return "an array";
    case Type::kObject: return "an object";
  }
  return "null";
}

// What every value type the request's readers read (this file's Value, and the wasm modules'
// wasm/val_value.h) says of its type, from its type().
template <typename V>
class Typed {
 public:
  bool IsObject() const { return type() == Type::kObject; }
  bool IsArray() const { return type() == Type::kArray; }
  bool IsString() const { return type() == Type::kString; }
  bool IsNumber() const { return type() == Type::kInteger || type() == Type::kFloat; }
  // A whole number within int64 as written (32768, not 32768.0 or 1e3).
  bool IsInteger() const { return type() == Type::kInteger; }
  bool IsNull() const { return type() == Type::kNull; }
  bool IsBool() const { return type() == Type::kBool; }
  std::string_view TypeName() const { return json::TypeName(type()); }

 private:
  Type type() const { return static_cast<const V&>(*this).type(); }
};

// Why a text is not JSON, as far as a message to a person needs to know.
enum class Problem : uint8_t {
  kSyntax,        // anything else
  kWord,          // reading stopped at an unquoted word: NaN, Infinity, undefined …
  kNotUtf8,       // text that is not UTF-8, or a lone surrogate
  kTooLarge,      // a number beyond a double's range (1e400)
  kTooDeep,       // nesting deeper than the limit
  kDuplicateKey,  // an object names a key twice
};
struct ParseFailure {
  Problem problem = Problem::kSyntax;
  // Where nlohmann's parser stopped (bytes read); 0 for a problem the handler found (kTooDeep,
  // kDuplicateKey), which `key` describes instead.
  std::size_t byte = 0;
  // The keys of the enclosing objects down to the value being read ("context",
  // "model.num_hidden_layers"), up to the first array; empty outside any member's value.
  std::string path;
  std::string key;  // kDuplicateKey: the key named twice (at most 64 bytes)
};

// A value inside a parsed Document; valid while the document lives. A default Value is
// "absent" (false): its type() is kNull, and its other accessors must not be used.
class Value : public Typed<Value> {
 public:
  // The numbers written with a fraction or an exponent, as written, by their value's address.
  using Written = std::vector<std::pair<const nlohmann::ordered_json*, std::string>>;

  Value() = default;
  explicit operator bool() const { return json_ != nullptr; }

  Type type() const;

  std::string_view String() const;  // strings (unescaped UTF-8)
  double Number() const;            // integers and floats
  int64_t Integer() const;          // integers
  bool Bool() const;
  // The value as JSON, for messages: a fraction or exponent as written in the text (1e308), other
  // numbers, strings and containers as JSON.stringify writes them.
  std::string Source() const;

  std::size_t size() const;  // elements of an array, members of an object
  // An object's member by key; absent (false) when there is none or this is no object.
  Value Find(std::string_view key) const;
  // The member's key when this value is an object's member, else empty.
  std::string_view Key() const { return key_ == nullptr ? std::string_view() : std::string_view(*key_); }

  class Iterator;
  // The elements of an array or the members of an object, in the text's order:
  // `for (json::Value element : array.Children())`; empty for anything else.
  struct Range {
    const nlohmann::ordered_json* container;
    const Written* written;
    Iterator begin() const;
    Iterator end() const;
  };
  Range Children() const { return Range{IsArray() || IsObject() ? json_ : nullptr, written_}; }

  Value(const nlohmann::ordered_json* json, const std::string* key, const Written* written)
      : json_(json), key_(key), written_(written) {}

 private:
  const nlohmann::ordered_json* json_ = nullptr;
  const std::string* key_ = nullptr;
  const Written* written_ = nullptr;  // the document's
};

class Value::Iterator {
 public:
  Iterator(const nlohmann::ordered_json* container, const Written* written, std::size_t index)
      : container_(container), written_(written), index_(index) {}
  Value operator*() const;
  Iterator& operator++() {
    ++index_;
    return *this;
  }
  bool operator!=(const Iterator& other) const { return index_ != other.index_; }

 private:
  const nlohmann::ordered_json* container_;
  const Written* written_;
  std::size_t index_;
};

// A parsed text: the nlohmann value, owned, and its root as a Value.
class Document {
 public:
  // Errors: code "malformed_json" and a message naming the problem; the same in `failure`,
  // when given, as data. Containers deeper than `max_depth` are refused.
  static Result<Document> Parse(std::string_view text, int max_depth = 64, ParseFailure* failure = nullptr);
  Value root() const { return Value(json_.get(), nullptr, written_.get()); }

 private:
  std::shared_ptr<const nlohmann::ordered_json> json_;
  std::shared_ptr<const Value::Written> written_;
};

}  // namespace vramcalc::json

#endif  // VRAMCALC_SRC_IO_JSON_VALUE_H_
