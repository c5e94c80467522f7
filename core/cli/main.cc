// The native `vramcalc` command: the same JSON contract as the wasm module, plus the whole
// reference page as Markdown.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <iterator>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "vramcalc/catalog.h"
#include "vramcalc/display.h"
#include "vramcalc/json_codec.h"
#include "vramcalc/page_markdown.h"
#include "vramcalc/version.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitNotOk = 1;  // the response has "ok": false
constexpr int kExitUsage = 2;

constexpr std::string_view kUsage = R"(vramcalc - how much GPU memory an open-weight LLM needs, and how fast it decodes

Usage:
  vramcalc evaluate '<request json>'   print the response JSON for one request
  vramcalc evaluate -                  read the request JSON from standard input
  vramcalc evaluate --lines            one request per input line, one response per output line
  vramcalc evaluate --config FILE ['<request json>']
                                       the same for a Hugging Face config.json
  vramcalc page --model ID [options]   print the whole page for a model as Markdown
  vramcalc page --config FILE [options]
  vramcalc models [--json]             list the catalog's models (--json: their cards)
  vramcalc devices [--json]            list the catalog's devices
  vramcalc sweep ['<request json>']    every model × format × device at once (JSON)
  vramcalc sweep --device ID [options] what runs on one device: each model's best format
  vramcalc catalog                     print the catalog (models, devices, formats, strings)
  vramcalc version                     print the version
  vramcalc COMMAND --help              help for one command
)";

constexpr std::string_view kEvaluateHelp = R"(Usage: vramcalc evaluate '<request json>' | -
       vramcalc evaluate --config path/to/config.json ['<request json without model>']
       vramcalc evaluate --lines < requests.jsonl

Request keys (only "model" is required; defaults are the reference page's):
  model     catalog id, e.g. "glm-4-32b-0414", or a config.json object
  format    FP16, FP8, Q8_0, Q6_K, Q5_K_M, Q4_K_M (default), AWQ_INT4, IQ4_XS
  context   tokens per sequence, 1 to 134,217,728 (default 32768)
  batch     concurrent sequences, 1 to 1,024 (default 1)
  kv_dtype  fp16 (default), fp8, q8_0, q4_0
  device    device id, e.g. "rtx-3090-24gb" (default: the format's recommended class)
  device_count  identical devices in tensor parallel, 1 (default) to 8
  lang      de (default) or en

Example: vramcalc evaluate '{"model":"glm-4-32b-0414"}'
Exit status: 0 when the response has "ok": true, 1 when it has "ok": false, 2 on usage errors.
)";

constexpr std::string_view kPageHelp = R"(Usage: vramcalc page (--model ID | --config FILE) [--lang de|en] [--format F]
                     [--context N] [--batch N] [--kv T] [--device ID] [--gpus N]

Prints every section of the page (summary, simulator, quantization matrix, hardware table,
architecture card, commands, related models) as Markdown. Options take the values of the
request keys of `vramcalc evaluate --help` (--kv is kv_dtype, --gpus is device_count).
)";

constexpr std::string_view kSweepHelp = R"(Usage: vramcalc sweep ['<request json>' | -]
       vramcalc sweep --device ID [--context N] [--batch N] [--kv T]

The first form prints every catalog model × format × device (each device alone) as JSON; the
request keys are context, batch and kv_dtype, as for `vramcalc evaluate`. The second prints,
for one device, each model's most precise format that fits (FP16 first, IQ4_XS last), with
its memory, decode rate and largest context.

Example: vramcalc sweep --device rtx-4090-24gb --context 8192
)";

