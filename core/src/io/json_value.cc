#include "io/json_value.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "vramcalc/json_codec.h"

namespace vramcalc::json {

using Json = nlohmann::ordered_json;

// ---- Value -------------------------------------------------------------------------------------

namespace {

// A whole number as written, within int64 (nlohmann reads 2^63 … 2^64 − 1 as unsigned).
bool FitsInt64(const Json& json) {
  return json.is_number_integer() &&
         (!json.is_number_unsigned() ||
          json.get<Json::number_unsigned_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
}

}  // namespace

// An absent value reads as null, so that asking an absent value what it is stays safe.
Type Value::type() const {
  if (json_ == nullptr) return Type::kNull;
  switch (json_->type()) {
    case Json::value_t::boolean: return Type::kBool;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return FitsInt64(*json_) ? Type::kInteger : Type::kFloat;
    case Json::value_t::number_float: return Type::kFloat;
    case Json::value_t::string: return Type::kString;
    case Json::value_t::array: return Type::kArray;
    case Json::value_t::object: return Type::kObject;
    default: return Type::kNull;
  }
}

std::string_view Value::String() const { return json_->get_ref<const Json::string_t&>(); }
double Value::Number() const { return json_->get<double>(); }
int64_t Value::Integer() const { return json_->get<int64_t>(); }
bool Value::Bool() const { return json_->get<bool>(); }
// Written without nlohmann's serializer (its dump() brought 4.7 KB gzip into vramcalc-full.wasm:
// the serializer and the printf it formats escapes with).
std::string Value::Source() const {
  switch (type()) {
    case Type::kNull: return "null";
    case Type::kBool: return Bool() ? "true" : "false";
    case Type::kInteger: return std::to_string(Integer());
    case Type::kString: return JsonString(String());
    case Type::kFloat: break;
    case Type::kArray:
    case Type::kObject: {
      std::string text(1, IsArray() ? '[' : '{');
      for (const Value child : Children()) {
        if (text.size() > 1) text += ',';
        if (IsObject()) text += JsonString(child.Key()) + ':';
        text += child.Source();
      }
      return text + (IsArray() ? ']' : '}');
    }
  }
  if (json_->is_number_unsigned()) return std::to_string(json_->get<uint64_t>());  // beyond int64
  // Searched, not sorted: only a message asks (a few per document at most).
  for (const auto& [json, text] : *written_) {
    if (json == json_) return text;
  }
  return "null";
}
std::size_t Value::size() const { return IsArray() || IsObject() ? json_->size() : 0; }

Value Value::Find(std::string_view key) const {
  if (!IsObject()) return Value();
  for (const auto& [name, member] : json_->get_ref<const Json::object_t&>()) {
    if (name == key) return Value(&member, &name, written_);
  }
  return Value();
}

Value::Iterator Value::Range::begin() const { return Iterator(container, written, 0); }
Value::Iterator Value::Range::end() const {
  return Iterator(container, written, container == nullptr ? 0 : container->size());
}

Value Value::Iterator::operator*() const {
  if (container_->is_array()) return Value(&(*container_)[index_], nullptr, written_);
  // An ordered_map is a std::vector of members (its operator[] takes a key).
  const auto& [name, member] = *(container_->get_ref<const Json::object_t&>().begin() + static_cast<std::ptrdiff_t>(index_));
  return Value(&member, &name, written_);
}

// ---- parsing -----------------------------------------------------------------------------------

namespace {

// nlohmann's SAX events turned into an ordered_json (its own DOM builder is an internal class),
// with the path of keys kept for messages, and the two rules RFC 8259 leaves to the reader.
class Builder {
 public:
  explicit Builder(int max_depth) : max_depth_(max_depth) {}

  Json& root() { return root_; }
  // The numbers with a fraction or an exponent as written, in the text's order.
  std::vector<std::string>& written() { return written_; }
  const ParseFailure& failure() const { return failure_; }

