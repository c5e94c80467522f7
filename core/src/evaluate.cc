#include "vramcalc/evaluate.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "vramcalc/display.h"
#include "vramcalc/quant_format.h"

namespace vramcalc {
namespace {

// Echoes a user-supplied id in an error message, shortened so a 1 MB string stays readable.
std::string Quoted(std::string_view text) {
  constexpr std::size_t kMaxEcho = 64;
  if (text.size() <= kMaxEcho) return "\"" + std::string(text) + "\"";
  std::size_t cut = kMaxEcho;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return "\"" + std::string(text.substr(0, cut)) + "…\"";
}

// Weights, KV cache and overhead of one scenario on `device_count` identical devices.
struct Footprint {
  double weights_gib;
  double kv_cache_bytes;
  double device_overhead_gib;  // on each device
  int64_t device_count;
  double overhead_gib() const { return static_cast<double>(device_count) * device_overhead_gib; }
  double total_gib() const { return weights_gib + kv_cache_bytes / kBytesPerGib + overhead_gib(); }
  double per_device_gib() const { return total_gib() / static_cast<double>(device_count); }
};

Footprint FootprintOf(const ModelSpec& model, const QuantFormat& format, const KvDtype& kv_dtype,
                      int64_t context_tokens, int64_t batch, Platform platform,
                      int64_t device_count = 1) {
  const double weights_gib = WeightsGib(model.params_total, format.bits_per_weight);
  const KvLayout layout = KvLayoutOf(model, kv_dtype.bytes_per_element);
  return Footprint{weights_gib, KvCacheBytes(layout, context_tokens, batch),
                   PerDeviceOverheadGib(model, weights_gib, platform, device_count), device_count};
}

// The ladder in ascending memory; ties keep ladder order.
std::vector<const Device*> SortedLadder(const Catalog& catalog) {
  std::vector<const Device*> ladder;
  for (const std::string& id : catalog.recommendation_ladder) {
    if (const Device* device = catalog.FindDevice(id)) ladder.push_back(device);
  }
  std::stable_sort(ladder.begin(), ladder.end(), [](const Device* a, const Device* b) {
    return a->memory_gib < b->memory_gib;
  });
  return ladder;
}

// RecommendedDevice and RecommendedPlacement on a ladder sorted once (Evaluate asks for up
// to 33 recommendations per call).
std::optional<std::string> RecommendedOn(const std::vector<const Device*>& ladder,
                                         const ModelSpec& model, const QuantFormat& format,
                                         const KvDtype& kv_dtype, int64_t batch,
                                         int64_t device_count) {
  for (const Device* device : ladder) {
    if (device_count > 1 && IsApple(*device)) continue;  // no tensor parallelism across Macs
    const Footprint footprint = FootprintOf(model, format, kv_dtype, kRecommendationContextTokens,
                                            batch, PlatformOf(*device), device_count);
    if (footprint.per_device_gib() <= kUsableFraction * device->memory_gib) return device->id;
  }
  return std::nullopt;
}

std::optional<Placement> PlacementOn(const std::vector<const Device*>& ladder,
                                     const ModelSpec& model, const QuantFormat& format,
                                     const KvDtype& kv_dtype, int64_t batch) {
  for (const int64_t count : {1, 2, 4, 8}) {
    if (auto device = RecommendedOn(ladder, model, format, kv_dtype, batch, count)) {
      return Placement{*device, count};
    }
  }
  return std::nullopt;
}

}  // namespace

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
  if (model.sliding_window) {
    const int64_t window = model.sliding_window->window_tokens;
    if (window > contexts.front() && window < contexts.back() &&
        !std::binary_search(contexts.begin(), contexts.end(), window)) {
      contexts.insert(std::upper_bound(contexts.begin(), contexts.end(), window), window);
    }
  }
  return contexts;
}

std::string_view FitId(Fit fit) {
  switch (fit) {
    case Fit::kComfortable: return "comfortable";
    case Fit::kTight: return "tight";
    case Fit::kNoFit: return "no_fit";
  }
  return "no_fit";
}

std::string_view FitLabel(Fit fit, Lang lang) {
  switch (fit) {
    case Fit::kComfortable: return BuiltinStrings(lang).Text("fit.comfortable");
    case Fit::kTight: return BuiltinStrings(lang).Text("fit.tight");
    case Fit::kNoFit: break;
  }
  return BuiltinStrings(lang).Text("fit.no_fit");
}

