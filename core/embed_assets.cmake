# Writes OUTPUT, a C++ source that builds the catalog and the UI string tables as data: the
# program never parses JSON for them, so a page shows its first numbers without lexing 100 KB
# of catalog in a module that has only just been compiled. ParseCatalog and ParseStrings still
# read the same files: tests/core/builtin_data_test.cc checks that both give the same catalog,
# so everything the parser checks (known fields, types, ranges, sources) holds for this data.
# Run as: cmake -DASSETS_DIR=... -DOUTPUT=... -P embed_assets.cmake

# A C++ raw string literal for `value` (any UTF-8 text, as CMake's JSON reader unescaped it).
function(cpp_text out value)
  string(FIND "${value}" ")vc\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "asset text contains the raw-string delimiter )vc\": ${value}")
  endif()
  set(${out} "R\"vc(${value})vc\"" PARENT_SCOPE)
endfunction()

# `out` = the value at the JSON path (a member name, or nested names) of `json`, or "" and
# `found` FALSE when it is missing or null.
function(json_get out found json)
  string(JSON type ERROR_VARIABLE error TYPE "${json}" ${ARGN})
  if(error OR type STREQUAL "NULL")
    set(${out} "" PARENT_SCOPE)
    set(${found} FALSE PARENT_SCOPE)
    return()
  endif()
  string(JSON value GET "${json}" ${ARGN})
  set(${out} "${value}" PARENT_SCOPE)
  set(${found} TRUE PARENT_SCOPE)
endfunction()

# `out` = "{a, b, ...}" of the integer members `names` of the object at path ARGN.
function(json_integers out json names)
  set(values "")
  foreach(name IN LISTS names)
    json_get(value found "${json}" ${ARGN} ${name})
    if(NOT found)
      message(FATAL_ERROR "${ARGN}.${name} is missing")
    endif()
    list(APPEND values "${value}")
  endforeach()
  list(JOIN values ", " joined)
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()

# `out` = "true, {a, b, ...}, " for the object `key` of `json` with the integer members `names`,
# or "false, {}, " when it is absent (a ModelRow's has_x and x fields).
function(optional_integers out json key names)
  json_get(value found "${json}" ${key})
  if(found)
    json_integers(values "${json}" "${names}" ${key})
    set(${out} "true, {${values}}, " PARENT_SCOPE)
  else()
    set(${out} "false, {}, " PARENT_SCOPE)
  endif()
endfunction()

# ---- models ----------------------------------------------------------------------------
# One ModelRow per file, its sources in a table of their own: data, not code, so the module
# stays small and builds the catalog in one loop.
set(model_rows "")
set(source_tables "")
set(model_index 0)
file(GLOB model_files "${ASSETS_DIR}/models/*.json")
list(SORT model_files)
foreach(model_file IN LISTS model_files)
  file(READ "${model_file}" json)
  set(row "")
  foreach(key IN ITEMS id name family checkpoint ollama_tag license release)
    json_get(value found "${json}" ${key})
    if(NOT found)
      message(FATAL_ERROR "${model_file}: ${key} is missing")
    endif()
    cpp_text(literal "${value}")
    string(APPEND row "${literal}, ")
  endforeach()
  json_get(value found "${json}" ollama_tag_weights)
  if(found)
    cpp_text(literal "${value}")
    string(APPEND row "${literal}, ")
  else()
    string(APPEND row "nullptr, ")
  endif()
  json_get(value found "${json}" topology)
  if(value STREQUAL "moe")
    string(APPEND row "Topology::kMoe, ")
  else()
    string(APPEND row "Topology::kDense, ")
  endif()
  json_get(value found "${json}" attention)
  string(TOUPPER "${value}" attention)
  string(SUBSTRING "${attention}" 1 -1 rest)
  string(SUBSTRING "${attention}" 0 1 first)
  string(TOLOWER "${rest}" rest)
  string(APPEND row "Attention::k${first}${rest}, ")
  foreach(key IN ITEMS params_total params_active num_hidden_layers hidden_size num_attention_heads
                       num_key_value_heads head_dim vocab_size max_position_embeddings)
    json_get(value found "${json}" ${key})
    if(NOT found)
      message(FATAL_ERROR "${model_file}: ${key} is missing")
    endif()
    string(APPEND row "${value}, ")
  endforeach()
  optional_integers(mla_fields "${json}" mla "kv_lora_rank;qk_rope_head_dim;qk_nope_head_dim;v_head_dim")
  string(APPEND row "${mla_fields}")
  json_get(value found "${json}" sliding_window)
  if(found)
    json_integers(values "${json}" "window_tokens;local_layers" sliding_window)
    json_get(pattern found "${json}" sliding_window pattern)
    cpp_text(literal "${pattern}")
    string(APPEND row "{${values}}, ${literal}, ")
  else()
    string(APPEND row "{}, nullptr, ")
  endif()
  optional_integers(moe_fields "${json}" moe "num_experts;experts_per_token;shared_experts")
  string(APPEND row "${moe_fields}")
  string(JSON source_count LENGTH "${json}" sources)
  string(APPEND source_tables "constexpr SourceRow kSources${model_index}[] = {\n")
  if(source_count GREATER 0)
    math(EXPR last "${source_count} - 1")
    foreach(i RANGE ${last})
      json_get(what found "${json}" sources ${i} what)
      json_get(url found "${json}" sources ${i} url)
      cpp_text(what_literal "${what}")
      cpp_text(url_literal "${url}")
      string(APPEND source_tables "    {${what_literal}, ${url_literal}},\n")
    endforeach()
  endif()
  string(APPEND source_tables "};\n")
  string(APPEND row "kSources${model_index}, ${source_count}")
  string(APPEND model_rows "    {${row}},\n")
  math(EXPR model_index "${model_index} + 1")
