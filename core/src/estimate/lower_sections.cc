// The sections after the simulator (lower_sections.h): built from the resolved scenario and
// the simulator's figures (io/response_writer.h writes them after it).
#include "estimate/lower_sections.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "vramcalc/commands.h"
#include "vramcalc/i18n.h"
#include "vramcalc/offload.h"
#include "vramcalc/serving.h"

namespace vramcalc::internal {
namespace {

// The decode rate of the plan that runs a scenario that does not fit with a part in the host's
// RAM, as the verdict's (OffloadOf: the engine's --fit choice); 0 where it fits, where the engine
// does not offload or where no plan fits the host.
double OffloadDecodeTps(const Scenario& s) {
  const std::optional<Offload> offload = OffloadOf(s);
  const OffloadPlan* plan = offload ? offload->Chosen() : nullptr;
  return plan != nullptr ? plan->decode_tps : 0;
}

// The hardware table at the scenario's format, context and device count.
std::vector<HardwareRow> BuildHardware(const Scenario& s, const Request& request, const Catalog& catalog) {
  std::vector<const Device*> devices;
  const auto add = [&devices](const Device* device) {
    if (std::find(devices.begin(), devices.end(), device) == devices.end()) devices.push_back(device);
  };
  for (const std::string& id : catalog.hardware_table) add(catalog.FindDevice(id));
  for (const std::string& id : request.compare) add(catalog.FindDevice(id));
  add(s.device);
  std::vector<HardwareRow> rows;
  for (const Device* device : devices) {
    if (!s.runtime->RunsOn(*device)) continue;
    Scenario row_scenario = s;
    row_scenario.device = device;
    const Footprint footprint = FootprintOf(row_scenario);
    HardwareRow row;
    row.device = device;
    row.needed_gib = footprint.per_device_gib();
    row.capacity_gib = CapacityGib(row_scenario);
    row.usage_pct = 100.0 * row.needed_gib / row.capacity_gib;
    row.fit = RateFit(*s.runtime, row.needed_gib, row.capacity_gib);
    row.decode_tps = DecodeTokensPerSecond(row_scenario, footprint);
    if (row.fit == Fit::kNoFit) row.offload_decode_tps = OffloadDecodeTps(row_scenario);
    row.gpu_map = GpuMapOf(row_scenario, row.needed_gib);
    rows.push_back(row);
  }
  return rows;
}

// Related models: the catalog's nearest in total memory at the same settings and device.
// (Catalog entries were validated when the catalog was read.)
std::vector<RelatedModel> FindRelated(const Scenario& s, double total_gib, const Catalog& catalog) {
  constexpr std::size_t kMaxRelated = 5;
  struct Ranked {
    double distance;
    RelatedModel related;
    std::size_t index;
  };
  std::vector<Ranked> ranked;
  ranked.reserve(catalog.models.size());
  for (std::size_t i = 0; i < catalog.models.size(); ++i) {
    const ModelSpec& other = catalog.models[i];
    if (other.id == s.model->id) continue;
    Scenario other_scenario = s;
    other_scenario.model = &other;
    const Footprint footprint = FootprintOf(other_scenario);
    const double other_total = footprint.total_gib();
    ranked.push_back(Ranked{std::abs(other_total - total_gib),
                            RelatedModel{&other, other_total,
                                         RateFit(*s.runtime, footprint.per_device_gib(), CapacityGib(s)),
                                         other.BeyondMaxPosition(s.context_tokens)},
                            i});
  }
  const std::size_t shown = std::min(kMaxRelated, ranked.size());
  // Nearest first; ties keep catalog order, as a stable sort would.
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown), ranked.end(),
                    [](const Ranked& a, const Ranked& b) {
                      return a.distance != b.distance ? a.distance < b.distance : a.index < b.index;
                    });
  std::vector<RelatedModel> related;
  for (std::size_t i = 0; i < shown; ++i) {
    RelatedModel row = ranked[i].related;
    if (row.fit == Fit::kNoFit && !row.beyond_max_position) {
      Scenario other_scenario = s;
      other_scenario.model = row.model;
      row.offload_decode_tps = OffloadDecodeTps(other_scenario);
    }
    related.push_back(row);
  }
  return related;
}

