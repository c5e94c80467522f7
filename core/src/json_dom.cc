#include "json_dom.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include "decimal.h"

namespace vramcalc::json {

// ---- Value ---------------------------------------------------------------------------------

// An absent value reads as null, so that asking an absent value what it is stays safe.
Type Value::type() const { return document_ ? document_->node(node_).type : Type::kNull; }

std::string_view Value::TypeName() const { return json::TypeName(type()); }

std::string_view Value::String() const {
  const Document::Node& n = document_->node(node_);
  return document_->Text(n.text_offset, n.text_size);
}

double Value::Number() const {
  const Document::Node& n = document_->node(node_);
  return n.type == Type::kInteger ? static_cast<double>(n.integer) : n.number;
}

int64_t Value::Integer() const { return document_->node(node_).integer; }

std::string_view Value::Source() const {
  const Document::Node& n = document_->node(node_);
  return std::string_view(document_->source_).substr(n.source_offset, n.source_size);
}
bool Value::Bool() const { return document_->node(node_).flag; }
std::size_t Value::size() const { return document_->node(node_).count; }

std::string_view Value::Key() const {
  const Document::Node& n = document_->node(node_);
  return document_->Text(n.key_offset, n.key_size);
}

Value Value::Find(std::string_view key) const {
  if (!*this || !IsObject()) return Value();
  for (const Value member : Children()) {
    if (member.Key() == key) return member;
  }
  return Value();
}

Value::Range Value::Children() const {
  const Document::Node& n = document_->node(node_);
  const bool container = n.type == Type::kArray || n.type == Type::kObject;
  // A container's first child follows it; an empty range for anything else.
  return Range(document_, container ? node_ + 1 : n.end, n.end);
}

// ---- Parser --------------------------------------------------------------------------------

class Parser {
 public:
  Parser(std::string_view text, int max_depth, Document& document)
      : text_(text), max_depth_(max_depth), document_(document) {}

  // The error message, or empty when the whole text was one valid value.
  std::string Run() {
    SkipSpace();
    if (ParseValue(0)) {
      SkipSpace();
      if (at_ != text_.size()) Fail("unexpected text after the value");
    }
    return error_;
  }
  const ParseFailure& failure() const { return failure_; }

 private:
  using Node = Document::Node;

