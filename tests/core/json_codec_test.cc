// The JSON contract: request parsing with every error case, and the response shape.
#include "vramcalc/json_codec.h"

#include <gtest/gtest.h>

#include <string>

namespace vramcalc {
namespace {

struct ErrorCase {
  const char* request;
  const char* code;
  const char* field;
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.request; }

class RequestErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(RequestErrors, NameTheField) {
  const ErrorCase& c = GetParam();
  const Result<Request> parsed = ParseRequest(c.request);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().code, c.code);
  EXPECT_EQ(parsed.error().field, c.field);
  EXPECT_FALSE(parsed.error().message.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, RequestErrors,
    ::testing::Values(
        ErrorCase{"", "malformed_json", ""}, ErrorCase{"{\"model\":", "malformed_json", "model"},
        ErrorCase{"not json", "malformed_json", ""}, ErrorCase{"[]", "invalid_type", ""},
        ErrorCase{"42", "invalid_type", ""}, ErrorCase{"null", "invalid_type", ""},
        ErrorCase{"{}", "missing_field", "model"},
        ErrorCase{R"({"model":42})", "invalid_type", "model"},
        ErrorCase{R"({"model":"glm-4-32b-0414","format":7})", "invalid_type", "format"},
        ErrorCase{R"({"model":"glm-4-32b-0414","context":-5})", "invalid_value", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","context":0})", "invalid_value", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","context":1.5})", "invalid_value", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","context":1e308})", "invalid_value", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","context":134217729})", "invalid_value", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","context":"32768"})", "invalid_type", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","context":true})", "invalid_type", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","context":null})", "invalid_type", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","batch":0})", "invalid_value", "batch"},
        ErrorCase{R"({"model":"glm-4-32b-0414","batch":1025})", "invalid_value", "batch"},
        ErrorCase{R"({"model":"glm-4-32b-0414","batch":[1]})", "invalid_type", "batch"},
        ErrorCase{R"({"model":"glm-4-32b-0414","kv_dtype":{}})", "invalid_type", "kv_dtype"},
        ErrorCase{R"({"model":"glm-4-32b-0414","device":3090})", "invalid_type", "device"},
        ErrorCase{R"({"model":"glm-4-32b-0414","runtime":7})", "invalid_type", "runtime"},
        ErrorCase{R"({"model":"glm-4-32b-0414","sections":["simulator","simulator"]})", "invalid_value", "sections"},
        ErrorCase{R"({"model":"glm-4-32b-0414","sections":"simulator"})", "invalid_type", "sections"},
        ErrorCase{R"({"model":"glm-4-32b-0414","foo":1})", "unknown_field", "foo"},
        ErrorCase{"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
                  "malformed_json", ""},
        ErrorCase{"{\"model\":\"\xff\xfe\"}", "malformed_json", "model"},  // invalid UTF-8
        // What a parse error or too deep a nesting interrupts is named: the value being read.
        ErrorCase{R"({"model":"glm-4-32b-0414","context":NaN})", "malformed_json", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","batch":-Infinity})", "malformed_json", "batch"},
        ErrorCase{R"({"model":"glm-4-32b-0414","context":1e400})", "malformed_json", "context"},
        ErrorCase{R"({"model":"glm-4-32b-0414","compare":["a",Infinity]})", "malformed_json", "compare"},
        ErrorCase{R"({"model":{"model_type":"llama","hidden_size":NaN}})", "malformed_json",
                  "model.hidden_size"},
        ErrorCase{"{\"model\":\"glm-4-32b-0414\",\"context\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
                  "malformed_json", "context"},
        // Outside any value (a key, after the object): the request as a whole.
        ErrorCase{"{\"model\":\"glm-4-32b-0414\",\"x\xc3\":1}", "malformed_json", ""},
        ErrorCase{"{\"model\":\"glm-4-32b-0414\"} x", "malformed_json", ""}));

TEST(ParseRequest, MalformedValuesAreNamedInTheMessage) {
  const Result<Request> parsed = ParseRequest(R"({"model":"glm-4-32b-0414","context":NaN})");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message,
            "The value of context is not valid JSON (numbers must be finite and words quoted).");
  const Result<Request> utf8 = ParseRequest("{\"model\":\"glm\xff\"}");
  ASSERT_FALSE(utf8.ok());
  EXPECT_EQ(utf8.error().message, "The value of model holds text that is not valid UTF-8.");
}

TEST(ParseRequest, AnUnknownKeyIsEchoedShortened) {
  const Result<Request> parsed =
      ParseRequest(R"({"model":"glm-4-32b-0414",")" + std::string(1'000'000, 'k') + R"(":1})");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().code, "unknown_field");
  EXPECT_EQ(parsed.error().field, std::string(64, 'k'));
  EXPECT_LT(parsed.error().message.size(), 400u);  // the echo and the 18 field names
}