// Whether `s` rates anything but "no fit" on its devices.
bool Runs(const Scenario& s) { return RateFit(*s.runtime, FootprintOf(s).per_device_gib(), CapacityGib(s)) != Fit::kNoFit; }

bool Offers(std::span<const std::string_view> ids, std::string_view id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// Ways: the most precise smaller format of the engine's that fits, and its total.
void SmallerFormat(Scenario s, Ways& ways) {
  const double bits = s.format->bits_per_weight;
  for (const std::string_view id : s.runtime->formats) {
    const QuantFormat* format = FindQuantFormat(id);
    if (format->bits_per_weight >= bits || (format->moe_only && !s.model->moe)) continue;
    if (ways.format != nullptr && format->bits_per_weight <= ways.format->bits_per_weight) continue;
    s.format = format;
    if (!Runs(s)) continue;
    ways.format = format;
    ways.format_total_gib = FootprintOf(s).total_gib();
  }
}

// Ways: the plan that runs it with a part in host RAM: the engine's (`own`, the offload section's
// plans, already computed), else llama.cpp's.
void OffloadWay(Scenario s, const std::optional<Offload>& own, Ways& ways) {
  const bool offloads = s.runtime->offload != nullptr;
  std::optional<Offload> llamacpp;
  if (!offloads) {
    s.runtime = FindRuntimeProfile("llamacpp");
    if (!Offers(s.runtime->formats, s.format->id)) s.format = FindQuantFormat(s.runtime->default_format);
    if (!Offers(s.runtime->kv_dtypes, s.kv_dtype->id)) s.kv_dtype = FindKvDtype(s.runtime->kv_dtypes.front());
    s.engine = EngineSettings{};
    if (s.device != nullptr && s.runtime->RunsOn(*s.device)) llamacpp = OffloadOf(s);
  }
  const std::optional<Offload>& offload = offloads ? own : llamacpp;
  const OffloadPlan* plan = offload ? offload->Chosen() : nullptr;
  if (plan == nullptr) return;
  ways.offload_runtime = s.runtime;
  ways.offload_format = s.format;
  ways.offload_decode_tps = plan->decode_tps;
}

// Ways: the catalog device of the least memory (then the most bandwidth) that holds it alone.
void DeviceThatFits(Scenario s, const Catalog& catalog, Ways& ways) {
  const Device* current = s.device;
  s.device_count = 1;
  for (const Device& device : catalog.devices) {
    if (&device == current || !s.runtime->RunsOn(device)) continue;
    const Device* best = ways.device;
    if (best != nullptr && (device.memory_gib > best->memory_gib ||
                            (device.memory_gib == best->memory_gib && device.bandwidth_gbps <= best->bandwidth_gbps))) {
      continue;
    }
    s.device = &device;
    if (!Runs(s)) continue;
    ways.device = &device;
    ways.device_total_gib = FootprintOf(s).per_device_gib();
  }
}

// The longest context below the scenario's, in steps of 1,024 tokens, at which `runs` holds (by
// bisection: the footprint grows with the context); 0 when none does.
template <typename Predicate>
int64_t LongestBelow(Scenario s, Predicate runs_at) {
  constexpr int64_t kStep = 1024;
  int64_t runs = 0;  // steps of kStep known to run
  int64_t fails = (s.context_tokens - 1) / kStep + 1;  // known not to run, or past the context
  while (fails - runs > 1) {
    const int64_t mid = (runs + fails) / 2;
    s.context_tokens = mid * kStep;
    (runs_at(s) ? runs : fails) = mid;
  }
  return runs * kStep;
}

// Ways: the longest context below the scenario's at which it runs, as the verdict rates it.
int64_t LongestRunning(const Scenario& s) { return LongestBelow(s, Runs); }

// Whether it runs on the devices alone or with a plan that puts a part in the host's RAM.
bool RunsWithOffload(const Scenario& s) { return Runs(s) || OffloadDecodeTps(s) > 0; }

// The longest context at which it runs with offload: the model's maximum where the engine stops
// there (every engine that offloads does), else the longest below it in steps of 1,024 tokens.
int64_t LongestWithOffload(Scenario s) {
  s.context_tokens = s.runtime->context_within_model ? s.model->max_position_embeddings : kMaxContextTokens;
  return RunsWithOffload(s) ? s.context_tokens : LongestBelow(s, RunsWithOffload);
}

// The nearest ways to make a scenario that does not fit run (evaluate.h Ways); none when it fits.
// `own`: the engine's offload plans for it (the offload section's, OffloadOf(s)).
std::optional<Ways> WaysOf(const Scenario& s, const Catalog& catalog, const SimulatorResult& sim,
                           const std::optional<Offload>& own) {
  if (sim.fit != Fit::kNoFit) return std::nullopt;
  Ways ways;
  SmallerFormat(s, ways);
  ways.context_tokens = LongestRunning(s);
  OffloadWay(s, own, ways);
  DeviceThatFits(s, catalog, ways);
  return ways;
}

}  // namespace

