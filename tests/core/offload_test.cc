// Offload plans (core/ESTIMATION.md section 7): what stays on the GPU and in RAM, checked against
// llama.cpp's own memory breakdown and hand calculations; when a plan exists and which one runs.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "vramcalc/catalog.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/json_codec.h"
#include "vramcalc/offload.h"

namespace vramcalc {
namespace {

constexpr double kMib = 1048576.0;

Scenario LlamaCpp(std::string_view model, std::string_view format, std::string_view device, int64_t context) {
  const Catalog& catalog = BuiltinCatalog().value();
  Scenario s;
  s.model = catalog.FindModel(model);
  s.format = FindQuantFormat(format);
  s.device = catalog.FindDevice(device);
  s.runtime = FindRuntimeProfile("llamacpp");
  s.kv_dtype = FindKvDtype("fp16");
  s.context_tokens = context;
  return s;
}

// llama.cpp's tools/fit-params/README.md (build 6895): Qwen3-30B-A3B F16 on an RTX 4090 at -c
// 4096, -ngl 48 (all 48 layers; under that build's counting the output layer stays on the CPU)
// and the routed experts of blk.14 to blk.47 on the CPU:
// "CUDA0 (RTX 4090) | 24077 = 945 + (19187 = 17904 + 384 + 898) + 3945" (model, context, compute
// in MiB). The expert plan's device side less the output layer is that model buffer, and its KV
// cache the context buffer.
TEST(Offload, ExpertsOfThirtyFourLayersInRamLeaveLlamaCppsModelBuffer) {
  const Scenario s = LlamaCpp("qwen3-30b-a3b", "BF16", "rtx-4090-24gb", 4096);
  const OffloadPlan plan = ExpertOffloadPlan(s, 34);
  const WeightBytes bytes = WeightBytesOf(s);
  const Footprint full = FootprintOf(s);
  const double device_weights = bytes.device - bytes.experts * 34.0 / 48.0 - bytes.head;
  std::printf("model buffer %.1f MiB\n", device_weights / kMib);
  EXPECT_NEAR(device_weights / kMib, 17904, 17904 * 0.005);  // 17,880.4: −0.13 %
  EXPECT_NEAR(full.kv_cache_bytes / kMib, 384, 0.5);  // 48 layers × 4 × 128 × 2 × 2 B × 4,096
  EXPECT_EQ(plan.ram_expert_layers, 34);
  EXPECT_EQ(plan.cpu_layers, 34);
  // In RAM: the experts of 34 layers and the token embedding, nothing else.
  EXPECT_NEAR(plan.host_gib * kBytesPerGib, bytes.experts * 34.0 / 48.0 + bytes.host, 1.0);
}

// -ngl K since llama.cpp #18148: the output layer and the last K − 1 layers. At the ends a layer
// plan is what the footprint says without offload: every layer and the output layer on the GPU is
// the simulator's per-device total; none of them leaves the GPU only the overhead and puts the
// weights, the KV cache and the logits' buffer in RAM.
TEST(Offload, ALayerPlanAtItsEndsIsTheFootprintOnTheGpuOrInRam) {
  const Scenario s = LlamaCpp("mistral-small-24b-2501", "Q4_K_M", "rtx-2080-8gb", 4096);
  const WeightBytes bytes = WeightBytesOf(s);
  const Footprint full = FootprintOf(s);
  const OffloadPlan all = LayerOffloadPlan(s, 40, true);
  EXPECT_NEAR(all.device_gib, full.per_device_gib(), 1e-9);
  EXPECT_EQ(LlamaCppOffloadFlags(all), "-ngl 41");
  EXPECT_NEAR(all.host_gib * kBytesPerGib, bytes.host, 1.0);  // the token embedding only
  EXPECT_NEAR(all.decode_tps, DecodeTokensPerSecond(s, full), 1e-9);  // nothing read in RAM: section 6
  const OffloadPlan none = LayerOffloadPlan(s, 0, false);
  EXPECT_NEAR(none.device_gib, full.device_overhead_gib, 1e-9);
  EXPECT_NEAR(none.host_gib, full.weights_gib + full.host_gib + full.kv_cache_bytes / kBytesPerGib +
                                 full.main_device_extra_gib, 1e-9);
  EXPECT_DOUBLE_EQ(none.ram_share_pct, 100.0);
  EXPECT_EQ(LayerOffloadPlan(s, 15, true).cpu_layers, 25);
  EXPECT_EQ(LlamaCppOffloadFlags(LayerOffloadPlan(s, 15, true)), "-ngl 16");
}

Result<Response> Evaluate(const std::string& extra) {
  Request request;
  request.model = "qwen3-30b-a3b-instruct-2507";
  request.device = "rtx-5070-12gb";
  request.runtime = "llamacpp";
  request.context_tokens = 4096;
  if (extra == "small-host") request.host_memory_gib = 8;
  if (extra == "ollama") request.runtime = "ollama";
  return vramcalc::Evaluate(request, BuiltinCatalog().value());
}

// Qwen3-30B-A3B Q4_K_M (18.1 GB) on a 12 GB RTX 5070: the fewest expert layers in RAM that fit,
// as --fit picks them, and all of them; the commands carry the flags.
TEST(Offload, AMoeModelThatDoesNotFitRunsWithItsExpertsInRam) {
  const Result<Response> response = Evaluate("");
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response.value().simulator.fit, Fit::kNoFit);
  const Offload& offload = *response.value().offload;
  ASSERT_EQ(offload.plans.size(), 3u);
  EXPECT_EQ(offload.plans[0].kind, OffloadKind::kLayers);
  ASSERT_EQ(offload.chosen, std::optional<std::size_t>(1));
  const OffloadPlan& chosen = offload.plans[1];
  EXPECT_EQ(chosen.kind, OffloadKind::kExperts);
  EXPECT_NE(chosen.fit, Fit::kNoFit);
  // One layer fewer in RAM would not fit: the plan is the smallest.
  Scenario s = LlamaCpp("qwen3-30b-a3b-instruct-2507", "Q4_K_M", "rtx-5070-12gb", 4096);
  EXPECT_EQ(ExpertOffloadPlan(s, chosen.ram_expert_layers - 1).fit, Fit::kNoFit);
  EXPECT_EQ(offload.plans[2].ram_expert_layers, 48);
  EXPECT_EQ(LlamaCppOffloadFlags(offload.plans[2]), "-ngl 999 --cpu-moe");
  const std::string flags = LlamaCppOffloadFlags(chosen);
  EXPECT_NE(response.value().commands.front().text.find(flags), std::string::npos);
  // Slower than on a GPU that holds it all, faster than with every expert in RAM.
  EXPECT_LT(chosen.decode_tps, response.value().simulator.decode_tps);
  EXPECT_GT(chosen.decode_tps, offload.plans[2].decode_tps);
}

TEST(Offload, NothingRunsWhenTheRamIsTooSmallAsWell) {
  const Result<Response> response = Evaluate("small-host");
  ASSERT_TRUE(response.ok());
  const Offload& offload = *response.value().offload;
  EXPECT_EQ(offload.host_usable_gib, 4);  // 8 GB less the 4 GB the system keeps
  EXPECT_FALSE(offload.chosen.has_value());
  EXPECT_FALSE(offload.plans[1].fits_host);
}

TEST(Offload, OllamaPlacesTheSameWayAndFittingModelsHaveNoPlan) {
  const Result<Response> ollama = Evaluate("ollama");
  ASSERT_TRUE(ollama.ok());
  EXPECT_EQ(ollama.value().offload->chosen, std::optional<std::size_t>(1));
  Request fits;
  fits.model = "qwen3-8b";
  fits.device = "rtx-4090-24gb";
  fits.runtime = "llamacpp";
  EXPECT_FALSE(vramcalc::Evaluate(fits, BuiltinCatalog().value()).value().offload.has_value());
  Request mac = fits;  // unified memory has no RAM beside it
  mac.model = "qwen3-235b-a22b";
  mac.device = "apple-m4-pro-48gb";
  const Result<Response> on_mac = vramcalc::Evaluate(mac, BuiltinCatalog().value());
  ASSERT_TRUE(on_mac.ok());
  EXPECT_EQ(on_mac.value().simulator.fit, Fit::kNoFit);
  EXPECT_FALSE(on_mac.value().offload.has_value());
  Request reference = fits;  // the reference page's profile has no offload
  reference.model = "qwen3-235b-a22b";
  reference.runtime = "reference";
  EXPECT_FALSE(vramcalc::Evaluate(reference, BuiltinCatalog().value()).value().offload.has_value());
}

// What does not fit reads the same wherever it shows: the hardware table's row of the chosen card
// and a related model's rating carry the rate of the plan the verdict runs (none where the model
// fits, where the RAM is too small as well, or under the reference page's profile, which has no
// offload). Qwen3-30B-A3B, a related model of Qwen3-30B-A3B-Instruct-2507, has its shapes
// (both config.json files: 48 layers, 128 experts, 8 routed), so its plan and rate are the same.
TEST(Offload, TheHardwareTableAndRelatedModelsCarryThePlanThatRuns) {
  const auto rate_on = [](const Response& response, std::string_view device) {
    for (const HardwareRow& row : response.hardware) {
      if (row.device->id == device) return row.offload_decode_tps;
    }
    ADD_FAILURE() << device << " has no row";
    return -1.0;
  };
  const Response runs = Evaluate("").value();
  ASSERT_NE(runs.offload->Chosen(), nullptr);
  const double verdict = runs.offload->Chosen()->decode_tps;
  EXPECT_GT(verdict, 0);
  EXPECT_EQ(rate_on(runs, "rtx-5070-12gb"), verdict);
  EXPECT_EQ(rate_on(runs, "rtx-3090-24gb"), 0);  // it fits there
  bool same_shapes = false;
  for (const RelatedModel& row : runs.related) {
    if (row.model->id != "qwen3-30b-a3b") continue;
    same_shapes = true;
    EXPECT_EQ(row.fit, Fit::kNoFit);
    EXPECT_EQ(row.offload_decode_tps, verdict);
  }
  EXPECT_TRUE(same_shapes) << "Qwen3-30B-A3B is no longer a related model";
  EXPECT_EQ(rate_on(Evaluate("small-host").value(), "rtx-5070-12gb"), 0);
  Request reference;
  reference.model = "qwen3-30b-a3b-instruct-2507";
  reference.device = "rtx-5070-12gb";
  const Response under_reference = vramcalc::Evaluate(reference, BuiltinCatalog().value()).value();
  EXPECT_EQ(under_reference.simulator.fit, Fit::kNoFit);
  EXPECT_EQ(rate_on(under_reference, "rtx-5070-12gb"), 0);
  for (const RelatedModel& row : under_reference.related) EXPECT_EQ(row.offload_decode_tps, 0) << row.model->id;
}

// The longest context at which it runs with offload, as --fit would place it at each context:
// a plan runs there and none 1,024 tokens further (the KV cache stays with its layers on the GPU,
// so a longer context moves more into RAM until neither side holds it); none when the RAM is too
// small at every context (Qwen3-30B-A3B's 18 GB beside an 11 GB card and 4 usable GB of RAM).
TEST(Offload, TheLongestContextWithOffloadRunsAndOneStepMoreDoesNot) {
  const Response runs = Evaluate("").value();
  const int64_t longest = runs.offload->max_context_tokens;
  Scenario s = LlamaCpp("qwen3-30b-a3b-instruct-2507", "Q4_K_M", "rtx-5070-12gb", longest);
  s.host = runs.offload->host;
  ASSERT_GT(longest, 4096);  // the answer's own context runs
  ASSERT_LT(longest, s.model->max_position_embeddings);
  const std::optional<Offload> at = OffloadOf(s);
  ASSERT_TRUE(at && at->Chosen() != nullptr);
  s.context_tokens = longest + 1024;
  const std::optional<Offload> past = OffloadOf(s);
  ASSERT_TRUE(past.has_value());
  EXPECT_EQ(past->Chosen(), nullptr);
  EXPECT_EQ(Evaluate("small-host").value().offload->max_context_tokens, 0);
}

// The host's bandwidth: a type's (MT/s × 8 B × channels), or one's own, which replaces it.
TEST(Offload, TheHostsBandwidthComesFromItsTypeOrItsFigure) {
  EXPECT_DOUBLE_EQ(FindHostMemoryType("ddr5-5600-2ch")->bandwidth_gbps(), 89.6);
  EXPECT_DOUBLE_EQ(FindHostMemoryType("ddr4-3200-8ch")->bandwidth_gbps(), 204.8);  // Tom's Hardware's figure
  EXPECT_DOUBLE_EQ(FindHostMemoryType("ddr5-4800-12ch")->bandwidth_gbps(), 460.8);
  Request request;
  request.model = "qwen3-30b-a3b-instruct-2507";
  request.device = "rtx-5070-12gb";
  request.runtime = "llamacpp";
  request.host_bandwidth_gbps = 120;
  const Result<Response> custom = vramcalc::Evaluate(request, BuiltinCatalog().value());
  ASSERT_TRUE(custom.ok());
  EXPECT_EQ(custom.value().offload->host.bandwidth_gbps, 120);
  EXPECT_EQ(custom.value().offload->host.type, nullptr);
  request.host_memory_type = "ddr4-3200-2ch";  // a figure of one's own replaces the type's
  const Result<Response> both = vramcalc::Evaluate(request, BuiltinCatalog().value());
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both.value().offload->host.bandwidth_gbps, 120);
  request.host_bandwidth_gbps.reset();
  request.host_memory_type = "ddr9";
  const Result<Response> unknown = vramcalc::Evaluate(request, BuiltinCatalog().value());
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, "unknown_host_memory_type");
  EXPECT_EQ(unknown.error().field, "host_memory_type");
}

