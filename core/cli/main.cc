// The native `vramcalc` command: the same JSON contract as the wasm module, plus the whole
// reference page as Markdown and tables for people. Help texts and flags come from the
// request's field table (evaluate.h), so they list what the parser accepts.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vramcalc/catalog.h"
#include "vramcalc/commands.h"
#include "vramcalc/display.h"
#include "vramcalc/json_codec.h"
#include "vramcalc/page_markdown.h"
#include "vramcalc/version.h"

namespace {

using Args = std::vector<std::string_view>;

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
  vramcalc evaluate --model-file FILE ['<request json>']
                                       the same for a model description (schema
                                       "vramcalc.model/1": a catalog entry's fields
                                       and the bytes its file states per tensor role)
  vramcalc page --model ID [options]   print the whole page for a model as Markdown
  vramcalc page (--config | --model-file) FILE [options]
  vramcalc models [--json]             list the catalog's models (--json: their cards)
  vramcalc devices [--json]            list the catalog's devices
  vramcalc sweep ['<request json>']    every model × format × device at once (JSON)
  vramcalc sweep --device ID [options] what runs on one device: each model's best format
  vramcalc catalog                     print the catalog (models, devices, formats, strings)
  vramcalc version                     print the version
  vramcalc COMMAND --help              help for one command
)";

// The request fields the page and the sweep table take as flags (--kv for kv_dtype …).
constexpr std::string_view kPageFields[] = {"model",   "format",  "context",            "batch",
                                            "kv_dtype", "device",  "device_count",       "runtime",
                                            "memory_utilization", "max_num_batched_tokens", "ubatch",
                                            "flash_attention",    "parallel", "host_memory", "host_memory_type",
                                            "host_bandwidth"};
constexpr std::string_view kSweepFields[] = {"context", "batch", "kv_dtype", "runtime", "host_memory", "host_memory_type",
                                             "host_bandwidth"};
constexpr std::string_view kDeviceSweepFields[] = {"device",  "device_count", "context",          "batch",
                                                   "kv_dtype", "runtime",      "host_memory",      "host_memory_type",
                                                   "host_bandwidth"};

bool IsOk(const std::string& response) { return response.rfind("{\"ok\":true", 0) == 0; }

// Text padded with spaces to `width` characters (UTF-8 code points), or cut to fit.
std::string Pad(std::string_view text, std::size_t width) {
  std::size_t chars = 0;
  std::size_t cut = text.size();
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (chars == width - 1 && cut == text.size()) cut = i;
    ++chars;
  }
  if (chars >= width) return std::string(text.substr(0, cut)) + " ";
  return std::string(text) + std::string(width - chars, ' ');
}

// Rows of cells as aligned columns, each as wide as its longest cell plus two spaces.
void PrintTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::size_t chars = static_cast<std::size_t>(std::count_if(
          row[i].begin(), row[i].end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
      widths[i] = std::max(widths[i], chars + 2);
    }
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) line += i + 1 < row.size() ? Pad(row[i], widths[i]) : row[i];
    std::cout << line << "\n";
  }
}

std::string EvaluateHelp() {
  std::string help = R"(Usage: vramcalc evaluate '<request json>' | -
       vramcalc evaluate --config path/to/config.json ['<request json without model>']
       vramcalc evaluate --model-file description.json ['<request json without model>']
       vramcalc evaluate --lines < requests.jsonl

Request keys (only "model" is required; defaults are the reference page's):
)";
  for (const vramcalc::RequestField& field : vramcalc::kRequestFields) {
    help += "  " + Pad(field.name, 14) + vramcalc::RequestFieldHelp(field) + "\n";
  }
  return help + R"(
Example: vramcalc evaluate '{"model":"glm-4-32b-0414"}'
Exit status: 0 when the response has "ok": true, 1 when it has "ok": false, 2 on usage errors.
)";
}

// "  --kv T    kv_dtype: KV cache type: …" for each field in `names`.
std::string FlagHelp(std::span<const std::string_view> names) {
  std::string help;
  for (const std::string_view name : names) {
    const vramcalc::RequestField& field = *vramcalc::FindRequestField(name);
    help += "  --" + Pad(field.short_name, 10) + Pad(field.name, 14) + vramcalc::RequestFieldHelp(field) + "\n";
  }
  return help;
}

