// Writes the C++ source that holds a program's built-in catalog and UI strings as constant data,
// from assets/: every assets/models/*.json (in file-name order) and assets/devices.json become
// constant tables of the rows in core/src/catalog_tables.h (ModelRow{.id = "...", .layer_groups =
// kLayerGroups3, .moe = MoeSpec{...}, ...}, DeviceRow{...}, LayerGroup{...}), which
// BuiltinCatalog() (vramcalc/catalog.h) copies into a Catalog at its first use, sorting the models
// for listing there (builtin_data.h ListedBefore); with --strings, assets/i18n/{de,en}.json become
// key/text tables (builtin_data.h BuiltinStringEntries), else the tables are empty.
//
// Why: nothing is parsed at start-up, and the compiler checks the data. Each JSON key becomes a
// designated initializer of the member of that name (device "class" is `device_class`), so an
// unknown key, a key out of the members' order (g++; -Werror=reorder-init-list under clang) or a
// fraction in a whole-number field fails the build; an enum's id becomes Enum(<vocabulary>,
// "id"), a consteval lookup in that vocabulary's table (model_spec.h, device.h), so an unknown id
// fails the build too. Keys starting with "_" are notes for people and left out; so are null
// values and the keys named by --drop-model and --drop-device, at any depth: absent fields keep
// the rows' defaults, which are the structs'. ValidateModel and the catalog's other checks run in
// tests/core/builtin_data_test.cc, which also compares this catalog, field by field, with the one
// ParseCatalog reads from assets/.
//
// Usage: node core/catalog_source.mjs <assets dir> <output .cc> [--strings]
//          [--drop-model=key,key...] [--drop-device=key,key...]
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The row type (catalog_tables.h) an object-valued key holds, or each element of its array.
const kRowTypes = {
  models: 'ModelRow', devices: 'DeviceRow', layer_groups: 'LayerGroupRow', moe: 'MoeSpec', sources: 'SourceRow',
};
// The vocabulary (model_spec.h, device.h) that an enum-valued key's ids come from.
const kVocabularies = {
  kind: 'kLayerKinds', topology: 'kTopologies', attention: 'kAttentions',
  class: 'kDeviceClasses', vendor: 'kVendors', platform: 'kPlatforms',
};
const kMemberNames = { class: 'device_class' };  // JSON keys that name their member differently
// Keys a row keeps in rows of their own that it points to (catalog_tables.h), where few rows have
// them (a model's per-layer embeddings, the matrices GGUF's blocks do not divide, the experts'
// down projections where they are not a third) or a program drops them all (vramcalc.wasm: a
// model's card, what only the sections after the simulator read of a device): a row without them keeps a
// null pointer instead of their defaults. Each pointed row's members come last, in this order.
const kPointedRows = {
  ModelRow: [
    { member: 'card', type: 'ModelCardRow', keys: ['checkpoint', 'ollama_tag', 'ollama_tag_weights', 'release'] },
    {
      member: 'rare', type: 'ModelRareRow',
      keys: [
        'per_layer_embedding_params', 'unaligned_params', 'unaligned_expert_params', 'unaligned_hidden_params',
        'unaligned_hidden_expert_params', 'expert_down_params',
      ],
    },
  ],
  DeviceRow: [{
    member: 'serving', type: 'DeviceServingRow',
    keys: ['int8_tops', 'fp8_tflops', 'serving_source', 'host_link_gbps', 'gpu_mapped_gib'],
  }],
};
// Members a row type declares in another order than its JSON has them (designated initializers
// follow the declaration): a device's FP16 rate beside its memory size (catalog_tables.h).
const kDeclared = { DeviceRow: ['id', 'name', 'memory_gib', 'fp16_tflops'] };
// Keys a row holds as a float: each value must be one exactly.
const kFloats = new Set(['memory_gib']);

const [assets, output, ...flags] = process.argv.slice(2);
const option = (name) => flags.find((flag) => flag.startsWith(`--${name}=`))?.split('=')[1].split(',') ?? [];
const dropModel = option('drop-model');
const dropDevice = option('drop-device');
const withStrings = flags.includes('--strings');
const readJson = (path) => JSON.parse(readFileSync(join(assets, path), 'utf8'));
const tables = [];  // every array as a named constant table, each before the tables that use it

// A C++ string literal: JSON.stringify's escapes are C++'s too, except \u for control characters
// and lone surrogates, which no asset has.
function text(value) {
  const literal = JSON.stringify(value);
  if (/\\u/.test(literal)) throw new Error(`${literal}: a control character or a lone surrogate`);
  return literal;
}

// A number as C++ reads it to the same double: JSON.parse's shortest digits, with an exponent for
// a whole number beyond 2^53 (a literal the compiler rounds, never an inexact integer).
function number(value) {
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? value.toExponential() : String(value);
}

