// The stand-in for emscripten::val (emscripten/val.h says what it models and how).
#include "emscripten/val.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <system_error>

namespace emscripten {
namespace stand_in {

class Access {
 public:
  static val Wrap(Ref ref) { return val(std::move(ref)); }
  static const Ref& RefOf(const val& value) {
    value.Deref();
    return value.ref_;
  }
};

namespace {

// The values that can hold others, so that CollectGarbage can break their cycles.
std::vector<std::weak_ptr<Value>>& Holders() {
  static std::vector<std::weak_ptr<Value>> holders;
  return holders;
}

Ref Make(Kind kind) {
  auto value = std::make_shared<Value>();
  value->kind = kind;
  if (kind == Kind::kArray || kind == Kind::kObject || kind == Kind::kFunction) Holders().push_back(value);
  return value;
}

const Ref& Undefined() {
  static const Ref undefined = Make(Kind::kUndefined);
  return undefined;
}

const Ref& Null() {
  static const Ref null = Make(Kind::kNull);
  return null;
}

Ref StringRef(std::u16string units) {
  Ref value = Make(Kind::kString);
  value->text = std::move(units);
  return value;
}

Ref NumberRef(double number) {
  Ref value = Make(Kind::kNumber);
  value->number = number;
  return value;
}

std::u16string Ascii(std::string_view text) { return std::u16string(text.begin(), text.end()); }

// A value's own text for messages, as JavaScript's String() would put a primitive.
std::string Describe(const Value& value) {
  switch (value.kind) {
    case Kind::kUndefined: return "undefined";
    case Kind::kNull: return "null";
    case Kind::kString: return Utf8Of(value.text);
    case Kind::kGlobal: return Utf8Of(value.text);
    default: return "a value";
  }
}

// The key as an array index (a canonical decimal below 2^32 - 1), if it is one.
std::optional<uint32_t> ArrayIndex(const std::u16string& key) {
  if (key.empty() || key.size() > 10 || (key.size() > 1 && key[0] == u'0')) return std::nullopt;
  uint64_t index = 0;
  for (const char16_t unit : key) {
    if (unit < u'0' || unit > u'9') return std::nullopt;
    index = index * 10 + static_cast<uint64_t>(unit - u'0');
  }
  if (index >= 0xFFFFFFFFull) return std::nullopt;
  return static_cast<uint32_t>(index);
}

// An object's own keys as Object.keys and JSON.stringify take them: array indices ascending,
// then the other keys in the order they were made.
std::vector<const std::pair<std::u16string, Ref>*> OrderedMembers(const Value& object) {
  std::vector<const std::pair<std::u16string, Ref>*> indices, others;
  for (const auto& member : object.members) (ArrayIndex(member.first) ? indices : others).push_back(&member);
  std::stable_sort(indices.begin(), indices.end(),
                   [](const auto* a, const auto* b) { return *ArrayIndex(a->first) < *ArrayIndex(b->first); });
  indices.insert(indices.end(), others.begin(), others.end());
  return indices;
}

// ToPropertyKey of the key a val was given: a string's units, a number's text.
std::u16string PropertyKey(const Value& key) {
  if (key.kind == Kind::kString) return key.text;
  if (key.kind == Kind::kNumber) {
    if (std::isnan(key.number)) return u"NaN";
    if (std::isinf(key.number)) return key.number > 0 ? u"Infinity" : u"-Infinity";
    return Ascii(NumberText(key.number));
  }
  Throw("not in the stand-in: a property key that is not a string or a number");
}

}  // namespace

[[noreturn]] void Throw(const std::string& what) {
  std::fprintf(stderr, "emscripten::val stand-in: %s\n", what.c_str());
  std::abort();
}

val String(std::u16string units) { return Access::Wrap(StringRef(std::move(units))); }

val Function(const val& result) {
  Ref function = Make(Kind::kFunction);
  function->result = Access::RefOf(result);
  return Access::Wrap(std::move(function));
}

val Symbol() { return Access::Wrap(Make(Kind::kSymbol)); }

val BigInt(std::string digits) {
  Ref value = Make(Kind::kBigInt);
  value->text = Ascii(digits);
  return Access::Wrap(std::move(value));
}

void PushHole(val& array) {
  Value& value = const_cast<Value&>(Inspect(array));
  if (value.kind != Kind::kArray) Throw("PushHole: not an array");
  value.elements.push_back(nullptr);
}

val Uint8Array(const std::string& bytes) {
  Ref value = Make(Kind::kTypedArray);
  value->bytes = true;
  for (const char byte : bytes) value->typed.push_back(static_cast<unsigned char>(byte));
  return Access::Wrap(std::move(value));
}

const Value& Inspect(const val& value) { return *Access::RefOf(value); }
val Handle(const Ref& value) { return Access::Wrap(value); }

void CollectGarbage() {
  const std::vector<std::weak_ptr<Value>> holders = std::move(Holders());
  Holders().clear();
  for (const std::weak_ptr<Value>& holder : holders) {
    if (const Ref value = holder.lock()) {
      value->elements.clear();
      value->members.clear();
      value->result.reset();
    }
  }
}

// ---- text --------------------------------------------------------------------------------------

namespace {

void AppendUtf8(std::string& out, uint32_t code) {
  if (code < 0x80) {
    out.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
    out.push_back(static_cast<char>(0x80 | (code & 63)));
  } else if (code < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 63)));
    out.push_back(static_cast<char>(0x80 | (code & 63)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code >> 12) & 63)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 63)));
    out.push_back(static_cast<char>(0x80 | (code & 63)));
  }
}