std::string PageHelp() {
  return "Usage: vramcalc page (--model ID | --config FILE | --model-file FILE) [--lang de|en] [options]\n\n"
         "Prints every section of the page (summary, simulator, quantization matrix, hardware table,\n"
         "architecture card, commands, related models) as Markdown, in German (default) or English.\n"
         "Options, the request keys of `vramcalc evaluate --help`:\n" +
         FlagHelp(kPageFields);
}

std::string SweepHelp() {
  return "Usage: vramcalc sweep ['<request json>' | -]\n"
         "       vramcalc sweep --device ID [options]\n\n"
         "The first form prints every catalog model × format × device (each device alone) as JSON;\n"
         "its request keys are " +
         vramcalc::JoinIds(kSweepFields, [](std::string_view n) { return n; }, "and", false) +
         ", as for `vramcalc evaluate`.\n"
         "The second prints, for one device, each model's most precise format that fits (FP16 first,\n"
         "IQ4_XS last), with its memory, decode rate and largest context (at most the model's own\n"
         "maximum), and apart the models whose maximum context is below the one asked. A model that fits\n"
         "in no format runs with offload where the engine offloads (llama.cpp, Ollama) and the host's RAM\n"
         "holds the rest: the plan in the engine's default format, listed apart. Options:\n" +
         FlagHelp(kDeviceSweepFields) + "\nExample: vramcalc sweep --device rtx-4090-24gb --context 8192\n";
}

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

std::string ReadStandardInput() {
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

// A flag's value as request JSON: a count or a number as a JSON number when it looks like one,
// true and false as themselves, anything else as a string, so the request parser's message
// names the field either way.
std::string FlagValueJson(const vramcalc::RequestField& field, std::string_view value) {
  const auto only = [value](std::string_view chars) {
    return !value.empty() && value.size() <= 18 && value.find_first_not_of(chars) == std::string_view::npos;
  };
  using vramcalc::RequestValue;
  const bool raw = (field.value == RequestValue::kCount && only("0123456789")) ||
                   (field.value == RequestValue::kNumber && only("0123456789.") && value.front() != '.' &&
                    value.back() != '.' && std::count(value.begin(), value.end(), '.') <= 1) ||
                   (field.value == RequestValue::kFlag && (value == "true" || value == "false"));
  return raw ? std::string(value) : vramcalc::JsonString(value);
}

// Command-line flags as a request. `--<short name> VALUE` for the fields in `allowed`; other
// flags go to `other(flag, value)`, which returns false for an unknown one.
struct FlagRequest {
  std::string json = "{";
  std::string error;  // a usage error, for stderr
};
template <typename Other>
FlagRequest RequestFromFlags(const Args& args, std::span<const std::string_view> allowed, Other other) {
  FlagRequest out;
  for (std::size_t i = 0; i < args.size() && out.error.empty(); i += 2) {
    if (i + 1 >= args.size()) {
      out.error = "missing value for " + std::string(args[i]);
      break;
    }
    const std::string_view flag = args[i];
    const std::string_view value = args[i + 1];
    const vramcalc::RequestField* field =
        flag.starts_with("--") ? vramcalc::FindRequestField(flag.substr(2), /*short_name=*/true) : nullptr;
    if (field == nullptr || std::find(allowed.begin(), allowed.end(), field->name) == allowed.end()) {
      if (!other(flag, value)) out.error = "unknown option " + std::string(flag);
      continue;
    }
    if (out.json.size() > 1) out.json += ",";
    out.json += vramcalc::JsonString(field->name) + ":" + FlagValueJson(*field, value);
  }
  out.json += "}";
  return out;
}

int Evaluate(Args args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << EvaluateHelp();
    return kExitOk;
  }
  if (args.size() == 1 && args[0] == "--lines") {
    // Batch mode for sweeps: every line in, one response line out, in order.
    std::string line;
    bool all_ok = true;
    while (std::getline(std::cin, line)) {
      const std::string response = vramcalc::EvaluateJson(line);
      all_ok = all_ok && IsOk(response);
      std::cout << response << '\n';
    }
    return all_ok ? kExitOk : kExitNotOk;
  }
  std::string config;
  // Either file is read by the model object's reader, which tells the two apart by "schema".
  if (args.size() >= 2 && (args[0] == "--config" || args[0] == "--model-file")) {
    if (!ReadFile(args[1], config)) return kExitUsage;
    args.erase(args.begin(), args.begin() + 2);
    if (args.empty()) args.push_back("{}");
  }
  if (args.size() != 1) {
    std::cerr << EvaluateHelp();
    return kExitUsage;
  }
  const std::string request = args[0] == "-" ? ReadStandardInput() : std::string(args[0]);
  const std::string response = vramcalc::EvaluateJsonWithConfig(request, config);
  std::cout << response << "\n";
  return IsOk(response) ? kExitOk : kExitNotOk;
}

