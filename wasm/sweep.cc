// vramcalc-full.wasm's sweep: every model × format × device at once (json_codec.h SweepJson).
// Only the fits view and the package's sweep() ask for it, so vramcalc.wasm, which the first
// numbers wait for, leaves it out (light.cc answers there).
#include <cstdint>
#include <string_view>

#include <emscripten/emscripten.h>

#include "answer.h"
#include "vramcalc/json_codec.h"

extern "C" EMSCRIPTEN_KEEPALIVE char* vramcalc_sweep(const char* request, uint32_t request_size) {
  return vramcalc::wasm::Answer(vramcalc::SweepJson(std::string_view(request, request_size)));
}
