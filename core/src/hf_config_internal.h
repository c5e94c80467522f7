// ParseHfConfig for a config already parsed by nlohmann/json (the request codec's case).
#ifndef VRAMCALC_SRC_HF_CONFIG_INTERNAL_H_
#define VRAMCALC_SRC_HF_CONFIG_INTERNAL_H_

#include <nlohmann/json.hpp>

#include "vramcalc/model_spec.h"
#include "vramcalc/result.h"

namespace vramcalc::internal {

Result<ModelSpec> ParseHfConfigObject(const nlohmann::json& config);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_HF_CONFIG_INTERNAL_H_
