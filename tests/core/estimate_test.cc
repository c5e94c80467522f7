// Each formula of the estimation model (core/ESTIMATION.md) against a hand calculation written
// out here, with the reference profile's constants.
#include "vramcalc/estimate.h"

#include <gtest/gtest.h>

#include "test_models.h"

namespace vramcalc {
namespace {

constexpr double kGib = 1073741824.0;

Device Card(double memory_gib, double bandwidth_gbps, DeviceClass device_class) {
  const bool apple = device_class == DeviceClass::kApple;
  return Device{"card", "Card", memory_gib, bandwidth_gbps, device_class, apple ? Vendor::kApple : Vendor::kNvidia,
                apple ? Platform::kMetal : Platform::kCuda, apple, ""};
}
// Estimation model 1.9.
Device Rtx3090() { return Card(24, 936, DeviceClass::kConsumer); }
Device MacStudio192() { return Card(192, 800, DeviceClass::kApple); }
Device H100() { return Card(80, 3350, DeviceClass::kDatacenter); }

const RuntimeProfile& Reference() { return *FindRuntimeProfile("reference"); }
const OverheadRule& Discrete() { return Reference().OverheadFor(DeviceClass::kConsumer); }
const OverheadRule& Apple() { return Reference().OverheadFor(DeviceClass::kApple); }

// The scenario of `model` on `device` (both must outlive it) with the reference profile.
Scenario On(const ModelSpec& model, const Device& device, std::string_view format = "Q4_K_M",
            int64_t context_tokens = 32768, int64_t batch = 1) {
  return Scenario{&model, FindQuantFormat(format), FindKvDtype("fp16"), context_tokens, batch, &device, 1,
                  &Reference()};
}

// A model whose FP16 weights are exactly `weights_gib` GiB: params = W × 2^30 × 8 / 16.
ModelSpec WithWeights(ModelSpec m, double weights_gib) {
  m.params_total = m.params_active = weights_gib * kGib / 2;
  return m;
}

TEST(WeightsGib, IsParamsTimesBitsOverEightInGib) {
  // 32e9 × 4.85 / 8 = 19,400,000,000 B = 18.0677 GiB (the page's 18.07 GB).
  EXPECT_DOUBLE_EQ(WeightsGib(32e9, 4.85), 19400000000.0 / kGib);
  // FP16: 64e9 B = 59.6046 GiB (the page's 59.60 GB).
  EXPECT_DOUBLE_EQ(WeightsGib(32e9, 16.0), 64000000000.0 / kGib);
}

TEST(KvCache, GqaStoresKeysAndValuesPerKvHead) {
  const KvLayout layout = KvLayoutOf(testing::Glm4_32b(), 2.0);
  // 2 (K and V) × 61 layers × 2 KV heads × 128 dims × 2 B = 62,464 B per token, all growing.
  ASSERT_EQ(layout.used().size(), 1u);
  EXPECT_DOUBLE_EQ(layout.tiers[0].bytes_per_token, 62464.0);
  EXPECT_EQ(layout.tiers[0].tokens_cap, 0);
  // 62,464 × 32,768 tokens = 2,046,820,352 B = 1.90625 GiB exactly (the page's 1.91 GB).
  EXPECT_DOUBLE_EQ(KvCacheBytes(layout, 32768, 1), 2046820352.0);
  // Four sequences hold four caches.
  EXPECT_DOUBLE_EQ(KvCacheBytes(layout, 32768, 4), 4 * 2046820352.0);
}

TEST(KvCache, QuantizedKvScalesBytesPerElement) {
  // Q8_0 stores 34 bytes per block of 32: 2 × 61 × 2 × 128 × 34/32 = 33,184 B per token.
  EXPECT_DOUBLE_EQ(KvLayoutOf(testing::Glm4_32b(), 34.0 / 32.0).tiers[0].bytes_per_token, 33184.0);
}

TEST(KvCache, NaiveMhaUsesEveryQueryHead) {
  // 2 × 61 × 48 × 128 × 32,768 × 2 B = 49,123,688,448 B = 45.75 GiB (the page's 45.75 GB).
  EXPECT_DOUBLE_EQ(NaiveMhaKvBytes(testing::Glm4_32b(), 32768, 1), 45.75 * kGib);
}

TEST(KvCache, MlaStoresOneLatentPerLayerWithoutTheFactorTwo) {
  // DeepSeek-V3: 61 × (512 + 64) × 2 B = 70,272 B per token.
  const KvLayout layout = KvLayoutOf(testing::DeepSeekV3(), 2.0);
  EXPECT_DOUBLE_EQ(layout.tiers[0].bytes_per_token, 70272.0);
  // Naive MHA for MLA: 61 × 128 heads × (128 + 64 + 128) × 2 B = 4,997,120 B per token.
  EXPECT_DOUBLE_EQ(NaiveMhaKvBytes(testing::DeepSeekV3(), 1, 1), 4997120.0);
}

TEST(KvCache, SlidingWindowLayersStopGrowingAtTheWindow) {
  ModelSpec m = testing::Glm4_32b();
  m.num_hidden_layers = 6;
  m.num_key_value_heads = 1;
  testing::SetLayers(m, 1024, 5);
  const KvLayout layout = KvLayoutOf(m, 2.0);
  // Per layer 2 × 1 × 128 × 2 B = 512 B per token; 1 global layer, 5 local layers.
  ASSERT_EQ(layout.used().size(), 2u);
  EXPECT_DOUBLE_EQ(layout.tiers[0].bytes_per_token, 512.0);
  EXPECT_EQ(layout.tiers[1].tokens_cap, 1024);
  EXPECT_DOUBLE_EQ(layout.tiers[1].bytes_per_token, 2560.0);
  // Below the window every layer grows: 6 × 512 × 512 tokens.
  EXPECT_DOUBLE_EQ(KvCacheBytes(layout, 512, 1), 6.0 * 512 * 512);
  // At 4,096 tokens: global 512 × 4,096 + local 2,560 × 1,024.
  EXPECT_DOUBLE_EQ(KvCacheBytes(layout, 4096, 1), 512.0 * 4096 + 2560.0 * 1024);
}

TEST(KvCache, GroupsOfEveryKindAddUpTheirOwnShapes) {
  // Two windows, a latent-free state group and a shared group, written out by hand:
  // 4 full layers × 2 heads × (128 + 128) = 2,048 elements per token, unbounded;
  // 8 layers × 2 × 256 windowed at 512 and 4 layers × 4 × 256 at 4,096;
  // 12 state layers × 10,000 elements per sequence; 2 shared layers cache nothing.
  ModelSpec m = testing::Glm4_32b();
  m.layer_groups = {
      {.kind = LayerKind::kFull, .layers = 4, .kv_heads = 2, .key_dim = 128, .value_dim = 128, .query_heads = 48, .query_key_dim = 128},
      {.kind = LayerKind::kWindow, .layers = 8, .kv_heads = 2, .key_dim = 128, .value_dim = 128, .window_tokens = 512,
       .query_heads = 48, .query_key_dim = 128},
      {.kind = LayerKind::kWindow, .layers = 4, .kv_heads = 4, .key_dim = 128, .value_dim = 128, .window_tokens = 4096,
       .query_heads = 48, .query_key_dim = 128},
      {.kind = LayerKind::kState, .layers = 12, .state_elements = 10000},
      {.kind = LayerKind::kShared, .layers = 2},
  };
  const KvLayout layout = KvLayoutOf(m, 2.0, 4.0);
  ASSERT_EQ(layout.used().size(), 3u);
  EXPECT_DOUBLE_EQ(layout.tiers[0].bytes_per_token, 4 * 2 * 256 * 2.0);
  EXPECT_DOUBLE_EQ(layout.tiers[1].bytes_per_token, 8 * 2 * 256 * 2.0);
  EXPECT_DOUBLE_EQ(layout.tiers[2].bytes_per_token, 4 * 4 * 256 * 2.0);
  EXPECT_DOUBLE_EQ(layout.state_bytes, 12 * 10000 * 4.0);
  // At 8,192 tokens: 4,096 B × 8,192 + 8,192 B × 512 + 8,192 B × 4,096.
  EXPECT_DOUBLE_EQ(KvCacheBytes(layout, 8192, 1), 4096.0 * 8192 + 8192.0 * 512 + 8192.0 * 4096);
  // Naive MHA: 30 layers × 48 heads × 128 keys (query_value_dim 0 here) × 2 B per token.
  EXPECT_DOUBLE_EQ(NaiveMhaKvBytes(m, 1, 1), 16.0 * 48 * 128 * 2);
}

TEST(Overhead, DiscreteIsRuntimePlusSlackPlusWorkspace) {
  const double w = 19400000000.0 / kGib;
  // 0.85 + 0.03 W + 0.04 + 6,144 × 32,768 × 2 B (= 0.375 GiB): 1.807 GiB, the page's 1.81 GB.
  EXPECT_DOUBLE_EQ(OverheadGib(testing::Glm4_32b(), w, Discrete()), 0.85 + 0.03 * w + 0.04 + 0.375);
  EXPECT_NEAR(OverheadGib(testing::Glm4_32b(), w, Discrete()), 1.81, 0.005);
}

TEST(Overhead, AppleHasSmallerConstants) {
  const double w = 19400000000.0 / kGib;
  // 0.55 + 0.015 W + 0.375 = 1.196 GiB; with W and K the page's Apple total is 21.17 GB.
  EXPECT_DOUBLE_EQ(OverheadGib(testing::Glm4_32b(), w, Apple()), 0.55 + 0.015 * w + 0.375);
  EXPECT_NEAR(w + 1.90625 + OverheadGib(testing::Glm4_32b(), w, Apple()), 21.17, 0.005);
}

TEST(Footprint, TensorParallelSplitsAndAddsBuffers) {
  // Two RTX 3090s: each holds W/2 + K/2 + O(W/2) + 0.25 GiB.
  const ModelSpec m = testing::Glm4_32b();
  const Device d = Rtx3090();
  Scenario s = On(m, d);
  s.device_count = 2;
  const Footprint f = FootprintOf(s);
  const double w = WeightsGib(32e9, 4.85);
  EXPECT_DOUBLE_EQ(f.device_overhead_gib, 0.85 + 0.03 * (w / 2) + 0.04 + 0.375 + 0.25);
  EXPECT_DOUBLE_EQ(f.per_device_gib(), (w + 1.90625 + 2 * f.device_overhead_gib) / 2);
}

TEST(Decode, IsBandwidthOverBytesReadPerToken) {
  const ModelSpec m = testing::Glm4_32b();
  const double kv_bytes = 2046820352.0;
  // RTX 3090: 936e9 × 0.736 × 0.85 / (19.4e9 + 2,046,820,352) = 27.30 tok/s (the page's 27.3).
  const double expected = 936e9 * 0.736 * 0.85 / (19.4e9 + kv_bytes);
  const Device rtx = Rtx3090();
  const Scenario s = On(m, rtx);
  EXPECT_DOUBLE_EQ(DecodeTokensPerSecond(s, FootprintOf(s)), expected);
  EXPECT_NEAR(expected, 27.3, 0.05);
  // Apple class 0.80: Mac Studio 192GB 800e9 × 0.736 × 0.80 / ... = 22.0 (the page).
  const Device mac = MacStudio192();
  const Scenario on_mac = On(m, mac);
  EXPECT_NEAR(DecodeTokensPerSecond(on_mac, FootprintOf(on_mac)), 22.0, 0.05);
  // Datacenter class 0.90: H100 3350e9 × 0.736 × 0.90 / ... = 103.5 (the page).
  const Device h100 = H100();
  const Scenario on_h100 = On(m, h100);
  EXPECT_NEAR(DecodeTokensPerSecond(on_h100, FootprintOf(on_h100)), 103.5, 0.05);
}

TEST(Decode, MoeReadsOnlyActiveParameters) {
  // 37e9 active × 4.85 / 8 = 22.43e9 B per token plus no KV: 936e9 × 0.736 × 0.85 / 22.43e9.
  const ModelSpec m = testing::DeepSeekV3();
  const Device rtx = Rtx3090();
  const Scenario s = On(m, rtx);
  Footprint f = FootprintOf(s);
  f.kv_cache_bytes = 0;
  EXPECT_DOUBLE_EQ(DecodeTokensPerSecond(s, f), 936e9 * 0.736 * 0.85 / (37e9 * 4.85 / 8));
}

TEST(Fit, ThresholdsAtNinetyAndHundredPercent) {
  EXPECT_EQ(RateFit(Reference(), 21.6, 24), Fit::kComfortable);  // r = 0.90 exactly
  EXPECT_EQ(RateFit(Reference(), 21.61, 24), Fit::kTight);
  EXPECT_EQ(RateFit(Reference(), 21.78, 24), Fit::kTight);       // the page: r = 0.9075, "Knapp"
  EXPECT_EQ(RateFit(Reference(), 24.0, 24), Fit::kTight);        // r = 1.00 exactly
  EXPECT_EQ(RateFit(Reference(), 24.01, 24), Fit::kNoFit);
}

TEST(MaxContext, ReferenceModelOnA24GbCard) {
  const ModelSpec m = testing::Glm4_32b();
  const Device rtx = Rtx3090();
  // floor((0.96 × 24 − 0.85 − 1.03 W) × 2^30 / 62,464) = floor(3.580312 GiB / 62,464 B) = 61,544.
  EXPECT_EQ(MaxContextTokens(On(m, rtx)), 61544);
  // Two sequences share the same budget: floor(61,544.75 / 2) = 30,772.
  EXPECT_EQ(MaxContextTokens(On(m, rtx, "Q4_K_M", 32768, 2)), 30772);
}

TEST(MaxContext, AppleUsesItsOwnConstants) {
  const ModelSpec m = testing::Glm4_32b();
  const double w = WeightsGib(32e9, 4.85);
  // (0.96 × 64 − 0.55 − 1.015 W) × 2^30 / 62,464 = (61.44 − 0.55 − 18.33867) GiB / 62,464 B.
  const double budget_gib = 0.96 * 64 - 0.55 - 1.015 * w;
  const auto expected = static_cast<int64_t>(budget_gib * kGib / 62464.0);
  EXPECT_EQ(expected, 731447);
  const Device mac = Card(64, 546, DeviceClass::kApple);
  EXPECT_EQ(MaxContextTokens(On(m, mac)), expected);
}

TEST(MaxContext, IsZeroWhenTheWeightsAloneDoNotFit) {
  const ModelSpec m = testing::Glm4_32b();  // FP16 weights, 59.6 GiB, on a 24 GiB card
  const Device rtx = Rtx3090();
  EXPECT_EQ(MaxContextTokens(On(m, rtx, "FP16")), 0);
}

TEST(MaxContext, NeverRatesDoesNotFit) {
  // A 65,536-wide hidden state makes the workspace 4 GiB (65,536 × 32,768 × 2 B), more than the
  // 4 % margin of a 12 GiB card, so 1.6's formula alone would overshoot the memory.
  ModelSpec m = WithWeights(testing::Glm4_32b(), 4.0);
  m.hidden_size = 65536;
  const Device card = Card(12, 360, DeviceClass::kConsumer);
  const Scenario s = On(m, card, "FP16");
  EXPECT_DOUBLE_EQ(FootprintOf(s).device_overhead_gib, 0.85 + 0.12 + 0.04 + 4.0);
  const int64_t tokens = MaxContextTokens(s);
  // Fit budget: 12 − 4 − 5.01 = 2.99 GiB → floor(2.99 × 2^30 / 62,464) = 51,397 tokens.
  EXPECT_EQ(tokens, 51397);
  const auto total = [&](int64_t context) {
    Scenario at = s;
    at.context_tokens = context;
    return FootprintOf(at).total_gib();
  };
  EXPECT_NE(RateFit(Reference(), total(tokens), 12), Fit::kNoFit);
  EXPECT_EQ(RateFit(Reference(), total(tokens + 1), 12), Fit::kNoFit);
}

TEST(MaxContext, SolvesTheSlidingWindowPiecewise) {
  ModelSpec m = WithWeights(testing::Glm4_32b(), 1.0);
  m.num_hidden_layers = 6;
  m.num_key_value_heads = 1;
  m.hidden_size = 1024;
  testing::SetLayers(m, 1024, 5);  // 512 B global, 2,560 B local per token
  const KvLayout layout = KvLayoutOf(m, 2.0);
  const Device card = Card(12, 360, DeviceClass::kConsumer);
  // Budget (0.96 × 12 − 0.85 − 1.03) GiB = 9.64 GiB; the window part costs 2,560 × 1,024 B,
  // the rest grows at 512 B per token: floor((9.64 × 2^30 − 2,621,440) / 512).
  const double budget = (0.96 * 12 - 0.85 - 1.03 * 1.0) * kGib;
  const auto expected = static_cast<int64_t>((budget - 2560.0 * 1024) / 512.0);
  EXPECT_EQ(MaxContextTokens(On(m, card, "FP16")), expected);
  EXPECT_LE(KvCacheBytes(layout, expected, 1), budget);
  EXPECT_GT(KvCacheBytes(layout, expected + 1, 1), budget);
}

TEST(MaxContext, SolvesSeveralWindowsPiecewise) {
  // 2 global layers (512 B per token each) and windows of 1,024 (2 layers) and 8,192 tokens
  // (2 layers): past 8,192 only the global layers grow.
  ModelSpec m = WithWeights(testing::Glm4_32b(), 1.0);
  m.num_hidden_layers = 6;
  m.num_key_value_heads = 1;
  m.hidden_size = 1024;
  testing::SetLayers(m, 1024, 4);
  m.layer_groups.back().layers = 2;
  m.layer_groups.push_back(m.layer_groups.back());
  m.layer_groups.back().window_tokens = 8192;
  m.layer_groups.front().layers = 2;
  const Device card = Card(12, 360, DeviceClass::kConsumer);
  const double budget = (0.96 * 12 - 0.85 - 1.03 * 1.0) * kGib;
  const auto expected = static_cast<int64_t>((budget - 1024.0 * 1024 - 1024.0 * 8192) / 1024.0);
  EXPECT_EQ(MaxContextTokens(On(m, card, "FP16")), expected);
}

TEST(MaxContext, TheStateComesOffTheBudget) {
  // The same 1 GiB model with one more layer holding a 2^20-element FP32 state (4 MiB per
  // sequence): the KV budget shrinks by exactly that.
  ModelSpec m = WithWeights(testing::Glm4_32b(), 1.0);
  m.hidden_size = 1024;
  const Device card = Card(12, 360, DeviceClass::kConsumer);
  const int64_t without = MaxContextTokens(On(m, card, "FP16"));
  m.num_hidden_layers += 1;
  m.layer_groups.push_back(LayerGroup{.kind = LayerKind::kState, .layers = 1, .state_elements = 1 << 20});
  const double budget = (0.96 * 12 - 0.85 - 1.03 * 1.0) * kGib;
  EXPECT_EQ(without, static_cast<int64_t>(budget / 62464.0));
  EXPECT_EQ(MaxContextTokens(On(m, card, "FP16")), static_cast<int64_t>((budget - 4.0 * (1 << 20)) / 62464.0));
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

TEST(KvCompression, NamesWhatShrinksTheCache) {
  EXPECT_EQ(KvCompressionOf(testing::Glm4_32b()), KvCompression::kGroupedHeads);  // 2 of 48 heads
  EXPECT_EQ(KvCompressionOf(testing::DeepSeekV3()), KvCompression::kLatent);
  ModelSpec mha = testing::Glm4_32b();
  mha.num_key_value_heads = mha.num_attention_heads;
  testing::SetLayers(mha);
  EXPECT_EQ(KvCompressionOf(mha), KvCompression::kNone);
  testing::SetLayers(mha, 2047, 61);
  EXPECT_EQ(KvCompressionOf(mha), KvCompression::kWindow);
  ModelSpec both = testing::Glm4_32b();
  testing::SetLayers(both, 4096, 30);
  EXPECT_EQ(KvCompressionOf(both), KvCompression::kGroupedHeadsAndWindow);
}

TEST(MaxContext, IsCappedWhenNoLayerGrowsPastItsWindow) {
  // Every layer windowed at 2,047 tokens (as Phi-3-mini-4k's config states): past the window
  // the cache stops growing, so memory never runs out; the core reports its ceiling, 2^27.
  ModelSpec m = testing::Glm4_32b();
  testing::SetLayers(m, 2047, 61);
  const Device rtx = Rtx3090();
  EXPECT_EQ(MaxContextTokens(On(m, rtx)), kMaxContextTokens);
  EXPECT_EQ(kMaxContextTokens, 134217728);
}

}  // namespace
}  // namespace vramcalc