// The RAM efficiency is the rule's for the host's memory generation: a type's own, the default
// type's (DDR5) for a bandwidth of one's own. A plan's time is the GPU part, the RAM bytes at
// that share of the peak and the cost per layer in RAM.
TEST(Offload, TheRamEfficiencyIsTheHostGenerations) {
  Host host;
  EXPECT_EQ(host.generation(), MemoryGeneration::kDdr5);  // no type: the default type's
  host.type = FindHostMemoryType("ddr4-3200-4ch");
  EXPECT_EQ(host.generation(), MemoryGeneration::kDdr4);
  EXPECT_EQ(FindHostMemoryType("ddr5-4800-12ch")->generation(), MemoryGeneration::kDdr5);
  const OffloadRule& rule = *FindRuntimeProfile("llamacpp")->offload;
  for (const char* id : {"ddr4-3200-4ch", "ddr5-6400-2ch"}) {
    Scenario s = LlamaCpp("qwen3-30b-a3b", "Q4_K_M", "rtx-4070-ti-super-16gb", 4096);
    s.host.type = FindHostMemoryType(id);
    s.host.bandwidth_gbps = s.host.type->bandwidth_gbps();
    const OffloadPlan plan = ExpertOffloadPlan(s, 24);
    const double ram_seconds = plan.ram_read_bytes / (s.host.bandwidth_gbps * 1e9 * rule.RamEfficiency(s.host.type->generation()));
    EXPECT_NEAR(1.0 / plan.decode_tps, plan.gpu_seconds + ram_seconds + 24 * rule.cpu_layer_ms * 1e-3, 1e-12) << id;
  }
}

