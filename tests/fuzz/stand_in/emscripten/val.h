// A native stand-in for Emscripten 3.1.6's emscripten::val (Embind), for the object fuzzer
// (tests/fuzz/object_fuzzer.cc): wasm/val_value.cc, wasm/answers.cc, wasm/val_writer.h and the
// two modules' bindings compile against it unchanged, natively and under the sanitizers. Only
// the fuzz_object target has tests/fuzz/stand_in/ on its include path, first.
//
// Its values are those a request object can be made of: undefined, null, booleans, numbers
// (NaN and ±Infinity included), strings as UTF-16 code units (so a lone surrogate can exist),
// arrays (holes included), plain objects (own keys in JavaScript's order: array indices
// ascending, then the rest as made), functions, symbols and BigInts; and the typed arrays
// val_writer.h and full_module.cc meet. It implements exactly the part of val those files use,
// with JavaScript's and Embind's semantics where they matter:
// - a val is a handle: its copies are one object (val_writer.h sets members on a copy), and a
//   val moved from is deleted (using it aborts, as Embind's "Cannot use deleted val");
// - as<std::string>() writes UTF-8 as Emscripten's stringToUTF8Array does: a surrogate, lone
//   or not, is paired with the unit after it unchecked (val_value.cc's ReadsBack is there for
//   it). val(std::string) reads UTF-8 as Embind's std::string binding does with TEXTDECODER=2:
//   each run between NUL bytes through TextDecoder (U+FFFD for what is not UTF-8, a leading
//   U+FEFF dropped). val(const char*) reads Latin-1, as _emval_new_cstring does;
// - JSON.stringify, Object.keys, Array.isArray, Array.from and a string's charCodeAt behave as
//   JavaScript's; a function returns the value it was made with (stand_in::Function), toJSON's
//   call included.
// What throws in JavaScript (a property of undefined, JSON.stringify of a BigInt or a cycle, a
// value that is not a string passed as std::string) aborts with the error JavaScript would
// throw: a JavaScript exception through the module's frames ends the call without an answer.
// What the stand-in does not model aborts too, and says so.
#ifndef VRAMCALC_TESTS_FUZZ_STAND_IN_EMSCRIPTEN_VAL_H_
#define VRAMCALC_TESTS_FUZZ_STAND_IN_EMSCRIPTEN_VAL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace emscripten {

class val;

template <typename T>
struct memory_view {
  std::size_t size;
  const T* data;
};

template <typename T>
memory_view<T> typed_memory_view(std::size_t size, const T* data) {
  return memory_view<T>{size, data};
}

namespace stand_in {

enum class Kind : uint8_t {
  kUndefined, kNull, kBoolean, kNumber, kString, kSymbol, kBigInt, kFunction, kArray, kObject,
  kTypedArray,  // a Float64Array, or a Uint8Array (Value::bytes)
  kGlobal,      // Array, Object, JSON, Uint8Array … (val::global), by name
};

struct Value;
using Ref = std::shared_ptr<Value>;
class Access;  // val.cc: the stand-in's own way into a val

struct Value {
  Kind kind = Kind::kUndefined;
  bool boolean = false;
  double number = 0;
  std::u16string text;        // a string's units; a BigInt's digits; a global's name
  std::vector<Ref> elements;  // an array's; null is a hole
  std::vector<std::pair<std::u16string, Ref>> members;  // an object's own, in the order made
  Ref result;                 // what a function returns (undefined when null)
  std::vector<double> typed;  // a typed array's elements
  bool bytes = false;         // a Uint8Array, not a Float64Array
};

// Aborts with `what`: a JavaScript error ("TypeError: …") or a limit of the stand-in.
[[noreturn]] void Throw(const std::string& what);

// Values JavaScript has and C++ cannot write as a val: made here, for the fuzzer.
val String(std::u16string units);
val Function(const val& result);  // a function returning `result` whatever it is given
val Symbol();
val BigInt(std::string digits);
void PushHole(val& array);  // an array's next element is a hole
val Uint8Array(const std::string& bytes);
// The value behind a val, to inspect it, and a val of a value inspected.
const Value& Inspect(const val& value);
val Handle(const Ref& value);
// Empties every array, object and function made so far, which frees those a cycle kept alive
// (JavaScript's collector would): once no val made so far is used again.
void CollectGarbage();

// JSON.stringify(value): its text, or nullopt where it returns undefined; `thrown` says what
// it threw instead (a TypeError: a BigInt, a cycle), `called_to_json` whether it called a toJSON.
struct Stringified {
  std::optional<std::u16string> text;
  std::string thrown;
  bool called_to_json = false;
};
Stringified Stringify(const val& value);

// UTF-16 and UTF-8 as Emscripten converts them (the file comment), and as a reader of JSON
// text does (Utf8Of: a surrogate pair as one character; a lone surrogate as U+FFFD).
std::string EmscriptenUtf8Of(const std::u16string& units);
std::u16string TextDecoderUtf16Of(const std::string& bytes);
std::string Utf8Of(const std::u16string& units);
std::u16string Utf16Of(const std::string& utf8);
// Number.prototype.toString() of a finite number.
std::string NumberText(double number);

}  // namespace stand_in

