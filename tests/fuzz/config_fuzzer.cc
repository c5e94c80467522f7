// libFuzzer: any bytes as a model object, read by nlohmann's parser (json_value.h) and the model
// object's reader: a Hugging Face config.json (the config reader), or a model description when
// it names its schema (the catalog's schema reader; seeds in tests/golden/descriptions). It
// returns a model or an error naming a field under "model"; a model it returns must be one the
// estimate can compute, given beside a request (the CLI's --config and --model-file, the page's
// pasted config.json) or as the request's model object, with the same answer either way.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "vramcalc/json_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parsed = vramcalc::ParseRequest("{}", input);
  if (parsed.ok()) {
    if (!parsed.value().custom_model || vramcalc::ValidateModel(*parsed.value().custom_model)) std::abort();
    // The same model beside a request, at a long context, must evaluate.
    const std::string beside = vramcalc::EvaluateJsonWithConfig(R"({"context": 1048576})", input);
    if (beside.rfind("{\"ok\":", 0) != 0) std::abort();
    // Not where nlohmann's parser reads a text start and end: a NUL byte ends its input (the
    // config's, or the whole request's around it), a byte order mark only starts one.
    const bool inside = input.find('\0') == std::string_view::npos && !input.starts_with("\xEF\xBB\xBF");
    if (inside && vramcalc::EvaluateJson(R"({"context": 1048576, "model": )" + std::string(input) + "}") != beside) {
      std::abort();
    }
  } else if (parsed.error().field.rfind("model", 0) != 0) {
    std::abort();  // every model object's error names a field under "model"
  }
  return 0;
}
