// The sections the page draws after the simulator's figures: the quantization matrix, the curve
// (its plot), the hardware table, the related models, the commands, the model card's
// checkpoint, Ollama tags and release, the offload plans, the KV pool and serving. They are built here (and written by
// io/response_writer.h WriteLowerSections), apart from the rest of an answer, so that a program
// can leave them out: vramcalc.wasm, the module the page's first numbers wait for, calls
// Evaluate without BuildLowerSections (and answers a request for them with
// section_unavailable); every other program calls Evaluate(request, catalog), defined in
// lower_sections.cc with them.
#ifndef VRAMCALC_SRC_ESTIMATE_LOWER_SECTIONS_H_
#define VRAMCALC_SRC_ESTIMATE_LOWER_SECTIONS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "vramcalc/catalog.h"
#include "vramcalc/estimate.h"
#include "vramcalc/evaluate.h"

namespace vramcalc::internal {

inline constexpr uint32_t kLowerSections =
    kSectionMatrix | kSectionCurve | kSectionHardware | kSectionRelated | kSectionCommands | kSectionCard | kSectionOffload | kSectionPool |
    kSectionServing;

// Checks the request's host (section 7: only the offload plans, the commands, serving and the
// hardware table's and related models' offload rates use it, so a program without these
// sections does not read it) and fills the lower sections
// `response.sections` asks for, the simulator already in `response` (evaluate.h
// LowerSectionsBuilder). Evaluate calls it whatever the sections.
std::optional<Error> BuildLowerSections(const Scenario& s, const Request& request, const Catalog& catalog,
                                        Response& response);

// The request's host into `s` (section 7): its RAM, and its bandwidth, a figure of one's own, else
// its type's; unknown_host_memory_type (field host_memory_type) for a type that is none. The
// lower sections' and the sweep's offload plans use it.
std::optional<Error> ResolveHost(const Request& request, Scenario& s);

// Memory and decode against context at CurveContexts (evaluate.cc, beside the simulator).
std::vector<CurvePoint> BuildCurve(Scenario s);

// The quantization matrix (evaluate.cc, beside the recommendation it uses).
std::vector<MatrixRow> BuildMatrix(const Scenario& s, const Catalog& catalog);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_ESTIMATE_LOWER_SECTIONS_H_
