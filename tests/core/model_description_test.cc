// A model description (hf_config.h kModelDescriptionSchema): a catalog entry's fields named by
// the schema, read by the catalog's own reader, with the bytes per tensor role its file states.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "io/json_writer.h"
#include "io/schema_writer.h"
#include "vramcalc/catalog.h"
#include "vramcalc/display.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/hf_config.h"
#include "vramcalc/json_codec.h"

namespace vramcalc {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

const Catalog& Builtin() { return BuiltinCatalog().value(); }

// A catalog entry as a description: its fields as the catalog's listings write them, the card's
// left out (a description may omit them), its schema first and `weights` as its weights.
std::string DescriptionOf(const ModelSpec& model, std::string_view weights = "null") {
  internal::JsonWriter w(4096);
  internal::SchemaWriter(w, internal::Fields::kNotCard).Write(model);
  std::string fields = std::move(w).Take();
  fields.insert(fields.size() - 1, ",\"weights\":" + std::string(weights));
  return "{\"schema\":\"" + std::string(kModelDescriptionSchema) + "\"," + fields.substr(1);
}

// The same request for the catalog entry itself.
Result<Response> EvaluateListed(const ModelSpec& model, std::string request) {
  request.insert(1, "\"model\": \"" + model.id + "\", ");
  const Result<Request> parsed = ParseRequest(request);
  if (!parsed.ok()) return parsed.error();
  return Evaluate(parsed.value(), Builtin());
}

Result<Response> EvaluateDescribed(const std::string& description, const std::string& request) {
  const Result<Request> parsed = ParseRequest(request, description);
  if (!parsed.ok()) return parsed.error();
  return Evaluate(parsed.value(), Builtin());
}

// DeepSeek-V2-Lite's F16 GGUF as tests/golden/headers holds it (ik_llama.cpp PR #299's
// llama-quantize log, 431 tensors, 31,533,283,328 bytes: "model size = 30072.48 MB"), summed by
// role. By hand, 2 bytes per F16 element: token_embd and output [2048, 102400] = 419,430,400 B
// each; routed experts 26 MoE layers × 3 × [2048, 1408, 64] = 28,789,702,656 B; the 2 shared
// experts 26 × 3 × [2048, 2816] = 899,678,208 B; layer 0's dense FFN 3 × [2048, 10944] =
// 134,479,872 B; attention (with ik_llama.cpp's attn_k_b and attn_v_b beside attn_kv_b, and the
// F32 attention norms) 856,700,928 B; the F32 FFN norms, routers and output norm 13,860,864 B.
// llama.cpp's profile names its 16-bit format BF16: F16 stores the same 2 bytes per weight.
constexpr std::string_view kDeepSeekLiteF16 =
    R"({"format": "BF16", "file": "Deep-2-Lite-64x1.5B-F16-mla.gguf", "embedding": 419430400,
       "head": 419430400, "attention": 856700928, "dense_ffn": 134479872, "shared_experts": 899678208,
       "routed_experts": 28789702656, "other": 13860864})";
constexpr double kDeepSeekLiteF16Bytes = 31533283328.0;

TEST(ModelDescription, EveryCatalogEntryReadsBackAsTheSameModel) {
  for (const ModelSpec& model : Builtin().models) {
    const std::string request = R"({"format": "Q4_K_M", "runtime": "llamacpp", "device": "rtx-4090-24gb"})";
    const Result<Response> described = EvaluateDescribed(DescriptionOf(model), request);
    ASSERT_TRUE(described.ok()) << model.id << ": " << described.error().field << " " << described.error().message;
    const Result<Response> listed = EvaluateListed(model, request);
    ASSERT_TRUE(listed.ok()) << model.id;
    EXPECT_EQ(described.value().simulator.total_gib, listed.value().simulator.total_gib) << model.id;
    EXPECT_EQ(described.value().simulator.decode_tps, listed.value().simulator.decode_tps) << model.id;
    EXPECT_EQ(described.value().simulator.max_context_tokens, listed.value().simulator.max_context_tokens) << model.id;
  }
}

TEST(ModelDescription, TheFilesBytesAreTheWeightsUnderItsFormat) {
  const std::string description = DescriptionOf(*Builtin().FindModel("deepseek-v2-lite"), kDeepSeekLiteF16);
  // llama.cpp keeps the token embedding in host RAM: the rest is on the device.
  const Result<Response> llamacpp =
      EvaluateDescribed(description, R"({"format": "BF16", "runtime": "llamacpp", "device": "a100-80gb"})");
  ASSERT_TRUE(llamacpp.ok()) << llamacpp.error().message;
  EXPECT_DOUBLE_EQ(llamacpp.value().simulator.weights_gib * kGiB, kDeepSeekLiteF16Bytes - 419430400.0);
  EXPECT_DOUBLE_EQ((llamacpp.value().simulator.weights_gib + llamacpp.value().simulator.host_gib) * kGiB,
                   kDeepSeekLiteF16Bytes);
  // The command loads the file that was read.
  bool named = false;
  for (const Command& command : llamacpp.value().commands) {
    named |= command.text.find("-m ./Deep-2-Lite-64x1.5B-F16-mla.gguf") != std::string::npos;
  }
  EXPECT_TRUE(named);
  // vLLM loads every tensor onto the GPU.
  const Result<Response> vllm = EvaluateDescribed(description, R"({"format": "BF16", "runtime": "vllm", "device": "a100-80gb"})");
  ASSERT_TRUE(vllm.ok()) << vllm.error().message;
  EXPECT_DOUBLE_EQ(vllm.value().simulator.weights_gib * kGiB, kDeepSeekLiteF16Bytes);
}

