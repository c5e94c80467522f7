// libFuzzer: any bytes as a UI string table, and any text as a template to fill.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "strings_codec.h"  // core/src: the tests' reader of assets/i18n/
#include "vramcalc/i18n.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto strings = vramcalc::internal::ParseStrings(input);
  if (strings.ok()) {
    for (const auto& [key, text] : strings.value().texts()) {
      (void)vramcalc::FillTemplate(text, {{"model", "M"}, {"tokens", "1"}});
    }
  }
  (void)vramcalc::FillTemplate(input, {{"model", std::string(input.substr(0, 8))}});
  return 0;
}
