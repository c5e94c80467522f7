// The built-in catalog as constants: the tables that core/catalog_source.mjs writes from assets/
// into each program's generated catalog source, which BuiltinCatalog() copies into a Catalog once.
// Constant tables are data in the program: the same catalog built by code instead (a ModelSpec
// designated initializer per model, run once) made vramcalc.wasm 6.2 KiB gzip larger still
// (51,858 against 45,489 B; 40,837 with the binary format these replace).
//
// Each row has its struct's members (model_spec.h, device.h, catalog.h), by the same names, in the
// same order and with the same defaults, as constants: a C string for std::string,
// std::span for std::vector, and whole numbers in 32 bits (every catalog count fits; half the
// bytes of a row's numbers, most of them small, which vramcalc.wasm downloads before the first
// numbers), a layer group's in 16 bits but its state's (every catalog dimension, window and
// layer count is below 32,768; a constant that is not is a compile error; with LayerKind in 8
// bits a row is 32 bytes, not 56: 344 B of vramcalc.wasm's gzip).
// MoeSpec is a constant already and used as it is. What a program leaves out or few rows have is
// in rows of their own that a row points to, its last members (ModelCardRow, ModelRareRow,
// DeviceServingRow); a catalog entry has no params_formula (a pasted config.json's), so its row
// has no member for it.
// So the generator's designated initializers are the structs' own, and the compiler checks them
// against these rows; CatalogFromTables copies every member (tests/core/builtin_data_test.cc: the
// copy of each row equals what ParseCatalog reads from assets/, and a default row copies to a
// default struct).
#ifndef VRAMCALC_SRC_MODEL_CATALOG_TABLES_H_
#define VRAMCALC_SRC_MODEL_CATALOG_TABLES_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "vramcalc/catalog.h"
#include "vramcalc/device.h"
#include "vramcalc/model_spec.h"
#include "vramcalc/runtime_profile.h"

namespace vramcalc::internal {

struct SourceRow {
  const char* what = "";
  const char* url = "";
};

struct LayerGroupRow {
  LayerKind kind = LayerKind::kFull;
  int16_t layers = 0;
  int16_t kv_heads = 0;
  int16_t key_dim = 0;
  int16_t value_dim = 0;
  int16_t index_dim = 0;
  int16_t window_tokens = 0;
  int16_t compress_ratio = 0;
  int32_t state_elements = 0;
  int32_t state_f32_elements = 0;
  int16_t query_heads = 0;
  int16_t query_key_dim = 0;
  int16_t query_value_dim = 0;
};

// Where to get a model (model_spec.h's card fields), in a row the model's row points to: left
// out of vramcalc.wasm's catalog, which has no card section, so its rows keep a null pointer, not
// four (core/catalog_source.mjs kPointedRows).
struct ModelCardRow {
  const char* checkpoint = "";
  const char* ollama_tag = "";
  const char* ollama_tag_weights = "Q4_K_M";
  const char* release = "";
};

// What few models have: Gemma's per-layer embeddings and the matrices llama.cpp cannot store in
// 256-weight blocks, the experts' down projections where they are not a third. A pointer in
// every row, not six numbers.
struct ModelRareRow {
  double per_layer_embedding_params = 0;
  double unaligned_params = 0;
  double unaligned_expert_params = 0;
  double unaligned_hidden_params = 0;
  double unaligned_hidden_expert_params = 0;
  double expert_down_params = 0;
};

struct ModelRow {
  const char* id = "";
  const char* name = "";
  const char* family = "";
  const char* checkpoint_format = "";
  const char* license = "";
  Topology topology = Topology::kDense;
  Attention attention = Attention::kGqa;
  double params_total = 0;
  double params_active = 0;
  double vision_params = 0;
  int32_t num_hidden_layers = 0;
  int32_t hidden_size = 0;
  int32_t num_attention_heads = 0;
  int32_t num_key_value_heads = 0;
  int32_t head_dim = 0;
  int32_t vocab_size = 0;
  bool tie_word_embeddings = false;
  int32_t max_position_embeddings = 0;
  std::span<const LayerGroupRow> layer_groups;
  std::optional<MoeSpec> moe;
  std::span<const SourceRow> sources;
  const ModelCardRow* card = nullptr;  // null: none (vramcalc.wasm)
  const ModelRareRow* rare = nullptr;  // null: all zero
};

// What only the serving section reads of a device (schema.h kUnlisted): its peaks but FP16 and its
// host link, in a row of its own that a DeviceRow points to (core/catalog_source.mjs kPointedRows).
struct DeviceServingRow {
  double int8_tops = 0;
  double fp8_tflops = 0;
  const char* serving_source = "";
  double host_link_gbps = 0;
  double gpu_mapped_gib = 0;  // not serving's, but like its figures read only after the simulator
};

struct DeviceRow {
  const char* id = "";
  const char* name = "";
  // Whole GiB, which a float holds (core/catalog_source.mjs checks), and the FP16 rate, which a
  // decode rule's arithmetic reads (the first module's too), in the 8 bytes a double took.
  float memory_gib = 0;
  Decimal<100> fp16_tflops = 0;
  double bandwidth_gbps = 0;
  DeviceClass device_class = DeviceClass::kConsumer;
  Vendor vendor = Vendor::kNvidia;
  Platform platform = Platform::kCuda;
  bool unified_memory = false;
  float compute_capability = 0;  // in the padding before the pointers (wasm32): no bytes per row
  const char* source = "";
  const DeviceServingRow* serving = nullptr;  // null: the catalog leaves them out
};

struct CatalogTables {
  std::span<const ModelRow> models;
  std::span<const DeviceRow> devices;
  std::span<const std::string_view> recommendation_ladder;
  std::span<const std::string_view> hardware_table;
};

// One row as its struct.
ModelSpec ModelFromRow(const ModelRow& row);
Device DeviceFromRow(const DeviceRow& row);

// The catalog the tables hold, its models sorted for listing (ListedBefore).
Catalog CatalogFromTables(const CatalogTables& tables);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_MODEL_CATALOG_TABLES_H_
