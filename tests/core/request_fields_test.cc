// The request as fields (core/src/request_fields.h), which the first wasm module reads in place of
// JSON: the byte layout written out by hand here, answered as the same request's JSON text is,
// and every way the bytes can be out of place refused with where reading stopped.
// tests/wasm/fields.test.mjs checks the loader's writer against the same layout and both modules
// against each other.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "request_fields.h"
#include "vramcalc/json_codec.h"

namespace vramcalc {
namespace {

// The layout's parts, written out: text := varint(length) bytes; a number := 'd' f64 text.
std::string Text(std::string_view text) {
  std::string out;
  for (auto n = static_cast<uint32_t>(text.size()); ; n >>= 7) {
    out += static_cast<char>(n > 0x7F ? (n & 0x7F) | 0x80 : n);
    if (n <= 0x7F) break;
  }
  return out + std::string(text);
}
std::string Number(double value, std::string_view written) {
  char bytes[8];
  std::memcpy(bytes, &value, sizeof bytes);  // the test machines are little-endian, as wasm is
  return "d" + std::string(bytes, sizeof bytes) + Text(written);
}
std::string String(std::string_view text) { return "s" + Text(text); }

std::string CodeOf(const std::string& answer) {
  const std::size_t at = answer.find("\"code\":\"");
  return at == std::string::npos ? "" : answer.substr(at + 8, answer.find('"', at + 8) - at - 8);
}

TEST(RequestFields, AnswerAsTheSameRequestsJsonText) {
  const std::string first = Text("sections") + "a\x04" + String("model") + String("simulator") + String("curve") +
                            String("matrix");
  const struct {
    std::string fields;
    const char* json;
  } cases[] = {
      {Text("model") + String("glm-4-32b-0414") + first,
       R"({"model":"glm-4-32b-0414","sections":["model","simulator","curve","matrix"]})"},
      {Text("model") + String("qwen3-8b") + Text("context") + Number(65536, "65536") + Text("kv_dtype") +
           String("q8_0") + Text("runtime") + String("llamacpp") + Text("flash_attention") + "t" + Text("device") +
           String("custom:20:800:vulkan:RX 7900 XT") + first,
       R"({"model":"qwen3-8b","context":65536,"kv_dtype":"q8_0","runtime":"llamacpp","flash_attention":true,)"
       R"("device":"custom:20:800:vulkan:RX 7900 XT","sections":["model","simulator","curve","matrix"]})"},
      // Errors echo the value as JSON.stringify writes it: the string quoted and escaped.
      {Text("model") + String("glm-4-32b-0414") + Text("sections") + "a\x01" + String("a\"b\n"),
       R"({"model":"glm-4-32b-0414","sections":["a\"b\n"]})"},
      {Text("model") + String("glm-4-32b-0414") + Text("context") + Number(1.5, "1.5"),
       R"({"model":"glm-4-32b-0414","context":1.5})"},
      {Text("model") + String("glm-4-32b-0414") + Text("batch") + "n", R"({"model":"glm-4-32b-0414","batch":null})"},
      {Text("model") + String("glm-4-32b-0414") + Text("compare") + "a\x02" + String("rtx-3090-24gb") + "f",
       R"({"model":"glm-4-32b-0414","compare":["rtx-3090-24gb",false]})"},
      {Text("modle") + String("glm-4-32b-0414"), R"({"modle":"glm-4-32b-0414"})"},
      {"", "{}"},
  };
  for (const auto& c : cases) EXPECT_EQ(EvaluateFields(c.fields), EvaluateJson(c.json)) << c.json;
  EXPECT_EQ(CodeOf(EvaluateFields(cases[3].fields)), "invalid_value");
  EXPECT_NE(EvaluateFields(cases[0].fields).find("\"ok\":true"), std::string::npos);
}

TEST(RequestFields, AVarintTakesSevenBitsAByte) {
  // A 200-byte id: its length is C8 01.
  const std::string id(200, 'x');
  EXPECT_EQ(Text(id).substr(0, 2), "\xC8\x01");
  EXPECT_EQ(EvaluateFields(Text("model") + String(id)), EvaluateJson(R"({"model":")" + id + "\"}"));
}

