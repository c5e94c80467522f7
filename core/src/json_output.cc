// The JSON the core writes: the per-frame response, the sweep, errors and the catalog
// listings, through one streaming writer into one growing buffer (see json_output.h): this
// runs on every slider move.
#include "json_output.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

// Only nlohmann's number formatting (shortest round-trip digits), not the json type.
#include <nlohmann/detail/conversions/to_chars.hpp>

#include "vramcalc/evaluate.h"
#include "vramcalc/i18n.h"
#include "vramcalc/quant_format.h"

namespace vramcalc {
namespace {

std::string_view TopologyId(Topology topology) {
  return topology == Topology::kMoe ? "moe" : "dense";
}

std::string_view AttentionId(Attention attention) {
  switch (attention) {
    case Attention::kMha: return "mha";
    case Attention::kGqa: return "gqa";
    case Attention::kMqa: return "mqa";
    case Attention::kMla: return "mla";
  }
  return "gqa";
}

std::string_view KvCompressionId(KvCompression compression) {
  switch (compression) {
    case KvCompression::kNone: return "none";
    case KvCompression::kGroupedHeads: return "grouped_heads";
    case KvCompression::kLatent: return "latent";
    case KvCompression::kWindow: return "window";
    case KvCompression::kGroupedHeadsAndWindow: return "grouped_heads_window";
  }
  return "none";
}

std::string_view VendorId(Vendor vendor) {
  switch (vendor) {
    case Vendor::kNvidia: return "nvidia";
    case Vendor::kAmd: return "amd";
    case Vendor::kApple: return "apple";
  }
  return "nvidia";
}

std::string_view DeviceClassId(DeviceClass device_class) {
  switch (device_class) {
    case DeviceClass::kConsumer: return "consumer";
    case DeviceClass::kApple: return "apple";
    case DeviceClass::kDatacenter: return "datacenter";
  }
  return "consumer";
}

// A streaming JSON writer for the per-frame response, byte-identical to nlohmann's dump():
// doubles through nlohmann's own to_chars (shortest round-trip digits, ".0" on integers,
// null when not finite), strings escaped as dump() does without ensure_ascii.
class JsonWriter {
 public:
  explicit JsonWriter(std::size_t capacity = 4096) { buffer_.resize(capacity); }

  // The text written so far; the writer is spent afterwards.
  std::string Take() && {
    buffer_.resize(size_);
    return std::move(buffer_);
  }

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  // Keys are this file's own ASCII literals (and matrix contexts): nothing to escape.
  void Key(std::string_view key) {
    Separate();
    char* at = Reserve(key.size() + 3);
    *at++ = '"';
    std::memcpy(at, key.data(), key.size());
    at[key.size()] = '"';
    at[key.size() + 1] = ':';
    size_ += key.size() + 3;
    after_key_ = true;
  }
  void Value(std::string_view text) {
    Separate();
    WriteString(text);
  }
  void Value(double number) {
    Separate();
    if (!std::isfinite(number)) {
      Put("null");
      return;
    }
    constexpr std::size_t kMaxDigits = 64;
    char* at = Reserve(kMaxDigits);
    size_ += static_cast<std::size_t>(nlohmann::detail::to_chars(at, at + kMaxDigits, number) - at);
  }
  // A finite number rounded to `decimals` places (half away from zero), without trailing
  // zeros: cheaper than the shortest round-trip form, for the sweep's thousands of numbers.
  void Rounded(double number, int decimals) {
    Separate();
    int64_t scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10;
    const int64_t scaled = std::llround(number * static_cast<double>(scale));
    const uint64_t magnitude = scaled < 0 ? 0 - static_cast<uint64_t>(scaled) : static_cast<uint64_t>(scaled);
    uint64_t whole = magnitude / static_cast<uint64_t>(scale);
    uint64_t fraction = magnitude % static_cast<uint64_t>(scale);
    int places = decimals;
    while (places > 0 && fraction % 10 == 0) {
      fraction /= 10;
      --places;
    }
    constexpr std::size_t kMaxDigits = 48;
    char* const start = Reserve(kMaxDigits);
    char* at = start;
    if (scaled < 0) *at++ = '-';
    at = std::to_chars(at, start + kMaxDigits, whole).ptr;
    if (places > 0) {
      *at++ = '.';
      char* const digits = at;
      at = std::to_chars(at, start + kMaxDigits, fraction).ptr;
      // Leading zeros of the fraction: 0.05 has fraction 5 at 2 places.
      const auto written = static_cast<std::size_t>(at - digits);
      const auto wanted = static_cast<std::size_t>(places);
      if (written < wanted) {
        std::memmove(digits + (wanted - written), digits, written);
        std::memset(digits, '0', wanted - written);
        at = digits + wanted;
      }
    }
    size_ += static_cast<std::size_t>(at - start);
  }
  void Value(int64_t number) {
    Separate();
    constexpr std::size_t kMaxDigits = 24;
    char* at = Reserve(kMaxDigits);
    size_ += static_cast<std::size_t>(std::to_chars(at, at + kMaxDigits, number).ptr - at);
  }
  void Value(bool flag) {
    Separate();
    Put(flag ? std::string_view("true") : std::string_view("false"));
  }
  void Null() {
    Separate();
    Put("null");
  }
  void Field(std::string_view key, const std::vector<std::string>& values) {
    Key(key);
    BeginArray();
    for (const std::string& value : values) Value(std::string_view(value));
    EndArray();
  }
  void Field(std::string_view key, const char* text) { Field(key, std::string_view(text)); }
  template <typename T>
  void Field(std::string_view key, const T& value) {
    Key(key);
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>) {
      Value(std::string_view(value));
    } else if constexpr (std::is_same_v<T, bool>) {
      Value(value);
    } else if constexpr (std::is_integral_v<T>) {
      Value(static_cast<int64_t>(value));
    } else {
      Value(static_cast<double>(value));
    }
  }

