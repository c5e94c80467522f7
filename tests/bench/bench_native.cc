// Native evaluate() latency: prints {"median_us", "p95_us", "calls"} for the benchmark
// (tests/bench/bench.mjs). Not a test: timings are reported, never asserted.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "vramcalc/json_codec.h"

int main() {
  const std::vector<std::string> requests = {
      R"({"model":"glm-4-32b-0414"})",
      R"({"model":"deepseek-v3","format":"Q8_0","context":131072,"device":"h100-80gb","device_count":8})",
      R"({"model":"gemma-3-27b","context":65536,"batch":4,"kv_dtype":"q8_0"})",
  };
  constexpr int kCalls = 3000;
  std::vector<double> micros;
  micros.reserve(kCalls);
  std::size_t bytes = 0;
  for (int i = 0; i < kCalls; ++i) {
    const auto start = std::chrono::steady_clock::now();
    bytes += vramcalc::EvaluateJson(requests[static_cast<std::size_t>(i) % requests.size()]).size();
    micros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(micros.begin(), micros.end());
  std::printf("{\"median_us\": %.2f, \"p95_us\": %.2f, \"calls\": %d, \"bytes\": %zu}\n",
              micros[micros.size() / 2], micros[micros.size() * 95 / 100], kCalls, bytes);
  return 0;
}
