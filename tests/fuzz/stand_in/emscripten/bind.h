// A native stand-in for the part of Emscripten 3.1.6's emscripten/bind.h that wasm/first_module.cc
// and wasm/full_module.cc use: EMSCRIPTEN_BINDINGS and emscripten::function. A binding is kept
// by the source file that made it and its name, so that the object fuzzer can call both
// modules' functions as the page does (stand_in::Bound).
#ifndef VRAMCALC_TESTS_FUZZ_STAND_IN_EMSCRIPTEN_BIND_H_
#define VRAMCALC_TESTS_FUZZ_STAND_IN_EMSCRIPTEN_BIND_H_

#include <map>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>

#include "emscripten/val.h"

namespace emscripten {
namespace stand_in {

struct Binding {
  const std::type_info* type;
  void (*function)();
};

// "<file>:<name>" → the function bound; the file is the one whose bindings run now.
std::map<std::string, Binding>& Bindings();
const char*& BindingFile();

// Runs a file's EMSCRIPTEN_BINDINGS block, at static initialization as Embind does.
inline bool RunBindings(const char* file, void (*bindings)()) {
  BindingFile() = file;
  bindings();
  BindingFile() = nullptr;
  return true;
}

// The function `name` that the file ending in `file` binds, of type Signature (a function
// type such as val(val)); aborts when there is none of that type.
template <typename Signature>
Signature* Bound(std::string_view file, std::string_view name) {
  for (const auto& [key, binding] : Bindings()) {
    const std::string_view bound_file = std::string_view(key).substr(0, key.rfind(':'));
    const std::string_view bound_name = std::string_view(key).substr(key.rfind(':') + 1);
    if (bound_name == name && bound_file.ends_with(file) && *binding.type == typeid(Signature*)) {
      return reinterpret_cast<Signature*>(binding.function);
    }
  }
  Throw("no binding " + std::string(name) + " of that type in " + std::string(file));
}

}  // namespace stand_in

template <typename ReturnType, typename... Args, typename... Policies>
void function(const char* name, ReturnType (*fn)(Args...), Policies...) {
  if (stand_in::BindingFile() == nullptr) stand_in::Throw("emscripten::function outside EMSCRIPTEN_BINDINGS");
  stand_in::Bindings()[std::string(stand_in::BindingFile()) + ":" + name] =
      stand_in::Binding{&typeid(fn), reinterpret_cast<void (*)()>(fn)};
}

}  // namespace emscripten

#define EMSCRIPTEN_BINDINGS(name)                                                         \
  static void EmscriptenBindings_##name();                                                \
  [[maybe_unused]] static const bool emscripten_bindings_##name##_run =                   \
      ::emscripten::stand_in::RunBindings(__FILE__, &EmscriptenBindings_##name);          \
  static void EmscriptenBindings_##name()

#endif  // VRAMCALC_TESTS_FUZZ_STAND_IN_EMSCRIPTEN_BIND_H_
