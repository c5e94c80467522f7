// One scenario in, everything one frame of the page needs out: the simulator, the
// quantization matrix, the hardware table, related models and the commands.
#ifndef VRAMCALC_EVALUATE_H_
#define VRAMCALC_EVALUATE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vramcalc/catalog.h"
#include "vramcalc/commands.h"
#include "vramcalc/estimate.h"
#include "vramcalc/i18n.h"
#include "vramcalc/quant_format.h"
#include "vramcalc/result.h"

namespace vramcalc {

inline constexpr int64_t kMaxRequestContextTokens = kMaxContextTokens;  // 134,217,728
inline constexpr int64_t kMaxRequestBatch = 1024;

// The parts of a response, as a bit set. A request may ask for a subset ("sections"): the
// page asks for everything when the model or a setting changes, and on a context change only
// for what depends on the context (kContextSections), keeping its last model card, curve and
// matrix, which do not.
enum Section : uint32_t {
  kSectionModel = 1u << 0,
  kSectionSimulator = 1u << 1,
  kSectionCurve = 1u << 2,
  kSectionMatrix = 1u << 3,
  kSectionHardware = 1u << 4,
  kSectionRelated = 1u << 5,
  kSectionCommands = 1u << 6,
};
inline constexpr uint32_t kAllSections = (1u << 7) - 1;
inline constexpr uint32_t kContextSections =
    kSectionSimulator | kSectionHardware | kSectionRelated | kSectionCommands;
// The request names, in the bit order above.
inline constexpr std::string_view kSectionNames[] = {"model",    "simulator", "curve",   "matrix",
                                                     "hardware", "related",   "commands"};

// A validated request. The parser fills the reference page's defaults.
struct Request {
  std::string model;  // a catalog id, unless custom_model is set
  std::optional<ModelSpec> custom_model;  // from a pasted config.json (ParseHfConfig)
  std::string format{kDefaultFormatId};
  int64_t context_tokens = 32768;
  int64_t batch = 1;
  std::string kv_dtype{kDefaultKvDtypeId};
  std::optional<std::string> device;  // none: the recommended class of `format`
  // Identical devices in tensor parallel, 1 to 8. Unset with no device: the recommended
  // placement (the smallest group that fits, as the matrix recommends); unset with a device: 1.
  std::optional<int64_t> device_count;
  std::vector<std::string> compare;    // extra hardware-table rows (device ids)
  Lang lang = Lang::kDe;
  uint32_t sections = kAllSections;   // which parts to compute and return
};

struct SimulatorResult {
  std::string device;  // device id
  std::string device_name;
  double memory_gib = 0;
  double bandwidth_gbps = 0;
  std::string format;
  std::string kv_dtype;
  int64_t context_tokens = 0;
  int64_t batch = 1;
  int64_t device_count = 1;
  double weights_gib = 0;   // all devices together
  double kv_cache_gib = 0;  // all devices together
  double overhead_gib = 0;  // all devices together, including tensor-parallel buffers
  double total_gib = 0;     // weights + KV cache + overhead
  double per_device_gib = 0;  // total / device_count: what each device must hold
  // The breakdown bar's shares as displayed: weights and KV rounded half-up to 0.1 %, the
  // overhead the remainder of 100, so the three always add up to 100 (reference: 83/8.8/8.2).
  double share_weights_pct = 0;
  double share_kv_cache_pct = 0;
  double share_overhead_pct = 0;
  double usage_pct = 0;  // 100 × per device / memory, unrounded
  Fit fit = Fit::kComfortable;
  double decode_tps = 0;
  int64_t max_context_tokens = 0;
  bool max_context_capped = false;  // memory allows more than kMaxContextTokens
  double kv_naive_mha_gib = 0;
  double kv_saving_pct = 0;
  KvCompression kv_compression = KvCompression::kNone;
};

struct MatrixRow {
  std::string format;
  std::string label;
  double bits_per_weight = 0;
  double weights_gib = 0;
  std::map<int64_t, double> total_gib;  // by context: 8192, 32768, 131072
  // The recommended class at 32K: one device when one fits; else the smallest tensor-parallel
  // group (2, 4 or 8) of one non-Apple ladder device; none when even 8 do not suffice.
  std::optional<std::string> recommended_device;
  int64_t recommended_device_count = 0;
};

// The hardware table: the catalog's table rows, then the request's `compare` devices, then
// the simulator's device when it is not among them, so the selected device always has a row.
struct HardwareRow {
  std::string device;
  std::string name;
  double memory_gib = 0;
  double bandwidth_gbps = 0;
  double needed_gib = 0;  // per device, with the request's device_count
  double usage_pct = 0;
  Fit fit = Fit::kComfortable;
  double decode_tps = 0;
};

// The catalog models nearest in total memory at the request's format, context, batch, KV
// type, device and device count: at most five, nearest first.
struct RelatedModel {
  std::string id;
  std::string name;
  double params_total = 0;
  double total_gib = 0;
  Fit fit = Fit::kComfortable;
};

// Memory against context for the simulator's format and device, for the page's plot.
struct CurvePoint {
  int64_t context_tokens = 0;
  double kv_cache_gib = 0;
  double total_gib = 0;  // weights + KV cache + overhead (the simulator's, constant in S)
};

// Contexts the curve samples: four per octave from 512 to 1,048,576 tokens (or the next power
// of two above the model's max position, when that is larger), plus the window edge of a
// sliding-window model, in ascending order.
std::vector<int64_t> CurveContexts(const ModelSpec& model);

// Only the request's sections are filled; the simulator is always computed (the related
// models and the commands are measured against it).
struct Response {
  uint32_t sections = kAllSections;
  ModelSpec model;
  Lang lang = Lang::kDe;
  SimulatorResult simulator;
  std::vector<CurvePoint> curve;
  std::vector<MatrixRow> matrix;
  std::vector<HardwareRow> hardware;
  std::vector<RelatedModel> related;
  Commands commands;
};

// Evaluates `request` against `catalog`. Errors: unknown_model, unknown_format,
// unknown_kv_dtype, unknown_device (field named), invalid_model (a catalog entry that cannot
// be computed).
Result<Response> Evaluate(const Request& request, const Catalog& catalog);

// The whole catalog at once: every model × format × device, each device alone (no tensor
// parallelism), at one context, batch and KV cache type. What `vramcalc sweep` and the wasm
// module's sweep() return, for questions across the catalog ("what runs on this card?").
struct SweepRequest {
  int64_t context_tokens = 32768;
  int64_t batch = 1;
  std::string kv_dtype{kDefaultKvDtypeId};
};

struct SweepCell {
  double total_gib = 0;  // what the device must hold, as the simulator's total
  Fit fit = Fit::kComfortable;
  double decode_tps = 0;
  int64_t max_context_tokens = 0;
};

struct SweepResult {
  SweepRequest request;
  std::vector<const ModelSpec*> models;  // catalog order; point into the catalog
  std::vector<const QuantFormat*> formats;
  std::vector<const Device*> devices;
  // models.size() × formats.size() × devices.size(), device fastest:
  // cells[(model × formats + format) × devices + device].
  std::vector<SweepCell> cells;
};

// Errors: unknown_kv_dtype (field kv_dtype).
Result<SweepResult> Sweep(const SweepRequest& request, const Catalog& catalog);

// The recommended class for a format (estimation model 1.8): the first ladder device, in
// ascending memory, on which the per-device total at 32K fits in 96 % of its memory when
// `device_count` of them share the model (Apple devices only for one). Empty: none fits.
std::optional<std::string> RecommendedDevice(const ModelSpec& model, const QuantFormat& format,
                                             const KvDtype& kv_dtype, int64_t batch,
                                             int64_t device_count, const Catalog& catalog);

// The recommended placement for a format: RecommendedDevice for 1 device, else for the
// smallest tensor-parallel group of 2, 4 or 8 that fits. Empty: not even 8 suffice.
struct Placement {
  std::string device;
  int64_t device_count = 1;
};
std::optional<Placement> RecommendedPlacement(const ModelSpec& model, const QuantFormat& format,
                                              const KvDtype& kv_dtype, int64_t batch,
                                              const Catalog& catalog);

// The fit label in `lang` ("Passt komfortabel", "Fits comfortably", ...).
std::string_view FitLabel(Fit fit, Lang lang);
std::string_view FitId(Fit fit);  // "comfortable", "tight", "no_fit"

}  // namespace vramcalc

#endif  // VRAMCALC_EVALUATE_H_
