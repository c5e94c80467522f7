// The JSON the core writes (responses, errors, the catalog listings), in json_output.cc: a
// streaming writer (json_writer.h), not a json tree, so the per-frame response costs what its
// bytes cost.
#ifndef VRAMCALC_SRC_IO_JSON_OUTPUT_H_
#define VRAMCALC_SRC_IO_JSON_OUTPUT_H_

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

// Runs `body`, turning anything it throws (std::bad_alloc, a library error) into an
// ok:false response, so no exception ever reaches the CLI. The core itself throws nothing (its
// readers record problems, problems.h); the wasm module is built without exception support,
// where only running out of memory could stop it, and its inputs are capped at 1 MiB.
template <typename Body>
std::string NeverThrowing(Body&& body) {
#if defined(__cpp_exceptions)
  try {
    return body();
  } catch (const std::exception& e) {
    return SerializeError(Error{"internal_error", std::string("Internal error: ") + e.what(), ""});
  } catch (...) {
    return SerializeError(Error{"internal_error", "Internal error.", ""});
  }
#else
  return body();
#endif
}

// A request answered against the built-in catalog: parsed, computed, written; every failure on
// the way (and anything thrown) an ok:false answer.
template <typename Parse, typename Compute, typename Write>
std::string AnswerJson(Parse parse, Compute compute, Write write) {
  return NeverThrowing([&] {
    const auto request = parse();
    if (!request.ok()) return SerializeError(request.error());
    const Result<Catalog>& catalog = BuiltinCatalog();
    if (!catalog.ok()) return SerializeError(catalog.error());
    const auto result = compute(request.value(), catalog.value());
    if (!result.ok()) return SerializeError(result.error());
    return write(result.value());
  });
}

// An evaluate request answered: read by `parse` (from JSON text or from fields), evaluated and
// written as the response.
template <typename Parse>
std::string AnswerRequest(Parse parse) {
  return AnswerJson(parse, [](const Request& r, const Catalog& c) { return Evaluate(r, c); },
                    [](const Response& response) { return SerializeResponse(response); });
}

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_IO_JSON_OUTPUT_H_