 private:
  // Room for `count` more bytes at the end of what is written; returns where they go.
  char* Reserve(std::size_t count) {
    if (size_ + count > buffer_.size()) buffer_.resize(std::max(2 * buffer_.size(), size_ + count));
    return buffer_.data() + size_;
  }
  void Put(char c) {
    *Reserve(1) = c;
    ++size_;
  }
  void Put(std::string_view text) {
    std::memcpy(Reserve(text.size()), text.data(), text.size());
    size_ += text.size();
  }
  void Separate() {
    if (after_key_) {
      after_key_ = false;
    } else if (!first_) {
      Put(',');
    }
    first_ = false;
  }
  void Open(char bracket) {
    Separate();
    Put(bracket);
    first_ = true;
  }
  void Close(char bracket) {
    Put(bracket);
    first_ = false;
  }
  // RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF.
  static bool ValidUtf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
      const auto lead = static_cast<unsigned char>(text[i]);
      if (lead < 0x80) {
        ++i;
        continue;
      }
      std::size_t length;
      uint32_t code;
      if ((lead & 0xE0) == 0xC0) length = 2, code = lead & 0x1Fu;
      else if ((lead & 0xF0) == 0xE0) length = 3, code = lead & 0x0Fu;
      else if ((lead & 0xF8) == 0xF0) length = 4, code = lead & 0x07u;
      else return false;
      if (i + length > text.size()) return false;
      for (std::size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0) != 0x80) return false;
        code = (code << 6) | (next & 0x3Fu);
      }
      if ((length == 2 && code < 0x80) || (length == 3 && code < 0x800) ||
          (length == 4 && (code < 0x10000 || code > 0x10FFFF)) || (code >= 0xD800 && code <= 0xDFFF)) {
        return false;
      }
      i += length;
    }
    return true;
  }

  void WriteString(std::string_view text) {
    // Invalid UTF-8 (never produced here, but possible in principle) goes through nlohmann,
    // which replaces it exactly as the rest of the output would.
    if (!ValidUtf8(text)) {
      Put(internal::InvalidUtf8StringJson(text));
      return;
    }
    Put('"');
    // Runs of characters that need no escape are copied at once.
    std::size_t run = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) continue;
      Put(text.substr(run, i - run));
      run = i + 1;
      switch (c) {
        case '"': Put("\\\""); break;
        case '\\': Put("\\\\"); break;
        case '\b': Put("\\b"); break;
        case '\f': Put("\\f"); break;
        case '\n': Put("\\n"); break;
        case '\r': Put("\\r"); break;
        case '\t': Put("\\t"); break;
        default: {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          Put(escaped);
        }
      }
    }
    Put(text.substr(run));
    Put('"');
  }

  std::string buffer_;
  std::size_t size_ = 0;
  bool first_ = true;
  bool after_key_ = false;
};


