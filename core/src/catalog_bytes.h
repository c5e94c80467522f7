// The catalog as bytes, through the same VisitFields (schema.h) as its JSON: the devices file's
// fields, then the models, each field in schema order (a text as its length and UTF-8 bytes, a
// whole number as a variable-length integer and any other number as its 8 bytes, a count or an
// enum's value as a variable-length integer, a flag and an object's presence as one byte, a list
// as its length and its items). The wasm modules compile in these bytes of the catalog that the
// build's catalog writer read and checked from its JSON (wasm/compiled_catalog.mjs): no JSON to
// read at start-up, and no catalog reader or catalog checks in the modules.
#ifndef VRAMCALC_SRC_CATALOG_BYTES_H_
#define VRAMCALC_SRC_CATALOG_BYTES_H_

#include <string>
#include <string_view>

#include "schema.h"
#include "vramcalc/catalog.h"
#include "vramcalc/result.h"

namespace vramcalc::internal {

// The catalog's bytes, its models in their listing order. Fields::kNotCard leaves the models'
// card fields out (schema.h's kCardField: vramcalc.wasm has no card section to write them);
// the writer and the reader leave out only texts so flagged (every card field is a text).
std::string CatalogBytes(const Catalog& catalog, Fields fields = Fields::kAll);

// The catalog CatalogBytes wrote with the same `fields` (the fields it left out at the structs'
// defaults); an error (invalid_catalog, field "catalog") when the bytes end early, run on, or
// hold an enum value no vocabulary has.
Result<Catalog> CatalogFromBytes(std::string_view bytes, Fields fields = Fields::kAll);

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_CATALOG_BYTES_H_
