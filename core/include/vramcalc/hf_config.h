// Bring your own model: a Hugging Face config.json read into a ModelSpec.
#ifndef VRAMCALC_HF_CONFIG_H_
#define VRAMCALC_HF_CONFIG_H_

#include <string_view>
#include <vector>

#include "vramcalc/model_spec.h"
#include "vramcalc/result.h"

namespace vramcalc {

// Reads the architecture from a config.json of one of SupportedModelTypes(): Llama, Mistral
// and Ministral 3, Mixtral, Qwen 2 to 3.6 (with Qwen3-Next's and Qwen3.5's Gated DeltaNet
// layers and Qwen3-VL), Gemma 2 and 3, GLM-4 and GLM-4.5 to 4.7 (with Flash's MLA), DeepSeek
// V2 and V3, Kimi K2, MiniMax-M2, Nemotron-H (Mamba2 hybrids), gpt-oss, Phi-3, Llama 4 and
// Command R7B. A multimodal config's text_config is used when present.
//
// Derived, per the model type's own rules: head_dim (the config's, else hidden / heads),
// KV heads (default: all heads), windowed layers (layer_types; else Gemma 2's alternation,
// Gemma 3's sliding_window_pattern, Qwen's use_sliding_window / max_window_layers, Mistral's
// and Phi-3's sliding_window on every layer, Llama 4's chunked attention), MoE experts and
// MLA dimensions, the hybrids' attention, recurrent and MLP-only layers with the recurrent
// state per sequence, and from them the layer groups; Gemma 3's omitted text_config fields take
// transformers' defaults. The parameter count is computed from the shapes (embeddings,
// attention and gated MLP or expert weights; norms and biases, under 0.1 %, are left out) with
// the arithmetic in params_formula.
//
// A quantization_config (fp8, mxfp4, awq and gptq at 4 bits, ModelOpt's FP8 and NVFP4,
// llm-compressor's float-quantized and nvfp4-pack-quantized) names the checkpoint's format.
//
// Errors name the field as "model.<field>" (e.g. "model.num_attention_heads").
Result<ModelSpec> ParseHfConfig(std::string_view config_json);

// A model description instead of a config.json: {"schema": kModelDescriptionSchema, ...} with a
// catalog entry's fields (assets/models; "checkpoint", "release" and the Ollama tags may be left
// out) and, optionally, "weights": the bytes per tensor role of the file it was read from
// (model_spec.h MeasuredWeights). A request's model object (json_codec.h) is read as one when it
// has "schema"; errors name "model.<field>" as for a config.json.
inline constexpr std::string_view kModelDescriptionSchema = "vramcalc.model/1";

// The model_type values ParseHfConfig reads, in alphabetical order.
std::vector<std::string_view> SupportedModelTypes();

}  // namespace vramcalc

#endif  // VRAMCALC_HF_CONFIG_H_