void WriteModel(JsonWriter& w, const ModelSpec& m) {
  w.BeginObject();
  w.Field("id", m.id);
  w.Field("name", m.name);
  w.Field("family", m.family);
  w.Field("checkpoint", m.checkpoint);
  w.Field("ollama_tag", m.ollama_tag);
  w.Field("ollama_tag_weights", m.ollama_tag_weights);
  w.Field("license", m.license);
  w.Field("release", m.release);
  w.Field("topology", TopologyId(m.topology));
  w.Field("attention", AttentionId(m.attention));
  w.Field("params_total", m.params_total);
  w.Field("params_active", m.params_active);
  w.Field("num_hidden_layers", m.num_hidden_layers);
  w.Field("hidden_size", m.hidden_size);
  w.Field("num_attention_heads", m.num_attention_heads);
  w.Field("num_key_value_heads", m.num_key_value_heads);
  w.Field("head_dim", m.head_dim);
  w.Field("vocab_size", m.vocab_size);
  w.Field("max_position_embeddings", m.max_position_embeddings);
  w.Field("params_formula", m.params_formula);
  w.Key("mla");
  if (m.mla) {
    w.BeginObject();
    w.Field("kv_lora_rank", m.mla->kv_lora_rank);
    w.Field("qk_rope_head_dim", m.mla->qk_rope_head_dim);
    w.Field("qk_nope_head_dim", m.mla->qk_nope_head_dim);
    w.Field("v_head_dim", m.mla->v_head_dim);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("sliding_window");
  if (m.sliding_window) {
    w.BeginObject();
    w.Field("window_tokens", m.sliding_window->window_tokens);
    w.Field("local_layers", m.sliding_window->local_layers);
    w.Field("pattern", m.sliding_window->pattern);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("moe");
  if (m.moe) {
    w.BeginObject();
    w.Field("num_experts", m.moe->num_experts);
    w.Field("experts_per_token", m.moe->experts_per_token);
    w.Field("shared_experts", m.moe->shared_experts);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("sources");
  w.BeginArray();
  for (const Source& source : m.sources) {
    w.BeginObject();
    w.Field("what", source.what);
    w.Field("url", source.url);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void WriteDevice(JsonWriter& w, const Device& d) {
  w.BeginObject();
  w.Field("id", d.id);
  w.Field("name", d.name);
  w.Field("memory_gib", d.memory_gib);
  w.Field("bandwidth_gbps", d.bandwidth_gbps);
  w.Field("class", DeviceClassId(d.device_class));
  w.Field("vendor", VendorId(d.vendor));
  w.Field("source", d.source);
  w.EndObject();
}

void WriteModels(JsonWriter& w, const Catalog& catalog) {
  w.BeginArray();
  for (const ModelSpec& model : catalog.models) WriteModel(w, model);
  w.EndArray();
}

void WriteDevices(JsonWriter& w, const Catalog& catalog) {
  w.BeginArray();
  for (const Device& device : catalog.devices) WriteDevice(w, device);
  w.EndArray();
}

}  // namespace

namespace internal {

std::string ModelsArrayJson(const Catalog& catalog) {
  JsonWriter w(1 << 17);
  WriteModels(w, catalog);
  return std::move(w).Take();
}

std::string DevicesArrayJson(const Catalog& catalog) {
  JsonWriter w(1 << 15);
  WriteDevices(w, catalog);
  return std::move(w).Take();
}

std::string CatalogObjectJson(const Catalog& catalog) {
  JsonWriter w(1 << 16);
  w.BeginObject();
  w.Field("ok", true);
  w.Field("schema", int64_t{kSchemaVersion});
  // The selectors need a model's id, name and family; its card comes with each evaluate().
  w.Key("models");
  w.BeginArray();
  for (const ModelSpec& model : catalog.models) {
    w.BeginObject();
    w.Field("id", model.id);
    w.Field("name", model.name);
    w.Field("family", model.family);
    w.Field("params_total", model.params_total);
    w.EndObject();
  }
  w.EndArray();
  w.Key("devices");
  WriteDevices(w, catalog);
  w.Key("formats");
  w.BeginArray();
  for (const QuantFormat& f : QuantFormats()) {
    w.BeginObject();
    w.Field("id", f.id);
    w.Field("label", f.label);
    w.Field("bpw", f.bits_per_weight);
    w.EndObject();
  }
  w.EndArray();
  w.Key("kv_dtypes");
  w.BeginArray();
  for (const KvDtype& k : KvDtypes()) {
    w.BeginObject();
    w.Field("id", k.id);
    w.Field("label", k.label);
    w.Field("bytes_per_element", k.bytes_per_element);
    w.EndObject();
  }
  w.EndArray();
  w.Field("recommendation_ladder", catalog.recommendation_ladder);
  w.Field("hardware_table", catalog.hardware_table);
  w.Key("defaults");
  w.BeginObject();
  w.Field("model", "glm-4-32b-0414");
  w.Field("format", kDefaultFormatId);
  w.Field("context", 32768);
  w.Field("batch", 1);
  w.Field("kv_dtype", kDefaultKvDtypeId);
  w.Field("lang", "de");
  w.EndObject();
  w.Key("limits");
  w.BeginObject();
  w.Field("max_context", kMaxRequestContextTokens);
  w.Field("max_batch", kMaxRequestBatch);
  w.Field("max_device_count", kMaxDeviceCount);
  w.EndObject();
  w.Key("strings");
  w.BeginObject();
  for (const Lang lang : {Lang::kDe, Lang::kEn}) {
    w.Key(LangId(lang));
    w.BeginObject();
    for (const auto& [key, value] : BuiltinStrings(lang).texts()) w.Field(key, value);
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
  return std::move(w).Take();
}

}  // namespace internal

std::string SerializeError(const Error& error) {
  JsonWriter w(512);
  w.BeginObject();
  w.Field("ok", false);
  w.Field("schema", int64_t{kSchemaVersion});
  w.Key("error");
  w.BeginObject();
  w.Field("code", error.code);
  w.Field("message", error.message);
  w.Field("field", error.field);
  w.EndObject();
  w.EndObject();
  return std::move(w).Take();
}

std::string SerializeResponse(const Response& response) {
  // Written directly, not through a json tree: this runs on every slider move, and building
  // and dumping an ordered_json was 85 % of an evaluate() call. The output is byte-identical
  // to nlohmann's dump (same number formatting, same escaping).
  const Lang lang = response.lang;
  const SimulatorResult& s = response.simulator;
  JsonWriter w(response.sections == kAllSections ? 16384 : 6144);
  w.BeginObject();
  w.Field("ok", true);
  w.Field("schema", int64_t{kSchemaVersion});
  w.Field("lang", LangId(lang));
  const auto wanted = [&response](uint32_t section) { return (response.sections & section) != 0; };
  if (wanted(kSectionModel)) {
    w.Key("model");
    WriteModel(w, response.model);
  }
  if (wanted(kSectionSimulator)) {
    w.Key("simulator");
    w.BeginObject();
    w.Field("device", s.device);
    w.Field("device_name", s.device_name);
    w.Field("memory_gib", s.memory_gib);
    w.Field("bandwidth_gbps", s.bandwidth_gbps);
    w.Field("format", s.format);
    w.Field("kv_dtype", s.kv_dtype);
    w.Field("context", s.context_tokens);
    w.Field("batch", s.batch);
    w.Field("device_count", s.device_count);
    w.Field("weights_gib", s.weights_gib);
    w.Field("kv_cache_gib", s.kv_cache_gib);
    w.Field("overhead_gib", s.overhead_gib);
    w.Field("total_gib", s.total_gib);
    w.Field("per_device_gib", s.per_device_gib);
    w.Key("share_pct");
    w.BeginObject();
    w.Field("weights", s.share_weights_pct);
    w.Field("kv_cache", s.share_kv_cache_pct);
    w.Field("overhead", s.share_overhead_pct);
    w.EndObject();
    w.Field("usage_pct", s.usage_pct);
    w.Field("fit", FitId(s.fit));
    w.Field("fit_label", FitLabel(s.fit, lang));
    w.Field("decode_tps", s.decode_tps);
    w.Field("max_context", s.max_context_tokens);
    w.Field("max_context_capped", s.max_context_capped);
    w.Field("kv_naive_mha_gib", s.kv_naive_mha_gib);
    w.Field("kv_saving_pct", s.kv_saving_pct);
    w.Field("kv_compression", KvCompressionId(s.kv_compression));
    w.EndObject();
  }
  if (wanted(kSectionCurve)) {
    w.Key("curve");
    w.BeginArray();
    for (const CurvePoint& point : response.curve) {
      w.BeginObject();
      w.Field("context", point.context_tokens);
      w.Field("kv_cache_gib", point.kv_cache_gib);
      w.Field("total_gib", point.total_gib);
      w.EndObject();
    }
    w.EndArray();
  }
  if (wanted(kSectionMatrix)) {
    w.Key("matrix");
    w.BeginArray();
    for (const MatrixRow& row : response.matrix) {
      w.BeginObject();
      w.Field("format", row.format);
      w.Field("label", row.label);
      w.Field("bpw", row.bits_per_weight);
      w.Field("weights_gib", row.weights_gib);
      w.Key("total_gib");
      w.BeginObject();
      for (const auto& [context_tokens, total_gib] : row.total_gib) {
        w.Field(std::to_string(context_tokens), total_gib);
      }
      w.EndObject();
      w.Key("recommended_device");
      if (row.recommended_device)
        w.Value(*row.recommended_device);
      else
        w.Null();
      w.Field("recommended_device_count", row.recommended_device_count);
      w.EndObject();
    }
    w.EndArray();
  }
  if (wanted(kSectionHardware)) {
    w.Key("hardware");
    w.BeginArray();
    for (const HardwareRow& row : response.hardware) {
      w.BeginObject();
      w.Field("device", row.device);
      w.Field("name", row.name);
      w.Field("memory_gib", row.memory_gib);
      w.Field("bandwidth_gbps", row.bandwidth_gbps);
      w.Field("needed_gib", row.needed_gib);
      w.Field("usage_pct", row.usage_pct);
      w.Field("fit", FitId(row.fit));
      w.Field("fit_label", FitLabel(row.fit, lang));
      w.Field("decode_tps", row.decode_tps);
      w.EndObject();
    }
    w.EndArray();
  }
  if (wanted(kSectionRelated)) {
    w.Key("related");
    w.BeginArray();
    for (const RelatedModel& row : response.related) {
      w.BeginObject();
      w.Field("id", row.id);
      w.Field("name", row.name);
      w.Field("params_total", row.params_total);
      w.Field("total_gib", row.total_gib);
      w.Field("fit", FitId(row.fit));
      w.Field("fit_label", FitLabel(row.fit, lang));
      w.EndObject();
    }
    w.EndArray();
  }
  if (wanted(kSectionCommands)) {
    w.Key("commands");
    w.BeginObject();
    w.Field("vllm", response.commands.vllm);
    w.Field("ollama_modelfile", response.commands.ollama_modelfile);
    w.Field("ollama_env", response.commands.ollama_env);
    w.EndObject();
  }
  w.EndObject();
  return std::move(w).Take();
}

std::string SerializeSweep(const SweepResult& sweep) {
  const std::size_t cells = sweep.cells.size();
  JsonWriter w(256 + 64 * cells);
  w.BeginObject();
  w.Field("ok", true);
  w.Field("schema", int64_t{kSchemaVersion});
  w.Field("context", sweep.request.context_tokens);
  w.Field("batch", sweep.request.batch);
  w.Field("kv_dtype", sweep.request.kv_dtype);
  w.Key("models");
  w.BeginArray();
  for (const ModelSpec* model : sweep.models) w.Value(std::string_view(model->id));
  w.EndArray();
  w.Key("formats");
  w.BeginArray();
  for (const QuantFormat* format : sweep.formats) w.Value(format->id);
  w.EndArray();
  w.Key("devices");
  w.BeginArray();
  for (const Device* device : sweep.devices) w.Value(std::string_view(device->id));
  w.EndArray();
  w.Key("fit_ids");
  w.BeginArray();
  for (const Fit fit : {Fit::kComfortable, Fit::kTight, Fit::kNoFit}) w.Value(FitId(fit));
  w.EndArray();
  w.Key("total_gib");
  w.BeginArray();
  for (const SweepCell& cell : sweep.cells) w.Rounded(cell.total_gib, kSweepGibDecimals);
  w.EndArray();
  w.Key("fit");
  w.BeginArray();
  for (const SweepCell& cell : sweep.cells) w.Value(int64_t{static_cast<int>(cell.fit)});
  w.EndArray();
  w.Key("decode_tps");
  w.BeginArray();
  for (const SweepCell& cell : sweep.cells) w.Rounded(cell.decode_tps, kSweepTpsDecimals);
  w.EndArray();
  w.Key("max_context");
  w.BeginArray();
  for (const SweepCell& cell : sweep.cells) w.Value(cell.max_context_tokens);
  w.EndArray();
  w.EndObject();
  return std::move(w).Take();
}

}  // namespace vramcalc
