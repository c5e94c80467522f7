#include "vramcalc/i18n.h"

#include "builtin_data.h"

namespace vramcalc {

std::optional<Lang> ParseLang(std::string_view id) {
  if (id == "de") return Lang::kDe;
  if (id == "en") return Lang::kEn;
  return std::nullopt;
}

std::string_view LangId(Lang lang) { return lang == Lang::kDe ? "de" : "en"; }

std::string_view Strings::Text(std::string_view key) const {
  const auto it = texts_.find(key);
  return it == texts_.end() ? key : std::string_view(it->second);
}

const Strings& BuiltinStrings(Lang lang) {
  // Built once, then immutable: the tables are constants of the program.
  static const Strings kDe(internal::BuiltinStringTable(Lang::kDe));
  static const Strings kEn(internal::BuiltinStringTable(Lang::kEn));
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
        bool replaced = false;
        for (const auto& [key, value] : values) {
          if (key == name) {
            out += value;
            replaced = true;
            break;
          }
        }
        if (replaced) {
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