void AppendUtf16(std::u16string& out, uint32_t code) {
  if (code < 0x10000) {
    out.push_back(static_cast<char16_t>(code));
  } else {
    out.push_back(static_cast<char16_t>(0xD800 + ((code - 0x10000) >> 10)));
    out.push_back(static_cast<char16_t>(0xDC00 + ((code - 0x10000) & 0x3FF)));
  }
}

bool IsSurrogate(char16_t unit) { return unit >= 0xD800 && unit <= 0xDFFF; }
bool IsLead(char16_t unit) { return unit >= 0xD800 && unit <= 0xDBFF; }
bool IsTrail(char16_t unit) { return unit >= 0xDC00 && unit <= 0xDFFF; }

// The WHATWG Encoding Standard's UTF-8 decoder (what TextDecoder runs), on one run of bytes:
// U+FFFD for each maximal part that is not UTF-8; a leading U+FEFF dropped where `drop_bom`
// (TextDecoder without ignoreBOM).
std::u16string DecodeRun(std::string_view bytes, bool drop_bom) {
  std::u16string out;
  uint32_t code = 0, needed = 0, seen = 0, lower = 0x80, upper = 0xBF;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto byte = static_cast<unsigned char>(bytes[i]);
    if (needed == 0) {
      if (byte < 0x80) {
        out.push_back(byte);
      } else if (byte >= 0xC2 && byte <= 0xDF) {
        needed = 1, code = byte & 0x1Fu;
      } else if (byte >= 0xE0 && byte <= 0xEF) {
        needed = 2, code = byte & 0xFu;
        lower = byte == 0xE0 ? 0xA0 : 0x80, upper = byte == 0xED ? 0x9F : 0xBF;
      } else if (byte >= 0xF0 && byte <= 0xF4) {
        needed = 3, code = byte & 0x7u;
        lower = byte == 0xF0 ? 0x90 : 0x80, upper = byte == 0xF4 ? 0x8F : 0xBF;
      } else {
        out.push_back(0xFFFD);
      }
      continue;
    }
    if (byte < lower || byte > upper) {
      code = needed = seen = 0, lower = 0x80, upper = 0xBF;
      out.push_back(0xFFFD);
      --i;  // the byte is read again, as the start of what follows
      continue;
    }
    lower = 0x80, upper = 0xBF, code = (code << 6) | (byte & 0x3Fu);
    if (++seen == needed) {
      AppendUtf16(out, code);
      code = needed = seen = 0;
    }
  }
  if (needed != 0) out.push_back(0xFFFD);
  if (drop_bom && !out.empty() && out[0] == 0xFEFF) out.erase(0, 1);
  return out;
}

}  // namespace

std::string EmscriptenUtf8Of(const std::u16string& units) {
  std::string out;
  for (std::size_t i = 0; i < units.size(); ++i) {
    uint32_t u = units[i];
    if (IsSurrogate(units[i])) {
      // charCodeAt(++i) past the end is NaN, and NaN & 0x3FF is 0.
      const uint32_t next = ++i < units.size() ? units[i] : 0;
      u = (0x10000 + ((u & 0x3FF) << 10)) | (next & 0x3FF);
    }
    AppendUtf8(out, u);
  }
  return out;
}

