// Parsing the UI string tables; implemented in json_codec.cc, the one translation unit that
// includes nlohmann/json.
#ifndef VRAMCALC_SRC_STRINGS_CODEC_H_
#define VRAMCALC_SRC_STRINGS_CODEC_H_

#include <string_view>

#include "vramcalc/i18n.h"
#include "vramcalc/result.h"

namespace vramcalc::internal {

// A flat JSON object of string values; "_comment" keys are skipped.
Result<Strings> ParseStrings(std::string_view strings_json);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_STRINGS_CODEC_H_