endforeach()

# ---- devices ---------------------------------------------------------------------------
set(device_rows "")
set(classes consumer apple datacenter)
set(class_ids kConsumer kApple kDatacenter)
set(vendors nvidia amd apple)
set(vendor_ids kNvidia kAmd kApple)
file(READ "${ASSETS_DIR}/devices.json" devices_json)
string(JSON device_count LENGTH "${devices_json}" devices)
math(EXPR last "${device_count} - 1")
foreach(i RANGE ${last})
  string(JSON device GET "${devices_json}" devices ${i})
  foreach(key IN ITEMS id name source)
    json_get(value found "${device}" ${key})
    cpp_text(${key}_literal "${value}")
  endforeach()
  json_get(memory found "${device}" memory_gib)
  json_get(bandwidth found "${device}" bandwidth_gbps)
  json_get(device_class found "${device}" class)
  json_get(vendor found "${device}" vendor)
  list(FIND classes "${device_class}" class_index)
  list(GET class_ids ${class_index} class_id)
  list(FIND vendors "${vendor}" vendor_index)
  list(GET vendor_ids ${vendor_index} vendor_id)
  string(APPEND device_rows "    {${id_literal}, ${name_literal}, ${memory}, ${bandwidth}, DeviceClass::${class_id}, Vendor::${vendor_id}, ${source_literal}},\n")
endforeach()
foreach(list_name IN ITEMS recommendation_ladder hardware_table)
  set(${list_name}_ids "")
  string(JSON count LENGTH "${devices_json}" ${list_name})
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON id GET "${devices_json}" ${list_name} ${i})
    cpp_text(literal "${id}")
    string(APPEND ${list_name}_ids "${literal}, ")
  endforeach()
endforeach()

# ---- UI strings --------------------------------------------------------------------------
foreach(lang IN ITEMS de en)
  file(READ "${ASSETS_DIR}/i18n/${lang}.json" strings_json)
  string(JSON count LENGTH "${strings_json}")
  math(EXPR last "${count} - 1")
  set(table_${lang} "")
  foreach(i RANGE ${last})
    string(JSON key MEMBER "${strings_json}" ${i})
    if(key MATCHES "^_comment")
      continue()
    endif()
    string(JSON text GET "${strings_json}" "${key}")
    cpp_text(key_literal "${key}")
    cpp_text(text_literal "${text}")
    string(APPEND table_${lang} "    {${key_literal}, ${text_literal}},\n")
  endforeach()
endforeach()

