// The object fuzzer's input (object_fuzzer.cc): bytes turned into a JavaScript value of the
// stand-in (stand_in/emscripten/val.h).
//
// The bytes up to the first NUL are read as JSON text, into arrays and objects as JSON.parse
// makes them; the seeds (corpus/object/) are real requests so. The bytes after the NUL change
// that value where only JavaScript can: a member or element set to undefined, a function, a
// symbol, a BigInt, NaN, ±Infinity, -0, a string with a lone surrogate or a leading U+FEFF, a
// hole, nesting deeper than the readers' limit, a container that holds itself, a toJSON
// method. Bytes that are no JSON text build a value from scratch instead (FuzzedDataProvider),
// an object of the request's fields most of the time, with the catalog's ids for values.
#ifndef VRAMCALC_TESTS_FUZZ_OBJECT_INPUT_H_
#define VRAMCALC_TESTS_FUZZ_OBJECT_INPUT_H_

#include <cstddef>
#include <cstdint>

#include <emscripten/val.h>

namespace vramcalc::fuzz {

emscripten::val ValueOf(const uint8_t* data, std::size_t size);

}  // namespace vramcalc::fuzz

#endif  // VRAMCALC_TESTS_FUZZ_OBJECT_INPUT_H_
