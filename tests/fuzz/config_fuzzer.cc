// libFuzzer: any bytes as a Hugging Face config.json. ParseHfConfig returns a model or an error
// naming a field; a model it returns must be one the estimate can compute.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "vramcalc/hf_config.h"
#include "vramcalc/json_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parsed = vramcalc::ParseHfConfig(input);
  if (parsed.ok()) {
    if (vramcalc::ValidateModel(parsed.value())) std::abort();
    // The same config inside a request, at a long context, must evaluate.
    const std::string response = vramcalc::EvaluateJsonWithConfig(R"({"context": 1048576})", input);
    if (response.rfind("{\"ok\":", 0) != 0) std::abort();
  } else if (parsed.error().field.rfind("model", 0) != 0) {
    std::abort();  // every config error names a field under "model"
  }
  return 0;
}
