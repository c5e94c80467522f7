#include "vramcalc/page_markdown.h"

#include <cctype>
#include <string>

#include "vramcalc/display.h"
#include "vramcalc/i18n.h"

namespace vramcalc {
namespace {

std::string Gb(double gib) { return FormatFixed(gib, 2) + " GB"; }

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

std::string DeviceName(const Catalog& catalog, const std::string& id) {
  const Device* device = catalog.FindDevice(id);
  return device ? device->name : id;
}

// "RTX 3090 24GB", or "2× RTX 3090 24GB" for a tensor-parallel group.
std::string Devices(const Strings& t, int64_t count, const std::string& name) {
  if (count <= 1) return name;
  return FillTemplate(t.Text("unit.times"), {{"count", std::to_string(count)}, {"device", name}});
}

// The KV-compression sentence for the model's family (the reference page's is grouped heads).
std::string KvSavingKey(KvCompression compression) {
  switch (compression) {
    case KvCompression::kGroupedHeads: return "sim.kv_saving";
    case KvCompression::kLatent: return "sim.kv_saving.latent";
    case KvCompression::kWindow: return "sim.kv_saving.window";
    case KvCompression::kGroupedHeadsAndWindow: return "sim.kv_saving.grouped_heads_window";
    case KvCompression::kNone: return "sim.kv_saving.none";
  }
  return "sim.kv_saving";
}

// A model that does not fit does not decode at all on that device.
std::string DecodeText(const Strings& t, Fit fit, double decode_tps) {
  if (fit == Fit::kNoFit) return std::string(t.Text("out.decode_no_fit"));
  return FormatFixed(decode_tps, 1) + " " + std::string(t.Text("unit.tps"));
}

std::string MaxContextText(const Strings& t, const SimulatorResult& s) {
  const std::string tokens = FormatGrouped(s.max_context_tokens);
  return s.max_context_capped ? FillTemplate(t.Text("out.max_context_at_least"), {{"tokens", tokens}})
                              : tokens;
}

}  // namespace

std::string RenderPageMarkdown(const Response& response, const Catalog& catalog) {
  const Strings& t = BuiltinStrings(response.lang);
  const ModelSpec& m = response.model;
  const SimulatorResult& s = response.simulator;
  const std::string context = ContextLabel(s.context_tokens);
  const std::string topology(t.Text("topology." + std::string(m.topology == Topology::kMoe ? "moe" : "dense")));
  std::string attention_key = "attention.gqa";
  switch (m.attention) {
    case Attention::kMha: attention_key = "attention.mha"; break;
    case Attention::kGqa: attention_key = "attention.gqa"; break;
    case Attention::kMqa: attention_key = "attention.mqa"; break;
    case Attention::kMla: attention_key = "attention.mla"; break;
  }
  const std::string attention(t.Text(attention_key));
  const std::string kv_label(FindKvDtype(s.kv_dtype)->label);
  const std::string format_label(FindQuantFormat(s.format)->label);

  std::string out;
  out += "# " + FillTemplate(t.Text("page.title"), {{"model", m.name}}) + "\n\n";
  out += FillTemplate(t.Text("page.summary"),
                      {{"model", m.name},
                       {"family", m.family},
                       {"license", m.license},
                       {"topology", topology},
                       {"params_total", ParamsLabel(m.params_total)},
                       {"params_active", ParamsLabel(m.params_active)},
                       {"layers", std::to_string(m.num_hidden_layers)},
                       {"attention", attention},
                       {"max_position", FormatGrouped(m.max_position_embeddings)}}) +
         "\n\n";

  // The simulator.
  out += "## " + FillTemplate(t.Text("sim.heading"), {{"model", m.name}}) + "\n\n";
  out += "**" + FillTemplate(t.Text("sim.context_value"), {{"tokens", FormatGrouped(s.context_tokens)}}) +
         "** · " + format_label + " · " + Devices(t, s.device_count, s.device_name) + " · " +
         std::string(t.Text("sim.batch_label")) +
         " " + std::to_string(s.batch) + " · " + std::string(t.Text("sim.kv_label")) + " " + kv_label +
         "\n\n";
  out += "### " + std::string(t.Text("sim.breakdown_heading")) + "\n\n";
  out += "**" + std::string(FitLabel(s.fit, response.lang)) + "**\n\n";
  out += std::string(t.Text("share.weights")) + ": " + FormatShare(s.share_weights_pct) + "% · " +
         std::string(t.Text("share.kv_cache")) + ": " + FormatShare(s.share_kv_cache_pct) + "% · " +
         std::string(t.Text("share.overhead")) + ": " + FormatShare(s.share_overhead_pct) + "%\n\n";
  out += "| | |\n|---|---:|\n";
  out += Row({std::string(t.Text("out.total")), Gb(s.total_gib)});
  out += Row({std::string(t.Text("out.per_device")), Gb(s.per_device_gib)});
  out += Row({std::string(t.Text("out.weights")), Gb(s.weights_gib)});
  out += Row({FillTemplate(t.Text("out.kv_cache"), {{"kv_dtype", kv_label}}), Gb(s.kv_cache_gib)});
  out += Row({std::string(t.Text("out.decode")), DecodeText(t, s.fit, s.decode_tps)});
  out += Row({std::string(t.Text("out.overhead")), Gb(s.overhead_gib)});
  out += Row({std::string(t.Text("out.max_context")),
              MaxContextText(t, s) + " " + std::string(t.Text("unit.tokens")) + " (" +
                  FillTemplate(t.Text("out.max_position"),
                               {{"tokens", FormatGrouped(m.max_position_embeddings)}}) +
                  ")"});
  out += "\n" + FillTemplate(t.Text(KvSavingKey(s.kv_compression)),
                             {{"pct", FormatFixed(s.kv_saving_pct, 1)},
                              {"gib", FormatFixed(s.kv_naive_mha_gib, 2)}}) +
         "\n\n";

  // The quantization matrix.
  out += "## " + std::string(t.Text("matrix.heading")) + "\n\n";
  out += FillTemplate(t.Text("matrix.caption"), {{"batch", std::to_string(s.batch)}, {"kv_dtype", kv_label}}) +
         "\n\n";
  out += Row({std::string(t.Text("matrix.col.format")), std::string(t.Text("matrix.col.bpw")),
              std::string(t.Text("matrix.col.weights")),
              FillTemplate(t.Text("matrix.col.total"), {{"context", "8K"}}),
              FillTemplate(t.Text("matrix.col.total"), {{"context", "32K"}}),
              FillTemplate(t.Text("matrix.col.total"), {{"context", "128K"}}),
              std::string(t.Text("matrix.col.recommended"))});
  out += "|---|---:|---:|---:|---:|---:|---|\n";
  for (const MatrixRow& row : response.matrix) {
    out += Row({row.label, FormatFixed(row.bits_per_weight, 2) + " bpw", Gb(row.weights_gib),
                Gb(row.total_gib.at(8192)), Gb(row.total_gib.at(32768)), Gb(row.total_gib.at(131072)),
                row.recommended_device
                    ? Devices(t, row.recommended_device_count, DeviceName(catalog, *row.recommended_device))
                    : std::string(t.Text("matrix.none"))});
  }
  out += "\n";

  // The hardware table.
  out += "## " + FillTemplate(t.Text("hw.heading"), {{"model", m.name}, {"format", format_label}, {"context", context}}) +
         "\n\n";
  out += std::string(t.Text("hw.caption")) + "\n\n";
  out += Row({std::string(t.Text("hw.col.device")), std::string(t.Text("hw.col.memory")),
              FillTemplate(t.Text("hw.col.needed"), {{"context", context}}), std::string(t.Text("hw.col.fit")),
              std::string(t.Text("hw.col.decode"))});
  out += "|---|---|---:|---|---:|\n";
  for (const HardwareRow& row : response.hardware) {
    out += Row({Devices(t, s.device_count, row.name), Amount(row.memory_gib) + " GB · " + Amount(row.bandwidth_gbps) + " GB/s",
                Gb(row.needed_gib) + " (" + FormatFixed(row.usage_pct, 0) + "%)",
                std::string(FitLabel(row.fit, response.lang)),
                DecodeText(t, row.fit, row.decode_tps)});
  }
  out += "\n";

  // The architecture card.
  out += "## " + std::string(t.Text("arch.heading")) + "\n\n| | |\n|---|---|\n";
  out += Row({std::string(t.Text("arch.checkpoint")), m.checkpoint});
  out += Row({std::string(t.Text("arch.ollama_tag")),
              m.ollama_tag.empty() ? std::string(t.Text("arch.ollama_none")) : m.ollama_tag});
  out += Row({std::string(t.Text("arch.license_release")), m.license + " · " + m.release});
  out += Row({std::string(t.Text("arch.topology")), Capitalized(topology)});
  out += Row({std::string(t.Text("arch.attention")), attention});
  out += Row({std::string(t.Text("arch.params_total")), ParamsLabel(m.params_total)});
  out += Row({std::string(t.Text("arch.params_active")), ParamsLabel(m.params_active)});
  out += Row({std::string(t.Text("arch.layers_hidden")),
              std::to_string(m.num_hidden_layers) + " / " + std::to_string(m.hidden_size)});
  out += Row({std::string(t.Text("arch.heads")), std::to_string(m.num_attention_heads) + "Q / " +
                                                     std::to_string(m.num_key_value_heads) + "KV (d=" +
                                                     std::to_string(m.head_dim) + ")"});
  out += Row({std::string(t.Text("arch.vocab_position")),
              FormatGrouped(m.vocab_size) + " / " + FormatGrouped(m.max_position_embeddings)});
  std::string sources;
  for (const Source& source : m.sources) {
    sources += (sources.empty() ? "" : "; ") + source.what + ": " + source.url;
  }
  out += Row({std::string(t.Text("arch.sources")), sources});
  out += "\n" + std::string(t.Text("explain.bpw")) + "\n\n" + std::string(t.Text("explain.kv")) + "\n\n";

  // The commands.
  out += "## " + FillTemplate(t.Text("cmd.heading"), {{"model", m.name}}) + "\n\n";
  out += "### " + FillTemplate(t.Text("cmd.vllm"), {{"device", Devices(t, s.device_count, s.device_name)}}) +
         "\n\n";
  out += "```sh\n" + response.commands.vllm + "\n```\n\n";
  out += "### " + std::string(t.Text("cmd.ollama")) + "\n\n";
  out += "```\n" + response.commands.ollama_modelfile + "\n```\n\n";
  out += "```sh\n" + response.commands.ollama_env + "\n```\n\n";

  // Related models.
  out += "## " + std::string(t.Text("related.heading")) + "\n\n";
  out += Row({std::string(t.Text("related.col.model")), std::string(t.Text("related.col.params")),
              FillTemplate(t.Text("related.col.total"), {{"format", format_label}, {"context", context}}),
              FillTemplate(t.Text("related.col.fit"), {{"device", s.device_name}})});
  out += "|---|---:|---:|---|\n";
  for (const RelatedModel& row : response.related) {
    out += Row({row.name, ParamsLabel(row.params_total), Gb(row.total_gib),
                std::string(FitLabel(row.fit, response.lang))});
  }
  return out;
}

}  // namespace vramcalc
