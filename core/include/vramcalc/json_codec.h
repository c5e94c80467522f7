// The JSON contract shared by the CLI, the wasm module and the page (wasm/README.md describes
// it for callers).
// Request:  the fields of kRequestFields (evaluate.h); only "model" is required.
// Response: {"ok": true, "schema": 3, "model", "simulator", "matrix", "curve", "hardware",
//           "related", "commands", "card"} (the request's sections) or
//           {"ok": false, "schema": 3, "error": {"code", "message", "field"}}.
// Numbers are unrounded except the simulator's share_pct (see SimulatorResult); nothing is
// localized: fits, kinds and command titles are ids and UI string keys.
#ifndef VRAMCALC_JSON_CODEC_H_
#define VRAMCALC_JSON_CODEC_H_

#include <string>
#include <string_view>

#include "vramcalc/catalog.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/result.h"

namespace vramcalc {

// 2: responses carry no localized labels, commands are a list, models carry layer groups.
// 3: a model's checkpoint, Ollama tags and release are the card section's, not the model's.
inline constexpr int kSchemaVersion = 3;

// Parses and validates a request. "model" is a catalog id or a Hugging Face config.json
// object (see hf_config.h). Errors: malformed_json, invalid_type, invalid_value,
// missing_field, unknown_field, invalid_config, each naming the field.
Result<Request> ParseRequest(std::string_view request_json);
// The same with the model given as config.json text beside a request without "model" (the
// CLI's --config, the page's pasted config). An empty `config_json` is ParseRequest(request_json).
Result<Request> ParseRequest(std::string_view request_json, std::string_view config_json);

// EvaluateJson with the model given as config.json text (see ParseRequest above).
std::string EvaluateJsonWithConfig(std::string_view request_json, std::string_view config_json);

std::string SerializeResponse(const Response& response);
// `text` as a JSON string literal (quoted and escaped), for callers that assemble requests.
std::string JsonString(std::string_view text);
std::string SerializeError(const Error& error);

// The whole call: request JSON in, response JSON out. Never throws; every failure,
// including a broken built-in catalog or an allocation failure, is an ok:false response.
std::string EvaluateJson(std::string_view request_json);

// The catalog sweep (evaluate.h Sweep). Request: {"context", "batch", "kv_dtype", "runtime",
// "device", "compare", "device_count", "host_memory", "host_memory_type", "host_bandwidth"}, all
// optional, as in an evaluate request. Response: {"ok": true, "schema": 2, "context",
// "batch", "kv_dtype", "runtime", "models": [ids], "formats": [ids], "devices": [ids],
// "fit_ids": ["comfortable", "tight", "no_fit"], "total_gib": [...], "fit": [...],
// "decode_tps": [...], "max_context": [...]}, the last four indexed
// (model × formats + format) × devices + device. "fit" holds indexes into fit_ids; total_gib and
// decode_tps are the exact figures (shortest round-trip digits), so a reader that rounds them
// for display shows what `vramcalc sweep --device` shows, never a double rounding. The offload
// plans (evaluate.h SweepOffload) follow as "offload_kinds" and offload_* arrays indexed
// model × devices + device (wasm/README.md). Never throws.
Result<SweepRequest> ParseSweepRequest(std::string_view request_json);
std::string SerializeSweep(const SweepResult& sweep);
std::string SweepJson(std::string_view request_json);

// Every catalog model as the response's "model" object, in catalog order (a JSON array).
std::string ModelsJson();
// Every catalog device: {"id", "name", "memory_gib", "bandwidth_gbps", "class", "vendor",
// "source"} (a JSON array).
std::string DevicesJson();

// What the page needs for its selectors and links, plus the languages and the UI strings the
// program carries (the native build both; the wasm module none, see core/CMakeLists.txt):
// {"ok": true, "schema": 2, "models": [{"id", "name", "family", "params_total"}] (the whole
// card comes with each response and from ModelsJson), "devices": [...], "formats": [...],
// "kv_dtypes": [...], "runtimes": [...], "recommendation_ladder": [...], "hardware_table": [...],
// "request_fields": [{"name", "short_name"}], "sections": [...], "context_sections": [...],
// "matrix_contexts": [{"tokens", "label"}], "defaults": {...}, "limits": {...},
// "langs": ["de", "en"], "strings": {"de": {...}, "en": {...}}}.
std::string CatalogJson();

}  // namespace vramcalc

#endif  // VRAMCALC_JSON_CODEC_H_
