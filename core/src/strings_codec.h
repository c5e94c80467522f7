// Parsing a UI string table from its JSON text (i18n.cc). The program does not: its tables are
// compiled in as data (builtin_data.h). The tests read assets/i18n/ with it, to compare the
// compiled-in tables with, and the strings fuzzer runs it.
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