TEST(ModelDescription, OtherFormatsKeepTheParametersTimesTheirBits) {
  const ModelSpec& lite = *Builtin().FindModel("deepseek-v2-lite");
  const std::string request = R"({"format": "Q4_K_M", "runtime": "llamacpp", "device": "a100-80gb"})";
  const Result<Response> described = EvaluateDescribed(DescriptionOf(lite, kDeepSeekLiteF16), request);
  ASSERT_TRUE(described.ok());
  EXPECT_EQ(described.value().simulator.weights_gib, EvaluateListed(lite, request).value().simulator.weights_gib);
}

struct Broken {
  std::string_view what;
  std::string_view from;  // replaced in the description by `to`
  std::string_view to;
  std::string_view field;
};

TEST(ModelDescription, ABrokenDescriptionNamesItsField) {
  const std::string good = DescriptionOf(*Builtin().FindModel("deepseek-v2-lite"), kDeepSeekLiteF16);
  const Broken cases[] = {
      {"another schema", "vramcalc.model/1", "vramcalc.model/9", "model.schema"},
      {"a field missing", "\"hidden_size\":2048,", "", "model.hidden_size"},
      {"a count of the wrong type", "\"hidden_size\":2048", "\"hidden_size\":\"2048\"", "model.hidden_size"},
      {"an unknown field", "\"other\": 13860864", "\"other\": 13860864, \"tensor_bytes\": 1", "model.weights.tensor_bytes"},
      {"an unknown format", "\"format\": \"BF16\"", "\"format\": \"F17\"", "model.weights.format"},
      {"negative bytes", "\"head\": 419430400", "\"head\": -1", "model.weights.head"},
      {"bytes of another format", "\"format\": \"BF16\"", "\"format\": \"Q4_K_M\"", "model.weights"},
      {"bytes of another model", "\"attention\": 856700928", "\"attention\": 85670092800", "model.weights"},
      {"experts' bytes left out of a MoE model", "\"routed_experts\": 28789702656", "\"routed_experts\": 0",
       "model.weights.routed_experts"},
      {"an id a shell would run", "\"id\":\"deepseek-v2-lite\"", "\"id\":\"$(reboot)\"", "model.id"},
      {"a file name with a space", "F16-mla.gguf", "F16 mla.gguf", "model.weights.file"},
      {"a name of two lines", "\"name\":\"DeepSeek-V2-Lite-Chat\"", "\"name\":\"DeepSeek\\nrm -rf ~\"", "model.name"},
      {"a layer count that is not the groups'", "\"num_hidden_layers\":27", "\"num_hidden_layers\":28",
       "model.layer_groups"},
  };
  for (const Broken& c : cases) {
    std::string description = good;
    const std::size_t at = description.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.what;
    description.replace(at, c.from.size(), c.to);
    const Result<Request> parsed = ParseRequest(R"({"runtime": "llamacpp"})", description);
    ASSERT_FALSE(parsed.ok()) << c.what;
    EXPECT_EQ(parsed.error().code, "invalid_model") << c.what;
    EXPECT_EQ(parsed.error().field, c.field) << c.what << ": " << parsed.error().message;
  }
}

TEST(ModelDescription, AModelObjectInTheRequestIsADescriptionWhenItNamesTheSchema) {
  const std::string description = DescriptionOf(*Builtin().FindModel("deepseek-v2-lite"), kDeepSeekLiteF16);
  const Result<Request> parsed = ParseRequest(R"({"runtime": "vllm", "format": "BF16", "model": )" + description + "}");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_TRUE(parsed.value().custom_model.has_value());
  EXPECT_EQ(parsed.value().custom_model->weights->routed_experts, 28789702656.0);
  EXPECT_EQ(parsed.value().custom_model->release, "—");  // a card field left out
}

// A model file holds an object: a catalog id goes in the request (a JSON string in a file was
// read as one before; the config fuzzer found it).
TEST(ModelDescription, AModelFileThatIsNoObjectIsAnError) {
  for (const char* file : {R"("qwen3-8b")", "[]", "42"}) {
    const Result<Request> parsed = ParseRequest("{}", file);
    ASSERT_FALSE(parsed.ok()) << file;
    EXPECT_EQ(parsed.error().code, "invalid_type") << file;
    EXPECT_EQ(parsed.error().field, "model") << file;
  }
}

// Commands name files after the model: one shell word each, whatever its name holds.
TEST(ModelDescription, NamesBecomeOneShellWord) {
  EXPECT_EQ(ShellWord("Llama 4 Scout (17Bx16E)"), "Llama-4-Scout-17Bx16E");
  EXPECT_EQ(ShellWord("$(rm -rf ~)"), "rm-rf");
  EXPECT_EQ(ShellWord("--help"), "help");
  EXPECT_EQ(ShellWord("Qwen/Qwen3-8B", true), "Qwen/Qwen3-8B");
  EXPECT_EQ(ShellWord("Qwen/Qwen3-8B"), "Qwen-Qwen3-8B");
  EXPECT_EQ(ShellWord("'; \n"), "model");
  Request request = ParseRequest(R"({"model": "llama-3.1-8b", "runtime": "llamacpp"})").value();
  const Result<Response> answer = Evaluate(request, Builtin());
  ASSERT_TRUE(answer.ok());
  EXPECT_NE(answer.value().commands.at(0).text.find("-m ./Llama-3.1-8B-Q4_K_M.gguf \\"), std::string::npos)
      << answer.value().commands.at(0).text;
}

}  // namespace
}  // namespace vramcalc