// A request's answer with the offload section (and its ways), parsed.
Response Answer(const std::string& request) {
  Result<Request> parsed = ParseRequest(request);
  EXPECT_TRUE(parsed.ok()) << request;
  return Evaluate(parsed.value(), BuiltinCatalog().value()).value();
}

// Issue 31, item 7: when a model does not fit, the nearest ways to make it run, each one applied
// making it run and none nearer doing so: the most precise smaller format that fits (every more
// precise one does not), the longest context in steps of 1,024 (1,024 more does not fit), the
// offload plan llama.cpp runs under the reference profile (its chosen plan's speed), the device of
// the least memory that holds it (no catalog device with less does); none when it fits.
TEST(Offload, WaysToMakeItRunEachRunAndNoneNearerDoes) {
  const Catalog& catalog = BuiltinCatalog().value();
  const auto request = [](std::string_view model, std::string_view format, std::string_view device, int64_t context,
                          std::string_view more = "") {
    return R"({"model":")" + std::string(model) + R"(","format":")" + std::string(format) + R"(","device":")" +
           std::string(device) + R"(","context":)" + std::to_string(context) + std::string(more) + "}";
  };
  const auto fits = [&](std::string_view format, std::string_view device, int64_t context) {
    return Answer(request("llama-3.1-8b", format, device, context)).simulator.fit != Fit::kNoFit;
  };
  const Response answer = Answer(request("llama-3.1-8b", "FP16", "rtx-3060-12gb", 16384));
  ASSERT_EQ(answer.simulator.fit, Fit::kNoFit);
  ASSERT_TRUE(answer.ways.has_value());
  const Ways& ways = *answer.ways;
  ASSERT_NE(ways.format, nullptr);
  EXPECT_TRUE(fits(ways.format->id, "rtx-3060-12gb", 16384));
  for (const std::string_view id : FindRuntimeProfile("reference")->formats) {
    const QuantFormat* f = FindQuantFormat(id);
    if (f->bits_per_weight > ways.format->bits_per_weight && f->bits_per_weight < 16) {
      EXPECT_FALSE(fits(id, "rtx-3060-12gb", 16384)) << id;
    }
  }
  // 16 GB of FP16 weights on a 12 GB card: no context fits in FP16.
  EXPECT_EQ(ways.context_tokens, 0);
  ASSERT_NE(ways.device, nullptr);
  EXPECT_TRUE(fits("FP16", ways.device->id, 16384));
  for (const Device& device : catalog.devices) {
    if (device.memory_gib < ways.device->memory_gib && device.id != "rtx-3060-12gb") {
      EXPECT_FALSE(fits("FP16", device.id, 16384)) << device.id;
    }
  }
  // At Q8_0 (8.5 GB of weights) a shorter context fits: 1,024 tokens more does not.
  const Response shorter = Answer(request("llama-3.1-8b", "Q8_0", "rtx-3060-12gb", 65536));
  ASSERT_TRUE(shorter.ways.has_value());
  const int64_t context = shorter.ways->context_tokens;
  ASSERT_GE(context, 1024);
  EXPECT_TRUE(fits("Q8_0", "rtx-3060-12gb", context));
  EXPECT_FALSE(fits("Q8_0", "rtx-3060-12gb", context + 1024));
  // Under the reference profile, llama.cpp's offload plan: Qwen3-32B Q4_K_M on 16 GB at 32K.
  const Response qwen = Answer(request("qwen3-32b", "Q4_K_M", "rtx-4060-ti-16gb", 32768));
  ASSERT_TRUE(qwen.ways && qwen.ways->offload_runtime);
  const Response under = Answer(request("qwen3-32b", "Q4_K_M", "rtx-4060-ti-16gb", 32768, R"(,"runtime":"llamacpp")"));
  ASSERT_TRUE(under.offload && under.offload->Chosen());
  EXPECT_EQ(qwen.ways->offload_runtime->id, "llamacpp");
  EXPECT_EQ(qwen.ways->offload_decode_tps, under.offload->Chosen()->decode_tps);
  // A model that fits has none.
  EXPECT_FALSE(Answer(request("qwen3-8b", "Q4_K_M", "rtx-3060-12gb", 4096)).ways.has_value());
}

}  // namespace
}  // namespace vramcalc