TEST(RequestFields, BytesOutOfPlaceAreRefusedWhereReadingStopped) {
  const std::string model = Text("model") + String("glm-4-32b-0414");
  const std::string nan = Number(std::nan(""), "0");
  const struct {
    std::string fields;
    std::size_t byte;
  } cases[] = {
      // `byte`: how many bytes were read when reading stopped. The model's member is bytes 0-21,
      // a key of 7 letters the next 8.
      {"\x05mod", 1},                                            // a key past the end
      {model + Text("context") + "x", 31},                        // no such kind of value
      {model + Text("context"), 30},                              // a key without its value
      {model + Text("context") + std::string("d\0\0", 3), 31},    // a number's 8 bytes cut short
      {model + Text("context") + nan, 39},                        // NaN: JSON has none
      {model + Text("compare") + "a\x01" + "a", 33},              // an array in an array
      {model + model, 28},                                        // a key twice
      {model + Text("format") + String("Q4\xFF"), 31},             // not UTF-8
      {model + Text("format") + "s\xFF\xFF\xFF\xFF\x7F", 35},       // a length beyond 32 bits
  };
  for (const auto& c : cases) {
    const Result<fields::Document> read = fields::Document::Parse(c.fields);
    ASSERT_FALSE(read.ok()) << c.byte;
    EXPECT_EQ(read.error().code, "malformed_fields");
    EXPECT_NE(read.error().message.find("byte " + std::to_string(c.byte) + ")"), std::string::npos)
        << read.error().message;
    EXPECT_EQ(CodeOf(EvaluateFields(c.fields)), "malformed_fields");
  }
}

TEST(RequestFields, AtMostSixtyFourMembers) {
  std::string fields;
  for (int i = 0; i < 64; ++i) fields += Text("k" + std::to_string(i)) + "n";
  ASSERT_TRUE(fields::Document::Parse(fields).ok());
  EXPECT_EQ(CodeOf(EvaluateFields(fields)), "unknown_field");  // as {"k0": null, …}
  EXPECT_EQ(CodeOf(EvaluateFields(fields + Text("k64") + "n")), "malformed_fields");
}

TEST(RequestFields, MinusZeroIsZeroAsJsonWritesIt) {
  const std::string bytes = Text("context") + Number(-0.0, "0");
  const Result<fields::Document> read = fields::Document::Parse(bytes);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read.value().Find("context").Number(), 0);
  EXPECT_FALSE(std::signbit(read.value().Find("context").Number()));
}

// A device of one's own is read from its text by one reader, whatever carried the request:
// plain decimals of up to 15 digits, as a person writes a memory size or a bandwidth.
TEST(RequestFields, CustomFiguresArePlainDecimals) {
  const auto device = [](const char* text) {
    const Result<Request> read = ParseRequest(std::string(R"({"model":"qwen3-8b","device":")") + text + "\"}");
    return read.ok() ? read.value().custom_device : std::nullopt;
  };
  ASSERT_TRUE(device("custom:20.5:0.1:cuda:A"));
  EXPECT_EQ(device("custom:20.5:0.1:cuda:A")->memory_gib, 20.5);
  EXPECT_EQ(device("custom:20.5:0.1:cuda:A")->bandwidth_gbps, 0.1);  // the double nearest 0.1
  EXPECT_EQ(device("custom:16384:100000:metal:Max")->memory_gib, 16384);
  EXPECT_EQ(device("custom:1.23456789012345:800:cuda:A")->memory_gib, 1.23456789012345);  // 15 digits
  for (const char* refused : {"custom:1.234567890123456:800:cuda:A", "custom:020:800:cuda:A", "custom:20.:800:cuda:A",
                              "custom:.5:800:cuda:A", "custom:1e3:800:cuda:A", "custom:+20:800:cuda:A"}) {
    EXPECT_FALSE(device(refused)) << refused;
    EXPECT_EQ(ParseRequest(std::string(R"({"model":"qwen3-8b","device":")") + refused + "\"}").error().field, "device");
  }
}

}  // namespace
}  // namespace vramcalc
