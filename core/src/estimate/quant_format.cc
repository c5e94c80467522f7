#include "vramcalc/quant_format.h"

#include <array>

namespace vramcalc {
namespace {

// Bits per weight of the tensor types the formats use: bytes per block × 8 / weights per block,
// from ggml's block definitions (ggml-common.h: Q8_0 34 B / 32, Q6_K 210 / 256, Q5_K 176 / 256,
// Q4_K 144 / 256, Q4_0 18 / 32, IQ4_XS 136 / 256, Q3_K and IQ3_S 110 / 256, Q2_K 84 / 256,
// MXFP4 17 / 32); MLX's affine groups of 64 with a 16-bit scale and bias (mlx-lm
// quantize_model); AWQ and GPTQ's groups of 128 with a 16-bit scale and a 4-bit zero point;
// NVFP4's FP8 scale per 16 weights.
constexpr double kF16 = 16, kQ8_0 = 8.5, kQ6_K = 6.5625, kQ5_K = 5.5, kQ4_K = 4.5, kQ4_0 = 4.5,
                 kIq4Xs = 4.25, kQ3_K = 3.4375, kIq3S = 3.4375, kQ2_K = 2.625, kMxfp4 = 4.25;
constexpr double kMlx8 = 8.5, kMlx4 = 4.5, kInt4G128 = 4 + 16.0 / 128 + 4.0 / 128, kNvfp4 = 4 + 8.0 / 16;
constexpr double kFp8 = 8;  // FP8 with one scale per tensor or per 128 × 128 block (under 0.01 bit)
// The types llama.cpp falls back to (blocks of 32: Q5_0 22 B, Q5_1 24 B, IQ4_NL and Q4_0 18 B) and
// the IQ types' own (per 256: IQ3_XXS 98 B, IQ2_S 82 B, IQ2_XXS 66 B, IQ1_M 56 B, IQ1_S 50 B).
constexpr double kQ5_0 = 5.5, kQ5_1 = 6, kIq4Nl = 4.5, kIq3Xxs = 3.0625, kIq2S = 2.5625, kIq2Xxs = 2.0625,
                 kIq1M = 1.75, kIq1S = 1.5625;

// A tensor whose rows are not a multiple of 256 weights cannot take a K-quant or IQ type:
// llama.cpp stores it in the next type of 32-weight blocks (llama-quant.cpp tensor_type_fallback
// @ 007dbbf: Q6_K to Q8_0, Q5_K to Q5_1, Q4_K to Q5_0, Q3_K and Q2_K to Q4_0, the IQ types to
// IQ4_NL). A type's bits and its fallback's; the types of 32-weight blocks are their own.
struct Type {
  double bits = 0, fallback = 0;
};
constexpr Type kQ8_0T{kQ8_0, kQ8_0}, kQ4_0T{kQ4_0, kQ4_0}, kQ6_KT{kQ6_K, kQ8_0}, kQ5_KT{kQ5_K, kQ5_1},
               kQ4_KT{kQ4_K, kQ5_0}, kQ3_KT{kQ3_K, kQ4_0}, kQ2_KT{kQ2_K, kQ4_0}, kIq4XsT{kIq4Xs, kIq4Nl},
               kIq3XxsT{kIq3Xxs, kIq4Nl}, kIq3ST{kIq3S, kIq4Nl}, kIq2ST{kIq2S, kIq4Nl}, kIq2XxsT{kIq2Xxs, kIq4Nl},
               kIq1MT{kIq1M, kIq4Nl}, kIq1ST{kIq1S, kIq4Nl};
// A tensor kind whose layers take `a` for a `share` of them and `b` for the rest: the averages.
constexpr Type Mix(double share, Type a, Type b) {
  return {share * a.bits + (1 - share) * b.bits, share * a.fallback + (1 - share) * b.fallback};
}

// GGUF files (llama.cpp's llama-quant.cpp, llama_tensor_get_type): the output head takes Q6_K
// (Q8_0 stays Q8_0; the IQ2/IQ3_XXS/IQ1 files take Q5_K; MXFP4 files Q8_0); the token
// embedding takes the file's base type (IQ2_XXS: Q2_K; IQ3_XXS: IQ3_S); a tied matrix takes
// the head's type (IQ1_S and IQ1_M: embedding Q2_K, head Q5_K; IQ2_M: IQ3_S and Q5_K; IQ3_M:
// IQ3_S and Q6_K). The body's bits are fitted to published file sizes
// (tests/calibration/weight-sizes.json, fit in tests/core/calibration_test.cc): the K-quant
// mixes give some attn_v and ffn_down tensors more bits than the base type. Each format's source
// is in table_notes.cc.
// What the types decide, not fitted (llama_tensor_get_type_impl; with an importance matrix, as
// the IQ files are made):
// - the routed experts: gate and up take the file's base type (llama_ftype_get_default_type:
//   IQ3_M's is IQ3_S, IQ2_M's IQ2_S), down the FFN_DOWN recipe layer by layer as the file's dense
//   MLPs: Q4_K_M and Q5_K_M give Q6_K to half the layers (use_more_bits: the first and last eighth
//   and every third between, 40 of 80), Q3_K_M Q5_K to the first sixteenth and Q4_K to the rest,
//   Q2_K Q3_K, IQ3_M Q4_K to the first eighth, the IQ1 and IQ2 types Q2_K (IQ2_M: IQ3_S) to the
//   first eighth;
// - the down projections whose rows (the MLP's width) blocks of 256 do not divide take the
//   recipe's fallback types;
// - where the hidden size is such a width, every matrix reading it falls back from the base type
//   and the token embedding from its own; the head (and a tied embedding) takes Q8_0 (OUTPUT:
//   nx % qk_k; estimate.h WeightBytesOf). The mixes' upgrades of attn_v fall back from their own
//   types; counted here at the base type's step, they are a few hundredths of those weights.
struct GgufTypes {
  Type base, down, embedding;
};
constexpr GgufTypes kQ8_0Types{kQ8_0T, kQ8_0T, kQ8_0T}, kQ4_0Types{kQ4_0T, kQ4_0T, kQ4_0T},
                    kQ6_KTypes{kQ6_KT, kQ6_KT, kQ6_KT}, kQ5_K_MTypes{kQ5_KT, Mix(0.5, kQ6_KT, kQ5_KT), kQ5_KT},
                    kQ4_K_MTypes{kQ4_KT, Mix(0.5, kQ6_KT, kQ4_KT), kQ4_KT},
                    kQ3_K_MTypes{kQ3_KT, Mix(1.0 / 16, kQ5_KT, kQ4_KT), kQ3_KT}, kQ2_KTypes{kQ2_KT, kQ3_KT, kQ2_KT},
                    kIq4XsTypes{kIq4XsT, kIq4XsT, kIq4XsT}, kIq3XxsTypes{kIq3XxsT, kIq3XxsT, kIq3ST},
                    kIq3MTypes{kIq3ST, Mix(1.0 / 8, kQ4_KT, kIq3ST), kIq3ST},
                    kIq2MTypes{kIq2ST, Mix(1.0 / 8, kIq3ST, kIq2ST), kIq3ST},
                    kIq2XxsTypes{kIq2XxsT, Mix(1.0 / 8, kQ2_KT, kIq2XxsT), kQ2_KT},
                    kIq1MTypes{kIq1MT, Mix(1.0 / 8, kQ2_KT, kIq1MT), kQ2_KT},
                    kIq1STypes{kIq1ST, Mix(1.0 / 8, kQ2_KT, kIq1ST), kQ2_KT};
constexpr StoredBits Gguf(float body, GgufTypes t, float head) {
  const auto bits = [](double value) { return static_cast<float>(value); };
  return {body,
          bits(t.base.bits),
          bits(t.down.bits),
          bits(t.embedding.bits),
          head,
          bits(t.down.fallback - t.down.bits),
          bits(t.base.fallback - t.base.bits),
          bits(t.embedding.fallback)};
}
constexpr StoredBits Uniform(float bits) { return {bits, bits, bits, bits, bits}; }
// Checkpoints that quantize the linear layers and keep the embedding and the head in 16 bits
// (AWQ, GPTQ, FP8 and NVFP4 checkpoints list lm_head among the modules not converted).
constexpr StoredBits LinearOnly(float bits) { return {bits, bits, bits, kF16, kF16}; }

constexpr std::array<QuantFormat, 24> kFormats{{
    // The reference page's eight, in its matrix's order (estimation model 1.1).
    {"FP16", "FP16 / BF16", 16.00, WeightFamily::kFloat16, "F16", Uniform(kF16), false},
    {"FP8", "FP8", 8.50, WeightFamily::kFp8, "", LinearOnly(kFp8), false},
    {"Q8_0", "Q8_0", 8.50, WeightFamily::kGguf, "Q8_0", Gguf(8.51, kQ8_0Types, kQ8_0), false, 1},
    {"Q6_K", "Q6_K", 6.56, WeightFamily::kGguf, "Q6_K", Gguf(6.57, kQ6_KTypes, kQ6_K), false, 2},
    {"Q5_K_M", "Q5_K_M", 5.69, WeightFamily::kGguf, "Q5_K_M", Gguf(5.66, kQ5_K_MTypes, kQ6_K), false, 2},
    {"Q4_K_M", "Q4_K_M", 4.85, WeightFamily::kGguf, "Q4_K_M", Gguf(4.81, kQ4_K_MTypes, kQ6_K), false, 2},
    {"AWQ_INT4", "AWQ INT4", 4.50, WeightFamily::kAwq, "", LinearOnly(kInt4G128), false},
    {"IQ4_XS", "IQ4_XS", 4.25, WeightFamily::kGguf, "IQ4_XS", Gguf(4.28, kIq4XsTypes, kQ6_K), false},
    // The other profiles' formats.
    {"BF16", "BF16", 16.00, WeightFamily::kFloat16, "BF16", Uniform(kF16), false},
    {"Q4_0", "Q4_0", 4.50, WeightFamily::kGguf, "Q4_0", Gguf(4.51, kQ4_0Types, kQ6_K), false, 1},
    {"Q3_K_M", "Q3_K_M", 3.85, WeightFamily::kGguf, "Q3_K_M", Gguf(3.85, kQ3_K_MTypes, kQ6_K), false, 2},
    {"Q2_K", "Q2_K", 2.94, WeightFamily::kGguf, "Q2_K", Gguf(2.94, kQ2_KTypes, kQ6_K), false, 2},
    {"IQ3_XXS", "IQ3_XXS", 3.07, WeightFamily::kGguf, "IQ3_XXS", Gguf(3.07, kIq3XxsTypes, kQ5_K), false},
    {"IQ2_XXS", "IQ2_XXS", 2.12, WeightFamily::kGguf, "IQ2_XXS", Gguf(2.12, kIq2XxsTypes, kQ5_K), false},
    {"IQ3_M", "IQ3_M", 3.58, WeightFamily::kGguf, "IQ3_M", Gguf(3.58, kIq3MTypes, kQ6_K), false},
    {"IQ2_M", "IQ2_M", 2.69, WeightFamily::kGguf, "IQ2_M", Gguf(2.69, kIq2MTypes, kQ5_K), false},
    {"IQ1_M", "IQ1_M", 1.85, WeightFamily::kGguf, "IQ1_M", Gguf(1.85, kIq1MTypes, kQ5_K), false},
    {"IQ1_S", "IQ1_S", 1.69, WeightFamily::kGguf, "IQ1_S", Gguf(1.69, kIq1STypes, kQ5_K), false},
    {"MXFP4_MOE", "MXFP4 (GGUF)", 4.25, WeightFamily::kGguf, "MXFP4_MOE", {kQ8_0, kMxfp4, kMxfp4, kQ8_0, kQ8_0, 0, 0, kQ8_0}, true},
    {"MXFP4", "MXFP4", 4.25, WeightFamily::kMxfp4, "", {kF16, kMxfp4, kMxfp4, kF16, kF16}, true},
    {"NVFP4", "NVFP4", 4.50, WeightFamily::kNvfp4, "", LinearOnly(kNvfp4), false},
    {"GPTQ_INT4", "GPTQ INT4", 4.16, WeightFamily::kGptq, "", LinearOnly(kInt4G128), false},
    {"MLX_8BIT", "MLX 8-bit", 8.50, WeightFamily::kMlx, "", Uniform(kMlx8), false},
    {"MLX_4BIT", "MLX 4-bit", 4.50, WeightFamily::kMlx, "", Uniform(kMlx4), false},
}};

// Bytes per KV element: FP16 2; FP8 1; llama.cpp's Q8_0 block is 32 int8 + one FP16 scale
// (34 B per 32); Q4_0 is 32 nibbles + one FP16 scale (18 B per 32). mlx-lm's QuantizedKVCache
// keeps a 16-bit scale and bias per 64 elements: 8-bit 1 + 4/64, 4-bit 0.5 + 4/64.
constexpr std::array<KvDtype, 6> kKvDtypes{{
    {"fp16", "FP16", 2.0},
    {"fp8", "FP8", 1.0},
    {"q8_0", "Q8_0", 34.0 / 32.0},
    {"q4_0", "Q4_0", 18.0 / 32.0},
    {"q8_mlx", "8-bit (MLX)", 1.0 + 4.0 / 64.0},
    {"q4_mlx", "4-bit (MLX)", 0.5 + 4.0 / 64.0},
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
