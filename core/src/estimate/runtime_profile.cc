#include "vramcalc/runtime_profile.h"

#include <algorithm>
#include <limits>

namespace vramcalc {
namespace {

// ---- reference: the reference page's constants (core/ESTIMATION.md, sections 1.3 to 1.8) ----
// 1.3: discrete GPUs pay a CUDA/runtime constant, 3 % allocator slack on the weights and an
// activation workspace of 0.04 GiB plus one FP16 hidden vector for a 32,768-token window;
// Apple's unified memory has a smaller runtime and half the slack, and no 0.04.
constexpr OverheadRule kDiscreteOverhead{0.85, 0.03, 0.04, 32768};
constexpr OverheadRule kAppleOverhead{0.55, 0.015, 0.0, 32768};
constexpr std::string_view kReferenceFormats[] = {"FP16", "FP8",    "Q8_0",     "Q6_K",
                                                  "Q5_K_M", "Q4_K_M", "AWQ_INT4", "IQ4_XS"};
constexpr std::string_view kReferenceKv[] = {"fp16", "fp8", "q8_0", "q4_0"};
constexpr std::string_view kReferenceCommands[] = {"vllm", "ollama-modelfile", "ollama-env"};

// ---- the engines (core/ESTIMATION.md section 5) ---------------------------------------------------
// Until the engines' decode model lands (issue 13), every engine decodes with the reference's constants.
constexpr double kReferenceBandwidthUtilization = 0.736;
constexpr std::array<double, kDeviceClassCount> kReferenceDecodeEfficiency{0.85, 0.80, 0.90};

// llama.cpp and Ollama run GGUF files (llama.cpp src/llama-quant.cpp file types) and KV cache
// types f16, q8_0 and q4_0 (-ctk/-ctv, OLLAMA_KV_CACHE_TYPE).
constexpr std::string_view kGgufFormats[] = {"BF16",   "Q8_0",  "Q6_K",    "Q5_K_M", "Q4_K_M", "Q4_0",  "IQ4_XS",
                                             "Q3_K_M", "IQ3_M", "IQ3_XXS", "Q2_K",   "IQ2_M",  "IQ2_XXS", "IQ1_M",
                                             "IQ1_S",  "MXFP4_MOE"};
constexpr std::string_view kGgufKv[] = {"fp16", "q8_0", "q4_0"};
// The driver and CUDA context llama.cpp's memory breakdown reports as "unaccounted": 451 to 456
// MiB per RTX 4090 (llama.cpp PR #15860). Metal has none inside the working set.
constexpr double kCudaContextGib = 0.45;
// --fit's margin per device: "--fit-target … default: 1024" MiB (tools/server/README.md).
constexpr double kFitTargetGib = 1.0;
// The compute buffer (llama-context.cpp graph_reserve over n_ubatch tokens and the whole cache,
// f32): full-ubatch logits (ub·(V+H)·4 B: 258.50 MiB for Llama-3-8B at ub 512), with flash
// attention an f32 mask per cell and two hidden-sized buffers (382.01 MiB for Qwen2.5-7B at
// 32,768 cells), without it the f32 scores of every head plus the mask (164.00 and 2,144.00 MiB
// for Mistral-7B at 2,048 and 32,768 cells). Logs in tests/core/engine_profiles_test.cc.
constexpr ComputeRule kLlamaCppCompute{.logits = 4, .fa_mask = 4, .fa_hidden = 8, .scores = 4, .scores_hidden = 16};
constexpr std::string_view kLlamaCppCommands[] = {"llama-server", "llama-bench"};
constexpr std::string_view kOllamaCommands[] = {"ollama-engine", "ollama-bench"};
// Ollama's batch: 512, 1,024 above 4,096 tokens of context × slots, 2,048 above 32,768
// (server/sched.go generationBatchForContext, fb30760).
constexpr EngineDefaults::UbatchTier kOllamaUbatch[] = {{4096, 1024}, {32768, 2048}};

// ---- decode (estimation model section 6): fitted to the rows of tests/calibration/decode.json
// whose sources are not held out, by tests/core/decode_calibration_test.cc, which also recomputes
// each rule's recorded errors. Columns: platform, class, unified memory, from bandwidth, from
// architecture version (Device::compute_capability: on Apple GPUs the Metal GPU family), MoE, η,
// η_kv, t0 (ms per 32 layers), ts (ms per 32 recurrent layers on top of t0), {runs, median, p90,
// worst error in %} on the fitted rows, the same on the held-out sources' rows ({}: none). Where a
// rule's runs cannot fix t0 (one run, or an unphysical fit), t0 is its platform's prior
// (the test's T0PriorMs: CUDA and Vulkan 1.5 ms, what CUDA graphs save per token, llama.cpp #6763,
// PR #6766; ROCm 1.6 ms, Metal 4 ms, MLX 2.3 ms and vLLM 2 ms, runtimes.md §5.1–5.2). An η above 1
// is pinned at 1. CUDA datacenter cards have two rules: from 900 GB/s (the catalog's HBM cards,
// V100 to B200) llama.cpp reads at a far smaller share of the bandwidth than on the GDDR ones below
// (A40, L40S, L4, A10, P40): XiongjieDai's llama-bench runs (May 2024) give η 0.58 and t0 3.4 ms
// against 0.80 and 2.5 ms. Consumer discrete CUDA cards have a rule for dense models and one for
// MoE models (issue 31). Consumer discrete ROCm cards have two too: below 700 GB/s the Radeon AI
// PRO R9700's runs (kyuz0/amd-r9700-ai-toolboxes, the RX 9070 XT's chip; session 27) read 70 % of
// the bandwidth (the RX 9060 XT's Gemma 2B, PR #28102, held out since), while from 700 GB/s the RX
// 7900 XT/XTX and PRO W7900 (PRs #26284, #17576) fit t0 6.3 ms per 32 layers, as the CUDA and Apple
// rules from high bandwidths have a larger fixed cost. Apple's Max rule (from 300 GB/s) has the
// arithmetic term (the last member): the M1 to M4 Max read Q8_0 at 70-80 % of their bandwidth
// but K-quants at about half, bound by dequantizing them (GaijinEntertainment/daScript's M1 Max
// runs of four formats on one build); its η is the base rule's, k is fitted to M2 and M4 Max
// Q4_K_M runs of 2026 builds (core/ESTIMATION.md section 6); the M5 generation's Pro and Max
// (Metal GPU family 10, from 300 GB/s) read 95 % in a rule of their own (ax-engine's and
// TensorSharp's runs fitted, metaljax's and selfup's held out: tests/calibration/README.md). ts is
// fitted where three fit runs or more are of recurrent models (Qwen3.5/3.6, Qwen3-Next, Nemotron-H)
// and three or more are not: the consumer CUDA rules (jiegec/kb's RTX 4090 runs), Apple base, Max
// and M5, ROCm on unified memory and Vulkan (kyuz0's Strix Halo runs), mlx-lm base; elsewhere it is
// 0 and the rule is fitted to its other models (CUDA datacenter from 900 GB/s since its recurrent
// runs, Qwen3-Coder-Next on an A100 SXM, are held out: core/ESTIMATION.md section 6). Runs without
// CUDA graphs are in no rule (llama.cpp below Volta, and on Volta and Turing before PR #25749): the
// rules model graphs on. A llama-bench prompt run at ubatch 1 (a 'ppN ub1' row) is N decode steps
// that read no output head but the last (llama.cpp computes logits only where a token's output is
// asked for, PR #6122): the fit reads those rows without it (core/ESTIMATION.md section 6).
using enum Platform;
using enum Tristate;
constexpr DecodeRule kLlamaCppDecode[] = {
    {kCuda, DeviceClass::kConsumer, kNo, 0, 0, kNo, 0.949, 0.916, 1.54, 1.55, {12, 5.27, 8.65, 14.95}, {4, 6.45, 20.19, 20.19}},
    {kCuda, DeviceClass::kConsumer, kNo, 0, 0, kYes, 0.834, 0.482, 2.04, 1.21, {22, 3.31, 17.22, 65.05}, {8, 12.73, 31.40, 51.70}},
    {kCuda, DeviceClass::kConsumer, kYes, 0, 0, kNo, 0.855, 0.720, 2.06, 0.00, {20, 1.13, 4.54, 6.03}, {}},
    {kCuda, DeviceClass::kConsumer, kYes, 0, 0, kYes, 0.887, 0.692, 2.13, 0.00, {38, 1.81, 8.20, 11.56}, {}},
    {kCuda, DeviceClass::kDatacenter, kAny, 0, 0, kAny, 0.801, 0.801, 2.48, 0.00, {24, 3.13, 6.08, 11.39}, {}},
    {kCuda, DeviceClass::kDatacenter, kAny, 900, 0, kAny, 0.581, 0.581, 3.36, 0.00, {37, 6.91, 16.42, 35.38}, {57, 8.08, 29.80, 60.19}},
    {kMetal, DeviceClass::kApple, kAny, 0, 0, kAny, 0.783, 0.783, 2.93, 15.46, {14, 6.09, 14.46, 18.77}, {20, 9.82, 39.29, 54.91}},
    {kMetal, DeviceClass::kApple, kAny, 300, 0, kAny, 0.783, 0.783, 2.28, 0.51, {29, 11.66, 22.00, 62.78}, {48, 9.47, 21.92, 35.26}, {0, 34.4}},
    {kMetal, DeviceClass::kApple, kAny, 300, 10, kAny, 0.949, 0.949, 3.28, 2.19, {30, 2.63, 14.72, 26.85}, {12, 9.32, 12.11, 13.36}},
    {kMetal, DeviceClass::kApple, kAny, 700, 0, kNo, 0.675, 0.612, 3.43, 0.00, {14, 10.36, 21.38, 29.22}, {20, 10.25, 21.74, 25.99}},
    {kMetal, DeviceClass::kApple, kAny, 700, 0, kYes, 0.573, 0.573, 4.00, 0.00, {1, 0.03, 0.03, 0.03}, {20, 5.79, 63.94, 153.64}},
    {kRocm, DeviceClass::kConsumer, kNo, 0, 0, kAny, 0.712, 0.513, 1.60, 1.95, {27, 6.29, 16.44, 50.57}, {7, 14.91, 18.13, 21.21}},
    {kRocm, DeviceClass::kConsumer, kNo, 700, 0, kAny, 1.000, 1.000, 6.43, 0.00, {8, 17.45, 23.07, 43.82}, {5, 19.41, 24.48, 24.48}},
    {kRocm, DeviceClass::kConsumer, kYes, 0, 0, kAny, 0.842, 0.555, 4.25, 3.58, {96, 8.27, 21.98, 30.32}, {2, 11.82, 11.82, 11.82}},
    {kRocm, DeviceClass::kDatacenter, kAny, 0, 0, kAny, 0.736, 0.736, 4.56, 0.00, {2, 0.02, 0.02, 0.02}, {12, 12.21, 34.81, 49.84}},
    {kVulkan, DeviceClass::kConsumer, kAny, 0, 0, kAny, 0.834, 0.652, 1.73, 3.97, {50, 8.98, 19.89, 52.72}, {15, 5.52, 38.55, 58.89}},
};
// vLLM: dense and MoE models apart, as llama.cpp's rules: in these runs its MoE path (fused-MoE
// kernels, gpt-oss's MXFP4 experts) reaches a smaller share of the bandwidth and costs more per
// step (η 0.63 and 4.8 ms per 32 layers against 0.84 and 2.0). Dense: ree2raz/inference-
// bench (L4, A100 40GB), gpustack's H100 SXM and AccelMark's A100 SXM4 80GB (vLLM 0.20.1, held
// out). MoE: sariekr/gpu_conc's gpt-oss-20b (H100 PCIe, H200, B200) of August 2025, days after
// vLLM first ran gpt-oss; conselara.dev's gpt-oss-120b on a DGX Spark under vLLM 0.19 (held out)
// runs twice as fast as the rule says, so it likely underrates current builds' MoE decode.
constexpr DecodeRule kVllmDecode[] = {
    {kCuda, std::nullopt, kAny, 0, 0, kNo, 0.840, 0.840, 1.98, 0.00, {5, 1.29, 6.48, 6.48}, {2, 1.14, 1.14, 1.14}},
    {kCuda, std::nullopt, kAny, 0, 0, kYes, 0.631, 0.631, 4.76, 0.00, {3, 5.36, 6.00, 6.00}, {1, 50.75, 50.75, 50.75}},
};
constexpr DecodeRule kMlxDecode[] = {
    {kMetal, DeviceClass::kApple, kAny, 0, 0, kAny, 0.781, 0.682, 0.32, 1.45, {10, 3.72, 12.39, 17.49}, {2, 4.63, 4.63, 4.63}},
    {kMetal, DeviceClass::kApple, kAny, 300, 0, kAny, 0.678, 0.678, 4.16, 0.00, {2, 0.04, 0.04, 0.04}, {5, 30.26, 36.52, 36.52}},
    {kMetal, DeviceClass::kApple, kAny, 700, 0, kAny, 0.672, 0.672, 2.30, 0.00, {4, 98.73, 123.04, 123.04}, {3, 7.53, 19.55, 19.55}},
};

// Published runs where an engine has no rule (DecodeCheck): a rule's scope, its constants unused
// (0), and the reference constants' error on the runs (runs, median, p90, worst in %),
// recomputed by tests/core/decode_calibration_test.cc. vLLM on ROCm: sariekr/
// gpu_conc's gpt-oss-20b on an MI300X (6.8x too fast); SGLang: ree2raz/inference-bench's
// Qwen2.5-7B on an A100 40GB (its L4 runs are eager, left out like every run without CUDA graphs),
// FreedomIntelligence/AccelMark's Llama-3-8B and Llama-3.1-8B at 28K on an A100 40GB,
// sglang#31137's gpt-oss-20b and Qwen2.5-7B on a Strix Halo, and sglang#31216's Gemma 4 31B on an
// MI300X.
constexpr DecodeCheck kVllmDecodeChecks[] = {
    {kRocm, DeviceClass::kDatacenter, kAny, 0, 0, kAny, 0, 0, 0, 0, {1, 575.10, 575.10, 575.10}, {}},
};
constexpr DecodeCheck kSglangDecodeChecks[] = {
    {kCuda, DeviceClass::kDatacenter, kAny, 0, 0, kAny, 0, 0, 0, 0, {4, 14.86, 17.97, 17.97}, {}},
    {kRocm, DeviceClass::kConsumer, kYes, 0, 0, kAny, 0, 0, 0, 0, {2, 74.63, 74.63, 74.63}, {}},
    {kRocm, DeviceClass::kDatacenter, kAny, 0, 0, kAny, 0, 0, 0, 0, {1, 20.99, 20.99, 20.99}, {}},
};

// What every engine profile shares: it names an engine and what it runs, stops the max context
// at the model's max position, fills the whole capacity, stores weights as their format does,
// rates against 90 % and decodes with the reference's constants (issue 13).
struct EngineRuns {
  std::string_view id;
  std::span<const std::string_view> formats;
  std::string_view default_format;
  std::span<const std::string_view> kv_dtypes;
  unsigned options;
  std::span<const std::string_view> commands;
};
constexpr RuntimeProfile EngineBase(const EngineRuns& runs) {
  RuntimeProfile p;
  p.id = runs.id;
  p.formats = runs.formats;
  p.default_format = runs.default_format;
  p.kv_dtypes = runs.kv_dtypes;
  p.options = runs.options;
  p.commands = runs.commands;
  p.usable_fraction = 1;
  p.context_within_model = true;
  p.weights = {WeightsRule::kAsStored, false, false};
  p.comfortable_ratio = 0.90;
  p.bandwidth_utilization = kReferenceBandwidthUtilization;
  p.decode_efficiency = kReferenceDecodeEfficiency;
  p.tensor_parallel_efficiency = 0.9;
  return p;
}

// Section 7: llama.cpp and Ollama (llama-server) keep in RAM what does not fit: whole layers
// (-ngl) or routed experts (--n-cpu-moe). Fitted by tests/core/offload_calibration_test.cc on 17
// runs of 3 sources; a RAM efficiency per memory generation because the fit runs support it (AICc
// −71.4 against −58.4 for one efficiency and −59.0 for one per channel class, 2 against 4 or
// more); the DDR4 entry rests on one rig (RTX 2080, 4 channels).
constexpr OffloadRule kLlamaCppOffload = {
    .layers = true,
    .experts = true,
    .ram_efficiency = {0.401, 0.608},  // DDR4, DDR5
    .cpu_layer_ms = 0.0448,
    .host_reserve_gib = 4,
    // Fitted: the RTX 2080 rig (10 runs, DDR4 x4), Threadripper Pro + RTX A6000 (4, DDR5 x8),
    // Ryzen 9950X + RTX 5080 (3, DDR5 x2). Hold-out: 21 runs of 6 other sources; its worst are
    // the EPYC 9355 VM's (12 channels), estimated 64 to 115 % too fast.
    .error = {17, 5.05, 20.45, 25.31},
    .holdout = {21, 9.55, 68.65, 114.49},
};

constexpr RuntimeProfile LlamaCppFamily(std::string_view id, unsigned options,
                                        std::span<const EngineDefaults::UbatchTier> ubatch_tiers,
                                        std::span<const std::string_view> commands) {
  RuntimeProfile p = EngineBase({id, kGgufFormats, "Q4_K_M", kGgufKv, options, commands});
  p.defaults = {.ubatch = 512, .flash_attention = true, .ubatch_tiers = ubatch_tiers};
  // CUDA graphs from Volta: ggml_cuda_graph_set_enabled disables them below GGML_CUDA_CC_VOLTA
  // (ggml-cuda.cu at ggml d99724f; since llama.cpp PR #25749, July 2026, before it below Ampere;
  // PR #27721, which would enable them on Pascal, is open). The decode set leaves out runs
  // without them (tests/calibration/README.md), so a Pascal card's decode is slower than its rule.
  p.cuda_graphs_from = 7.0;
  p.capacity = {.working_set = true, .default_utilization = 1, .margin_gib = kFitTargetGib};
  // token_embd stays on the CPU: "there is very little benefit to offloading the input layer,
  // so always keep it on the CPU"; a tied embedding is duplicated as the output (llama-model.cpp).
  // A multimodal model's towers are the mmproj file (--mmproj; -hf loads the repository's unless
  // --no-mmproj), on the GPU unless --no-mmproj-offload (common/arg.cpp), published in F16 (its
  // norms, biases and position table in F32: about 1-2 % more). Ollama's library files hold the
  // towers and it points llama-server's --mmproj at them (llm/llama_server.go compatClipArches).
  p.weights = {WeightsRule::kAsStored, true, true, 2, true};
  // n_ctx padded to 256 (llama-context.cpp, ref PR #17046); the SWA cache holds
  // GGML_PAD(min(n_ctx, n_swa + n_ubatch), 256) cells per stream (llama-kv-cache-iswa.cpp);
  // recurrent state in F32.
  p.kv = {.granule_tokens = 256, .window_extra = WindowExtra::kUbatch, .split = KvSplit::kEven,
          .state_bytes_per_element = 4};
  p.overhead = {OverheadRule{kCudaContextGib, 0, 0, 0}, OverheadRule{}, OverheadRule{kCudaContextGib, 0, 0, 0}};
  p.compute = kLlamaCppCompute;
  p.decode = kLlamaCppDecode;
  // -sm layer: a token walks the GPUs one after another, a hop per extra GPU by device class
  // (consumer, Apple, datacenter; tests/core/decode_calibration_test.cc). Consumer 0.181 ms: the
  // mean extra time of three 2- and 4-GPU runs at depth 0 (PR #19378, RTX 4090s) over one
  // device's time under the consumer rules; Apple, with no published layer-split run, the same.
  // Datacenter 0.400 ms: the mean extra time per extra GPU of 15 4-GPU tg512 runs over the same
  // machine's one-GPU run (XiongjieDai's A100 SXM4/PCIe, H100 PCIe, L40S and A40 notebooks).
  p.multi_device_decode = {.split = SplitKind::kLayers, .hop_ms = {0.181, 0.181, 0.400}};
  p.offload = &kLlamaCppOffload;
  return p;
}

// Ollama (fb30760, llm/llama_server.go) runs llama-server with its --fit and offload, and a
// multimodal model's towers as the projector: it leaves the projector's bytes and
// mmprojOffloadHeadroom ("1 GiB for backend buffers beyond projector weights") free beside the
// fit target, and keeps the projector on the CPU when not every layer is on the GPU
// (shouldDisableMMProjOffload "partial-text-offload").
constexpr OffloadRule kOllamaOffload = [] {
  OffloadRule rule = kLlamaCppOffload;
  rule.towers_in_ram_when_split = true;
  return rule;
}();

constexpr RuntimeProfile Ollama() {
  RuntimeProfile p = LlamaCppFamily("ollama", kOptionParallel, kOllamaUbatch, kOllamaCommands);
  p.capacity.tower_margin_gib = 1;
  p.offload = &kOllamaOffload;
  return p;
}

// vLLM and SGLang run 16-bit, FP8, AWQ, GPTQ, NVFP4 and MXFP4 checkpoints, with KV caches of the
// model's dtype or FP8, on CUDA and ROCm devices, with tensor parallelism.
constexpr std::string_view kServerFormats[] = {"BF16", "FP8", "AWQ_INT4", "GPTQ_INT4", "NVFP4", "MXFP4"};
constexpr std::string_view kServerKv[] = {"fp16", "fp8"};
constexpr std::string_view kVllmCommands[] = {"vllm-serve", "vllm-bench"};
constexpr std::string_view kSglangCommands[] = {"sglang-launch", "sglang-bench"};

// vLLM's reservations (fit to the start-up logs in tests/calibration/vllm-startup.json): the
// profiling run's peak is the larger of the forward pass (2 B per token and unit) and the
// sampler's top-k/top-p pass over full-vocabulary logits (15.1 B per sequence and entry with
// the Triton kernels of vLLM PR #33538), plus 0.05 GiB; non-torch memory 0.25 GiB on one
// device, 2.1 GiB with NCCL's all-reduce buffers at TP ≥ 2; the CUDA-graph estimate (on by
// default since v0.21) 0.402 + 0.0494 GiB per billion active parameters (the graphs hold
// activations, to which a MoE model's unused experts add nothing).
constexpr ActivationRule kVllmActivation{.forward_bytes = 2,
                                         .sampler_bytes = 15.1,
                                         .base_gib = 0.05,
                                         .non_torch_gib = 0.25,
                                         .non_torch_multi_gib = 2.1,
                                         .graphs_base_gib = 0.402,
                                         .graphs_per_billion_gib = 0.0494};
constexpr std::string_view kVllmSmallBatchDevices[] = {"a100-"};
// SGLang's chunk and CUDA-graph batch by device memory (server_args.py).
constexpr ReserveTier kSglangTiers[] = {
    {20, 2048, 8, 8},      {35, 2048, 24, 80},    {60, 4096, 32, 160},
    {90, 8192, 256, 512},  {160, 8192, 256, 512}, {std::numeric_limits<double>::infinity(), 16384, 512, 512}};

constexpr RuntimeProfile ServerFamily(std::string_view id, unsigned options,
                                      std::span<const std::string_view> commands) {
  RuntimeProfile p = EngineBase({id, kServerFormats, "BF16", kServerKv, options, commands});
  p.runs_on = {true, true, false, false};  // CUDA and ROCm
  // "GPU: compute capability 7.5 or higher (e.g., T4, RTX20xx, A100, L4, H100, B200, etc.)"
  // (vLLM docs/getting_started/installation/gpu.cuda.inc.md at 0487d5c); SGLang: "NVIDIA GPU with
  // CUDA support (sm75 and above, e.g., T4, A10, A100, L4, L40S, H100)" (docs.sglang.io quickstart).
  // So neither runs on a V100 (7.0) or a Tesla P40 (6.1).
  p.min_compute_capability = 7.5;
  p.kv_pool = true;
  // A multimodal checkpoint's towers load with it, in BF16 (an FP8 or AWQ checkpoint leaves them
  // unquantized), split over the GPUs like the model (vLLM's mm_encoder_tp_mode "weights", the
  // default; --language-model-only skips them).
  p.weights.tower_bytes_per_param = 2;
  return p;
}

constexpr RuntimeProfile Vllm() {
  RuntimeProfile p = ServerFamily("vllm", kOptionMemoryUtilization | kOptionMaxNumBatchedTokens, kVllmCommands);
  // gpu_memory_utilization: "Field(default=0.92, gt=0, le=1)" of the total (vllm.config.cache);
  // max_num_batched_tokens 8,192 and max_num_seqs 1,024 on devices of at least 70 GiB but
  // A100s, else 2,048 and 256 (get_batch_defaults, OpenAI server).
  p.capacity = {.default_utilization = 0.92};
  p.defaults = {.small_batched_tokens = 2048,
                .large_batched_tokens = 8192,
                .small_max_seqs = 256,
                .large_max_seqs = 1024,
                .large_memory_gib = 70,
                .small_batch_devices = kVllmSmallBatchDevices};
  // 16-token blocks (DEFAULT_BLOCK_SIZE); a sliding-window layer needs
  // cdiv(window − 1 + max_num_batched_tokens, 16) + 1 blocks (SlidingWindowSpec); KV heads
  // divided by the tensor-parallel size, at least one per device, MLA latents whole
  // (get_num_kv_heads); Mamba state in the model dtype (float32 where the config says so). The
  // hybrid KV cache manager (kv_pages.h): prefix caching is on by default, so a Mamba group
  // keeps its state in "align" mode, 2 blocks per request (MambaModelConfig
  // .verify_and_update_config, MambaSpec.max_memory_usage_bytes; start-up logs in
  // tests/core/kv_pages_test.cc). A model with chunked local attention (Llama 4) runs with the
  // hybrid manager off ("There is a latency regression when using chunked local attention with
  // the hybrid KV cache manager. Disabling it, by default.", VllmConfig.__post_init__, PR #21761):
  // every layer keeps the whole context.
  p.kv = {.granule_tokens = 16, .window_extra = WindowExtra::kBatchedTokensMinusOne, .window_spare_granules = 1,
          .split = KvSplit::kHeadsMinOne, .state_bytes_per_element = 2, .state_blocks = 2, .chunked_whole = true};
  p.activation = kVllmActivation;
  p.decode = kVllmDecode;
  p.decode_checks = kVllmDecodeChecks;
  // Tensor parallelism: 1/N of the reads per GPU, two all-reduces per layer. No same-machine
  // single-stream TP measurements were found (one 4 × GB10 run over the network is printed by
  // the calibration test); 50 µs per all-reduce over PCIe and 15 µs over NVLink are the
  // estimates of runtimes.md §6, uncertain by a factor of two.
  p.multi_device_decode = {.split = SplitKind::kTensorParallel, .allreduce_us = {50, 0, 15}};
  return p;
}

constexpr RuntimeProfile Sglang() {
  RuntimeProfile p = ServerFamily("sglang", kOptionMemoryUtilization, kSglangCommands);
  // mem_fraction_static = (M − reserve) / M with reserve = 512 + 1.5 × max(chunk, 2048) + 2 ×
  // CUDA-graph batch + 1,024 × devices / 8 MiB, at least 10 GiB above 60 GiB; chunk and graph
  // batch by memory (server_args.py _handle_gpu_memory_settings).
  p.capacity = {.reserve_tiers = kSglangTiers,
                .reserve_base_mib = 512,
                .reserve_per_chunk_token_mib = 1.5,
                .reserve_min_chunk_tokens = 2048,
                .reserve_per_graph_seq_mib = 2,
                .reserve_per_device_mib = 128,
                .reserve_floor_mib = 10240,
                .reserve_floor_above_gib = 60};
  // A token pool with pages of one token; the static fraction covers weights and the pool, so
  // only the CUDA context is counted beside them (the reserve holds activations and graphs).
  p.kv = {.granule_tokens = 1, .split = KvSplit::kHeadsMinOne, .state_bytes_per_element = 2};
  p.overhead = {OverheadRule{kCudaContextGib, 0, 0, 0}, OverheadRule{}, OverheadRule{kCudaContextGib, 0, 0, 0}};
  p.decode_checks = kSglangDecodeChecks;
  return p;
}

// The Metal runtime, allocator caches and step activations mlx-lm's peak memory holds beyond
// weights and KV cache (fitted; tests/calibration/mlx-peak-memory.json).
constexpr double kMlxRuntimeGib = 0.67;

// mlx-lm runs MLX checkpoints on Apple silicon: 16-bit or affine 8- and 4-bit, its KV cache
// 16-bit or quantized per 64 (--kv-bits).
constexpr std::string_view kMlxFormats[] = {"BF16", "MLX_8BIT", "MLX_4BIT"};
constexpr std::string_view kMlxKv[] = {"fp16", "q8_mlx", "q4_mlx"};
constexpr std::string_view kMlxCommands[] = {"mlx-lm", "mlx-bench"};

constexpr RuntimeProfile Mlx() {
  RuntimeProfile p = EngineBase({"mlx", kMlxFormats, "MLX_4BIT", kMlxKv, 0, kMlxCommands});
  p.runs_on = {false, false, false, true};  // Metal
  p.multi_device = false;
  // mlx_lm loads a multimodal checkpoint's language model alone: each model's sanitize drops the
  // vision and audio towers (mlx_lm/models/gemma3.py, qwen3_5.py, llama4.py: tower_bytes 0).
  // The wired limit is the Metal working set (generate.py wired_limit).
  p.capacity = {.working_set = true, .default_utilization = 1};
  // KVCache.step = 256: buffers grow in 256-token steps with the sequence; sliding-window
  // layers keep a RotatingKVCache of the window (cache.py); gated-delta state in float32
  // (gated_delta.py).
  p.kv = {.granule_tokens = 256, .split = KvSplit::kEven, .state_bytes_per_element = 4};
  // What BENCHMARKS.md's peak memory holds beyond weights and KV cache, fitted in
  // tests/core/calibration_test.cc (tests/calibration/mlx-peak-memory.json).
  p.overhead = {OverheadRule{}, OverheadRule{kMlxRuntimeGib, 0, 0, 0}, OverheadRule{}};
  p.default_class = DeviceClass::kApple;
  p.decode = kMlxDecode;
  return p;
}

constexpr RuntimeProfile kProfiles[] = {
    {
        .id = "reference",
        .formats = kReferenceFormats,
        .default_format = "Q4_K_M",
        .kv_dtypes = kReferenceKv,
        .capacity = {.default_utilization = 1},
        .usable_fraction = 0.96,
        .kv = {.granule_tokens = 1, .state_bytes_per_element = 4},  // FP32, as llama.cpp keeps recurrent state
        // By DeviceClass: consumer, apple, datacenter.
        .overhead = {kDiscreteOverhead, kAppleOverhead, kDiscreteOverhead},
        .default_class = DeviceClass::kConsumer,  // 1.4: the matrix uses the non-Apple overhead
        .tensor_parallel_buffers_gib = 0.25,
        .comfortable_ratio = 0.90,
        .bandwidth_utilization = 0.736,
        .decode_efficiency = {0.85, 0.80, 0.90},
        .tensor_parallel_efficiency = 0.9,
        .commands = kReferenceCommands,
    },
    LlamaCppFamily("llamacpp", kOptionUbatch | kOptionFlashAttention | kOptionParallel, {}, kLlamaCppCommands),
    Ollama(),
    Vllm(),
    Sglang(),
    Mlx(),
};

}  // namespace

std::span<const RuntimeProfile> RuntimeProfiles() { return kProfiles; }

const RuntimeProfile* FindRuntimeProfile(std::string_view id) {
  for (const RuntimeProfile& profile : kProfiles) {
    if (profile.id == id) return &profile;
  }
  return nullptr;
}

namespace {

bool Holds(Tristate rule, bool value) { return rule == Tristate::kAny || (rule == Tristate::kYes) == value; }

// How much a rule names: its class, unified memory, architecture version and MoE, one each.
template <typename Rule>
int Specificity(const Rule& rule) {
  return (rule.device_class ? 1 : 0) + (rule.unified_memory != Tristate::kAny ? 1 : 0) +
         (rule.from_compute_capability.units > 0 ? 1 : 0) + (rule.moe != Tristate::kAny ? 1 : 0);
}

}  // namespace

// The most specific of `rules` that holds for the device and model (the higher bandwidth tier
// among equals), or nullptr.
template <typename Rule>
const Rule* BestRule(std::span<const Rule> rules, const Device& device, bool moe) {
  const Rule* best = nullptr;
  for (const Rule& rule : rules) {
    if (rule.platform != device.platform || (rule.device_class && *rule.device_class != device.device_class) ||
        !Holds(rule.unified_memory, device.unified_memory) || !Holds(rule.moe, moe) ||
        rule.from_bandwidth_gbps > device.bandwidth_gbps || rule.from_compute_capability > device.compute_capability) {
      continue;
    }
    const bool better = best == nullptr || Specificity(rule) > Specificity(*best) ||
                        (Specificity(rule) == Specificity(*best) && rule.from_bandwidth_gbps > best->from_bandwidth_gbps);
    if (better) best = &rule;
  }
  return best;
}
template const DecodeRule* BestRule(std::span<const DecodeRule>, const Device&, bool);
template const PrefillRule* BestRule(std::span<const PrefillRule>, const Device&, bool);

const DecodeRule* RuntimeProfile::DecodeRuleFor(const Device& device, bool moe) const {
  return BestRule(decode, device, moe);
}

bool RuntimeProfile::TooOld(const Device& device) const {
  return device.platform == Platform::kCuda && device.compute_capability > 0 &&
         device.compute_capability < min_compute_capability;
}

bool RuntimeProfile::RunsOn(const Device& device) const { return RunsOn(device.platform) && !TooOld(device); }

bool OffersFormat(const RuntimeProfile& runtime, std::string_view id) {
  return std::find(runtime.formats.begin(), runtime.formats.end(), id) != runtime.formats.end();
}

bool OffersKvDtype(const RuntimeProfile& runtime, std::string_view id) {
  return std::find(runtime.kv_dtypes.begin(), runtime.kv_dtypes.end(), id) != runtime.kv_dtypes.end();
}

}  // namespace vramcalc
