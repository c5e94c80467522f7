// The commands follow the scenario and agree with the numbers beside them.
#include "vramcalc/commands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "reference_table.h"
#include "vramcalc/catalog.h"
#include "vramcalc/evaluate.h"
#include "vramcalc/json_codec.h"

namespace vramcalc {
namespace {

// The reference profile's three commands, by id.
struct Commands {
  std::string vllm;
  std::string ollama_modelfile;
  std::string ollama_env;
};

Commands For(const std::string& model, const std::string& format, int64_t context, int64_t batch,
             const std::string& kv_dtype, const std::string& device) {
  Request request;
  request.model = model;
  request.format = format;
  request.context_tokens = context;
  request.batch = batch;
  request.kv_dtype = kv_dtype;
  request.device = device;
  const auto response = Evaluate(request, BuiltinCatalog().value());
  EXPECT_TRUE(response.ok());
  Commands texts;
  for (const Command& command : response.value().commands) {
    if (command.id == "vllm") texts.vllm = command.text;
    if (command.id == "ollama-modelfile") texts.ollama_modelfile = command.text;
    if (command.id == "ollama-env") texts.ollama_env = command.text;
  }
  return texts;
}

TEST(Commands, TheReferenceProfileListsTheReferencePagesCommands) {
  // The reference page shows a vLLM CLI card, then the Ollama Modelfile with the server's
  // environment below it.
  Request request;
  const auto response = Evaluate(request, BuiltinCatalog().value());
  ASSERT_TRUE(response.ok());
  const std::vector<Command>& commands = response.value().commands;
  ASSERT_EQ(commands.size(), 3u);
  EXPECT_EQ(commands[0].id, "vllm");
  EXPECT_EQ(commands[0].engine, "vllm");
  EXPECT_EQ(commands[0].title, "cmd.vllm");
  EXPECT_EQ(commands[0].language, "sh");
  EXPECT_EQ(commands[1].id, "ollama-modelfile");
  EXPECT_EQ(commands[1].engine, "ollama");
  EXPECT_EQ(commands[1].title, "cmd.ollama");
  EXPECT_EQ(commands[1].language, "modelfile");
  EXPECT_EQ(commands[2].id, "ollama-env");
  EXPECT_EQ(commands[2].engine, "ollama");
  EXPECT_EQ(commands[2].title, "cmd.ollama_env");
  // Every id a profile lists is a command template's.
  const std::vector<std::string_view> templates = CommandTemplateIds();
  for (const RuntimeProfile& profile : RuntimeProfiles()) {
    for (const std::string_view id : profile.commands) {
      EXPECT_NE(std::find(templates.begin(), templates.end(), id), templates.end()) << profile.id << ": " << id;
    }
  }
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Commands, ReferenceScenarioLoadsTheQ4KmGguf) {
  const Commands c = For("glm-4-32b-0414", "Q4_K_M", 32768, 1, "fp16", "rtx-3090-24gb");
  EXPECT_TRUE(Has(c.vllm, "vllm serve ./GLM-4-32B-0414-Q4_K_M.gguf \\\n  --tokenizer THUDM/GLM-4-32B-0414 \\\n"));
  EXPECT_TRUE(Has(c.vllm, "--tensor-parallel-size 1 \\\n  --max-model-len 32768 \\\n  --max-num-seqs 1 \\\n"));
  EXPECT_TRUE(Has(c.vllm, "--gpu-memory-utilization 0.95 \\\n  --kv-cache-dtype auto \\\n"));
  // The reference page's total ("21.78 GB"), from its table.
  EXPECT_TRUE(Has(c.vllm, "about " + reference::Text({"simulator", "figures", "total", "value"}) + " of 24.00 GB per device"));
  EXPECT_TRUE(Has(c.ollama_modelfile, "FROM glm4:32b\nPARAMETER num_ctx 32768"));
  EXPECT_TRUE(Has(c.ollama_modelfile, "ollama create glm-4-32b-0414-q4_k_m -f Modelfile"));
  EXPECT_EQ(c.ollama_env,
            "# Environment variables for ollama serve: 1 slot × 32,768 tokens of FP16 KV cache = 1.91 GB\n"
            "OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=f16 ollama serve");
}

TEST(Commands, ParallelSlotsReserveTheirOwnKvCache) {
  // Eight slots of 32,768 FP16 tokens: 8 × 1.90625 GiB = 15.25 GiB, shown as the KV cache.
  const Commands c = For("glm-4-32b-0414", "Q4_K_M", 32768, 8, "fp16", "a100-80gb");
  EXPECT_TRUE(Has(c.ollama_env, "8 parallel slots × 32,768 tokens of FP16 KV cache = 15.25 GB"));
  EXPECT_TRUE(Has(c.ollama_env, "OLLAMA_NUM_PARALLEL=8 "));
  EXPECT_TRUE(Has(c.vllm, "--max-num-seqs 8 \\\n"));
}

TEST(Commands, EachWeightFamilySaysWhatItLoads) {
  const Commands fp16 = For("glm-4-32b-0414", "FP16", 8192, 1, "fp16", "a100-80gb");
  EXPECT_TRUE(Has(fp16.vllm, "vllm serve THUDM/GLM-4-32B-0414 \\\n  --tensor-parallel-size 1"));
  EXPECT_TRUE(Has(fp16.ollama_modelfile, "FROM ./GLM-4-32B-0414-F16.gguf"));

  const Commands fp8 = For("glm-4-32b-0414", "FP8", 8192, 1, "fp16", "a100-80gb");
  EXPECT_TRUE(Has(fp8.vllm, "vllm serve THUDM/GLM-4-32B-0414 \\\n  --quantization fp8 \\\n"));
  EXPECT_TRUE(Has(fp8.ollama_modelfile, "Ollama has no FP8 weights"));
  EXPECT_TRUE(Has(fp8.ollama_modelfile, "FROM ./GLM-4-32B-0414-Q8_0.gguf"));

  const Commands awq = For("glm-4-32b-0414", "AWQ_INT4", 8192, 1, "fp16", "rtx-3090-24gb");
  EXPECT_TRUE(Has(awq.vllm, "vllm serve ./GLM-4-32B-0414-AWQ \\\n  --quantization awq \\\n"));
  EXPECT_TRUE(Has(awq.ollama_modelfile, "Ollama cannot load AWQ"));
  EXPECT_TRUE(Has(awq.ollama_modelfile, "FROM glm4:32b"));  // the library tag is Q4_K_M

  // No Ollama library build of GLM-4-9B-0414: a local GGUF file.
  const Commands nine = For("glm-4-9b-0414", "Q4_K_M", 8192, 1, "fp16", "rtx-3060-12gb");
  EXPECT_TRUE(Has(nine.ollama_modelfile, "FROM ./GLM-4-9B-0414-Q4_K_M.gguf"));
}

TEST(Commands, KvTypesMapToWhatEachRuntimeHas) {
  const Commands q8 = For("glm-4-32b-0414", "Q4_K_M", 32768, 1, "q8_0", "rtx-3090-24gb");
  EXPECT_TRUE(Has(q8.vllm, "vLLM has no Q8_0 KV cache"));
  EXPECT_TRUE(Has(q8.vllm, "--kv-cache-dtype fp8"));
  EXPECT_TRUE(Has(q8.ollama_env, "OLLAMA_KV_CACHE_TYPE=q8_0"));

  const Commands fp8 = For("glm-4-32b-0414", "Q4_K_M", 32768, 1, "fp8", "rtx-3090-24gb");
  EXPECT_TRUE(Has(fp8.vllm, "--kv-cache-dtype fp8"));
  EXPECT_FALSE(Has(fp8.vllm, "vLLM has no"));
  EXPECT_TRUE(Has(fp8.ollama_env, "Ollama has no FP8 KV cache"));
}

TEST(Commands, WarnWhenTheScenarioDoesNotFit) {
  // Q5_K_M at 32K needs 25.00 GB on a 24 GB card (the reference matrix).
  const Commands c = For("glm-4-32b-0414", "Q5_K_M", 32768, 1, "fp16", "rtx-3090-24gb");
  EXPECT_TRUE(Has(c.vllm, "# Does not fit: 25.00 GB needed."));
  // Above 95 % the utilization rises to what the estimate needs: Q4_K_M at 53,248 tokens needs
  // 18.07 + 62,464 × 53,248 B (3.10 GiB) + 1.81 = 22.97 GB of 24 (95.7 %), so 0.96.
  const Commands tight = For("glm-4-32b-0414", "Q4_K_M", 53248, 1, "fp16", "rtx-3090-24gb");
  EXPECT_TRUE(Has(tight.vllm, "--gpu-memory-utilization 0.96"));
}

}  // namespace
}  // namespace vramcalc