// The whole file, or an error message naming it.
bool ReadFile(std::string_view path, std::string& text) {
  std::ifstream in{std::string(path), std::ios::binary};
  if (!in) {
    std::cerr << "vramcalc: cannot read " << path << "\n";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A number flag goes into the request as a JSON number when it looks like one, else as a
// string, so the request parser's message names the field either way.
std::string JsonNumberOrString(std::string_view text) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos &&
                      text.size() <= 18;
  return digits ? std::string(text) : JsonString(text);
}

int Evaluate(std::vector<std::string_view> args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << kEvaluateHelp;
    return kExitOk;
  }
  if (args.size() == 1 && args[0] == "--lines") {
    // Batch mode for sweeps: every line in, one response line out, in order.
    std::string line;
    bool all_ok = true;
    while (std::getline(std::cin, line)) {
      const std::string response = vramcalc::EvaluateJson(line);
      all_ok = all_ok && response.rfind("{\"ok\":true", 0) == 0;
      std::cout << response << '\n';
    }
    return all_ok ? kExitOk : kExitNotOk;
  }
  std::string config;
  if (args.size() >= 2 && args[0] == "--config") {
    if (!ReadFile(args[1], config)) return kExitUsage;
    args.erase(args.begin(), args.begin() + 2);
    if (args.empty()) args.push_back("{}");
  }
  if (args.size() != 1) {
    std::cerr << kEvaluateHelp;
    return kExitUsage;
  }
  std::string request(args[0]);
  if (request == "-") {
    request.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  const std::string response = vramcalc::EvaluateJsonWithConfig(request, config);
  std::cout << response << "\n";
  return response.rfind("{\"ok\":true", 0) == 0 ? kExitOk : kExitNotOk;
}

int Page(const std::vector<std::string_view>& args) {
  struct Flag {
    std::string_view name;
    std::string_view key;
    bool numeric;
  };
  static constexpr Flag kFlags[] = {
      {"--model", "model", false},   {"--lang", "lang", false},     {"--format", "format", false},
      {"--context", "context", true}, {"--batch", "batch", true},    {"--kv", "kv_dtype", false},
      {"--device", "device", false}, {"--gpus", "device_count", true},
  };
  std::string request = "{";
  std::string config;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << kPageHelp;
      return kExitOk;
    }
    if (args[i] == "--config" && i + 1 < args.size()) {
      if (!ReadFile(args[++i], config)) return kExitUsage;
      continue;
    }
    const Flag* flag = nullptr;
    for (const Flag& candidate : kFlags) {
      if (args[i] == candidate.name) flag = &candidate;
    }
    if (flag == nullptr || i + 1 >= args.size()) {
      std::cerr << "vramcalc page: " << (flag ? "missing value for " : "unknown option ")
                << args[i] << "\n\n" << kPageHelp;
      return kExitUsage;
    }
    const std::string_view value = args[++i];
    if (request.size() > 1) request += ",";
    request += JsonString(flag->key) + ":" +
               (flag->numeric ? JsonNumberOrString(value) : JsonString(value));
  }
  request += "}";

  const auto parsed = vramcalc::ParseRequest(request, config);
  const auto& catalog = vramcalc::BuiltinCatalog();
  const vramcalc::Error* error = !parsed.ok()    ? &parsed.error()
                                 : !catalog.ok() ? &catalog.error()
                                                 : nullptr;
  if (error == nullptr) {
    const auto response = vramcalc::Evaluate(parsed.value(), catalog.value());
    if (response.ok()) {
      std::cout << vramcalc::RenderPageMarkdown(response.value(), catalog.value());
      return kExitOk;
    }
    std::cerr << "vramcalc page: " << response.error().message << "\n";
    return kExitNotOk;
  }
  std::cerr << "vramcalc page: " << error->message << "\n";
  return kExitNotOk;
}

int Sweep(const std::vector<std::string_view>& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << kSweepHelp;
    return kExitOk;
  }
  if (args.size() <= 1) {
    std::string request = args.empty() ? "{}" : std::string(args[0]);
    if (request == "-") {
      request.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    }
    const std::string response = vramcalc::SweepJson(request);
    std::cout << response << "\n";
    return response.rfind("{\"ok\":true", 0) == 0 ? kExitOk : kExitNotOk;
  }
  // The table for one device.
  static constexpr std::pair<std::string_view, std::string_view> kFlags[] = {
      {"--context", "context"}, {"--batch", "batch"}, {"--kv", "kv_dtype"}};
  std::string device_id;
  std::string request = "{";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i + 1 >= args.size()) {
      std::cerr << "vramcalc sweep: missing value for " << args[i] << "\n\n" << kSweepHelp;
      return kExitUsage;
    }
    if (args[i] == "--device") {
      device_id = std::string(args[++i]);
      continue;
    }
    const auto* flag = std::find_if(std::begin(kFlags), std::end(kFlags),
                                    [&](const auto& f) { return f.first == args[i]; });
    if (flag == std::end(kFlags)) {
      std::cerr << "vramcalc sweep: unknown option " << args[i] << "\n\n" << kSweepHelp;
      return kExitUsage;
    }
    const std::string_view value = args[++i];
    if (request.size() > 1) request += ",";
    request += JsonString(flag->second) + ":" +
               (flag->second == "kv_dtype" ? JsonString(value) : JsonNumberOrString(value));
  }
  request += "}";
  const auto parsed = vramcalc::ParseSweepRequest(request);
  const auto& catalog = vramcalc::BuiltinCatalog();
  if (!parsed.ok() || !catalog.ok()) {
    std::cerr << "vramcalc sweep: " << (parsed.ok() ? catalog.error() : parsed.error()).message << "\n";
    return kExitNotOk;
  }
  const vramcalc::Device* device = catalog.value().FindDevice(device_id);
  if (device == nullptr) {
    std::cerr << "vramcalc sweep: unknown device \"" << device_id.substr(0, 64)
              << "\"; `vramcalc devices` lists them.\n";
    return kExitNotOk;
  }
  const auto sweep = vramcalc::Sweep(parsed.value(), catalog.value());
  if (!sweep.ok()) {
    std::cerr << "vramcalc sweep: " << sweep.error().message << "\n";
    return kExitNotOk;
  }
  const auto& result = sweep.value();
  const std::size_t d = static_cast<std::size_t>(
      std::find(result.devices.begin(), result.devices.end(), device) - result.devices.begin());
  std::cout << device->name << ", " << vramcalc::FormatGrouped(parsed.value().context_tokens)
            << " tokens × " << parsed.value().batch << ", KV cache " << parsed.value().kv_dtype << "\n\n"
            << std::left << std::setw(30) << "model" << std::setw(14) << "best format" << std::setw(12)
            << "memory" << std::setw(14) << "decode" << "max context\n";
  for (std::size_t m = 0; m < result.models.size(); ++m) {
    std::cout << std::setw(30) << result.models[m]->name;
    bool found = false;
    for (std::size_t f = 0; f < result.formats.size() && !found; ++f) {
      const auto& cell = result.cells[(m * result.formats.size() + f) * result.devices.size() + d];
      if (cell.fit == vramcalc::Fit::kNoFit) continue;
      found = true;
      std::cout << std::setw(14) << result.formats[f]->id << std::setw(12)
                << (vramcalc::FormatFixed(cell.total_gib, 2) + " GB") << std::setw(14)
                << (vramcalc::FormatFixed(cell.decode_tps, 1) + " tok/s")
                << vramcalc::FormatGrouped(cell.max_context_tokens) << "\n";
    }
    if (!found) std::cout << "does not fit in any format\n";
  }
  return kExitOk;
}

