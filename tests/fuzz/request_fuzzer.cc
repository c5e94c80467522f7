// libFuzzer: any bytes as a request, to evaluate() and to sweep() as JSON text. Each must answer
// every input with JSON that says ok true or false, and never crash, hang or leak (ASan, UBSan).
//
// A sweep request that is accepted is swept over a slice of the catalog: two of its models and,
// unless the request names its devices, one device of each kind (platform, unified memory),
// each picked by the input's hash, so that every model and device is swept over many inputs.
// SweepJson itself sweeps the whole catalog (92 models × the runtime's formats × 66 devices, a
// 2.2 MB answer): 0.4 s an input under the sanitizers, against 0.1 to 0.3 ms for any other, so
// the few accepted sweep requests among the inputs took nearly all of the fuzzer's time (20 of
// 918 inputs, 10 of 11 s). The whole catalog's sweep is 11 times the work it was on the morning
// of 2026-12-01 (46 models × 42 devices); tests/README.md has the figures.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vramcalc/catalog.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/json_codec.h"

namespace {

using vramcalc::Catalog;
using vramcalc::Device;

void CheckAnswer(const std::string& answer) {
  if (answer.rfind("{\"ok\":true,", 0) != 0 && answer.rfind("{\"ok\":false,", 0) != 0) std::abort();
}

// The catalog a sweep of `request` covers here: see the file comment.
Catalog SliceOf(const Catalog& catalog, const vramcalc::SweepRequest& request, std::size_t hash) {
  Catalog slice;
  slice.recommendation_ladder = catalog.recommendation_ladder;
  slice.hardware_table = catalog.hardware_table;
  for (const std::size_t step : {std::size_t{0}, catalog.models.size() / 2}) {
    slice.models.push_back(catalog.models[(hash + step) % catalog.models.size()]);
  }
  if (!request.devices.empty()) {  // the named ones, so that an unknown id is still refused
    for (const Device& device : catalog.devices) {
      if (std::find(request.devices.begin(), request.devices.end(), device.id) != request.devices.end()) {
        slice.devices.push_back(device);
      }
    }
    return slice;
  }
  std::map<std::pair<vramcalc::Platform, bool>, std::vector<const Device*>> kinds;
  for (const Device& device : catalog.devices) kinds[{device.platform, device.unified_memory}].push_back(&device);
  for (const auto& [kind, devices] : kinds) slice.devices.push_back(*devices[hash % devices.size()]);
  return slice;
}

// SweepJson's answer, with an accepted request swept over a slice of the catalog.
void CheckSweep(std::string_view input) {
  const vramcalc::Result<vramcalc::SweepRequest> request = vramcalc::ParseSweepRequest(input.empty() ? "{}" : input);
  if (!request.ok()) {
    // Refused before any sweep: cheap, so through SweepJson itself.
    if (vramcalc::SweepJson(input) != vramcalc::SerializeError(request.error())) std::abort();
    return;
  }
  const vramcalc::Result<Catalog>& catalog = vramcalc::BuiltinCatalog();
  if (!catalog.ok()) std::abort();
  const Catalog slice = SliceOf(catalog.value(), request.value(), std::hash<std::string_view>()(input));
  const vramcalc::Result<vramcalc::SweepResult> sweep = vramcalc::Sweep(request.value(), slice);
  if (!sweep.ok()) return CheckAnswer(vramcalc::SerializeError(sweep.error()));
  const vramcalc::SweepResult& result = sweep.value();
  if (result.cells.size() != result.models.size() * result.formats.size() * result.devices.size()) std::abort();
  CheckAnswer(vramcalc::SerializeSweep(result));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  CheckAnswer(vramcalc::EvaluateJson(input));
  CheckSweep(input);
  return 0;
}
