#include "vramcalc/i18n.h"

#include <algorithm>

#include "builtin_data.h"
#include "json_value.h"
#include "strings_codec.h"

namespace vramcalc {

std::string_view Strings::Text(std::string_view key) const {
  const auto it = texts_.find(key);
  return it == texts_.end() ? key : std::string_view(it->second);
}

const Strings& BuiltinStrings(Lang lang) {
  // Built once, then immutable: the tables are constants of the program (empty in the wasm
  // modules, which carry no strings).
  static const auto kTable = [](Lang which) {
    std::map<std::string, std::string, std::less<>> texts;
    for (const auto& [key, text] : internal::BuiltinStringEntries(which)) texts.emplace(key, text);
    return Strings(std::move(texts));
  };
  static const Strings kDe = kTable(Lang::kDe);
  static const Strings kEn = kTable(Lang::kEn);
  return lang == Lang::kDe ? kDe : kEn;
}

std::string FillTemplate(std::string_view pattern,
                         std::initializer_list<std::pair<std::string_view, std::string>> values) {
  std::string out;
  out.reserve(pattern.size() + 32);
  std::size_t i = 0;
  while (i < pattern.size()) {
    if (pattern[i] == '{') {
      const std::size_t close = pattern.find('}', i);
      if (close != std::string_view::npos) {
        const std::string_view name = pattern.substr(i + 1, close - i - 1);
        const auto* value = std::find_if(values.begin(), values.end(),
                                         [name](const auto& entry) { return entry.first == name; });
        if (value != values.end()) {
          out += value->second;
          i = close + 1;
          continue;
        }
      }
    }
    out.push_back(pattern[i]);
    ++i;
  }
  return out;
}

namespace internal {

Result<Strings> ParseStrings(std::string_view strings_json) {
  Result<json::Document> document = json::Document::Parse(strings_json, 2);
  if (!document.ok()) return Error{"invalid_strings", document.error().message, ""};
  const json::Value root = document.value().root();
  if (!root.IsObject()) return Error{"invalid_strings", "must be a JSON object", ""};
  std::map<std::string, std::string, std::less<>> texts;
  for (const json::Value member : root.Children()) {
    const std::string key(member.Key());
    if (key.starts_with("_")) continue;
    if (!member.IsString()) return Error{"invalid_strings", key + " must be a string", key};
    texts.emplace(key, member.String());
  }
  return Strings(std::move(texts));
}

}  // namespace internal

}  // namespace vramcalc
