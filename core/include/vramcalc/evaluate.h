// One scenario in, everything one frame of the page needs out: the simulator, the
// quantization matrix, the hardware table, related models and the commands. All of it is data
// (ids and unrounded numbers); the page and the Markdown writer localize.
#ifndef VRAMCALC_EVALUATE_H_
#define VRAMCALC_EVALUATE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vramcalc/catalog.h"
#include "vramcalc/commands.h"
#include "vramcalc/estimate.h"
#include "vramcalc/host.h"
#include "vramcalc/offload.h"
#include "vramcalc/quant_format.h"
#include "vramcalc/result.h"
#include "vramcalc/runtime_profile.h"
#include "vramcalc/serving.h"
#include "vramcalc/vocab.h"

namespace vramcalc {

inline constexpr std::string_view kDefaultModelId = "glm-4-32b-0414";  // the reference page's
inline constexpr std::string_view kCustomDeviceId = "custom";  // a device given by its figures
inline constexpr int64_t kDefaultContextTokens = 32768;
// Serving's default prompt and answer: a long chat turn or a retrieval prompt, and a reply.
inline constexpr int64_t kDefaultPromptTokens = 4096;
inline constexpr int64_t kDefaultOutputTokens = 512;
inline constexpr double kDefaultMinUserTps = 20;
inline constexpr double kMaxMinUserTps = 10000;
inline constexpr int64_t kMaxRequestContextTokens = kMaxContextTokens;  // 134,217,728
inline constexpr int64_t kMaxRequestBatch = 1024;
inline constexpr std::size_t kMaxCompareDevices = 64;

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
  kSectionCard = 1u << 7,  // where to get the model: its checkpoint, Ollama tags and release
  kSectionOffload = 1u << 8,  // when it does not fit: what runs with a part in host RAM
  kSectionPool = 1u << 9,     // the KV pool an engine preallocates (vLLM, SGLang)
  kSectionServing = 1u << 10,  // prompt processing and time to first token (serving.h)
};
inline constexpr uint32_t kAllSections = (1u << 11) - 1;
inline constexpr uint32_t kContextSections =
    kSectionSimulator | kSectionHardware | kSectionRelated | kSectionCommands | kSectionOffload | kSectionPool |
    kSectionServing;
inline constexpr Named<Section> kSectionNames[] = {
    {kSectionModel, "model"},       {kSectionSimulator, "simulator"}, {kSectionCurve, "curve"},
    {kSectionMatrix, "matrix"},     {kSectionHardware, "hardware"},   {kSectionRelated, "related"},
    {kSectionCommands, "commands"}, {kSectionCard, "card"},        {kSectionOffload, "offload"},
    {kSectionPool, "pool"},         {kSectionServing, "serving"}};
inline constexpr Vocabulary<Section> kSections{kSectionNames};

