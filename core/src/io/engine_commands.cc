// The engine profiles' commands (core/ESTIMATION.md section 5.6): each carries the context, KV
// cache type, slots, utilization, batch and device split the estimate used, as that engine's
// flags or environment, so running it reproduces the estimate.
#include "io/engine_commands.h"

#include <string>

#include "estimate/engine_memory.h"
#include "vramcalc/display.h"

namespace vramcalc::internal {
namespace {

// What each engine calls a KV cache type (only the types its profile offers reach it).
struct EngineKvName {
  std::string_view engine;
  std::string_view kv_dtype;
  std::string_view name;
};
constexpr EngineKvName kKvNames[] = {
    {"llama.cpp", "fp16", "f16"}, {"llama.cpp", "q8_0", "q8_0"}, {"llama.cpp", "q4_0", "q4_0"},
    {"vllm", "fp16", "auto"},     {"vllm", "fp8", "fp8"},        {"sglang", "fp16", "auto"},
    {"sglang", "fp8", "fp8_e4m3"}, {"mlx", "q8_mlx", "8"},       {"mlx", "q4_mlx", "4"},
};

std::string_view KvName(std::string_view engine, const KvDtype& kv_dtype) {
  for (const EngineKvName& entry : kKvNames) {
    if (entry.engine == engine && entry.kv_dtype == kv_dtype.id) return entry.name;
  }
  return {};
}

std::string Devices(const Scenario& s) {
  return s.device_count > 1 ? std::to_string(s.device_count) + "× " + s.device->name : s.device->name;
}

// "# Model · format on device: about X of Y usable per device" and, when it does not fit, what
// to change.
std::string Headline(const CommandInputs& in, std::string_view usable_note) {
  const Scenario& s = *in.scenario;
  const double capacity = CapacityGib(s);
  const double on_device = in.offload != nullptr ? in.offload->device_gib : in.per_device_gib;
  std::string out = "# " + s.model->name + " · " + std::string(s.format->label) + " on " + Devices(s) + ": about " +
                    FormatGb(on_device) + " of " + FormatGb(capacity) + " usable per device" +
                    std::string(usable_note) + "\n";
  if (in.offload != nullptr) {
    out += "# " + FormatGb(in.per_device_gib) + " do not fit: " + FormatGb(in.offload->host_gib) + " stay in RAM (" +
           FormatFixed(in.offload->ram_share_pct, 0) + " % of the weights), about " +
           FormatFixed(in.offload->decode_tps, 1) + " tok/s.\n";
  } else if (in.gpu_map != nullptr && in.gpu_map->limit == GpuLimit::kMacosWired) {
    out += "# macOS lets the GPU wire " + FormatGb(in.gpu_map->default_gib) + " by default; this needs " +
           FormatGb(in.gpu_map->needed_gib) + ". Raise it first, until a restart (mlx-lm's README):\n" +
           GpuMapCommand(*in.gpu_map) + "\n";
  } else if (in.per_device_gib > capacity) {
    out += "# Does not fit: up to " + FormatGrouped(in.max_context_tokens) +
           " tokens of context fit; lower the context or choose a smaller format or a larger device.\n";
  }
  if (in.gpu_map != nullptr && in.gpu_map->limit == GpuLimit::kLinuxGtt) {
    out += "# Linux lets the GPU map " + FormatGb(in.gpu_map->default_gib) + " of the RAM by default; this needs " +
           FormatGb(in.gpu_map->needed_gib) + ". Raise it once, then reboot (AMD's ROCm docs):\n# " +
           GpuMapCommand(*in.gpu_map) + "\n";
  }
  return out;
}

// The model's own file when its description names one of this format, else one named after it.
std::string GgufFile(const ModelSpec& model, const QuantFormat& format) {
  if (const MeasuredWeights* file = model.WeightsIn(format.id); file && !file->file.empty()) {
    return "./" + file->file;
  }
  return "./" + ShellWord(model.name) + "-" + std::string(format.gguf_type) + ".gguf";
}

// A multimodal model's towers: the mmproj file beside the model's (published in F16), on the GPU.
std::string MmprojLines(const CommandInputs& in, std::string& flags) {
  if (in.vision_gib == 0) return "";
  flags += "  --mmproj ./mmproj-" + ShellWord(in.scenario->model->name) + "-F16.gguf \\\n";
  return "# The vision and audio towers: the mmproj file, " + FormatGb(in.vision_gib) +
         " on the GPU (leave out --mmproj for text alone).\n";
}

std::string LlamaServer(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const EngineSettings e = ResolvedSettings(s);
  const std::string kv(KvName("llama.cpp", *s.kv_dtype));
  std::string out = Headline(in, " (--fit keeps 1 GiB free)");
  out += "# " + std::to_string(e.parallel) + (e.parallel == 1 ? " slot" : " slots") + " × " +
         FormatGrouped(s.context_tokens) + " tokens; the token embedding stays in RAM.\n";
  std::string mmproj;
  out += MmprojLines(in, mmproj);
  out += "llama-server -m " + GgufFile(*s.model, *s.format) + " \\\n" + mmproj;
  out += "  -c " + std::to_string(s.context_tokens * e.parallel) + " -np " + std::to_string(e.parallel) + " \\\n";
  out += "  -ctk " + kv + " -ctv " + kv + " -fa " + (e.flash_attention ? "on" : "off") + " -ub " +
         std::to_string(e.ubatch) + " \\\n";
  if (s.device_count > 1) out += "  -sm layer \\\n";
  if (in.offload != nullptr) out += "  " + LlamaCppOffloadFlags(*in.offload) + " \\\n";
  out += "  --port 8080";
  return out;
}

// The Ollama library's tag when it holds the format, else the name `ollama create` gives the GGUF.
std::string OllamaName(const ModelSpec& model, const QuantFormat& format) {
  return model.OllamaTagHolds(format.gguf_type) ? model.ollama_tag : model.id + "-" + std::string(format.gguf_type);
}

std::string OllamaEngine(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const EngineSettings e = ResolvedSettings(s);
  const ModelSpec& model = *s.model;
  std::string out = Headline(in, "");
  out += "# OLLAMA_NUM_PARALLEL slots × " + FormatGrouped(s.context_tokens) + " tokens each; Ollama picks batch " +
         std::to_string(e.ubatch) + " for this context.\n";
  out += "OLLAMA_CONTEXT_LENGTH=" + std::to_string(s.context_tokens) +
         " OLLAMA_NUM_PARALLEL=" + std::to_string(e.parallel) + " OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=" +
         std::string(KvName("llama.cpp", *s.kv_dtype)) + " ollama serve\n";
  const std::string name = OllamaName(model, *s.format);
  if (model.OllamaTagHolds(s.format->gguf_type)) return out + "ollama run " + name;
  out += "# Download " + GgufFile(model, *s.format).substr(2) + " first.\n";
  out += "printf 'FROM " + GgufFile(model, *s.format) + "\\n' > Modelfile && ollama create " + name +
         " -f Modelfile && ollama run " + name;
  return out;
}

// What a vLLM or SGLang server loads for each weight family, and the flag that says how.
struct ServerWeights {
  std::string source;
  std::string quantization;  // the --quantization value, or empty
};

ServerWeights ServerWeightsFor(const ModelSpec& model, const QuantFormat& format) {
  switch (format.family) {
    case WeightFamily::kFp8:
      return {model.checkpoint, "fp8"};
    case WeightFamily::kAwq:
      return {"./" + ShellWord(model.name) + "-AWQ", "awq"};
    case WeightFamily::kGptq:
      return {"./" + ShellWord(model.name) + "-GPTQ", "gptq"};
    case WeightFamily::kNvfp4:
      return {"./" + ShellWord(model.name) + "-NVFP4", "modelopt_fp4"};
    default:
      return {model.checkpoint, ""};
  }
}

std::string VllmServe(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const EngineSettings e = ResolvedSettings(s);
  const ServerWeights weights = ServerWeightsFor(*s.model, *s.format);
  std::string out = Headline(in, "");
  if (const std::optional<KvPool> pool = KvPoolOf(s)) {
    out += "# vLLM should log a KV cache of about " + FormatGb(pool->gib) + " per GPU, " +
           FormatGrouped(pool->tokens) + " tokens.\n";
    if (pool->group_layers > 0) {
      out += "# and a maximum concurrency of about " + FormatFixed(pool->concurrency, 2) + "x for " +
             FormatGrouped(s.context_tokens) + " tokens per request" +
             (pool->concurrency < 1 ? " (below 1: it does not start; --max-model-len " +
                                          std::to_string(pool->longest_request) + " would)"
                                    : "") +
             ".\n";
    }
  }
  if (in.vision_gib > 0) {
    out += "# The vision and audio towers load too, " + FormatGb(in.vision_gib) +
           " (--language-model-only leaves them out and gives the KV cache the room).\n";
  }
  out += "vllm serve " + weights.source + " \\\n";
  if (!weights.quantization.empty()) out += "  --quantization " + weights.quantization + " \\\n";
  out += "  --tensor-parallel-size " + std::to_string(s.device_count) + " \\\n";
  out += "  --max-model-len " + std::to_string(s.context_tokens) + " \\\n";
  out += "  --gpu-memory-utilization " + FormatFixed(e.memory_utilization, 2) + " \\\n";
  out += "  --max-num-batched-tokens " + std::to_string(e.max_num_batched_tokens) + " \\\n";
  out += "  --kv-cache-dtype " + std::string(KvName("vllm", *s.kv_dtype)) + " \\\n";
  out += "  --port 8000";
  return out;
}

std::string SglangLaunch(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const EngineSettings e = ResolvedSettings(s);
  const ServerWeights weights = ServerWeightsFor(*s.model, *s.format);
  std::string out = Headline(in, "");
  if (const std::optional<KvPool> pool = KvPoolOf(s)) {
    out += "# SGLang should log a KV cache of about " + FormatGrouped(pool->tokens) + " tokens per GPU.\n";
  }
  out += "python -m sglang.launch_server --model-path " + weights.source + " \\\n";
  if (!weights.quantization.empty()) out += "  --quantization " + weights.quantization + " \\\n";
  out += "  --tp " + std::to_string(s.device_count) + " \\\n";
  out += "  --context-length " + std::to_string(s.context_tokens) + " \\\n";
  out += "  --mem-fraction-static " + FormatFixed(e.memory_utilization, 3) + " \\\n";
  out += "  --kv-cache-dtype " + std::string(KvName("sglang", *s.kv_dtype)) + " \\\n";
  out += "  --port 30000";
  return out;
}

// mlx-lm's weights: quantized by mlx_lm.convert to 4 or 8 bits, else converted to bfloat16,
// into a folder named after both.
std::string MlxBits(const QuantFormat& format) { return format.id == "MLX_8BIT" ? "8" : "4"; }
std::string MlxDir(const ModelSpec& model, const QuantFormat& format) {
  return "./" + ShellWord(model.name) + (format.family == WeightFamily::kMlx ? "-" + MlxBits(format) + "bit" : "-bf16");
}

std::string MlxLm(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const ModelSpec& model = *s.model;
  const bool quantized = s.format->family == WeightFamily::kMlx;
  const std::string bits = MlxBits(*s.format);
  const std::string dir = MlxDir(model, *s.format);
  std::string out = Headline(in, " (the Metal working set)");
  if (in.gpu_map == nullptr) out += "# More: sudo sysctl iogpu.wired_limit_mb=<MB> (below the RAM size).\n";
  out += "mlx_lm.convert --hf-path " + model.checkpoint + " --mlx-path " + dir +
         (quantized ? " -q --q-bits " + bits + " --q-group-size 64" : " --dtype bfloat16") + "\n";
  out += "# The cache grows with the sequence; the estimate is for " + FormatGrouped(s.context_tokens) + " tokens.\n";
  out += "mlx_lm.generate --model " + dir + " --max-tokens 512";
  const std::string_view kv = KvName("mlx", *s.kv_dtype);
  if (!kv.empty()) out += " --kv-bits " + std::string(kv) + " --kv-group-size 64 --quantized-kv-start 0";
  out += " --prompt \"Hello\"";
  return out;
}

// "Measure it yourself": each engine's own benchmark of the estimated scenario's decode, under
// a comment that says at which context.
std::string DecodeAt(const Scenario& s) { return "# Decode at batch 1 after " + FormatGrouped(s.context_tokens) + " tokens"; }

std::string LlamaBench(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const EngineSettings e = ResolvedSettings(s);
  const std::string kv(KvName("llama.cpp", *s.kv_dtype));
  return DecodeAt(s) + "; compare tg128 with the estimate.\n" +
         "llama-bench -m " + GgufFile(*s.model, *s.format) + " -p 0 -n 128 -d " + std::to_string(s.context_tokens) +
         " -ub " + std::to_string(e.ubatch) + " -fa " + (e.flash_attention ? "1" : "0") + " -ctk " + kv + " -ctv " + kv;
}

std::string OllamaBench(const CommandInputs& in) {
  // The model the Ollama command runs: the library's tag only where it holds the format.
  return "# Decode at batch 1: Ollama prints it as \"eval rate\".\nollama run " +
         OllamaName(*in.scenario->model, *in.scenario->format) + " --verbose \"Hello\"";
}

std::string VllmBench(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const ServerWeights weights = ServerWeightsFor(*s.model, *s.format);
  return DecodeAt(s) + ": the latency of 128 tokens.\n" +
         "vllm bench latency --model " + weights.source +
         (weights.quantization.empty() ? "" : " --quantization " + weights.quantization) +
         " --tensor-parallel-size " + std::to_string(s.device_count) + " --batch-size 1 --input-len " +
         std::to_string(s.context_tokens) + " --output-len 128 --kv-cache-dtype " +
         std::string(KvName("vllm", *s.kv_dtype));
}

std::string SglangBench(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  const ServerWeights weights = ServerWeightsFor(*s.model, *s.format);
  return DecodeAt(s) + ".\n" +
         "python -m sglang.bench_one_batch --model-path " + weights.source + " --tp " + std::to_string(s.device_count) +
         " --batch-size 1 --input-len " + std::to_string(s.context_tokens) + " --output-len 128";
}

std::string MlxBench(const CommandInputs& in) {
  const Scenario& s = *in.scenario;
  return DecodeAt(s) + ": \"Generation\" tok/s.\n" + "mlx_lm.benchmark --model " + MlxDir(*s.model, *s.format) +
         " -p " + std::to_string(s.context_tokens) + " -g 128";
}

}  // namespace

std::span<const CommandTemplate> EngineCommandTemplates() {
  static constexpr CommandTemplate kEngineTemplates[] = {
      {"llama-server", "llama.cpp", "cmd.llama_server", "sh", LlamaServer},
      {"ollama-engine", "ollama", "cmd.ollama_engine", "sh", OllamaEngine},
      {"vllm-serve", "vllm", "cmd.vllm_serve", "sh", VllmServe},
      {"sglang-launch", "sglang", "cmd.sglang", "sh", SglangLaunch},
      {"mlx-lm", "mlx", "cmd.mlx", "sh", MlxLm},
      {"llama-bench", "llama.cpp", "cmd.measure", "sh", LlamaBench},
      {"ollama-bench", "ollama", "cmd.measure", "sh", OllamaBench},
      {"vllm-bench", "vllm", "cmd.measure", "sh", VllmBench},
      {"sglang-bench", "sglang", "cmd.measure", "sh", SglangBench},
      {"mlx-bench", "mlx", "cmd.measure", "sh", MlxBench},
  };
  return kEngineTemplates;
}

}  // namespace vramcalc::internal
