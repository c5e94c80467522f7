// A small, strict JSON reader (RFC 8259): every JSON the core reads goes through it, the
// compiled-in catalog and UI strings, requests and config.json files. It builds one flat array
// of nodes (no tree of maps), never throws, and rejects what RFC 8259 does not allow:
// comments, trailing commas, NaN, leading zeros, control characters and invalid UTF-8 in
// strings, lone surrogates, duplicate keys, numbers beyond a double's range and nesting deeper
// than the caller's limit. A failure says where reading stopped: the byte, and the path of
// object keys down to the value being read, so a message can name the field.
#ifndef VRAMCALC_SRC_JSON_DOM_H_
#define VRAMCALC_SRC_JSON_DOM_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "node_range.h"
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

// Why a text is not JSON, as far as a message to a person needs to know.
enum class Problem : uint8_t {
  kSyntax,    // anything else
  kWord,      // reading stopped at an unquoted word: NaN, Infinity, undefined …
  kNotUtf8,   // text that is not UTF-8, or a lone surrogate
  kTooLarge,  // a number beyond a double's range (1e400)
  kTooDeep,   // nesting deeper than the limit
  kDuplicateKey,  // an object names a key twice
};
struct ParseFailure {
  std::size_t byte = 0;
  // The keys of the enclosing objects down to the value being read ("context",
  // "model.num_hidden_layers"), up to the first array; empty outside any member's value.
  std::string path;
  Problem problem = Problem::kSyntax;
};

class Document;

// A value inside a Document; valid while the document lives. A default Value is "absent";
// its type() is kNull (every Is…() but IsNull() false), and its other accessors must not be used.
class Value : public internal::NodeHandle<Document> {
 public:
  Value() = default;

  Type type() const;
  bool IsObject() const { return type() == Type::kObject; }
  bool IsArray() const { return type() == Type::kArray; }
  bool IsString() const { return type() == Type::kString; }
  bool IsNumber() const { return type() == Type::kInteger || type() == Type::kFloat; }
  bool IsInteger() const { return type() == Type::kInteger; }
  bool IsNull() const { return type() == Type::kNull; }
  bool IsBool() const { return type() == Type::kBool; }
  std::string_view TypeName() const;  // json::TypeName(type())

  std::string_view String() const;  // strings (unescaped UTF-8)
  std::string_view Source() const;  // the value as written in the text
  double Number() const;            // integers and floats
  int64_t Integer() const;          // integers
  bool Bool() const;

  std::size_t size() const;  // elements of an array, members of an object
  // An object's member by key; absent (false) when there is none or this is no object.
  Value Find(std::string_view key) const;
  // The member's key when this value is an object's member, else empty.
  std::string_view Key() const;

  // The elements of an array or the member values of an object, in order:
  // `for (json::Value element : array.Children())`.
  using Range = internal::NodeRange<Document, Value>;
  Range Children() const;

 private:
  friend class Document;
  Value(const Document* document, uint32_t node) : NodeHandle(document, node) {}
};

class Document {
 public:
  // For NodeRange: the value at a node, and the node after its subtree.
  static Value ValueAt(const Document* document, uint32_t node) { return Value(document, node); }
  static uint32_t NodeAfter(const Document* document, uint32_t node) { return document->node(node).end; }

  // Errors: code "malformed_json", the message naming the problem and its byte offset; the
  // same in `failure`, when given, as data.
  static Result<Document> Parse(std::string_view text, int max_depth = 64, ParseFailure* failure = nullptr);
  Value root() const { return Value(this, 0); }

 private:
  friend class Value;
  friend class Parser;
  struct Node {
    Type type = Type::kNull;
    bool flag = false;        // kBool: the value
    uint32_t count = 0;       // containers: direct children
    uint32_t end = 0;         // one past the last node of this subtree
    uint32_t key_offset = 0;  // object members: the key in strings_
    uint32_t key_size = 0;
    uint32_t text_offset = 0;  // kString: the text in strings_
    uint32_t text_size = 0;
    uint32_t source_offset = 0;  // the value in the parsed text
    uint32_t source_size = 0;
    int64_t integer = 0;
    double number = 0;
  };
  const Node& node(uint32_t index) const { return nodes_[index]; }
  std::string_view Text(uint32_t offset, uint32_t size) const {
    return std::string_view(strings_).substr(offset, size);
  }
  std::vector<Node> nodes_;
  std::string strings_;
  std::string source_;  // the parsed text (Source() views into it)
};

}  // namespace vramcalc::json

#endif  // VRAMCALC_SRC_JSON_DOM_H_