// The request's fields, once: their names in a request, their short names in the page's link,
// the widget's attributes and the CLI's flags, and what they mean (kRequestFieldHelp, below).
// The parser, its error messages, the CLI's help and the catalog the page reads all come from
// here.
enum class RequestValue { kText, kCount, kNumber, kFlag, kList };
struct RequestField {
  std::string_view name;        // "kv_dtype"
  std::string_view short_name;  // "kv" (the link, the widget, `--kv`)
  RequestValue value;           // a string, a whole number, or an array (of strings)
};
inline constexpr RequestField kRequestFields[] = {
    {"model", "model", RequestValue::kText},
    {"format", "format", RequestValue::kText},
    {"context", "context", RequestValue::kCount},
    {"batch", "batch", RequestValue::kCount},
    {"kv_dtype", "kv", RequestValue::kText},
    {"device", "device", RequestValue::kText},
    {"device_count", "gpus", RequestValue::kCount},
    {"compare", "compare", RequestValue::kList},
    {"runtime", "runtime", RequestValue::kText},
    {"memory_utilization", "util", RequestValue::kNumber},
    {"max_num_batched_tokens", "mnbt", RequestValue::kCount},
    {"ubatch", "ubatch", RequestValue::kCount},
    {"flash_attention", "fa", RequestValue::kFlag},
    {"parallel", "parallel", RequestValue::kCount},
    {"host_memory", "ram", RequestValue::kNumber},
    {"host_memory_type", "ramtype", RequestValue::kText},
    {"host_bandwidth", "rambw", RequestValue::kNumber},
    {"prompt_tokens", "prompt", RequestValue::kCount},
    {"output_tokens", "output", RequestValue::kCount},
    {"min_user_tps", "usertps", RequestValue::kNumber},
    {"sections", "sections", RequestValue::kList},
};
// What each field means, with {formats}, {kv_dtypes}, {runtimes}, {sections} … filled in from
// the tables (RequestFieldHelp): in kRequestFields' order (checked below), in a table of its own
// so that what only reads requests (the first wasm module) carries none of it.
struct RequestFieldHelpText {
  std::string_view name;
  std::string_view help;
};
inline constexpr RequestFieldHelpText kRequestFieldHelp[] = {
    {"model", "catalog id, e.g. \"{model}\" (default), or a config.json or model description object"},
    {"format", "{formats} (default {format})"},
    {"context", "tokens per sequence, 1 to {max_context} (default {context})"},
    {"batch", "concurrent sequences, 1 to {max_batch} (default 1)"},
    {"kv_dtype", "KV cache type: {kv_dtypes} (default {kv_dtype})"},
    {"device",
     "device id, e.g. \"rtx-3090-24gb\" (default: the format's recommended class), or your own: "
     "\"custom:<memory GB>:<bandwidth GB/s>[:<FP16 TFLOPS>[/<INT8 TOPS>]]:<cuda|rocm|vulkan|metal>[+unified][@<compute "
     "capability>]:<name>\""},
    {"device_count", "identical devices, 1 to {max_devices}: llama.cpp and Ollama split the layers, vLLM and SGLang run tensor parallel (default: the recommended group)"},
    {"compare", "extra hardware-table rows: up to {max_compare} device ids"},
    {"runtime", "runtime profile: {runtimes} (default {runtime})"},
    {"memory_utilization",
     "vllm, sglang: share of device memory the engine takes, above 0 up to 1 (default: the engine's)"},
    {"max_num_batched_tokens",
     "vllm: tokens per scheduler step, 1 to {max_batched_tokens} (default: vLLM's for the device)"},
    {"ubatch", "llamacpp: physical batch -ub, 1 to {max_batched_tokens} (default 512)"},
    {"flash_attention", "llamacpp: flash attention, true or false (default true)"},
    {"parallel", "llamacpp, ollama: server slots, each with the whole context, 1 to {max_batch} (default: batch)"},
    {"host_memory", "the host's RAM in GB, for what does not fit on the GPU (default {host_memory})"},
    {"host_memory_type", "the host's RAM: {host_memory_types} (default {host_memory_type})"},
    {"host_bandwidth", "the host's RAM bandwidth in GB/s, instead of its type's (default: the type's)"},
    {"prompt_tokens", "serving: the prompt's tokens, 1 to {max_context} (default {prompt_tokens})"},
    {"output_tokens", "serving: the answer's tokens, 1 to {max_context} (default {output_tokens})"},
    {"min_user_tps", "serving: the decode rate each user gets at least, tok/s, above 0 up to 10,000 (default {min_user_tps})"},
    {"sections", "the parts to compute: {sections} (default: all)"},
};
constexpr bool HelpMatchesFields() {
  if (std::size(kRequestFieldHelp) != std::size(kRequestFields)) return false;
  for (std::size_t i = 0; i < std::size(kRequestFields); ++i) {
    if (kRequestFieldHelp[i].name != kRequestFields[i].name) return false;
  }
  return true;
}
static_assert(HelpMatchesFields(), "every request field needs its help, in kRequestFields' order");
// The field named `name` (or short-named, with `short_name`), else nullptr.
const RequestField* FindRequestField(std::string_view name, bool short_name = false);
// The help line of one field, its placeholders filled from the tables.
std::string RequestFieldHelp(const RequestField& field);

