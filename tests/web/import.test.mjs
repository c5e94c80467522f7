// The importer (web/js/import/): a Hugging Face repo id, link or local files in, a model
// description the core reads out, through the offline Hub (tests/support/hub-server.mjs) and
// vramcalc-full.wasm under Node. No browser. Every expected figure is what
// tests/golden/headers/SOURCES.md states for the fixture (its sources: the headers' tensor
// counts, parameter counts and tensor data bytes), not what the importer computed.
//
// Needs the wasm build: build-wasm/site/vramcalc-full.{mjs,wasm} (VRAMCALC_SITE_DIR overrides).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GGMLQuantizationType, GGUFValueType, serializeGgufMetadata } from '@huggingface/gguf';
import { startHubServer } from '../support/hub-server.mjs';
import { importModel } from '../../web/js/import/import.js';
import { parseSource } from '../../web/js/import/source.js';
import { GGML_TYPES, ggufRole, safetensorsRole } from '../../web/js/import/roles.js';
import { GGUF_ARCHITECTURES, GGUF_KEY_SETS, configFromGguf } from '../../web/js/import/gguf-arch.js';
import { ggufFormat } from '../../web/js/import/formats.js';
import { byteRange } from '../../web/js/import/local-files.js';
import { shellWord } from '../../web/js/import/description.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
const GIB = 2 ** 30;

let core;
let catalog;
let hub;
const readConfig = (model) => core.evaluate({ model, sections: ['model'] });
const options = () => ({ hubUrl: hub.url, readConfig, catalog });