std::optional<std::string> RecommendedDevice(const ModelSpec& model, const QuantFormat& format,
                                             const KvDtype& kv_dtype, int64_t batch,
                                             int64_t device_count, const Catalog& catalog) {
  return RecommendedOn(SortedLadder(catalog), model, format, kv_dtype, batch, device_count);
}

std::optional<Placement> RecommendedPlacement(const ModelSpec& model, const QuantFormat& format,
                                              const KvDtype& kv_dtype, int64_t batch,
                                              const Catalog& catalog) {
  return PlacementOn(SortedLadder(catalog), model, format, kv_dtype, batch);
}

Result<Response> Evaluate(const Request& request, const Catalog& catalog) {
  const ModelSpec* model =
      request.custom_model ? &*request.custom_model : catalog.FindModel(request.model);
  if (model == nullptr) {
    return Error{"unknown_model",
                 "Unknown model " + Quoted(request.model) +
                     ": use a catalog id such as \"glm-4-32b-0414\".",
                 "model"};
  }
  if (auto invalid = ValidateModel(*model)) {
    invalid->message = "The catalog entry " + Quoted(model->id) + " cannot be computed: " +
                       invalid->message;
    invalid->field = "model." + invalid->field;
    return *invalid;
  }
  const QuantFormat* format = FindQuantFormat(request.format);
  if (format == nullptr) {
    return Error{"unknown_format",
                 "Unknown format " + Quoted(request.format) +
                     ": use FP16, FP8, Q8_0, Q6_K, Q5_K_M, Q4_K_M, AWQ_INT4 or IQ4_XS.",
                 "format"};
  }
  const KvDtype* kv_dtype = FindKvDtype(request.kv_dtype);
  if (kv_dtype == nullptr) {
    return Error{"unknown_kv_dtype",
                 "Unknown KV cache type " + Quoted(request.kv_dtype) +
                     ": use fp16, fp8, q8_0 or q4_0.",
                 "kv_dtype"};
  }
  for (const std::string& id : request.compare) {
    if (catalog.FindDevice(id) == nullptr) {
      return Error{"unknown_device",
                   "Unknown device " + Quoted(id) + " in compare: use catalog ids such as \"rtx-4080-16gb\".",
                   "compare"};
    }
  }
  const std::vector<const Device*> ladder = SortedLadder(catalog);
  const Device* device = nullptr;
  int64_t n = request.device_count.value_or(1);
  if (request.device) {
    device = catalog.FindDevice(*request.device);
    if (device == nullptr) {
      return Error{"unknown_device",
                   "Unknown device " + Quoted(*request.device) +
                       ": use a catalog id such as \"rtx-3090-24gb\".",
                   "device"};
    }
  } else if (request.device_count) {
    if (auto recommended =
            RecommendedOn(ladder, *model, *format, *kv_dtype, request.batch, n)) {
      device = catalog.FindDevice(*recommended);
    }
  } else if (auto placement =
                 PlacementOn(ladder, *model, *format, *kv_dtype, request.batch)) {
    device = catalog.FindDevice(placement->device);
    n = placement->device_count;
  }
  if (device == nullptr && !ladder.empty()) {
    device = ladder.back();  // nothing fits: show the largest class and why it does not
  }
  if (device == nullptr) {
    return Error{"invalid_catalog", "The device catalog has no recommendation ladder.", "device"};
  }

  Response response;
  const uint32_t sections = request.sections;
  const auto wanted = [sections](uint32_t section) { return (sections & section) != 0; };
  response.sections = sections;
  if (wanted(kSectionModel)) response.model = *model;
  response.lang = request.lang;

  // The simulator.
  const Platform platform = PlatformOf(*device);
  const KvLayout layout = KvLayoutOf(*model, kv_dtype->bytes_per_element);
  const Footprint footprint = FootprintOf(*model, *format, *kv_dtype, request.context_tokens,
                                          request.batch, platform, n);
  SimulatorResult& sim = response.simulator;
  sim.device = device->id;
  sim.device_name = device->name;
  sim.memory_gib = device->memory_gib;
  sim.bandwidth_gbps = device->bandwidth_gbps;
  sim.format = std::string(format->id);
  sim.kv_dtype = std::string(kv_dtype->id);
  sim.context_tokens = request.context_tokens;
  sim.batch = request.batch;
  sim.device_count = n;
  sim.weights_gib = footprint.weights_gib;
  sim.kv_cache_gib = footprint.kv_cache_bytes / kBytesPerGib;
  sim.overhead_gib = footprint.overhead_gib();
  sim.total_gib = footprint.total_gib();
  sim.per_device_gib = footprint.per_device_gib();
  sim.share_weights_pct = RoundHalfUp(100.0 * sim.weights_gib / sim.total_gib, 1);
  sim.share_kv_cache_pct = RoundHalfUp(100.0 * sim.kv_cache_gib / sim.total_gib, 1);
  sim.share_overhead_pct = RoundHalfUp(100.0 - sim.share_weights_pct - sim.share_kv_cache_pct, 1);
  sim.usage_pct = 100.0 * sim.per_device_gib / device->memory_gib;
  sim.fit = RateFit(sim.per_device_gib, device->memory_gib);
  sim.decode_tps = DecodeTokensPerSecond(*device, model->params_active, format->bits_per_weight,
                                         footprint.kv_cache_bytes, n);
  sim.max_context_tokens =
      MaxContextTokens(layout, request.batch, footprint.weights_gib, footprint.device_overhead_gib,
                       device->memory_gib, platform, n);
  sim.max_context_capped = sim.max_context_tokens >= kMaxContextTokens;
  sim.kv_compression = KvCompressionOf(*model);
  const double naive_bytes = NaiveMhaKvBytes(*model, request.context_tokens, request.batch);
  sim.kv_naive_mha_gib = naive_bytes / kBytesPerGib;
  // The saving is the architecture's (GQA, MLA, window) at FP16, whatever KV type is chosen.
  const KvLayout fp16_layout = KvLayoutOf(*model, FindKvDtype(kDefaultKvDtypeId)->bytes_per_element);
  sim.kv_saving_pct =
      100.0 * (1.0 - KvCacheBytes(fp16_layout, request.context_tokens, request.batch) / naive_bytes);

  // The quantization matrix: one non-Apple device's overhead, the request's batch and KV type.
  if (wanted(kSectionMatrix)) {
    for (const QuantFormat& row_format : QuantFormats()) {
      MatrixRow row;
      row.format = std::string(row_format.id);
      row.label = std::string(row_format.label);
      row.bits_per_weight = row_format.bits_per_weight;
      row.weights_gib = WeightsGib(model->params_total, row_format.bits_per_weight);
      for (const int64_t context_tokens : kMatrixContexts) {
        row.total_gib[context_tokens] = FootprintOf(*model, row_format, *kv_dtype, context_tokens,
                                                    request.batch, Platform::kDiscrete)
                                            .total_gib();
      }
      if (auto placement = PlacementOn(ladder, *model, row_format, *kv_dtype, request.batch)) {
        row.recommended_device = placement->device;
        row.recommended_device_count = placement->device_count;
      }
      response.matrix.push_back(std::move(row));
    }
  }

  // The curve for the plot.
  if (wanted(kSectionCurve)) {
    for (const int64_t context_tokens : CurveContexts(*model)) {
      const double kv_gib = KvCacheBytes(layout, context_tokens, request.batch) / kBytesPerGib;
      response.curve.push_back(CurvePoint{context_tokens, kv_gib,
                                          footprint.weights_gib + kv_gib + footprint.overhead_gib()});
    }
  }

  // The hardware table at the request's format and context.
  std::vector<const Device*> hardware_devices;
  const auto add_row = [&](const Device* row_device) {
    if (std::find(hardware_devices.begin(), hardware_devices.end(), row_device) == hardware_devices.end()) {
      hardware_devices.push_back(row_device);
    }
  };
  if (wanted(kSectionHardware)) {
    for (const std::string& id : catalog.hardware_table) {
      if (const Device* row_device = catalog.FindDevice(id)) add_row(row_device);
    }
    for (const std::string& id : request.compare) add_row(catalog.FindDevice(id));
    add_row(device);
  }
  for (const Device* row_device : hardware_devices) {
    const Footprint row_footprint = FootprintOf(*model, *format, *kv_dtype, request.context_tokens,
                                                request.batch, PlatformOf(*row_device), n);
    HardwareRow row;
    row.device = row_device->id;
    row.name = row_device->name;
    row.memory_gib = row_device->memory_gib;
    row.bandwidth_gbps = row_device->bandwidth_gbps;
    row.needed_gib = row_footprint.per_device_gib();
    row.usage_pct = 100.0 * row.needed_gib / row_device->memory_gib;
    row.fit = RateFit(row.needed_gib, row_device->memory_gib);
    row.decode_tps = DecodeTokensPerSecond(*row_device, model->params_active,
                                           format->bits_per_weight, row_footprint.kv_cache_bytes, n);
    response.hardware.push_back(std::move(row));
  }

  // Related models: the catalog's nearest in total memory at the same settings and device.
  // (Catalog entries were validated when the catalog was read.) Ranked by index, so only the
  // five shown are copied.
  if (wanted(kSectionRelated)) {
    constexpr std::size_t kMaxRelated = 5;
    struct Ranked {
      double distance;
      double total_gib;
      double per_device_gib;
      std::size_t index;
    };
    std::vector<Ranked> ranked;
    ranked.reserve(catalog.models.size());
    for (std::size_t i = 0; i < catalog.models.size(); ++i) {
      const ModelSpec& other = catalog.models[i];
      if (other.id == model->id) continue;
      const Footprint other_footprint = FootprintOf(other, *format, *kv_dtype, request.context_tokens,
                                                    request.batch, platform, n);
      const double total_gib = other_footprint.total_gib();
      ranked.push_back(Ranked{std::abs(total_gib - sim.total_gib), total_gib,
                              other_footprint.per_device_gib(), i});
    }
    const std::size_t shown = std::min(kMaxRelated, ranked.size());
    // Nearest first; ties keep catalog order, as a stable sort would.
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown), ranked.end(),
                      [](const Ranked& a, const Ranked& b) {
                        return a.distance != b.distance ? a.distance < b.distance : a.index < b.index;
                      });
    for (std::size_t i = 0; i < shown; ++i) {
      const ModelSpec& other = catalog.models[ranked[i].index];
      response.related.push_back(RelatedModel{other.id, other.name, other.params_total,
                                              ranked[i].total_gib,
                                              RateFit(ranked[i].per_device_gib, device->memory_gib)});
    }
  }

  if (wanted(kSectionCommands)) {
    response.commands = BuildCommands(CommandInputs{model, format, kv_dtype, device, n,
                                                  request.context_tokens, request.batch,
                                                  sim.kv_cache_gib, sim.per_device_gib,
                                                  sim.max_context_tokens});
  }
  return response;
}

