#include "vramcalc/i18n.h"

#include <algorithm>

#include "model/builtin_data.h"

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


}  // namespace vramcalc
