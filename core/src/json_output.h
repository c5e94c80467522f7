// The JSON the core writes (responses, errors, the catalog listings), in json_output.cc: a
// streaming writer, not a json tree, so the per-frame response costs what its bytes cost.
// The output is byte-identical to what nlohmann's dump() made of the same values before.
#ifndef VRAMCALC_SRC_JSON_OUTPUT_H_
#define VRAMCALC_SRC_JSON_OUTPUT_H_

#include <exception>
#include <string>
#include <string_view>

#include "vramcalc/catalog.h"
#include "vramcalc/json_codec.h"

namespace vramcalc::internal {

// Every catalog model as the response's "model" object (a JSON array); every device.
std::string ModelsArrayJson(const Catalog& catalog);
std::string DevicesArrayJson(const Catalog& catalog);
// The page's catalog object (json_codec.h CatalogJson).
std::string CatalogObjectJson(const Catalog& catalog);

// A JSON string for text that is not valid UTF-8, each bad sequence replaced by U+FFFD as
// nlohmann's dump() replaces it. Implemented in json_codec.cc (the nlohmann translation unit).
std::string InvalidUtf8StringJson(std::string_view text);

// Runs `body`, turning anything it throws (std::bad_alloc, a library error) into an
// ok:false response, so no exception ever reaches the wasm boundary or the CLI.
template <typename Body>
std::string NeverThrowing(Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return SerializeError(Error{"internal_error", std::string("Internal error: ") + e.what(), ""});
  } catch (...) {
    return SerializeError(Error{"internal_error", "Internal error.", ""});
  }
}

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_JSON_OUTPUT_H_