Result<SweepResult> Sweep(const SweepRequest& request, const Catalog& catalog) {
  const KvDtype* kv_dtype = FindKvDtype(request.kv_dtype);
  if (kv_dtype == nullptr) {
    return Error{"unknown_kv_dtype",
                 "Unknown KV cache type " + Quoted(request.kv_dtype) + ": use fp16, fp8, q8_0 or q4_0.",
                 "kv_dtype"};
  }
  SweepResult result;
  result.request = request;
  for (const ModelSpec& model : catalog.models) result.models.push_back(&model);
  for (const QuantFormat& format : QuantFormats()) result.formats.push_back(&format);
  for (const Device& device : catalog.devices) result.devices.push_back(&device);
  result.cells.reserve(result.models.size() * result.formats.size() * result.devices.size());
  for (const ModelSpec* model : result.models) {
    // Per model: the KV cache and the naive overhead inputs do not depend on format or device.
    const KvLayout layout = KvLayoutOf(*model, kv_dtype->bytes_per_element);
    const double kv_cache_bytes = KvCacheBytes(layout, request.context_tokens, request.batch);
    for (const QuantFormat* format : result.formats) {
      const double weights_gib = WeightsGib(model->params_total, format->bits_per_weight);
      for (const Device* device : result.devices) {
        const Platform platform = PlatformOf(*device);
        const Footprint footprint{weights_gib, kv_cache_bytes,
                                  PerDeviceOverheadGib(*model, weights_gib, platform, 1), 1};
        SweepCell cell;
        cell.total_gib = footprint.total_gib();
        cell.fit = RateFit(cell.total_gib, device->memory_gib);
        cell.decode_tps = DecodeTokensPerSecond(*device, model->params_active,
                                                format->bits_per_weight, kv_cache_bytes, 1);
        cell.max_context_tokens = MaxContextTokens(layout, request.batch, weights_gib,
                                                   footprint.device_overhead_gib,
                                                   device->memory_gib, platform, 1);
        result.cells.push_back(cell);
      }
    }
  }
  return result;
}

}  // namespace vramcalc