std::u16string TextDecoderUtf16Of(const std::string& bytes) {
  std::u16string out;
  std::size_t start = 0;
  for (std::size_t nul; (nul = bytes.find('\0', start)) != std::string::npos; start = nul + 1) {
    out += DecodeRun(std::string_view(bytes).substr(start, nul - start), true);
    out.push_back(u'\0');
  }
  return out + DecodeRun(std::string_view(bytes).substr(start), true);
}

std::string Utf8Of(const std::u16string& units) {
  std::string out;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (IsLead(units[i]) && i + 1 < units.size() && IsTrail(units[i + 1])) {
      AppendUtf8(out, 0x10000 + ((units[i] - 0xD800u) << 10) + (units[i + 1] - 0xDC00u));
      ++i;
    } else {
      AppendUtf8(out, IsSurrogate(units[i]) ? 0xFFFD : units[i]);
    }
  }
  return out;
}

std::u16string Utf16Of(const std::string& utf8) { return DecodeRun(utf8, false); }

// ECMAScript's Number::toString(x) with radix 10: the shortest digits that read back to x,
// plainly written from 1e-7 to 1e21, else with an exponent.
std::string NumberText(double number) {
  if (number == 0) return "0";
  if (number < 0) return "-" + NumberText(-number);
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, number, std::chars_format::scientific);
  if (ec != std::errc()) Throw("NumberText: to_chars failed");
  const std::string_view scientific(buffer, static_cast<std::size_t>(end - buffer));
  const std::size_t e = scientific.find('e');
  std::string digits(scientific.substr(0, e));
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int k = static_cast<int>(digits.size());
  const int n = std::stoi(std::string(scientific.substr(e + 1))) + 1;  // x = 0.digits × 10^n
  if (k <= n && n <= 21) return digits + std::string(static_cast<std::size_t>(n - k), '0');
  const auto at = static_cast<std::size_t>(std::max(n, 0));
  if (0 < n && n <= 21) return digits.substr(0, at) + "." + digits.substr(at);
  if (-6 < n && n <= 0) return "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  const std::string exponent = (n - 1 < 0 ? "-" : "+") + std::to_string(std::abs(n - 1));
  return k == 1 ? digits + "e" + exponent : digits.substr(0, 1) + "." + digits.substr(1) + "e" + exponent;
}

// ---- the globals' methods ----------------------------------------------------------------------

namespace {

val ArrayFrom(const val& source) {
  const Value& v = Inspect(source);
  val array = val::array();
  if (v.kind == Kind::kTypedArray) {
    for (const double element : v.typed) array.set(static_cast<unsigned>(Inspect(array).elements.size()), val(element));
    return array;
  }
  Throw("not in the stand-in: Array.from of anything but a typed array");
}

val ObjectKeys(const val& object) {
  const Value& v = Inspect(object);
  if (v.kind == Kind::kUndefined || v.kind == Kind::kNull) {
    Throw("TypeError: Cannot convert undefined or null to object");
  }
  val keys = val::array();
  unsigned next = 0;
  const auto indices = [&](std::size_t size, const std::vector<Ref>* holes) {
    for (std::size_t i = 0; i < size; ++i) {
      if (holes == nullptr || (*holes)[i] != nullptr) keys.set(next++, String(Ascii(std::to_string(i))));
    }
  };
  if (v.kind == Kind::kString) indices(v.text.size(), nullptr);
  if (v.kind == Kind::kArray) indices(v.elements.size(), &v.elements);
  if (v.kind == Kind::kTypedArray) indices(v.typed.size(), nullptr);
  if (v.kind == Kind::kObject) {
    for (const auto* member : OrderedMembers(v)) keys.set(next++, String(member->first));
  }
  return keys;
}

}  // namespace

// ---- JSON.stringify ----------------------------------------------------------------------------

