// ParseHfConfig for a config already parsed (the request codec's case: a config.json object
// in a request, or given beside it), and the other object a model may be given as: a model
// description (model_description.cc).
#ifndef VRAMCALC_SRC_MODEL_HF_CONFIG_INTERNAL_H_
#define VRAMCALC_SRC_MODEL_HF_CONFIG_INTERNAL_H_

#include "io/json_value.h"  // up a layer: the importer reads a JSON value the request carried
#include "vramcalc/model_spec.h"
#include "vramcalc/result.h"

namespace vramcalc::internal {

Result<ModelSpec> ParseHfConfigObject(json::Value config);

// Whether a model object is a model description (it names its schema) rather than a config.json.
bool IsModelDescription(json::Value object);
// A model description (hf_config.h kModelDescriptionSchema); errors name "model.<field>".
Result<ModelSpec> ParseModelDescriptionObject(json::Value description);
// A model object, whichever of the two it is.
Result<ModelSpec> ParseModelObject(json::Value model);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_MODEL_HF_CONFIG_INTERNAL_H_
