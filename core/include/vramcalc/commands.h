// Ready-to-run commands for a scenario: a vLLM server line and an Ollama Modelfile with the
// `ollama serve` environment. They take context, concurrent sequences, KV cache type and device
// from the scenario and state which weights they load, so they agree with the numbers shown.
#ifndef VRAMCALC_COMMANDS_H_
#define VRAMCALC_COMMANDS_H_

#include <cstdint>
#include <string>

#include "vramcalc/device.h"
#include "vramcalc/model_spec.h"
#include "vramcalc/quant_format.h"

namespace vramcalc {

struct Commands {
  std::string vllm;              // a `vllm serve` command with comment lines above it
  std::string ollama_modelfile;  // a Modelfile, with the `ollama create` line as a comment
  std::string ollama_env;        // the `ollama serve` line with its environment variables
};

struct CommandInputs {
  const ModelSpec* model = nullptr;
  const QuantFormat* format = nullptr;
  const KvDtype* kv_dtype = nullptr;
  const Device* device = nullptr;
  int64_t device_count = 1;   // tensor-parallel group size
  int64_t context_tokens = 0;
  int64_t batch = 1;
  double kv_cache_gib = 0;    // for all `batch` sequences, as the simulator shows it
  double total_gib = 0;       // per device
  int64_t max_context_tokens = 0;  // on this device, as the simulator shows it
};

Commands BuildCommands(const CommandInputs& inputs);

}  // namespace vramcalc

#endif  // VRAMCALC_COMMANDS_H_