namespace vramcalc {
namespace {

// The engine profiles' commands carry the settings their estimate used (estimation model 5.6).
// `n` picks the profile's n-th command: 0 its server, 1 its benchmark ("measure it yourself").
std::string EngineCommand(const std::string& request_json, int n = 0) {
  const std::string response = EvaluateJson(request_json);
  std::size_t at = response.find("\"text\":\"");
  for (int i = 0; i < n && at != std::string::npos; ++i) at = response.find("\"text\":\"", at + 1);
  EXPECT_NE(at, std::string::npos) << response;
  if (at == std::string::npos) return "";
  std::string text;  // unescape the JSON string: \n, \" and \\ are all the commands use
  for (std::size_t i = at + 8; i < response.size() && response[i] != '"'; ++i) {
    if (response[i] == '\\') {
      ++i;
      text += response[i] == 'n' ? '\n' : response[i];
    } else {
      text += response[i];
    }
  }
  return text;
}

TEST(EngineCommands, LlamaServerCarriesContextSlotsCacheTypeAndBatch) {
  const std::string text = EngineCommand(
      R"({"model":"qwen2.5-7b","runtime":"llamacpp","context":8192,"batch":2,"parallel":3,"kv_dtype":"q8_0","ubatch":1024,"device":"rtx-4090-24gb","sections":["commands"]})");
  // -c is the total over the slots: 3 × 8,192.
  EXPECT_NE(text.find("-c 24576 -np 3"), std::string::npos) << text;
  EXPECT_NE(text.find("-ctk q8_0 -ctv q8_0 -fa on -ub 1024"), std::string::npos) << text;
  EXPECT_NE(text.find("llama-server -m ./Qwen2.5-7B-Instruct-Q4_K_M.gguf"), std::string::npos) << text;
}

TEST(EngineCommands, VllmServeCarriesUtilizationLengthBatchAndKvType) {
  const std::string text = EngineCommand(
      R"({"model":"qwen3-32b","runtime":"vllm","format":"FP8","context":16384,"kv_dtype":"fp8","device":"h100-80gb","device_count":2,"memory_utilization":0.85,"max_num_batched_tokens":4096,"sections":["simulator","commands"]})");
  for (const char* flag : {"vllm serve Qwen/Qwen3-32B", "--quantization fp8", "--tensor-parallel-size 2",
                           "--max-model-len 16384", "--gpu-memory-utilization 0.85", "--max-num-batched-tokens 4096",
                           "--kv-cache-dtype fp8", "# vLLM should log a KV cache of about"}) {
    EXPECT_NE(text.find(flag), std::string::npos) << flag << " in " << text;
  }
}

TEST(EngineCommands, OllamaSglangAndMlxCarryTheirSettings) {
  const std::string ollama = EngineCommand(
      R"({"model":"qwen2.5-7b","runtime":"ollama","context":16384,"batch":2,"kv_dtype":"q4_0","sections":["commands"]})");
  EXPECT_NE(ollama.find("OLLAMA_CONTEXT_LENGTH=16384 OLLAMA_NUM_PARALLEL=2 OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q4_0"),
            std::string::npos) << ollama;
  const std::string sglang = EngineCommand(
      R"({"model":"qwen2.5-7b","runtime":"sglang","kv_dtype":"fp8","device":"rtx-4090-24gb","sections":["commands"]})");
  // The 4090's default static fraction as the core computes it for 24 GiB: (24,576 − 3,760) / 24,576.
  EXPECT_NE(sglang.find("--mem-fraction-static 0.847"), std::string::npos) << sglang;
  EXPECT_NE(sglang.find("--kv-cache-dtype fp8_e4m3"), std::string::npos) << sglang;
  const std::string mlx = EngineCommand(
      R"({"model":"qwen3-4b","runtime":"mlx","format":"MLX_8BIT","kv_dtype":"q4_mlx","sections":["commands"]})");
  EXPECT_NE(mlx.find("-q --q-bits 8 --q-group-size 64"), std::string::npos) << mlx;
  EXPECT_NE(mlx.find("--kv-bits 4 --kv-group-size 64"), std::string::npos) << mlx;
}

// Each benchmark measures the scenario the estimate is for: its file or folder, its context as
// the depth or prompt, 128 generated tokens, its cache type and device split.
TEST(EngineCommands, EachBenchmarkMeasuresTheEstimatedScenario) {
  const std::string llama = EngineCommand(
      R"({"model":"qwen2.5-7b","runtime":"llamacpp","context":8192,"parallel":3,"kv_dtype":"q8_0","ubatch":1024,"device":"rtx-4090-24gb","sections":["commands"]})", 1);
  EXPECT_NE(llama.find("llama-bench -m ./Qwen2.5-7B-Instruct-Q4_K_M.gguf -p 0 -n 128 -d 8192 -ub 1024 -fa 1 -ctk q8_0 -ctv q8_0"),
            std::string::npos) << llama;
  const std::string vllm = EngineCommand(
      R"({"model":"qwen3-32b","runtime":"vllm","format":"FP8","context":16384,"kv_dtype":"fp8","device":"h100-80gb","device_count":2,"sections":["commands"]})", 1);
  EXPECT_NE(vllm.find("vllm bench latency --model Qwen/Qwen3-32B --quantization fp8 --tensor-parallel-size 2 --batch-size 1 "
                      "--input-len 16384 --output-len 128 --kv-cache-dtype fp8"),
            std::string::npos) << vllm;
  // mlx-lm converts to ./Qwen3-4B-8bit and the benchmark reads the same folder.
  const std::string mlx_request = R"({"model":"qwen3-4b","runtime":"mlx","format":"MLX_8BIT","context":4096,"sections":["commands"]})";
  EXPECT_NE(EngineCommand(mlx_request).find("--mlx-path ./Qwen3-4B-8bit"), std::string::npos);
  EXPECT_NE(EngineCommand(mlx_request, 1).find("mlx_lm.benchmark --model ./Qwen3-4B-8bit -p 4096 -g 128"), std::string::npos)
      << EngineCommand(mlx_request, 1);
  // Ollama runs the library's qwen2.5:7b where it holds the format (Q4_K_M), else the model
  // its server command creates from the GGUF.
  EXPECT_NE(EngineCommand(R"({"model":"qwen2.5-7b","runtime":"ollama","sections":["commands"]})", 1)
                .find("ollama run qwen2.5:7b --verbose"),
            std::string::npos);
  const std::string q8 = R"({"model":"qwen2.5-7b","runtime":"ollama","format":"Q8_0","sections":["commands"]})";
  EXPECT_NE(EngineCommand(q8).find("ollama create qwen2.5-7b-Q8_0"), std::string::npos) << EngineCommand(q8);
  EXPECT_NE(EngineCommand(q8, 1).find("ollama run qwen2.5-7b-Q8_0 --verbose"), std::string::npos) << EngineCommand(q8, 1);
  // The library's gpt-oss:20b (14 GB) is the published checkpoint as a GGUF, MXFP4 experts and a
  // 16-bit rest: the 16-bit format's weights under Ollama (12.8 GiB), not MXFP4_MOE's Q8_0 rest.
  const std::string published = R"({"model":"gpt-oss-20b","runtime":"ollama","format":"BF16","sections":["commands"]})";
  EXPECT_NE(EngineCommand(published, 1).find("ollama run gpt-oss:20b --verbose"), std::string::npos) << EngineCommand(published, 1);
  const std::string mxfp4 = R"({"model":"gpt-oss-20b","runtime":"ollama","format":"MXFP4_MOE","sections":["commands"]})";
  EXPECT_NE(EngineCommand(mxfp4, 1).find("ollama run gpt-oss-20b-MXFP4_MOE --verbose"), std::string::npos);
}

}  // namespace
}  // namespace vramcalc
