#include "vramcalc/quant_format.h"

#include <array>

namespace vramcalc {
namespace {

// Effective bits per weight: estimation model 1.1 (the reference page's "Effektive bpw").
constexpr std::array<QuantFormat, 8> kFormats{{
    {"FP16", "FP16 / BF16", 16.00, WeightFamily::kFloat16, "F16"},
    {"FP8", "FP8", 8.50, WeightFamily::kFp8, ""},
    {"Q8_0", "Q8_0", 8.50, WeightFamily::kGguf, "Q8_0"},
    {"Q6_K", "Q6_K", 6.56, WeightFamily::kGguf, "Q6_K"},
    {"Q5_K_M", "Q5_K_M", 5.69, WeightFamily::kGguf, "Q5_K_M"},
    {"Q4_K_M", "Q4_K_M", 4.85, WeightFamily::kGguf, "Q4_K_M"},
    {"AWQ_INT4", "AWQ INT4", 4.50, WeightFamily::kAwq, ""},
    {"IQ4_XS", "IQ4_XS", 4.25, WeightFamily::kGguf, "IQ4_XS"},
}};

// Bytes per KV element: FP16 2; FP8 1; llama.cpp's Q8_0 block is 32 int8 + one FP16 scale
// (34 B per 32); Q4_0 is 32 nibbles + one FP16 scale (18 B per 32).
constexpr std::array<KvDtype, 4> kKvDtypes{{
    {"fp16", "FP16", 2.0},
    {"fp8", "FP8", 1.0},
    {"q8_0", "Q8_0", 34.0 / 32.0},
    {"q4_0", "Q4_0", 18.0 / 32.0},
}};

template <typename T, std::size_t N>
const T* FindById(const std::array<T, N>& items, std::string_view id) {
  for (const T& item : items) {
    if (item.id == id) return &item;
  }
  return nullptr;
}

}  // namespace

std::span<const QuantFormat> QuantFormats() { return kFormats; }
const QuantFormat* FindQuantFormat(std::string_view id) { return FindById(kFormats, id); }
std::span<const KvDtype> KvDtypes() { return kKvDtypes; }
const KvDtype* FindKvDtype(std::string_view id) { return FindById(kKvDtypes, id); }

}  // namespace vramcalc
