// libFuzzer: any bytes as the models part of a catalog (with a fixed device list), then as the
// device list (with a fixed model list). ParseCatalog returns a catalog or an error. The program
// itself compiles its catalog in (core/catalog_source.mjs); ParseCatalog, reading the catalog's
// JSON with nlohmann's parser (json_value.h) and the schema's reader, is what the tests compare
// that catalog against (tests/core/builtin_data_test.cc), and what the models and devices of a
// catalog must pass. Seeds: a part of assets/models/ and of assets/devices.json.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "vramcalc/catalog.h"
#include "vramcalc/evaluate.h"

namespace {

constexpr std::string_view kDevices = R"({"devices": [
  {"id": "gpu", "name": "GPU", "memory_gib": 24, "bandwidth_gbps": 936, "class": "consumer", "vendor": "nvidia", "platform": "cuda", "unified_memory": false, "source": "s"}],
  "recommendation_ladder": ["gpu"], "hardware_table": ["gpu"]})";
constexpr std::string_view kModels = R"([{"id": "m", "name": "M", "family": "F", "checkpoint": "o/m",
  "ollama_tag": "", "license": "MIT", "release": "2025", "topology": "dense", "attention": "gqa",
  "params_total": 1e9, "params_active": 1e9, "num_hidden_layers": 16, "hidden_size": 2048,
  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 32000, "tie_word_embeddings": false,
  "max_position_embeddings": 4096,
  "layer_groups": [{"kind": "full", "layers": 16, "kv_heads": 8, "key_dim": 64, "value_dim": 64, "query_heads": 32,
                    "query_key_dim": 64, "query_value_dim": 64}],
  "sources": [{"what": "a", "url": "u"}]}])";

void Check(std::string_view models, std::string_view devices) {
  const vramcalc::Result<vramcalc::Catalog> catalog = vramcalc::ParseCatalog(models, devices);
  if (!catalog.ok()) return;
  // Every model a catalog accepts must evaluate on every device it lists (every model of the
  // built-in catalog does on every one of its devices), and on the ladder's choice.
  for (const vramcalc::ModelSpec& model : catalog.value().models) {
    vramcalc::Request request;
    request.model = model.id;
    if (!vramcalc::Evaluate(request, catalog.value()).ok()) std::abort();
    for (const vramcalc::Device& device : catalog.value().devices) {
      request.device = device.id;
      if (!vramcalc::Evaluate(request, catalog.value()).ok()) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  Check(input, kDevices);
  Check(kModels, input);
  return 0;
}
