// The compiled-in asset texts (generated into builtin_data.cc by core/embed_assets.cmake).
#ifndef VRAMCALC_SRC_BUILTIN_DATA_H_
#define VRAMCALC_SRC_BUILTIN_DATA_H_

#include <string_view>

#include "vramcalc/i18n.h"

namespace vramcalc::internal {

std::string_view BuiltinModelsJson();   // a JSON array of every assets/models/*.json
std::string_view BuiltinDevicesJson();  // assets/devices.json
std::string_view BuiltinStringsJson(Lang lang);  // assets/i18n/<lang>.json

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_BUILTIN_DATA_H_
