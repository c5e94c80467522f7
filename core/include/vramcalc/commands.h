// Ready-to-run commands for a scenario: which ones is the runtime profile's list, each built by
// a command template of commands.cc (a vLLM server line, an Ollama Modelfile, the `ollama serve`
// environment, ...). They take context, concurrent sequences, KV cache type and device from the
// scenario and state which weights they load, so they agree with the numbers shown.
#ifndef VRAMCALC_COMMANDS_H_
#define VRAMCALC_COMMANDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vramcalc/estimate.h"
#include "vramcalc/offload.h"

namespace vramcalc {

// One command, for any renderer to show the same way. No text is localized: `title` is a key
// of the UI strings (assets/i18n), whose {device} placeholder is the scenario's device(s).
struct Command {
  std::string id;        // stable, for hooks: "vllm", "ollama-modelfile", "ollama-env"
  std::string engine;    // "vllm", "ollama": commands of one engine are shown together
  std::string title;     // UI string key, e.g. "cmd.vllm"
  std::string language;  // what the text is written in: "sh", "modelfile"
  std::string text;
};

// What the commands are built from: the scenario and the figures the simulator shows beside
// them.
struct CommandInputs {
  const Scenario* scenario = nullptr;
  double kv_cache_gib = 0;         // for all `batch` sequences, as the simulator shows it
  double per_device_gib = 0;       // the total each device holds
  int64_t max_context_tokens = 0;  // on this device, as the simulator shows it
  const OffloadPlan* offload = nullptr;  // the plan it runs with when it does not fit (section 7)
  double vision_gib = 0;           // the vision and audio towers loaded beside, as the simulator shows them
  const GpuMap* gpu_map = nullptr;  // what a unified-memory GPU must use beyond its default (estimate.h GpuMapOf)
};

// The command that raises what the GPU may use (estimate.h GpuMap): "amd-ttm --set 82" or
// "sudo sysctl iogpu.wired_limit_mb=83968".
std::string GpuMapCommand(const GpuMap& map);

// The scenario's runtime profile's commands, in its order.
std::vector<Command> BuildCommands(const CommandInputs& inputs);

// Every command template's id (what a runtime profile may list).
std::vector<std::string_view> CommandTemplateIds();

}  // namespace vramcalc

#endif  // VRAMCALC_COMMANDS_H_
