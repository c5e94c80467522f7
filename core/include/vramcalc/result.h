// Errors as values. Nothing in the core throws across its public API: every operation that
// can fail returns a Result<T> whose Error names the offending request or catalog field.
#ifndef VRAMCALC_RESULT_H_
#define VRAMCALC_RESULT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace vramcalc {

struct Error {
  std::string code;     // machine-readable, e.g. "unknown_model", "invalid_value"
  std::string message;  // one English sentence that tells a person what to fix
  std::string field;    // the offending field, e.g. "context"; empty when none applies
};

template <typename T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}    // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

// At most `max_bytes` of the UTF-8 `text`, cut before a character rather than inside one: what a
// message shows of a long key or value.
inline std::string_view Clipped(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  while (max_bytes > 0 && (static_cast<unsigned char>(text[max_bytes]) & 0xC0) == 0x80) --max_bytes;
  return text.substr(0, max_bytes);
}

}  // namespace vramcalc

#endif  // VRAMCALC_RESULT_H_
