// libFuzzer: any bytes as a Hugging Face config.json, read by nlohmann's parser (json_value.h)
// and the config reader. ParseHfConfig returns a model or an error naming a field; a model it
// returns must be one the estimate can compute, given beside a request (the CLI's --config, the
// page's pasted config.json) or as the request's model object, with the same answer either way.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "vramcalc/hf_config.h"
#include "vramcalc/json_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parsed = vramcalc::ParseHfConfig(input);
  if (parsed.ok()) {
    if (vramcalc::ValidateModel(parsed.value())) std::abort();
    // The same config inside a request, at a long context, must evaluate.
    const std::string beside = vramcalc::EvaluateJsonWithConfig(R"({"context": 1048576})", input);
    if (beside.rfind("{\"ok\":", 0) != 0) std::abort();
    // Not where nlohmann's parser reads a text start and end: a NUL byte ends its input (the
    // config's, or the whole request's around it), a byte order mark only starts one.
    const bool inside = input.find('\0') == std::string_view::npos && !input.starts_with("\xEF\xBB\xBF");
    if (inside && vramcalc::EvaluateJson(R"({"context": 1048576, "model": )" + std::string(input) + "}") != beside) {
      std::abort();
    }
  } else if (parsed.error().field.rfind("model", 0) != 0) {
    std::abort();  // every config error names a field under "model"
  }
  return 0;
}
