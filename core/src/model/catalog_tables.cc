#include "model/catalog_tables.h"

#include <cmath>
#include <string>
#include <vector>

#include "model/builtin_data.h"
#include "model/small_sort.h"

namespace vramcalc::internal {

namespace {

std::string Text(const char* text) { return std::string(text); }

std::vector<std::string> Texts(std::span<const std::string_view> texts) {
  return std::vector<std::string>(texts.begin(), texts.end());
}

std::vector<Source> Sources(std::span<const SourceRow> rows) {
  std::vector<Source> sources;
  sources.reserve(rows.size());
  for (const SourceRow& row : rows) sources.push_back(Source{.what = Text(row.what), .url = Text(row.url)});
  return sources;
}

std::vector<LayerGroup> LayerGroups(std::span<const LayerGroupRow> rows) {
  std::vector<LayerGroup> groups;
  groups.reserve(rows.size());
  for (const LayerGroupRow& row : rows) {
    groups.push_back(LayerGroup{.kind = row.kind, .layers = row.layers, .kv_heads = row.kv_heads, .key_dim = row.key_dim,
                                .value_dim = row.value_dim, .index_dim = row.index_dim, .window_tokens = row.window_tokens,
                                .compress_ratio = row.compress_ratio, .state_elements = row.state_elements,
                                .state_f32_elements = row.state_f32_elements,
                                .query_heads = row.query_heads, .query_key_dim = row.query_key_dim,
                                .query_value_dim = row.query_value_dim});
  }
  return groups;
}

}  // namespace

ModelSpec ModelFromRow(const ModelRow& row) {
  const ModelCardRow card = row.card ? *row.card : ModelCardRow{};
  const ModelRareRow rare = row.rare ? *row.rare : ModelRareRow{};
  return ModelSpec{
      .id = Text(row.id),
      .name = Text(row.name),
      .family = Text(row.family),
      .checkpoint = Text(card.checkpoint),
      .ollama_tag = Text(card.ollama_tag),
      .ollama_tag_weights = Text(card.ollama_tag_weights),
      .checkpoint_format = Text(row.checkpoint_format),
      .license = Text(row.license),
      .release = Text(card.release),
      .topology = row.topology,
      .attention = row.attention,
      .params_total = row.params_total,
      .params_active = row.params_active,
      .per_layer_embedding_params = rare.per_layer_embedding_params,
      .vision_params = row.vision_params,
      .unaligned_params = rare.unaligned_params,
      .unaligned_expert_params = rare.unaligned_expert_params,
      .unaligned_hidden_params = rare.unaligned_hidden_params,
      .unaligned_hidden_expert_params = rare.unaligned_hidden_expert_params,
      .expert_down_params = rare.expert_down_params,
      .params_formula = {},  // a pasted config.json's, never a catalog entry's
      .num_hidden_layers = row.num_hidden_layers,
      .hidden_size = row.hidden_size,
      .num_attention_heads = row.num_attention_heads,
      .num_key_value_heads = row.num_key_value_heads,
      .head_dim = row.head_dim,
      .vocab_size = row.vocab_size,
      .tie_word_embeddings = row.tie_word_embeddings,
      .max_position_embeddings = row.max_position_embeddings,
      .layer_groups = LayerGroups(row.layer_groups),
      .moe = row.moe,
      .sources = Sources(row.sources),
      .weights = std::nullopt,  // a model description's, never a catalog entry's
  };
}

Device DeviceFromRow(const DeviceRow& row) {
  Device device{
      .id = Text(row.id),
      .name = Text(row.name),
      .memory_gib = row.memory_gib,
      .bandwidth_gbps = row.bandwidth_gbps,
      .device_class = row.device_class,
      .vendor = row.vendor,
      .platform = row.platform,
      .unified_memory = row.unified_memory,
      .source = Text(row.source),
      .fp16_tflops = row.fp16_tflops,
      .compute_capability = std::round(row.compute_capability * 10.0) / 10.0,  // 8.9, not 8.8999996 (a float's)
  };
  if (const DeviceServingRow* serving = row.serving) {
    device.int8_tops = serving->int8_tops;
    device.fp8_tflops = serving->fp8_tflops;
    device.serving_source = Text(serving->serving_source);
    device.host_link_gbps = serving->host_link_gbps;
    device.gpu_mapped_gib = serving->gpu_mapped_gib;
  }
  return device;
}

Catalog CatalogFromTables(const CatalogTables& tables) {
  // The rows sorted for listing, not the models: a ModelSpec moves a dozen strings and vectors.
  std::vector<const ModelRow*> rows;
  rows.reserve(tables.models.size());
  for (const ModelRow& row : tables.models) rows.push_back(&row);
  StableSortSmall(rows.begin(), rows.end(), [](const ModelRow* a, const ModelRow* b) { return ListedBefore(*a, *b); });
  Catalog catalog;
  catalog.models.reserve(rows.size());
  for (const ModelRow* row : rows) catalog.models.push_back(ModelFromRow(*row));
  catalog.devices.reserve(tables.devices.size());
  for (const DeviceRow& row : tables.devices) catalog.devices.push_back(DeviceFromRow(row));
  catalog.recommendation_ladder = Texts(tables.recommendation_ladder);
  catalog.hardware_table = Texts(tables.hardware_table);
  return catalog;
}

}  // namespace vramcalc::internal
