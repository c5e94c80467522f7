// The light module's stand-in for the config.json importer (core/src/hf_config.cc), which only
// vramcalc-full.wasm carries: a config.json in a request gets an answer that says where it is
// read. Linked before the core's archive, this definition keeps hf_config.cc out of the module
// (10 KiB gzip the first numbers need not wait for).
#include "hf_config_internal.h"

namespace vramcalc::internal {

Result<ModelSpec> ParseHfConfigObject(json::Value) {
  return Error{"config_import_unavailable",
               "This module reads no config.json; vramcalc-full.wasm does (the page and the package load it "
               "when a config.json is given).",
               "model"};
}

}  // namespace vramcalc::internal
