// The first problem a reader meets, for readers that go on after it. The core is built without
// exception support in the wasm module, so a reader deep in a config.json or a request records
// what is wrong here, returns a harmless value (1, "", false) and lets its caller stop at the
// next check; the answer names the first problem, as a thrown error would have.
#ifndef VRAMCALC_SRC_MODEL_PROBLEMS_H_
#define VRAMCALC_SRC_MODEL_PROBLEMS_H_

#include <optional>
#include <string>
#include <utility>

#include "vramcalc/result.h"

namespace vramcalc::internal {

class Problems {
 public:
  void Fail(std::string code, std::string field, std::string message) {
    if (!first_) first_ = Error{std::move(code), std::move(message), std::move(field)};
  }
  explicit operator bool() const { return first_.has_value(); }
  const Error& first() const { return *first_; }

 private:
  std::optional<Error> first_;
};

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_MODEL_PROBLEMS_H_
