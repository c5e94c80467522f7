// Command templates: the reference page's (commands.cc) and the engine profiles'
// (engine_commands.cc). A runtime profile lists the ids of the ones it shows.
#ifndef VRAMCALC_SRC_IO_ENGINE_COMMANDS_H_
#define VRAMCALC_SRC_IO_ENGINE_COMMANDS_H_

#include <span>
#include <string>
#include <string_view>

#include "vramcalc/commands.h"

namespace vramcalc::internal {

struct CommandTemplate {
  std::string_view id;
  std::string_view engine;
  std::string_view title;  // UI string key
  std::string_view language;
  std::string (*build)(const CommandInputs&);
};

// llama-server, ollama-engine, vllm-serve, sglang-launch, mlx-lm.
std::span<const CommandTemplate> EngineCommandTemplates();

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_IO_ENGINE_COMMANDS_H_
