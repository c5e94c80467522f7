// libFuzzer: any bytes as a request, to evaluate() and to sweep() as JSON text. Each must answer
// every input with JSON that says ok true or false, and never crash, hang or leak (ASan, UBSan).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "vramcalc/json_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  for (const std::string& response : {vramcalc::EvaluateJson(input), vramcalc::SweepJson(input)}) {
    if (response.rfind("{\"ok\":true,", 0) != 0 && response.rfind("{\"ok\":false,", 0) != 0) std::abort();
  }
  return 0;
}
