// The stand-in for emscripten::val (emscripten/val.h) against JavaScript itself: prints seeded
// random cases with the stand-in's answers, one JSON object a line, which check_cases.mjs works
// out again in Node with JavaScript's own Number.prototype.toString, JSON.stringify and
// TextDecoder, and Emscripten 3.1.6's stringToUTF8Array. ctest runs the pair in build-sanitize/.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <random>
#include <string>

#include "emscripten/val.h"

namespace {

namespace stand_in = emscripten::stand_in;
using emscripten::val;

std::mt19937_64 random_bits(42);

uint64_t Next(uint64_t below) { return random_bits() % below; }

std::string Hex(const std::string& bytes) {
  std::string out;
  char digits[3];
  for (const unsigned char byte : bytes) {
    std::snprintf(digits, sizeof digits, "%02x", byte);
    out += digits;
  }
  return out;
}

std::string Units(const std::u16string& units) {
  std::string out = "[";
  for (std::size_t i = 0; i < units.size(); ++i) out += (i ? "," : "") + std::to_string(units[i]);
  return out + "]";
}

// Doubles of every size and shape: random bits, integers, powers of two, decimals.
void Numbers(int count) {
  for (int i = 0; i < count; ++i) {
    uint64_t bits = random_bits();
    double x;
    switch (Next(4)) {
      case 0: std::memcpy(&x, &bits, sizeof x); break;
      case 1: x = static_cast<double>(static_cast<int64_t>(bits >> Next(64))); break;
      case 2: x = std::ldexp(static_cast<double>(bits >> 11), static_cast<int>(Next(200)) - 150); break;
      default: x = static_cast<double>(Next(100000)) / std::pow(10.0, static_cast<double>(Next(30))) * (Next(2) ? 1e20 : 1);
    }
    if (!std::isfinite(x)) continue;
    std::memcpy(&bits, &x, sizeof bits);
    std::printf("{\"number\":\"%016llx\",\"text\":\"%s\"}\n", static_cast<unsigned long long>(bits),
                stand_in::NumberText(x).c_str());
  }
}

// Strings of code units, lone surrogates and controls among them: JSON.stringify's text and
// Embind's UTF-8.
void Strings(int count) {
  static constexpr char16_t kUnits[] = {u'a', u'"', u'\\', 0, 1, 0x1f, u'\n', 0x7f, 0xe9, 0x20ac, 0xfeff,
                                        0xfffd, 0xd83d, 0xde00, 0xd800, 0xdfff, 0xdbff, 0xdc00};
  for (int i = 0; i < count; ++i) {
    std::u16string units;
    for (uint64_t n = Next(8); n > 0; --n) {
      units.push_back(Next(2) ? kUnits[Next(std::size(kUnits))] : static_cast<char16_t>(Next(0x10000)));
    }
    const stand_in::Stringified json = stand_in::Stringify(stand_in::String(units));
    std::printf("{\"units\":%s,\"stringify\":%s,\"utf8\":\"%s\"}\n", Units(units).c_str(), Units(*json.text).c_str(),
                Hex(stand_in::EmscriptenUtf8Of(units)).c_str());
  }
}

// Bytes, not all of them UTF-8, NUL and byte order marks among them: what Embind makes of them.
void Bytes(int count) {
  static constexpr unsigned char kBytes[] = {0, 'a', 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac,
                                             0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80, 0xc0, 0xf5, 0xff};
  for (int i = 0; i < count; ++i) {
    std::string bytes;
    for (uint64_t n = Next(10); n > 0; --n) {
      bytes.push_back(static_cast<char>(Next(3) ? kBytes[Next(std::size(kBytes))] : Next(256)));
    }
    std::printf("{\"bytes\":\"%s\",\"decoded\":%s}\n", Hex(bytes).c_str(),
                Units(stand_in::TextDecoderUtf16Of(bytes)).c_str());
  }
}

// Objects made member by member (index-like keys, a key set twice, NaN, arrays with holes):
// JSON.stringify's text, in JavaScript's order of keys.
void Objects(int count) {
  static const char* const kKeys[] = {"b", "2", "a", "1", "01", "4294967295", "4294967294", "-1", "1.5", "10",
                                      "__proto__", ""};
  for (int i = 0; i < count; ++i) {
    val object = val::object();
    std::string steps = "[";
    for (uint64_t n = Next(6); n > 0; --n) {
      const std::string key = kKeys[Next(std::size(kKeys))];
      const double number = Next(7) == 0 ? NAN : static_cast<double>(Next(5));
      const bool array = Next(3) == 0;
      val value(number);
      if (array) {  // [number, <hole>, key]
        value = val::array();
        value.set(0u, val(number));
        value.set(2u, val(key));
      }
      object.set(key, value);
      steps += (steps.size() > 1 ? "," : "") + std::string("[\"") + key + "\"," +
               (std::isnan(number) ? "null" : std::to_string(static_cast<int>(number))) + "," + (array ? "true" : "false") + "]";
    }
    std::printf("{\"steps\":%s],\"stringify\":%s}\n", steps.c_str(), Units(*stand_in::Stringify(object).text).c_str());
    stand_in::CollectGarbage();
  }
}

}  // namespace

int main() {
  Numbers(20000);
  Strings(20000);
  Bytes(20000);
  Objects(3000);
  return 0;
}
