#ifndef VRAMCALC_VERSION_H_
#define VRAMCALC_VERSION_H_

#include <string_view>

namespace vramcalc {

inline constexpr std::string_view kVersion = "0.1.0";  // keep equal to project() in CMakeLists.txt

}  // namespace vramcalc

#endif  // VRAMCALC_VERSION_H_
