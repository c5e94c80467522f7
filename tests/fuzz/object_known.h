// What the object fuzzer (object_fuzzer.cc) found in the wasm code and reported (tests/README.md,
// "Sanitizers and fuzzing", each with its input in corpus/object/) but that is Emscripten's or
// JavaScript's own, let pass so that the fuzzer can look further. Each test here is as narrow as
// the difference it lets pass; with VRAMCALC_FUZZ_STRICT set in the environment none lets anything
// pass (the inputs in corpus/object/ named after them then fail).
#ifndef VRAMCALC_TESTS_FUZZ_OBJECT_KNOWN_H_
#define VRAMCALC_TESTS_FUZZ_OBJECT_KNOWN_H_

#include <emscripten/val.h>

namespace vramcalc::fuzz {

// The request holds a string or a key, of no lone surrogate, that starts with U+FEFF (or has one
// after a U+0000): Embind reads a std::string into JavaScript with a TextDecoder, which drops it,
// so an answer echoing it ("bom-key": an error's field; "bom-answer": a custom device's name)
// lacks it.
bool HasKnownTextDifference(const emscripten::val& request);

// JSON.stringify of the request (`json`) throws in a toJSON of the request's: the exception ends
// the module's call without an answer, as any JavaScript exception through its frames. (The input
// "to-json" is a toJSON returning undefined, fixed: JsonText answers null for it.)
bool Throws(const emscripten::stand_in::Stringified& json);

}  // namespace vramcalc::fuzz

#endif  // VRAMCALC_TESTS_FUZZ_OBJECT_KNOWN_H_