namespace {

// ECMAScript's QuoteJSONString: a lone surrogate as a \u escape, with lowercase hex digits.
void AppendQuoted(std::u16string& out, const std::u16string& units) {
  out.push_back(u'"');
  for (std::size_t i = 0; i < units.size(); ++i) {
    const char16_t unit = units[i];
    const bool paired = (IsLead(unit) && i + 1 < units.size() && IsTrail(units[i + 1])) ||
                        (IsTrail(unit) && i > 0 && IsLead(units[i - 1]));
    switch (unit) {
      case u'\b': out += u"\\b"; continue;
      case u'\t': out += u"\\t"; continue;
      case u'\n': out += u"\\n"; continue;
      case u'\f': out += u"\\f"; continue;
      case u'\r': out += u"\\r"; continue;
      case u'"': out += u"\\\""; continue;
      case u'\\': out += u"\\\\"; continue;
      default: break;
    }
    if (unit < 0x20 || (IsSurrogate(unit) && !paired)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned>(unit));
      out += Ascii(hex);
    } else {
      out.push_back(unit);
    }
  }
  out.push_back(u'"');
}

class Serializer {
 public:
  explicit Serializer(Stringified& result) : result_(result) {}

  // SerializeJSONProperty: false where the value has no JSON text (undefined, a function, a
  // symbol) or something threw.
  bool Property(Ref value, std::u16string& out) {
    if (value == nullptr) value = Undefined();
    if (value->kind == Kind::kObject) {
      for (const auto& [key, member] : value->members) {
        if (key == u"toJSON" && member->kind == Kind::kFunction) {
          result_.called_to_json = true;
          value = member->result != nullptr ? member->result : Undefined();
          break;
        }
      }
    }
    switch (value->kind) {
      case Kind::kNull: out += u"null"; return true;
      case Kind::kBoolean: out += value->boolean ? u"true" : u"false"; return true;
      case Kind::kString: AppendQuoted(out, value->text); return true;
      case Kind::kNumber: out += std::isfinite(value->number) ? Ascii(NumberText(value->number)) : u"null"; return true;
      case Kind::kBigInt: return Fail("TypeError: Do not know how to serialize a BigInt");
      case Kind::kArray: return Container(*value, out, true);
      case Kind::kObject:
      case Kind::kTypedArray: return Container(*value, out, false);
      default: return false;  // undefined, functions, symbols (and the globals, not modelled)
    }
  }

 private:
  bool Container(const Value& value, std::u16string& out, bool array) {
    if (std::find(stack_.begin(), stack_.end(), &value) != stack_.end()) {
      return Fail("TypeError: Converting circular structure to JSON");
    }
    stack_.push_back(&value);
    out.push_back(array ? u'[' : u'{');
    bool first = true;
    const auto put = [&](const std::u16string* key, const Ref& element) {
      std::u16string text;
      const bool has_text = Property(element, text);
      if (!result_.thrown.empty()) return false;
      if (!has_text && key != nullptr) return true;  // a member with no text is left out
      if (!first) out.push_back(u',');
      first = false;
      if (key != nullptr) {
        AppendQuoted(out, *key);
        out.push_back(u':');
      }
      out += has_text ? text : u"null";
      return true;
    };
    bool ok = true;
    if (array) {
      for (const Ref& element : value.elements) ok = ok && put(nullptr, element);
    } else if (value.kind == Kind::kTypedArray) {
      for (std::size_t i = 0; i < value.typed.size() && ok; ++i) {
        const std::u16string key = Ascii(std::to_string(i));
        ok = put(&key, NumberRef(value.typed[i]));
      }
    } else {
      for (const auto* member : OrderedMembers(value)) ok = ok && put(&member->first, member->second);
    }
    stack_.pop_back();
    out.push_back(array ? u']' : u'}');
    return ok;
  }

  bool Fail(const std::string& error) {
    result_.thrown = error;
    return false;
  }

  Stringified& result_;
  std::vector<const Value*> stack_;  // the containers being written, for cycles
};

}  // namespace

Stringified Stringify(const val& value) {
  Stringified result;
  std::u16string text;
  if (Serializer(result).Property(Access::RefOf(value), text) && result.thrown.empty()) result.text = std::move(text);
  return result;
}

}  // namespace stand_in

using stand_in::Kind;
using stand_in::Ref;
using stand_in::Throw;
using stand_in::Value;

val val::array() { return val(stand_in::Make(Kind::kArray)); }
val val::object() { return val(stand_in::Make(Kind::kObject)); }
val val::undefined() { return val(stand_in::Undefined()); }
val val::null() { return val(stand_in::Null()); }

val val::global(const char* name) {
  if (name == nullptr) Throw("not in the stand-in: globalThis");
  Ref global = stand_in::Make(Kind::kGlobal);
  global->text = stand_in::Ascii(name);
  return val(std::move(global));
}