int Page(const Args& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << PageHelp();
    return kExitOk;
  }
  std::string config;
  std::string lang_id = "de";
  bool readable = true;
  const FlagRequest request = RequestFromFlags(args, kPageFields, [&](std::string_view flag, std::string_view value) {
    if (flag == "--lang") lang_id = std::string(value);
    else if (flag == "--config" || flag == "--model-file") readable = ReadFile(value, config);
    else return false;
    return true;
  });
  if (!readable) return kExitUsage;
  if (!request.error.empty()) {
    std::cerr << "vramcalc page: " << request.error << "\n\n" << PageHelp();
    return kExitUsage;
  }
  const std::optional<vramcalc::Lang> lang = vramcalc::kLangs.Find(lang_id);
  const auto parsed = vramcalc::ParseRequest(request.json, config);
  const auto& catalog = vramcalc::BuiltinCatalog();
  const auto response = parsed.ok() && catalog.ok() ? vramcalc::Evaluate(parsed.value(), catalog.value())
                                                     : vramcalc::Result<vramcalc::Response>(
                                                           parsed.ok() ? catalog.error() : parsed.error());
  if (!lang) {
    std::cerr << "vramcalc page: --lang (the page's language) must be " << vramcalc::JoinIds(vramcalc::kLangs) << "\n";
    return kExitNotOk;
  }
  if (!response.ok()) {
    std::cerr << "vramcalc page: " << response.error().message << "\n";
    return kExitNotOk;
  }
  std::cout << vramcalc::RenderPageMarkdown(response.value(), *lang);
  return kExitOk;
}

// The models of a one-device sweep that run with offload (section 7): the plan in the engine's
// default format, its split (llama.cpp's flags; under Ollama, which places it itself, in words),
// what it keeps in RAM and its decode rate.
void PrintOffloads(const vramcalc::SweepResult& result) {
  const vramcalc::SweepRequest& r = result.request;
  std::vector<std::vector<std::string>> rows = {{"model", "format", "split", "in RAM", "decode"}};
  for (std::size_t m = 0; m < result.models.size(); ++m) {
    const vramcalc::SweepOffload& offload = result.offloads[m];
    if (!offload.plan || result.models[m]->BeyondMaxPosition(r.context_tokens)) continue;
    const vramcalc::OffloadPlan& plan = *offload.plan;
    const std::string split = r.runtime != "ollama" ? vramcalc::LlamaCppOffloadFlags(plan)
                              : plan.kind == vramcalc::OffloadKind::kLayers
                                  ? std::to_string(plan.gpu_layers) + " layers on the GPU"
                              : plan.AllExpertsInRam() ? "all experts in RAM"
                                                       : "experts of " + std::to_string(plan.ram_expert_layers) + " layers in RAM";
    rows.push_back({result.models[m]->name, std::string(offload.format->id), split,
                    vramcalc::FormatGb(plan.host_gib) + " (" + vramcalc::FormatFixed(plan.ram_share_pct, 0) + " %)",
                    vramcalc::FormatFixed(plan.decode_tps, 1) + " tok/s"});
  }
  if (rows.size() == 1) return;
  std::cout << "\nRuns with offload (" << vramcalc::FormatShare(r.host_memory_gib) << " GB of RAM):\n\n";
  PrintTable(rows);
}

