// Weight formats (precision / quantization) and KV cache element types.
// Constants from the estimation model, section 1.1 (bpw) and Part 2 (KV dtypes).
#ifndef VRAMCALC_QUANT_FORMAT_H_
#define VRAMCALC_QUANT_FORMAT_H_

#include <span>
#include <string_view>

namespace vramcalc {

// How a runtime loads weights of this format: this decides the vLLM and Ollama commands.
enum class WeightFamily {
  kFloat16,  // the original BF16/FP16 checkpoint
  kFp8,      // FP8 weights, quantized by vLLM when loading the 16-bit checkpoint
  kGguf,     // a llama.cpp GGUF file (Ollama's native format)
  kAwq,      // an AWQ INT4 checkpoint (vLLM)
};

struct QuantFormat {
  std::string_view id;         // request id: "FP16", "FP8", "Q8_0", ..., "AWQ_INT4", "IQ4_XS"
  std::string_view label;      // as the page shows it: "FP16 / BF16", "AWQ INT4"
  double bits_per_weight;      // effective bits per parameter, including block scales
  WeightFamily family;
  std::string_view gguf_type;  // GGUF file suffix for this format ("Q4_K_M", "F16"); empty if none
};

inline constexpr std::string_view kDefaultFormatId = "Q4_K_M";

// The eight formats in the matrix's order (FP16 first, IQ4_XS last).
std::span<const QuantFormat> QuantFormats();
// nullptr when `id` is not one of QuantFormats().
const QuantFormat* FindQuantFormat(std::string_view id);

// A KV cache element type. What each engine calls it is the engine's own table (commands.cc).
struct KvDtype {
  std::string_view id;         // request id: "fp16", "fp8", "q8_0", "q4_0"
  std::string_view label;      // "FP16", "FP8", "Q8_0", "Q4_0"
  double bytes_per_element;    // FP16 2, FP8 1, Q8_0 34/32, Q4_0 18/32
};

inline constexpr std::string_view kDefaultKvDtypeId = "fp16";

std::span<const KvDtype> KvDtypes();
const KvDtype* FindKvDtype(std::string_view id);

}  // namespace vramcalc

#endif  // VRAMCALC_QUANT_FORMAT_H_
