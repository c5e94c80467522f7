// The sections the page draws after the simulator's figures and the matrix: the curve (its
// plot), the hardware table, the related models, the commands and the model card's
// checkpoint, Ollama tags and release. They are built and written here, apart from the rest
// of an answer, so that a program can leave them out: vramcalc.wasm, the module the page's
// first numbers wait for, calls Evaluate without BuildLowerSections (and answers a request for
// them with section_unavailable) and writes its answers without WriteLowerSections; every other
// program calls Evaluate(request, catalog), defined in lower_sections.cc with them.
#ifndef VRAMCALC_SRC_LOWER_SECTIONS_H_
#define VRAMCALC_SRC_LOWER_SECTIONS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "vramcalc/catalog.h"
#include "vramcalc/estimate.h"
#include "schema_writer.h"
#include "vramcalc/commands.h"
#include "vramcalc/evaluate.h"

namespace vramcalc::internal {

inline constexpr uint32_t kLowerSections =
    kSectionCurve | kSectionHardware | kSectionRelated | kSectionCommands | kSectionCard;

// Fills the lower sections `response.sections` asks for, the simulator already in `response`
// (evaluate.h LowerSectionsBuilder).
std::optional<Error> BuildLowerSections(const Scenario& s, const Request& request, const Catalog& catalog,
                                        Response& response);

// Memory and decode against context at CurveContexts (evaluate.cc, beside the simulator).
std::vector<CurvePoint> BuildCurve(Scenario s);

// ---- writing them (with any writer of field_writer.h) ------------------------------------------

template <typename W>
void WriteCurve(W& w, const std::vector<CurvePoint>& curve) {
  w.Objects("curve", curve, [&w](const CurvePoint& point) {
    w.Field("context", point.context_tokens);
    w.Field("kv_cache_gib", point.kv_cache_gib);
    w.Field("total_gib", point.total_gib);
    w.Field("decode_tps", point.decode_tps);
  });
}

template <typename W>
void WriteDeviceRef(W& w, const Device& device) {
  w.Field("device", device.id);
  w.Field("name", device.name);
  w.Field("memory_gib", device.memory_gib);
  w.Field("bandwidth_gbps", device.bandwidth_gbps);
}

template <typename W>
void WriteHardware(W& w, const std::vector<HardwareRow>& rows) {
  w.Objects("hardware", rows, [&w](const HardwareRow& row) {
    WriteDeviceRef(w, *row.device);
    w.Field("needed_gib", row.needed_gib);
    w.Field("capacity_gib", row.capacity_gib);
    w.Field("usage_pct", row.usage_pct);
    w.Field("fit", kFits.Id(row.fit));
    w.Field("decode_tps", row.decode_tps);
  });
}

template <typename W>
void WriteRelated(W& w, const std::vector<RelatedModel>& related) {
  w.Objects("related", related, [&w](const RelatedModel& row) {
    w.Field("id", row.model->id);
    w.Field("name", row.model->name);
    w.Field("params_total", row.model->params_total);
    w.Field("total_gib", row.total_gib);
    w.Field("fit", kFits.Id(row.fit));
    w.Field("max_position", row.model->max_position_embeddings);
    w.Field("beyond_max_position", row.beyond_max_position);
  });
}

template <typename W>
void WriteCommands(W& w, const std::vector<Command>& commands) {
  w.Objects("commands", commands, [&w](const Command& command) {
    w.Field("id", command.id);
    w.Field("engine", command.engine);
    w.Field("title", command.title);
    w.Field("language", command.language);
    w.Field("text", command.text);
  });
}

// Writes the lower sections `response.sections` asks for, in the answer's order (after the
// matrix).
template <typename W>
void WriteLowerSections(W& w, const Response& response) {
  if ((response.sections & kSectionCurve) != 0) WriteCurve(w, response.curve);
  if ((response.sections & kSectionHardware) != 0) WriteHardware(w, response.hardware);
  if ((response.sections & kSectionRelated) != 0) WriteRelated(w, response.related);
  if ((response.sections & kSectionCommands) != 0) WriteCommands(w, response.commands);
  if ((response.sections & kSectionCard) != 0) {
    w.Key("card");
    SchemaWriter<W>(w, Fields::kCard).Write(response.model);
  }
}

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_LOWER_SECTIONS_H_
