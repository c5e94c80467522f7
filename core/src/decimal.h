// Reading a decimal number's text without libc's strtod: in wasm, strtod computes in 128-bit
// long double, which the module emulates in software (its code and the emulation were 4 KiB
// gzip of the module, and microseconds per number).
#ifndef VRAMCALC_DECIMAL_H_
#define VRAMCALC_DECIMAL_H_

#include <string_view>

namespace vramcalc {

// The double nearest to a number's text in JSON's syntax ("-12.5e3"; leading zeros allowed),
// rounded half to even as strtod rounds it; NaN for text that is no such number. A significand of
// at most 2^53 with a power of ten up to 10^±22 (nearly every number in the catalog and in
// config.json files) takes Clinger's fast path: both exact, one correctly rounded multiplication
// or division. The rest is read exactly as decimal digits shifted by powers of two (Go's
// strconv), in integers only.
double ReadDecimal(std::string_view text);

}  // namespace vramcalc

#endif  // VRAMCALC_DECIMAL_H_