file(WRITE "${OUTPUT}.tmp" "// Generated by core/embed_assets.cmake from assets/. Do not edit.
#include \"builtin_data.h\"

#include <cstdint>
#include <iterator>
#include <utility>

namespace vramcalc::internal {
namespace {

struct SourceRow {
  const char* what;
  const char* url;
};

struct ModelRow {
  const char* id;
  const char* name;
  const char* family;
  const char* checkpoint;
  const char* ollama_tag;
  const char* license;
  const char* release;
  const char* ollama_tag_weights;  // nullptr: the default
  Topology topology;
  Attention attention;
  double params_total;
  double params_active;
  int64_t num_hidden_layers;
  int64_t hidden_size;
  int64_t num_attention_heads;
  int64_t num_key_value_heads;
  int64_t head_dim;
  int64_t vocab_size;
  int64_t max_position_embeddings;
  bool has_mla;
  int64_t mla[4];     // kv_lora_rank, qk_rope_head_dim, qk_nope_head_dim, v_head_dim
  int64_t window[2];  // window_tokens, local_layers
  const char* window_pattern;  // nullptr: no sliding window
  bool has_moe;
  int64_t moe[3];     // num_experts, experts_per_token, shared_experts
  const SourceRow* sources;
  int source_count;
};

struct DeviceRow {
  const char* id;
  const char* name;
  double memory_gib;
  double bandwidth_gbps;
  DeviceClass device_class;
  Vendor vendor;
  const char* source;
};

${source_tables}
constexpr ModelRow kModels[] = {
${model_rows}};

constexpr DeviceRow kDevices[] = {
${device_rows}};

constexpr const char* kRecommendationLadder[] = {${recommendation_ladder_ids}};
constexpr const char* kHardwareTable[] = {${hardware_table_ids}};

constexpr std::pair<const char*, const char*> kStringsDe[] = {
${table_de}};
constexpr std::pair<const char*, const char*> kStringsEn[] = {
${table_en}};

}  // namespace

Catalog BuiltinCatalogData() {
  Catalog catalog;
  catalog.models.reserve(std::size(kModels));
  for (const ModelRow& row : kModels) {
    ModelSpec m;
    m.id = row.id;
    m.name = row.name;
    m.family = row.family;
    m.checkpoint = row.checkpoint;
    m.ollama_tag = row.ollama_tag;
    m.license = row.license;
    m.release = row.release;
    if (row.ollama_tag_weights != nullptr) m.ollama_tag_weights = row.ollama_tag_weights;
    m.topology = row.topology;
    m.attention = row.attention;
    m.params_total = row.params_total;
    m.params_active = row.params_active;
    m.num_hidden_layers = row.num_hidden_layers;
    m.hidden_size = row.hidden_size;
    m.num_attention_heads = row.num_attention_heads;
    m.num_key_value_heads = row.num_key_value_heads;
    m.head_dim = row.head_dim;
    m.vocab_size = row.vocab_size;
    m.max_position_embeddings = row.max_position_embeddings;
    if (row.has_mla) m.mla = MlaSpec{row.mla[0], row.mla[1], row.mla[2], row.mla[3]};
    if (row.window_pattern != nullptr) {
      m.sliding_window = SlidingWindowSpec{row.window[0], row.window[1], row.window_pattern};
    }
    if (row.has_moe) m.moe = MoeSpec{row.moe[0], row.moe[1], row.moe[2]};
    for (int i = 0; i < row.source_count; ++i) {
      m.sources.push_back(Source{row.sources[i].what, row.sources[i].url});
    }
    catalog.models.push_back(std::move(m));
  }
  for (const DeviceRow& row : kDevices) {
    catalog.devices.push_back(Device{row.id, row.name, row.memory_gib, row.bandwidth_gbps,
                                     row.device_class, row.vendor, row.source});
  }
  catalog.recommendation_ladder.assign(std::begin(kRecommendationLadder), std::end(kRecommendationLadder));
  catalog.hardware_table.assign(std::begin(kHardwareTable), std::end(kHardwareTable));
  return catalog;
}

std::map<std::string, std::string, std::less<>> BuiltinStringTable(Lang lang) {
  std::map<std::string, std::string, std::less<>> table;
  const auto fill = [&table](const auto& rows) {
    for (const auto& [key, text] : rows) table.emplace(key, text);
  };
  if (lang == Lang::kDe) {
    fill(kStringsDe);
  } else {
    fill(kStringsEn);
  }
  return table;
}

}  // namespace vramcalc::internal
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
