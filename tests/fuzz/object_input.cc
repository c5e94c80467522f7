#include "object_input.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "vramcalc/json_codec.h"

namespace vramcalc::fuzz {
namespace {

using emscripten::val;
namespace stand_in = emscripten::stand_in;

constexpr int kMaxDepth = 40;   // past the readers' 32
constexpr int kMaxNodes = 160;  // a value's containers and leaves, built from scratch

// Ids and names a request is made of, from the catalog the core answers with.
struct Vocabulary {
  std::vector<std::string> models, devices, formats, kv_dtypes, runtimes, sections;
  std::vector<std::string> keys;  // the request's, the device's, a config.json's, and some others
};

const Vocabulary& Words() {
  static const Vocabulary words = [] {
    Vocabulary v;
    const nlohmann::json catalog = nlohmann::json::parse(CatalogJson());
    const auto ids = [&](const char* list, std::vector<std::string>& out, const char* key = "id") {
      for (const auto& entry : catalog.at(list)) out.push_back((key ? entry.at(key) : entry).get<std::string>());
    };
    ids("models", v.models);
    ids("devices", v.devices);
    ids("formats", v.formats);
    ids("kv_dtypes", v.kv_dtypes);
    ids("runtimes", v.runtimes);
    ids("sections", v.sections, nullptr);
    ids("request_fields", v.keys, "name");
    for (const char* key : {"name", "memory_gib", "bandwidth_gbps", "platform", "unified_memory", "model_type",
                            "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
                            "vocab_size", "intermediate_size", "max_position_embeddings", "toJSON", "__proto__",
                            "0", "1", "4294967295", "length", ""}) {
      v.keys.emplace_back(key);
    }
    return v;
  }();
  return words;
}

// ---- JSON text ---------------------------------------------------------------------------------

// The value JSON.parse makes of `json`; every array and object made is added to `containers`.
val FromJson(const nlohmann::ordered_json& json, std::vector<val>& containers, int depth) {
  switch (json.type()) {
    case nlohmann::ordered_json::value_t::boolean: return val(json.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
    case nlohmann::ordered_json::value_t::number_unsigned:
    case nlohmann::ordered_json::value_t::number_float: return val(json.get<double>());
    case nlohmann::ordered_json::value_t::string: return stand_in::String(stand_in::Utf16Of(json.get<std::string>()));
    case nlohmann::ordered_json::value_t::array:
    case nlohmann::ordered_json::value_t::object: break;
    default: return val::null();
  }
  if (depth >= kMaxDepth) return val::null();
  val container = json.is_array() ? val::array() : val::object();
  containers.push_back(container);
  unsigned index = 0;
  for (const auto& [key, element] : json.items()) {
    const val value = FromJson(element, containers, depth + 1);
    if (json.is_array()) {
      container.set(index++, value);
    } else {
      container.set(stand_in::String(stand_in::Utf16Of(key)), value);  // a key twice: the last value
    }
  }
  return container;
}

// ---- values from scratch -----------------------------------------------------------------------

class Builder {
 public:
  Builder(FuzzedDataProvider& in, std::vector<val>& containers) : in_(in), containers_(containers) {}

  val Any(int depth) {
    if (depth >= kMaxDepth || ++nodes_ > kMaxNodes || in_.remaining_bytes() == 0) return Leaf();
    switch (in_.ConsumeIntegralInRange(0, 7)) {
      case 0: return Array(depth);
      case 1: return Object(depth, false);
      case 2: return Deep();
      default: return Leaf();
    }
  }

  // An object of the request's fields, most of them with values of their kind; now and then
  // anything else.
  val Request() { return in_.ConsumeIntegralInRange(0, 15) == 0 ? Any(0) : Object(0, true); }

  val Leaf() {
    switch (in_.ConsumeIntegralInRange(0, 13)) {
      case 0: return val::undefined();
      case 1: return val::null();
      case 2: return val(in_.ConsumeBool());
      case 3:
      case 4: return Number();
      case 5: return Word(Words().models);
      case 6: return Word(Words().devices);
      case 7: return Text();
      case 8: return stand_in::Function(in_.ConsumeBool() ? val::undefined() : Leaf());
      case 9: return stand_in::Symbol();
      case 10: return stand_in::BigInt(std::to_string(in_.ConsumeIntegral<int64_t>()));
      case 11: return in_.ConsumeBool() ? SelfReference() : stand_in::Uint8Array(in_.ConsumeRandomLengthString(16));
      default: return Word(*Pick({&Words().formats, &Words().kv_dtypes, &Words().runtimes, &Words().sections}));
    }
  }

  val Number() {
    static constexpr double kNumbers[] = {
        0, 1, 2, 3, 4, 8, 0.5, 1.5, 0.9, 1e-7, 5e-324, 1024, 4096, 8192, 32768, 65536, 131072, 1048576,
        134217728, 134217729, 2147483647, 4294967296, 9007199254740992, 9007199254740994, 1e21, 1e308,
        1.7976931348623157e308, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};
    double number;
    if (in_.ConsumeBool()) {
      number = kNumbers[in_.ConsumeIntegralInRange<std::size_t>(0, std::size(kNumbers) - 1)];
    } else {
      const uint64_t bits = in_.ConsumeIntegral<uint64_t>();
      std::memcpy(&number, &bits, sizeof number);
    }
    return val(in_.ConsumeBool() ? -number : number);
  }

  // A string: an id, a custom device's text, or code units as they come (lone surrogates and
  // U+FEFF included).
  val Text() {
    switch (in_.ConsumeIntegralInRange(0, 3)) {
      case 0: return val(std::string("custom:") + std::to_string(in_.ConsumeIntegralInRange(0, 20000)) + ":" +
                         std::to_string(in_.ConsumeIntegralInRange(0, 200000)) + ":" +
                         Pick<std::string>({"cuda", "rocm", "vulkan", "metal", "metal+unified"}) + ":" +
                         in_.ConsumeRandomLengthString(24));
      case 1: return val(in_.ConsumeRandomLengthString(32));
      default: {
        std::u16string units;
        const std::size_t length = in_.ConsumeIntegralInRange<std::size_t>(0, 12);
        for (std::size_t i = 0; i < length && in_.remaining_bytes() > 0; ++i) units.push_back(Unit());
        return stand_in::String(std::move(units));
      }
    }
  }

  // Containers nested `depth` deep around a leaf: past the readers' limit of 32, or just within it.
  val Deep() {
    const int depth = in_.ConsumeIntegralInRange(28, 36);
    val inner = Leaf();
    for (int i = 0; i < depth; ++i) {
      val outer = in_.ConsumeBool() ? val::array() : val::object();
      if (stand_in::Inspect(outer).kind == stand_in::Kind::kArray) {
        outer.set(0u, inner);
      } else {
        outer.set(Key(), inner);
      }
      inner = outer;
    }
    return inner;
  }

  val Key() {
    if (in_.ConsumeIntegralInRange(0, 7) == 0) return Text();
    return val(Pick(Words().keys));
  }

 private:
  val Array(int depth) {
    val array = val::array();
    containers_.push_back(array);
    const int length = in_.ConsumeIntegralInRange(0, 5);
    for (int i = 0; i < length; ++i) {
      if (in_.ConsumeIntegralInRange(0, 9) == 0) {
        stand_in::PushHole(array);
      } else {
        array.set(static_cast<unsigned>(i), Any(depth + 1));
      }
    }
    return array;
  }

  // A request's fields are its keys' kinds of value three times in four.
  val Object(int depth, bool request) {
    val object = val::object();
    containers_.push_back(object);
    const int size = in_.ConsumeIntegralInRange(0, request ? 8 : 4);
    for (int i = 0; i < size && in_.remaining_bytes() > 0; ++i) {
      const val key = Key();
      const std::string name = stand_in::Utf8Of(stand_in::Inspect(key).text);
      object.set(key, request && in_.ConsumeIntegralInRange(0, 3) != 0 ? FieldValue(name, depth) : Any(depth + 1));
    }
    return object;
  }

  // A value of the kind the request field `key` takes.
  val FieldValue(const std::string& key, int depth) {
    const Vocabulary& w = Words();
    if (key == "model") return in_.ConsumeBool() ? Word(w.models) : Object(depth + 1, false);
    if (key == "format") return Word(w.formats);
    if (key == "kv_dtype") return Word(w.kv_dtypes);
    if (key == "runtime") return Word(w.runtimes);
    if (key == "device") {
      if (in_.ConsumeBool()) return Word(w.devices);
      return in_.ConsumeBool() ? Text() : Object(depth + 1, false);
    }
    if (key == "compare" || key == "sections") {
      val list = val::array();
      const int length = in_.ConsumeIntegralInRange(0, 4);
      const std::vector<std::string>& words = key == "compare" ? w.devices : w.sections;
      for (int i = 0; i < length; ++i) list.set(static_cast<unsigned>(i), Word(words));
      return list;
    }
    if (key == "flash_attention") return val(in_.ConsumeBool());
    return Number();
  }

  // One of the containers made so far (a cycle when it encloses where it goes), else null. Two
  // at most: a container held twice at each of many levels is written out 2^levels times (by
  // JSON.stringify and Read alike).
  val SelfReference() {
    if (containers_.empty() || ++references_ > 2) return val::null();
    return containers_[in_.ConsumeIntegralInRange<std::size_t>(0, containers_.size() - 1)];
  }

  char16_t Unit() {
    static constexpr char16_t kUnits[] = {u'a', u'"', u'\\', u'\0', u'\n', 0x7F, 0xE9, 0x20AC, 0xFEFF,
                                          0xFFFD, 0xD83D, 0xDE00, 0xD800, 0xDFFF};
    if (in_.ConsumeBool()) return kUnits[in_.ConsumeIntegralInRange<std::size_t>(0, std::size(kUnits) - 1)];
    return in_.ConsumeIntegral<char16_t>();
  }

  val Word(const std::vector<std::string>& words) { return val(Pick(words)); }

  template <typename T>
  const T& Pick(const std::vector<T>& options) {
    return options[in_.ConsumeIntegralInRange<std::size_t>(0, options.size() - 1)];
  }
  template <typename T>
  T Pick(std::initializer_list<T> options) {
    return *(options.begin() + in_.ConsumeIntegralInRange<std::size_t>(0, options.size() - 1));
  }

  FuzzedDataProvider& in_;
  std::vector<val>& containers_;
  int nodes_ = 0;
  int references_ = 0;
};

// ---- what only JavaScript can do to a value made from JSON text ------------------------------

// Sets a member or element of one of `containers` to a value JSON text has no form for, for
// each change the bytes hold (sixteen at most).
void Decorate(FuzzedDataProvider& in, std::vector<val>& containers) {
  Builder builder(in, containers);
  for (int change = 0; change < 16 && in.remaining_bytes() > 0 && !containers.empty(); ++change) {
    val target = containers[in.ConsumeIntegralInRange<std::size_t>(0, containers.size() - 1)];
    const stand_in::Value& value = stand_in::Inspect(target);
    const val element = in.ConsumeBool() ? builder.Leaf() : builder.Any(kMaxDepth - 2);
    if (value.kind == stand_in::Kind::kArray) {
      if (in.ConsumeIntegralInRange(0, 7) == 0) {
        stand_in::PushHole(target);
      } else {
        target.set(in.ConsumeIntegralInRange<unsigned>(0, static_cast<unsigned>(value.elements.size())), element);
      }
    } else if (!value.members.empty() && in.ConsumeBool()) {
      const std::size_t member = in.ConsumeIntegralInRange<std::size_t>(0, value.members.size() - 1);
      target.set(stand_in::String(value.members[member].first), element);
    } else {
      target.set(builder.Key(), element);
    }
  }
}

}  // namespace

val ValueOf(const uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = std::min(bytes.find('\0'), bytes.size());
  std::vector<val> containers;
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(bytes.substr(0, nul), nullptr, false);
  if (json.is_discarded()) {
    FuzzedDataProvider in(data, size);
    return Builder(in, containers).Request();
  }
  const val value = FromJson(json, containers, 0);
  if (nul < size) {
    FuzzedDataProvider in(data + nul + 1, size - nul - 1);
    Decorate(in, containers);
  }
  return value;
}

}  // namespace vramcalc::fuzz
