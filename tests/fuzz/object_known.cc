#include "object_known.h"

#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

namespace vramcalc::fuzz {
namespace {

using emscripten::val;
namespace stand_in = emscripten::stand_in;
using Kind = stand_in::Kind;
using Seen = std::set<const stand_in::Value*>;

bool Strict() {
  static const bool strict = std::getenv("VRAMCALC_FUZZ_STRICT") != nullptr;
  return strict;
}

// Embind gives the string back as it was, once to UTF-8 and back (as<std::string>, then
// val(std::string)); it does not for a lone surrogate, nor for a U+FEFF at the start or after a
// U+0000, which TextDecoder drops.
bool RoundTrips(const std::u16string& units) {
  return stand_in::TextDecoderUtf16Of(stand_in::EmscriptenUtf8Of(units)) == units;
}

bool HasLoneSurrogate(const std::u16string& units) { return stand_in::Utf16Of(stand_in::Utf8Of(units)) != units; }

// `text` with each run of U+FFFD as one.
std::string WithoutRepeatedReplacements(const std::string& text) {
  constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const bool replacement = text.compare(i, kReplacement.size(), kReplacement) == 0;
    if (!replacement || !std::string_view(out).ends_with(kReplacement)) {
      out += replacement ? std::string(kReplacement) : std::string(1, text[i]);
    }
    i += replacement ? kReplacement.size() : 1;
  }
  return out;
}

bool Omitted(const stand_in::Value& member) {
  return member.kind == Kind::kUndefined || member.kind == Kind::kFunction || member.kind == Kind::kSymbol;
}

// Strings and keys Embind does not give back as they were though JSON can carry them ("bom-key":
// val_value.cc's Members() looks the member up by the key given back, another member or none;
// "bom-emoji": its ReadsBack refuses such a string holding a 4-byte character; "bom-answer": an
// answer echoing the text drops the U+FEFF); keys of members JSON.stringify leaves out, which
// Members() reads before it leaves the member out ("omitted-member-key": a lone surrogate
// refused that JSON text of the object does not hold).
bool HasTextEmbindChanges(const stand_in::Value& value, Seen& seen) {
  if (!seen.insert(&value).second) return false;
  if (value.kind == Kind::kString) return !HasLoneSurrogate(value.text) && !RoundTrips(value.text);
  for (const stand_in::Ref& element : value.elements) {
    if (element != nullptr && HasTextEmbindChanges(*element, seen)) return true;
  }
  for (const auto& [key, member] : value.members) {
    if (!RoundTrips(key) && (Omitted(*member) || !HasLoneSurrogate(key))) return true;
    if (HasTextEmbindChanges(*member, seen)) return true;
  }
  return false;
}

bool HasToJson(const stand_in::Value& value, Seen& seen) {
  if (!seen.insert(&value).second) return false;
  for (const stand_in::Ref& element : value.elements) {
    if (element != nullptr && HasToJson(*element, seen)) return true;
  }
  for (const auto& [key, member] : value.members) {
    if ((key == u"toJSON" && member->kind == Kind::kFunction) || HasToJson(*member, seen)) return true;
  }
  return false;
}

// JSON.stringify of a container in `value` returns undefined or throws once it has called a
// toJSON (undefined, a BigInt, a cycle returned). full_module.cc's TextOf (a config.json as the
// model, evaluateWithConfig, sweep) and val_value.cc's ValValue::Source (a value echoed in a
// message) pass what it returns to Embind as std::string, which throws BindingError.
bool StringifyFailsWithin(const stand_in::Value& value, const val& handle, Seen& seen) {
  if (!seen.insert(&value).second || (value.kind != Kind::kArray && value.kind != Kind::kObject)) return false;
  const stand_in::Stringified json = stand_in::Stringify(handle);
  if (json.called_to_json && !json.text) return true;
  for (const stand_in::Ref& element : value.elements) {
    if (element != nullptr && StringifyFailsWithin(*element, stand_in::Handle(element), seen)) return true;
  }
  for (const auto& [key, member] : value.members) {
    if (StringifyFailsWithin(*member, stand_in::Handle(member), seen)) return true;
  }
  return false;
}

}  // namespace

bool NamesFieldBelowArray(const Error& object, const Error& text) {
  if (Strict() || object.code != text.code || object.field == text.field) return false;
  if (!text.field.empty() && !object.field.starts_with(text.field + ".")) return false;
  std::string expected = text.message;
  if (text.field.empty()) {  // "The request is nested too deeply. Send an object such as …."
    constexpr std::string_view kRequest = "The request";
    const std::size_t end = expected.find(". Send an object such as ");
    if (!expected.starts_with(kRequest) || end == std::string::npos) return false;
    expected = "The value of " + expected.substr(kRequest.size(), end - kRequest.size()) + ".";
  }
  const std::string prefix = "The value of " + text.field;
  if (!expected.starts_with(prefix)) return false;
  return object.message == "The value of " + object.field + expected.substr(prefix.size());
}

bool SameButCutCharacter(const std::string& object, const std::string& text) {
  return !Strict() && WithoutRepeatedReplacements(object) == WithoutRepeatedReplacements(text);
}

bool HasKnownTextDifference(const val& request) {
  Seen seen;
  return !Strict() && HasTextEmbindChanges(stand_in::Inspect(request), seen);
}

bool Throws(const val& request, bool text_of_request) {
  if (Strict()) return false;
  const stand_in::Value& value = stand_in::Inspect(request);
  if (text_of_request && (value.kind == Kind::kFunction || value.kind == Kind::kSymbol)) return true;
  Seen with_to_json, seen;
  return HasToJson(value, with_to_json) && StringifyFailsWithin(value, request, seen);
}

}  // namespace vramcalc::fuzz
