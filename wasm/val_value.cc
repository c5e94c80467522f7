#include "val_value.h"

#include <cmath>
#include <utility>

#include "json_writer.h"

namespace vramcalc::wasm {

using emscripten::val;

json::Type ValValue::type() const { return node_ == nullptr ? json::Type::kNull : node_->type; }
std::string_view ValValue::String() const { return node_->text; }
double ValValue::Number() const { return node_->number; }
bool ValValue::Bool() const { return node_->flag; }
std::string ValValue::Source() const {
  if (node_ == nullptr) return "null";
  if (node_->type == json::Type::kNull) return "null";  // also NaN and ±Infinity, as JSON.stringify
  return val::global("JSON").call<std::string>("stringify", node_->value);
}
std::size_t ValValue::size() const { return node_ == nullptr ? 0 : node_->children.size(); }
std::string_view ValValue::Key() const { return node_ == nullptr ? std::string_view() : std::string_view(node_->key); }

ValValue::Range::Iterator& ValValue::Range::Iterator::operator++() {
  ++node;
  return *this;
}

ValValue ValValue::Find(std::string_view key) const {
  if (!IsObject()) return ValValue();
  for (const ValNode& member : node_->children) {
    if (member.key == key) return ValValue(&member);
  }
  return ValValue();
}

ValValue::Range ValValue::Children() const {
  if (!IsObject() && !IsArray()) return Range{nullptr, nullptr};
  const ValNode* first = node_->children.data();
  return Range{first, first + node_->children.size()};
}

namespace {

constexpr int kMaxDepth = 32;  // as for JSON text (json_codec.cc)

bool IsUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = internal::JsonWriter::Utf8Length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

// Embind writes a string's lone surrogate (which no UTF-8 can carry) paired with the unit after
// it, as a 4-byte sequence of another character: where one is, the text must read back the same.
bool HasFourByteSequence(std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) >= 0xF0) return true;
  }
  return false;
}

// Copies a JavaScript value into nodes, refusing what JSON text could not hold; the path names
// the member being read for messages, as the JSON reader's does (json_value.h ParseFailure).
class Reader {
 public:
  std::optional<Error> Read(val value, ValNode& node, int depth) {
    node.value = value;
    if (value.isNull() || value.isUndefined()) return std::nullopt;  // null (in an array: undefined)
    if (value.isTrue() || value.isFalse()) {
      node.type = json::Type::kBool;
      node.flag = value.isTrue();
      return std::nullopt;
    }
    if (value.isNumber()) {
      node.number = value.as<double>();
      if (std::isfinite(node.number)) node.type = json::Type::kFloat;  // else null, as JSON.stringify
      return std::nullopt;
    }
    if (value.isString()) return Text(value, node.text, json::Type::kString, node);
    const std::string type = value.typeOf().as<std::string>();
    if (type != "object") return type == "bigint" ? Malformed("holds a BigInt, which JSON has no form for") : std::nullopt;
    if (depth >= kMaxDepth) return Malformed("is nested too deeply");
    const bool array = val::global("Array").call<bool>("isArray", value);
    node.type = array ? json::Type::kArray : json::Type::kObject;
    return array ? Elements(value, node, depth) : Members(value, node, depth);
  }

 private:
  std::optional<Error> Elements(val array, ValNode& node, int depth) {
    const auto length = array["length"].as<unsigned>();
    node.children.resize(length);
    for (unsigned i = 0; i < length; ++i) {
      if (auto error = Read(array[i], node.children[i], depth + 1)) return error;
      if (Skipped(node.children[i].value)) node.children[i] = ValNode{};  // null, as JSON.stringify
    }
    return std::nullopt;
  }

  std::optional<Error> Members(val object, ValNode& node, int depth) {
    const val keys = val::global("Object").call<val>("keys", object);
    const auto count = keys["length"].as<unsigned>();
    for (unsigned i = 0; i < count; ++i) {
      std::string key;
      if (auto error = Text(keys[i], key, json::Type::kNull, node)) return error;
      val member = object[key];
      if (Skipped(member)) continue;  // left out, as JSON.stringify leaves them
      ValNode& child = node.children.emplace_back();
      child.key = key;
      path_.push_back(key.substr(0, 64));
      if (auto error = Read(std::move(member), child, depth + 1)) return error;
      path_.pop_back();
    }
    return std::nullopt;
  }

  // Undefined, a function or a symbol: no JSON value.
  static bool Skipped(const val& value) {
    if (value.isUndefined()) return true;
    if (value.isNull() || value.isNumber() || value.isString() || value.isTrue() || value.isFalse()) return false;
    const std::string type = value.typeOf().as<std::string>();
    return type == "function" || type == "symbol";
  }

  // A string's UTF-8 into `out` (`type`: what the node becomes), within the text's limit.
  std::optional<Error> Text(const val& value, std::string& out, json::Type type, ValNode& node) {
    if (value["length"].as<double>() > static_cast<double>(internal::kMaxRequestBytes - bytes_)) return TooLarge();
    out = value.as<std::string>();
    bytes_ += out.size();
    if (bytes_ > internal::kMaxRequestBytes) return TooLarge();
    if (!IsUtf8(out) || (HasFourByteSequence(out) && !val(out).strictlyEquals(value))) {
      return Malformed("holds text that is not valid UTF-8");
    }
    if (type != json::Type::kNull) node.type = type;
    return std::nullopt;
  }

  std::optional<Error> Malformed(const std::string& problem) const {
    std::string field;
    for (const std::string& key : path_) field += (field.empty() ? "" : ".") + key;
    if (field.empty()) {
      return Error{"malformed_json", "The request " + problem + ". Send an object such as " +
                                         std::string(internal::kRequestExample) + ".", ""};
    }
    return Error{"malformed_json", "The value of " + field + " " + problem + ".", field};
  }
  static std::optional<Error> TooLarge() { return internal::RequestTooLarge(); }

  std::vector<std::string> path_;  // the keys down to the member being read
  std::size_t bytes_ = 0;          // text read so far
};

}  // namespace

Result<ValDocument> ValDocument::Read(val value) {
  auto root = std::make_shared<ValNode>();
  if (auto error = Reader().Read(std::move(value), *root, 0)) return *error;
  ValDocument document;
  document.root_ = std::move(root);
  return document;
}

}  // namespace vramcalc::wasm

namespace vramcalc::internal {

template <>
void ModelObject<wasm::ValValue>::Read(wasm::ValValue, Request&, Problems& p) {
  p.Fail("config_import_unavailable", "model",
         "This module reads no config.json; vramcalc-full.wasm does (the page and the package load it when a "
         "config.json is given).");
}

}  // namespace vramcalc::internal
