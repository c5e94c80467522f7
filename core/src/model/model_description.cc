// A model description: a model as the catalog describes one (schema.h's fields of a model, read
// by the catalog's own reader), named by its schema, with the weights' bytes its file states
// (model_spec.h MeasuredWeights). What the page's importer makes of a GGUF or safetensors header,
// and what `vramcalc evaluate --model-file` reads.
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "io/schema_reader.h"  // up a layer: the catalog's reader reads the description
#include "model/hf_config_internal.h"
#include "vramcalc/display.h"
#include "vramcalc/hf_config.h"
#include "vramcalc/quant_format.h"

namespace vramcalc {
namespace internal {

// The description's fields: its schema, a catalog entry's and the file's bytes (which are not
// among a catalog entry's fields, so that the answer's model section, which writes those, stays
// what vramcalc.wasm writes; the caller has the bytes it sent).
struct ModelDescription {
  std::string schema;
  ModelSpec model;
};

template <typename V, Either<ModelDescription> D>
void VisitFields(V& v, D& d) {
  v.Text("schema", d.schema, kRequired);
  VisitFields(v, d.model);
  v.Object("weights", d.model.weights, kOptional);
}

}  // namespace internal

namespace {

using internal::ModelDescription;
using internal::SchemaReader;

Error Invalid(const std::string& field, const std::string& message) {
  return Error{"invalid_model", message, "model." + field};
}

// How far a file's bits per parameter may be from its format's nominal bits (Q4_K_M: 4.85; a
// published Q4_K_M GGUF holds 4.8 to 5.5, its embedding and head at Q6_K): beyond, the bytes
// are not of these parameters or not of this format.
constexpr double kFileBitsSlack = 2.0;

// The measured bytes against the model they claim to be of.
std::optional<Error> CheckWeights(const ModelSpec& m) {
  const MeasuredWeights& w = *m.weights;
  const QuantFormat* format = FindQuantFormat(w.format);
  if (format == nullptr) {
    std::string ids;
    for (const QuantFormat& known : QuantFormats()) ids += (ids.empty() ? "" : ", ") + std::string(known.id);
    return Invalid("weights.format", "weights.format must be a format id (" + ids + "), not \"" +
                                         std::string(Clipped(w.format, 32)) + "\".");
  }
  if ((w.routed_experts > 0) != m.moe.has_value()) {
    return Invalid("weights.routed_experts", "A mixture-of-experts model has routed experts' bytes, and only MoE has them.");
  }
  if (m.tie_word_embeddings && w.head > 0) {
    return Invalid("weights.head", "A model with tied embeddings has no output head of its own: weights.head must be 0.");
  }
  const double bits = 8 * w.language() / m.params_total;
  const double nominal = format->bits_per_weight;
  if (!std::isfinite(bits) || bits < nominal / kFileBitsSlack || bits > nominal * kFileBitsSlack) {
    return Invalid("weights", "The weights' bytes are " + FormatFixed(bits, 2) + " bits per parameter of params_total; a " +
                                  std::string(format->id) + " file stores about " + FormatFixed(nominal, 2) + ".");
  }
  return std::nullopt;
}

// What commands and comments show of the description's own text: ids, repo ids and file names
// as one shell word each (display.h ShellWord), the name on one line.
std::optional<Error> CheckTexts(const ModelSpec& m) {
  const struct {
    const char* field;
    const std::string& text;
    bool slashes;
  } words[] = {{"id", m.id, true}, {"checkpoint", m.checkpoint, true}, {"weights.file", m.weights ? m.weights->file : m.id, false}};
  for (const auto& [field, text, slashes] : words) {
    if (!text.empty() && ShellWord(text, slashes) != text) {
      return Invalid(field, std::string(field) + " must be letters, digits, \".\", \"_\", \"-\"" + (slashes ? " and \"/\"" : "") +
                                ", as a command can use it; got \"" + std::string(Clipped(text, 64)) + "\".");
    }
  }
  if (HasControlCharacter(m.name)) return Invalid("name", "name must be one line, without control characters.");
  return std::nullopt;
}

}  // namespace

namespace internal {

bool IsModelDescription(json::Value object) { return object.IsObject() && object.Find("schema"); }

Result<ModelSpec> ParseModelDescriptionObject(json::Value description) {
  ModelDescription read;
  read.model.release = "—";
  std::optional<Error> error;
  SchemaReader::Read(description, "model", read, error, kCardField);
  if (!error && read.schema != kModelDescriptionSchema) {
    error = Error{"invalid_model", "model.schema must be \"" + std::string(kModelDescriptionSchema) + "\".", "model.schema"};
  }
  if (error) return Error{"invalid_model", error->message, error->field};
  if (auto invalid = ValidateModel(read.model)) {
    return Invalid(invalid->field, "The model description describes no model the estimate can use: " + invalid->message);
  }
  if (auto invalid = CheckTexts(read.model)) return *invalid;
  if (read.model.weights) {
    if (auto invalid = CheckWeights(read.model)) return *invalid;
  }
  return std::move(read.model);
}

Result<ModelSpec> ParseModelObject(json::Value model) {
  return IsModelDescription(model) ? ParseModelDescriptionObject(model) : ParseHfConfigObject(model);
}

}  // namespace internal

}  // namespace vramcalc