val::val(const char* latin1) {
  std::u16string units;
  for (const char* c = latin1; *c != '\0'; ++c) units.push_back(static_cast<unsigned char>(*c));
  ref_ = stand_in::StringRef(std::move(units));
}

Ref val::Boolean(bool flag) {
  Ref value = stand_in::Make(Kind::kBoolean);
  value->boolean = flag;
  return value;
}

Ref val::Number(double number) { return stand_in::NumberRef(number); }
Ref val::FromUtf8(const std::string& utf8) { return stand_in::StringRef(stand_in::TextDecoderUtf16Of(utf8)); }

Ref val::Doubles(const double* data, std::size_t size) {
  Ref value = stand_in::Make(Kind::kTypedArray);
  value->typed.assign(data, data + size);
  return value;
}

const Value& val::Deref() const {
  if (ref_ == nullptr) Throw("BindingError: Cannot use deleted val (a val used after it was moved from)");
  return *ref_;
}

val val::typeOf() const {
  switch (Deref().kind) {
    case Kind::kUndefined: return val("undefined");
    case Kind::kBoolean: return val("boolean");
    case Kind::kNumber: return val("number");
    case Kind::kString: return val("string");
    case Kind::kSymbol: return val("symbol");
    case Kind::kBigInt: return val("bigint");
    case Kind::kFunction: return val("function");
    case Kind::kGlobal: return val(ref_->text == u"JSON" ? "object" : "function");
    default: return val("object");  // null, arrays, objects, typed arrays
  }
}

bool val::instanceof(const val& constructor) const {
  const Value& c = constructor.Deref();
  if (c.kind != Kind::kGlobal || c.text == u"JSON") Throw("TypeError: Right-hand side of 'instanceof' is not callable");
  const Value& v = Deref();
  if (c.text == u"Array") return v.kind == Kind::kArray;
  if (c.text == u"Uint8Array") return v.kind == Kind::kTypedArray && v.bytes;
  if (c.text == u"Float64Array") return v.kind == Kind::kTypedArray && !v.bytes;
  if (c.text == u"Object") {
    return v.kind == Kind::kArray || v.kind == Kind::kObject || v.kind == Kind::kFunction ||
           v.kind == Kind::kTypedArray || v.kind == Kind::kGlobal;
  }
  Throw("not in the stand-in: instanceof " + stand_in::Describe(c));
}

bool val::strictlyEquals(const val& other) const {
  const Value& a = Deref();
  const Value& b = other.Deref();
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::kUndefined:
    case Kind::kNull: return true;
    case Kind::kBoolean: return a.boolean == b.boolean;
    case Kind::kNumber: return a.number == b.number;  // NaN is not NaN; -0 is 0
    case Kind::kString:
    case Kind::kBigInt: return a.text == b.text;
    case Kind::kGlobal: return a.text == b.text;
    default: return &a == &b;  // objects, functions, symbols: the same one
  }
}


val val::Get(const val& key) const {
  const Value& v = Deref();
  const std::u16string name = stand_in::PropertyKey(key.Deref());
  if (v.kind == Kind::kUndefined || v.kind == Kind::kNull) {
    Throw("TypeError: Cannot read properties of " + stand_in::Describe(v) + " (reading '" + stand_in::Utf8Of(name) +
          "')");
  }
  const std::optional<uint32_t> index = stand_in::ArrayIndex(name);
  const auto length = [&](std::size_t size) {
    return name == u"length" ? val(static_cast<double>(size)) : undefined();
  };
  switch (v.kind) {
    case Kind::kString:
      if (index && *index < v.text.size()) return stand_in::String(std::u16string(1, v.text[*index]));
      return length(v.text.size());
    case Kind::kArray:
      if (index && *index < v.elements.size()) return v.elements[*index] ? val(v.elements[*index]) : undefined();
      return length(v.elements.size());
    case Kind::kTypedArray:
      if (index && *index < v.typed.size()) return val(v.typed[*index]);
      return length(v.typed.size());
    case Kind::kObject:
      for (const auto& [member, value] : v.members) {
        if (member == name) return val(value);
      }
      return undefined();  // nothing inherited is asked for
    default: return undefined();
  }
}

