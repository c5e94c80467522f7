// The core's answers written through any writer of field_writer.h: the response (with the
// sections after the simulator that estimate/lower_sections.h builds), errors, the sweep and the catalog's listings. Models
// and devices are written by their schema (schema.h); the response one section at a time. The
// CLI writes JSON text (JsonWriter, json_output.cc), the wasm modules JavaScript objects
// (wasm/val_writer.h); either way no tree is built on the way out.
#ifndef VRAMCALC_SRC_IO_RESPONSE_WRITER_H_
#define VRAMCALC_SRC_IO_RESPONSE_WRITER_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "estimate/lower_sections.h"
#include "io/schema_writer.h"
#include "vramcalc/catalog.h"
#include "vramcalc/commands.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/i18n.h"
#include "vramcalc/json_codec.h"
#include "vramcalc/quant_format.h"
#include "vramcalc/runtime_profile.h"

namespace vramcalc::internal {

// The start of every answer: {"ok": …, "schema": …
template <typename W>
void BeginAnswer(W& w, bool ok) {
  w.BeginObject();
  w.Field("ok", ok);
  w.Field("schema", int64_t{kSchemaVersion});
}

// [ids] of `items`, each written by `id_of`.
template <typename W, typename Items, typename IdOf>
void IdArray(W& w, std::string_view key, const Items& items, IdOf id_of) {
  w.Key(key);
  w.BeginArray();
  for (const auto& item : items) w.Value(std::string_view(id_of(item)));
  w.EndArray();
}

// An error on calibration runs (points 0: none, unknown): its fields, or them as an object.
template <typename W>
void WriteErrorFields(W& w, const DecodeError& error) {
  w.Field("points", static_cast<int64_t>(error.points));
  w.Field("median_error_pct", Percent(error.median_pct));
  w.Field("p90_error_pct", Percent(error.p90_pct));
  w.Field("worst_error_pct", Percent(error.worst_pct));
}
template <typename W>
void WriteDecodeError(W& w, std::string_view key, const DecodeError& error) {
  w.Key(key);
  w.BeginObject();
  WriteErrorFields(w, error);
  w.EndObject();
}

// A decode or prefill rule: its scope, efficiency and `own` fields, its error on the calibration
// rows it was fitted to and on the held-out sources' rows (estimation model sections 6 and 8; the
// offload rule's `holdout` has the same fields).
template <typename W, typename Rule, typename Own>
void WriteRule(W& w, const Rule& rule, Own own) {
  w.BeginObject();
  w.Field("platform", kPlatforms.Id(rule.platform));
  w.Field("class", rule.device_class ? kDeviceClasses.Id(*rule.device_class) : std::string_view("any"));
  w.Field("unified_memory", kTristates.Id(rule.unified_memory));
  w.Field("from_bandwidth_gbps", rule.from_bandwidth_gbps);
  w.Field("from_compute_capability", rule.from_compute_capability);
  w.Field("moe", kTristates.Id(rule.moe));
  w.Field("efficiency", rule.efficiency);
  own();
  WriteErrorFields(w, rule.error);
  WriteDecodeError(w, "holdout", rule.holdout);
  w.EndObject();
}
template <typename W>
void WriteDecodeRule(W& w, const DecodeRule& rule) {
  WriteRule(w, rule, [&] { w.Field("t0_ms_per_32_layers", rule.t0_ms_per_32_layers); });
}
// A prefill rule (estimation model section 8).
template <typename W>
void WritePrefillRule(W& w, const PrefillRule& rule) {
  WriteRule(w, rule, [&] {
    w.Field("attention_efficiency", rule.attention_efficiency);
    w.Field("attention_efficiency_without_fa", rule.attention_efficiency_without_fa);
    w.Field("prompt_ms", rule.prompt_ms);
  });
}

// The KV pool an engine preallocates (core/ESTIMATION.md sections 5.5 and 5.7): what it logs as
// "Available KV cache memory" and "GPU KV cache size: N tokens" and, for vLLM's hybrid
// allocator, its blocks, layer groups, what a request of the context pins, how many it holds at
// once and the longest it admits (null for SGLang); null for engines without a pool.
template <typename W>
void WritePool(W& w, const std::optional<KvPool>& pool) {
  w.Key("pool");
  if (!pool) return w.Null();
  w.BeginObject();
  w.Field("gib", pool->gib);
  w.Field("tokens", pool->tokens);
  w.Key("pages");
  if (pool->group_layers == 0) {
    w.Null();
  } else {
    w.BeginObject();
    w.Field("blocks", pool->blocks);
    w.Field("block_tokens", pool->block_tokens);
    w.Field("groups", pool->groups);
    w.Field("group_layers", pool->group_layers);
    w.Field("padding_layers", pool->padding_layers);
    w.Field("request_gib", pool->request_gib);
    w.Field("concurrency", pool->concurrency);
    w.Field("longest_request", pool->longest_request);
    w.EndObject();
  }
  w.EndObject();
}

// The engine profiles' figures (core/ESTIMATION.md section 5): capacity, host RAM, the overhead by
// source, the KV pool and the settings the estimate ran with.
template <typename W>
void WriteEngineFigures(W& w, const SimulatorResult& s) {
  w.Field("capacity_gib", s.capacity_gib);
  w.Field("visible_gib", s.visible_gib);
  w.Field("host_gib", s.host_gib);
  w.Field("bits_per_weight", s.bits_per_weight);
  const OverheadParts& parts = s.overhead_parts;
  w.Key("overhead_parts");
  w.BeginObject();
  w.Field("runtime", parts.runtime_gib);
  w.Field("slack", parts.slack_gib);
  w.Field("workspace", parts.workspace_gib);
  w.Field("tensor_parallel", parts.tensor_parallel_gib);
  w.Field("compute", parts.compute_gib);
  w.Field("activation", parts.activation_gib);
  w.Field("non_torch", parts.non_torch_gib);
  w.Field("graphs", parts.graphs_gib);
  w.Field("main_device_extra", s.main_device_extra_gib);
  w.EndObject();
  w.Key("decode_rule");
  if (s.decode_rule) WriteDecodeRule(w, *s.decode_rule); else w.Null();
  // Without a rule, the reference constants' error on the engine's published runs there.
  if (s.decode_check) {
    WriteDecodeError(w, "decode_check", s.decode_check->error);
  } else {
    w.Key("decode_check");
    w.Null();
  }
  const EngineSettings& e = s.engine;
  w.Key("engine");
  w.BeginObject();
  w.Field("memory_utilization", e.memory_utilization);
  w.Field("max_num_batched_tokens", e.max_num_batched_tokens);
  w.Field("max_num_seqs", e.max_num_seqs);
  w.Field("ubatch", e.ubatch);
  w.Field("flash_attention", e.flash_attention);
  w.Field("parallel", e.parallel);
  w.EndObject();
}

template <typename W>
void WriteSimulator(W& w, const SimulatorResult& s) {
  w.Key("simulator");
  w.BeginObject();
  w.Field("device", s.device->id);
  w.Field("device_name", s.device->name);
  w.Field("memory_gib", s.device->memory_gib);
  w.Field("bandwidth_gbps", s.device->bandwidth_gbps);
  w.Field("device_platform", kPlatforms.Id(s.device->platform));
  w.Field("device_class", kDeviceClasses.Id(s.device->device_class));
  w.Field("unified_memory", s.device->unified_memory);
  w.Key("recommended_device");
  if (s.recommended) w.Value(std::string_view(s.recommended->id)); else w.Null();
  w.Field("runtime", s.runtime);
  w.Field("format", s.format->id);
  w.Field("kv_dtype", s.kv_dtype->id);
  w.Field("context", s.context_tokens);
  w.Field("batch", s.batch);
  w.Field("device_count", s.device_count);
  w.Field("weights_gib", s.weights_gib);
  w.Field("kv_cache_gib", s.kv_cache_gib);
  w.Field("state_gib", s.state_gib);
  w.Field("vision_gib", s.vision_gib);
  w.Field("overhead_gib", s.overhead_gib);
  w.Field("total_gib", s.total_gib);
  w.Field("per_device_gib", s.per_device_gib);
  w.Key("share_pct");
  w.BeginObject();
  w.Field("weights", s.share_weights_pct);
  w.Field("kv_cache", s.share_kv_cache_pct);
  w.Field("state", s.share_state_pct);
  w.Field("vision", s.share_vision_pct);
  w.Field("overhead", s.share_overhead_pct);
  w.EndObject();
  w.Field("usage_pct", s.usage_pct);
  w.Field("fit", kFits.Id(s.fit));
  w.Field("decode_tps", s.decode_tps);
  w.Field("max_context", s.max_context_tokens);
  w.Field("max_context_capped", s.max_context_capped);
  w.Field("kv_naive_mha_gib", s.kv_naive_mha_gib);
  w.Field("kv_saving_pct", s.kv_saving_pct);
  w.Field("kv_compression", kKvCompressions.Id(s.kv_compression));
  WriteEngineFigures(w, s);
  w.EndObject();
}

template <typename W>
void WriteMatrix(W& w, const std::vector<MatrixRow>& matrix) {
  w.Key("matrix");
  w.BeginArray();
  for (const MatrixRow& row : matrix) {
    w.BeginObject();
    w.Field("format", row.format->id);
    w.Field("label", row.format->label);
    w.Field("bpw", row.bits_per_weight);
    w.Field("weights_gib", row.weights_gib);
    w.Key("total_gib");
    w.BeginObject();
    for (std::size_t i = 0; i < std::size(kMatrixContexts); ++i) {
      w.Field(std::to_string(kMatrixContexts[i].tokens), row.total_gib[i]);
    }
    w.EndObject();
    w.Key("recommended_device");
    if (row.recommended) {
      w.Value(std::string_view(row.recommended->device->id));
    } else {
      w.Null();
    }
    w.Field("recommended_device_count", row.recommended ? row.recommended->device_count : int64_t{0});
    w.EndObject();
  }
  w.EndArray();
}


// A catalog list (its models, its devices) as an array of their schema objects.
template <typename W, typename Items>
void WriteSchemaArray(W& w, const Items& items) {
  w.BeginArray();
  for (const auto& item : items) SchemaWriter<W>(w).Write(item);
  w.EndArray();
}

// The texts for people beside the tables: where a format's stored bits come from (quant_format.h
// QuantFormatSource) and what a profile reproduces (runtime_profile.h RuntimeProfileModels); null
// where a module leaves them out (vramcalc.wasm: the page shows neither).
struct TableNotes {
  std::string_view (*format_source)(std::string_view id) = nullptr;
  std::string_view (*runtime_models)(std::string_view id) = nullptr;
};
inline constexpr TableNotes kTableNotes{&QuantFormatSource, &RuntimeProfileModels};

// One runtime profile for the page: what it runs, on what, and the options it takes.
template <typename W>
void WriteRuntime(W& w, const RuntimeProfile& profile, TableNotes notes) {
  w.BeginObject();
  w.Field("id", profile.id);
  if (notes.runtime_models) w.Field("models", notes.runtime_models(profile.id));
  IdArray(w, "formats", profile.formats, [](std::string_view id) { return id; });
  w.Field("default_format", profile.default_format);
  IdArray(w, "kv_dtypes", profile.kv_dtypes, [](std::string_view id) { return id; });
  w.Key("runs_on");
  w.BeginArray();
  for (const auto& entry : kPlatforms.entries()) {
    if (profile.RunsOn(entry.value)) w.Value(entry.id);
  }
  w.EndArray();
  w.Field("min_compute_capability", profile.min_compute_capability);
  w.Field("cuda_graphs_from", profile.cuda_graphs_from);
  w.Field("multi_device", profile.multi_device);
  w.Key("decode");  // the generated error table: every rule with its error on its calibration rows
  w.BeginArray();
  for (const DecodeRule& rule : profile.decode) WriteDecodeRule(w, rule);
  w.EndArray();
  w.Field("kv_pool", profile.kv_pool);
  w.Field("offload", profile.offload != nullptr);
  w.Key("options");
  w.BeginArray();
  for (const auto& entry : kEngineOptions.entries()) {
    if (profile.Takes(entry.value)) w.Value(entry.id);
  }
  w.EndArray();
  w.EndObject();
}

// The tables the page's selectors and link checks read: formats, KV types, runtime profiles.
template <typename W>
void WriteTables(W& w, TableNotes notes) {
  w.Key("formats");
  w.BeginArray();
  for (const QuantFormat& f : QuantFormats()) {
    w.BeginObject();
    w.Field("id", f.id);
    w.Field("label", f.label);
    w.Field("bpw", f.bits_per_weight);
    w.Field("moe_only", f.moe_only);
    if (notes.format_source) w.Field("source", notes.format_source(f.id));
    w.EndObject();
  }
  w.EndArray();
  w.Key("kv_dtypes");
  w.BeginArray();
  for (const KvDtype& k : KvDtypes()) {
    w.BeginObject();
    w.Field("id", k.id);
    w.Field("label", k.label);
    w.Field("bytes_per_element", k.bytes_per_element);
    w.EndObject();
  }
  w.EndArray();
  w.Key("runtimes");
  w.BeginArray();
  for (const RuntimeProfile& profile : RuntimeProfiles()) WriteRuntime(w, profile, notes);
  w.EndArray();
  w.Key("host_memory_types");
  w.BeginArray();
  for (const HostMemoryType& type : HostMemoryTypes()) {
    w.BeginObject();
    w.Field("id", type.id);
    w.Field("bandwidth_gbps", type.bandwidth_gbps());
    w.EndObject();
  }
  w.EndArray();
}

// The request's vocabulary for the page: field names, sections, contexts, defaults, limits.
template <typename W>
void WriteRequestVocabulary(W& w) {
  w.Key("request_fields");
  w.BeginArray();
  for (const RequestField& field : kRequestFields) {
    w.BeginObject();
    w.Field("name", field.name);
    w.Field("short_name", field.short_name);
    w.EndObject();
  }
  w.EndArray();
  IdArray(w, "sections", kSections.entries(), [](const auto& entry) { return entry.id; });
  w.Key("context_sections");
  w.BeginArray();
  for (const auto& entry : kSections.entries()) {
    if (kContextSections & entry.value) w.Value(entry.id);
  }
  w.EndArray();
  w.Key("matrix_contexts");
  w.BeginArray();
  for (const MatrixContext& context : kMatrixContexts) {
    w.BeginObject();
    w.Field("tokens", context.tokens);
    w.Field("label", context.label);
    w.EndObject();
  }
  w.EndArray();
  const Request defaults;
  w.Key("defaults");
  w.BeginObject();
  w.Field("model", defaults.model);
  w.Field("format", kDefaultFormatId);
  w.Field("context", defaults.context_tokens);
  w.Field("batch", defaults.batch);
  w.Field("kv_dtype", defaults.kv_dtype);
  w.Field("runtime", defaults.runtime);
  w.Field("host_memory", defaults.host_memory_gib);
  w.Field("host_memory_type", kDefaultHostMemoryTypeId);
  w.Field("prompt_tokens", kDefaultPromptTokens);
  w.Field("output_tokens", kDefaultOutputTokens);
  w.Field("min_user_tps", kDefaultMinUserTps);
  w.Field("lang", kLangs.Id(Lang::kDe));
  w.EndObject();
  w.Key("limits");
  w.BeginObject();
  w.Field("max_context", kMaxRequestContextTokens);
  w.Field("max_batch", kMaxRequestBatch);
  w.Field("max_device_count", kMaxDeviceCount);
  w.Field("max_batched_tokens", kMaxRequestBatchedTokens);
  w.Field("max_compare", static_cast<int64_t>(kMaxCompareDevices));
  w.Field("max_host_memory", kMaxHostMemoryGib);
  w.Field("max_host_bandwidth", kMaxHostBandwidthGbps);
  w.Field("max_user_tps", kMaxMinUserTps);
  w.EndObject();
}

// The UI strings of a language, where a program carries them: the CLI's BuiltinStrings; the
// wasm modules carry none (the page loads each language's table from i18n/<lang>.json when it
// first speaks it) and link no table for them.
using StringsOf = const Strings& (*)(Lang lang);

// The languages, and the UI strings `strings` gives (none when null).
template <typename W>
void WriteStrings(W& w, StringsOf strings) {
  w.Key("langs");
  w.BeginArray();
  for (const auto& entry : kLangs.entries()) w.Value(entry.id);
  w.EndArray();
  w.Key("strings");
  w.BeginObject();
  for (const auto& entry : kLangs.entries()) {
    if (strings == nullptr || strings(entry.value).texts().empty()) continue;
    w.Key(entry.id);
    w.BeginObject();
    for (const auto& [key, value] : strings(entry.value).texts()) w.Field(key, value);
    w.EndObject();
  }
  w.EndObject();
}


// What the page needs for its selectors and links (json_codec.h CatalogJson), with the UI strings
// of `strings` and the tables' `notes`.
template <typename W>
void WriteCatalogObject(W& w, const Catalog& catalog, StringsOf strings, TableNotes notes) {
  BeginAnswer(w, true);
  // The selectors need a model's id, name and family; its card comes with each evaluate().
  w.Key("models");
  w.BeginArray();
  for (const ModelSpec& model : catalog.models) {
    w.BeginObject();
    w.Field("id", model.id);
    w.Field("name", model.name);
    w.Field("family", model.family);
    w.Field("params_total", model.params_total);
    w.Field("moe", model.moe.has_value());  // formats that quantize experts need one
    // The format an engine that offers it runs the model in by default (evaluate.cc DefaultFormat).
    if (!model.checkpoint_format.empty()) w.Field("checkpoint_format", model.checkpoint_format);
    w.EndObject();
  }
  w.EndArray();
  w.Key("devices");
  WriteSchemaArray(w, catalog.devices);
  WriteTables(w, notes);
  w.Field("recommendation_ladder", catalog.recommendation_ladder);
  w.Field("hardware_table", catalog.hardware_table);
  WriteRequestVocabulary(w);
  WriteStrings(w, strings);
  w.EndObject();
}

// {"ok": false, "schema", "error": {"code", "message", "field"}}.
template <typename W>
void WriteError(W& w, const Error& error) {
  BeginAnswer(w, false);
  w.Key("error");
  w.BeginObject();
  w.Field("code", error.code);
  w.Field("message", error.message);
  w.Field("field", error.field);
  w.EndObject();
  w.EndObject();
}

// ---- the sections after the simulator (estimate/lower_sections.h builds them) -------------------

template <typename W>
void WriteCurve(W& w, const std::vector<CurvePoint>& curve) {
  w.Objects("curve", curve, [&w](const CurvePoint& point) {
    w.Field("context", point.context_tokens);
    w.Field("kv_cache_gib", point.kv_cache_gib);
    w.Field("total_gib", point.total_gib);
    w.Field("decode_tps", point.decode_tps);
  });
}

template <typename W>
void WriteDeviceRef(W& w, const Device& device) {
  w.Field("device", device.id);
  w.Field("name", device.name);
  w.Field("memory_gib", device.memory_gib);
  w.Field("bandwidth_gbps", device.bandwidth_gbps);
}

// What a unified-memory GPU must use beyond its operating system's default (estimate.h GpuMap),
// the answer's with the offload section and each hardware row's: null where there is no such
// default, it is enough, or raising it would not make the model fit.
template <typename W>
void WriteGpuMap(W& w, const std::optional<GpuMap>& map) {
  w.Key("gpu_map");
  if (!map) return w.Null();
  w.BeginObject();
  w.Field("os", std::string_view(map->limit == GpuLimit::kMacosWired ? "macos" : "linux"));
  w.Field("default_gib", map->default_gib);
  w.Field("needed_gib", map->needed_gib);
  w.Field("set_gib", map->set_gib);
  w.Field("set_mib", map->set_mib);
  w.Field("command", GpuMapCommand(*map));
  w.EndObject();
}

template <typename W>
void WriteHardware(W& w, const std::vector<HardwareRow>& rows) {
  w.Objects("hardware", rows, [&w](const HardwareRow& row) {
    WriteDeviceRef(w, *row.device);
    w.Field("needed_gib", row.needed_gib);
    w.Field("capacity_gib", row.capacity_gib);
    w.Field("usage_pct", row.usage_pct);
    w.Field("fit", kFits.Id(row.fit));
    w.Field("decode_tps", row.decode_tps);
    w.Field("offload_decode_tps", row.offload_decode_tps);
    WriteGpuMap(w, row.gpu_map);
  });
}

template <typename W>
void WriteRelated(W& w, const std::vector<RelatedModel>& related) {
  w.Objects("related", related, [&w](const RelatedModel& row) {
    w.Field("id", row.model->id);
    w.Field("name", row.model->name);
    w.Field("params_total", row.model->params_total);
    w.Field("total_gib", row.total_gib);
    w.Field("fit", kFits.Id(row.fit));
    w.Field("max_position", row.model->max_position_embeddings);
    w.Field("beyond_max_position", row.beyond_max_position);
    w.Field("offload_decode_tps", row.offload_decode_tps);
  });
}

template <typename W>
void WriteCommands(W& w, const std::vector<Command>& commands) {
  w.Objects("commands", commands, [&w](const Command& command) {
    w.Field("id", command.id);
    w.Field("engine", command.engine);
    w.Field("title", command.title);
    w.Field("language", command.language);
    w.Field("text", command.text);
  });
}

// Section 7: the host, the plans and the one that runs (null: none does).
template <typename W>
void WriteOffload(W& w, const std::optional<Offload>& offload) {
  w.Key("offload");
  if (!offload) return w.Null();
  w.BeginObject();
  w.Field("host_memory_gib", offload->host.memory_gib);
  w.Field("host_usable_gib", offload->host_usable_gib);
  w.Field("host_bandwidth_gbps", offload->host.bandwidth_gbps);
  w.Field("host_memory_type", offload->host.type ? offload->host.type->id : std::string_view("custom"));
  w.Objects("plans", offload->plans, [&w](const OffloadPlan& plan) {
    w.Field("kind", kOffloadKinds.Id(plan.kind));
    w.Field("gpu_layers", plan.gpu_layers);
    w.Field("ram_expert_layers", plan.ram_expert_layers);
    w.Field("flags", LlamaCppOffloadFlags(plan));
    w.Field("device_gib", plan.device_gib);
    w.Field("host_gib", plan.host_gib);
    w.Field("ram_share_pct", plan.ram_share_pct);
    w.Field("fit", kFits.Id(plan.fit));
    w.Field("fits_host", plan.fits_host);
    w.Field("decode_tps", plan.decode_tps);
    w.Field("prompt_s", plan.prompt_s);
  });
  w.Field("prompt_tokens", offload->prompt_tokens);
  w.Field("max_context", offload->max_context_tokens);
  w.Key("chosen");
  if (offload->chosen) w.Value(static_cast<int64_t>(*offload->chosen)); else w.Null();
  WriteDecodeError(w, "holdout", offload->rule->holdout);  // the fitted runs' error: ESTIMATION.md section 7
  w.EndObject();
}

// The nearest ways to make it run (evaluate.h Ways), with the offload section: null where the
// model fits; each way's id null (or its context 0) where none does.
template <typename W>
void WriteWays(W& w, const std::optional<Ways>& ways) {
  w.Key("ways");
  if (!ways) return w.Null();
  w.BeginObject();
  const auto id = [&w](std::string_view key, const auto* item) {
    w.Key(key);
    if (item) w.Value(std::string_view(item->id)); else w.Null();
  };
  id("format", ways->format);
  w.Field("format_total_gib", ways->format_total_gib);
  w.Field("context", ways->context_tokens);
  id("offload_runtime", ways->offload_runtime);
  id("offload_format", ways->offload_format);
  w.Field("offload_decode_tps", ways->offload_decode_tps);
  id("device", ways->device);
  w.Field("device_name", ways->device ? std::string_view(ways->device->name) : std::string_view());
  w.Field("device_total_gib", ways->device_total_gib);
  w.EndObject();
}

// Serving (core/ESTIMATION.md section 8): a prompt and its answer on the simulator's devices, the
// prefill rule the figures follow (null with a gap) and whether it is another engine's.
template <typename W>
void WriteServing(W& w, const std::optional<Serving>& serving) {
  w.Key("serving");
  if (!serving) return w.Null();
  w.BeginObject();
  w.Field("prompt_tokens", serving->prompt_tokens);
  w.Field("output_tokens", serving->output_tokens);
  w.Field("beyond_context", serving->beyond_context);
  w.Field("short_prompt", serving->short_prompt);
  w.Field("gap", kServingGaps.Id(serving->gap));
  w.Field("peak_tflops", serving->peak_tflops);
  w.Key("rule");
  if (serving->rule) WritePrefillRule(w, *serving->rule); else w.Null();
  w.Field("rule_borrowed", serving->rule_borrowed);
  w.Field("rule_runtime", serving->rule_runtime);
  w.Field("prefill_tps", serving->prefill_tps);
  w.Field("ttft_s", serving->ttft_s);
  w.Field("decode_tps", serving->decode_tps);
  w.Field("total_s", serving->total_s);
  w.Key("offload");  // section 8.3: the figures with the offload plan's experts in RAM
  if (serving->offload) {
    w.BeginObject();
    w.Field("ram_expert_layers", serving->ram_expert_layers);
    w.Field("copy_s", serving->copy_s);
    w.Field("link_gbps", serving->link_gbps);
    w.Field("link_efficiency", serving->offload_rule->link_efficiency);
    WriteDecodeError(w, "error", serving->offload_rule->error);
    WriteDecodeError(w, "holdout", serving->offload_rule->holdout);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Objects("concurrency", serving->concurrency, [&w](const ConcurrencyPoint& p) {
    w.Field("sequences", p.sequences);
    w.Field("per_user_tps", p.per_user_tps);
    w.Field("aggregate_tps", p.aggregate_tps);
    w.Field("compute_bound", p.compute_bound);
  });
  w.Field("max_sequences", serving->max_sequences);
  w.Field("min_user_tps", serving->min_user_tps);
  w.Field("users_at_min_tps", serving->users_at_min_tps);
  w.EndObject();
}

// Writes the lower sections `response.sections` asks for, in the answer's order (after the
// simulator).
template <typename W>
void WriteLowerSections(W& w, const Response& response) {
  if ((response.sections & kSectionMatrix) != 0) WriteMatrix(w, response.matrix);
  if ((response.sections & kSectionCurve) != 0) WriteCurve(w, response.curve);
  if ((response.sections & kSectionHardware) != 0) WriteHardware(w, response.hardware);
  if ((response.sections & kSectionRelated) != 0) WriteRelated(w, response.related);
  if ((response.sections & kSectionCommands) != 0) WriteCommands(w, response.commands);
  if ((response.sections & kSectionCard) != 0) {
    w.Key("card");
    SchemaWriter<W>(w, Fields::kCard).Write(response.model);
  }
  if ((response.sections & kSectionOffload) != 0) {
    WriteOffload(w, response.offload);
    WriteWays(w, response.ways);
    WriteGpuMap(w, response.gpu_map);
  }
  if ((response.sections & kSectionPool) != 0) WritePool(w, response.pool);
  if ((response.sections & kSectionServing) != 0) WriteServing(w, response.serving);
}

// The response's sections; those after the simulator by `write_lower` (WriteLowerSections), which a
// program without them (vramcalc.wasm) leaves null: its Evaluate never fills them.
template <typename W>
void WriteResponse(W& w, const Response& response, void (*write_lower)(W&, const Response&)) {
  BeginAnswer(w, true);
  const auto wanted = [&response](uint32_t section) { return (response.sections & section) != 0; };
  if (wanted(kSectionModel)) {
    w.Key("model");
    SchemaWriter<W>(w, Fields::kNotCard).Write(response.model);
  }
  if (wanted(kSectionSimulator)) WriteSimulator(w, response.simulator);
  if (write_lower != nullptr) write_lower(w, response);
  w.EndObject();
}

// The sweep's offload plans (json_codec.h SweepJson), one per model × device as flat arrays of
// numbers: the format's index, -1 without plans; the plan's kind (kOffloadKinds' order), -1 and
// its figures 0 when none runs.
template <typename W>
void WriteSweepOffloads(W& w, const SweepResult& sweep) {
  IdArray(w, "offload_kinds", kOffloadKinds.entries(), [](const auto& entry) { return entry.id; });
  std::vector<double> numbers(sweep.offloads.size());
  const auto column = [&](std::string_view key, double (*of)(const SweepResult&, const SweepOffload&)) {
    for (std::size_t i = 0; i < numbers.size(); ++i) numbers[i] = of(sweep, sweep.offloads[i]);
    w.Numbers(key, numbers);
  };
  column("offload_format", [](const SweepResult& r, const SweepOffload& o) {
    const auto at = std::find(r.formats.begin(), r.formats.end(), o.format);
    return o.format ? static_cast<double>(at - r.formats.begin()) : -1.0;
  });
  column("offload_kind", [](const SweepResult&, const SweepOffload& o) { return o.plan ? double(static_cast<int>(o.plan->kind)) : -1.0; });
  column("offload_gpu_layers", [](const SweepResult&, const SweepOffload& o) { return o.plan ? double(o.plan->gpu_layers) : 0.0; });
  column("offload_ram_expert_layers",
         [](const SweepResult&, const SweepOffload& o) { return o.plan ? double(o.plan->ram_expert_layers) : 0.0; });
  column("offload_device_gib", [](const SweepResult&, const SweepOffload& o) { return o.plan ? o.plan->device_gib : 0.0; });
  column("offload_host_gib", [](const SweepResult&, const SweepOffload& o) { return o.plan ? o.plan->host_gib : 0.0; });
  column("offload_ram_share_pct", [](const SweepResult&, const SweepOffload& o) { return o.plan ? o.plan->ram_share_pct : 0.0; });
  column("offload_decode_tps", [](const SweepResult&, const SweepOffload& o) { return o.plan ? o.plan->decode_tps : 0.0; });
}

// The sweep's answer (json_codec.h SweepJson): the cells as flat arrays.
template <typename W>
void WriteSweep(W& w, const SweepResult& sweep) {
  BeginAnswer(w, true);
  w.Field("context", sweep.request.context_tokens);
  w.Field("batch", sweep.request.batch);
  w.Field("kv_dtype", sweep.request.kv_dtype);
  w.Field("runtime", sweep.request.runtime);
  w.Field("device_count", sweep.request.device_count);
  IdArray(w, "models", sweep.models, [](const ModelSpec* m) { return std::string_view(m->id); });
  w.Key("max_position");  // each model's own maximum context
  w.BeginArray();
  for (const ModelSpec* model : sweep.models) w.Value(model->max_position_embeddings);
  w.EndArray();
  IdArray(w, "formats", sweep.formats, [](const QuantFormat* f) { return f->id; });
  IdArray(w, "devices", sweep.devices, [](const Device* d) { return std::string_view(d->id); });
  IdArray(w, "fit_ids", kFits.entries(), [](const auto& entry) { return entry.id; });
  // One array per figure, each number of the cells at once (numbers of type `of`'s result).
  const auto column = [&](std::string_view key, auto of) {
    std::vector<decltype(of(SweepCell{}))> numbers;
    numbers.reserve(sweep.cells.size());
    for (const SweepCell& cell : sweep.cells) numbers.push_back(of(cell));
    w.Numbers(key, numbers);
  };
  column("total_gib", [](const SweepCell& c) { return c.total_gib; });
  column("fit", [](const SweepCell& c) { return int64_t{static_cast<int>(c.fit)}; });
  column("decode_tps", [](const SweepCell& c) { return c.decode_tps; });
  column("max_context", [](const SweepCell& c) { return c.max_context_tokens; });
  // 1: memory would allow more than the model's maximum.
  column("max_context_capped", [](const SweepCell& c) { return int64_t{c.max_context_capped ? 1 : 0}; });
  column("ttft_s", [](const SweepCell& c) { return c.ttft_s; });  // 0: no estimate
  WriteSweepOffloads(w, sweep);
  // An APU's GPU-mapped memory (each device's default; 0: it maps all) and the cells whose
  // operating system must let the GPU use more, with the value to set and its command
  // (evaluate.h SweepResult).
  std::vector<double> mapped;
  for (const Device* device : sweep.devices) mapped.push_back(device->gpu_mapped_gib);
  w.Numbers("gpu_mapped_gib", mapped);
  w.Numbers("gpu_map_cells", sweep.gpu_map_cells);
  w.Numbers("gpu_map_set_gib", sweep.gpu_map_set_gib);
  w.Numbers("gpu_map_set_mib", sweep.gpu_map_set_mib);
  std::vector<std::string> commands;
  for (std::size_t k = 0; k < sweep.gpu_map_cells.size(); ++k) commands.push_back(GpuMapCommand(GpuMapAt(sweep, k)));
  w.Field("gpu_map_commands", commands);
  w.EndObject();
}

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_IO_RESPONSE_WRITER_H_
