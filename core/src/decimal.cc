#include "decimal.h"

#include <cstdint>
#include <cstring>
#include <limits>

namespace vramcalc {

namespace {

// A number's text split up: sign, significant digits (0-9 values, leading zeros dropped, at most
// kMaxDigits kept) and the decimal point's position: the value is 0.d1d2d3... × 10^point.
constexpr int kMaxDigits = 800;  // enough for any double's correct rounding (Go's strconv)
struct Decimal {
  uint8_t digits[kMaxDigits];
  int count = 0;
  int point = 0;
  bool negative = false;
  bool truncated = false;  // nonzero digits beyond `digits` were dropped
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Reads JSON's number syntax (leading zeros allowed) into `out`; false for anything else.
bool Split(std::string_view text, Decimal& out) {
  std::size_t at = 0;
  out.negative = at < text.size() && text[at] == '-';
  if (out.negative) ++at;
  int seen = 0;  // digits before the exponent
  int significant = 0;  // from the first nonzero digit on, kept or not
  bool point = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '.' && !point && seen > 0) {
      point = true;
      out.point = significant;
      continue;
    }
    if (!IsDigit(c)) break;
    ++seen;
    if (c == '0' && significant == 0) {
      --out.point;  // a leading zero: after the point it moves the point (before it, reset below)
      continue;
    }
    ++significant;
    if (out.count < kMaxDigits) out.digits[out.count++] = static_cast<uint8_t>(c - '0');
    else if (c != '0') out.truncated = true;
  }
  if (seen == 0 || (point && !IsDigit(text[at - 1]))) return false;
  if (!point) out.point = significant;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    const bool minus = at < text.size() && text[at] == '-';
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
    if (at == text.size()) return false;
    int exponent = 0;
    for (; at < text.size() && IsDigit(text[at]); ++at) {
      if (exponent < 100000) exponent = exponent * 10 + (text[at] - '0');  // far beyond any double
    }
    out.point += minus ? -exponent : exponent;
  }
  return at == text.size();
}

void Trim(Decimal& d) {
  while (d.count > 0 && d.digits[d.count - 1] == 0) --d.count;
  if (d.count == 0) d.point = 0;
}

// Clinger's fast path: at most 19 digits (an exact integer up to 2^53) times or divided by a
// power of ten up to 10^22, both exact, so the one operation rounds correctly. False otherwise.
bool FastPath(const Decimal& d, double& out) {
  constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                               1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr int kMaxPow10 = 22;
  constexpr int kMaxFastDigits = 19;
  if (d.count > kMaxFastDigits || d.truncated) return false;
  uint64_t significand = 0;
  for (int i = 0; i < d.count; ++i) significand = significand * 10 + d.digits[i];
  const int exponent = d.point - d.count;  // of the last digit
  if (significand > (uint64_t{1} << 53) || exponent < -kMaxPow10 || exponent > kMaxPow10) return false;
  const auto value = static_cast<double>(significand);
  out = exponent < 0 ? value / kPow10[-exponent] : value * kPow10[exponent];
  return true;
}

// d × 2^-k for k <= 60: digits shifted out at the right are kept while there is room.
void ShiftRight(Decimal& d, unsigned k) {
  int read = 0;
  int write = 0;
  uint64_t n = 0;
  for (; (n >> k) == 0; ++read) {  // enough leading digits for the first output digit
    n = n * 10 + (read < d.count ? d.digits[read] : 0);
  }
  d.point -= read - 1;
  const uint64_t mask = (uint64_t{1} << k) - 1;
  for (; read < d.count; ++read) {
    d.digits[write++] = static_cast<uint8_t>(n >> k);
    n = (n & mask) * 10 + d.digits[read];
  }
  for (; n > 0; n = (n & mask) * 10) {
    if (write < kMaxDigits) d.digits[write++] = static_cast<uint8_t>(n >> k);
    else if ((n >> k) > 0) d.truncated = true;
  }
  d.count = write;
  Trim(d);
}

