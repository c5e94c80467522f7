// The reference page's figures for the GoogleTest suite: tests/golden/reference-page.json, the
// one table of every figure and label of tests/golden/reference-page.txt (checked against the
// page by tests/wasm/reference-table.test.mjs), read with the core's JSON reader.
//
//   reference::Text({"simulator", "figures", "total", "value"})   // "21.78 GB"
//   for (json::Value row : reference::Items({"matrix", "rows"})) reference::Text(row, "label");
//
// A missing key or a value of the wrong type fails the test that asked (naming the key) and
// comes back as an absent value or a text no figure equals, so the comparison fails too.
#ifndef VRAMCALC_TESTS_CORE_REFERENCE_TABLE_H_
#define VRAMCALC_TESTS_CORE_REFERENCE_TABLE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_value.h"

namespace vramcalc::reference {

inline const char* TableFile() { return VRAMCALC_GOLDEN_DIR "/reference-page.json"; }

// The table's root, read once; absent (and the calling test failed) when the file cannot be
// read or parsed.
inline json::Value Table() {
  static std::string problem;
  static const std::unique_ptr<const json::Document> document = []() -> std::unique_ptr<const json::Document> {
    std::ifstream in(TableFile(), std::ios::binary);
    if (!in) {
      problem = "cannot open";
      return nullptr;
    }
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = json::Document::Parse(text.str());
    if (!parsed.ok()) {
      problem = parsed.error().message;
      return nullptr;
    }
    return std::make_unique<const json::Document>(std::move(parsed).value());
  }();
  if (!document) {
    ADD_FAILURE() << TableFile() << ": " << problem;
    return {};
  }
  return document->root();
}

// The member `key` of `object`.
inline json::Value At(json::Value object, std::string_view key) {
  if (!object) return {};  // the failure was reported where the value went missing
  const json::Value member = object.Find(key);
  if (!member) ADD_FAILURE() << "reference-page.json: no \"" << key << "\" in " << object.Key() << " {…}";
  return member;
}

// The value at a path of keys from the root: At({"scenario", "model_id"}).
inline json::Value At(std::initializer_list<std::string_view> path) {
  json::Value value = Table();
  for (const std::string_view key : path) value = At(value, key);
  return value;
}

// A string of the table.
inline std::string Text(json::Value value) {
  if (!value) return "<missing in reference-page.json>";
  if (!value.IsString()) {
    ADD_FAILURE() << "reference-page.json: \"" << value.Key() << "\" is " << value.TypeName() << ", not a string";
    return "<not a string in reference-page.json>";
  }
  return std::string(value.String());
}
inline std::string Text(json::Value object, std::string_view key) { return Text(At(object, key)); }
inline std::string Text(std::initializer_list<std::string_view> path) { return Text(At(path)); }

// A whole number of the table (the scenario's context and batch).
inline int64_t Integer(std::initializer_list<std::string_view> path) {
  const json::Value value = At(path);
  if (!value) return -1;
  if (!value.IsInteger()) {
    ADD_FAILURE() << "reference-page.json: \"" << value.Key() << "\" is " << value.TypeName() << ", not a whole number";
    return -1;
  }
  return value.Integer();
}

// The elements of an array, or the member values of an object, in the table's order.
inline std::vector<json::Value> Items(json::Value container) {
  std::vector<json::Value> items;
  if (!container) return items;
  if (!container.IsArray() && !container.IsObject()) {
    ADD_FAILURE() << "reference-page.json: \"" << container.Key() << "\" is " << container.TypeName();
    return items;
  }
  for (const json::Value item : container.Children()) items.push_back(item);
  return items;
}
inline std::vector<json::Value> Items(std::initializer_list<std::string_view> path) { return Items(At(path)); }

// The strings of an array.
inline std::vector<std::string> Texts(std::initializer_list<std::string_view> path) {
  std::vector<std::string> texts;
  for (const json::Value item : Items(path)) texts.push_back(Text(item));
  return texts;
}

}  // namespace vramcalc::reference

#endif  // VRAMCALC_TESTS_CORE_REFERENCE_TABLE_H_