// A validated request. The parser fills the reference page's defaults.
struct Request {
  std::string model{kDefaultModelId};  // a catalog id, unless custom_model is set
  std::optional<ModelSpec> custom_model;  // from a pasted config.json (ParseHfConfig checked it)
  // none: the checkpoint's own format where the runtime offers it, else the runtime's default
  // (reference: Q4_K_M)
  std::optional<std::string> format;
  int64_t context_tokens = kDefaultContextTokens;
  int64_t batch = 1;
  std::string kv_dtype{kDefaultKvDtypeId};
  std::optional<std::string> device;  // none: the recommended class of `format`
  // A device given by its figures ("custom:20:800:vulkan:Name" or an object): `device` is then
  // "custom". A response points at it, so the request must outlive the response.
  std::optional<Device> custom_device;
  // Identical devices in tensor parallel, 1 to 8. Unset with no device: the recommended
  // placement (the smallest group that fits, as the matrix recommends); unset with a device: 1.
  std::optional<int64_t> device_count;
  std::vector<std::string> compare;    // extra hardware-table rows (device ids)
  std::string runtime{kDefaultRuntimeId};
  // Engine options (runtime_profile.h EngineOption); unset: the engine's default.
  std::optional<double> memory_utilization;
  std::optional<int64_t> max_num_batched_tokens;
  std::optional<int64_t> ubatch;
  std::optional<bool> flash_attention;
  std::optional<int64_t> parallel;
  // The host (host.h): its RAM in GiB, and its bandwidth from a type, or a figure of one's own,
  // which replaces the type's.
  double host_memory_gib = kDefaultHostMemoryGib;
  std::optional<std::string> host_memory_type;
  std::optional<double> host_bandwidth_gbps;
  // Serving (serving.h): a prompt and its answer.
  int64_t prompt_tokens = kDefaultPromptTokens;
  int64_t output_tokens = kDefaultOutputTokens;
  double min_user_tps = kDefaultMinUserTps;  // "users served at ≥ X tok/s each"
  uint32_t sections = kAllSections;   // which parts to compute and return
};
inline constexpr int64_t kMaxRequestBatchedTokens = 1 << 20;

struct SimulatorResult {
  const Device* device = nullptr;  // into the catalog
  // What "auto" picks for the format (1.8: the ladder's first class that holds it at 32K, on one
  // device or a group), whatever device was asked for; null when none does.
  const Device* recommended = nullptr;
  std::string_view runtime;        // the runtime profile's id
  const QuantFormat* format = nullptr;
  const KvDtype* kv_dtype = nullptr;
  int64_t context_tokens = 0;
  int64_t batch = 1;
  int64_t device_count = 1;
  double weights_gib = 0;   // all devices together
  double kv_cache_gib = 0;  // all devices together
  double state_gib = 0;     // recurrent layers' state, all sequences and devices together
  double vision_gib = 0;    // the vision and audio towers the engine loads, all devices together
  double overhead_gib = 0;  // all devices together, including tensor-parallel buffers
  double total_gib = 0;     // weights + KV cache + state + overhead
  double per_device_gib = 0;  // total / device_count: what each device must hold
  // The breakdown bar's shares as displayed: weights, KV cache and state rounded half-up to
  // 0.1 %, the overhead the remainder of 100, so they always add up to 100 (reference:
  // 83/8.8/0/8.2).
  double share_weights_pct = 0;
  double share_kv_cache_pct = 0;
  double share_state_pct = 0;
  double share_vision_pct = 0;
  double share_overhead_pct = 0;
  double usage_pct = 0;  // 100 × per device / capacity, unrounded
  // What each device may hold under the runtime (the reference: its memory), and the memory
  // the engine sees (an Apple device's working set for the engine profiles).
  double capacity_gib = 0;
  double visible_gib = 0;
  double host_gib = 0;  // in host RAM beside the devices (llama.cpp's token embedding)
  OverheadParts overhead_parts;  // one device's overhead by source
  double main_device_extra_gib = 0;  // on the device with the output layer only
  EngineSettings engine;             // the settings the estimate ran with
  double bits_per_weight = 0;        // effective: weights' bytes × 8 / parameters
  const DecodeRule* decode_rule = nullptr;  // what decode_tps follows (null: the reference formula)
  const DecodeCheck* decode_check = nullptr;  // without a rule: the engine's runs there, if any
  Fit fit = Fit::kComfortable;
  double decode_tps = 0;
  int64_t max_context_tokens = 0;
  bool max_context_capped = false;  // memory allows more than kMaxContextTokens
  double kv_naive_mha_gib = 0;
  double kv_saving_pct = 0;
  KvCompression kv_compression = KvCompression::kNone;
};

// The recommended class at 32K: one device when one fits; else the smallest tensor-parallel
// group (2, 4 or 8) of one non-Apple ladder device; none when even 8 do not suffice.
struct Placement {
  const Device* device = nullptr;
  int64_t device_count = 1;
};

struct MatrixRow {
  const QuantFormat* format = nullptr;
  double bits_per_weight = 0;  // effective for this model (the reference: the format's)
  double weights_gib = 0;
  std::array<double, std::size(kMatrixContexts)> total_gib{};  // at each of kMatrixContexts
  std::optional<Placement> recommended;
};

