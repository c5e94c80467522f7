#include "request_fields.h"

#include <cmath>
#include <cstring>
#include <utility>

#include "json_output.h"
#include "json_writer.h"
#include "request_reader.h"
#include "vramcalc/json_codec.h"

namespace vramcalc::fields {

json::Type Value::type() const { return document_ ? document_->nodes_[node_].type : json::Type::kNull; }
std::string_view Value::String() const { return document_->nodes_[node_].text; }
double Value::Number() const { return document_->nodes_[node_].number; }
bool Value::Bool() const { return document_->nodes_[node_].flag; }
std::size_t Value::size() const { return document_->nodes_[node_].count; }
std::string_view Value::Key() const { return document_->nodes_[node_].key; }

std::string Value::Source() const {
  switch (type()) {
    case json::Type::kString: return JsonString(String());
    case json::Type::kInteger:
    case json::Type::kFloat: return std::string(document_->nodes_[node_].text);
    case json::Type::kBool: return Bool() ? "true" : "false";
    case json::Type::kArray: {
      std::string text = "[";
      for (const Value element : Children()) text += (text.size() > 1 ? "," : "") + element.Source();
      return text + "]";
    }
    case json::Type::kNull:
    case json::Type::kObject: break;
  }
  return "null";
}

Value::Range Value::Children() const {
  const uint32_t first = node_ + 1;
  return Range(document_, first, first + document_->nodes_[node_].count);
}

Value Document::Find(std::string_view key) const {
  for (const Value member : Children()) {
    if (member.Key() == key) return member;
  }
  return Value();
}

// Reads the bytes front to back into the document's nodes; the first thing out of place stops it.
class Parser {
 public:
  // More than a request has fields (evaluate.h kRequestFields): a larger object goes as JSON.
  static constexpr std::size_t kMaxMembers = 64;

  explicit Parser(std::string_view bytes) : bytes_(bytes) {}

  Result<Document> Read() {
    for (std::size_t members = 0; at_ < bytes_.size(); ++members) {
      std::string_view key;
      if (members == kMaxMembers || !ReadText(key) || document_.Find(key)) return Failure();
      const std::size_t member = document_.nodes_.size();
      if (!ReadValue(true)) return Failure();
      document_.nodes_[member].key = key;
    }
    return std::move(document_);
  }

 private:
  Error Failure() const {
    return Error{"malformed_fields",
                 "The request's fields are not as vramcalc.mjs writes them (reading stopped at byte " +
                     std::to_string(at_) + "); give evaluate() the request as an object or as JSON text.",
                 ""};
  }

  bool ReadVarint(uint32_t& out) {
    uint64_t value = 0;
    for (int shift = 0; shift < 35 && at_ < bytes_.size(); shift += 7) {
      const auto byte = static_cast<unsigned char>(bytes_[at_++]);
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) {
        out = static_cast<uint32_t>(value);
        return value <= UINT32_MAX;
      }
    }
    return false;
  }

  // A text: its length, then that many bytes of UTF-8.
  bool ReadText(std::string_view& out) {
    uint32_t size = 0;
    if (!ReadVarint(size) || size > bytes_.size() - at_) return false;
    out = bytes_.substr(at_, size);
    for (std::size_t i = 0; i < out.size();) {
      const std::size_t length = internal::JsonWriter::Utf8Length(out, i);
      if (length == 0) return false;
      i += length;
    }
    at_ += size;
    return true;
  }

  bool ReadValue(bool array_allowed) {
    if (at_ >= bytes_.size()) return false;
    Document::Node& node = document_.nodes_.emplace_back();
    switch (bytes_[at_++]) {
      case 'n': return true;
      case 't':
      case 'f': node.type = json::Type::kBool, node.flag = bytes_[at_ - 1] == 't'; return true;
      case 's': node.type = json::Type::kString; return ReadText(node.text);
      case 'd': return ReadNumber(node);
      case 'a': return array_allowed && ReadElements(document_.nodes_.size() - 1);
      default: return false;
    }
  }

  // Its 8 bytes (little-endian, as wasm stores a double), then its text.
  bool ReadNumber(Document::Node& node) {
    node.type = json::Type::kFloat;
    if (bytes_.size() - at_ < sizeof node.number) return false;
    std::memcpy(&node.number, bytes_.data() + at_, sizeof node.number);
    at_ += sizeof node.number;
    node.number += 0.0;  // -0 is 0, as JSON.stringify writes it
    return std::isfinite(node.number) && ReadText(node.text);
  }

  bool ReadElements(std::size_t array) {
    uint32_t count = 0;
    if (!ReadVarint(count) || count > bytes_.size() - at_) return false;
    document_.nodes_[array].type = json::Type::kArray;
    document_.nodes_[array].count = count;
    for (uint32_t i = 0; i < count; ++i) {
      if (!ReadValue(false)) return false;
    }
    return true;
  }

  std::string_view bytes_;
  std::size_t at_ = 0;
  Document document_;
};

Result<Document> Document::Parse(std::string_view bytes) { return Parser(bytes).Read(); }

}  // namespace vramcalc::fields

namespace vramcalc {

std::string EvaluateFields(std::string_view fields) {
  return internal::AnswerRequest([&]() -> Result<Request> {
    if (fields.size() > internal::kMaxRequestBytes) return internal::RequestTooLarge();
    const Result<fields::Document> document = fields::Document::Parse(fields);
    if (!document.ok()) return document.error();
    return internal::ReadRequest<fields::Value>(document.value());
  });
}

}  // namespace vramcalc
