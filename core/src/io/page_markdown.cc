#include "vramcalc/page_markdown.h"

#include <cctype>
#include <string>

#include "vramcalc/commands.h"
#include "vramcalc/display.h"
#include "vramcalc/i18n.h"

namespace vramcalc {
namespace {

// A whole number without decimals, else one decimal: 24 → "24", 12.5 → "12.5".
std::string Amount(double value) { return FormatShare(value); }

std::string Cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out.push_back(c);
  }
  return out;
}

std::string Row(std::initializer_list<std::string> cells) {
  std::string out = "|";
  for (const std::string& cell : cells) out += " " + Cell(cell) + " |";
  return out + "\n";
}

std::string Capitalized(std::string_view text) {
  std::string out(text);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

// One page: the response and the strings of its language.
struct Page {
  const Response& response;
  const Strings& t;

  std::string Text(std::string_view key) const { return std::string(t.Text(key)); }
  std::string Fill(std::string_view key, std::initializer_list<std::pair<std::string_view, std::string>> values) const {
    return FillTemplate(t.Text(key), values);
  }
  // A UI string keyed by a vocabulary id: "fit.tight", "attention.gqa".
  template <typename E, typename Entry>
  std::string Named(std::string_view prefix, Vocabulary<E, Entry> vocabulary, E value) const {
    return Text(std::string(prefix) + "." + std::string(vocabulary.Id(value)));
  }
  // "RTX 3090 24GB", or "2× RTX 3090 24GB" for a tensor-parallel group.
  std::string Devices(int64_t count, const std::string& name) const {
    if (count <= 1) return name;
    return Fill("unit.times", {{"count", std::to_string(count)}, {"device", name}});
  }
  std::string Rate(double decode_tps) const { return FormatFixed(decode_tps, 1) + " " + Text("unit.tps"); }
  // A model that does not fit does not decode at all on that device.
  std::string Decode(Fit fit, double decode_tps) const {
    return fit == Fit::kNoFit ? Text("out.decode_no_fit") : Rate(decode_tps);
  }
  // A rating: "Runs with offload" where a plan runs what does not fit (offload_decode_tps > 0).
  std::string Rating(Fit fit, double offload_decode_tps) const {
    return offload_decode_tps > 0 ? Text("offload.fit") : Named("fit", kFits, fit);
  }
  std::string Context() const { return ContextLabel(response.simulator.context_tokens); }
  std::string FormatLabel() const { return std::string(response.simulator.format->label); }
  std::string KvLabel() const { return std::string(response.simulator.kv_dtype->label); }
};

std::string Summary(const Page& p) {
  const ModelSpec& m = p.response.model;
  return "# " + p.Fill("page.title", {{"model", m.name}}) + "\n\n" +
         p.Fill("page.summary", {{"model", m.name},
                                 {"family", m.family},
                                 {"license", m.license},
                                 {"topology", p.Named("topology", kTopologies, m.topology)},
                                 {"params_total", ParamsLabel(m.params_total)},
                                 {"params_active", ParamsLabel(m.params_active)},
                                 {"layers", std::to_string(m.num_hidden_layers)},
                                 {"attention", p.Named("attention", kAttentions, m.attention)},
                                 {"max_position", FormatGrouped(m.max_position_embeddings)}}) +
         "\n\n";
}

// The plan that runs with a part in host RAM (section 7), else nullptr.
const OffloadPlan* ChosenPlan(const Page& p) { return p.response.offload ? p.response.offload->Chosen() : nullptr; }

// With a plan, the longest context on the GPU alone and with offload (the page's
// render/simulator.js and render/offload.js).
std::string MaxContextText(const Page& p) {
  const SimulatorResult& s = p.response.simulator;
  const std::string tokens = FormatGrouped(s.max_context_tokens);
  const int64_t with_offload = p.response.offload ? p.response.offload->max_context_tokens : 0;
  return (s.max_context_capped ? p.Fill("out.max_context_at_least", {{"tokens", tokens}}) : tokens) + " " +
         p.Text(ChosenPlan(p) ? "offload.gpu_tokens" : "unit.tokens") + " (" +
         p.Fill("out.max_position", {{"tokens", FormatGrouped(p.response.model.max_position_embeddings)}}) +
         (with_offload > 0 ? " · " + p.Fill("offload.max_context", {{"tokens", FormatGrouped(with_offload)}}) : "") + ")";
}

// A kind of device as the error table names it: "CUDA · datacenter GPUs".
std::string DevicesOfKind(const Page& p, const Device& device) {
  return p.Text("platform." + std::string(kPlatforms.Id(device.platform))) + " · " +
         p.Text(device.unified_memory ? "class.unified" : "class." + std::string(kDeviceClasses.Id(device.device_class)));
}

// How far off the decode figure is (estimation model section 6): its rule's median error on
// the published runs, the reference constants' on the engine's runs where it has no rule, or
// that no runs were found for the device's platform.
std::string DecodeErrorRow(const Page& p) {
  const SimulatorResult& s = p.response.simulator;
  if (ChosenPlan(p)) {  // the plan's speed: the offload rule's error (web/js/render/offload.js)
    const DecodeError& held = p.response.offload->rule->holdout;
    return Row({p.Text("out.decode_error"),
                held.points > 0 ? p.Fill("offload.error", {{"median", FormatFixed(Percent(held.median_pct), 1)},
                                                           {"points", FormatGrouped(held.points)}})
                                : p.Text("offload.unknown")});
  }
  if (!s.decode_rule) {  // the reference constants: their error on the engine's runs there, if any
    const DecodeError checked = s.decode_check ? s.decode_check->error : DecodeError{};
    return Row({p.Text("out.decode_error"), p.Fill(s.decode_check ? "decode.checked" : "decode.unmeasured",
                                                   {{"devices", DevicesOfKind(p, *s.device)},
                                                    {"median", FormatFixed(Percent(checked.median_pct), 0)},
                                                    {"points", FormatGrouped(checked.points)}})});
  }
  // On the held-out sources' runs beside the fitted ones' (web/js/render/accuracy.js).
  const DecodeRule& rule = *s.decode_rule;
  const std::string text = p.Fill(rule.holdout.points > 0 ? "decode.error" : "decode.error_fitted",
                                  {{"median", FormatFixed(Percent(rule.holdout.median_pct), 1)},
                                   {"points", FormatGrouped(rule.holdout.points)},
                                   {"fit_median", FormatFixed(Percent(rule.error.median_pct), 1)},
                                   {"fit_points", FormatGrouped(rule.error.points)}});
  return Row({p.Text("out.decode_error"), text});
}

// The engine profiles' rows (none under the reference profile, whose page has none): what a
// device may hold and why, the KV pool, the weights left in host RAM.
std::string EngineRows(const Page& p) {
  const SimulatorResult& s = p.response.simulator;
  if (s.runtime == kDefaultRuntimeId) return "";
  std::string util = FormatFixed(s.engine.memory_utilization, 3);  // "0.92", not "0.920"
  while (util.back() == '0') util.pop_back();
  if (util.back() == '.') util.pop_back();
  // An engine that keeps more free beside a model's towers says so (Ollama's projector headroom).
  const std::string towers = "capacity." + std::string(s.runtime) + "_towers";
  const bool towers_note = s.vision_gib > 0 && p.t.texts().count(towers) > 0;
  std::string out = Row({p.Text("out.capacity"),
                         FormatGb(s.capacity_gib) + " (" +
                             p.Fill(towers_note ? towers : "capacity." + std::string(s.runtime),
                                    {{"util", util},
                                     {"visible", FormatGb(s.visible_gib)},
                                     {"memory", FormatGb(s.device->memory_gib)}}) +
                             ")"});
  if (const std::optional<KvPool>& pool = p.response.pool) {
    out += Row({p.Text("out.kv_pool"), p.Fill("pool.tokens", {{"tokens", FormatGrouped(pool->tokens)}}) + ", " +
                                           p.Fill("pool.gib", {{"gib", FormatGb(pool->gib)}})});
  }
  // With a plan: what it keeps in RAM (the offload section's summary), else the token embedding.
  const OffloadPlan* plan = ChosenPlan(p);
  const double host_gib = plan ? plan->host_gib : s.host_gib;
  if (host_gib > 0) {
    out += Row({p.Text("out.host"), p.Fill(plan ? "offload.host_note" : "host.note", {{"gib", FormatGb(host_gib)}})});
  }
  return out + DecodeErrorRow(p);
}

// A RAM type as the page labels it (web/js/render/offload.js ramTypeLabel): "DDR5-5600, 2
// channels (desktop)" from its id and channels; 2 channels are a desktop's, 4 a workstation's.
std::string RamTypeLabel(const Page& p, const HostMemoryType& type) {
  std::string kind(type.id.substr(0, type.id.find('-')));
  for (char& c : kind) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string tier = type.channels <= 2 ? "desktop" : type.channels <= 4 ? "workstation" : "server";
  return p.Fill("offload.ramtype_label", {{"kind", kind},
                                          {"speed", std::to_string(static_cast<int64_t>(type.mega_transfers))},
                                          {"n", std::to_string(type.channels)},
                                          {"tier", p.Text("offload.tier." + tier)}});
}

// llama.cpp's flags for a plan; under Ollama, which places it itself, the same split in words.
std::string HowToRun(const Page& p, const OffloadPlan& plan) {
  if (p.response.simulator.runtime != "ollama") return p.Text("offload.flags") + " `" + LlamaCppOffloadFlags(plan) + "`";
  const std::string split =
      plan.kind == OffloadKind::kLayers ? p.Fill("offload.plan.layers", {{"layers", std::to_string(plan.gpu_layers)}})
      : plan.AllExpertsInRam()
          ? p.Text("offload.plan.all_experts")
          : p.Fill("offload.plan.experts", {{"layers", std::to_string(plan.ram_expert_layers)}});
  return p.Fill("offload.ollama", {{"split", split}});
}

// Section 7: what runs with a part in host RAM, when the model does not fit (the page's offload
// block): the plan and its flags, or why nothing runs; the host.
std::string OffloadText(const Page& p) {
  if (!p.response.offload) return "";
  const Offload& offload = *p.response.offload;
  std::string out;
  if (const OffloadPlan* plan = offload.Chosen()) {
    // A plan's device side is per device: "on each of the N GPUs" where the layers are split.
    const int64_t count = p.response.simulator.device_count;
    out += "**" + p.Text("offload.fit") + "**: " +
           p.Fill(count > 1 ? "offload.summary_each" : "offload.summary",
                  {{"share", FormatFixed(plan->ram_share_pct, 0)}, {"ram", FormatGb(plan->host_gib)},
                   {"gpu", FormatGb(plan->device_gib)}, {"count", std::to_string(count)},
                   {"tps", FormatFixed(plan->decode_tps, 1)}}) +
           " " + HowToRun(p, *plan) + "\n\n";
  } else {
    double needed = 0;
    for (const OffloadPlan& candidate : offload.plans) {
      if (candidate.fit != Fit::kNoFit && (needed == 0 || candidate.host_gib < needed)) needed = candidate.host_gib;
    }
    out += (needed == 0 ? p.Text("offload.none")
                        : p.Fill("offload.no_run", {{"needed", FormatGb(needed)}, {"usable", FormatGb(offload.host_usable_gib)},
                                                    {"total", FormatGb(offload.host.memory_gib)}})) + "\n\n";
  }
  const std::string type = offload.host.type ? RamTypeLabel(p, *offload.host.type) : p.Text("offload.custom_type");
  return out + p.Fill("offload.host", {{"total", FormatGb(offload.host.memory_gib)},
                                       {"usable", FormatGb(offload.host_usable_gib)}, {"type", type},
                                       {"bandwidth", FormatFixed(offload.host.bandwidth_gbps, 1)}}) + "\n\n";
}

// When the model does not fit, the nearest ways to make it run (evaluate.h Ways), as the page's
// line under the verdict; empty where it fits or none does.
std::string WaysText(const Page& p) {
  if (!p.response.ways) return "";
  const Ways& w = *p.response.ways;
  std::vector<std::string> ways;
  if (w.format) {
    ways.push_back(p.Fill("offload.ways.format", {{"format", std::string(w.format->label)}, {"total", FormatGb(w.format_total_gib)}}));
  }
  if (w.context_tokens > 0) ways.push_back(p.Fill("offload.ways.context", {{"context", FormatGrouped(w.context_tokens)}}));
  if (w.offload_runtime && w.offload_runtime->id != p.response.simulator.runtime) {
    ways.push_back(p.Fill("offload.ways.offload", {{"runtime", p.Text("runtime." + std::string(w.offload_runtime->id))},
                                                   {"format", std::string(w.offload_format->label)},
                                                   {"tps", FormatFixed(w.offload_decode_tps, 1)}}));
  }
  if (w.device) ways.push_back(p.Fill("offload.ways.device", {{"device", w.device->name}}));
  if (ways.empty()) return "";
  std::string out = p.Text("offload.ways.lead");
  for (std::size_t i = 0; i < ways.size(); ++i) out += (i == 0 ? " " : " · ") + ways[i];
  return out + "\n\n";
}

std::string Simulator(const Page& p) {
  const SimulatorResult& s = p.response.simulator;
  std::string out = "## " + p.Fill("sim.heading", {{"model", p.response.model.name}}) + "\n\n";
  out += "**" + p.Fill("sim.context_value", {{"tokens", FormatGrouped(s.context_tokens)}}) + "** · " +
         p.FormatLabel() + " · " + p.Devices(s.device_count, s.device->name) + " · " + p.Text("sim.batch_label") +
         " " + std::to_string(s.batch) + " · " + p.Text("sim.kv_label") + " " + p.KvLabel() + "\n\n";
  out += "### " + p.Text("sim.breakdown_heading") + "\n\n";
  out += "**" + p.Named("fit", kFits, s.fit) + "**\n\n";
  out += OffloadText(p);
  out += WaysText(p);
  if (const std::optional<GpuMap>& map = p.response.gpu_map) {
    // macOS: the verdict is its default's, "does not fit"; the note gives the rate once raised.
    out += p.Fill(map->limit == GpuLimit::kMacosWired ? "offload.gpu_map_macos" : "offload.gpu_map",
                  {{"default", FormatGb(map->default_gib)}, {"needed", FormatGb(map->needed_gib)},
                   {"command", "`" + GpuMapCommand(*map) + "`"}, {"tps", FormatFixed(s.decode_tps, 1)}}) +
           "\n\n";
  }
  out += p.Text("share.weights") + ": " + FormatShare(s.share_weights_pct) + "% · " + p.Text("share.kv_cache") +
         ": " + FormatShare(s.share_kv_cache_pct) + "% · " +
         (s.vision_gib > 0 ? p.Text("share.vision") + ": " + FormatShare(s.share_vision_pct) + "% · " : "") +
         p.Text("share.overhead") + ": " + FormatShare(s.share_overhead_pct) + "%\n\n";
  out += "| | |\n|---|---:|\n";
  out += Row({p.Text("out.total"), FormatGb(s.total_gib)});
  out += Row({p.Text("out.per_device"), FormatGb(s.per_device_gib)});
  out += Row({p.Text("out.weights"), FormatGb(s.weights_gib)});
  if (s.vision_gib > 0) out += Row({p.Text("out.vision"), FormatGb(s.vision_gib)});
  out += Row({p.Fill("out.kv_cache", {{"kv_dtype", p.KvLabel()}}), FormatGb(s.kv_cache_gib)});
  const OffloadPlan* plan = ChosenPlan(p);
  out += Row({p.Text("out.decode"), plan ? p.Decode(plan->fit, plan->decode_tps) : p.Decode(s.fit, s.decode_tps)});
  out += Row({p.Text("out.overhead"), FormatGb(s.overhead_gib)});
  out += Row({p.Text("out.max_context"), MaxContextText(p)});
  out += EngineRows(p);
  out += "\n" + p.Fill("sim.kv_saving." + std::string(kKvCompressions.Id(s.kv_compression)),
                       {{"pct", FormatFixed(s.kv_saving_pct, 1)}, {"gib", FormatFixed(s.kv_naive_mha_gib, 2)}});
  return out + "\n\n";
}

std::string Matrix(const Page& p) {
  const SimulatorResult& s = p.response.simulator;
  std::string out = "## " + p.Text("matrix.heading") + "\n\n";
  out += p.Fill("matrix.caption", {{"batch", std::to_string(s.batch)}, {"kv_dtype", p.KvLabel()}}) + "\n\n";
  std::string head = "| " + Cell(p.Text("matrix.col.format")) + " | " + Cell(p.Text("matrix.col.bpw")) + " | " +
                     Cell(p.Text("matrix.col.weights")) + " |";
  std::string rule = "|---|---:|---:|";
  for (const MatrixContext& context : kMatrixContexts) {
    head += " " + Cell(p.Fill("matrix.col.total", {{"context", std::string(context.label)}})) + " |";
    rule += "---:|";
  }
  out += head + " " + Cell(p.Text("matrix.col.recommended")) + " |\n" + rule + "---|\n";
  for (const MatrixRow& row : p.response.matrix) {
    std::string line = "| " + Cell(row.format->label) + " | " + FormatFixed(row.format->bits_per_weight, 2) +
                       " bpw | " + FormatGb(row.weights_gib) + " |";
    for (const double total_gib : row.total_gib) line += " " + FormatGb(total_gib) + " |";
    const std::string recommended = row.recommended
                                        ? p.Devices(row.recommended->device_count, row.recommended->device->name)
                                        : p.Text("device.none_fits");
    out += line + " " + Cell(recommended) + " |\n";
  }
  return out + "\n";
}

std::string Hardware(const Page& p) {
  const SimulatorResult& s = p.response.simulator;
  std::string out = "## " + p.Fill("hw.heading", {{"model", p.response.model.name}, {"format", p.FormatLabel()},
                                                  {"context", p.Context()}}) + "\n\n";
  out += p.Text("hw.caption") + "\n\n";
  out += Row({p.Text("hw.col.device"), p.Text("hw.col.memory"), p.Fill("hw.col.needed", {{"context", p.Context()}}),
              p.Text("hw.col.fit"), p.Text("hw.col.decode")});
  out += "|---|---|---:|---|---:|\n";
  for (const HardwareRow& row : p.response.hardware) {
    // A device whose operating system must let its GPU use more: the command, and the rate then.
    const GpuMap* map = row.gpu_map ? &*row.gpu_map : nullptr;
    out += Row({p.Devices(s.device_count, row.device->name),
                Amount(row.device->memory_gib) + " GB · " + Amount(row.device->bandwidth_gbps) + " GB/s",
                FormatGb(row.needed_gib) + " (" + FormatFixed(row.usage_pct, 0) + "%)",
                map ? p.Fill("hw.gpu_map", {{"command", GpuMapCommand(*map)}}) : p.Rating(row.fit, row.offload_decode_tps),
                row.offload_decode_tps > 0 ? p.Rate(row.offload_decode_tps)
                : map                      ? p.Rate(row.decode_tps)
                                           : p.Decode(row.fit, row.decode_tps)});
  }
  return out + "\n";
}

// How the layers divide when they are not all one group (the page's card says the same):
// "48 layers: 12 full attention + 36 linear attention / SSM; 75.38 MiB recurrent state per
// sequence at 32 bits". Empty for a model whose layers are all alike.
std::string LayerPattern(const Page& p, const ModelSpec& m) {
  if (m.layer_groups.size() < 2) return "";
  std::string parts;
  double state_elements = 0;
  for (const LayerGroup& g : m.layer_groups) {
    parts += (parts.empty() ? "" : " + ") +
             p.Fill("arch.kind." + std::string(kLayerKinds.Id(g.kind)),
                    {{"n", FormatGrouped(g.layers)}, {"window", FormatGrouped(g.window_tokens)}, {"ratio", FormatGrouped(g.compress_ratio)}});
    state_elements += static_cast<double>(g.layers) * static_cast<double>(g.state_elements);
  }
  std::string text = p.Fill("arch.pattern.text", {{"layers", FormatGrouped(m.num_hidden_layers)}, {"parts", parts}});
  if (state_elements > 0) text += "; " + p.Fill("arch.pattern.state", {{"mib", FormatFixed(state_elements * 4 / (1 << 20), 2)}});
  return text;
}

std::string Card(const Page& p) {
  const ModelSpec& m = p.response.model;
  std::string out = "## " + p.Text("arch.heading") + "\n\n| | |\n|---|---|\n";
  out += Row({p.Text("arch.checkpoint"), m.checkpoint});
  out += Row({p.Text("arch.ollama_tag"), m.ollama_tag.empty() ? p.Text("arch.ollama_none") : m.ollama_tag});
  out += Row({p.Text("arch.license_release"), m.license + " · " + m.release});
  out += Row({p.Text("arch.topology"), Capitalized(p.Named("topology", kTopologies, m.topology))});
  out += Row({p.Text("arch.attention"), p.Named("attention", kAttentions, m.attention)});
  out += Row({p.Text("arch.params_total"), ParamsLabel(m.params_total)});
  out += Row({p.Text("arch.params_active"), ParamsLabel(m.params_active)});
  if (m.vision_params > 0) out += Row({p.Text("arch.params_vision"), ParamsLabel(m.vision_params)});
  const double unaligned = m.unaligned_params + m.unaligned_expert_params + m.unaligned_hidden_params +
                           m.unaligned_hidden_expert_params;
  if (unaligned > 0) {
    out += Row({p.Text("arch.params_unaligned"), ParamsLabel(unaligned)});
  }
  out += Row({p.Text("arch.layers_hidden"), std::to_string(m.num_hidden_layers) + " / " + std::to_string(m.hidden_size)});
  out += Row({p.Text("arch.heads"), std::to_string(m.num_attention_heads) + "Q / " +
                                        std::to_string(m.num_key_value_heads) + "KV (d=" + std::to_string(m.head_dim) + ")"});
  out += Row({p.Text("arch.vocab_position"),
              FormatGrouped(m.vocab_size) + " / " + FormatGrouped(m.max_position_embeddings)});
  if (const std::string pattern = LayerPattern(p, m); !pattern.empty()) out += Row({p.Text("arch.pattern"), pattern});
  std::string sources;
  for (const Source& source : m.sources) sources += (sources.empty() ? "" : "; ") + source.what + ": " + source.url;
  out += Row({p.Text("arch.sources"), sources});
  return out + "\n" + p.Text("explain.bpw") + "\n\n" + p.Text("explain.kv") + "\n\n";
}

// Every command under its title, in the runtime profile's order.
std::string Commands(const Page& p) {
  const SimulatorResult& s = p.response.simulator;
  // The reference page's heading names vLLM and Ollama, its commands; an engine's names the engine.
  const std::string_view runtime = s.runtime;
  const std::string& model = p.response.model.name;
  std::string out = "## " +
                    (runtime == "reference" ? p.Fill("cmd.heading", {{"model", model}})
                                            : p.Fill("cmd.heading_engine", {{"engine", p.Text("runtime." + std::string(runtime))},
                                                                            {"model", model}})) +
                    "\n\n";
  for (const Command& command : p.response.commands) {
    out += "### " + p.Fill(command.title, {{"device", p.Devices(s.device_count, s.device->name)}}) + "\n\n";
    out += "```" + command.language + "\n" + command.text + "\n```\n\n";
  }
  return out;
}

std::string Related(const Page& p) {
  const SimulatorResult& s = p.response.simulator;
  std::string out = "## " + p.Text("related.heading") + "\n\n";
  out += Row({p.Text("related.col.model"), p.Text("related.col.params"),
              p.Fill("related.col.total", {{"format", p.FormatLabel()}, {"context", p.Context()}}),
              p.Fill("related.col.fit", {{"device", s.device->name}})});
  out += "|---|---:|---:|---|\n";
  for (const RelatedModel& row : p.response.related) {
    std::string fit = row.beyond_max_position
                          ? p.Fill("related.beyond", {{"tokens", FormatGrouped(row.model->max_position_embeddings)}})
                          : p.Rating(row.fit, row.offload_decode_tps);
    if (row.offload_decode_tps > 0) fit += ", " + p.Rate(row.offload_decode_tps);
    out += Row({row.model->name, ParamsLabel(row.model->params_total), FormatGb(row.total_gib), fit});
  }
  return out;
}

}  // namespace

std::string RenderPageMarkdown(const Response& response, Lang lang) {
  const Page page{response, BuiltinStrings(lang)};
  return Summary(page) + Simulator(page) + Matrix(page) + Hardware(page) + Card(page) + Commands(page) +
         Related(page);
}

}  // namespace vramcalc
