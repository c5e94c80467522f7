#include "object_known.h"

#include <cstdlib>
#include <set>
#include <string>

namespace vramcalc::fuzz {
namespace {

namespace stand_in = emscripten::stand_in;
using Kind = stand_in::Kind;
using Seen = std::set<const stand_in::Value*>;

bool Strict() {
  static const bool strict = std::getenv("VRAMCALC_FUZZ_STRICT") != nullptr;
  return strict;
}

// Embind gives the string back as it was, once to UTF-8 and back (as<std::string>, then
// val(std::string)); it does not for a lone surrogate (refused), nor for a U+FEFF at the start or
// after a U+0000, which TextDecoder drops.
bool DropsByteOrderMark(const std::u16string& units) {
  const bool lone_surrogate = stand_in::Utf16Of(stand_in::Utf8Of(units)) != units;
  return !lone_surrogate && stand_in::TextDecoderUtf16Of(stand_in::EmscriptenUtf8Of(units)) != units;
}

bool Omitted(const stand_in::Value& member) {
  return member.kind == Kind::kUndefined || member.kind == Kind::kFunction || member.kind == Kind::kSymbol;
}

bool HasDroppedMark(const stand_in::Value& value, Seen& seen) {
  if (!seen.insert(&value).second) return false;
  if (value.kind == Kind::kString) return DropsByteOrderMark(value.text);
  for (const stand_in::Ref& element : value.elements) {
    if (element != nullptr && HasDroppedMark(*element, seen)) return true;
  }
  for (const auto& [key, member] : value.members) {
    if (!Omitted(*member) && (DropsByteOrderMark(key) || HasDroppedMark(*member, seen))) return true;
  }
  return false;
}

}  // namespace

bool HasKnownTextDifference(const emscripten::val& request) {
  Seen seen;
  return !Strict() && HasDroppedMark(stand_in::Inspect(request), seen);
}

bool Throws(const stand_in::Stringified& json) { return !Strict() && !json.thrown.empty() && json.called_to_json; }

}  // namespace vramcalc::fuzz
