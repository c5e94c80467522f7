// Writes the C++ source that holds a program's built-in catalog and UI strings as data, from
// assets/: every assets/models/*.json (in file-name order) and assets/devices.json become one
// `Catalog{.models = {ModelSpec{.id = ..., .layer_groups = {LayerGroup{...}}, ...}}, .devices =
// {Device{...}}, ...}` aggregate that BuiltinCatalog() (vramcalc/catalog.h) builds once, sorted
// for listing (internal::SortForListing) at its first use; with --strings, assets/i18n/{de,en}.json
// become key/text tables (builtin_data.h BuiltinStringEntries), else the tables are empty.
//
// Why C++ aggregates: nothing is parsed at start-up, and the compiler checks the data. Each JSON
// key becomes a designated initializer of the struct's member of that name (device "class" is
// `device_class`), so an unknown key, a key out of the struct's declaration order (g++;
// -Werror=reorder-init-list under clang) or a fraction in a whole-number field fails the build;
// an enum's id becomes Enum(<vocabulary>, "id"), a consteval lookup in that vocabulary's table
// (model_spec.h, device.h), so an unknown id fails the build too. Keys starting with "_" are
// notes for people and left out; so are null values and the keys named by --drop-model and
// --drop-device: absent fields keep the structs' defaults. ValidateModel and the catalog's other
// checks run in tests/core/builtin_data_test.cc, which also compares this catalog, field by field,
// with the one ParseCatalog reads from assets/.
//
// Usage: node core/catalog_source.mjs <assets dir> <output .cc> [--strings]
//          [--drop-model=key,key...] [--drop-device=key,key...]
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

// The struct a nested object's key holds (each element's, for an array of objects).
const kObjectTypes = { devices: 'Device', layer_groups: 'LayerGroup', moe: 'MoeSpec', sources: 'Source' };
// The vocabulary (model_spec.h, device.h) that an enum-valued key's ids come from.
const kVocabularies = {
  kind: 'kLayerKinds', topology: 'kTopologies', attention: 'kAttentions',
  class: 'kDeviceClasses', vendor: 'kVendors', platform: 'kPlatforms',
};
const kMemberNames = { class: 'device_class' };  // JSON keys that name their member differently

const [assets, output, ...flags] = process.argv.slice(2);
const option = (name) => flags.find((flag) => flag.startsWith(`--${name}=`))?.split('=')[1].split(',') ?? [];
const dropModel = option('drop-model');
const dropDevice = option('drop-device');
const withStrings = flags.includes('--strings');
const readJson = (path) => JSON.parse(readFileSync(join(assets, path), 'utf8'));

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

function value(key, json, drop) {
  if (key in kVocabularies) return `Enum(${kVocabularies[key]}, ${text(json)})`;
  if (typeof json === 'string') return text(json);
  if (typeof json === 'number') return number(json);
  if (typeof json === 'boolean') return String(json);
  if (Array.isArray(json)) {
    const separator = key === 'devices' ? ',\n        ' : ', ';  // a device per line
    return `{${json.map((item) => value(key, item, drop)).join(separator)}}`;
  }
  if (!(key in kObjectTypes)) throw new Error(`"${key}": an object of a type this script does not know`);
  return `${kObjectTypes[key]}{${members(json, drop).join(', ')}}`;
}

// `.member = value` for each of `json`'s keys but the notes, nulls and the keys in `drop` (at any
// depth).
function members(json, drop) {
  return Object.entries(json)
    .filter(([key, item]) => !key.startsWith('_') && !drop.includes(key) && item !== null)
    .map(([key, item]) => `.${kMemberNames[key] ?? key} = ${value(key, item, drop)}`);
}

function catalog() {
  const files = readdirSync(join(assets, 'models')).filter((name) => name.endsWith('.json')).sort();
  const models = files.map((name) => `      ModelSpec{${members(readJson(`models/${name}`), dropModel).join(', ')}}`);
  // devices.json is the Catalog's other members (schema.h): the devices, the ladder, the table.
  const devices = members(readJson('devices.json'), dropDevice).join(',\n      ');
  return `Catalog{
      .models = {
${models.join(',\n')}},
      ${devices}}`;
}

// Each language's table, key and text, with the note keys left out; none without --strings.
function strings() {
  const tables = ['de', 'en'].map((lang) => {
    const entries = withStrings ? Object.entries(readJson(`i18n/${lang}.json`)).filter(([key]) => !key.startsWith('_')) : [];
    const rows = entries.map(([key, entry]) => `    {${text(key)}, ${text(entry)}},\n`).join('');
    return withStrings ? `constexpr StringEntry k${lang === 'de' ? 'De' : 'En'}[] = {\n${rows}};\n` : '';
  });
  const body = withStrings ? 'return lang == Lang::kDe ? std::span(kDe) : std::span(kEn);' : 'return {};  // the page loads them';
  return `${tables.join('\n')}
std::span<const StringEntry> BuiltinStringEntries(${withStrings ? 'Lang lang' : 'Lang'}) {
  ${body}
}`;
}

const left = [...dropModel.map((key) => `models' ${key}`), ...dropDevice.map((key) => `devices' ${key}`)];
const source = `// Generated by core/catalog_source.mjs from assets/: do not edit.
// Left out: ${left.length > 0 ? left.join(', ') : 'nothing'}; UI strings ${withStrings ? 'included' : 'left out'}.
#include <optional>
#include <span>
#include <string_view>

#include "builtin_data.h"
#include "vramcalc/catalog.h"

namespace vramcalc {
namespace {

void IdNotInVocabulary() {}  // not constexpr: reaching it in Enum() is a compile error

// The enumerator whose id is \`id\` in \`vocabulary\`, at compile time.
template <typename E, typename Entry>
consteval E Enum(Vocabulary<E, Entry> vocabulary, std::string_view id) {
  const std::optional<E> found = vocabulary.Find(id);
  if (!found) IdNotInVocabulary();
  return *found;
}

// In a function of its own, not in the static's initializer: clang 14 (em++ 3.1.6) runs the
// destructors of that initializer's temporaries after its guard, on every call, when it holds a
// consteval call.
Catalog SortedCatalog() {
  Catalog catalog = ${catalog()};
  internal::SortForListing(catalog);
  return catalog;
}

}  // namespace

const Result<Catalog>& BuiltinCatalog() {
  // Built once, then immutable: the catalog is a constant of the program.
  static const Result<Catalog> kCatalog = SortedCatalog();
  return kCatalog;
}

namespace internal {

${strings()}

}  // namespace internal
}  // namespace vramcalc
`;
if (!existsSync(output) || readFileSync(output, 'utf8') !== source) writeFileSync(output, source);
