#include "vramcalc/evaluate.h"

#include <algorithm>
#include <string>
#include <utility>

#include "estimate/engine_memory.h"
#include "estimate/lower_sections.h"
#include "model/small_sort.h"
#include "vramcalc/display.h"
#include "vramcalc/i18n.h"

namespace vramcalc {
namespace {

// The answer of a program without the sections after the simulator (vramcalc.wasm).
Error SectionUnavailable() {
  return Error{"section_unavailable",
               "This module computes the model and the simulator; vramcalc-full.wasm computes every "
               "section.",
               "sections"};
}

// Echoes a user-supplied id in an error message, shortened so a 1 MB string stays readable.
std::string Quoted(std::string_view text) {
  constexpr std::size_t kMaxEcho = 64;
  if (text.size() <= kMaxEcho) return "\"" + std::string(text) + "\"";
  std::size_t cut = kMaxEcho;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return "\"" + std::string(text.substr(0, cut)) + "…\"";
}

// "Unknown <what> "<id>": use <hint>." for `field`.
Error Unknown(std::string_view code, std::string_view what, std::string_view id, const std::string& hint,
              std::string_view field) {
  return Error{std::string(code), "Unknown " + std::string(what) + " " + Quoted(id) + ": use " + hint + ".",
               std::string(field)};
}

// The ladder in ascending memory; ties keep ladder order.
std::vector<const Device*> SortedLadder(const Catalog& catalog) {
  std::vector<const Device*> ladder;
  for (const std::string& id : catalog.recommendation_ladder) {
    if (const Device* device = catalog.FindDevice(id)) ladder.push_back(device);
  }
  internal::StableSortSmall(ladder.begin(), ladder.end(), [](const Device* a, const Device* b) {
    return a->memory_gib < b->memory_gib;
  });
  return ladder;
}

// 1.8: the first ladder device, in ascending memory, on which `device_count` of them hold the
// scenario at 32K within the usable share of their memory (Apple devices only alone).
const Device* RecommendedOn(const std::vector<const Device*>& ladder, Scenario s, int64_t device_count) {
  s.context_tokens = kRecommendationContextTokens;
  s.device_count = device_count;
  if (device_count > 1 && !s.runtime->multi_device) return nullptr;
  for (const Device* device : ladder) {
    if (device_count > 1 && IsApple(*device)) continue;  // no tensor parallelism across Macs
    if (!s.runtime->RunsOn(*device)) continue;
    s.device = device;
    if (FootprintOf(s).per_device_gib() <= s.runtime->usable_fraction * CapacityGib(s)) return device;
  }
  return nullptr;
}

// The recommended placement: one device when one fits, else the smallest group of 2, 4 or 8.
std::optional<Placement> PlacementOn(const std::vector<const Device*>& ladder, const Scenario& s) {
  for (const int64_t count : {1, 2, 4, 8}) {
    if (const Device* device = RecommendedOn(ladder, s, count)) return Placement{device, count};
  }
  return std::nullopt;
}

// Devices in parallel where the runtime runs on one only.
std::optional<Error> CheckDeviceCount(const Scenario& s) {
  if (s.device_count <= 1 || s.runtime->multi_device) return std::nullopt;
  return Error{"unsupported_device_count",
               "Runtime " + std::string(s.runtime->id) + " runs on one device; device_count must be 1.", "device_count"};
}

// A device the runtime does not run on, named in `field`: another platform, or a CUDA card older
// than the engine supports (the catalog's runtimes listing has runs_on and min_compute_capability).
std::optional<Error> CheckRunsOn(const RuntimeProfile& runtime, const Device& device, const char* field) {
  if (runtime.RunsOn(device)) return std::nullopt;
  return Error{"unsupported_device", "Runtime " + std::string(runtime.id) + " does not run on " + device.name + ".", field};
}

// The scenario's device and count: the request's, else the recommended placement; when
// nothing fits, the largest ladder class (the page then shows why it does not fit).
// `recommended`: that placement, what "auto" picks, whatever the request asks (the simulator
// reports it).
std::optional<Error> ResolveDevice(const Request& request, const Catalog& catalog, const std::vector<const Device*>& ladder,
                                   Scenario& s, std::optional<Placement>& recommended) {
  s.device_count = request.device_count.value_or(1);
  if (auto error = CheckDeviceCount(s)) return error;
  recommended = PlacementOn(ladder, s);  // its own device and count, whatever the scenario's
  if (request.device) {
    s.device = request.custom_device ? &*request.custom_device : catalog.FindDevice(*request.device);
    if (s.device == nullptr) {
      return Unknown("unknown_device", "device", *request.device, "a catalog id such as \"rtx-3090-24gb\"", "device");
    }
    return CheckRunsOn(*s.runtime, *s.device, "device");
  }
  if (request.device_count) {
    s.device = RecommendedOn(ladder, s, s.device_count);
  } else if (recommended) {
    s.device = recommended->device;
    s.device_count = recommended->device_count;
  }
  for (auto it = ladder.rbegin(); s.device == nullptr && it != ladder.rend(); ++it) {
    if (s.runtime->RunsOn(**it)) s.device = *it;  // the largest it runs on
  }
  if (s.device == nullptr) {
    return Error{"invalid_catalog", "The device catalog has no recommendation ladder.", "device"};
  }
  return std::nullopt;
}

// The model: a pasted config.json's or a catalog entry, both checked where they were read
// (ParseHfConfig, ParseCatalog; evaluate.h).
Result<const ModelSpec*> ResolveModel(const Request& request, const Catalog& catalog) {
  const ModelSpec* model = request.custom_model ? &*request.custom_model : catalog.FindModel(request.model);
  if (model == nullptr) {
    return Unknown("unknown_model", "model", request.model, "a catalog id such as \"" + std::string(kDefaultModelId) + "\"",
                   "model");
  }
  return model;
}

// What a runtime runs a model in when the request names no format: the checkpoint's own format
// where the runtime offers it (gpt-oss's MXFP4 under vLLM and SGLang, what `vllm serve
// openai/gpt-oss-20b` loads), else the runtime's default.
std::string_view DefaultFormat(const RuntimeProfile& runtime, const ModelSpec* model) {
  const bool own = model != nullptr && !model->checkpoint_format.empty() && OffersFormat(runtime, model->checkpoint_format);
  return own ? std::string_view(model->checkpoint_format) : runtime.default_format;
}

// Everything but the model and the device, looked up in the tables (the model, where resolved
// already, for the default format).
std::optional<Error> ResolveTables(const Request& request, const Catalog& catalog, Scenario& s) {
  const auto ids = [](const auto& items) {
    return JoinIds(items, [](const auto& item) { return item.id; }, "or", false);
  };
  s.runtime = FindRuntimeProfile(request.runtime);
  if (s.runtime == nullptr) {
    return Unknown("unknown_runtime", "runtime", request.runtime, ids(RuntimeProfiles()), "runtime");
  }
  const auto listed = [](std::span<const std::string_view> items) { return JoinList(items, "or"); };
  const std::string_view format = request.format ? std::string_view(*request.format) : DefaultFormat(*s.runtime, s.model);
  s.format = FindQuantFormat(format);
  if (s.format == nullptr || !OffersFormat(*s.runtime, s.format->id)) {
    return Unknown("unknown_format", "format", format, listed(s.runtime->formats) + " (runtime " +
                   std::string(s.runtime->id) + ")", "format");
  }
  s.kv_dtype = FindKvDtype(request.kv_dtype);
  if (s.kv_dtype == nullptr || !OffersKvDtype(*s.runtime, s.kv_dtype->id)) {
    return Unknown("unknown_kv_dtype", "KV cache type", request.kv_dtype, listed(s.runtime->kv_dtypes) +
                   " (runtime " + std::string(s.runtime->id) + ")", "kv_dtype");
  }
  for (const std::string& id : request.compare) {
    if (catalog.FindDevice(id) == nullptr) {
      return Error{"unknown_device",
                   "Unknown device " + Quoted(id) + " in compare: use catalog ids such as \"rtx-4080-16gb\".",
                   "compare"};
    }
  }
  s.context_tokens = request.context_tokens;
  s.batch = request.batch;
  return std::nullopt;
}

// The request's engine options, each only for a runtime that has it (section 5.6).
std::optional<Error> ResolveEngine(const Request& request, Scenario& s) {
  const RuntimeProfile& runtime = *s.runtime;
  const struct {
    bool given;
    EngineOption option;
    std::string_view field;
  } kGiven[] = {{request.memory_utilization.has_value(), kOptionMemoryUtilization, "memory_utilization"},
                {request.max_num_batched_tokens.has_value(), kOptionMaxNumBatchedTokens, "max_num_batched_tokens"},
                {request.ubatch.has_value(), kOptionUbatch, "ubatch"},
                {request.flash_attention.has_value(), kOptionFlashAttention, "flash_attention"},
                {request.parallel.has_value(), kOptionParallel, "parallel"}};
  for (const auto& given : kGiven) {
    if (given.given && !runtime.Takes(given.option)) {
      return Error{"unsupported_option", std::string(given.field) + " is not an option of runtime " +
                                             std::string(runtime.id) + ".", std::string(given.field)};
    }
  }
  s.engine.memory_utilization = request.memory_utilization.value_or(0);
  s.engine.max_num_batched_tokens = request.max_num_batched_tokens.value_or(0);
  s.engine.ubatch = request.ubatch.value_or(0);
  s.engine.flash_attention = request.flash_attention.value_or(runtime.defaults.flash_attention);
  s.engine.parallel = request.parallel.value_or(0);
  return std::nullopt;
}

// Combinations an engine refuses: llama.cpp quantizes the V cache only with flash attention
// ("quantized V cache was requested, but this requires Flash Attention", llama-context.cpp);
// mlx-lm cannot quantize a sliding-window cache ("RotatingKVCache Quantization NYI",
// cache.py); MXFP4 formats quantize experts, so they need a mixture-of-experts model.
std::optional<Error> CheckCombination(const Scenario& s) {
  const bool quantized_kv = s.kv_dtype->bytes_per_element < 1.5;
  if (s.runtime->compute.logits > 0 && quantized_kv && !s.engine.flash_attention) {
    return Error{"unsupported_combination", "llama.cpp keeps a quantized KV cache (" + std::string(s.kv_dtype->id) +
                                                ") only with flash attention on.", "flash_attention"};
  }
  const bool windowed = std::any_of(s.model->layer_groups.begin(), s.model->layer_groups.end(),
                                    [](const LayerGroup& g) { return g.window_tokens > 0 && g.compress_ratio == 0; });
  if (s.runtime->kv.granule_tokens == 256 && s.runtime->compute.logits == 0 && quantized_kv && windowed) {
    return Error{"unsupported_combination", "mlx-lm cannot quantize the sliding-window cache of " + s.model->name + ".",
                 "kv_dtype"};
  }
  if (s.format->moe_only && !s.model->moe) {
    return Error{"unsupported_combination", std::string(s.format->label) + " quantizes experts; " + s.model->name +
                                                " has none.", "format"};
  }
  return std::nullopt;
}

SimulatorResult Simulate(const Scenario& s) {
  const Footprint footprint = FootprintOf(s);
  SimulatorResult sim;
  sim.device = s.device;
  sim.runtime = s.runtime->id;
  sim.format = s.format;
  sim.kv_dtype = s.kv_dtype;
  sim.context_tokens = s.context_tokens;
  sim.batch = s.batch;
  sim.device_count = s.device_count;
  sim.weights_gib = footprint.weights_gib;
  sim.kv_cache_gib = footprint.kv_cache_bytes / kBytesPerGib;
  sim.state_gib = footprint.state_bytes / kBytesPerGib;
  sim.vision_gib = footprint.vision_gib;
  sim.overhead_gib = footprint.overhead_gib();
  sim.total_gib = footprint.total_gib();
  sim.per_device_gib = footprint.per_device_gib();
  sim.share_weights_pct = RoundPercentHalfUp(100.0 * sim.weights_gib / sim.total_gib);
  sim.share_kv_cache_pct = RoundPercentHalfUp(100.0 * sim.kv_cache_gib / sim.total_gib);
  sim.share_state_pct = RoundPercentHalfUp(100.0 * sim.state_gib / sim.total_gib);
  sim.share_vision_pct = RoundPercentHalfUp(100.0 * sim.vision_gib / sim.total_gib);
  sim.share_overhead_pct = RoundPercentHalfUp(100.0 - sim.share_weights_pct - sim.share_kv_cache_pct -
                                              sim.share_state_pct - sim.share_vision_pct);
  sim.capacity_gib = CapacityGib(s);
  sim.visible_gib = VisibleMemoryGib(*s.runtime, *s.device);
  sim.host_gib = footprint.host_gib;
  sim.overhead_parts = footprint.parts;
  sim.main_device_extra_gib = footprint.main_device_extra_gib;
  sim.engine = ResolvedSettings(s);
  sim.bits_per_weight = footprint.weights_gib * kBytesPerGib * 8.0 / s.model->params_total;
  sim.usage_pct = 100.0 * sim.per_device_gib / sim.capacity_gib;
  sim.fit = RateFit(*s.runtime, sim.per_device_gib, sim.capacity_gib);
  sim.decode_tps = DecodeTokensPerSecond(s, footprint);
  sim.decode_rule = DecodeRuleOf(s);
  if (!sim.decode_rule) sim.decode_check = BestRule(s.runtime->decode_checks, *s.device, s.model->moe.has_value());
  sim.max_context_tokens = MaxContextTokens(s);
  sim.max_context_capped = sim.max_context_tokens >= kMaxContextTokens;
  sim.kv_compression = KvCompressionOf(*s.model);
  const double naive_bytes = NaiveMhaKvBytes(*s.model, s.context_tokens, s.batch);
  sim.kv_naive_mha_gib = naive_bytes / kBytesPerGib;
  // The saving is the architecture's (GQA, MLA, window) at FP16, whatever KV type is chosen.
  const KvLayout fp16_layout = KvLayoutOf(*s.model, FindKvDtype(kDefaultKvDtypeId)->bytes_per_element);
  sim.kv_saving_pct = 100.0 * (1.0 - KvCacheBytes(fp16_layout, s.context_tokens, s.batch) / naive_bytes);
  return sim;
}

}  // namespace

std::string RequestFieldHelp(const RequestField& field) {
  const auto ids = [](const auto& items) {
    return JoinIds(items, [](const auto& item) { return item.id; }, "or", false);
  };
  return FillTemplate(kRequestFieldHelp[&field - kRequestFields].help, {{"model", std::string(kDefaultModelId)},
                                   {"formats", ids(QuantFormats())},
                                   {"format", std::string(kDefaultFormatId)},
                                   {"max_context", FormatGrouped(kMaxRequestContextTokens)},
                                   {"context", std::to_string(kDefaultContextTokens)},
                                   {"max_batch", FormatGrouped(kMaxRequestBatch)},
                                   {"max_batched_tokens", FormatGrouped(kMaxRequestBatchedTokens)},
                                   {"kv_dtypes", ids(KvDtypes())},
                                   {"kv_dtype", std::string(kDefaultKvDtypeId)},
                                   {"max_devices", std::to_string(kMaxDeviceCount)},
                                   {"max_compare", std::to_string(kMaxCompareDevices)},
                                   {"runtimes", ids(RuntimeProfiles())},
                                   {"runtime", std::string(kDefaultRuntimeId)},
                                   {"host_memory", FormatGrouped(static_cast<int64_t>(kDefaultHostMemoryGib))},
                                   {"host_memory_types", ids(HostMemoryTypes())},
                                   {"host_memory_type", std::string(kDefaultHostMemoryTypeId)},
                                   {"prompt_tokens", std::to_string(kDefaultPromptTokens)},
                                   {"output_tokens", std::to_string(kDefaultOutputTokens)},
                                   {"min_user_tps", FormatFixed(kDefaultMinUserTps, 0)},
                                   {"sections", JoinIds(kSections, "and", false)}});
}

const RequestField* FindRequestField(std::string_view name, bool short_name) {
  for (const RequestField& field : kRequestFields) {
    if ((short_name ? field.short_name : field.name) == name) return &field;
  }
  return nullptr;
}

std::vector<int64_t> CurveContexts(const ModelSpec& model) {
  constexpr int kStepsPerOctave = 4;
  constexpr int kFirstLog2 = 9;   // 512 tokens
  int last_log2 = 20;             // 1,048,576 tokens
  while ((int64_t{1} << last_log2) < model.max_position_embeddings && last_log2 < 27) ++last_log2;
  // 2^(k/4) for the quarter steps, from the exact fourth roots of two (no libm in the sweep).
  constexpr double kQuarterSteps[kStepsPerOctave] = {1.0, 1.189207115002721, 1.4142135623730951,
                                                     1.681792830507429};
  std::vector<int64_t> contexts;
  for (int octave = kFirstLog2; octave <= last_log2; ++octave) {
    const double base = static_cast<double>(int64_t{1} << octave);
    for (int step = 0; step < kStepsPerOctave && (octave < last_log2 || step == 0); ++step) {
      contexts.push_back(static_cast<int64_t>(base * kQuarterSteps[step] + 0.5));
    }
  }
  // Where a window stops growing, the curve bends: sample it exactly.
  for (const LayerGroup& group : model.layer_groups) {
    const int64_t window = group.window_tokens;
    if (window > contexts.front() && window < contexts.back() &&
        !std::binary_search(contexts.begin(), contexts.end(), window)) {
      contexts.insert(std::upper_bound(contexts.begin(), contexts.end(), window), window);
    }
  }
  return contexts;
}

namespace internal {

std::vector<CurvePoint> BuildCurve(Scenario s) {
  std::vector<CurvePoint> curve;
  for (const int64_t context_tokens : CurveContexts(*s.model)) {
    s.context_tokens = context_tokens;
    const Footprint footprint = FootprintOf(s);
    curve.push_back(CurvePoint{context_tokens, footprint.kv_cache_bytes / kBytesPerGib, footprint.total_gib(),
                               DecodeTokensPerSecond(s, footprint)});
  }
  return curve;
}

// The quantization matrix: every format at 8K, 32K and 128K on no particular device (the
// runtime's default class), at the request's batch and KV type, with its recommended class.
std::vector<MatrixRow> BuildMatrix(const Scenario& s, const Catalog& catalog) {
  const std::vector<const Device*> ladder = SortedLadder(catalog);
  std::vector<MatrixRow> matrix;
  for (const std::string_view id : s.runtime->formats) {
    const QuantFormat& format = *FindQuantFormat(id);
    if (format.moe_only && !s.model->moe) continue;
    Scenario row_scenario = s;
    row_scenario.format = &format;
    row_scenario.device = nullptr;
    row_scenario.device_count = 1;
    MatrixRow row;
    row.format = &format;
    row.weights_gib = FootprintOf(row_scenario).weights_gib;
    row.bits_per_weight = s.runtime->weights.rule == WeightsRule::kFlat
                              ? format.bits_per_weight
                              : row.weights_gib * kBytesPerGib * 8.0 / s.model->params_total;
    for (std::size_t i = 0; i < std::size(kMatrixContexts); ++i) {
      row_scenario.context_tokens = kMatrixContexts[i].tokens;
      row.total_gib[i] = FootprintOf(row_scenario).total_gib();
    }
    row.recommended = PlacementOn(ladder, row_scenario);
    matrix.push_back(std::move(row));
  }
  return matrix;
}

}  // namespace internal

Result<Response> Evaluate(const Request& request, const Catalog& catalog, LowerSectionsBuilder lower) {
  const Result<const ModelSpec*> model = ResolveModel(request, catalog);
  if (!model.ok()) return model.error();
  Scenario s;
  s.model = model.value();
  if (auto error = ResolveTables(request, catalog, s)) return *error;
  if (auto error = ResolveEngine(request, s)) return *error;
  const std::vector<const Device*> ladder = SortedLadder(catalog);
  std::optional<Placement> recommended;
  if (auto error = ResolveDevice(request, catalog, ladder, s, recommended)) return *error;
  if (auto error = CheckCombination(s)) return *error;

  Response response;
  response.sections = request.sections;
  const auto wanted = [&request](uint32_t section) { return (request.sections & section) != 0; };
  if (wanted(kSectionModel | kSectionCard)) response.model = *s.model;
  response.simulator = Simulate(s);
  if (recommended) response.simulator.recommended = recommended->device;
  // The program's lower sections, which also check the host (only they use it); a program
  // without them refuses a request for them.
  if (lower != nullptr) {
    if (auto error = lower(s, request, catalog, response)) return *error;
  } else if (wanted(internal::kLowerSections)) {
    return SectionUnavailable();
  }
  return response;
}

namespace {

// The devices a sweep covers: the request's (a device of one's own kept in the result), else
// every catalog device the runtime runs on.
std::optional<Error> SweepDevices(const SweepRequest& request, const Catalog& catalog, const Scenario& s,
                                  SweepResult& result) {
  if (request.custom_device) result.own_device = std::make_unique<const Device>(*request.custom_device);
  for (std::size_t i = 0; i < request.devices.size(); ++i) {
    const char* field = i == 0 ? "device" : "compare";
    const Device* device = i == 0 && result.own_device ? result.own_device.get() : catalog.FindDevice(request.devices[i]);
    if (device == nullptr) {
      return Unknown("unknown_device", "device", request.devices[i], "a catalog id such as \"rtx-4090-24gb\"", field);
    }
    if (auto error = CheckRunsOn(*s.runtime, *device, field)) return error;
    result.devices.push_back(device);
  }
  if (request.devices.empty()) {
    for (const Device& device : catalog.devices) {
      if (s.runtime->RunsOn(device)) result.devices.push_back(&device);
    }
  }
  return std::nullopt;
}

// One model × format × device: what the simulator says, the largest context stopping at the
// model's own maximum.
SweepCell SweepCellOf(const Scenario& s) {
  SweepCell cell;
  if (s.format->moe_only && !s.model->moe) {  // nothing to quantize: an empty, "no fit" cell
    cell.fit = Fit::kNoFit;
    return cell;
  }
  const Footprint footprint = FootprintOf(s);
  cell.total_gib = footprint.total_gib();
  cell.fit = RateFit(*s.runtime, cell.total_gib, CapacityGib(s));
  cell.decode_tps = DecodeTokensPerSecond(s, footprint);
  const int64_t by_memory = MaxContextByMemory(s);  // under every profile, however its simulator caps
  cell.max_context_tokens = std::min(by_memory, s.model->max_position_embeddings);
  cell.max_context_capped = s.model->BeyondMaxPosition(by_memory);
  if (cell.fit != Fit::kNoFit) cell.ttft_s = TimeToFirstToken(s, s.context_tokens);
  return cell;
}

// The cell just added, where its operating system must let the GPU use more (SweepResult::
// gpu_map_cells): its index and the value to set. A Mac's, "no fit" by default, gets its first
// token and its largest context as once raised, the latter at the highest limit offered, as an
// APU's is at its whole memory.
void AddGpuMap(const Scenario& s, SweepResult& result) {
  SweepCell& cell = result.cells.back();
  const std::optional<GpuMap> map = GpuMapOf(s, cell.total_gib);
  if (!map) return;
  result.gpu_map_cells.push_back(static_cast<int64_t>(result.cells.size() - 1));
  result.gpu_map_set_gib.push_back(map->set_gib);
  result.gpu_map_set_mib.push_back(map->set_mib);
  if (cell.fit != Fit::kNoFit) return;
  cell.ttft_s = TimeToFirstToken(s, s.context_tokens);
  const int64_t by_memory = RaisedWiredMaxContext(s);
  cell.max_context_tokens = std::min(by_memory, s.model->max_position_embeddings);
  cell.max_context_capped = s.model->BeyondMaxPosition(by_memory);
}

// A model that fits `s`'s device in no format: the plans in the engine's default format, the one
// that runs (section 7); none where the engine does not offload or the device has no RAM beside it.
SweepOffload SweepOffloadOf(Scenario s) {
  SweepOffload result;
  s.format = FindQuantFormat(s.runtime->default_format);
  if (s.format == nullptr || (s.format->moe_only && !s.model->moe)) return result;
  const std::optional<Offload> offload = OffloadOf(s);
  if (!offload) return result;
  result.format = s.format;
  if (const OffloadPlan* plan = offload->Chosen()) result.plan = *plan;
  return result;
}

// Each device's offload for the model whose cells were just added (the last formats × devices):
// where no format fits the device.
void AddOffloads(const Scenario& s, SweepResult& result) {
  const std::size_t devices = result.devices.size();
  const std::size_t first = result.cells.size() - result.formats.size() * devices;
  for (std::size_t d = 0; d < devices; ++d) {
    bool fits = false;
    for (std::size_t f = 0; f < result.formats.size(); ++f) fits = fits || result.cells[first + f * devices + d].fit != Fit::kNoFit;
    Scenario one = s;
    one.device = result.devices[d];
    result.offloads.push_back(fits || s.runtime->offload == nullptr ? SweepOffload{} : SweepOffloadOf(one));
  }
}

}  // namespace

GpuMap GpuMapAt(const SweepResult& sweep, std::size_t k) {
  GpuMap map;
  map.set_gib = sweep.gpu_map_set_gib[k];
  map.set_mib = sweep.gpu_map_set_mib[k];
  map.limit = map.set_mib > 0 ? GpuLimit::kMacosWired : GpuLimit::kLinuxGtt;
  return map;
}

Result<SweepResult> Sweep(const SweepRequest& request, const Catalog& catalog) {
  Request tables;
  tables.kv_dtype = request.kv_dtype;
  tables.runtime = request.runtime;
  tables.host_memory_gib = request.host_memory_gib;
  tables.host_memory_type = request.host_memory_type;
  tables.host_bandwidth_gbps = request.host_bandwidth_gbps;
  Scenario s;
  if (auto error = ResolveTables(tables, catalog, s)) return *error;
  if (auto error = internal::ResolveHost(tables, s)) return *error;
  s.context_tokens = request.context_tokens;
  s.batch = request.batch;
  s.device_count = request.device_count;
  if (auto error = CheckDeviceCount(s)) return *error;
  SweepResult result;
  result.request = request;
  if (auto error = SweepDevices(request, catalog, s, result)) return *error;
  for (const ModelSpec& model : catalog.models) result.models.push_back(&model);
  for (const std::string_view id : s.runtime->formats) result.formats.push_back(FindQuantFormat(id));
  result.cells.reserve(result.models.size() * result.formats.size() * result.devices.size());
  for (const ModelSpec* model : result.models) {
    s.model = model;
    for (const QuantFormat* format : result.formats) {
      for (const Device* device : result.devices) {
        s.format = format;
        s.device = device;
        result.cells.push_back(SweepCellOf(s));
        AddGpuMap(s, result);
      }
    }
    AddOffloads(s, result);
  }
  return result;
}

}  // namespace vramcalc
