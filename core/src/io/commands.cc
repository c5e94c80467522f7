#include "vramcalc/commands.h"

#include <cctype>
#include <cmath>
#include <string>

#include "io/engine_commands.h"
#include "vramcalc/display.h"

namespace vramcalc {
namespace {

constexpr double kVllmDefaultUtilization = 0.95;
constexpr double kVllmMaxUtilization = 0.98;

// What each engine calls a KV cache type it has, and what it offers instead of one it lacks.
// vLLM's --kv-cache-dtype knows auto (the model dtype) and fp8; Ollama's OLLAMA_KV_CACHE_TYPE
// knows f16, q8_0 and q4_0.
struct EngineKvName {
  std::string_view engine;
  std::string_view kv_dtype;  // a KvDtype id, "*" for the fallback
  std::string_view name;
};
constexpr EngineKvName kEngineKvNames[] = {
    {"vllm", "fp16", "auto"},   {"vllm", "fp8", "fp8"},     {"vllm", "*", "fp8"},
    {"ollama", "fp16", "f16"}, {"ollama", "q8_0", "q8_0"}, {"ollama", "q4_0", "q4_0"},
    {"ollama", "*", "q8_0"},
};

// The engine's name for `kv_dtype`, and whether it has one (else the fallback's name).
std::pair<std::string_view, bool> KvName(std::string_view engine, const KvDtype& kv_dtype) {
  std::string_view fallback;
  for (const EngineKvName& entry : kEngineKvNames) {
    if (entry.engine != engine) continue;
    if (entry.kv_dtype == kv_dtype.id) return {entry.name, true};
    if (entry.kv_dtype == "*") fallback = entry.name;
  }
  return {fallback, false};
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string GgufFile(const ModelSpec& model, std::string_view gguf_type) {
  return "./" + ShellWord(model.name) + "-" + std::string(gguf_type) + ".gguf";
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
      const std::string dir = "./" + ShellWord(model.name) + "-AWQ";
      return {dir, " \\\n  --quantization awq",
              "# Loads an AWQ INT4 export of " + model.checkpoint + " from " + dir +
                  " (made with AutoAWQ or llm-compressor)."};
    }
    case WeightFamily::kGptq:
    case WeightFamily::kMxfp4:
    case WeightFamily::kNvfp4:
    case WeightFamily::kMlx:  // not among the reference profile's formats
      return {model.checkpoint, "", "# Loads " + model.checkpoint + "."};
    case WeightFamily::kGguf: {
      const std::string file = GgufFile(model, format.gguf_type);
      return {file, " \\\n  --tokenizer " + model.checkpoint,
              "# Loads the GGUF file " + file.substr(2) +
                  " (vLLM's GGUF support is experimental; download the file first)."};
    }
  }
  return {};
}

// The comment lines above `vllm serve`: what runs where, what loads, and whether it fits.
std::string VllmComments(const CommandInputs& in, const VllmWeights& weights, double& utilization) {
  const Scenario& s = *in.scenario;
  const Device& device = *s.device;
  const std::string devices =
      s.device_count > 1 ? std::to_string(s.device_count) + "× " + device.name : device.name;
  std::string out = "# " + s.model->name + " · " + std::string(s.format->label) + " on " + devices +
                    ": about " + FormatGb(in.per_device_gib) + " of " + FormatGb(device.memory_gib) +
                    " per device\n";
  out += weights.comment + "\n";
  utilization = kVllmDefaultUtilization;
  const double ratio = in.per_device_gib / device.memory_gib;
  if (ratio > kVllmMaxUtilization) {
    out += "# Does not fit: " + FormatGb(in.per_device_gib) + " needed. Lower --max-model-len (up to " +
           FormatGrouped(in.max_context_tokens) +
           " tokens fit) or choose a smaller format or a larger device.\n";
  } else if (ratio > kVllmDefaultUtilization) {
    utilization = std::ceil(ratio * 100.0) / 100.0;
    out += "# Tight: vLLM must be allowed " + FormatFixed(utilization, 2) +
           " of the memory; close other programs on this GPU.\n";
  }
  return out;
}

std::string VllmCommand(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const VllmWeights weights = VllmWeightsFor(*s.model, *s.format);
  double utilization = kVllmDefaultUtilization;
  std::string out = VllmComments(in, weights, utilization);
  const auto [kv_flag, has_kv] = KvName("vllm", *s.kv_dtype);
  if (!has_kv) {
    out += "# vLLM has no " + std::string(s.kv_dtype->label) + " KV cache; " + std::string(kv_flag) +
           " (1 byte per element) is the nearest it offers.\n";
  }
  out += "vllm serve " + weights.source + weights.extra_flags + " \\\n";
  out += "  --tensor-parallel-size " + std::to_string(s.device_count) + " \\\n";
  out += "  --max-model-len " + std::to_string(s.context_tokens) + " \\\n";
  out += "  --max-num-seqs " + std::to_string(s.batch) + " \\\n";
  out += "  --gpu-memory-utilization " + FormatFixed(utilization, 2) + " \\\n";
  out += "  --kv-cache-dtype " + std::string(kv_flag) + " \\\n";
  out += "  --enable-prefix-caching \\\n";
  out += "  --port 8000";
  return out;
}

std::string OllamaModelfile(const CommandInputs& in) {
  const ModelSpec& model = *in.scenario->model;
  const QuantFormat& format = *in.scenario->format;
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
  if (model.OllamaTagHolds(gguf_type)) {
    from = model.ollama_tag;
    note += "# " + model.ollama_tag + " is the Ollama library's " + model.ollama_tag_weights + " build.\n";
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
  out += "PARAMETER num_ctx " + std::to_string(in.scenario->context_tokens);
  return out;
}

std::string OllamaEnv(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const auto [kv_type, has_kv] = KvName("ollama", *s.kv_dtype);
  std::string out = "# Environment variables for ollama serve: " + std::to_string(s.batch) +
                    (s.batch == 1 ? " slot" : " parallel slots") + " × " +
                    FormatGrouped(s.context_tokens) + " tokens of " +
                    std::string(s.kv_dtype->label) + " KV cache = " + FormatGb(in.kv_cache_gib) + "\n";
  if (!has_kv) {
    out += "# Ollama has no " + std::string(s.kv_dtype->label) + " KV cache; " + std::string(kv_type) +
           " (1.0625 bytes per element) is the nearest.\n";
  }
  if (s.device_count > 1) {
    out += "# Ollama has no tensor parallelism: it spreads the layers over the " +
           std::to_string(s.device_count) + " GPUs, each holding its layers' share.\n";
  }
  out += "OLLAMA_NUM_PARALLEL=" + std::to_string(s.batch) +
         " OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=" + std::string(kv_type) + " ollama serve";
  return out;
}

// The reference page's command templates (the engine profiles' are in engine_commands.cc).
using internal::CommandTemplate;
constexpr CommandTemplate kTemplates[] = {
    {"vllm", "vllm", "cmd.vllm", "sh", VllmCommand},
    {"ollama-modelfile", "ollama", "cmd.ollama", "modelfile", OllamaModelfile},
    {"ollama-env", "ollama", "cmd.ollama_env", "sh", OllamaEnv},
};

}  // namespace

namespace {

// Every template: the reference page's, then the engines'.
std::vector<CommandTemplate> AllTemplates() {
  std::vector<CommandTemplate> all(std::begin(kTemplates), std::end(kTemplates));
  for (const CommandTemplate& t : internal::EngineCommandTemplates()) all.push_back(t);
  return all;
}

}  // namespace

std::vector<Command> BuildCommands(const CommandInputs& inputs) {
  std::vector<Command> commands;
  const std::vector<CommandTemplate> templates = AllTemplates();
  for (const std::string_view id : inputs.scenario->runtime->commands) {
    for (const CommandTemplate& t : templates) {
      if (t.id != id) continue;
      commands.push_back(Command{std::string(t.id), std::string(t.engine), std::string(t.title),
                                 std::string(t.language), t.build(inputs)});
    }
  }
  return commands;
}

std::string GpuMapCommand(const GpuMap& map) {
  return map.limit == GpuLimit::kMacosWired ? "sudo sysctl iogpu.wired_limit_mb=" + std::to_string(map.set_mib)
                                            : "amd-ttm --set " + std::to_string(map.set_gib);
}

std::vector<std::string_view> CommandTemplateIds() {
  std::vector<std::string_view> ids;
  for (const CommandTemplate& t : AllTemplates()) ids.push_back(t.id);
  return ids;
}

}  // namespace vramcalc
