#include "answer.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace vramcalc::wasm {

char* Answer(std::string_view text) {
  const auto size = static_cast<uint32_t>(text.size());
  auto* block = static_cast<char*>(std::malloc(sizeof size + text.size()));
  if (block == nullptr) return nullptr;
  std::memcpy(block, &size, sizeof size);
  std::memcpy(block + sizeof size, text.data(), text.size());
  return block;
}

}  // namespace vramcalc::wasm