class val {
 public:
  static val array();
  static val object();
  static val undefined();
  static val null();
  static val global(const char* name = nullptr);

  explicit val(const char* latin1);
  // Numbers, booleans, std::string, typed_memory_view: what Embind's binding types carry here.
  template <typename T>
    requires(!std::is_same_v<std::remove_cvref_t<T>, val>)
  explicit val(T&& value) : ref_(Make(std::forward<T>(value))) {}

  val(const val& other) = default;
  val(val&& other) noexcept : ref_(std::move(other.ref_)) {}
  val& operator=(const val& other) & = default;
  val& operator=(val&& other) & noexcept {
    ref_ = std::move(other.ref_);
    return *this;
  }
  ~val() = default;

  bool isUndefined() const { return Is(stand_in::Kind::kUndefined); }
  bool isNull() const { return Is(stand_in::Kind::kNull); }
  bool isTrue() const { return Is(stand_in::Kind::kBoolean) && ref_->boolean; }
  bool isFalse() const { return Is(stand_in::Kind::kBoolean) && !ref_->boolean; }
  bool isNumber() const { return Is(stand_in::Kind::kNumber); }
  bool isString() const { return Is(stand_in::Kind::kString); }
  bool isArray() const { return Is(stand_in::Kind::kArray); }

  val typeOf() const;
  bool instanceof(const val& constructor) const;
  bool strictlyEquals(const val& other) const;

  template <typename T>
  val operator[](const T& key) const {
    return Get(val(key));
  }
  template <typename K>
  void set(const K& key, const val& value) {
    Set(val(key), value);
  }
  template <typename K, typename V>
  void set(const K& key, const V& value) {
    Set(val(key), val(value));
  }

  // A method of a global (val::global): Array.isArray and from, Object.keys, JSON.stringify.
  template <typename ReturnType, typename... Args>
  ReturnType call(const char* name, Args&&... args) const {
    const val result = Call(name, std::vector<val>{Arg(std::forward<Args>(args))...});
    if constexpr (std::is_same_v<ReturnType, val>) {
      return result;
    } else {
      return result.as<ReturnType>();
    }
  }

  template <typename T>
  T as() const {
    if constexpr (std::is_same_v<T, bool>) {
      return AsBool();
    } else if constexpr (std::is_same_v<T, double>) {
      return AsDouble();
    } else if constexpr (std::is_same_v<T, unsigned>) {
      return AsUint32();
    } else if constexpr (std::is_same_v<T, std::string>) {
      return AsString();
    } else {
      static_assert(sizeof(T) == 0, "not in the stand-in: as<T> for this T");
    }
  }

 private:
  friend class stand_in::Access;
  explicit val(stand_in::Ref ref) : ref_(std::move(ref)) {}

  template <typename T>
  static stand_in::Ref Make(T&& value) {
    using U = std::remove_cvref_t<T>;
    if constexpr (std::is_same_v<U, bool>) {
      return Boolean(value);
    } else if constexpr (std::is_same_v<U, double> || std::is_same_v<U, float> ||
                         (std::is_integral_v<U> && sizeof(U) <= 4)) {
      return Number(static_cast<double>(value));
    } else if constexpr (std::is_same_v<U, std::string>) {
      return FromUtf8(value);
    } else if constexpr (std::is_same_v<U, memory_view<double>>) {
      return Doubles(value.data, value.size);
    } else {
      static_assert(sizeof(U) == 0, "not in the stand-in: a val of this type");
    }
  }
  static val Arg(const val& value) { return value; }
  template <typename T>
  static val Arg(T&& value) {
    return val(std::forward<T>(value));
  }

  static stand_in::Ref Boolean(bool flag);
  static stand_in::Ref Number(double number);
  static stand_in::Ref FromUtf8(const std::string& utf8);
  static stand_in::Ref Doubles(const double* data, std::size_t size);

  const stand_in::Value& Deref() const;  // aborts on a deleted val
  bool Is(stand_in::Kind kind) const { return Deref().kind == kind; }
  val Get(const val& key) const;
  void Set(const val& key, const val& value);
  val Call(const char* name, const std::vector<val>& args) const;
  bool AsBool() const;
  double AsDouble() const;
  unsigned AsUint32() const;
  std::string AsString() const;

  stand_in::Ref ref_;
};

}  // namespace emscripten

#endif  // VRAMCALC_TESTS_FUZZ_STAND_IN_EMSCRIPTEN_VAL_H_
