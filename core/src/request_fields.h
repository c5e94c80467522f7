// A request as fields: what the first module reads in place of JSON. vramcalc.mjs writes them
// from a request object (JSON.parse(JSON.stringify(request)), so exactly what the JSON text
// would say), and the request's readers (request_reader.h) read them as they read the JSON
// object: the same rules, the same messages, the same answer byte for byte. The first module
// carries no JSON reader (json_dom.cc and the JSON side of json_codec.cc were 11.6 KiB gzip of
// it); a request the fields cannot carry (an object as a value: a config.json, a device given as
// an object) goes to vramcalc-full.wasm as JSON.
//
// The bytes, in order, nothing between:
//   request := member*
//   member  := text(key) value
//   value   := 'n' (null) | 't' (true) | 'f' (false)
//            | 'd' f64(the number) text(it as JSON.stringify writes it) | 's' text(the string)
//            | 'a' varint(count) element*        element: any value but 'a'
//   text    := varint(byte length) UTF-8 bytes
//   varint  := unsigned LEB128, at most 32 bits; f64 := 8 bytes, little-endian
// At most 64 members, each key once.
#ifndef VRAMCALC_SRC_REQUEST_FIELDS_H_
#define VRAMCALC_SRC_REQUEST_FIELDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "json_value.h"
#include "node_range.h"
#include "vramcalc/result.h"

namespace vramcalc::fields {

class Document;

// A member's value or an array's element; valid while its document and bytes live. A default
// Value is "absent" (false), as json::Value's.
class Value : public internal::NodeHandle<Document> {
 public:
  Value() = default;

  json::Type type() const;
  bool IsNull() const { return type() == json::Type::kNull; }
  bool IsBool() const { return type() == json::Type::kBool; }
  bool IsNumber() const { return type() == json::Type::kFloat; }
  bool IsString() const { return type() == json::Type::kString; }
  bool IsArray() const { return type() == json::Type::kArray; }
  bool IsObject() const { return false; }  // the fields carry no objects
  std::string_view TypeName() const { return json::TypeName(type()); }

  std::string_view String() const;  // a string's text
  double Number() const;
  bool Bool() const;
  // The value as JSON.stringify writes it (a string quoted and escaped), for messages.
  std::string Source() const;
  std::size_t size() const;  // an array's elements
  std::string_view Key() const;  // a member's key

  using Range = internal::NodeRange<Document, Value>;
  Range Children() const;  // an array's elements

 private:
  friend class Document;
  Value(const Document* document, uint32_t node) : NodeHandle(document, node) {}
};

class Document {
 public:
  // Errors: malformed_fields (the byte where reading stopped), for bytes that break the layout
  // above, repeat a key, or hold text that is not UTF-8 or a number that is not finite.
  // The document views into `bytes`, which must outlive it.
  static Result<Document> Parse(std::string_view bytes);

  Value Find(std::string_view key) const;  // a member's value, or absent
  // The members, in order; each one's Key() names it.
  Value::Range Children() const { return Value::Range(this, 0, static_cast<uint32_t>(nodes_.size())); }

  // For NodeRange: the value at a node, and the next member or element (an array's elements
  // follow it; an element is never an array).
  static Value ValueAt(const Document* document, uint32_t node) { return Value(document, node); }
  static uint32_t NodeAfter(const Document* document, uint32_t node) { return node + 1 + document->nodes_[node].count; }

 private:
  friend class Value;
  friend class Parser;
  struct Node {
    json::Type type = json::Type::kNull;
    bool flag = false;
    uint32_t count = 0;     // an array's elements, which follow it
    std::string_view key;   // a member's
    std::string_view text;  // a string's text, a number as written
    double number = 0;
  };
  std::vector<Node> nodes_;
};

}  // namespace vramcalc::fields

#endif  // VRAMCALC_SRC_REQUEST_FIELDS_H_
