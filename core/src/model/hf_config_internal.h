// ParseHfConfig for a config already parsed (the request codec's case: a config.json object
// in a request, or given beside it).
#ifndef VRAMCALC_SRC_MODEL_HF_CONFIG_INTERNAL_H_
#define VRAMCALC_SRC_MODEL_HF_CONFIG_INTERNAL_H_

#include "io/json_value.h"  // up a layer: the importer reads a JSON value the request carried
#include "vramcalc/model_spec.h"
#include "vramcalc/result.h"

namespace vramcalc::internal {

Result<ModelSpec> ParseHfConfigObject(json::Value config);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_MODEL_HF_CONFIG_INTERNAL_H_