// A key shown in a message is cut before a character, not inside one: "é" is 2 bytes of UTF-8
// (C3 A9), so 63 "k" and then "é" cut at 64 bytes would keep C3 alone; 63 bytes are kept.
TEST(ParseRequest, CutsALongKeyBeforeACharacter) {
  const Result<Request> parsed =
      ParseRequest(R"({"model":"glm-4-32b-0414",")" + std::string(63, 'k') + "\u00e9\u00e9" + R"(":1})");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().field, std::string(63, 'k'));
  EXPECT_TRUE(parsed.error().message.starts_with("Unknown request field \"" + std::string(63, 'k') + "\"; the"))
      << parsed.error().message;
}

// A config.json beside the request (the CLI's --config) is checked as the request is.
TEST(ParseRequestWithConfig, NamesTheConfigField) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  const Result<Request> nested = ParseRequest("{}", deep);  // crashed: the rewrite recursed
  ASSERT_FALSE(nested.ok());
  EXPECT_EQ(nested.error().field, "model");
  const Result<Request> deep_field =
      ParseRequest("{}", R"({"model_type":"llama","num_hidden_layers":)" + deep + "}");
  ASSERT_FALSE(deep_field.ok());
  EXPECT_EQ(deep_field.error().field, "model.num_hidden_layers");
  const Result<Request> nan = ParseRequest("{}", R"({"model_type":"llama","vocab_size":NaN})");
  ASSERT_FALSE(nan.ok());
  EXPECT_EQ(nan.error().field, "model.vocab_size");
  const Result<Request> utf8 = ParseRequest("{}", "{\"model_type\":\"llama\",\"_name_or_path\":\"a\xff\"}");
  ASSERT_FALSE(utf8.ok());
  EXPECT_EQ(utf8.error().field, "model._name_or_path");
  const Result<Request> deep_request = ParseRequest(std::string(100'000, '['), R"({"model_type":"llama"})");
  ASSERT_FALSE(deep_request.ok());
  EXPECT_EQ(deep_request.error().code, "malformed_json");
  const Result<Request> bad_context = ParseRequest(R"({"context":NaN})", R"({"model_type":"llama"})");
  ASSERT_FALSE(bad_context.ok());
  EXPECT_EQ(bad_context.error().field, "context");
}

TEST(ParseRequest, FillsTheReferenceDefaults) {
  const Result<Request> parsed = ParseRequest(R"({"model":"glm-4-32b-0414"})");
  ASSERT_TRUE(parsed.ok());
  // No format: the runtime's default, Q4_K_M for the reference profile (and BF16 for vLLM).
  EXPECT_FALSE(parsed.value().format.has_value());
  EXPECT_EQ(FindRuntimeProfile(parsed.value().runtime)->default_format, "Q4_K_M");
  EXPECT_EQ(FindRuntimeProfile("vllm")->default_format, "BF16");
  EXPECT_EQ(parsed.value().context_tokens, 32768);
  EXPECT_EQ(parsed.value().batch, 1);
  EXPECT_EQ(parsed.value().kv_dtype, "fp16");
  EXPECT_FALSE(parsed.value().device.has_value());
  EXPECT_EQ(parsed.value().runtime, "reference");
}

TEST(ParseRequest, AcceptsEveryField) {
  const Result<Request> parsed = ParseRequest(
      R"({"model":"glm-4-9b-0414","format":"Q8_0","context":65536.0,"batch":4,)"
      R"("kv_dtype":"q8_0","device":"rtx-4090-24gb","device_count":2,"compare":["a100-80gb"],)"
      R"("runtime":"reference","sections":["simulator","matrix"]})");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed.value().context_tokens, 65536);  // an integral float is a whole number
  EXPECT_EQ(parsed.value().batch, 4);
  EXPECT_EQ(*parsed.value().device, "rtx-4090-24gb");
  EXPECT_EQ(*parsed.value().device_count, 2);
  EXPECT_EQ(parsed.value().compare, std::vector<std::string>{"a100-80gb"});
  EXPECT_EQ(parsed.value().sections, kSectionSimulator | kSectionMatrix);
}

TEST(ParseRequest, UnknownFieldsAreListedFromTheFieldTable) {
  // The page no longer sends "lang": the core answers in ids; the page localizes.
  const Result<Request> parsed = ParseRequest(R"({"model":"glm-4-32b-0414","lang":"en"})");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().code, "unknown_field");
  EXPECT_EQ(parsed.error().field, "lang");
  EXPECT_EQ(parsed.error().message,
            "Unknown request field \"lang\"; the fields are model, format, context, batch, kv_dtype, device, "
            "device_count, compare, runtime, memory_utilization, max_num_batched_tokens, ubatch, flash_attention, "
            "parallel, host_memory, host_memory_type, host_bandwidth, prompt_tokens, output_tokens, min_user_tps and sections.");
}

