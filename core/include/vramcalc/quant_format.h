// Weight formats (precision / quantization) and KV cache element types.
// Constants from the estimation model, section 1.1 (bpw) and Part 2 (KV dtypes).
#ifndef VRAMCALC_QUANT_FORMAT_H_
#define VRAMCALC_QUANT_FORMAT_H_

#include <span>
#include <string_view>

namespace vramcalc {

// How a runtime loads weights of this format: which engines run it and which commands load it.
enum class WeightFamily {
  kFloat16,  // the original BF16/FP16 checkpoint
  kFp8,      // FP8 weights (an FP8 checkpoint, or vLLM quantizing the 16-bit one when loading)
  kGguf,     // a llama.cpp GGUF file (Ollama's native format)
  kAwq,      // an AWQ INT4 checkpoint (vLLM, SGLang)
  kGptq,     // a GPTQ INT4 checkpoint (vLLM, SGLang)
  kMxfp4,    // OCP MXFP4 experts, as gpt-oss ships (vLLM, SGLang)
  kNvfp4,    // NVIDIA NVFP4 (Blackwell; vLLM, SGLang)
  kMlx,      // an MLX affine-quantized checkpoint (mlx-lm)
};

// Bits per weight as a format stores each kind of tensor (every profile but `reference`,
// estimation model section 5). The body is every weight that is not an embedding, a head or a
// routed expert; experts are the routed experts of a mixture-of-experts model.
struct StoredBits {
  float body = 0;
  // The routed experts' gate and up projections, and their down projections (model_spec.h
  // ModelSpec::expert_down_params): a GGUF file's types for them, llama-quant.cpp's FFN_GATE, FFN_UP and
  // FFN_DOWN (the down projections of some layers take more bits).
  float experts = 0;
  float expert_down = 0;
  float embedding = 0;  // the token embedding (llama.cpp: token_embd)
  // The output head (llama.cpp: output), and the one matrix that is both where a model ties its
  // embeddings: every format stores that as its head (llama-quant.cpp, OUTPUT and TOKEN_EMBD).
  float head = 0;
  // The bits a down-projection weight takes beyond the body's when its rows are not a multiple
  // of 256 weights (model_spec.h ModelSpec::unaligned_params): llama.cpp's fallback types.
  float fallback = 0;
  // When the hidden size is not a multiple of 256 (model_spec.h unaligned_hidden_params): the
  // bits a weight of a matrix reading the hidden state takes beyond the body's, and the token
  // embedding's bits (the head takes Q8_0, estimate.h WeightBytesOf).
  float hidden_fallback = 0;
  float embedding_fallback = 0;
};

struct QuantFormat {
  std::string_view id;         // request id: "FP16", "FP8", "Q8_0", ..., "AWQ_INT4", "IQ4_XS"
  std::string_view label;      // as the page shows it: "FP16 / BF16", "AWQ INT4"
  double bits_per_weight;      // the reference profile's effective bits (estimation model 1.1)
  WeightFamily family;
  std::string_view gguf_type;  // GGUF file suffix for this format ("Q4_K_M", "F16"); empty if none
  StoredBits stored{};         // as the engines store it (section 5)
  bool moe_only = false;       // quantizes only experts: offered for mixture-of-experts models
  // Which of llama.cpp's dequantizing kernels decode reads it with, for a decode rule's arithmetic
  // per weight (DecodeRule::ops_per_weight): 1 the 32-weight blocks (Q8_0, Q4_0), 2 the K-quants'
  // 256-weight super-blocks; 0 none a rule has measured.
  uint8_t decode_kernels = 0;
};

inline constexpr std::string_view kDefaultFormatId = "Q4_K_M";

// Every format: the reference page's eight first, in its matrix's order (FP16 first, IQ4_XS
// last), then the ones other profiles offer. A profile lists the ids it offers.
std::span<const QuantFormat> QuantFormats();
// nullptr when `id` is not one of QuantFormats().
const QuantFormat* FindQuantFormat(std::string_view id);
// Where a format's stored bits come from; empty for an id that is not a format. In a translation
// unit of its own (table_notes.cc): the page's first module, which shows none, links without
// them.
std::string_view QuantFormatSource(std::string_view id);

// A KV cache element type. What each engine calls it is the engine's own table (commands.cc).
struct KvDtype {
  std::string_view id;         // request id: "fp16", "fp8", "q8_0", "q4_0", "q8_mlx", "q4_mlx"
  std::string_view label;      // "FP16", "FP8", "Q8_0", "Q4_0", "8-bit (MLX)", "4-bit (MLX)"
  double bytes_per_element;    // FP16 2, FP8 1, Q8_0 34/32, Q4_0 18/32, MLX 8-bit 1 + 4/64
};

inline constexpr std::string_view kDefaultKvDtypeId = "fp16";

std::span<const KvDtype> KvDtypes();
const KvDtype* FindKvDtype(std::string_view id);

}  // namespace vramcalc

#endif  // VRAMCALC_QUANT_FORMAT_H_