void val::Set(const val& key, const val& value) {
  Value& v = const_cast<Value&>(Deref());
  const std::u16string name = stand_in::PropertyKey(key.Deref());
  const Ref& ref = stand_in::Access::RefOf(value);
  if (v.kind == Kind::kObject) {
    for (auto& [member, old] : v.members) {
      if (member == name) {
        old = ref;  // a key set again keeps its place
        return;
      }
    }
    v.members.emplace_back(name, ref);
    return;
  }
  const std::optional<uint32_t> index = stand_in::ArrayIndex(name);
  if (v.kind == Kind::kArray && index) {
    if (*index >= v.elements.size()) v.elements.resize(*index + 1);  // holes up to it
    v.elements[*index] = ref;
    return;
  }
  if (v.kind == Kind::kArray || v.kind == Kind::kObject || v.kind == Kind::kFunction) {
    Throw("not in the stand-in: setting '" + stand_in::Utf8Of(name) + "' on this object");
  }
  // The glue is an ES module, strict code: a primitive's property cannot be set.
  Throw("TypeError: Cannot create property '" + stand_in::Utf8Of(name) + "' on " + stand_in::Describe(v));
}

bool val::AsBool() const {
  const Value& v = Deref();
  switch (v.kind) {
    case Kind::kUndefined:
    case Kind::kNull: return false;
    case Kind::kBoolean: return v.boolean;
    case Kind::kNumber: return v.number != 0 && !std::isnan(v.number);
    case Kind::kString: return !v.text.empty();
    case Kind::kBigInt: return v.text != u"0";
    default: return true;
  }
}

// What JavaScript's ToNumber gives: the wasm function's f64 result converts the value so.
double val::AsDouble() const {
  const Value& v = Deref();
  switch (v.kind) {
    case Kind::kNumber: return v.number;
    case Kind::kBoolean: return v.boolean ? 1 : 0;
    case Kind::kUndefined: return std::numeric_limits<double>::quiet_NaN();
    case Kind::kNull: return 0;
    case Kind::kSymbol: Throw("TypeError: Cannot convert a Symbol value to a number");
    case Kind::kBigInt: Throw("TypeError: Cannot convert a BigInt value to a number");
    default: Throw("not in the stand-in: a number from a string or an object");
  }
}

// Embind's unsigned binding: value >>> 0 (ToUint32).
unsigned val::AsUint32() const {
  const double number = AsDouble();
  if (!std::isfinite(number)) return 0;
  const double truncated = std::trunc(number);
  const double modulo = std::fmod(truncated, 4294967296.0);
  return static_cast<unsigned>(modulo < 0 ? modulo + 4294967296.0 : modulo);
}

std::string val::AsString() const {
  const Value& v = Deref();
  if (v.kind == Kind::kString) return stand_in::EmscriptenUtf8Of(v.text);
  if (v.kind == Kind::kTypedArray && v.bytes) {
    std::string bytes;
    for (const double byte : v.typed) bytes.push_back(static_cast<char>(static_cast<unsigned char>(byte)));
    return bytes;
  }
  Throw("BindingError: Cannot pass non-string to std::string (" + stand_in::Describe(v) + ")");
}

val val::Call(const char* name, const std::vector<val>& args) const {
  const Value& self = Deref();
  const std::string method(name);
  const auto arg = [&](std::size_t i) { return i < args.size() ? args[i] : undefined(); };
  if (self.kind == Kind::kString && method == "charCodeAt") {  // NaN past the end
    const double at = arg(0).as<double>();
    if (!(at >= 0 && at < static_cast<double>(self.text.size()))) return val(std::nan(""));
    return val(static_cast<double>(self.text[static_cast<std::size_t>(at)]));
  }
  if (self.kind != Kind::kGlobal) Throw("not in the stand-in: a method of a value that is not a global");
  if (self.text == u"Array" && method == "isArray") return val(arg(0).isArray());
  if (self.text == u"Array" && method == "from") return stand_in::ArrayFrom(arg(0));
  if (self.text == u"Object" && method == "keys") return stand_in::ObjectKeys(arg(0));
  if (self.text == u"JSON" && method == "stringify") {
    const stand_in::Stringified json = stand_in::Stringify(arg(0));
    if (!json.thrown.empty()) Throw(json.thrown);
    return json.text ? stand_in::String(*json.text) : undefined();
  }
  Throw("not in the stand-in: " + stand_in::Describe(self) + "." + method);
}

}  // namespace emscripten
