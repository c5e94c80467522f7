// The catalog's schema, once: every field of a model, a layer group, a device and the devices
// file, with its JSON key and its rule. The same VisitFields functions drive the reader
// (ParseCatalog, schema_reader.h) and the writer (responses and the CLI's listings,
// json_output.cc), so a field is added in the struct and here, and for the compiled-in catalog
// in its row (catalog_tables.h: the member and its copy; the build then takes it from assets/).
//
// A visitor V has:
//   Text(key, std::string&, flags)        a string
//   Number(key, double&, flags)           a positive finite number (or zero with kMayBeZero)
//   Count(key, int64_t&, flags)           a positive whole number (zero with kMayBeZero)
//   Flag(key, bool&, flags)               true or false
//   Enum(key, E&, vocabulary, flags)      one of a vocabulary's ids
//   Object(key, std::optional<T>&, flags) a nested object, or null / absent
//   Objects(key, std::vector<T>&, flags)  an array of objects
//   Texts(key, std::vector<std::string>&, flags)  an array of strings
// The writer takes const references, so each VisitFields is a template over const and not.
#ifndef VRAMCALC_SRC_MODEL_SCHEMA_H_
#define VRAMCALC_SRC_MODEL_SCHEMA_H_

#include <concepts>
#include <type_traits>

#include "vramcalc/catalog.h"
#include "vramcalc/device.h"
#include "vramcalc/model_spec.h"

