// What the object fuzzer (object_fuzzer.cc) found in the wasm code and the core and reported
// (tests/README.md, "Sanitizers and fuzzing", each with its input in corpus/object/), let pass
// so that the fuzzer can look further. Each test here is as narrow as the difference it lets
// pass; with VRAMCALC_FUZZ_STRICT set in the environment none lets anything pass, which shows
// whether a fix has made one unneeded (the inputs in corpus/object/ named after them fail).
#ifndef VRAMCALC_TESTS_FUZZ_OBJECT_KNOWN_H_
#define VRAMCALC_TESTS_FUZZ_OBJECT_KNOWN_H_

#include <emscripten/val.h>

#include "vramcalc/result.h"

namespace vramcalc::fuzz {

// A value Read refuses that JSON text of it refuses with the same message naming a field
// further up: val_value.cc's Reader names the field with every key down to the value, where
// the JSON reader stops at the first array or empty key (json_value.cc Path()). Reported as
// "path-below-array".
bool NamesFieldBelowArray(const Error& object, const Error& text);

// Two strings of answers, an object's and JSON text's, the same but for how many U+FFFD stand
// for a character the core cut into: it cuts a text echoed in a message to a number of bytes,
// inside a character at times (request_reader.cc FailUnknownField's key at 64, hf_config.cc's
// model_type and values at 40, json_value.cc's and val_value.cc's paths at 64), and the invalid
// UTF-8 left is one U+FFFD a byte in JSON text (json_writer.h) and one a sequence in an object
// (TextDecoder). Reported as "key-cut-inside-character" and "model-type-cut-inside-character".
bool SameButCutCharacter(const std::string& object, const std::string& text);

// The request holds text on which its answers may differ from JSON text's by a reported
// difference: "bom-key", "bom-emoji", "bom-answer", "omitted-member-key".
bool HasKnownTextDifference(const emscripten::val& request);

// A module throws on the request (a JavaScript exception ends the call without an answer), as
// reported: "stringify-undefined" (a function or a symbol as the request of evaluateWithConfig()
// or sweep(), where `text_of_request`) and "to-json" (a toJSON method whose JSON.stringify
// returns undefined or throws).
bool Throws(const emscripten::val& request, bool text_of_request);

}  // namespace vramcalc::fuzz

#endif  // VRAMCALC_TESTS_FUZZ_OBJECT_KNOWN_H_