before(async () => {
  const glue = path.join(siteDir, 'vramcalc-full.mjs');
  await access(glue).catch(() => assert.fail(`missing ${glue}: build first (emcmake cmake -S . -B build-wasm && cmake --build build-wasm)`));
  const create = (await import(pathToFileURL(glue).href)).default;
  core = await create({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc-full.wasm')) });
  catalog = core.catalog();
  hub = await startHubServer();
});
after(async () => { await hub?.close(); });

// ---- the fixtures and what SOURCES.md states for them ------------------------------------------

// `text`: the language model (tensors, parameters, tensor data bytes); `vision`: its line, when
// the fixture has a vision tower (the mmproj's figures, or model.visual.*'s); `format` and
// `fileType`: the request format the bytes stand for and the file's own type; `base`: the model
// a GGUF was converted from, as its general.base_model.0.repo_url states it (the fixture's
// metadata, from the source SOURCES.md names), the checkpoint the description then names.
const FIXTURES = [
  { repo: 'vramcalc-fixtures/qwen3-8b-ollama-Q4_K_M', file: 'qwen3-8b-Q4_K_M.gguf', arch: 'qwen3',
    text: { tensors: 399, params: 8_190_735_360, bytes: 5_219_418_112 }, format: 'Q4_K_M', fileType: 'Q4_K_M' },
  { repo: 'unsloth/Qwen3.5-4B-GGUF', file: 'Qwen3.5-4B-UD-IQ2_XXS.gguf', arch: 'qwen35',
    text: { tensors: 426, params: 4_205_751_296, bytes: 1_509_249_024 }, format: 'IQ2_XXS', fileType: 'IQ2_XXS', tied: true,
    base: 'Qwen/Qwen3.5-4B' },
  { repo: 'unsloth/Qwen3.5-35B-A3B-GGUF', file: 'Qwen3.5-35B-A3B-Q3_K_S.gguf', arch: 'qwen35moe',
    text: { tensors: 733, params: 34_660_610_688, bytes: 15_254_866_432 }, format: 'Q3_K_M', fileType: 'Q3_K_S',
    base: 'Qwen/Qwen3.5-35B-A3B' },
  { repo: 'vramcalc-fixtures/Qwen3.5-35B-A3B-GGUF-split', file: 'Qwen3.5-35B-A3B-Q3_K_S-00003-of-00006.gguf', arch: 'qwen35moe',
    text: { tensors: 733, params: 34_660_610_688, bytes: 15_254_866_432 }, format: 'Q3_K_M', fileType: 'Q3_K_S', shards: 6,
    base: 'Qwen/Qwen3.5-35B-A3B' },
  { repo: 'vramcalc-fixtures/Qwen3-VL-8B-Instruct-GGUF', file: 'Qwen3-VL-8B-Instruct-F16.gguf', arch: 'qwen3vl',
    text: { tensors: 399, params: 8_190_735_360, bytes: 16_382_087_168 }, format: 'BF16', fileType: 'F16',
    vision: { tensors: 352, params: 576_388_336, bytes: 1_159_009_216 } },
  { repo: 'vramcalc-fixtures/DeepSeek-V2-Lite-MLA-F16', file: 'Deep-2-Lite-64x1.5B-F16-mla.gguf', arch: 'deepseek2',
    text: { tensors: 431, params: 15_763_107_328, bytes: 31_533_283_328 }, format: 'BF16', fileType: 'F16' },
  // 750 tensors, 8,767,123,696 parameters and 17,534,247,392 bytes in all; the vision tower's
  // 351 model.visual.* tensors hold the mmproj's 576,388,336 parameters ("Together 8,767,123,696").
  { repo: 'vramcalc-fixtures/Qwen3-VL-8B-Instruct-single', file: 'model.safetensors', arch: 'qwen3_vl',
    text: { tensors: 399, params: 8_190_735_360, bytes: 17_534_247_392 - 576_388_336 * 2 },
    format: 'BF16', fileType: 'BF16', vision: { tensors: 351, params: 576_388_336, bytes: 576_388_336 * 2 } },
  { repo: 'deepcogito/cogito-v1-preview-qwen-14B', file: 'model-00002-of-00006.safetensors', arch: 'qwen2',
    text: { tensors: 579, params: 14_765_947_904, bytes: 29_531_895_808 }, format: 'BF16', fileType: 'BF16' },
];

const TABLE = JSON.parse(await readFile(path.join(repoRoot, 'tests/support/hub-fixtures.json'), 'utf8'));

/**
 * Test helper, not the importer's: a header-only fixture standing for its published file. It has
 * the file's size, and slice() gives the stored header's bytes and zeros past them, as the
 * offline Hub serves it (the size a reader checks its tensors against).
 */
class HeaderOnlyFile {
  constructor(name, bytes, size) {
    Object.assign(this, { name, bytes, size, lastModified: 0 });
  }

  slice(start = 0, end = this.size) {
    const from = Math.min(start, this.size);
    const to = Math.min(end, this.size);
    const stored = this.bytes.subarray(Math.min(from, this.bytes.length), Math.min(to, this.bytes.length));
    return new Blob([stored, new Uint8Array(Math.max(0, to - Math.max(from, this.bytes.length)))]);
  }
}

/** A repository's files as the user would drop them: every file of the fixture table's entry. */
async function localFilesOf(repo) {
  const entry = TABLE.repos.find((r) => r.id === repo);
  return Promise.all(entry.files.map(async (file) => {
    const bytes = await readFile(path.join(repoRoot, file.fixture));
    return new HeaderOnlyFile(path.posix.basename(file.path), bytes, file.size ?? bytes.length);
  }));
}

const lineOf = (result, role) => result.lines.find((line) => line.role === role);
const language = (result) => result.lines.filter((line) => line.role !== 'vision' && line.role !== 'mtp');
const sum = (lines, key) => lines.reduce((total, line) => total + line[key], 0);

function assertFigures(result, fx) {
  assert.equal(result.ok, true, JSON.stringify(result.error));
  const text = language(result);
  assert.deepEqual({ tensors: sum(text, 'tensors'), params: sum(text, 'params'), bytes: sum(text, 'bytes') }, fx.text);
  assert.equal(result.params_total, fx.text.params);
  assert.equal(result.description.params_total, fx.text.params);
  assert.equal(result.total_bytes, fx.text.bytes + (fx.vision?.bytes ?? 0));
  if (fx.vision) {
    const { role, ...vision } = lineOf(result, 'vision');
    assert.deepEqual(vision, fx.vision);
    assert.equal(result.description.weights.vision, fx.vision.bytes);
  } else {
    assert.equal(lineOf(result, 'vision'), undefined);
  }
  assert.equal(result.format.id, fx.format);
  assert.equal(result.file_type, fx.fileType);
  assert.equal(result.format.exact, fx.format === fx.fileType, result.format.note);
  assert.equal(result.description.weights.format, fx.format);
}

/** llama.cpp at the file's format: the weights on the device and in host RAM are the file's bytes. */
function assertEstimate(result, fx) {
  const answer = core.evaluate({ model: result.description, runtime: 'llamacpp', format: result.format.id, sections: ['simulator'] });
  assert.equal(answer.ok, true, JSON.stringify(answer.error));
  // A tied embedding is also the output layer: llama.cpp loads it twice, the token lookup in host
  // RAM and the output on the device (core/src/estimate/engine_memory.cc, tied_head_copy).
  const loaded = fx.text.bytes + (fx.tied ? lineOf(result, 'embedding').bytes : 0);
  const gib = answer.simulator.weights_gib + answer.simulator.host_gib;
  assert.ok(Math.abs(gib * GIB - loaded) <= loaded * 1e-12, `${gib * GIB} B against ${loaded} B`);
  // Beside them, the vision tower its files state (the mmproj llama.cpp loads with --mmproj, a
  // checkpoint's model.visual.* tensors): its parameters and its bytes, on a line of their own.
  const tower = fx.vision?.bytes ?? 0;
  assert.equal(result.description.vision_params, fx.vision?.params ?? 0);
  assert.ok(Math.abs(answer.simulator.vision_gib * GIB - tower) <= tower * 1e-12, `${answer.simulator.vision_gib * GIB} B against ${tower} B`);
}

// ---- every fixture, from the Hub and from the device -------------------------------------------

for (const fx of FIXTURES) {
  describe(`${fx.repo} (${fx.arch})`, () => {
    test('by repo id', async () => {
      const result = await importModel(parseSource(fx.repo, { hubUrl: hub.url }), options());
      assertFigures(result, fx);
      assertEstimate(result, fx);
      assert.equal(result.description.checkpoint, fx.base ?? fx.repo);
      assert.equal(result.origin.repo, fx.repo);
      assert.match(result.origin.revision, /^[0-9a-f]{40}$/);
      if (fx.shards) assert.equal(result.files.filter((f) => f.kind === 'gguf').length, fx.shards);
    });

    test('by a link to one of its files', async () => {
      const link = `https://huggingface.co/${fx.repo}/blob/main/${fx.file}`;
      const result = await importModel(parseSource(link, { hubUrl: hub.url }), options());
      assertFigures(result, fx);
    });

    test('as local files, read on the device', async () => {
      const before = hub.requests.length;
      const realFetch = globalThis.fetch;
      globalThis.fetch = () => { throw new Error('a local import must not fetch'); };
      let result;
      try {
        result = await importModel(await localFilesOf(fx.repo), options());
      } finally {
        globalThis.fetch = realFetch;
      }
      assertFigures(result, fx);
      assertEstimate(result, fx);
      assert.equal(hub.requests.length, before, 'no request reached the Hub');
      assert.equal(result.description.checkpoint, fx.base);
      assert.match(result.description.id, /^local\//);
      assert.equal(result.origin.kind, 'local');
    });
  });
}

test('the DeepSeek-V2-Lite F16 GGUF gives the hand-summed bytes per role of tests/golden/descriptions', async () => {
  const golden = JSON.parse(await readFile(path.join(repoRoot, 'tests/golden/descriptions/deepseek-v2-lite-mla-f16.json'), 'utf8'));
  const result = await importModel(parseSource('vramcalc-fixtures/DeepSeek-V2-Lite-MLA-F16', { hubUrl: hub.url }), options());
  const { vision, mtp, per_layer_embedding: perLayer, ...weights } = result.description.weights;
  assert.deepEqual([vision, mtp, perLayer], [0, 0, 0]);
  assert.deepEqual(weights, golden.weights);
  assert.deepEqual(result.description.layer_groups, golden.layer_groups);
  assert.deepEqual({ ...result.description.moe, expert_params: 0 }, { ...golden.moe, expert_params: 0 });
  // The routed experts counted: 26 MoE layers × 3 × 2048 × 1408 × 64 (SOURCES.md).
  assert.equal(result.description.moe.expert_params, 26 * 3 * 2048 * 1408 * 64);
  // Active: all but the 58 of 64 routed experts a token skips.
  assert.equal(result.description.params_active, 15_763_107_328 - (26 * 3 * 2048 * 1408 * 64 * 58) / 64);
});

test('the Qwen3.5-35B-A3B GGUF: routed and shared experts apart, a hybrid\'s state layers from its keys', async () => {
  const result = await importModel(parseSource('unsloth/Qwen3.5-35B-A3B-GGUF', { hubUrl: hub.url }), options());
  const { description } = result;
  // 40 blocks × 3 × [2048, 512, 256] routed; × 3 × [2048, 512] shared (SOURCES.md's shapes).
  assert.equal(lineOf(result, 'routed_experts').params, 40 * 3 * 2048 * 512 * 256);
  assert.equal(lineOf(result, 'shared_experts').params, 40 * 3 * 2048 * 512);
  assert.deepEqual(description.moe, { num_experts: 256, experts_per_token: 8, shared_experts: 1, expert_params: 40 * 3 * 2048 * 512 * 256 });
  assert.deepEqual(description.layer_groups.map((g) => [g.kind, g.layers]), [['full', 10], ['state', 30]]);
  assert.match(result.format.note, /Q3_K_S is not among the estimate's GGUF formats; it is estimated as Q3_K_M/);
  assert.equal(description.name, 'Qwen3.5-35B-A3B-Q3_K_S');
  assert.equal(description.family, 'GGUF (qwen35moe)');
  assert.equal(description.license, 'apache-2.0');
  assert.equal(description.weights.file, 'Qwen3.5-35B-A3B-Q3_K_S.gguf');
});

test('a split GGUF is read from all its shards, whichever shard the link names', async () => {
  const result = await importModel(parseSource(
    'https://hf.co/vramcalc-fixtures/Qwen3.5-35B-A3B-GGUF-split/resolve/main/Qwen3.5-35B-A3B-Q3_K_S-00006-of-00006.gguf',
    { hubUrl: hub.url }), options());
  assert.deepEqual(result.files.map((f) => f.path), [1, 2, 3, 4, 5, 6].map((i) => `Qwen3.5-35B-A3B-Q3_K_S-0000${i}-of-00006.gguf`));
  assert.equal(result.description.weights.file, 'Qwen3.5-35B-A3B-Q3_K_S-00001-of-00006.gguf');
  assert.equal(result.description.id, 'vramcalc-fixtures/Qwen3.5-35B-A3B-GGUF-split/Qwen3.5-35B-A3B-Q3_K_S');
});

// gpt-oss-20b's checkpoint as one safetensors header, packed MXFP4 experts included: the tensor
// names of its model.safetensors.index.json (the dump tests/golden/configs/SOURCES.md cites for
// gpt_oss.json, index id 31112482743), shapes from that config.json (24 layers, hidden 2880, 64
// heads of 64, 8 KV heads, 32 experts of 2880, vocab 201088) and the MXFP4 layout (blocks
// [experts, out, in / 32, 16] U8, scales [experts, out, in / 32] U8, every other tensor BF16). The
// check that the layout is the published one: its bytes are the index's total_size, 13,761,264,768.
function gptOss20bHeader() {
  const [h, layers, experts, heads, kvHeads, d, vocab] = [2880, 24, 32, 64, 8, 64, 201088];
  const shapes = { 'model.embed_tokens.weight': [vocab, h], 'lm_head.weight': [vocab, h], 'model.norm.weight': [h] };
  for (let i = 0; i < layers; i += 1) {
    const p = `model.layers.${i}.`;
    Object.assign(shapes, {
      [`${p}input_layernorm.weight`]: [h], [`${p}post_attention_layernorm.weight`]: [h],
      [`${p}self_attn.q_proj.weight`]: [heads * d, h], [`${p}self_attn.q_proj.bias`]: [heads * d],
      [`${p}self_attn.k_proj.weight`]: [kvHeads * d, h], [`${p}self_attn.k_proj.bias`]: [kvHeads * d],
      [`${p}self_attn.v_proj.weight`]: [kvHeads * d, h], [`${p}self_attn.v_proj.bias`]: [kvHeads * d],
      [`${p}self_attn.o_proj.weight`]: [h, heads * d], [`${p}self_attn.o_proj.bias`]: [h], [`${p}self_attn.sinks`]: [heads],
      [`${p}mlp.router.weight`]: [experts, h], [`${p}mlp.router.bias`]: [experts],
      [`${p}mlp.experts.gate_up_proj_blocks`]: [experts, 2 * h, h / 32, 16], [`${p}mlp.experts.gate_up_proj_scales`]: [experts, 2 * h, h / 32],
      [`${p}mlp.experts.gate_up_proj_bias`]: [experts, 2 * h],
      [`${p}mlp.experts.down_proj_blocks`]: [experts, h, h / 32, 16], [`${p}mlp.experts.down_proj_scales`]: [experts, h, h / 32],
      [`${p}mlp.experts.down_proj_bias`]: [experts, h],
    });
  }
  const header = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, shape] of Object.entries(shapes)) {
    const dtype = /_(blocks|scales)$/.test(name) ? 'U8' : 'BF16';
    const bytes = shape.reduce((a, b) => a * b, 1) * (dtype === 'U8' ? 1 : 2);
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const bytes = Buffer.alloc(8 + json.length);
  bytes.writeBigUInt64LE(BigInt(json.length));
  bytes.write(json, 8);
  return { bytes, data: offset, tensors: Object.keys(shapes).length };
}

test('a packed MXFP4 checkpoint (gpt-oss-20b): blocks count two parameters a byte, scales none, bytes as stored', async () => {
  const { bytes, data, tensors } = gptOss20bHeader();
  assert.equal(data, 13_761_264_768, 'the index\'s total_size');
  const config = await readFile(path.join(repoRoot, 'tests/golden/configs/gpt_oss.json'));
  const result = await importModel([new HeaderOnlyFile('config.json', config, config.length),
    new HeaderOnlyFile('model.safetensors', bytes, bytes.length + data)], options());
  assert.equal(result.ok, true, JSON.stringify(result.error));
  assert.equal(result.total_bytes, 13_761_264_768);
  assert.equal(sum(result.lines, 'tensors'), tensors);
  assert.deepEqual([result.format.id, result.file_type, result.description.weights.format], ['MXFP4', 'MXFP4', 'MXFP4']);
  // Routed experts: per layer 32 × (5760 + 2880) × 2880 weights (two per block byte) and their biases.
  const routed = 24 * 32 * ((5760 + 2880) * 2880 + 5760 + 2880);
  assert.equal(lineOf(result, 'routed_experts').params, routed);
  assert.equal(result.description.moe.expert_params, routed);
  // OpenAI's model card: 20.9B parameters, 3.6B active (without the 579M token embedding, which
  // the core counts as read).
  assert.equal((result.params_total / 1e9).toFixed(1), '20.9');
  assert.equal(((result.description.params_active - 201088 * 2880) / 1e9).toFixed(1), '3.6');
  const answer = core.evaluate({ model: result.description, runtime: 'vllm', format: 'MXFP4', sections: ['simulator'] });
  assert.equal(answer.ok, true, JSON.stringify(answer.error));
});

// The architecture a GGUF's keys imply, read by the core, is the one its base model's config.json
// gives (the offline Hub serves those config.json files beside the fixtures).
const BASE_MODELS = [
  ['vramcalc-fixtures/qwen3-8b-ollama-Q4_K_M', 'tests/golden/configs/qwen3.json'],
  ['vramcalc-fixtures/Qwen3-VL-8B-Instruct-GGUF', 'tests/golden/configs/qwen3_vl.json'],
  ['vramcalc-fixtures/DeepSeek-V2-Lite-MLA-F16', 'tests/golden/configs/deepseek_v2.json'],
];
const ARCHITECTURE_FIELDS = ['topology', 'attention', 'num_hidden_layers', 'hidden_size', 'num_attention_heads',
  'num_key_value_heads', 'head_dim', 'vocab_size', 'tie_word_embeddings', 'max_position_embeddings', 'layer_groups'];
const pick = (model, fields) => Object.fromEntries(fields.map((f) => [f, model[f]]));
const expertsOf = (moe) => moe && pick(moe, ['num_experts', 'experts_per_token', 'shared_experts']);

for (const [repo, config] of BASE_MODELS) {
  test(`${repo}: the GGUF's keys give the architecture of its base model's config.json`, async () => {
    const result = await importModel(parseSource(repo, { hubUrl: hub.url }), options());
    const base = readConfig(JSON.parse(await readFile(path.join(repoRoot, config), 'utf8')));
    assert.equal(base.ok, true);
    assert.deepEqual(pick(result.description, ARCHITECTURE_FIELDS), pick(base.model, ARCHITECTURE_FIELDS));
    assert.deepEqual(expertsOf(result.description.moe), expertsOf(base.model.moe));
  });
}

// ---- the architecture table ---------------------------------------------------------------------

test('every GGUF architecture maps to a model type the core reads', () => {
  const answer = core.evaluate({ model: { model_type: 'no-such-type' }, sections: ['model'] });
  const supported = /supported: (.*)\.$/.exec(answer.error.message)[1].split(/, (?:and )?| and /);
  for (const [arch, row] of Object.entries(GGUF_ARCHITECTURES)) {
    for (const type of [row.model_type, row.moe_type].filter(Boolean)) assert.ok(supported.includes(type), `${arch} → ${type}`);
  }
});

// What convert_hf_to_gguf writes for a config.json, by the table's own key sets, and the two
// derived keys (key_length = nope + rope for MLA, ssm.inner_size = value heads × value dim).
function ggufKeysOf(arch, text) {
  const metadata = { 'general.architecture': arch };
  for (const set of GGUF_ARCHITECTURES[arch].keys) {
    for (const [key, field] of GGUF_KEY_SETS[set]) {
      if (typeof text[field] === 'number') metadata[`${arch}.${key}`] = text[field];
    }
  }
  if (text.kv_lora_rank) {
    metadata[`${arch}.attention.key_length`] = text.qk_nope_head_dim + text.qk_rope_head_dim;
    metadata[`${arch}.attention.value_length`] = text.v_head_dim;
  }
  if (text.linear_value_head_dim) metadata[`${arch}.ssm.inner_size`] = text.linear_value_head_dim * text.linear_num_value_heads;
  // OLMo 3 and EXAONE 4 with a window: layer_types as booleans (conversion/olmo.py, conversion/exaone.py).
  if (text.sliding_window && text.layer_types) {
    metadata[`${arch}.attention.sliding_window_pattern`] = text.layer_types.map((type) => type === 'sliding_attention');
  }
  // ERNIE 4.5 MoE writes moe_layer_start_index as leading_dense_block_count (conversion/ernie.py).
  if (text.moe_layer_start_index !== undefined) metadata[`${arch}.leading_dense_block_count`] = text.moe_layer_start_index;
  for (const [key, value] of Object.entries(HYBRID_KEYS[arch]?.(text) ?? {})) metadata[`${arch}.${key}`] = value;
  return metadata;
}

// What the hybrids' converters write beyond the common keys (conversion/granite.py
// GraniteHybridModel, conversion/nemotron.py NemotronHModel, conversion/lfm2.py LFM2Model and
// LFM2MoeModel at Raudbjorn/ggml-llama.cpp ae1a0b1c71a8b3a86ede8cb5892ed9ce967d00b2): KV heads
// per layer (0 where a layer does not attend), the Mamba2 sizes, and 2^20 as the context of a
// hybrid without RoPE.
const NO_ROPE_CONTEXT = 2 ** 20;
const lfm2Keys = (t) => ({
  'attention.head_count_kv': t.layer_types.map((type) => (type === 'full_attention' ? t.num_key_value_heads : 0)),
  'shortconv.l_cache': t.conv_L_cache, vocab_size: t.vocab_size,
});
const HYBRID_KEYS = {
  granitehybrid: (t) => ({
    'attention.head_count_kv': t.layer_types.map((type) => (type === 'attention' ? t.num_key_value_heads : 0)),
    'ssm.conv_kernel': t.mamba_d_conv, 'ssm.state_size': t.mamba_d_state, 'ssm.group_count': t.mamba_n_groups,
    'ssm.inner_size': t.mamba_expand * t.hidden_size, 'ssm.time_step_rank': t.mamba_n_heads,
    expert_shared_feed_forward_length: t.shared_intermediate_size, context_length: NO_ROPE_CONTEXT,
  }),
  nemotron_h_moe: (t) => {
    const pattern = [...t.hybrid_override_pattern];
    return {
      'attention.head_count_kv': pattern.map((c) => (c === '*' ? t.num_key_value_heads : 0)),
      feed_forward_length: pattern.map((c) => (c === 'E' ? t.moe_intermediate_size : 0)), 'attention.key_length': t.head_dim,
      'ssm.conv_kernel': t.conv_kernel, 'ssm.state_size': t.ssm_state_size, 'ssm.group_count': t.n_groups,
      'ssm.inner_size': t.mamba_num_heads * t.mamba_head_dim, 'ssm.time_step_rank': t.mamba_num_heads, context_length: NO_ROPE_CONTEXT,
      expert_count: t.n_routed_experts, expert_used_count: t.num_experts_per_tok, expert_feed_forward_length: t.moe_intermediate_size,
      expert_shared_feed_forward_length: t.moe_shared_expert_intermediate_size, expert_shared_count: t.n_shared_experts,
    };
  },
  // LFM2's MLP width after its auto-adjustment (LFM2Model._add_feed_forward_length).
  lfm2: (t) => {
    const multiple = t.block_multiple_of;
    const width = Math.trunc((t.block_ffn_dim_multiplier ?? 1) * Math.trunc((2 * t.intermediate_size) / 3));
    return { ...lfm2Keys(t), feed_forward_length: multiple * Math.ceil(width / multiple) };
  },
  lfm2moe: (t) => ({ ...lfm2Keys(t), leading_dense_block_count: t.num_dense_layers }),
  // MiMo-V2-Flash (conversion/mimo.py MimoV2Model): 3 MTP layers after the model's, each with the
  // sliding layers' KV heads and pattern entry; the value head's own width.
  mimo2: (t) => {
    const pattern = [...t.hybrid_layer_pattern, 1, 1, 1];
    return {
      block_count: t.num_hidden_layers + 3, nextn_predict_layers: 3, 'attention.sliding_window_pattern': pattern,
      'attention.head_count_kv': pattern.map((swa) => (swa === 1 ? t.swa_num_key_value_heads : t.num_key_value_heads)),
      'attention.value_length': t.v_head_dim,
    };
  },
  // Gemma 3n (conversion/gemma.py Gemma3NModel): its per-layer MLP widths as an array, the layer
  // types as booleans, the shared-KV layers, the per-layer embeddings' width, AltUp's inputs.
  gemma3n: (t) => ({
    feed_forward_length: t.intermediate_size, 'attention.sliding_window_pattern': t.layer_types.map((x) => x === 'sliding_attention'),
    'attention.shared_kv_layers': t.num_kv_shared_layers, embedding_length_per_layer_input: t.hidden_size_per_layer_input,
    'altup.num_inputs': t.altup_num_inputs,
  }),
};

// What Gemma4Model.set_gguf_parameters writes for a config.json (llama.cpp conversion/gemma.py
// at Raudbjorn/ggml-llama.cpp ae1a0b1c71a8b3a86ede8cb5892ed9ce967d00b2, with the TextModel and
// Gemma3Model keys it keeps): the full layers' head dim as key_length, the sliding ones' as
// key_length_swa, layer_types as booleans, KV heads per layer where the config sets
// num_global_key_value_heads, the MLP's width per layer with use_double_wide_mlp.
function gemma4GgufKeys(text) {
  const sliding = text.layer_types.map((type) => type === 'sliding_attention');
  const shared = text.num_kv_shared_layers;
  const keys = {
    block_count: text.num_hidden_layers, context_length: text.max_position_embeddings, embedding_length: text.hidden_size,
    feed_forward_length: text.use_double_wide_mlp
      ? sliding.map((_, i) => (i < text.num_hidden_layers - shared ? 1 : 2) * text.intermediate_size) : text.intermediate_size,
    'attention.head_count': text.num_attention_heads,
    'attention.head_count_kv': text.num_global_key_value_heads == null ? text.num_key_value_heads
      : sliding.map((s) => (s ? text.num_key_value_heads : text.num_global_key_value_heads)),
    'attention.key_length': text.global_head_dim, 'attention.key_length_swa': text.head_dim,
    'attention.sliding_window': text.sliding_window, 'attention.sliding_window_pattern': sliding,
    'attention.shared_kv_layers': shared, embedding_length_per_layer_input: text.hidden_size_per_layer_input || 0,
  };
  if (text.num_experts) {
    Object.assign(keys, { expert_count: text.num_experts, expert_used_count: text.top_k_experts,
      expert_feed_forward_length: text.moe_intermediate_size });
  }
  return Object.fromEntries([['general.architecture', 'gemma4'], ...Object.entries(keys).map(([k, v]) => [`gemma4.${k}`, v])]);
}

test('the Gemma 4 keys are those of published GGUF files (llama.cpp\'s load logs)', async () => {
  const golden = async (name) => {
    const config = JSON.parse(await readFile(path.join(repoRoot, `tests/golden/configs/${name}.json`), 'utf8'));
    return gemma4GgufKeys({ ...config, ...config.text_config });
  };
  const pattern = [true, true, true, true, true, false];
  // gemma-4-31B-it (kyuz0/amd-strix-halo-toolboxes#89, kv 27-35; tests/golden/configs/gemma4_31b.json).
  const dense = await golden('gemma4_31b');
  assert.deepEqual([dense['gemma4.attention.key_length'], dense['gemma4.attention.key_length_swa'],
    dense['gemma4.attention.sliding_window'], dense['gemma4.attention.shared_kv_layers'],
    dense['gemma4.embedding_length_per_layer_input']], [512, 256, 1024, 0, 0]);
  assert.deepEqual(dense['gemma4.attention.sliding_window_pattern'].slice(0, 6), pattern);
  assert.equal(dense['gemma4.attention.sliding_window_pattern'].length, 60);
  // An E4B-class file in Ollama's layout (ollama/ollama#18123 kv 1-9, #16532 kv 19-20; gemma4.json).
  const edge = await golden('gemma4');
  assert.deepEqual([edge['gemma4.attention.head_count_kv'], edge['gemma4.attention.key_length'],
    edge['gemma4.attention.key_length_swa'], edge['gemma4.attention.shared_kv_layers'], edge['gemma4.attention.sliding_window'],
    edge['gemma4.embedding_length_per_layer_input'], edge['gemma4.feed_forward_length']], [2, 512, 256, 18, 512, 256, 10240]);
  assert.deepEqual(edge['gemma4.attention.sliding_window_pattern'].slice(0, 6), pattern);
  assert.equal(edge['gemma4.attention.sliding_window_pattern'].length, 42);
  // gemma-4-26B-A4B-it's per-layer KV heads (ollama/ollama#15545 kv 23: [8, 8, 8, 8, 8, 2, ...]) read
  // back: 8 on the sliding layers, 2 on the full ones, V as K there.
  const moe = configFromGguf({
    'general.architecture': 'gemma4', 'gemma4.block_count': 30, 'gemma4.embedding_length': 2816, 'gemma4.feed_forward_length': 2112,
    'gemma4.attention.head_count': 16, 'gemma4.attention.head_count_kv': Array.from({ length: 30 }, (_, i) => (i % 6 === 5 ? 2 : 8)),
    'gemma4.expert_count': 128, 'gemma4.expert_used_count': 8, 'gemma4.attention.key_length': 512,
    'gemma4.attention.key_length_swa': 256, 'gemma4.attention.sliding_window': 1024, 'gemma4.context_length': 262144,
    'gemma4.attention.sliding_window_pattern': Array.from({ length: 30 }, (_, i) => i % 6 !== 5),
    'gemma4.attention.shared_kv_layers': 0, 'gemma4.expert_feed_forward_length': 704,
  }, [{ name: 'token_embd.weight', shape: [2816, 262144] }]);
  assert.equal(moe.ok, true);
  assert.deepEqual(pick(moe.config, ['num_key_value_heads', 'num_global_key_value_heads', 'attention_k_eq_v', 'num_experts',
    'top_k_experts', 'moe_intermediate_size', 'intermediate_size', 'enable_moe_block']), {
    num_key_value_heads: 8, num_global_key_value_heads: 2, attention_k_eq_v: true, num_experts: 128, top_k_experts: 8,
    moe_intermediate_size: 704, intermediate_size: 2112, enable_moe_block: true,
  });
  // Its KV cache as the catalog's entry (assets/models/gemma-4-26b-a4b.json) has it: 25 sliding
  // layers of 8 heads and 5 full ones of 2, 256 and 512 wide.
  const read = readConfig(moe.config);
  assert.equal(read.ok, true, JSON.stringify(read.error));
  assert.deepEqual(read.model.layer_groups.map((g) => [g.layers, g.kv_heads, g.key_dim]).sort(),
    [[25, 8, 256], [5, 2, 512]].sort());
});

test('the hybrids\' keys are those of published GGUF files (llama.cpp\'s load logs)', async () => {
  const keysOf = async (arch, name) => {
    const config = JSON.parse(await readFile(path.join(repoRoot, `tests/golden/configs/${name}.json`), 'utf8'));
    const keys = ggufKeysOf(arch, { ...config, ...config.text_config });
    return (key) => keys[`${arch}.${key}`];
  };
  // Granite 4.0 H Small (ollama/ollama#12982, kv 7-17; tests/golden/configs/granitemoehybrid.json).
  const granite = await keysOf('granitehybrid', 'granitemoehybrid');
  assert.deepEqual(['block_count', 'context_length', 'embedding_length', 'feed_forward_length', 'attention.head_count',
    'expert_count', 'expert_used_count'].map(granite), [40, 1048576, 4096, 768, 32, 72, 10]);
  assert.deepEqual(granite('attention.head_count_kv').slice(0, 6), [0, 0, 0, 0, 0, 8]);
  // Nemotron-3-Nano-30B-A3B (lmstudio-ai/lmstudio-bug-tracker#1365 kv 89-99 and ggml-org/llama.cpp#20570
  // kv 12-14; tests/golden/configs/nemotron_h.json).
  const nemotron = await keysOf('nemotron_h_moe', 'nemotron_h');
  assert.deepEqual(['ssm.conv_kernel', 'ssm.state_size', 'ssm.group_count', 'ssm.inner_size', 'ssm.time_step_rank',
    'attention.key_length', 'expert_feed_forward_length', 'expert_shared_feed_forward_length', 'expert_count'].map(nemotron),
  [4, 128, 8, 4096, 64, 128, 1856, 3712, 128]);
  assert.deepEqual(nemotron('feed_forward_length').slice(0, 8), [0, 1856, 0, 1856, 0, 0, 1856, 0]);
  assert.deepEqual(nemotron('attention.head_count_kv').slice(0, 6), [0, 0, 0, 0, 0, 2]);
  // LFM2-1.2B's KV heads (gpustack/gguf-parser-go#31, decoded from LiquidAI/LFM2-1.2B-GGUF; lfm2.json).
  const lfm = await keysOf('lfm2', 'lfm2');
  assert.deepEqual(lfm('attention.head_count_kv'), [0, 0, 8, 0, 0, 8, 0, 0, 8, 0, 8, 0, 8, 0, 8, 0]);
});

test('a Llama 4 GGUF reads as the catalog\'s Llama 4 Scout: chunked layers, experts, parameters', () => {
  // What Llama4Model writes (conversion/llama.py) for Llama-4-Scout-17B-16E-Instruct's text_config
  // (its config.json, the catalog entry's source: hidden 5,120, 48 layers, 40 / 8 heads of 128,
  // vocabulary 202,048, 16 experts of 8,192, top-1, a dense MLP of 16,384, every layer MoE).
  const keys = {
    block_count: 48, context_length: 10485760, embedding_length: 5120, feed_forward_length: 16384, 'attention.head_count': 40,
    'attention.head_count_kv': 8, 'attention.key_length': 128, expert_count: 16, expert_used_count: 1,
    expert_feed_forward_length: 8192, interleave_moe_layer_step: 1, vocab_size: 202048,
  };
  const gguf = configFromGguf(Object.fromEntries([['general.architecture', 'llama4'],
    ...Object.entries(keys).map(([key, value]) => [`llama4.${key}`, value])]),
  [{ name: 'token_embd.weight', shape: [5120, 202048] }, { name: 'output.weight', shape: [5120, 202048] }]);
  assert.equal(gguf.ok, true);
  const read = readConfig(gguf.config);
  assert.equal(read.ok, true, JSON.stringify(read.error));
  const scout = core.evaluate({ model: 'llama-4-scout-17b-16e', sections: ['model'] }).model;
  const groups = (model) => model.layer_groups.map((g) => [g.kind, g.layers, g.kv_heads, g.key_dim, g.window_tokens ?? 0]);
  assert.deepEqual(groups(read.model), groups(scout));
  assert.deepEqual(expertsOf(read.model.moe), expertsOf(scout.moe));
  // The same text_config read directly (with the chunking llama.cpp assumes): the same model.
  const direct = readConfig({
    model_type: 'llama4_text', num_hidden_layers: 48, max_position_embeddings: 10485760, hidden_size: 5120,
    intermediate_size: 8192, intermediate_size_mlp: 16384, num_attention_heads: 40, num_key_value_heads: 8, head_dim: 128,
    num_local_experts: 16, num_experts_per_tok: 1, interleave_moe_layer_step: 1, vocab_size: 202048,
    tie_word_embeddings: false, attention_chunk_size: 8192, no_rope_layer_interval: 4,
  });
  assert.equal(direct.ok, true, JSON.stringify(direct.error));
  assert.deepEqual(pick(read.model, [...ARCHITECTURE_FIELDS, 'params_total', 'params_active']),
    pick(direct.model, [...ARCHITECTURE_FIELDS, 'params_total', 'params_active']));
});

// The golden config.json of each architecture's model type (tests/golden/configs).
const ROUND_TRIPS = [
  ['llama', 'llama'], ['llama', 'mixtral'], ['qwen2', 'qwen2'], ['qwen3', 'qwen3'], ['qwen3moe', 'qwen3_moe'],
  ['qwen3vl', 'qwen3_vl'], ['qwen3vlmoe', 'qwen3_vl_moe'], ['qwen3next', 'qwen3_next'], ['qwen35', 'qwen3_5'],
  ['gemma2', 'gemma2'], ['gemma3', 'gemma3'], ['gpt-oss', 'gpt_oss'], ['minimax-m2', 'minimax_m2'], ['glm4', 'glm4'],
  ['glm4moe', 'glm4_moe'], ['deepseek2', 'deepseek_v2'], ['deepseek2', 'deepseek_v3'], ['deepseek2', 'kimi_k2'],
  ['deepseek2', 'glm4_moe_lite'], ['deepseek32', 'deepseek_v32'], ['glm-dsa', 'glm_moe_dsa'], ['phi3', 'phi3'],
  ['smollm3', 'smollm3'], ['seed_oss', 'seed_oss'], ['olmo2', 'olmo2'], ['ernie4_5', 'ernie4_5'],
  ['command-r', 'cohere'], ['hunyuan-dense', 'hunyuan_v1_dense'], ['mistral3', 'ministral3'], ['gemma4', 'gemma4'],
  ['gemma4', 'gemma4_31b'], ['olmo2', 'olmo3'], ['exaone4', 'exaone4'], ['ernie4_5-moe', 'ernie4_5_moe'], ['cohere2', 'cohere2'],
  ['hunyuan-moe', 'hunyuan_v1_moe'], ['granitehybrid', 'granitemoehybrid'], ['nemotron_h_moe', 'nemotron_h'], ['lfm2', 'lfm2'],
  ['lfm2moe', 'lfm2_moe'], ['gemma3n', 'gemma3n'], ['mimo2', 'mimo_v2_flash'],
];

for (const [arch, golden] of ROUND_TRIPS) {
  test(`GGUF "${arch}": the keys llama.cpp writes for ${golden}.json give the same architecture`, async () => {
    const config = JSON.parse(await readFile(path.join(repoRoot, `tests/golden/configs/${golden}.json`), 'utf8'));
    const text = { ...config, ...config.text_config };
    const direct = readConfig(config);
    assert.equal(direct.ok, true, JSON.stringify(direct.error));
    const tensors = [{ name: 'token_embd.weight', shape: [text.hidden_size, text.vocab_size] }];
    if (!direct.model.tie_word_embeddings) tensors.push({ name: 'output.weight', shape: [text.hidden_size, text.vocab_size] });
    if (text.hidden_size_per_layer_input) {
      tensors.push({ name: 'per_layer_token_embd.weight',
        shape: [text.num_hidden_layers * text.hidden_size_per_layer_input, text.vocab_size_per_layer_input] });
    }
    if (text.laurel_rank) tensors.push({ name: 'blk.0.laurel_l.weight', shape: [text.hidden_size, text.laurel_rank] });
    // MiMo's expert layers are those with expert tensors (llama.cpp's names, gguf-py ffn_gate_exps).
    if (arch === 'mimo2') {
      text.moe_layer_freq.forEach((moe, i) => {
        if (moe === 1) tensors.push({ name: `blk.${i}.ffn_gate_exps.weight`, shape: [text.hidden_size, text.moe_intermediate_size, 1] });
      });
    }
    const fromGguf = configFromGguf(arch === 'gemma4' ? gemma4GgufKeys(text) : ggufKeysOf(arch, text), tensors);
    assert.equal(fromGguf.ok, true, JSON.stringify(fromGguf.error));
    const read = readConfig(fromGguf.config);
    assert.equal(read.ok, true, JSON.stringify(read.error));
    // A hybrid without RoPE has the converter's context, not the config's.
    const noRope = Boolean(HYBRID_KEYS[arch]?.(text).context_length);
    if (noRope) assert.equal(read.model.max_position_embeddings, NO_ROPE_CONTEXT);
    const fields = ARCHITECTURE_FIELDS.filter((field) => !noRope || field !== 'max_position_embeddings');
    assert.deepEqual(pick(read.model, fields), pick(direct.model, fields));
    assert.deepEqual(expertsOf(read.model.moe), expertsOf(direct.model.moe));
  });
}

test('what a user types: a repo id or a Hub link to a repository, a revision, a folder or a file', () => {
  const cases = {
    'Qwen/Qwen3.6-35B-A3B': { repo: 'Qwen/Qwen3.6-35B-A3B', revision: null, file: null, folder: null },
    'https://huggingface.co/Qwen/Qwen3-8B': { repo: 'Qwen/Qwen3-8B', revision: null, file: null, folder: null },
    ' huggingface.co/Qwen/Qwen3-8B/tree/main ': { repo: 'Qwen/Qwen3-8B', revision: 'main', file: null, folder: null },
    'https://huggingface.co/unsloth/X-GGUF/tree/main/Q4_K_M': { repo: 'unsloth/X-GGUF', revision: 'main', file: null, folder: 'Q4_K_M' },
    'https://huggingface.co/unsloth/Qwen3.5-4B-GGUF/blob/main/Qwen3.5-4B-UD-IQ2_XXS.gguf?download=true':
      { repo: 'unsloth/Qwen3.5-4B-GGUF', revision: 'main', file: 'Qwen3.5-4B-UD-IQ2_XXS.gguf', folder: null },
    'hf.co/unsloth/X-GGUF/resolve/abc123/Q4_K_M/X-Q4_K_M-00001-of-00003.gguf':
      { repo: 'unsloth/X-GGUF', revision: 'abc123', file: 'Q4_K_M/X-Q4_K_M-00001-of-00003.gguf', folder: null },
    'https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/refs%2Fpr%2F49/model.safetensors.index.json':
      { repo: 'deepseek-ai/DeepSeek-V3', revision: 'refs/pr/49', file: 'model.safetensors.index.json', folder: null },
    'https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json': { repo: 'Qwen/Qwen3-8B', revision: 'main', file: null, folder: null },
  };
  for (const [text, expected] of Object.entries(cases)) {
    assert.deepEqual(parseSource(text), { ok: true, source: { ...expected, hubUrl: 'https://huggingface.co' } }, text);
  }
  // A test's offline Hub: its own links are accepted as well.
  assert.equal(parseSource(`${hub.url}/Qwen/Qwen3-8B`, { hubUrl: hub.url }).source.repo, 'Qwen/Qwen3-8B');
});

// ---- bad input: an answer naming the field, never a throw ---------------------------------------

describe('bad input', () => {
  test('a malformed source', () => {
    for (const text of ['', 'Qwen3-8B', 'a/b/c', 'https://example.com/Qwen/Qwen3-8B', 'https://huggingface.co/datasets/x/y',
      'https://huggingface.co/Qwen/Qwen3-8B/blob/main/README.md', 'ftp://huggingface.co/Qwen/Qwen3-8B', 42, null]) {
      const parsed = parseSource(text);
      assert.equal(parsed.ok, false, String(text));
      assert.equal(parsed.error.field, 'source');
      assert.match(parsed.error.message, /^[A-Z"].+\.$/);
    }
  });

  test('a repository the Hub does not have, and a revision it does not have', async () => {
    const missing = await importModel(parseSource('nobody/nothing', { hubUrl: hub.url }), options());
    assert.deepEqual(missing, { ok: false, error: { field: 'source', message: `${new URL(hub.url).host} has no model repository nobody/nothing, or it is private.` } });
    const revision = await importModel(parseSource('https://huggingface.co/Qwen/Qwen3-8B/tree/v9', { hubUrl: hub.url }), options());
    assert.equal(revision.error.field, 'source');
    assert.match(revision.error.message, /no model repository Qwen\/Qwen3-8B at revision "v9"/);
  });

  test('a repository without weights, and a file it does not hold', async () => {
    const bare = await importModel(parseSource('Qwen/Qwen3-8B', { hubUrl: hub.url }), options());
    assert.equal(bare.error.field, 'source');
    assert.match(bare.error.message, /holds no \.safetensors or \.gguf weights/);
    const absent = await importModel(parseSource('https://huggingface.co/unsloth/Qwen3.5-4B-GGUF/blob/main/Qwen3.5-4B-Q4_K_M.gguf',
      { hubUrl: hub.url }), options());
    assert.equal(absent.error.field, 'file');
    assert.match(absent.error.message, /Qwen3\.5-4B-Q4_K_M\.gguf is not in unsloth\/Qwen3\.5-4B-GGUF/);
  });

  test('an unknown architecture names it and lists the supported ones', async () => {
    const header = serializeGgufMetadata({
      version: { value: 3, type: GGUFValueType.UINT32 },
      tensor_count: { value: 0n, type: GGUFValueType.UINT64 },
      kv_count: { value: 1n, type: GGUFValueType.UINT64 },
      'general.architecture': { value: 'rwkv7', type: GGUFValueType.STRING },
    });
    const result = await importModel([new HeaderOnlyFile('rwkv7-1.5B.gguf', header, header.length)], options());
    assert.equal(result.error.field, 'file');
    assert.match(result.error.message, /^The GGUF architecture "rwkv7" is not supported yet; supported: cohere2, command-r, deepseek2, .*, gemma4, .*, qwen35moe, .*\.$/);
  });

  test('an mmproj alone is not a language model', async () => {
    const result = await importModel(parseSource(
      'https://huggingface.co/vramcalc-fixtures/Qwen3-VL-8B-Instruct-GGUF/resolve/main/mmproj-Qwen3-VL-8B-Instruct-F16.gguf',
      { hubUrl: hub.url }), options());
    assert.equal(result.error.field, 'file');
    assert.match(result.error.message, /\("clip"\) is a vision or audio projector \(an mmproj file\), not a language model/);
  });

  test('a file that is not a GGUF file', async () => {
    const text = await readFile(path.join(repoRoot, 'tests/golden/configs/qwen3.json'));
    const result = await importModel([new HeaderOnlyFile('qwen3-8b.gguf', text, text.length)], options());
    assert.deepEqual(result.error, { field: 'file',
      message: 'qwen3-8b.gguf is not a GGUF file this import can read (not starting with GGUF magic number).' });
  });

  test('safetensors without their config.json, and several GGUF models at once', async () => {
    const files = await localFilesOf('vramcalc-fixtures/Qwen3-VL-8B-Instruct-single');
    const alone = await importModel(files.filter((f) => f.name !== 'config.json'), options());
    assert.equal(alone.error.field, 'files');
    assert.match(alone.error.message, /config\.json, which is missing/);
    const two = [...await localFilesOf('unsloth/Qwen3.5-4B-GGUF'), ...await localFilesOf('vramcalc-fixtures/qwen3-8b-ollama-Q4_K_M')];
    const several = await importModel(two, options());
    assert.equal(several.error.field, 'file');
    assert.deepEqual(several.error.choices, ['Qwen3.5-4B-UD-IQ2_XXS.gguf', 'qwen3-8b-Q4_K_M.gguf']);
  });

  test('a split GGUF with a part missing, and a gated file', async () => {
    const parts = await localFilesOf('vramcalc-fixtures/Qwen3.5-35B-A3B-GGUF-split');
    const missing = await importModel(parts.filter((f) => !f.name.includes('-00004-')), options());
    assert.deepEqual(missing.error, { field: 'file', message: 'Parts of this split GGUF file are missing: Qwen3.5-35B-A3B-Q3_K_S-00004-of-00006.gguf.' });
    // The Hub answers 401 for a gated repository's files (its info stays public).
    const gated = (input, init) => (String(input).includes('/resolve/') ? Promise.resolve(new Response('', { status: 401 })) : fetch(input, init));
    const result = await importModel(parseSource('unsloth/Qwen3.5-4B-GGUF', { hubUrl: hub.url }), { ...options(), fetch: gated });
    assert.deepEqual(result.error, { field: 'source',
      message: `unsloth/Qwen3.5-4B-GGUF is gated or private on ${new URL(hub.url).host}; this page reads public repositories only.` });
  });

  test('an unreachable Hub says an import needs a connection', async () => {
    const offline = () => Promise.reject(new TypeError('fetch failed'));
    const result = await importModel(parseSource('Qwen/Qwen3-8B'), { ...options(), hubUrl: undefined, fetch: offline });
    assert.equal(result.error.field, 'source');
    assert.match(result.error.message, /^huggingface\.co could not be reached \(fetch failed\)\. An import from the Hub needs a connection; a local file/);
  });
});

// ---- the tables and the small pieces ------------------------------------------------------------

test('the ggml type table is @huggingface/gguf\'s GGML_QUANT_SIZES (src/quant-descriptions.ts)', async () => {
  const source = await readFile(path.join(repoRoot, 'node_modules/@huggingface/gguf/src/quant-descriptions.ts'), 'utf8');
  const rows = [...source.matchAll(/\[GGMLQuantizationType\.(\w+)\]: calcBPW\((\d+), ([^)]+)\)/g)];
  assert.ok(rows.length >= 35);
  const bytes = (expression) => expression.split('+').reduce((total, term) => {
    const [a, op, b] = term.trim().replace(/QK_K/g, '256').split(/\s*([*/])\s*/);
    return total + (op === '/' ? Number(a) / Number(b) : op === '*' ? Number(a) * Number(b) : Number(a));
  }, 0);
  const theirs = Object.fromEntries(rows.map(([, name, block, expression]) => [GGMLQuantizationType[name], [name, Number(block), bytes(expression)]]));
  assert.deepEqual(Object.fromEntries(Object.entries(GGML_TYPES).map(([id, row]) => [id, [...row]])), theirs);
});

test('tensor roles by name', () => {
  const gguf = {
    'token_embd.weight': 'embedding', 'per_layer_token_embd.weight': 'per_layer_embedding', 'output.weight': 'head',
    'output_norm.weight': 'other', 'blk.0.attn_q.weight': 'attention', 'blk.0.attn_norm.weight': 'attention',
    'blk.3.ssm_conv1d.weight': 'attention', 'blk.3.ssm_a': 'attention', 'blk.0.ffn_gate.weight': 'dense_ffn',
    'blk.0.ffn_norm.weight': 'other', 'blk.1.ffn_up_exps.weight': 'routed_experts', 'blk.1.ffn_gate_up_exps.weight': 'routed_experts',
    'blk.1.ffn_down_shexp.weight': 'shared_experts', 'blk.1.ffn_gate_inp.weight': 'other', 'blk.1.ffn_gate_inp_shexp.weight': 'other',
    'blk.1.exp_probs_b.bias': 'other', 'blk.46.nextn.eh_proj.weight': 'mtp', 'blk.46.attn_q.weight': 'mtp',
    'v.blk.0.attn_qkv.weight': 'vision', 'mm.0.weight': 'vision', 'v.patch_embd.weight.1': 'vision',
  };
  for (const [name, role] of Object.entries(gguf)) assert.equal(ggufRole(name, { layers: 46 }), role, name);
  const hf = {
    'model.embed_tokens.weight': 'embedding', 'lm_head.weight': 'head', 'model.norm.weight': 'other',
    'model.layers.0.self_attn.q_proj.bias': 'attention', 'model.layers.0.input_layernorm.weight': 'attention',
    'model.layers.0.post_attention_layernorm.weight': 'other', 'model.layers.0.linear_attn.in_proj_qkvz.weight': 'attention',
    'model.layers.0.mlp.down_proj.weight': 'dense_ffn', 'model.layers.1.mlp.experts.7.up_proj.weight': 'routed_experts',
    'model.layers.1.mlp.experts.gate_up_proj_blocks': 'routed_experts', 'model.layers.1.mlp.shared_expert.up_proj.weight': 'shared_experts',
    'model.layers.1.mlp.shared_experts.down_proj.weight': 'shared_experts', 'model.layers.1.mlp.gate.weight': 'other',
    'model.layers.1.mlp.shared_expert_gate.weight': 'other', 'model.layers.1.mlp.router.bias': 'other',
    'model.layers.61.self_attn.kv_a_proj_with_mqa.weight': 'mtp', 'model.layers.61.enorm.weight': 'mtp', 'mtp.fc.weight': 'mtp',
    'model.visual.blocks.0.attn.qkv.weight': 'vision', 'model.vision_tower.encoder.layers.0.mlp.fc1.weight': 'vision',
    'model.multi_modal_projector.linear_1.weight': 'vision', 'model.language_model.embed_tokens_per_layer.weight': 'per_layer_embedding',
    'model.language_model.layers.0.mlp.gate_proj.weight': 'dense_ffn',
    'backbone.embeddings.weight': 'embedding', 'backbone.layers.0.mixer.in_proj.weight': 'attention',
    'backbone.layers.1.mixer.up_proj.weight': 'dense_ffn', 'backbone.layers.1.mixer.experts.3.down_proj.weight': 'routed_experts',
    'model.vision_tower.embeddings.patch_embedding.weight': 'vision',
  };
  for (const [name, role] of Object.entries(hf)) assert.equal(safetensorsRole(name, { layers: 61 }), role, name);
});

test('GGUF types the catalog lacks are estimated as the nearest listed format of their family', () => {
  const format = (fileType, bitsPerWeight, moe = false) => ggufFormat({ fileType, bitsPerWeight, moe, catalog }).id;
  assert.equal(format('Q4_K_M', 4.9), 'Q4_K_M');
  assert.equal(format('Q4_K_S', 4.6), 'Q4_K_M');
  assert.equal(format('Q5_K_S', 5.5), 'Q5_K_M');
  assert.equal(format('Q2_K_S', 2.7), 'Q2_K');
  assert.equal(format('Q4_1', 5.0), 'Q4_K_M');
  assert.equal(format('IQ2_XS', 2.4), 'IQ2_XXS');
  assert.equal(format('IQ2_S', 2.6), 'IQ2_M');
  assert.equal(format('IQ4_NL', 4.5), 'IQ4_XS');
  assert.equal(format('Q8_K_XL', 9.0), 'Q8_0');
  assert.equal(format('F32', 32), 'BF16');
  assert.equal(format('MXFP4_MOE', 4.3, true), 'MXFP4_MOE');
  assert.notEqual(format('MXFP4_MOE', 4.3, false), 'MXFP4_MOE');
});

test('the local stand-in answers ranges as the Hub does', () => {
  assert.deepEqual(byteRange('bytes=0-0', 10), { start: 0, end: 0 });
  assert.deepEqual(byteRange('bytes=5-', 10), { start: 5, end: 9 });
  assert.deepEqual(byteRange('bytes=-3', 10), { start: 7, end: 9 });
  assert.deepEqual(byteRange('bytes=8-100', 10), { start: 8, end: 9 });
  assert.equal(byteRange('bytes=10-', 10), 'invalid');
  assert.equal(byteRange(null, 10), null);
});

test('ids, checkpoints and file names are shell words, as the core\'s ShellWord makes them', () => {
  assert.equal(shellWord('Llama 4 Scout (17Bx16E)'), 'Llama-4-Scout-17Bx16E');
  assert.equal(shellWord('$(id)'), 'id');
  assert.equal(shellWord('unsloth/Qwen3.5-4B-GGUF', true), 'unsloth/Qwen3.5-4B-GGUF');
  assert.equal(shellWord('--flag'), 'flag');
  assert.equal(shellWord(''), 'model');
});
