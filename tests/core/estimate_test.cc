// Each formula of the estimation model against a hand calculation written out here.
#include "vramcalc/estimate.h"

#include <gtest/gtest.h>

#include "test_models.h"

namespace vramcalc {
namespace {

constexpr double kGib = 1073741824.0;

Device Rtx3090() { return Device{"rtx-3090-24gb", "RTX 3090 24GB", 24, 936, DeviceClass::kConsumer, Vendor::kNvidia, ""}; }
Device MacStudio192() { return Device{"mac-studio-192gb", "Mac Studio 192GB", 192, 800, DeviceClass::kApple, Vendor::kApple, ""}; }
Device H100() { return Device{"h100-80gb", "NVIDIA H100 80GB", 80, 3350, DeviceClass::kDatacenter, Vendor::kNvidia, ""}; }

TEST(WeightsGib, IsParamsTimesBitsOverEightInGib) {
  // 32e9 × 4.85 / 8 = 19,400,000,000 B = 18.0677 GiB (the page's 18.07 GB).
  EXPECT_DOUBLE_EQ(WeightsGib(32e9, 4.85), 19400000000.0 / kGib);
  // FP16: 64e9 B = 59.6046 GiB (the page's 59.60 GB).
  EXPECT_DOUBLE_EQ(WeightsGib(32e9, 16.0), 64000000000.0 / kGib);
}

TEST(KvCache, GqaStoresKeysAndValuesPerKvHead) {
  const KvLayout layout = KvLayoutOf(testing::Glm4_32b(), 2.0);
  // 2 (K and V) × 61 layers × 2 KV heads × 128 dims × 2 B = 62,464 B per token.
  EXPECT_DOUBLE_EQ(layout.global_bytes_per_token, 62464.0);
  EXPECT_DOUBLE_EQ(layout.local_bytes_per_token, 0.0);
  // 62,464 × 32,768 tokens = 2,046,820,352 B = 1.90625 GiB exactly (the page's 1.91 GB).
  EXPECT_DOUBLE_EQ(KvCacheBytes(layout, 32768, 1), 2046820352.0);
  // Four sequences hold four caches.
  EXPECT_DOUBLE_EQ(KvCacheBytes(layout, 32768, 4), 4 * 2046820352.0);
}

TEST(KvCache, QuantizedKvScalesBytesPerElement) {
  // Q8_0 stores 34 bytes per block of 32: 2 × 61 × 2 × 128 × 34/32 = 33,184 B per token.
  EXPECT_DOUBLE_EQ(KvLayoutOf(testing::Glm4_32b(), 34.0 / 32.0).global_bytes_per_token, 33184.0);
}

TEST(KvCache, NaiveMhaUsesEveryQueryHead) {
  // 2 × 61 × 48 × 128 × 32,768 × 2 B = 49,123,688,448 B = 45.75 GiB (the page's 45.75 GB).
  EXPECT_DOUBLE_EQ(NaiveMhaKvBytes(testing::Glm4_32b(), 32768, 1), 45.75 * kGib);
}

TEST(KvCache, MlaStoresOneLatentPerLayerWithoutTheFactorTwo) {
  // DeepSeek-V3: 61 × (512 + 64) × 2 B = 70,272 B per token.
  const KvLayout layout = KvLayoutOf(testing::DeepSeekV3(), 2.0);
  EXPECT_DOUBLE_EQ(layout.global_bytes_per_token, 70272.0);
  // Naive MHA for MLA: 61 × 128 heads × (128 + 64 + 128) × 2 B = 4,997,120 B per token.
  EXPECT_DOUBLE_EQ(NaiveMhaKvBytes(testing::DeepSeekV3(), 1, 1), 4997120.0);
}

TEST(KvCache, SlidingWindowLayersStopGrowingAtTheWindow) {
  ModelSpec m = testing::Glm4_32b();
  m.num_hidden_layers = 6;
  m.num_key_value_heads = 1;
  m.sliding_window = SlidingWindowSpec{1024, 5, "5 local : 1 global"};
  const KvLayout layout = KvLayoutOf(m, 2.0);
  // Per layer 2 × 1 × 128 × 2 B = 512 B per token; 1 global layer, 5 local layers.
  EXPECT_DOUBLE_EQ(layout.global_bytes_per_token, 512.0);
  EXPECT_DOUBLE_EQ(layout.local_bytes_per_token, 2560.0);
  // Below the window every layer grows: 6 × 512 × 512 tokens.
  EXPECT_DOUBLE_EQ(KvCacheBytes(layout, 512, 1), 6.0 * 512 * 512);
  // At 4,096 tokens: global 512 × 4,096 + local 2,560 × 1,024.
  EXPECT_DOUBLE_EQ(KvCacheBytes(layout, 4096, 1), 512.0 * 4096 + 2560.0 * 1024);
}

TEST(Overhead, DiscreteIsRuntimePlusSlackPlusWorkspace) {
  const double w = 19400000000.0 / kGib;
  // 0.85 + 0.03 W + 0.04 + 6,144 × 32,768 × 2 B (= 0.375 GiB): 1.807 GiB, the page's 1.81 GB.
  EXPECT_DOUBLE_EQ(OverheadGib(testing::Glm4_32b(), w, Platform::kDiscrete), 0.85 + 0.03 * w + 0.04 + 0.375);
  EXPECT_NEAR(OverheadGib(testing::Glm4_32b(), w, Platform::kDiscrete), 1.81, 0.005);
}

TEST(Overhead, AppleHasSmallerConstants) {
  const double w = 19400000000.0 / kGib;
  // 0.55 + 0.015 W + 0.375 = 1.196 GiB; with W and K the page's Apple total is 21.17 GB.
  EXPECT_DOUBLE_EQ(OverheadGib(testing::Glm4_32b(), w, Platform::kApple), 0.55 + 0.015 * w + 0.375);
  EXPECT_NEAR(w + 1.90625 + OverheadGib(testing::Glm4_32b(), w, Platform::kApple), 21.17, 0.005);
}

TEST(Decode, IsBandwidthOverBytesReadPerToken) {
  const double kv_bytes = 2046820352.0;
  // RTX 3090: 936e9 × 0.736 × 0.85 / (19.4e9 + 2,046,820,352) = 27.30 tok/s (the page's 27.3).
  const double expected = 936e9 * 0.736 * 0.85 / (19.4e9 + kv_bytes);
  EXPECT_DOUBLE_EQ(DecodeTokensPerSecond(Rtx3090(), 32e9, 4.85, kv_bytes), expected);
  EXPECT_NEAR(expected, 27.3, 0.05);
  // Apple class 0.80: Mac Studio 192GB 800e9 × 0.736 × 0.80 / ... = 22.0 (the page).
  EXPECT_NEAR(DecodeTokensPerSecond(MacStudio192(), 32e9, 4.85, kv_bytes), 22.0, 0.05);
  // Datacenter class 0.90: H100 3350e9 × 0.736 × 0.90 / ... = 103.5 (the page).
  EXPECT_NEAR(DecodeTokensPerSecond(H100(), 32e9, 4.85, kv_bytes), 103.5, 0.05);
}

TEST(Decode, MoeReadsOnlyActiveParameters) {
  // 37e9 active × 4.85 / 8 = 22.43e9 B per token plus no KV: 936e9 × 0.736 × 0.85 / 22.43e9.
  EXPECT_DOUBLE_EQ(DecodeTokensPerSecond(Rtx3090(), 37e9, 4.85, 0.0),
                   936e9 * 0.736 * 0.85 / (37e9 * 4.85 / 8));
}

TEST(Fit, ThresholdsAtNinetyAndHundredPercent) {
  EXPECT_EQ(RateFit(21.6, 24), Fit::kComfortable);  // r = 0.90 exactly
  EXPECT_EQ(RateFit(21.61, 24), Fit::kTight);
  EXPECT_EQ(RateFit(21.78, 24), Fit::kTight);       // the page: r = 0.9075, "Knapp"
  EXPECT_EQ(RateFit(24.0, 24), Fit::kTight);        // r = 1.00 exactly
  EXPECT_EQ(RateFit(24.01, 24), Fit::kNoFit);
}

TEST(MaxContext, ReferenceModelOnA24GbCard) {
  const ModelSpec m = testing::Glm4_32b();
  const double w = 19400000000.0 / kGib;
  const KvLayout layout = KvLayoutOf(m, 2.0);
  // floor((0.96 × 24 − 0.85 − 1.03 W) × 2^30 / 62,464) = floor(3.580312 GiB / 62,464 B) = 61,544.
  EXPECT_EQ(MaxContextTokens(layout, 1, w, OverheadGib(m, w, Platform::kDiscrete), 24, Platform::kDiscrete),
            61544);
  // Two sequences share the same budget: floor(61,544.9 / 2) = 30,772.
  EXPECT_EQ(MaxContextTokens(layout, 2, w, OverheadGib(m, w, Platform::kDiscrete), 24, Platform::kDiscrete),
            30772);
}

TEST(MaxContext, AppleUsesItsOwnConstants) {
  const ModelSpec m = testing::Glm4_32b();
  const double w = 19400000000.0 / kGib;
  // (0.96 × 64 − 0.55 − 1.015 W) × 2^30 / 62,464 = (61.44 − 0.55 − 18.33867) GiB / 62,464 B.
  const double budget_gib = 0.96 * 64 - 0.55 - 1.015 * w;
  const auto expected = static_cast<int64_t>(budget_gib * kGib / 62464.0);
  EXPECT_EQ(expected, 731447);
  EXPECT_EQ(MaxContextTokens(KvLayoutOf(m, 2.0), 1, w, OverheadGib(m, w, Platform::kApple), 64, Platform::kApple),
            expected);
}

TEST(MaxContext, IsZeroWhenTheWeightsAloneDoNotFit) {
  const ModelSpec m = testing::Glm4_32b();
  const double w = 64000000000.0 / kGib;  // FP16 weights, 59.6 GiB, on a 24 GiB card
  EXPECT_EQ(MaxContextTokens(KvLayoutOf(m, 2.0), 1, w, OverheadGib(m, w, Platform::kDiscrete), 24,
                             Platform::kDiscrete),
            0);
}

TEST(MaxContext, NeverRatesDoesNotFit) {
  // A 65,536-wide hidden state makes the workspace 4 GiB (65,536 × 32,768 × 2 B), more than the
  // 4 % margin of a 12 GiB card, so 1.6's formula alone would overshoot the memory.
  ModelSpec m = testing::Glm4_32b();
  m.hidden_size = 65536;
  const double w = 4.0;
  const double overhead = OverheadGib(m, w, Platform::kDiscrete);
  EXPECT_DOUBLE_EQ(overhead, 0.85 + 0.12 + 0.04 + 4.0);
  const KvLayout layout = KvLayoutOf(m, 2.0);
  const int64_t tokens = MaxContextTokens(layout, 1, w, overhead, 12, Platform::kDiscrete);
  // Fit budget: 12 − 4 − 5.01 = 2.99 GiB → floor(2.99 × 2^30 / 62,464) = 51,397 tokens.
  EXPECT_EQ(tokens, 51397);
  auto total = [&](int64_t s) { return w + KvCacheBytes(layout, s, 1) / kGib + overhead; };
  EXPECT_NE(RateFit(total(tokens), 12), Fit::kNoFit);
  EXPECT_EQ(RateFit(total(tokens + 1), 12), Fit::kNoFit);
}

TEST(MaxContext, SolvesTheSlidingWindowPiecewise) {
  ModelSpec m = testing::Glm4_32b();
  m.num_hidden_layers = 6;
  m.num_key_value_heads = 1;
  m.hidden_size = 1024;
  m.sliding_window = SlidingWindowSpec{1024, 5, "5 local : 1 global"};
  const KvLayout layout = KvLayoutOf(m, 2.0);  // 512 B global, 2,560 B local per token
  const double w = 1.0;
  const double overhead = OverheadGib(m, w, Platform::kDiscrete);
  // Budget (0.96 × 12 − 0.85 − 1.03) GiB = 9.64 GiB; the window part costs 2,560 × 1,024 B,
  // the rest grows at 512 B per token: floor((9.64 × 2^30 − 2,621,440) / 512).
  const double budget = (0.96 * 12 - 0.85 - 1.03 * w) * kGib;
  const auto expected = static_cast<int64_t>((budget - 2560.0 * 1024) / 512.0);
  EXPECT_EQ(MaxContextTokens(layout, 1, w, overhead, 12, Platform::kDiscrete), expected);
  EXPECT_LE(KvCacheBytes(layout, expected, 1), budget);
  EXPECT_GT(KvCacheBytes(layout, expected + 1, 1), budget);
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
  EXPECT_EQ(KvCompressionOf(mha), KvCompression::kNone);
  mha.sliding_window = SlidingWindowSpec{2047, 61, "every layer"};
  EXPECT_EQ(KvCompressionOf(mha), KvCompression::kWindow);
  ModelSpec both = testing::Glm4_32b();
  both.sliding_window = SlidingWindowSpec{4096, 30, "alternating"};
  EXPECT_EQ(KvCompressionOf(both), KvCompression::kGroupedHeadsAndWindow);
}

TEST(MaxContext, IsCappedWhenNoLayerGrowsPastItsWindow) {
  // Every layer windowed at 2,047 tokens (as Phi-3-mini-4k's config states): past the window
  // the cache stops growing, so memory never runs out; the core reports its ceiling, 2^27.
  ModelSpec m = testing::Glm4_32b();
  m.sliding_window = SlidingWindowSpec{2047, 61, "every layer"};
  const double w = 19400000000.0 / kGib;
  EXPECT_EQ(MaxContextTokens(KvLayoutOf(m, 2.0), 1, w, OverheadGib(m, w, Platform::kDiscrete), 24,
                             Platform::kDiscrete),
            kMaxContextTokens);
  EXPECT_EQ(kMaxContextTokens, 134217728);
}

}  // namespace
}  // namespace vramcalc
