// The sections the page draws after the simulator's figures and the matrix: the curve (its
// plot), the hardware table, the related models, the commands and the model card's
// checkpoint, Ollama tags and release. They are built
// and written here, apart from the rest of an answer, so that a program can leave them out:
// vramcalc.wasm, the module the page's first numbers wait for, links wasm/light.cc's stand-in
// instead (it answers section_unavailable, naming vramcalc-full.wasm), and every other program
// this file.
#ifndef VRAMCALC_SRC_LOWER_SECTIONS_H_
#define VRAMCALC_SRC_LOWER_SECTIONS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "vramcalc/catalog.h"
#include "vramcalc/estimate.h"
#include "vramcalc/evaluate.h"

namespace vramcalc::internal {

class JsonWriter;  // json_writer.h

inline constexpr uint32_t kLowerSections =
    kSectionCurve | kSectionHardware | kSectionRelated | kSectionCommands | kSectionCard;

// Fills the lower sections `response.sections` asks for, the simulator already in `response`;
// an error where the program has none of them.
std::optional<Error> BuildLowerSections(const Scenario& s, const Request& request, const Catalog& catalog,
                                        Response& response);

// Memory and decode against context at CurveContexts (evaluate.cc, beside the simulator).
std::vector<CurvePoint> BuildCurve(Scenario s);

// Writes the lower sections `response.sections` asks for, in the answer's order (after the
// matrix).
void WriteLowerSections(JsonWriter& w, const Response& response);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_LOWER_SECTIONS_H_