std::optional<Error> ResolveHost(const Request& request, Scenario& s) {
  const std::string_view id = request.host_memory_type ? std::string_view(*request.host_memory_type) : kDefaultHostMemoryTypeId;
  const HostMemoryType* type = FindHostMemoryType(id);
  if (type == nullptr) {
    return Error{"unknown_host_memory_type",
                 "Unknown host memory type \"" + std::string(Clipped(id, 64)) + "\": use " +
                     JoinIds(HostMemoryTypes(), [](const HostMemoryType& t) { return t.id; }, "or", false) + ".",
                 "host_memory_type"};
  }
  s.host.memory_gib = request.host_memory_gib;
  s.host.type = request.host_bandwidth_gbps ? nullptr : type;
  s.host.bandwidth_gbps = request.host_bandwidth_gbps.value_or(type->bandwidth_gbps());
  return std::nullopt;
}

std::optional<Error> BuildLowerSections(const Scenario& scenario, const Request& request, const Catalog& catalog,
                                        Response& response) {
  Scenario s = scenario;
  if (auto error = ResolveHost(request, s)) return error;
  const SimulatorResult& sim = response.simulator;
  if ((request.sections & kSectionMatrix) != 0) response.matrix = BuildMatrix(scenario, catalog);
  if ((request.sections & kSectionPool) != 0) response.pool = KvPoolOf(s);
  if ((request.sections & kSectionCurve) != 0) response.curve = BuildCurve(s);
  if ((request.sections & kSectionHardware) != 0) response.hardware = BuildHardware(s, request, catalog);
  if ((request.sections & kSectionRelated) != 0) response.related = FindRelated(s, sim.total_gib, catalog);
  const bool offload = (request.sections & (kSectionOffload | kSectionCommands)) != 0;
  if (offload) response.offload = OffloadOf(s);
  // The offload section's alone: the commands do not read it.
  if (response.offload && (request.sections & kSectionOffload) != 0) {
    response.offload->max_context_tokens = LongestWithOffload(s);
  }
  if ((request.sections & kSectionOffload) != 0) response.ways = WaysOf(s, catalog, sim, response.offload);
  if (offload) response.gpu_map = GpuMapOf(s, sim.per_device_gib);
  if (response.offload) FillPromptTimes(s, request.prompt_tokens, *response.offload);
  const OffloadPlan* plan = response.offload ? response.offload->Chosen() : nullptr;
  if ((request.sections & kSectionCommands) != 0) {
    response.commands =
        BuildCommands(CommandInputs{&s, sim.kv_cache_gib, sim.per_device_gib, sim.max_context_tokens, plan, sim.vision_gib,
                                    response.gpu_map ? &*response.gpu_map : nullptr});
  }
  if ((request.sections & kSectionServing) != 0) {
    // A model that does not fit is served with the offload plan that runs it (section 8.3).
    const bool fits = sim.fit != Fit::kNoFit;
    const std::optional<Offload> own = fits || offload ? std::nullopt : OffloadOf(s);
    const OffloadPlan* runs = own ? own->Chosen() : plan;
    response.serving = ServingOf(s, request.prompt_tokens, request.output_tokens, fits, request.min_user_tps, runs);
  }
  return std::nullopt;
}

}  // namespace vramcalc::internal

namespace vramcalc {

Result<Response> Evaluate(const Request& request, const Catalog& catalog) {
  return Evaluate(request, catalog, &internal::BuildLowerSections);
}

}  // namespace vramcalc
