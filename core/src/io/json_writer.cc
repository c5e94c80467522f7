#include "io/json_writer.h"

#include <nlohmann/json.hpp>

namespace vramcalc::internal {

void AppendNumber(std::string& out, double number) { out += nlohmann::json(number).dump(); }

}  // namespace vramcalc::internal