TEST(ParseRequest, AnUnknownRuntimeNamesTheProfiles) {
  const std::string response = EvaluateJson(R"({"model":"glm-4-32b-0414","runtime":"tgi"})");
  EXPECT_NE(response.find(R"("code":"unknown_runtime")"), std::string::npos) << response;
  EXPECT_NE(response.find(R"("message":"Unknown runtime \"tgi\": use reference, llamacpp, ollama, vllm, sglang or mlx.")"), std::string::npos) << response;
  EXPECT_NE(response.find(R"("field":"runtime")"), std::string::npos) << response;
}

TEST(ParseRequest, RejectsOversizedInput) {
  const std::string huge = R"({"model":")" + std::string(2 << 20, 'x') + R"("})";
  const Result<Request> parsed = ParseRequest(huge);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().code, "request_too_large");
}

TEST(EvaluateJson, UnknownIdsNameTheirField) {
  EXPECT_NE(EvaluateJson(R"({"model":"nope"})").find(R"("code":"unknown_model","message":"Unknown model \"nope\": use a catalog id such as \"glm-4-32b-0414\".","field":"model")"),
            std::string::npos);
  EXPECT_NE(EvaluateJson(R"({"model":"glm-4-32b-0414","format":"Q3"})").find(R"("field":"format")"),
            std::string::npos);
  EXPECT_NE(EvaluateJson(R"({"model":"glm-4-32b-0414","kv_dtype":"int2"})").find(R"("field":"kv_dtype")"),
            std::string::npos);
  EXPECT_NE(EvaluateJson(R"({"model":"glm-4-32b-0414","device":"gtx-480"})").find(R"("field":"device")"),
            std::string::npos);
}

TEST(EvaluateJson, ErrorsAreOkFalseWithSchema) {
  EXPECT_EQ(EvaluateJson("{}"),
            R"({"ok":false,"schema":3,"error":{"code":"missing_field","message":"model is required, e.g. \"glm-4-32b-0414\".","field":"model"}})");
}

TEST(EvaluateJson, EchoedIdsAreShortenedToValidUtf8) {
  // 63 ASCII bytes then a 2-byte character: the 64-byte cut must not split it.
  const std::string id = std::string(63, 'a') + "\xc3\xa9" + std::string(10, 'b');
  const std::string response = EvaluateJson(R"({"model":")" + id + R"("})");
  EXPECT_NE(response.find(std::string(63, 'a') + "…"), std::string::npos) << response;
}

TEST(EvaluateJson, ResponseCarriesTheContractKeys) {
  // The reference page's figures as ids and numbers: nothing localized.
  const std::string response = EvaluateJson(R"({"model":"glm-4-32b-0414"})");
  for (const char* key : {R"({"ok":true,"schema":3,"model":{"id":"glm-4-32b-0414")",
                          R"("layer_groups":[{"kind":"full","layers":61,"kv_heads":2,"key_dim":128,"value_dim":128,)",
                          R"("simulator":{"device":"rtx-3090-24gb")", R"("runtime":"reference")",
                          R"("share_pct":{"weights":83.0,"kv_cache":8.8,"state":0.0,"vision":0.0,"overhead":8.2})",
                          R"("fit":"tight","decode_tps":)", R"("max_context":61544)",
                          R"("matrix":[{"format":"FP16","label":"FP16 / BF16","bpw":16.0)",
                          R"("recommended_device":"a100-80gb")", R"("hardware":[{"device":"rtx-3090-24gb")",
                          R"("commands":[{"id":"vllm","engine":"vllm","title":"cmd.vllm","language":"sh","text":)"}) {
    EXPECT_NE(response.find(key), std::string::npos) << key;
  }
  EXPECT_EQ(response.find("_label"), std::string::npos);
  EXPECT_EQ(response.find("Knapp"), std::string::npos);
}