// The hardware table: the catalog's table rows, then the request's `compare` devices, then
// the simulator's device when it is not among them, so the selected device always has a row.
struct HardwareRow {
  const Device* device = nullptr;
  double needed_gib = 0;  // per device, with the request's device_count
  double capacity_gib = 0;  // what the runtime may use of one such device
  double usage_pct = 0;
  Fit fit = Fit::kComfortable;
  double decode_tps = 0;
  // Where it does not fit and the engine offloads (llama.cpp, Ollama): the decode rate of the plan
  // that runs it with a part in the host's RAM (section 7, as the simulator's verdict); 0: none.
  double offload_decode_tps = 0;
  // Where the operating system's default lets the GPU use too little for it (estimate.h GpuMapOf):
  // a Mac that fits only with its wired limit raised (rated "no fit"), an APU under Linux that
  // fits once its GTT limit is raised; none otherwise.
  std::optional<GpuMap> gpu_map;
};

// The catalog models nearest in total memory at the request's format, context, batch, KV
// type, device and device count: at most five, nearest first.
struct RelatedModel {
  const ModelSpec* model = nullptr;  // into the catalog
  double total_gib = 0;
  Fit fit = Fit::kComfortable;
  // The context asked is longer than the model's own maximum: its total is what the memory
  // would be, and the page says the model does not go that far.
  bool beyond_max_position = false;
  double offload_decode_tps = 0;  // as HardwareRow's, on the request's device
};

// Memory against context for the simulator's format and device, for the page's plot.
struct CurvePoint {
  int64_t context_tokens = 0;
  double kv_cache_gib = 0;
  double total_gib = 0;  // weights + KV cache + state + overhead (the overhead constant in S)
  double decode_tps = 0;  // batch 1 at this context: decoding slows as the cache grows
};

// Contexts the curve samples: four per octave from 512 to 1,048,576 tokens (or the next power
// of two above the model's max position, when that is larger), plus the edge of every window,
// in ascending order.
std::vector<int64_t> CurveContexts(const ModelSpec& model);

// When the scenario does not fit its devices, the nearest ways to make it run (issue 31, item 7),
// each absent where none does: the most precise format smaller than the chosen one that fits at
// this context; the longest context, from 1,024 tokens on in steps of 1,024, the chosen format
// fits; the offload plan that runs it (section 7: the engine's own, else llama.cpp's with the same
// host, in the same format where llama.cpp offers it, else in its default); and the catalog device
// of the least memory (then the most bandwidth) that holds it on its own, of those the engine runs
// on.
struct Ways {
  const QuantFormat* format = nullptr;
  double format_total_gib = 0;
  int64_t context_tokens = 0;  // 0: none
  const RuntimeProfile* offload_runtime = nullptr;
  const QuantFormat* offload_format = nullptr;
  double offload_decode_tps = 0;
  const Device* device = nullptr;
  double device_total_gib = 0;
};

// Only the request's sections are filled; the simulator is always computed (the related
// models and the commands are measured against it).
struct Response {
  uint32_t sections = kAllSections;
  ModelSpec model;
  SimulatorResult simulator;
  std::vector<CurvePoint> curve;
  std::vector<MatrixRow> matrix;
  std::vector<HardwareRow> hardware;
  std::vector<RelatedModel> related;
  std::vector<Command> commands;
  std::optional<Offload> offload;  // none: the model fits, or the engine or device does not offload
  std::optional<Ways> ways;        // with the offload section; none: the model fits
  // With the offload section: what an APU's GPU must map beyond its default (estimate.h GpuMapOf).
  std::optional<GpuMap> gpu_map;
  std::optional<KvPool> pool;      // none: the engine preallocates none
  std::optional<Serving> serving;
};

// Evaluates `request` against `catalog`, which must outlive the response (it points into it).
// The models must pass ValidateModel, as the estimate assumes (estimate.h): ParseCatalog and
// BuiltinCatalog check every entry, ParseHfConfig the model it reads into custom_model.
// Errors: unknown_model, unknown_format, unknown_kv_dtype, unknown_device, unknown_runtime,
// unsupported_device, unsupported_device_count, unsupported_option, unsupported_combination
// (each naming its field).
// Every section (the curve, the hardware table, the related models, the commands and the card
// with them): defined beside their code, in core/src/lower_sections.cc.
Result<Response> Evaluate(const Request& request, const Catalog& catalog);

