// Serving (estimation model section 8): prompt processing (prefill), the time to the first token
// and the time for a prompt and its answer, for one sequence on the scenario's devices.
#ifndef VRAMCALC_SERVING_H_
#define VRAMCALC_SERVING_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "vramcalc/estimate.h"
#include "vramcalc/model_spec.h"
#include "vramcalc/offload.h"
#include "vramcalc/quant_format.h"
#include "vramcalc/runtime_profile.h"
#include "vramcalc/vocab.h"

namespace vramcalc {

// An engine profile's prefill rules (runtime_profile.h PrefillRule), by its id; none for a profile
// without published prefill runs of its own (reference, vLLM, SGLang, MLX).
std::span<const PrefillRule> PrefillRules(std::string_view runtime);

// What one prompt token costs, averaged over a prompt: the weights' matmuls (2 FLOPs per active
// parameter but the embeddings, whose rows are looked up, and the output head, which only the
// last token runs) and attention over the keys each attention layer holds at that token (2 ×
// query heads × (query key + value dims) per key: QKᵀ and the values' sum).
struct PrefillFlops {
  double matmul = 0;
  double attention = 0;
};
// A prompt of `prompt_tokens` read after `depth` tokens already in the context.
PrefillFlops PrefillFlopsOf(const ModelSpec& model, int64_t prompt_tokens, int64_t depth);

// The peak a prompt's matmuls run at under `rule`, in FLOP/s (section 8): the device's INT8 rate
// for a GGUF integer quant where the rule's engine multiplies those on INT8 units and the device
// has them, else its FP16 rate.
double PrefillPeak(const Device& device, const QuantFormat& format, const PrefillRule& rule);

// Seconds per prompt token under `rule` on the scenario's device(s): a layer split runs the
// layers one device after another (one device's time), tensor parallelism divides the work.
double PrefillSecondsPerToken(const Scenario& scenario, const PrefillRule& rule, const PrefillFlops& flops);
// Seconds to read a prompt of `prompt_tokens` costing `flops` per token: its tokens, plus the
// rule's fixed time per prompt.
double PrefillSeconds(const Scenario& scenario, const PrefillRule& rule, const PrefillFlops& flops, int64_t prompt_tokens);

// A prompt with a part of the weights in host RAM (section 8.3), under llama.cpp and Ollama: a
// matmul whose weights are in RAM runs on the device when its batch holds at least 32 tokens
// (ggml-cuda's offload_op; a shorter ubatch's run on the CPU, not modelled), and the scheduler
// copies those weights over the host link for every ubatch, of a MoE layer's routed experts only those the ubatch's tokens
// route to (llama.cpp PR #15346): E × (1 − (1 − k/E)^u) of each layer's E for u tokens, routing
// taken as uniform. A ubatch takes its tokens' time on the devices (the prefill rule) plus its copy
// at the link's bandwidth per direction × link_efficiency, fitted on published runs with its
// errors (fitted and held out); it may exceed 1 where prompts touch fewer experts than uniform
// routing does. A profile that offloads has one (OffloadPrefillRuleOf: llama.cpp's and Ollama's,
// both llama-server's).
struct OffloadPrefillRule {
  double link_efficiency = 0;
  DecodeError error;
  DecodeError holdout;
};
const OffloadPrefillRule* OffloadPrefillRuleOf(std::string_view runtime);
struct OffloadPrompt {
  double seconds = 0;       // the whole prompt
  double copy_seconds = 0;  // of which copying weights
  int64_t ubatches = 0;
};
// Nothing (0 s) where the engine has no such rule or the device's link is not known.
OffloadPrompt OffloadPromptOf(const Scenario& scenario, const PrefillRule& rule, const OffloadPlan& plan,
                              int64_t prompt_tokens, int64_t ubatch);

// Each plan's prompt_s for a prompt of `prompt_tokens` (the plans that keep experts in RAM, where
// the device's peak and host link and a prefill rule are known).
void FillPromptTimes(const Scenario& scenario, int64_t prompt_tokens, Offload& offload);

// Why a serving estimate has no figures: the device's peak compute is not known (a device of
// one's own), no engine has a prefill rule for its platform and class, the model does not fit
// the devices at the context and no offload plan runs it, the plan keeps whole layers in RAM
// (their attention runs on the CPU: not modelled, no published runs), or the device's host link
// is not known (a device of one's own).
enum class ServingGap : uint8_t { kNone, kNoPeak, kNoRule, kNoFit, kLayersInRam, kNoLink };
inline constexpr Named<ServingGap> kServingGapNames[] = {{ServingGap::kNone, "none"},
                                                          {ServingGap::kNoPeak, "no_peak"},
                                                          {ServingGap::kNoRule, "no_rule"},
                                                          {ServingGap::kNoFit, "no_fit"},
                                                          {ServingGap::kLayersInRam, "layers_in_ram"},
                                                          {ServingGap::kNoLink, "no_link"}};
inline constexpr Vocabulary<ServingGap> kServingGaps{kServingGapNames};

// Decode with several sequences at once (section 8.2): one step reads the weights once (a MoE
// model's experts that any of the sequences routes to) and every sequence's cache, as batch-1
// decode does (the engine's decode rule), or computes every sequence's token (the engine's
// prefill rule), whichever takes longer.
struct ConcurrencyPoint {
  int64_t sequences = 0;
  double per_user_tps = 0;   // each sequence's decode rate
  double aggregate_tps = 0;  // all together
  bool compute_bound = false;
};
// A decode step of `sequences` sequences at `context` tokens each under `rule` (null: memory only).
ConcurrencyPoint DecodeAtConcurrency(const Scenario& scenario, const PrefillRule* rule, int64_t sequences, int64_t context);

// The shortest prompt of tests/calibration/prefill.json's rows (llama-bench's pp512); shorter ones
// are left out of the fit.
inline constexpr int64_t kShortestCalibratedPrompt = 512;

struct Serving {
  int64_t prompt_tokens = 0;
  int64_t output_tokens = 0;
  bool beyond_context = false;  // prompt + answer exceed the scenario's context
  // Shorter than every calibration run (kShortestCalibratedPrompt): such prompts run slower per
  // token than the rule says (mlx-lm: a 128-token prompt at a third to a half of its rate at 2,048).
  bool short_prompt = false;
  ServingGap gap = ServingGap::kNone;
  double peak_tflops = 0;  // one device's dense FP16 peak
  const PrefillRule* rule = nullptr;
  bool rule_borrowed = false;  // the engine has no rule for the device: another's, its error unknown
  std::string_view rule_runtime;  // the profile whose rule it is
  double prefill_tps = 0;      // prompt tokens per second over the whole prompt
  double ttft_s = 0;           // time to the first token: the prompt read
  double decode_tps = 0;       // batch-1 decode in the middle of the answer
  double total_s = 0;          // the first token, then the answer's other tokens
  // The model does not fit and runs with the routed experts of ram_expert_layers layers in RAM
  // (the offload plan that runs): the prompt's time copying them at link_gbps (section 8.3) and
  // the offload rule with its errors; no concurrency.
  bool offload = false;
  int64_t ram_expert_layers = 0;
  double copy_s = 0;
  double link_gbps = 0;
  const OffloadPrefillRule* offload_rule = nullptr;
  // Concurrency, each sequence at the prompt + answer's context: 1, 2, 4, … sequences up to the
  // most the memory admits (max_sequences: vLLM's and SGLang's KV pool, else every slot with its
  // whole context), and how many are served at min_user_tps or more each.
  std::vector<ConcurrencyPoint> concurrency;
  int64_t max_sequences = 0;
  double min_user_tps = 0;
  int64_t users_at_min_tps = 0;
};

// The prefill rule serving follows on the scenario's device: the engine's, else another's; or null.
const PrefillRule* ServingPrefillRule(const Scenario& scenario);

// The time to the first token of a prompt of `prompt_tokens` on the scenario's devices (another
// engine's rule where its own has none); 0 where the device's peak or every rule is missing. What
// the sweep gives per cell, for a prompt of the whole context (the fits view's column).
double TimeToFirstToken(const Scenario& scenario, int64_t prompt_tokens);

// The serving estimate of the scenario for a prompt and an answer; `fits` whether the model
// fits on the devices at the scenario's context, else `offload` the plan that runs it, if any.
Serving ServingOf(const Scenario& scenario, int64_t prompt_tokens, int64_t output_tokens, bool fits,
                  double min_user_tps = 20, const OffloadPlan* offload = nullptr);

}  // namespace vramcalc

#endif  // VRAMCALC_SERVING_H_