TEST(EvaluateJson, TheCardSectionSaysWhereToGetTheModel) {
  // The reference page's architecture card: "Checkpoint ID THUDM/GLM-4-32B-0414", "Ollama Tag
  // glm4:32b", "License / Release MIT · 2025-Q2" (the Ollama tag's weights: the catalog's default,
  // Q4_K_M). The license stays in the model section (the page's summary line names it); the
  // rest is the card section's alone, last, and only when asked for.
  const std::string card = EvaluateJson(R"({"model":"glm-4-32b-0414","sections":["card","model"]})");
  EXPECT_NE(card.find(R"(,"card":{"checkpoint":"THUDM/GLM-4-32B-0414","ollama_tag":"glm4:32b",)"
                      R"("ollama_tag_weights":"Q4_K_M","release":"2025-Q2"}})"),
            std::string::npos)
      << card;
  EXPECT_NE(card.find(R"("license":"MIT")"), std::string::npos);
  for (const char* key : {"\"checkpoint\"", "\"ollama_tag\"", "\"release\""}) {
    EXPECT_EQ(card.find(key), card.rfind(key)) << key << " written twice";
  }
  const std::string model = EvaluateJson(R"({"model":"glm-4-32b-0414","sections":["model"]})");
  for (const char* key : {"\"checkpoint\"", "\"ollama_tag\"", "\"ollama_tag_weights\"", "\"release\"", "glm4:32b"}) {
    EXPECT_EQ(model.find(key), std::string::npos) << key;
  }
}

TEST(CatalogJson, HoldsSelectorsAndBothLanguages) {
  const std::string catalog = CatalogJson();
  EXPECT_EQ(catalog.rfind(R"({"ok":true,"schema":3,"models":[{"id":")", 0), 0u);
  // The vocabularies the page reads instead of keeping copies.
  for (const char* key : {R"("runtimes":[{"id":"reference",)",
                          R"("request_fields":[{"name":"model","short_name":"model"},{"name":"format",)",
                          R"({"name":"kv_dtype","short_name":"kv"})", R"({"name":"device_count","short_name":"gpus"})",
                          R"("context_sections":["simulator","hardware","related","commands","offload","pool","serving"])",
                          R"("matrix_contexts":[{"tokens":8192,"label":"8K"},{"tokens":32768,"label":"32K"},{"tokens":131072,"label":"128K"}])",
                          R"("defaults":{"model":"glm-4-32b-0414","format":"Q4_K_M","context":32768,"batch":1,"kv_dtype":"fp16","runtime":"reference","host_memory":32.0,"host_memory_type":"ddr5-5600-2ch","prompt_tokens":4096,"output_tokens":512,"min_user_tps":20.0,"lang":"de"})"}) {
    EXPECT_NE(catalog.find(key), std::string::npos) << key;
  }
  EXPECT_NE(catalog.find(R"("strings":{"de":{)"), std::string::npos);
  EXPECT_NE(catalog.find(R"("en":{)"), std::string::npos);
  EXPECT_NE(catalog.find(R"x("fit.tight":"Knapp (>90 % nutzbar)")x"), std::string::npos);
}

// The device listing writes what json_codec.h names, not the peaks and host link only the serving
// section reads (schema.h kUnlisted), so vramcalc.wasm, whose catalog leaves those out, lists the
// same devices as vramcalc-full.wasm (tests/wasm/core.test.mjs compares the two).
TEST(CatalogJson, TheDeviceListingLeavesOutWhatOnlyServingReads) {
  const std::string devices = DevicesJson();
  EXPECT_NE(devices.find(R"("id":"rtx-3090-24gb","name":"RTX 3090 24GB","memory_gib":24.0,"bandwidth_gbps":936.0,)"),
            std::string::npos) << devices.substr(0, 400);
  for (const char* key : {"fp16_tflops", "int8_tops", "fp8_tflops", "serving_source", "host_link_gbps"}) {
    EXPECT_EQ(devices.find(key), std::string::npos) << key;
  }
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

// Found by the config fuzzer (tests/fuzz): a number beyond a double's range makes nlohmann
// throw out_of_range, not parse_error, while parsing; it once escaped and aborted.
TEST(Regression, NumbersTooLargeForADoubleAreMalformedNotFatal) {
  const Result<Request> request = ParseRequest(R"({"model": "glm-4-32b-0414", "context": 1e400})");
  ASSERT_FALSE(request.ok());
  EXPECT_EQ(request.error().code, "malformed_json");
  EXPECT_NE(EvaluateJson(R"({"model": {"model_type": "llama", "hidden_size": 1e999}})").find(R"("code":"malformed_json")"),
            std::string::npos);
  EXPECT_NE(EvaluateJsonWithConfig("{}", R"({"model_type": "mistral", "rope_theta": 1e400})").find(R"("ok":false)"),
            std::string::npos);
}

}  // namespace
}  // namespace vramcalc