// Fills the sections after the simulator that a response asks for (core/src/lower_sections.h).
using LowerSectionsBuilder = std::optional<Error> (*)(const Scenario&, const Request&, const Catalog&, Response&);
// Evaluate with the sections after the simulator built by `lower`; null leaves them out of the
// program (vramcalc.wasm, whose bytes the page's first numbers wait for), which then answers a
// request for any of them with section_unavailable (field sections) and does not check the
// host's fields, which only those sections use.
Result<Response> Evaluate(const Request& request, const Catalog& catalog, LowerSectionsBuilder lower);

// The whole catalog at once: every model × format × device, each device alone (no tensor
// parallelism), at one context, batch, KV cache type and runtime. What `vramcalc sweep` and
// the wasm module's sweep() return, for questions across the catalog ("what runs on this card?").
struct SweepRequest {
  int64_t context_tokens = kDefaultContextTokens;
  int64_t batch = 1;
  std::string kv_dtype{kDefaultKvDtypeId};
  std::string runtime{kDefaultRuntimeId};
  // The devices to cover (the request's device, then its compare list), in that order; empty:
  // every catalog device the runtime runs on. A device of one's own is custom_device.
  std::vector<std::string> devices;
  std::optional<Device> custom_device;
  int64_t device_count = 1;  // identical devices in tensor parallel, as in a request
  // The host beside each device, for the offload plans (as a request's host_memory,
  // host_memory_type and host_bandwidth).
  double host_memory_gib = kDefaultHostMemoryGib;
  std::optional<std::string> host_memory_type;
  std::optional<double> host_bandwidth_gbps;
};

// A format that only quantizes experts (moe_only) leaves a dense model's cell empty: 0 and
// "no fit". The largest context stops at the model's own maximum (max_position_embeddings);
// max_context_capped says memory would allow more. A model whose maximum is below the
// request's context still gets its memory figures: a reader lists it apart, never as fitting.
struct SweepCell {
  double total_gib = 0;  // what the device must hold, as the simulator's total
  Fit fit = Fit::kComfortable;
  double decode_tps = 0;
  int64_t max_context_tokens = 0;
  bool max_context_capped = false;
  double ttft_s = 0;  // a prompt of the whole context, where it fits (serving.h TimeToFirstToken)
};

// A model that fits a device in no format, under an engine that offloads to the host's RAM
// (section 7): the plan its --fit makes in the engine's default format, as the simulator's offload
// block shows it for that format.
struct SweepOffload {
  const QuantFormat* format = nullptr;  // nullptr: no plans (the model fits, or nothing offloads)
  std::optional<OffloadPlan> plan;      // the plan that runs; none: the host's RAM is too small
                                        // too, or not even the smallest split fits the device
};

struct SweepResult {
  SweepRequest request;
  std::vector<const ModelSpec*> models;  // catalog order; point into the catalog
  std::vector<const QuantFormat*> formats;
  std::vector<const Device*> devices;  // into the catalog, or own_device
  std::unique_ptr<const Device> own_device;  // the request's custom device (a stable address)
  // models.size() × formats.size() × devices.size(), device fastest:
  // cells[(model × formats + format) × devices + device].
  std::vector<SweepCell> cells;
  // models.size() × devices.size(), device fastest: offloads[model × devices + device].
  std::vector<SweepOffload> offloads;
  // The cells whose operating system must let the GPU use more (estimate.h GpuMapOf), ascending:
  // those that fit an APU's whole memory but need its GPU to map more than Linux's default, each
  // with the whole GiB `amd-ttm --set` takes (set_mib 0), and those that fit a Mac only once its
  // wired limit is raised (rated "no fit", their first token as once raised), each with the MiB
  // iogpu.wired_limit_mb takes (set_gib 0).
  std::vector<int64_t> gpu_map_cells;
  std::vector<int64_t> gpu_map_set_gib;
  std::vector<int64_t> gpu_map_set_mib;
};

// The setting of gpu_map_cells[k] (its limit and value, for GpuMapCommand; the amounts are not
// kept).
GpuMap GpuMapAt(const SweepResult& sweep, std::size_t k);

// Errors: unknown_kv_dtype (field kv_dtype), unknown_runtime (field runtime), unknown_device
// and unsupported_device (field device or compare), unsupported_device_count,
// unknown_host_memory_type (field host_memory_type).
Result<SweepResult> Sweep(const SweepRequest& request, const Catalog& catalog);

}  // namespace vramcalc

#endif  // VRAMCALC_EVALUATE_H_