namespace vramcalc::internal {

enum FieldFlags : unsigned {
  kRequired = 0,
  kOptional = 1u << 0,    // absent: the struct's default stays
  kMayBeEmpty = 1u << 1,  // strings
  kMayBeZero = 1u << 2,   // counts and numbers
  // Where to get a model (its checkpoint, Ollama tags, release): the card section's, not the
  // model section's (json_output.cc), and left out of vramcalc.wasm's catalog, which has no card
  // section (wasm/CMakeLists.txt names them for core/catalog_source.mjs).
  kCardField = 1u << 3,
  // A device's peak compute: read from assets/ but written by no listing (the serving section
  // names the peak it used), so vramcalc.wasm, whose catalog leaves the peaks out
  // (wasm/CMakeLists.txt), lists the same catalog as vramcalc-full.wasm.
  kUnlisted = 1u << 4,
};

// Which fields a writer writes (schema_writer.h): every one (the catalog's listings), all but the
// card's (the model section), or the card's alone (the card section).
enum class Fields { kAll, kNotCard, kCard };
constexpr bool Selected(Fields fields, unsigned flags) {
  if ((flags & kUnlisted) != 0) return false;
  return fields == Fields::kAll || ((flags & kCardField) != 0) == (fields == Fields::kCard);
}

template <typename T, typename Plain>
concept Either = std::same_as<std::remove_const_t<T>, Plain>;

template <typename V, Either<Source> S>
void VisitFields(V& v, S& s) {
  v.Text("what", s.what, kRequired);
  v.Text("url", s.url, kRequired);
}

template <typename V, Either<MoeSpec> S>
void VisitFields(V& v, S& moe) {
  v.Count("num_experts", moe.num_experts, kRequired);
  v.Count("experts_per_token", moe.experts_per_token, kRequired);
  v.Count("shared_experts", moe.shared_experts, kMayBeZero);
  v.Number("expert_params", moe.expert_params, kOptional);
}

template <typename V, Either<MeasuredWeights> W>
void VisitFields(V& v, W& w) {
  constexpr unsigned kZeroByDefault = kOptional | kMayBeZero;
  v.Text("format", w.format, kRequired);
  v.Text("file", w.file, kOptional | kMayBeEmpty);
  v.Number("embedding", w.embedding, kRequired);
  v.Number("per_layer_embedding", w.per_layer_embedding, kZeroByDefault);
  v.Number("head", w.head, kZeroByDefault);
  v.Number("attention", w.attention, kRequired);
  v.Number("dense_ffn", w.dense_ffn, kZeroByDefault);
  v.Number("shared_experts", w.shared_experts, kZeroByDefault);
  v.Number("routed_experts", w.routed_experts, kZeroByDefault);
  v.Number("other", w.other, kZeroByDefault);
  v.Number("vision", w.vision, kZeroByDefault);
  v.Number("mtp", w.mtp, kZeroByDefault);
}

template <typename V, Either<LayerGroup> G>
void VisitFields(V& v, G& g) {
  constexpr unsigned kZeroByDefault = kOptional | kMayBeZero;
  v.Enum("kind", g.kind, kLayerKinds, kRequired);
  v.Count("layers", g.layers, kRequired);
  v.Count("kv_heads", g.kv_heads, kZeroByDefault);
  v.Count("key_dim", g.key_dim, kZeroByDefault);
  v.Count("value_dim", g.value_dim, kZeroByDefault);
  v.Count("index_dim", g.index_dim, kZeroByDefault);
  v.Count("compress_ratio", g.compress_ratio, kZeroByDefault);
  v.Count("window_tokens", g.window_tokens, kZeroByDefault);
  v.Count("state_elements", g.state_elements, kZeroByDefault);
  v.Count("state_f32_elements", g.state_f32_elements, kZeroByDefault);
  v.Count("query_heads", g.query_heads, kZeroByDefault);
  v.Count("query_key_dim", g.query_key_dim, kZeroByDefault);
  v.Count("query_value_dim", g.query_value_dim, kZeroByDefault);
}

template <typename V, Either<ModelSpec> M>
void VisitFields(V& v, M& m) {
  v.Text("id", m.id, kRequired);
  v.Text("name", m.name, kRequired);
  v.Text("family", m.family, kRequired);
  v.Text("checkpoint", m.checkpoint, kRequired | kCardField);
  v.Text("ollama_tag", m.ollama_tag, kMayBeEmpty | kCardField);
  v.Text("ollama_tag_weights", m.ollama_tag_weights, kOptional | kCardField);
  v.Text("checkpoint_format", m.checkpoint_format, kOptional | kMayBeEmpty);
  v.Text("license", m.license, kRequired);
  v.Text("release", m.release, kRequired | kCardField);
  v.Enum("topology", m.topology, kTopologies, kRequired);
  v.Enum("attention", m.attention, kAttentions, kRequired);
  v.Number("params_total", m.params_total, kRequired);
  v.Number("params_active", m.params_active, kRequired);
  v.Number("per_layer_embedding_params", m.per_layer_embedding_params, kOptional | kMayBeZero);
  v.Number("vision_params", m.vision_params, kOptional | kMayBeZero);
  v.Number("unaligned_params", m.unaligned_params, kOptional | kMayBeZero);
  v.Number("unaligned_expert_params", m.unaligned_expert_params, kOptional | kMayBeZero);
  v.Number("unaligned_hidden_params", m.unaligned_hidden_params, kOptional | kMayBeZero);
  v.Number("unaligned_hidden_expert_params", m.unaligned_hidden_expert_params, kOptional | kMayBeZero);
  v.Number("expert_down_params", m.expert_down_params, kOptional | kMayBeZero);
  v.Text("params_formula", m.params_formula, kOptional | kMayBeEmpty);  // config.json models only
  v.Count("num_hidden_layers", m.num_hidden_layers, kRequired);
  v.Count("hidden_size", m.hidden_size, kRequired);
  v.Count("num_attention_heads", m.num_attention_heads, kRequired);
  v.Count("num_key_value_heads", m.num_key_value_heads, kRequired);
  v.Count("head_dim", m.head_dim, kRequired);
  v.Count("vocab_size", m.vocab_size, kRequired);
  v.Flag("tie_word_embeddings", m.tie_word_embeddings, kRequired);
  v.Count("max_position_embeddings", m.max_position_embeddings, kRequired);
  v.Objects("layer_groups", m.layer_groups, kRequired);
  v.Object("moe", m.moe, kOptional);
  v.Objects("sources", m.sources, kOptional);  // the wasm module's copy leaves them out
}

template <typename V, Either<Device> D>
void VisitFields(V& v, D& d) {
  v.Text("id", d.id, kRequired);
  v.Text("name", d.name, kRequired);
  v.Number("memory_gib", d.memory_gib, kRequired);
  v.Number("bandwidth_gbps", d.bandwidth_gbps, kRequired);
  v.Enum("class", d.device_class, kDeviceClasses, kRequired);
  v.Enum("vendor", d.vendor, kVendors, kRequired);
  v.Enum("platform", d.platform, kPlatforms, kRequired);
  v.Flag("unified_memory", d.unified_memory, kRequired);
  // Every NVIDIA entry's in assets/ (tests/core/catalog_test.cc).
  v.Number("compute_capability", d.compute_capability, kOptional);
  // Required in assets/ (tests/core/catalog_test.cc); the wasm module's copy leaves it out.
  v.Text("source", d.source, kOptional | kMayBeEmpty);
  // Peak compute (issue 33) in every assets/ entry, the host link (section 8.3) in every card's
  // but one (tests/core/catalog_test.cc); vramcalc.wasm's copy leaves them out, and both modules
  // the sources.
  v.Number("fp16_tflops", d.fp16_tflops, kOptional | kUnlisted);
  v.Number("int8_tops", d.int8_tops, kOptional | kUnlisted);
  v.Number("fp8_tflops", d.fp8_tflops, kOptional | kUnlisted);
  v.Text("serving_source", d.serving_source, kOptional | kMayBeEmpty | kUnlisted);
  v.Number("host_link_gbps", d.host_link_gbps, kOptional | kUnlisted);
  // An AMD APU's default GTT limit (device.h); only the sections after the simulator read it.
  v.Number("gpu_mapped_gib", d.gpu_mapped_gib, kOptional | kUnlisted);
}

// A catalog's part in assets/devices.json: the devices and the two lists the page shows them in
// (the models come one per file, assets/models/*.json).
template <typename V, Either<Catalog> C>
void VisitFields(V& v, C& catalog) {
  v.Objects("devices", catalog.devices, kRequired | kMayBeEmpty);
  v.Texts("recommendation_ladder", catalog.recommendation_ladder, kRequired);
  v.Texts("hardware_table", catalog.hardware_table, kRequired);
}

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_MODEL_SCHEMA_H_