  bool ParseValue(int depth) {
    start_ = at_;
    if (at_ >= text_.size()) return Fail("unexpected end of input");
    const char c = text_[at_];
    if (c == '{' || c == '[') {
      if (depth >= max_depth_) return Fail("nested too deeply", Problem::kTooDeep);
      levels_.push_back(Level{c == '{', {}});
      const bool ok = c == '{' ? ParseObject(depth + 1) : ParseArray(depth + 1);
      if (ok) levels_.pop_back();
      return ok;
    }
    if (c == '"') {
      const uint32_t index = Add(Type::kString);
      const uint32_t offset = Size(document_.strings_);
      if (!ParseString()) return false;
      document_.nodes_[index].text_offset = offset;
      document_.nodes_[index].text_size = Size(document_.strings_) - offset;
      return Close(index);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber();
    for (const auto& [word, type, flag] : {std::tuple{"true", Type::kBool, true},
                                          std::tuple{"false", Type::kBool, false},
                                          std::tuple{"null", Type::kNull, false}}) {
      if (text_.substr(at_, std::string_view(word).size()) == word) {
        at_ += std::string_view(word).size();
        const uint32_t index = Add(type);
        document_.nodes_[index].flag = flag;
        return Close(index);
      }
    }
    // An unquoted word (NaN, Infinity, undefined) or a misspelt true, false or null.
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return Fail("expected a value", letter ? Problem::kWord : Problem::kSyntax);
  }

  bool ParseObject(int depth) {
    const uint32_t index = Add(Type::kObject);
    ++at_;  // '{'
    SkipSpace();
    if (Consume('}')) return Close(index);
    std::vector<std::pair<uint32_t, uint32_t>> keys;  // offset and size in strings_
    do {
      SkipSpace();
      if (at_ >= text_.size() || text_[at_] != '"') return Fail("expected a key in quotes");
      const uint32_t key_offset = Size(document_.strings_);
      if (!ParseString()) return false;
      const uint32_t key_size = Size(document_.strings_) - key_offset;
      keys.emplace_back(key_offset, key_size);
      levels_.back().key = document_.Text(key_offset, key_size).substr(0, 64);
      SkipSpace();
      if (!Consume(':')) return Fail("expected ':'");
      SkipSpace();
      const uint32_t member = Size(document_.nodes_);
      if (!ParseValue(depth)) return false;
      document_.nodes_[member].key_offset = key_offset;
      document_.nodes_[member].key_size = key_size;
      ++document_.nodes_[index].count;
      levels_.back().key.clear();  // between members
      SkipSpace();
    } while (Consume(','));
    if (!Consume('}')) return Fail("expected ',' or '}'");
    return Unique(keys) && Close(index);
  }

  // RFC 8259 leaves duplicate keys to the reader; this one refuses them (sorting, so that a
  // hostile object with many keys costs n log n).
  bool Unique(std::vector<std::pair<uint32_t, uint32_t>>& keys) {
    const auto text = [this](const std::pair<uint32_t, uint32_t>& key) {
      return document_.Text(key.first, key.second);
    };
    std::sort(keys.begin(), keys.end(), [&](const auto& a, const auto& b) { return text(a) < text(b); });
    for (std::size_t i = 1; i < keys.size(); ++i) {
      if (text(keys[i - 1]) == text(keys[i])) {
        return Fail("a duplicate key \"" + std::string(text(keys[i]).substr(0, 64)) + "\"", Problem::kDuplicateKey);
      }
    }
    return true;
  }

  bool ParseArray(int depth) {
    const uint32_t index = Add(Type::kArray);
    ++at_;  // '['
    SkipSpace();
    if (Consume(']')) return Close(index);
    do {
      SkipSpace();
      if (!ParseValue(depth)) return false;
      ++document_.nodes_[index].count;
      SkipSpace();
    } while (Consume(','));
    if (!Consume(']')) return Fail("expected ',' or ']'");
    return Close(index);
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; integers within int64 stay integers.
  bool ParseNumber() {
    const std::size_t start = at_;
    bool integral = true;
    Consume('-');
    if (Consume('0')) {
      if (Digits() > 0) return Fail("a number has a leading zero");
    } else if (Digits() == 0) {
      const bool letter = at_ < text_.size() && ((text_[at_] >= 'a' && text_[at_] <= 'z') || (text_[at_] >= 'A' && text_[at_] <= 'Z'));
      return Fail("expected a digit", letter ? Problem::kWord : Problem::kSyntax);  // -Infinity
    }
    if (Consume('.')) {
      integral = false;
      if (Digits() == 0) return Fail("expected a digit after '.'");
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      integral = false;
      ++at_;
      if (!Consume('+')) Consume('-');
      if (Digits() == 0) return Fail("expected a digit in the exponent");
    }
    const std::string_view token = text_.substr(start, at_ - start);
    const uint32_t index = Add(Type::kInteger);
    Node& node = document_.nodes_[index];
    if (integral && std::from_chars(token.data(), token.data() + token.size(), node.integer).ec == std::errc()) {
      return Close(index);
    }
    // A float, or an integer beyond int64.
    node.type = Type::kFloat;
    node.number = ReadDecimal(token);
    if (!std::isfinite(node.number)) {
      return Fail("a number is too large (" + std::string(token.substr(0, 32)) + ")", Problem::kTooLarge);
    }
    return Close(index);
  }

  // A quoted string at at_, unescaped and appended to the document's strings.
  bool ParseString() {
    ++at_;  // '"'
    std::string& out = document_.strings_;
    while (at_ < text_.size()) {
      // A run of printable ASCII is appended at once: byte by byte, strings were a third of the
      // time the page's first reading of the built-in catalog took.
      const std::size_t run = at_;
      while (at_ < text_.size() && IsPlain(text_[at_])) ++at_;
      out.append(text_.data() + run, at_ - run);
      if (at_ == text_.size()) break;
      const auto c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') {
        ++at_;
        return true;
      }
      if (c < 0x20) return Fail("a control character in a string");
      if (c == '\\') {
        if (!ParseEscape(out)) return false;
      } else if (!CopyUtf8(out)) {
        return false;
      }
    }
    return Fail("unterminated string");
  }

  // Printable ASCII but the quote and the backslash: copied as it is.
  static bool IsPlain(char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
  }

  bool ParseEscape(std::string& out) {
    if (++at_ >= text_.size()) return Fail("unterminated string");
    const char c = text_[at_++];
    constexpr std::string_view kFrom = "\"\\/bfnrt";
    constexpr std::string_view kTo = "\"\\/\b\f\n\r\t";
    if (const std::size_t i = kFrom.find(c); i != std::string_view::npos) {
      out.push_back(kTo[i]);
      return true;
    }
    if (c != 'u') return Fail("an invalid escape in a string");
    uint32_t code = 0;
    if (!Hex4(code)) return false;
    if (code >= 0xDC00 && code <= 0xDFFF) return Fail("a lone surrogate in a string", Problem::kNotUtf8);
    if (code >= 0xD800 && code <= 0xDBFF) {
      uint32_t low = 0;
      if (text_.substr(at_, 2) != "\\u") return Fail("a lone surrogate in a string", Problem::kNotUtf8);
      at_ += 2;
      if (!Hex4(low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) return Fail("a lone surrogate in a string", Problem::kNotUtf8);
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    AppendUtf8(out, code);
    return true;
  }

  bool Hex4(uint32_t& code) {
    if (at_ + 4 > text_.size()) return Fail("an invalid \\u escape");
    for (int i = 0; i < 4; ++i) {
      const char h = text_[at_++];
      const int digit = h >= '0' && h <= '9' ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
      if (digit < 0) return Fail("an invalid \\u escape");
      code = code * 16 + static_cast<uint32_t>(digit);
    }
    return true;
  }

  static void AppendUtf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  // One multi-byte UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, at most
  // U+10FFFF), copied as it is.
  bool CopyUtf8(std::string& out) {
    const auto lead = static_cast<unsigned char>(text_[at_]);
    const std::size_t length = (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF8) == 0xF0 ? 4 : 0;
    if (length == 0 || at_ + length > text_.size()) return Fail("text that is not valid UTF-8", Problem::kNotUtf8);
    uint32_t code = lead & (0x7Fu >> length);
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text_[at_ + k]);
      if ((next & 0xC0) != 0x80) return Fail("text that is not valid UTF-8", Problem::kNotUtf8);
      code = (code << 6) | (next & 0x3Fu);
    }
    const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return Fail("text that is not valid UTF-8", Problem::kNotUtf8);
    }
    out.append(text_.substr(at_, length));
    at_ += length;
    return true;
  }

