#include "vramcalc/vocab.h"

namespace vramcalc {

std::string JoinList(std::span<const std::string_view> ids, std::string_view last, bool quote) {
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out += i + 1 == ids.size() ? " " + std::string(last) + " " : ", ";
    out += quote ? "\"" + std::string(ids[i]) + "\"" : std::string(ids[i]);
  }
  return out;
}

}  // namespace vramcalc