// `models` and `devices`: a table for people, or the JSON cards with --json.
int List(std::string_view what, const std::vector<std::string_view>& args) {
  const bool json = args.size() == 1 && args[0] == "--json";
  if (!args.empty() && !json) {
    std::cerr << "Usage: vramcalc " << what << " [--json]\n";
    return kExitUsage;
  }
  if (json) {
    std::cout << (what == "models" ? vramcalc::ModelsJson() : vramcalc::DevicesJson()) << "\n";
    return kExitOk;
  }
  const auto& catalog = vramcalc::BuiltinCatalog();
  if (!catalog.ok()) {
    std::cerr << "vramcalc: " << catalog.error().message << "\n";
    return kExitNotOk;
  }
  if (what == "models") {
    std::cout << std::left << std::setw(28) << "id" << std::setw(30) << "name" << std::setw(9) << "params"
              << std::setw(8) << "layers" << std::setw(10) << "attention" << "max position\n";
    for (const vramcalc::ModelSpec& m : catalog.value().models) {
      static constexpr const char* kAttention[] = {"MHA", "GQA", "MQA", "MLA"};
      std::cout << std::setw(28) << m.id << std::setw(30) << m.name << std::setw(9)
                << vramcalc::ParamsLabel(m.params_total) << std::setw(8) << m.num_hidden_layers
                << std::setw(10) << kAttention[static_cast<int>(m.attention)]
                << vramcalc::FormatGrouped(m.max_position_embeddings) << "\n";
    }
  } else {
    std::cout << std::left << std::setw(30) << "id" << std::setw(30) << "name" << std::setw(10) << "memory"
              << "bandwidth\n";
    for (const vramcalc::Device& d : catalog.value().devices) {
      std::cout << std::setw(30) << d.id << std::setw(30) << d.name << std::setw(10)
                << (vramcalc::FormatShare(d.memory_gib) + " GB") << vramcalc::FormatShare(d.bandwidth_gbps)
                << " GB/s\n";
    }
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string_view command = args[0];
  const std::vector<std::string_view> rest(args.begin() + 1, args.end());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  if (command == "evaluate") return Evaluate(rest);
  if (command == "page") return Page(rest);
  if (command == "models" || command == "devices") return List(command, rest);
  if (command == "sweep") return Sweep(rest);
  if (command == "catalog") {
    const std::string catalog = vramcalc::CatalogJson();
    std::cout << catalog << "\n";
    return catalog.rfind("{\"ok\":true", 0) == 0 ? kExitOk : kExitNotOk;
  }
  if (command == "version" || command == "--version") {
    std::cout << "vramcalc " << vramcalc::kVersion << "\n";
    return kExitOk;
  }
  std::cerr << "vramcalc: unknown command " << command << "\n\n" << kUsage;
  return kExitUsage;
}
