#include "vramcalc/commands.h"

#include <cctype>
#include <cmath>
#include <string>

#include "vramcalc/display.h"

namespace vramcalc {
namespace {

constexpr double kVllmDefaultUtilization = 0.95;
constexpr double kVllmMaxUtilization = 0.98;

std::string Gb(double gib) { return FormatFixed(gib, 2) + " GB"; }

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string GgufFile(const ModelSpec& model, std::string_view gguf_type) {
  return "./" + model.name + "-" + std::string(gguf_type) + ".gguf";
}

// What vLLM loads for each weight family, and the comment that says so.
struct VllmWeights {
  std::string source;        // first argument of `vllm serve`
  std::string extra_flags;   // e.g. " \\\n  --quantization fp8"
  std::string comment;
};

VllmWeights VllmWeightsFor(const ModelSpec& model, const QuantFormat& format) {
  switch (format.family) {
    case WeightFamily::kFloat16:
      return {model.checkpoint, "",
              "# Loads the 16-bit checkpoint " + model.checkpoint + " as published."};
    case WeightFamily::kFp8:
      return {model.checkpoint, " \\\n  --quantization fp8",
              "# Loads the 16-bit checkpoint and quantizes the weights to FP8 while loading."};
    case WeightFamily::kAwq: {
      const std::string dir = "./" + model.name + "-AWQ";
      return {dir, " \\\n  --quantization awq",
              "# Loads an AWQ INT4 export of " + model.checkpoint + " from " + dir +
                  " (made with AutoAWQ or llm-compressor)."};
    }
    case WeightFamily::kGguf: {
      const std::string file = GgufFile(model, format.gguf_type);
      return {file, " \\\n  --tokenizer " + model.checkpoint,
              "# Loads the GGUF file " + file.substr(2) +
                  " (vLLM's GGUF support is experimental; download the file first)."};
    }
  }
  return {};
}

std::string VllmCommand(const CommandInputs& in) {
  const ModelSpec& model = *in.model;
  const Device& device = *in.device;
  const VllmWeights weights = VllmWeightsFor(model, *in.format);
  const std::string devices =
      in.device_count > 1 ? std::to_string(in.device_count) + "× " + device.name : device.name;
  std::string out = "# " + model.name + " · " + std::string(in.format->label) + " on " + devices +
                    ": about " + Gb(in.total_gib) + " of " + Gb(device.memory_gib) +
                    " per device\n";
  out += weights.comment + "\n";

  double utilization = kVllmDefaultUtilization;
  const double ratio = in.total_gib / device.memory_gib;
  if (ratio > kVllmMaxUtilization) {
    out += "# Does not fit: " + Gb(in.total_gib) + " needed. Lower --max-model-len (up to " +
           FormatGrouped(in.max_context_tokens) +
           " tokens fit) or choose a smaller format or a larger device.\n";
  } else if (ratio > kVllmDefaultUtilization) {
    utilization = std::ceil(ratio * 100.0) / 100.0;
    out += "# Tight: vLLM must be allowed " + FormatFixed(utilization, 2) +
           " of the memory; close other programs on this GPU.\n";
  }
  std::string kv_flag(in.kv_dtype->vllm_name);
  if (kv_flag.empty()) {
    kv_flag = "fp8";
    out += "# vLLM has no " + std::string(in.kv_dtype->label) +
           " KV cache; fp8 (1 byte per element) is the nearest it offers.\n";
  }
  out += "vllm serve " + weights.source + weights.extra_flags + " \\\n";
  out += "  --tensor-parallel-size " + std::to_string(in.device_count) + " \\\n";
  out += "  --max-model-len " + std::to_string(in.context_tokens) + " \\\n";
  out += "  --max-num-seqs " + std::to_string(in.batch) + " \\\n";
  out += "  --gpu-memory-utilization " + FormatFixed(utilization, 2) + " \\\n";
  out += "  --kv-cache-dtype " + kv_flag + " \\\n";
  out += "  --enable-prefix-caching \\\n";
  out += "  --port 8000";
  return out;
}

std::string OllamaModelfile(const CommandInputs& in) {
  const ModelSpec& model = *in.model;
  const QuantFormat& format = *in.format;
  // Ollama runs GGUF weights only: FP8 and AWQ map to the nearest GGUF type.
  std::string_view gguf_type = format.gguf_type;
  std::string note;
  if (format.family == WeightFamily::kFp8) {
    gguf_type = "Q8_0";
    note = "# Ollama has no FP8 weights; Q8_0 (8.50 bpw, the same size) is the nearest.\n";
  } else if (format.family == WeightFamily::kAwq) {
    gguf_type = "Q4_K_M";
    note = "# Ollama cannot load AWQ; Q4_K_M (4.85 bpw) is the nearest GGUF type.\n";
  }
  std::string from;
  const bool tag_holds_format = !model.ollama_tag.empty() && model.ollama_tag_weights == gguf_type;
  if (tag_holds_format) {
    from = model.ollama_tag;
    note += "# " + model.ollama_tag + " is the Ollama library's " + std::string(gguf_type) + " build.\n";
  } else {
    from = GgufFile(model, gguf_type);
    note += "# Download " + from.substr(2) + " beside this Modelfile first.\n";
    if (!model.ollama_tag.empty()) {
      note += "# The Ollama library's " + model.ollama_tag + " holds " + model.ollama_tag_weights +
              " weights instead: `ollama run " + model.ollama_tag + "` runs those.\n";
    }
  }
  const std::string name = model.id + "-" + Lower(gguf_type);
  std::string out = "# Save as Modelfile, then run: ollama create " + name + " -f Modelfile\n";
  out += note;
  out += "FROM " + from + "\n";
  out += "PARAMETER num_ctx " + std::to_string(in.context_tokens);
  return out;
}

std::string OllamaEnv(const CommandInputs& in) {
  std::string kv_type(in.kv_dtype->ollama_name);
  std::string out = "# Environment variables for ollama serve: " + std::to_string(in.batch) +
                    (in.batch == 1 ? " slot" : " parallel slots") + " × " +
                    FormatGrouped(in.context_tokens) + " tokens of " +
                    std::string(in.kv_dtype->label) + " KV cache = " + Gb(in.kv_cache_gib) + "\n";
  if (kv_type.empty()) {
    kv_type = "q8_0";
    out += "# Ollama has no " + std::string(in.kv_dtype->label) +
           " KV cache; q8_0 (1.0625 bytes per element) is the nearest.\n";
  }
  if (in.device_count > 1) {
    out += "# Ollama has no tensor parallelism: it spreads the layers over the " +
           std::to_string(in.device_count) + " GPUs, each holding its layers' share.\n";
  }
  out += "OLLAMA_NUM_PARALLEL=" + std::to_string(in.batch) +
         " OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=" + kv_type + " ollama serve";
  return out;
}

}  // namespace

Commands BuildCommands(const CommandInputs& inputs) {
  return Commands{VllmCommand(inputs), OllamaModelfile(inputs), OllamaEnv(inputs)};
}

}  // namespace vramcalc
