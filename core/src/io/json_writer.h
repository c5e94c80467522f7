// A streaming JSON writer into one growing buffer: what every response, listing and error of
// the core is written with (no JSON tree is built on the way out). Doubles are written as
// nlohmann/json writes them (json_writer.cc: the shortest text that reads back to the same
// double, ".0" on integers, null when not finite); strings are escaped as RFC 8259 requires and
// nothing more.
#ifndef VRAMCALC_SRC_IO_JSON_WRITER_H_
#define VRAMCALC_SRC_IO_JSON_WRITER_H_

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "io/field_writer.h"

namespace vramcalc::internal {

// `number` as nlohmann/json's dump() writes it, appended to `out` (json_writer.cc: the one
// translation unit of the writer that includes nlohmann/json).
void AppendNumber(std::string& out, double number);

class JsonWriter : public FieldWriter<JsonWriter> {
 public:
  explicit JsonWriter(std::size_t capacity = 4096) { buffer_.resize(capacity); }

  // The text written so far; the writer is spent afterwards.
  std::string Take() && {
    buffer_.resize(size_);
    return std::move(buffer_);
  }

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  // Keys are this file's own ASCII literals (and matrix contexts): nothing to escape.
  void Key(std::string_view key) {
    Separate();
    char* at = Reserve(key.size() + 3);
    *at++ = '"';
    std::memcpy(at, key.data(), key.size());
    at[key.size()] = '"';
    at[key.size() + 1] = ':';
    size_ += key.size() + 3;
    after_key_ = true;
  }
  void Value(std::string_view text) {
    Separate();
    WriteString(text);
  }
  void Value(double number) {
    Separate();
    digits_.clear();
    AppendNumber(digits_, number);
    Put(digits_);
  }
  void Value(int64_t number) {
    Separate();
    constexpr std::size_t kMaxDigits = 24;
    char* at = Reserve(kMaxDigits);
    size_ += static_cast<std::size_t>(std::to_chars(at, at + kMaxDigits, number).ptr - at);
  }
  void Value(bool flag) {
    Separate();
    Put(flag ? std::string_view("true") : std::string_view("false"));
  }
  void Null() {
    Separate();
    Put("null");
  }
  template <typename Number>
  void Numbers(std::string_view key, const std::vector<Number>& numbers) {
    Key(key);
    BeginArray();
    for (const Number number : numbers) Value(number);
    EndArray();
  }

  // The length of the UTF-8 sequence at `i`, or 0 when it is not one (RFC 3629: no overlong
  // forms, no surrogates, nothing above U+10FFFF).
  static std::size_t Utf8Length(std::string_view text, std::size_t i) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) return 1;
    std::size_t length;
    uint32_t code;
    if ((lead & 0xE0) == 0xC0) length = 2, code = lead & 0x1Fu;
    else if ((lead & 0xF0) == 0xE0) length = 3, code = lead & 0x0Fu;
    else if ((lead & 0xF8) == 0xF0) length = 4, code = lead & 0x07u;
    else return 0;
    if (i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return 0;
      code = (code << 6) | (next & 0x3Fu);
    }
    const bool overlong = (length == 2 && code < 0x80) || (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
    if (overlong || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
    return length;
  }


 private:
  // Room for `count` more bytes at the end of what is written; returns where they go.
  char* Reserve(std::size_t count) {
    if (size_ + count > buffer_.size()) buffer_.resize(std::max(2 * buffer_.size(), size_ + count));
    return buffer_.data() + size_;
  }
  void Put(char c) {
    *Reserve(1) = c;
    ++size_;
  }
  void Put(std::string_view text) {
    if (text.empty()) return;  // an empty view's data() may be null, which memcpy must never get
    std::memcpy(Reserve(text.size()), text.data(), text.size());
    size_ += text.size();
  }
  void Separate() {
    if (after_key_) {
      after_key_ = false;
    } else if (!first_) {
      Put(',');
    }
    first_ = false;
  }
  void Open(char bracket) {
    Separate();
    Put(bracket);
    first_ = true;
  }
  void Close(char bracket) {
    Put(bracket);
    first_ = false;
  }
  // `text` with every byte that starts no UTF-8 sequence replaced by U+FFFD.
  static std::string Utf8Repaired(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
      const std::size_t length = Utf8Length(text, i);
      out.append(length == 0 ? std::string_view("\xEF\xBF\xBD") : text.substr(i, length));
      i += length == 0 ? 1 : length;
    }
    return out;
  }

  void WriteString(std::string_view text) {
    // Invalid UTF-8 (never produced here, but possible in principle) is repaired first: the
    // output is always valid JSON.
    for (std::size_t i = 0; i < text.size();) {
      const std::size_t length = Utf8Length(text, i);
      if (length == 0) return WriteString(Utf8Repaired(text));
      i += length;
    }
    Put('"');
    // Runs of characters that need no escape are copied at once.
    std::size_t run = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) continue;
      Put(text.substr(run, i - run));
      run = i + 1;
      switch (c) {
        case '"': Put("\\\""); break;
        case '\\': Put("\\\\"); break;
        case '\b': Put("\\b"); break;
        case '\f': Put("\\f"); break;
        case '\n': Put("\\n"); break;
        case '\r': Put("\\r"); break;
        case '\t': Put("\\t"); break;
        default: {  // another control character: \u00XX
          constexpr std::string_view kHex = "0123456789abcdef";
          const auto code = static_cast<unsigned char>(c);
          const char escaped[] = {'\\', 'u', '0', '0', kHex[code >> 4], kHex[code & 0xf]};
          Put(std::string_view(escaped, sizeof escaped));
        }
      }
    }
    Put(text.substr(run));
    Put('"');
  }

  std::string buffer_;
  std::string digits_;  // a number's text on its way into buffer_
  std::size_t size_ = 0;
  bool first_ = true;
  bool after_key_ = false;
};

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_IO_JSON_WRITER_H_
