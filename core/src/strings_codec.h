// Parsing the UI string tables (i18n.cc): what the compiled-in tables are read with, and what the
// tests and the strings fuzzer read assets/i18n/ with.
#ifndef VRAMCALC_SRC_STRINGS_CODEC_H_
#define VRAMCALC_SRC_STRINGS_CODEC_H_

#include <string_view>

#include "vramcalc/i18n.h"
#include "vramcalc/result.h"

namespace vramcalc::internal {

// A flat JSON object of string values; keys starting with "_" are skipped.
Result<Strings> ParseStrings(std::string_view strings_json);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_STRINGS_CODEC_H_
