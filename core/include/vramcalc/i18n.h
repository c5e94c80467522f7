// UI strings in German and English, from assets/i18n/<lang>.json (compiled in). The core
// itself answers in data (ids and numbers); only the CLI's Markdown page reads these.
#ifndef VRAMCALC_I18N_H_
#define VRAMCALC_I18N_H_

#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "vramcalc/result.h"
#include "vramcalc/vocab.h"

namespace vramcalc {

enum class Lang { kDe, kEn };
inline constexpr Named<Lang> kLangNames[] = {{Lang::kDe, "de"}, {Lang::kEn, "en"}};
inline constexpr Vocabulary<Lang> kLangs{kLangNames};

class Strings {
 public:
  Strings() = default;
  explicit Strings(std::map<std::string, std::string, std::less<>> texts)
      : texts_(std::move(texts)) {}
  // The text for `key`; the key itself when missing (a test proves none is missing).
  std::string_view Text(std::string_view key) const;
  const std::map<std::string, std::string, std::less<>>& texts() const { return texts_; }

 private:
  std::map<std::string, std::string, std::less<>> texts_;
};

// The compiled-in strings for `lang` (tests/core/builtin_data_test.cc: those of assets/i18n/);
// empty in the wasm modules, whose page loads them.
const Strings& BuiltinStrings(Lang lang);

// Replaces each "{name}" in `pattern` by its value; unknown placeholders stay as they are.
std::string FillTemplate(std::string_view pattern,
                         std::initializer_list<std::pair<std::string_view, std::string>> values);

}  // namespace vramcalc

#endif  // VRAMCALC_I18N_H_
