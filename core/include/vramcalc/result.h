// Errors as values. Nothing in the core throws across its public API: every operation that
// can fail returns a Result<T> whose Error names the offending request or catalog field.
#ifndef VRAMCALC_RESULT_H_
#define VRAMCALC_RESULT_H_

#include <string>
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

}  // namespace vramcalc

#endif  // VRAMCALC_RESULT_H_
