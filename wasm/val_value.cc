#include "val_value.h"

#include <algorithm>
#include <cmath>
#include <utility>


namespace vramcalc::wasm {

using emscripten::val;

std::string JsonText(const val& value) {
  const val text = val::global("JSON").call<val>("stringify", value);
  return text.isString() ? text.as<std::string>() : "null";
}

std::string ValValue::Source() const {
  if (IsNull()) return "null";  // also NaN and ±Infinity, as JSON.stringify
  return JsonText(node_->value);
}

ValValue ValValue::Find(std::string_view key) const {
  if (!IsObject()) return ValValue();
  for (const ValNode& member : node_->children) {
    if (member.key == key) return ValValue(&member);
  }
  return ValValue();
}

namespace {

constexpr int kMaxDepth = 32;  // as for JSON text (json_codec.cc)

// What a JavaScript value is to JSON.stringify: a JSON type, or no value at all (undefined, a
// function, a symbol: a member left out, an array's element null), or a BigInt (which it
// refuses).
enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject, kNone, kBigInt };
Kind KindOf(const val& value) {
  if (value.isUndefined()) return Kind::kNone;
  if (value.isNull()) return Kind::kNull;
  if (value.isTrue() || value.isFalse()) return Kind::kBool;
  if (value.isNumber()) return Kind::kNumber;
  if (value.isString()) return Kind::kString;
  const std::string type = value.typeOf().as<std::string>();
  if (type == "bigint") return Kind::kBigInt;
  if (type != "object") return Kind::kNone;
  return val::global("Array").call<bool>("isArray", value) ? Kind::kArray : Kind::kObject;
}

// Embind writes a string's lone surrogate (which no UTF-8 can carry) paired with the unit after
// it, as the 4-byte sequence of another character (stringToUTF8Array): each 4-byte sequence must
// be the two units the string holds there. (A round trip through val(text) would not do: the
// TextDecoder that Embind reads it back with drops a leading U+FEFF.)
bool ReadsBack(const std::string& text, const val& value) {
  double unit = 0;  // the index in UTF-16 units of the character at byte i
  for (std::size_t i = 0; i < text.size(); ++unit) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0xF0 || i + 3 >= text.size()) {
      i += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : 3;
      continue;
    }
    const auto bits = [&text, i](std::size_t k) { return static_cast<unsigned>(text[i + k]) & 0x3F; };
    const unsigned above = (((lead & 0x07u) << 18) | (bits(1) << 12) | (bits(2) << 6) | bits(3)) - 0x10000;
    if (value.call<double>("charCodeAt", unit) != 0xD800 + (above >> 10) ||
        value.call<double>("charCodeAt", unit + 1) != 0xDC00 + (above & 0x3FF)) {
      return false;
    }
    i += 4, ++unit;
  }
  return true;
}

// Copies a JavaScript value into nodes, refusing what JSON text could not hold; the path names
// the member being read for messages, as the JSON reader's does (json_value.h ParseFailure).
class Reader {
 public:
  std::optional<Error> Read(val value, Kind kind, ValNode& node, int depth) {
    switch (kind) {
      case Kind::kNone:
      case Kind::kNull: break;
      case Kind::kBool: node.type = json::Type::kBool, node.flag = value.isTrue(); break;
      case Kind::kNumber:
        node.number = value.as<double>();
        if (std::isfinite(node.number)) node.type = json::Type::kFloat;  // else null, as JSON.stringify
        break;
      case Kind::kString:
        node.type = json::Type::kString;
        if (auto error = Text(value, node.text)) return error;
        break;
      case Kind::kBigInt: return Malformed("holds a BigInt, which JSON has no form for");
      case Kind::kArray:
      case Kind::kObject:
        if (depth >= kMaxDepth) return Malformed("is nested too deeply");
        node.type = kind == Kind::kArray ? json::Type::kArray : json::Type::kObject;
        node.value = value;
        return kind == Kind::kArray ? Elements(value, node, depth) : Members(value, node, depth);
    }
    node.value = std::move(value);
    return std::nullopt;
  }

 private:
  std::optional<Error> Elements(const val& array, ValNode& node, int depth) {
    const auto length = array["length"].as<unsigned>();
    node.children.resize(length);
    for (unsigned i = 0; i < length; ++i) {
      val element = array[i];
      const Kind kind = KindOf(element);
      if (kind == Kind::kNone) continue;  // null, as JSON.stringify writes it
      path_.emplace_back();
      if (auto error = Read(std::move(element), kind, node.children[i], depth + 1)) return error;
      path_.pop_back();
    }
    return std::nullopt;
  }

  std::optional<Error> Members(const val& object, ValNode& node, int depth) {
    const val keys = val::global("Object").call<val>("keys", object);
    const auto count = keys["length"].as<unsigned>();
    for (unsigned i = 0; i < count; ++i) {
      const val key = keys[i];
      val member = object[key];
      const Kind kind = KindOf(member);
      if (kind == Kind::kNone) continue;  // left out, as JSON.stringify leaves it
      ValNode& child = node.children.emplace_back();
      if (auto error = Text(key, child.key)) return error;
      path_.emplace_back(Clipped(child.key, 64));
      if (auto error = Read(std::move(member), kind, child, depth + 1)) return error;
      path_.pop_back();
    }
    return std::nullopt;
  }

  // A string's UTF-8 into `out`, within the text's limit.
  std::optional<Error> Text(const val& value, std::string& out) {
    if (value["length"].as<double>() > static_cast<double>(internal::kMaxRequestBytes - bytes_)) {
      return internal::RequestTooLarge();
    }
    out = value.as<std::string>();
    bytes_ += out.size();
    if (bytes_ > internal::kMaxRequestBytes) return internal::RequestTooLarge();
    if (!ReadsBack(out, value)) return Malformed("holds text that is not valid UTF-8");
    return std::nullopt;
  }

  std::optional<Error> Malformed(const std::string& problem) const {
    std::string field;  // the keys down to the first array or empty key, as the JSON reader's
    for (const std::string& key : path_) {
      if (key.empty()) break;
      field += (field.empty() ? "" : ".") + key;
    }
    if (field.empty()) {
      return Error{"malformed_json", "The request " + problem + ". Send an object such as " +
                                         std::string(internal::kRequestExample) + ".", ""};
    }
    return Error{"malformed_json", "The value of " + field + " " + problem + ".", field};
  }

  std::vector<std::string> path_;  // the keys down to the value being read, "" for an element
  std::size_t bytes_ = 0;          // text read so far
};

}  // namespace

Error ModelObjectUnavailable() {
  return {"config_import_unavailable",
          "This module reads no config.json or model description; vramcalc-full.wasm does.",
          "model"};
}

Result<ValDocument> ValDocument::Read(val value) {
  auto root = std::make_shared<ValNode>();
  const Kind kind = KindOf(value);
  if (auto error = Reader().Read(std::move(value), kind, *root, 0)) return *error;
  ValDocument document;
  document.root_ = std::move(root);
  return document;
}

}  // namespace vramcalc::wasm

namespace vramcalc::internal {

template <>
void ModelObject<wasm::ValValue>::Read(wasm::ValValue, Request&, Problems& p) {
  const Error unavailable = wasm::ModelObjectUnavailable();
  p.Fail(unavailable.code, unavailable.field, unavailable.message);
}

}  // namespace vramcalc::internal
