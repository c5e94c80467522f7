// How the modules' functions hand back a string (answer.cc).
#ifndef VRAMCALC_WASM_ANSWER_H_
#define VRAMCALC_WASM_ANSWER_H_

#include <string_view>

namespace vramcalc::wasm {

// An answer as the loader reads it: its length (4 bytes, little-endian) and its UTF-8 bytes, in
// one block from malloc that the loader frees. Null when even that block cannot be had.
char* Answer(std::string_view text);

}  // namespace vramcalc::wasm

#endif  // VRAMCALC_WASM_ANSWER_H_