// `items` (C++ expressions) as a constant table named after `key`; its name, to point a span at.
function table(key, type, items) {
  const name = `k${key.split('_').map((word) => word[0].toUpperCase() + word.slice(1)).join('')}${tables.length}`;
  tables.push(`constexpr ${type} ${name}[] = {\n    ${items.join(',\n    ')}};\n`);
  return name;
}

function rowType(key) {
  if (!(key in kRowTypes)) throw new Error(`"${key}": objects of no row type (catalog_tables.h)`);
  return kRowTypes[key];
}

function value(key, json, drop) {
  if (key in kVocabularies) return `Enum(${kVocabularies[key]}, ${text(json)})`;
  if (typeof json === 'string') return text(json);
  if (typeof json === 'number') return number(json);
  if (typeof json === 'boolean') return String(json);
  if (Array.isArray(json)) {
    const items = json.map((item) => value(key, item, drop));
    return items.length === 0 ? '{}' : table(key, typeof json[0] === 'string' ? 'std::string_view' : rowType(key), items);
  }
  const type = rowType(key);
  return `${type}{${members(json, drop, kPointedRows[type], kDeclared[type]).join(', ')}}`;
}

// `.member = value` for each of `json`'s keys but the notes, nulls and the keys in `drop`; those
// of each `pointed` row in a table of its own that a last member points to.
function members(json, drop, pointed = [], declared = []) {
  const first = (key) => (declared.includes(key) ? declared.indexOf(key) : declared.length);
  const kept = Object.entries(json).filter(([key, item]) => !key.startsWith('_') && !drop.includes(key) && item !== null)
    .sort(([a], [b]) => first(a) - first(b));  // stable: the JSON's order after the declared ones
  for (const [key, item] of kept) {
    if (kFloats.has(key) && Math.fround(item) !== item) throw new Error(`${key} ${item}: not a float's value`);
  }
  const member = ([key, item]) => `.${kMemberNames[key] ?? key} = ${value(key, item, drop)}`;
  const inPointed = ([key]) => pointed.some((row) => row.keys.includes(key));
  const own = kept.filter((entry) => !inPointed(entry)).map(member);
  for (const row of pointed) {
    const moved = kept.filter(([key]) => row.keys.includes(key)).map(member);
    if (moved.length > 0) own.push(`.${row.member} = ${table(row.member, row.type, [`${row.type}{${moved.join(', ')}}`])}`);
  }
  return own;
}

// The catalog: its models (one file each) and what devices.json holds (the devices, the ladder
// and the table: the Catalog's other members, schema.h).
function catalog() {
  const files = readdirSync(join(assets, 'models')).filter((name) => name.endsWith('.json')).sort();
  const models = members({ models: files.map((name) => readJson(`models/${name}`)) }, dropModel);
  return [...models, ...members(readJson('devices.json'), dropDevice)].join(', ');
}

// Each language's table, key and text, with the note keys left out; none without --strings.
function strings(lang) {
  const entries = Object.entries(readJson(`i18n/${lang}.json`)).filter(([key]) => !key.startsWith('_'));
  return table(`strings_${lang}`, 'StringEntry', entries.map(([key, entry]) => `{${text(key)}, ${text(entry)}}`));
}

const catalogTables = catalog();
const [de, en] = withStrings ? [strings('de'), strings('en')] : [];
const left = [...dropModel.map((key) => `the models' ${key}`), ...dropDevice.map((key) => `the devices' ${key}`)];
const source = `// Generated by core/catalog_source.mjs from assets/: do not edit.
// Left out: ${[...left, ...(withStrings ? [] : ['the UI strings'])].join(', ') || 'nothing'}.
#include <optional>
#include <span>
#include <string_view>

#include "model/builtin_data.h"
#include "model/catalog_tables.h"
#include "vramcalc/catalog.h"

namespace vramcalc::internal {
namespace {

void IdNotInVocabulary() {}  // not constexpr: reaching it in Enum() is a compile error

// The enumerator whose id is \`id\` in \`vocabulary\`, at compile time.
template <typename E, typename Entry>
consteval E Enum(Vocabulary<E, Entry> vocabulary, std::string_view id) {
  const std::optional<E> found = vocabulary.Find(id);
  if (!found) IdNotInVocabulary();
  return *found;
}

${tables.join('\n')}
constexpr CatalogTables kCatalogTables{${catalogTables}};

}  // namespace

std::span<const StringEntry> BuiltinStringEntries(${withStrings ? 'Lang lang' : 'Lang'}) {
  return ${withStrings ? `lang == Lang::kDe ? std::span(${de}) : std::span(${en})` : '{}'};
}

}  // namespace vramcalc::internal

namespace vramcalc {

const Result<Catalog>& BuiltinCatalog() {
  // Built once, then immutable: the catalog is a constant of the program.
  static const Result<Catalog> kCatalog = internal::CatalogFromTables(internal::kCatalogTables);
  return kCatalog;
}

}  // namespace vramcalc
`;
if (!existsSync(output) || readFileSync(output, 'utf8') !== source) writeFileSync(output, source);