// The command that lets the GPU use more for cell `index` (`amd-ttm --set` on an APU under Linux,
// `sudo sysctl iogpu.wired_limit_mb` on a Mac), where its operating system's default is too
// little; empty otherwise.
std::string GpuMapCommandAt(const vramcalc::SweepResult& result, std::size_t index) {
  const auto& cells = result.gpu_map_cells;
  const auto at = std::lower_bound(cells.begin(), cells.end(), static_cast<int64_t>(index));
  if (at == cells.end() || *at != static_cast<int64_t>(index)) return "";
  return vramcalc::GpuMapCommand(vramcalc::GpuMapAt(result, static_cast<std::size_t>(at - cells.begin())));
}

// One device's sweep as the page's fits view lists it: each model's most precise format that
// fits, with its time to the first token of a prompt of the whole context; a model whose own
// maximum context is below the one asked, apart; a largest context the model's maximum stops
// ("*": memory would allow more); a memory the GPU may use only once its operating system's
// default is raised ("†", with a line per model giving the command): an APU's under Linux, and a
// Mac's where the model fits in no format as the Mac is set up.
void PrintDeviceSweep(const vramcalc::SweepResult& result) {
  const vramcalc::SweepRequest& r = result.request;
  const vramcalc::Device& device = *result.devices.front();
  std::cout << (r.device_count > 1 ? std::to_string(r.device_count) + "× " : "") << device.name << ", "
            << vramcalc::FormatGrouped(r.context_tokens) << " tokens × " << r.batch << ", KV cache " << r.kv_dtype
            << ", runtime " << r.runtime << "\n\n";
  std::vector<std::vector<std::string>> rows = {{"model", "best format", "memory", "decode", "first token", "max context"}};
  std::vector<std::vector<std::string>> beyond = {{"model", "its maximum context"}};
  bool capped = false;
  std::vector<std::string> gpu_maps;  // "  <model> (<format>): <command>", under the "†" note
  for (std::size_t m = 0; m < result.models.size(); ++m) {
    const vramcalc::ModelSpec& model = *result.models[m];
    if (model.BeyondMaxPosition(r.context_tokens)) {
      beyond.push_back({model.name, vramcalc::FormatGrouped(model.max_position_embeddings)});
      continue;
    }
    const bool offloads = result.offloads[m].plan.has_value();  // one device: device index 0
    std::vector<std::string> row = {model.name, offloads ? "runs with offload (below)" : "does not fit in any format"};
    // The most precise format that fits as the device is set up; else, on a Mac, once its wired
    // limit is raised (the cells GpuMapCommandAt names that are "no fit").
    for (std::size_t f = 0; f < 2 * result.formats.size(); ++f) {
      const std::size_t index = m * result.formats.size() + f % result.formats.size();  // one device: device index 0
      const auto& cell = result.cells[index];
      const std::string command = GpuMapCommandAt(result, index);
      if (f < result.formats.size() ? cell.fit == vramcalc::Fit::kNoFit : command.empty()) continue;
      capped = capped || cell.max_context_capped;
      const std::string format(result.formats[f % result.formats.size()]->id);
      if (!command.empty()) gpu_maps.push_back("  " + model.name + " (" + format + "): " + command);
      row = {model.name, format, vramcalc::FormatGb(cell.total_gib) + (command.empty() ? "" : " †"),
             vramcalc::FormatFixed(cell.decode_tps, 1) + " tok/s", vramcalc::FormatSeconds(cell.ttft_s),
             vramcalc::FormatGrouped(cell.max_context_tokens) + (cell.max_context_capped ? "*" : "")};
      break;
    }
    rows.push_back(std::move(row));
  }
  PrintTable(rows);
  if (capped) std::cout << "\n* the model's own maximum context; memory would allow more.\n";
  if (!gpu_maps.empty()) {
    if (device.gpu_mapped_gib > 0) {
      std::cout << "\n† more than the " << vramcalc::FormatGb(device.gpu_mapped_gib)
                << " Linux lets the GPU map by default: raise it once, then reboot (AMD's ROCm docs):\n";
    } else {
      std::cout << "\n† more than macOS lets the GPU wire by default (its Metal working set): raise it first, until a "
                   "restart (mlx-lm's README):\n";
    }
    for (const std::string& line : gpu_maps) std::cout << line << "\n";
  }
  PrintOffloads(result);
  if (beyond.size() > 1) {
    std::cout << "\nContext longer than the model supports (" << vramcalc::FormatGrouped(r.context_tokens) << " tokens):\n\n";
    PrintTable(beyond);
  }
}