  std::size_t Digits() {
    const std::size_t start = at_;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    return at_ - start;
  }
  void SkipSpace() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      ++at_;
    }
  }
  bool Consume(char c) {
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  template <typename T>
  static uint32_t Size(const T& container) { return static_cast<uint32_t>(container.size()); }
  uint32_t Add(Type type) {
    document_.nodes_.push_back(Node{.type = type, .source_offset = static_cast<uint32_t>(start_)});
    return Size(document_.nodes_) - 1;
  }
  bool Close(uint32_t index) {
    Node& node = document_.nodes_[index];
    node.end = Size(document_.nodes_);
    node.source_size = static_cast<uint32_t>(at_) - node.source_offset;
    return true;
  }
  // Records the first error (with where reading stopped) and returns false.
  bool Fail(const std::string& reason, Problem problem = Problem::kSyntax) {
    if (!error_.empty()) return false;
    error_ = reason + " at byte " + std::to_string(at_);
    failure_.byte = at_;
    failure_.problem = problem;
    for (const Level& level : levels_) {
      if (!level.object || level.key.empty()) break;
      failure_.path += (failure_.path.empty() ? "" : ".") + level.key;
    }
    return false;
  }

  // An open object (with the key whose value is being read) or array.
  struct Level {
    bool object;
    std::string key;
  };

  std::string_view text_;
  int max_depth_;
  Document& document_;
  std::size_t at_ = 0;
  std::size_t start_ = 0;  // where the value being added begins
  std::string error_;
  ParseFailure failure_;
  std::vector<Level> levels_;
};

Result<Document> Document::Parse(std::string_view text, int max_depth, ParseFailure* failure) {
  Document document;
  // Node offsets are 32-bit: far beyond anything the core reads (requests are capped at 1 MiB).
  if (text.size() >= (std::size_t{1} << 31)) return Error{"malformed_json", "The text is too large.", ""};
  document.source_ = std::string(text);
  // About one node per 12 bytes of typical JSON, and the strings' text at most the whole text:
  // reserved once, not grown by copying (catalog files are tens of kilobytes).
  document.nodes_.reserve(text.size() / 12 + 4);
  document.strings_.reserve(text.size());
  Parser parser(document.source_, max_depth, document);
  const std::string error = parser.Run();
  if (!error.empty()) {
    if (failure) *failure = parser.failure();
    return Error{"malformed_json", "Not valid JSON: " + error + ".", ""};
  }
  return document;
}

}  // namespace vramcalc::json