  bool null() { return Put(nullptr); }
  bool boolean(bool value) { return Put(value); }
  bool number_integer(Json::number_integer_t value) { return Put(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return Put(value); }
  bool number_float(Json::number_float_t value, const std::string& text) {
    written_.push_back(text.substr(0, 64));
    return Put(value);
  }
  bool string(std::string& value) { return Put(std::move(value)); }
  bool binary(Json::binary_t&) { return false; }  // not in JSON text
  bool start_object(std::size_t) { return Open(Json::object()); }
  bool start_array(std::size_t) { return Open(Json::array()); }
  bool key(std::string& key) {
    Level& level = levels_.back();
    level.key = Clipped(key, 64);
    // Appended without nlohmann's search for an equal key (linear in an ordered_map): a
    // hostile object of many keys costs n log n, in Unique.
    Json::object_t& members = level.json->get_ref<Json::object_t&>();
    members.Json::object_t::Container::emplace_back(std::move(key), nullptr);
    return true;
  }
  bool end_object() {
    if (!Unique(levels_.back().json->get_ref<const Json::object_t&>())) return false;
    return Close();
  }
  bool end_array() { return Close(); }
  bool parse_error(std::size_t byte, const std::string& last_token, const Json::exception& error) {
    failure_.byte = byte;
    failure_.problem = Kind(last_token, error);
    failure_.path = Path();
    return false;
  }

 private:
  struct Level {
    Json* json;       // the open array or object
    std::string key;  // an object's member being read; empty between members
  };

  // Where the next value goes: the root, an array's new last element, or the member whose key
  // was just read.
  Json* Slot() {
    if (levels_.empty()) return &root_;
    Json& open = *levels_.back().json;
    if (open.is_array()) return &open.emplace_back(nullptr);
    return &open.get_ref<Json::object_t&>().back().second;
  }
  template <typename T>
  bool Put(T&& value) {
    *Slot() = Json(std::forward<T>(value));
    Done();
    return true;
  }
  bool Open(Json container) {
    if (static_cast<int>(levels_.size()) >= max_depth_) return Fail(Problem::kTooDeep);
    Json* slot = Slot();
    *slot = std::move(container);
    levels_.push_back(Level{slot, ""});
    return true;
  }
  bool Close() {
    levels_.pop_back();
    Done();
    return true;
  }
  // A value was read whole: its member's key is no longer where reading is.
  void Done() {
    if (!levels_.empty()) levels_.back().key.clear();
  }

  // RFC 8259 leaves duplicate keys to the reader; this one refuses them.
  bool Unique(const Json::object_t& members) {
    std::vector<const std::string*> keys;
    keys.reserve(members.size());
    for (const auto& member : members) keys.push_back(&member.first);
    std::sort(keys.begin(), keys.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
    const auto twice = std::adjacent_find(keys.begin(), keys.end(),
                                          [](const std::string* a, const std::string* b) { return *a == *b; });
    if (twice == keys.end()) return true;
    failure_.key = Clipped(**twice, 64);
    return Fail(Problem::kDuplicateKey);
  }

  bool Fail(Problem problem) {
    failure_.problem = problem;
    failure_.path = Path();
    return false;
  }
  // The keys of the enclosing objects, up to the first array (an array's elements are its
  // field's).
  std::string Path() const {
    std::string path;
    for (const Level& level : levels_) {
      if (!level.json->is_object() || level.key.empty()) break;
      path += (path.empty() ? "" : ".") + level.key;
    }
    return path;
  }
  // nlohmann's error as one of ours: 406 is its "number overflow", and its messages name UTF-8,
  // surrogates, and an unquoted word where a value goes: NaN, undefined, a misspelt true ("invalid
  // literal", the lexer having read the word and perhaps one character after it), -Infinity (a
  // letter where a digit must follow the minus).
  static Problem Kind(const std::string& last_token, const Json::exception& error) {
    if (error.id == 406) return Problem::kTooLarge;
    const std::string_view what = error.what();
    const auto says = [what](std::string_view words) { return what.find(words) != std::string_view::npos; };
    if (says("UTF-8") || says("surrogate")) return Problem::kNotUtf8;
    const auto letter = [&last_token](std::size_t from_end) {
      return last_token.size() > from_end &&
             std::isalpha(static_cast<unsigned char>(last_token[last_token.size() - 1 - from_end])) != 0;
    };
    const bool word = (says("invalid literal") && says("parsing value") && (letter(0) || letter(1))) ||
                      (says("after '-'") && letter(0));
    return word ? Problem::kWord : Problem::kSyntax;
  }

  int max_depth_;
  Json root_;
  std::vector<std::string> written_;
  std::vector<Level> levels_;
  ParseFailure failure_;
};

std::string_view ProblemName(Problem problem) {
  switch (problem) {
    case Problem::kTooDeep: return "nested too deeply";
    case Problem::kNotUtf8: return "text that is not valid UTF-8";
    case Problem::kTooLarge: return "a number too large";
    case Problem::kDuplicateKey: return "a duplicate key";
    case Problem::kWord: return "an unquoted word";
    case Problem::kSyntax: break;
  }
  return "a syntax error";
}

// The floats' texts beside their values: the document's nodes in the text's order are the SAX
// events' order, and the values no longer move once the document is whole.
void Pair(const Json& json, std::vector<std::string>& texts, std::size_t& next, Value::Written& written) {
  if (json.is_number_float()) {
    written.emplace_back(&json, std::move(texts[next++]));
  } else if (json.is_array()) {
    for (const Json& element : json) Pair(element, texts, next, written);
  } else if (json.is_object()) {
    for (const auto& member : json.get_ref<const Json::object_t&>()) Pair(member.second, texts, next, written);
  }
}

}  // namespace

Result<Document> Document::Parse(std::string_view text, int max_depth, ParseFailure* failure) {
  Builder builder(max_depth);
  if (Json::sax_parse(text.begin(), text.end(), &builder)) {
    Document document;
    document.json_ = std::make_shared<const Json>(std::move(builder.root()));
    auto written = std::make_shared<Value::Written>();
    std::size_t next = 0;
    Pair(*document.json_, builder.written(), next, *written);
    document.written_ = std::move(written);
    return document;
  }
  if (failure) *failure = builder.failure();
  const ParseFailure& f = builder.failure();
  std::string where = f.byte > 0 ? " at byte " + std::to_string(f.byte) : "";
  if (!f.path.empty()) where += " in " + f.path;
  return Error{"malformed_json", "Not valid JSON: " + std::string(ProblemName(f.problem)) + where + ".", ""};
}

}  // namespace vramcalc::json
