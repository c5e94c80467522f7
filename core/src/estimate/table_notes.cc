// The catalog's texts for people beside its tables: where each format's stored bits come from
// and what each engine profile reproduces. In a translation unit of their own: the page's first
// module, which shows neither, links without them (core/src/io/response_writer.h TableNotes).
#include <array>
#include <utility>

#include "vramcalc/quant_format.h"
#include "vramcalc/runtime_profile.h"

namespace vramcalc {
namespace {

// GGUF files: the head, embedding and fallback types from llama.cpp's quantizer, the body's bits
// fitted to published file sizes (quant_format.cc).
constexpr std::string_view kGgufSource =
    "llama.cpp src/llama-quant.cpp (head, embedding and fallback types); body fitted to "
    "tests/calibration/weight-sizes.json";

// Where each format's stored bits (quant_format.cc kFormats) come from, in the same order.
constexpr std::array<std::pair<std::string_view, std::string_view>, 24> kSources{{
    {"FP16", "16-bit"},
    {"FP8", "FP8 linear layers, 16-bit embedding and head (vLLM fp8 quantization)"},
    {"Q8_0", kGgufSource},
    {"Q6_K", kGgufSource},
    {"Q5_K_M", kGgufSource},
    {"Q4_K_M", kGgufSource},
    {"AWQ_INT4", "AutoAWQ GEMM, group 128: 4-bit weights, FP16 scale and 4-bit zero point per group"},
    {"IQ4_XS", kGgufSource},
    {"BF16", "16-bit"},
    {"Q4_0", kGgufSource},
    {"Q3_K_M", kGgufSource},
    {"Q2_K", kGgufSource},
    {"IQ3_XXS", kGgufSource},
    {"IQ2_XXS", kGgufSource},
    {"IQ3_M", kGgufSource},
    {"IQ2_M", kGgufSource},
    {"IQ1_M", kGgufSource},
    {"IQ1_S", kGgufSource},
    {"MXFP4_MOE", "llama.cpp src/llama-quant.cpp: MoE tensors MXFP4, other tensors Q8_0"},
    {"MXFP4", "gpt-oss checkpoints: MXFP4 experts; embed_tokens and lm_head in modules_to_not_convert"},
    {"NVFP4", "NVFP4: 4-bit E2M1 with an FP8 scale per 16 weights; lm_head not converted"},
    {"GPTQ_INT4", "GPTQ, group 128: 4-bit weights, FP16 scale and 4-bit zero point per group"},
    {"MLX_8BIT", "mlx-lm affine quantization, group 64, 16-bit scale and bias; embeddings quantized too"},
    {"MLX_4BIT", "mlx-lm affine quantization, group 64, 16-bit scale and bias; embeddings quantized too"},
}};

// What each engine profile (runtime_profile.cc kProfiles) reproduces: an engine and its version.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kModels{{
    {"reference", "the reference page (GLM-4-32B-0414): vLLM and Ollama commands, one formula for every engine"},
    {"llamacpp", "llama.cpp llama-server, builds b7100 to b8200 (2025-12 to 2026-03)"},
    {"ollama", "Ollama fb30760 (2026-08), running llama-server b10488"},
    {"vllm", "vLLM V1 engine, 0.2x releases (2026)"},
    {"sglang", "SGLang 0.5 (2026)"},
    {"mlx", "mlx-lm 0.28 on MLX 0.29 (macOS, 2025-10)"},
}};

template <std::size_t N>
std::string_view Lookup(const std::array<std::pair<std::string_view, std::string_view>, N>& table, std::string_view id) {
  for (const auto& [key, text] : table) {
    if (key == id) return text;
  }
  return {};
}

}  // namespace

std::string_view QuantFormatSource(std::string_view id) { return Lookup(kSources, id); }
std::string_view RuntimeProfileModels(std::string_view id) { return Lookup(kModels, id); }

}  // namespace vramcalc
