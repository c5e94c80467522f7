// The stand-in for emscripten/bind.h: the bindings made, by file and name.
#include "emscripten/bind.h"

namespace emscripten::stand_in {

std::map<std::string, Binding>& Bindings() {
  static std::map<std::string, Binding> bindings;
  return bindings;
}

const char*& BindingFile() {
  static const char* file = nullptr;
  return file;
}

}  // namespace emscripten::stand_in
