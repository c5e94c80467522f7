// A request given as a JavaScript object, read through Embind's emscripten::val for the core's
// request readers (core/src/io/request_reader.h), which read JSON text's values
// (io/json_value.h) the same way. ValDocument::Read copies what the object holds, as
// JSON.stringify would see it, into a small tree once: own enumerable keys in their order,
// members that are undefined, functions or symbols left out (in arrays: null), numbers that are
// not finite as null. It refuses what JSON text could not carry, naming the field as the JSON
// reader does: a BigInt, text that is not UTF-8 (a string with a lone surrogate), nesting deeper
// than 32, more than 1 MiB of text.
#ifndef VRAMCALC_WASM_VAL_VALUE_H_
#define VRAMCALC_WASM_VAL_VALUE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <emscripten/val.h>

#include "io/json_value.h"
#include "io/request_reader.h"
#include "vramcalc/result.h"

namespace vramcalc::wasm {

struct ValNode {
  json::Type type = json::Type::kNull;  // a number is kFloat
  bool flag = false;
  double number = 0;
  std::string text;  // a string's UTF-8
  std::string key;   // an object member's
  std::vector<ValNode> children;
  emscripten::val value = emscripten::val::undefined();  // for Source()
};

// A value of a ValDocument (absent when made by default): what json::Value answers.
class ValValue : public json::Typed<ValValue> {
 public:
  ValValue() = default;
  explicit ValValue(const ValNode* node) : node_(node) {}
  explicit operator bool() const { return node_ != nullptr; }

  json::Type type() const { return node_ == nullptr ? json::Type::kNull : node_->type; }
  std::string_view String() const { return node_->text; }
  double Number() const { return node_->number; }
  bool Bool() const { return node_->flag; }
  std::string Source() const;  // JSON.stringify's text, for messages
  std::size_t size() const { return node_ == nullptr ? 0 : node_->children.size(); }
  std::string_view Key() const { return node_ == nullptr ? std::string_view() : node_->key; }
  ValValue Find(std::string_view key) const;

  // The elements of an array or the members of an object, in order.
  struct Range {
    struct Iterator {
      const ValNode* node;
      ValValue operator*() const { return ValValue(node); }
      Iterator& operator++() {
        ++node;
        return *this;
      }
      bool operator!=(const Iterator& other) const { return node != other.node; }
    };
    const ValNode* first;
    const ValNode* last;
    Iterator begin() const { return {first}; }
    Iterator end() const { return {last}; }
  };
  Range Children() const {
    if (!IsObject() && !IsArray()) return Range{nullptr, nullptr};
    return Range{node_->children.data(), node_->children.data() + node_->children.size()};
  }

 private:
  const ValNode* node_ = nullptr;
};

// JSON.stringify's text of `value`, or "null" where it writes nothing (undefined: a function, a
// symbol, a toJSON returning undefined), as Read reads such a value.
std::string JsonText(const emscripten::val& value);

// What vramcalc.wasm answers a model given as an object (a config.json or a model description),
// which only vramcalc-full.wasm reads (it reads the request as JSON text then).
Error ModelObjectUnavailable();

class ValDocument {
 public:
  // The object's copy, or the error JSON text of it would get (malformed_json naming the field,
  // request_too_large).
  static Result<ValDocument> Read(emscripten::val value);
  ValValue root() const { return ValValue(root_.get()); }

 private:
  std::shared_ptr<const ValNode> root_;
};

}  // namespace vramcalc::wasm

namespace vramcalc::internal {
// A model given as an object (a config.json): only vramcalc-full.wasm reads one, as the JSON text
// of the request (full_module.cc); here it is config_import_unavailable.
template <>
void ModelObject<wasm::ValValue>::Read(wasm::ValValue value, Request& out, Problems& p);
}  // namespace vramcalc::internal

#endif  // VRAMCALC_WASM_VAL_VALUE_H_
