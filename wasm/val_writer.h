// The core's answers as JavaScript objects (core/src/response_writer.h writes through it): each
// member set on its object as it is written, through Embind's emscripten::val, so the page gets
// the answer's object itself, with no JSON text on the way (nor the number formatting JSON text
// needs in the module). Numbers are the core's doubles, as JSON text would carry them (one that is
// not finite as null): an object equals JSON.parse of the CLI's answer
// (tests/wasm/determinism.test.mjs).
#ifndef VRAMCALC_WASM_VAL_WRITER_H_
#define VRAMCALC_WASM_VAL_WRITER_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <emscripten/val.h>

#include "io/field_writer.h"

namespace vramcalc::wasm {

class ValWriter : public internal::FieldWriter<ValWriter> {
 public:
  using val = emscripten::val;

  // The value written; the writer is spent afterwards.
  val Take() && { return std::move(root_); }

  void BeginObject() { Open(val::object(), false); }
  void BeginArray() { Open(val::array(), true); }
  void EndObject() { Close(); }
  void EndArray() { Close(); }
  void Key(std::string_view key) { key_.assign(key); }
  void Value(std::string_view text) { Put(val(std::string(text))); }
  // Not finite (a usage against no capacity): null, as in JSON text.
  void Value(double number) { Put(std::isfinite(number) ? val(number) : val::null()); }
  void Value(int64_t number) { Put(val(static_cast<double>(number))); }  // within 2^53: exact
  void Value(bool flag) { Put(val(flag)); }
  void Null() { Put(val::null()); }
  // An array of numbers at once: a view of them copied into a JavaScript array (the sweep's
  // arrays hold a cell per model, format and device).
  template <typename Number>
  void Numbers(std::string_view key, const std::vector<Number>& numbers) {
    const std::vector<double> doubles(numbers.begin(), numbers.end());
    if (!std::all_of(doubles.begin(), doubles.end(), [](double x) { return std::isfinite(x); })) {
      return Field(key, doubles);  // one by one, the ones not finite as null
    }
    Key(key);
    Put(val::global("Array").call<val>("from", val(emscripten::typed_memory_view(doubles.size(), doubles.data()))));
  }

 private:
  struct Container {
    val value;
    bool array;
    unsigned size = 0;  // an array's elements so far
  };

  void Open(val container, bool array) {
    Put(container);
    open_.push_back(Container{std::move(container), array});
  }
  void Close() { open_.pop_back(); }
  void Put(const val& value) {
    if (open_.empty()) {
      root_ = value;
    } else if (Container& top = open_.back(); top.array) {
      top.value.set(top.size++, value);
    } else {
      top.value.set(KeyOf(key_), value);
    }
  }

  // A member's name as a JavaScript string, made once: an answer names the same few hundred
  // members again and again (a model's, a device's), and each made anew is a call into
  // JavaScript and a UTF-8 decode.
  static const val& KeyOf(const std::string& key) {
    static std::map<std::string, val, std::less<>> keys;
    auto found = keys.find(key);
    if (found == keys.end()) found = keys.emplace(key, val(key)).first;
    return found->second;
  }

  val root_ = val::undefined();
  std::vector<Container> open_;
  std::string key_;  // the member whose value comes next
};

}  // namespace vramcalc::wasm

#endif  // VRAMCALC_WASM_VAL_WRITER_H_
