// JSON text as the core reads it (nlohmann's parser and our handler, json_value.h) against
// RFC 8259: what it must read, what it must refuse, and where it says reading stopped.
#include "io/json_value.h"

#include <gtest/gtest.h>

#include <string>

namespace vramcalc::json {
namespace {

Document Read(std::string_view text) {
  Result<Document> document = Document::Parse(text);
  EXPECT_TRUE(document.ok()) << text << ": " << (document.ok() ? "" : document.error().message);
  return document.ok() ? std::move(document).value() : Document::Parse("null").value();
}

ParseFailure Refused(std::string_view text, int max_depth = 64) {
  ParseFailure failure;
  const Result<Document> document = Document::Parse(text, max_depth, &failure);
  EXPECT_FALSE(document.ok()) << text;
  if (!document.ok()) {
    EXPECT_EQ(document.error().code, "malformed_json");
  }
  return failure;
}

TEST(JsonValue, ReadsValuesOfEveryType) {
  const Document d = Read(R"( {"a": [1, -2.5, 1e3, true, false, null, "x\u00e9\n"], "b": {}, "c": [] } )");
  const Value root = d.root();
  ASSERT_TRUE(root.IsObject());
  EXPECT_EQ(root.size(), 3u);
  const Value a = root.Find("a");
  ASSERT_TRUE(a.IsArray());
  std::vector<Value> items;
  for (const Value item : a.Children()) items.push_back(item);
  ASSERT_EQ(items.size(), 7u);
  EXPECT_TRUE(items[0].IsInteger());
  EXPECT_EQ(items[0].Integer(), 1);
  EXPECT_EQ(items[1].type(), Type::kFloat);
  EXPECT_EQ(items[1].Number(), -2.5);
  EXPECT_EQ(items[2].type(), Type::kFloat);  // an exponent makes a float, as in nlohmann
  EXPECT_EQ(items[2].Number(), 1000.0);
  EXPECT_TRUE(items[3].Bool());
  EXPECT_FALSE(items[4].Bool());
  EXPECT_TRUE(items[5].IsNull());
  EXPECT_EQ(items[6].String(), "x\xc3\xa9\n");  // U+00E9 as UTF-8
  EXPECT_EQ(root.Find("b").size(), 0u);
  EXPECT_FALSE(root.Find("missing"));
  // The value for a message: a float as written, the rest as JSON.stringify writes it.
  EXPECT_EQ(items[1].Source(), "-2.5");
  EXPECT_EQ(items[2].Source(), "1e3");
  EXPECT_EQ(items[6].Source(), "\"x\xc3\xa9\\n\"");  // é as UTF-8, the newline escaped
  EXPECT_EQ(a.Source(), "[1,-2.5,1e3,true,false,null,\"x\xc3\xa9\\n\"]");
  EXPECT_EQ(root.Find("b").Source(), "{}");
  EXPECT_EQ(Read(R"({"k": {"n": 18446744073709551615}})").root().Source(), R"({"k":{"n":18446744073709551615}})");
  EXPECT_EQ(a.Key(), "a");
}

TEST(JsonValue, DecodesSurrogatePairsAndKeepsBigIntegersAsNumbers) {
  // U+1F600 is D83D DE00 in UTF-16 and F0 9F 98 80 in UTF-8.
  EXPECT_EQ(Read(R"("\ud83d\ude00")").root().String(), "\xf0\x9f\x98\x80");
  // int64's limit stays an integer; one more is a float.
  EXPECT_EQ(Read("9223372036854775807").root().Integer(), INT64_MAX);
  EXPECT_EQ(Read("9223372036854775808").root().type(), Type::kFloat);
  EXPECT_EQ(Read("-9223372036854775808").root().Integer(), INT64_MIN);
  EXPECT_EQ(Read("18446744073709551616").root().Number(), 18446744073709551616.0);
}

TEST(JsonValue, RefusesWhatRfc8259DoesNotAllow) {
  for (const char* text : {"", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "1e", "'a'", "[1 2]",
                           "{\"a\" 1}", "{a: 1}", "\"a\nb\"", "\"\\x\"", "/* c */ 1", "1 2", "[", "\"abc"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(Refused(text).problem, Problem::kSyntax);
  }
  for (const char* text : {"NaN", "[Infinity]", "-Infinity", "undefined", "tru"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(Refused(text).problem, Problem::kWord);
  }
  // Invalid UTF-8 (a lone 0xFF, an overlong "/", an encoded surrogate) and lone surrogates.
  for (const std::string text : {std::string("\"\xff\""), std::string("\"\xc0\xaf\""), std::string("\"\xed\xa0\x80\""),
                                 std::string(R"("\ud800")"), std::string(R"("\udc00x")")}) {
    EXPECT_EQ(Refused(text).problem, Problem::kNotUtf8) << text;
  }
  EXPECT_EQ(Refused("1e400").problem, Problem::kTooLarge);
  EXPECT_EQ(Refused(R"({"a": 1, "a": 2})").problem, Problem::kDuplicateKey);
  EXPECT_EQ(Refused("[[[1]]]", 2).problem, Problem::kTooDeep);
  Read("[[1]]");  // two levels are within a limit of two
  EXPECT_TRUE(Document::Parse("[[1]]", 2).ok());
}

TEST(JsonValue, NamesTheFieldWhereReadingStopped) {
  // Inside a member's value: the keys down to it, up to the first array.
  EXPECT_EQ(Refused(R"({"model": {"hidden_size": NaN}})").path, "model.hidden_size");
  EXPECT_EQ(Refused(R"({"compare": ["a", Infinity]})").path, "compare");
  EXPECT_EQ(Refused(R"({"context": [[[[1]]]]})", 3).path, "context");
  // Between members, in a key, or after the value: no field.
  EXPECT_EQ(Refused(R"({"a": 1 "b": 2})").path, "");
  EXPECT_EQ(Refused("{\"a\": 1, \"x\xc3\": 2}").path, "");
  EXPECT_EQ(Refused(R"({"a": 1} x)").path, "");
  // The bytes read when it stopped: the parser saw "tru}" and stopped at the brace.
  EXPECT_EQ(Refused(R"({"a": tru})").byte, 10u);
  // The handler's own refusals name the key instead.
  const ParseFailure twice = Refused(R"({"model": {"a": 1, "b": 2, "a": 3}})");
  EXPECT_EQ(twice.path, "model");
  EXPECT_EQ(twice.key, "a");
}

TEST(JsonValue, ManyKeysCostLittle) {
  // 100,000 distinct keys in one object: refused or read in n log n, not n².
  std::string text = "{";
  for (int i = 0; i < 100000; ++i) text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
  EXPECT_EQ(Read(text + "}").root().size(), 100000u);
  EXPECT_EQ(Refused(text + ",\"k5\":2}").problem, Problem::kDuplicateKey);
}

}  // namespace
}  // namespace vramcalc::json