// d × 2^k for k <= 60, from the last digit to the first (each digit × 2^k plus the carry stays
// below 2^64).
void ShiftLeft(Decimal& d, unsigned k) {
  uint8_t out[kMaxDigits + 20];
  int write = static_cast<int>(sizeof out);
  uint64_t n = 0;
  for (int read = d.count - 1; read >= 0; --read) {
    n += uint64_t{d.digits[read]} << k;
    out[--write] = static_cast<uint8_t>(n % 10);
    n /= 10;
  }
  for (; n > 0; n /= 10) out[--write] = static_cast<uint8_t>(n % 10);
  int count = static_cast<int>(sizeof out) - write;
  d.point += count - d.count;
  for (int i = kMaxDigits; i < count; ++i) d.truncated = d.truncated || out[write + i] != 0;
  if (count > kMaxDigits) count = kMaxDigits;
  std::memcpy(d.digits, out + write, static_cast<std::size_t>(count));
  d.count = count;
  Trim(d);
}

void Shift(Decimal& d, int k) {
  constexpr int kMaxShift = 60;
  if (d.count == 0) return;  // zero stays zero (and ShiftRight needs a nonzero digit)
  for (; k > kMaxShift; k -= kMaxShift) ShiftLeft(d, kMaxShift);
  for (; k < -kMaxShift; k += kMaxShift) ShiftRight(d, kMaxShift);
  if (k == 0) return;
  if (k > 0) ShiftLeft(d, static_cast<unsigned>(k));
  else ShiftRight(d, static_cast<unsigned>(-k));
}

// The integer part of d (d < 2^64), rounded half to even on the digits after the point.
uint64_t RoundedInteger(const Decimal& d) {
  uint64_t n = 0;
  int i = 0;
  for (; i < d.point && i < d.count; ++i) n = n * 10 + d.digits[i];
  for (; i < d.point; ++i) n *= 10;
  const int next = d.point;
  if (next < 0 || next >= d.count) return n;
  const bool half = d.digits[next] == 5 && next + 1 == d.count;
  const bool up = half ? (d.truncated || (next > 0 && d.digits[next - 1] % 2 == 1)) : d.digits[next] >= 5;
  return up ? n + 1 : n;
}

// The exact decimal rounded to a double (Go's strconv decimal.floatBits): scaled by powers of
// two into [1/2, 1), then 53 bits taken and rounded half to even, subnormals and overflow included.
double SlowPath(Decimal d) {
  constexpr int kMantissaBits = 52;
  constexpr int kBias = -1023;
  constexpr int kPowTab[] = {1, 3, 6, 9, 13, 16, 19, 23, 26};  // 2^n below 10^index
  constexpr int kPowTabSize = 9;
  const double sign = d.negative ? -1.0 : 1.0;
  if (d.count == 0 || d.point < -330) return sign * 0.0;
  if (d.point > 310) return sign * std::numeric_limits<double>::infinity();
  int exponent = 0;
  while (d.point > 0) {
    const int n = d.point >= kPowTabSize ? 27 : kPowTab[d.point];
    Shift(d, -n);
    exponent += n;
  }
  while (d.point < 0 || (d.point == 0 && d.digits[0] < 5)) {
    const int n = -d.point >= kPowTabSize ? 27 : kPowTab[-d.point];
    Shift(d, n);
    exponent -= n;
  }
  --exponent;  // [1/2, 1) → [1, 2)
  if (exponent < kBias + 1) {  // a subnormal: fewer bits
    Shift(d, -(kBias + 1 - exponent));
    exponent = kBias + 1;
  }
  Shift(d, 1 + kMantissaBits);
  uint64_t mantissa = RoundedInteger(d);
  if (mantissa == uint64_t{2} << kMantissaBits) {  // rounding carried into a new bit
    mantissa >>= 1;
    ++exponent;
  }
  if (exponent - kBias >= (1 << 11) - 1) return sign * std::numeric_limits<double>::infinity();
  if ((mantissa & (uint64_t{1} << kMantissaBits)) == 0) exponent = kBias;  // subnormal
  uint64_t bits = mantissa & ((uint64_t{1} << kMantissaBits) - 1);
  bits |= static_cast<uint64_t>((exponent - kBias) & ((1 << 11) - 1)) << kMantissaBits;
  if (d.negative) bits |= uint64_t{1} << 63;
  double value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace

double ReadDecimal(std::string_view text) {
  Decimal d;
  if (!Split(text, d)) return std::numeric_limits<double>::quiet_NaN();
  double value = 0;
  if (FastPath(d, value)) return d.negative ? -value : value;
  return SlowPath(d);
}

}  // namespace vramcalc