int Sweep(const Args& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << SweepHelp();
    return kExitOk;
  }
  if (args.size() <= 1) {
    const std::string request = args.empty() ? "{}" : args[0] == "-" ? ReadStandardInput() : std::string(args[0]);
    const std::string response = vramcalc::SweepJson(request);
    std::cout << response << "\n";
    return IsOk(response) ? kExitOk : kExitNotOk;
  }
  const FlagRequest request = RequestFromFlags(args, kDeviceSweepFields, [](std::string_view, std::string_view) { return false; });
  if (request.error.empty() && request.json.find("\"device\"") == std::string::npos) {
    std::cerr << "vramcalc sweep: options need --device\n\n" << SweepHelp();
    return kExitUsage;
  }
  if (!request.error.empty()) {
    std::cerr << "vramcalc sweep: " << request.error << "\n\n" << SweepHelp();
    return kExitUsage;
  }
  const auto parsed = vramcalc::ParseSweepRequest(request.json);
  const auto& catalog = vramcalc::BuiltinCatalog();
  if (!parsed.ok() || !catalog.ok()) {
    std::cerr << "vramcalc sweep: " << (parsed.ok() ? catalog.error() : parsed.error()).message << "\n";
    return kExitNotOk;
  }
  const auto sweep = vramcalc::Sweep(parsed.value(), catalog.value());
  if (!sweep.ok()) {
    std::cerr << "vramcalc sweep: " << sweep.error().message << "\n";
    return kExitNotOk;
  }
  PrintDeviceSweep(sweep.value());
  return kExitOk;
}

std::string Upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

void PrintModels(const vramcalc::Catalog& catalog) {
  std::vector<std::vector<std::string>> rows = {{"id", "name", "params", "layers", "attention", "max position"}};
  for (const vramcalc::ModelSpec& m : catalog.models) {
    rows.push_back({m.id, m.name, vramcalc::ParamsLabel(m.params_total), std::to_string(m.num_hidden_layers),
                    Upper(vramcalc::kAttentions.Id(m.attention)), vramcalc::FormatGrouped(m.max_position_embeddings)});
  }
  PrintTable(rows);
}

void PrintDevices(const vramcalc::Catalog& catalog) {
  std::vector<std::vector<std::string>> rows = {{"id", "name", "memory", "bandwidth"}};
  for (const vramcalc::Device& d : catalog.devices) {
    rows.push_back({d.id, d.name, vramcalc::FormatShare(d.memory_gib) + " GB",
                    vramcalc::FormatShare(d.bandwidth_gbps) + " GB/s"});
  }
  PrintTable(rows);
}

// `models` and `devices`: a table for people, or the JSON cards with --json.
int List(std::string_view what, const Args& args) {
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
  if (what == "models") PrintModels(catalog.value());
  else PrintDevices(catalog.value());
  return kExitOk;
}

int PrintJson(const std::string& json) {
  std::cout << json << "\n";
  return IsOk(json) ? kExitOk : kExitNotOk;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string_view command = args[0];
  const Args rest(args.begin() + 1, args.end());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  if (command == "evaluate") return Evaluate(rest);
  if (command == "page") return Page(rest);
  if (command == "models" || command == "devices") return List(command, rest);
  if (command == "sweep") return Sweep(rest);
  if (command == "catalog") return PrintJson(vramcalc::CatalogJson());
  if (command == "version" || command == "--version") {
    std::cout << "vramcalc " << vramcalc::kVersion << "\n";
    return kExitOk;
  }
  std::cerr << "vramcalc: unknown command " << command << "\n\n" << kUsage;
  return kExitUsage;
}
