// The WebAssembly build of the core, run under Node: it must answer value for value like the
// native CLI (every number the same double), reproduce the reference page's numbers, survive
// hostile requests and expose a complete catalog.
//
// Needs both builds (see README): build/core/vramcalc and build-wasm/site/vramcalc{,-full}.{mjs,wasm}.
// The suites ask vramcalc-full.wasm, which answers everything, a request both as an object and as
// its JSON text (evaluate() below: the two answers must be equal); one test checks that
// vramcalc.wasm (the first module: no JSON reader, no importer, no sweep, no sections below the
// simulator) answers as it does where it answers. VRAMCALC_CLI and VRAMCALC_SITE_DIR override
// those paths.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cellsOf, grouped, referenceTable, shownNumber } from '../support/reference-page.mjs';
import { sliderMaxLog2 } from '../../web/js/controls.js';
import { LATER_STRINGS } from '../../web/js/i18n.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
const cliPath = path.resolve(repoRoot, process.env.VRAMCALC_CLI ?? 'build/core/vramcalc');
const mjsPath = path.join(siteDir, 'vramcalc.mjs');
const wasmPath = path.join(siteDir, 'vramcalc.wasm');
const fullMjsPath = path.join(siteDir, 'vramcalc-full.mjs');
const fullPath = path.join(siteDir, 'vramcalc-full.wasm');

const MODELS = ['glm-4-32b-0414', 'glm-4-9b-0414'];
const FORMATS = ['FP16', 'FP8', 'Q8_0', 'Q6_K', 'Q5_K_M', 'Q4_K_M', 'AWQ_INT4', 'IQ4_XS'];
const DEVICES = [
  'rtx-3060-12gb', 'rtx-4060-ti-16gb', 'rtx-3090-24gb', 'rtx-4090-24gb', 'rtx-5090-32gb',
  'apple-m4-pro-48gb', 'apple-m-max-64gb', 'a100-80gb', 'h100-80gb', 'mac-studio-128gb',
  'mac-studio-192gb',
];
const VALID_REQUEST = JSON.stringify({ model: 'glm-4-32b-0414' });

/** @type {{version(): string, evaluate(request: object): object, evaluateJson(request: string | Uint8Array): object,
 *            evaluateWithConfig(request: object, config: string): object, sweep(request: object): object,
 *            catalog(): object}} vramcalc-full.wasm */
let vramcalc;
let light;  // vramcalc.wasm

async function missingBuildOutputs() {
  const missing = [];
  for (const file of [mjsPath, wasmPath, fullMjsPath, fullPath, cliPath]) {
    const shown = path.relative(repoRoot, file);
    await access(file).catch(() => missing.push(shown.startsWith('..') ? file : shown));
  }
  if (missing.length === 0) return null;
  return (
    `missing build output: ${missing.join(', ')}. Build first: ` +
    '`cmake -S . -B build -G Ninja && cmake --build build` (native CLI) and ' +
    '`emcmake cmake -S . -B build-wasm -G Ninja && cmake --build build-wasm` (wasm + site).'
  );
}

// Loads the module once: every suite's before() hook awaits the same promise.
let loading;
function loadModule() {
  loading ??= (async () => {
    const missing = await missingBuildOutputs();
    if (missing) throw new Error(missing);
    const { default: createFirst } = await import(pathToFileURL(mjsPath).href);
    const { default: createFull } = await import(pathToFileURL(fullMjsPath).href);
    // The modules are built for the web only; Node hands them the bytes instead of fetching them.
    light = await createFirst({ wasmBinary: await readFile(wasmPath) });
    vramcalc = await createFull({ wasmBinary: await readFile(fullPath) });
  })();
  return loading;
}

// Without the builds this fails with the instructions (and the suites below are cancelled).
test('build outputs are present', async () => {
  const missing = await missingBuildOutputs();
  assert.equal(missing, null, missing ?? '');
});

/**
 * The full module's answer. A string or Uint8Array (raw bytes) is JSON text (evaluateJson); an
 * object goes both ways, as the object (evaluate) and as its JSON text, whose answers must be
 * equal, every number the same double.
 */
function evaluate(request) {
  if (typeof request === 'string' || request instanceof Uint8Array) return vramcalc.evaluateJson(request);
  const answer = vramcalc.evaluate(request);
  assert.deepStrictEqual(answer, vramcalc.evaluateJson(JSON.stringify(request)), 'the object and its JSON text');
  return answer;
}

/** The native CLI's answer (stdout without its trailing newline); exit 1 is a normal ok:false. */
// The module leaves the catalog models' sources to the site's model-sources.json (checked in
// determinism.test.mjs): a native answer as the module gives it.
function asModule(native) {
  const { model } = JSON.parse(native);
  if (!model?.sources?.length || model.id === 'custom') return native;
  return native.replace(`"sources":${JSON.stringify(model.sources)}`, '"sources":[]');
}

/** The native CLI's answer as an object. */
function evaluateNative(request) {
  const result = spawnSync(cliPath, ['evaluate', '-'], { input: request, maxBuffer: 16 << 20 });
  assert.equal(result.error, undefined, `could not run ${cliPath}: ${result.error?.message}`);
  assert.ok([0, 1].includes(result.status), `vramcalc evaluate exited ${result.status}: ${result.stderr}`);
  return JSON.parse(asModule(result.stdout.toString('utf8').replace(/\n$/, '')));
}

const fixed2 = (value) => value.toFixed(2);
const fixed1 = (value) => value.toFixed(1);
// A number the way the reference page shows it: "21.78 GB", "27.3 tok/s".
const gb = (gib) => `${fixed2(gib)} GB`;
const tokS = (tps) => `${fixed1(tps)} tok/s`;

describe('module', () => {
  before(loadModule);

  test('version() is 0.1.0', () => {
    assert.equal(vramcalc.version(), '0.1.0');
  });
});

describe('parity with the native CLI', () => {
  before(loadModule);

  const CONTEXTS = [512, 8192, 32768, 65536, 131072];
  const GRID_DEVICES = [undefined, 'rtx-3060-12gb', 'apple-m-max-64gb'];

  // Every combination of model, format, context and device (240); KV type and batch cycle
  // through their four combinations by index, so each appears 60 times.
  const scenarios = [];
  for (const model of MODELS) {
    for (const format of FORMATS) {
      for (const context of CONTEXTS) {
        for (const device of GRID_DEVICES) {
          const i = scenarios.length;
          scenarios.push({
            model,
            format,
            context,
            batch: (i >> 2) % 2 === 0 ? 1 : 4,
            kv_dtype: (i >> 1) % 2 === 0 ? 'fp16' : 'q8_0',
            ...(device === undefined ? {} : { device }),
          });
        }
      }
    }
  }

  test(`${scenarios.length} scenarios answer value for value like build/core/vramcalc`, () => {
    assert.ok(scenarios.length >= 200, `grid has only ${scenarios.length} scenarios`);
    let okCount = 0;
    for (const scenario of scenarios) {
      const request = JSON.stringify(scenario);
      const wasm = evaluate(scenario);
      let native;
      try {
        native = execFileSync(cliPath, ['evaluate', request], { encoding: 'utf8' });
      } catch (error) {
        native = error.stdout; // exit 1 means ok:false, which is still an answer to compare
        assert.equal(error.status, 1, `vramcalc evaluate '${request}' failed: ${error.message}`);
      }
      assert.ok(native.endsWith('\n'), `native output for ${request} lacks its trailing newline`);
      assert.deepStrictEqual(wasm, JSON.parse(asModule(native.slice(0, -1))), `wasm and native differ for ${request}`);
      if (wasm.ok === true) okCount += 1;
    }
    // The grid is meant to exercise the calculator, not the validator.
    assert.equal(okCount, scenarios.length, `only ${okCount}/${scenarios.length} scenarios were ok:true`);
  });

  test('every config.json fixture answers the same as `vramcalc evaluate --config` (vramcalc-full.wasm)', async () => {
    // tests/golden/configs: real config.json files of every supported model type.
    const dir = path.join(repoRoot, 'tests/golden/configs');
    const files = (await readdir(dir)).filter((name) => name.endsWith('.json'));
    assert.ok(files.length >= 13, `only ${files.length} config fixtures`);
    for (const name of files) {
      const file = path.join(dir, name);
      const config = JSON.parse(await readFile(file, 'utf8'));
      for (const extra of [{}, { format: 'Q8_0', context: 131072, device_count: 2 }]) {
        const wasm = evaluate({ model: config, ...extra });
        const native = spawnSync(cliPath, ['evaluate', '--config', file, JSON.stringify(extra)], { encoding: 'utf8' });
        assert.equal(native.status, 0, `vramcalc evaluate --config ${name}: ${native.stdout}${native.stderr}`);
        assert.deepStrictEqual(wasm, JSON.parse(native.stdout), `wasm and native differ for ${name} ${JSON.stringify(extra)}`);
        assert.deepStrictEqual(vramcalc.evaluateWithConfig(extra, JSON.stringify(config)), wasm, `${name} beside the request`);
        assert.equal(wasm.ok, true, `${name} is not ok`);
      }
    }
  });

  test('every model description answers the same as `vramcalc evaluate --model-file`, its file\'s bytes under its format (vramcalc-full.wasm)', async () => {
    // tests/golden/descriptions: a catalog entry's fields with the bytes its file's header states.
    const dir = path.join(repoRoot, 'tests/golden/descriptions');
    const files = (await readdir(dir)).filter((name) => name.endsWith('.json'));
    assert.ok(files.length >= 1, 'no model description fixture');
    for (const name of files) {
      const file = path.join(dir, name);
      const description = JSON.parse(await readFile(file, 'utf8'));
      const measured = description.weights;
      for (const extra of [{ runtime: 'llamacpp', format: measured.format, device: 'a100-80gb' },
        { runtime: 'llamacpp', format: 'Q4_K_M' }, { runtime: 'vllm', format: measured.format, device: 'h100-80gb' }]) {
        const wasm = evaluate({ model: description, ...extra });
        const native = spawnSync(cliPath, ['evaluate', '--model-file', file, JSON.stringify(extra)], { encoding: 'utf8' });
        assert.equal(native.status, 0, `vramcalc evaluate --model-file ${name}: ${native.stdout}${native.stderr}`);
        assert.deepStrictEqual(wasm, JSON.parse(native.stdout), `wasm and native differ for ${name} ${JSON.stringify(extra)}`);
        assert.deepStrictEqual(vramcalc.evaluateWithConfig(extra, JSON.stringify(description)), wasm, `${name} beside the request`);
        assert.equal(wasm.ok, true, `${name} is not ok`);
      }
      // Under its own format every byte the file states is loaded: vLLM puts all on the GPU.
      const all = ['embedding', 'per_layer_embedding', 'head', 'attention', 'dense_ffn', 'shared_experts', 'routed_experts', 'other']
        .reduce((sum, role) => sum + (measured[role] ?? 0), 0);
      const vllm = evaluate({ model: description, runtime: 'vllm', format: measured.format, device: 'h100-80gb' });
      assert.ok(Math.abs(vllm.simulator.weights_gib * 2 ** 30 - all) < 1, `${name}: ${vllm.simulator.weights_gib} GiB`);
    }
  });

  test('vramcalc.wasm answers as vramcalc-full.wasm does, and the lower sections, JSON text, a config.json and a sweep with where they are done', () => {
    // The same core without the JSON reader, the importer, the sweep, the matrix, the curve and
    // the sections below the simulator: a request object answered as the full module answers
    // it, for the sections it has and for bad requests (a device of one's own given as an object too).
    const first = ['model', 'simulator'];
    const requests = [JSON.parse(VALID_REQUEST), { model: 'qwen3.5-9b', runtime: 'llamacpp', context: 131072 },
      { model: 'deepseek-v4-flash', runtime: 'vllm', format: 'FP8', device: 'h100-80gb', device_count: 8 },
      { model: 'glm-4-32b-0414', context: -5 }, { model: 'glm-4-32b-0414', context: NaN },
      { model: 'glm-4-32b-0414', device: 'custom:20:800:vulkan:RX 7900 XT' },
      { model: 'glm-4-32b-0414', device: { name: 'A', memory_gib: 20, bandwidth_gbps: 800, platform: 'cuda' } },
      { model: 'glm-4-32b-0414', sections: ['hardware'], compare: ['no-such-gpu'] }];
    let answered = 0;
    for (const request of requests) {
      const whole = evaluate(request);
      if (!whole.ok) {
        assert.deepStrictEqual(light.evaluate(request), whole, JSON.stringify(request));
        continue;
      }
      const upper = { ...request, sections: first };
      assert.deepStrictEqual(light.evaluate(upper), evaluate(upper), JSON.stringify(upper));
      answered += 1;
      // Any of the lower sections: an error naming the field and the module that has them.
      for (const sections of [undefined, ['matrix'], ['curve'], ['hardware'], ['simulator', 'related'], ['commands'], ['model', 'card']]) {
        const { ok, error } = light.evaluate({ ...request, sections });
        assert.deepEqual([ok, error.code, error.field], [false, 'section_unavailable', 'sections'], JSON.stringify(request));
        assert.match(error.message, /vramcalc-full\.wasm/);
      }
    }
    assert.equal(answered, 5);
    // Its catalog leaves out what only the card section writes; the full module's has it (the
    // reference page's card: "Checkpoint ID THUDM/GLM-4-32B-0414", "Ollama Tag glm4:32b",
    // "License / Release MIT · 2025-Q2").
    assert.deepEqual(evaluate({ model: 'glm-4-32b-0414', sections: ['card'] }).card,
      { checkpoint: 'THUDM/GLM-4-32B-0414', ollama_tag: 'glm4:32b', ollama_tag_weights: 'Q4_K_M', release: '2025-Q2' });
    // JSON text, well-formed or not: the module that reads it.
    for (const request of [VALID_REQUEST, '{"model":', '['.repeat(100000)]) {
      const { ok, error } = light.evaluateJson(request);
      assert.deepEqual([ok, error.code, error.field], [false, 'json_unavailable', ''], request.slice(0, 40));
      assert.match(error.message, /vramcalc-full\.wasm/);
    }
    assert.equal(vramcalc.evaluateJson('{"model":').error.code, 'malformed_json');
    // A sweep: an error naming the module that sweeps (the full one's answer is checked below).
    const swept = light.sweep({ device: 'rtx-4090-24gb', context: 8192 });
    assert.deepEqual([swept.ok, swept.error.code], [false, 'sweep_unavailable']);
    assert.match(swept.error.message, /vramcalc-full\.wasm/);
    assert.equal(vramcalc.sweep({ device: 'rtx-4090-24gb', context: 8192 }).ok, true);
    // The same catalog but the formats' sources and what each profile reproduces, which the page
    // does not show.
    const full = vramcalc.catalog();
    const noteless = {
      ...full,
      formats: full.formats.map(({ source, ...format }) => format),
      runtimes: full.runtimes.map(({ models, ...runtime }) => runtime),
    };
    assert.ok(full.formats.every((format) => format.source.length > 0));
    assert.ok(full.runtimes.every((runtime) => runtime.models.length > 0));
    assert.deepStrictEqual(light.catalog(), noteless);
    assert.equal(light.version(), vramcalc.version());
    // A config.json, as the model or beside the request: an error naming the model and the module.
    for (const answer of [light.evaluateWithConfig({}, '{"model_type": "llama"}'), light.evaluate({ model: { model_type: 'llama' } })]) {
      assert.deepEqual([answer.ok, answer.error.code, answer.error.field], [false, 'config_import_unavailable', 'model']);
      assert.match(answer.error.message, /vramcalc-full\.wasm/);
    }
    assert.ok(vramcalc.evaluate({ model: { model_type: 'llama' } }).error.field.startsWith('model.'));
  });

  test("the page's slider ends where the core's curve does, for every catalog model", () => {
    // The page sets the slider before the curve comes (with vramcalc-full.wasm): from the model.
    for (const { id } of vramcalc.catalog().models) {
      const { model, curve } = vramcalc.evaluate({ model: id, sections: ['model', 'curve'] });
      assert.equal(2 ** sliderMaxLog2(model), curve.at(-1).context, id);
    }
  });

  test('hostile requests are answered the same natively (stdin)', () => {
    const requests = [
      '', 'not json', '{"model":', '[]', '{}', '{"model":"nope"}',
      '{"model":"glm-4-32b-0414","context":1e308}', '{"model":"glm-4-32b-0414","foo":1}',
      `{"model":"${'a'.repeat(1000)}"}`, JSON.stringify({ model: 'x'.repeat(2 * 1024 * 1024) }),
      '['.repeat(40) + ']'.repeat(40),
      // Raw bytes: invalid UTF-8, an encoded surrogate, a NUL.
      Uint8Array.of(...Buffer.from('{"model":"glm'), 0xff, ...Buffer.from('"}')),
      Uint8Array.of(...Buffer.from('{"model":"glm'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')),
      Uint8Array.of(...Buffer.from('{"model":"glm-4-32b-0414"'), 0, ...Buffer.from('}')),
    ];
    for (const request of requests) {
      const shown = Buffer.from(request).toString('utf8').slice(0, 60);
      assert.deepStrictEqual(vramcalc.evaluateJson(request), evaluateNative(request), `differs for ${shown}`);
    }
  });
});

// The reference page, tests/golden/reference-page.txt (the product's golden output: GLM-4-32B-0414
// at the defaults Q4_K_M, 32K context, batch 1, FP16 KV on an RTX 3090 24GB, German). The
// expected values are read from its table, tests/golden/reference-page.json, as the page shows
// them ("21.78 GB", "27.3 tok/s", "61,544"); the module's numbers are formatted the page's way.
describe('reference numbers (GLM-4-32B-0414, defaults)', () => {
  const { scenario, simulator: page, matrix, hardware } = referenceTable;
  const figure = (id) => page.figures[id].value;
  let response;
  before(async () => {
    await loadModule();
    response = evaluate(VALID_REQUEST);
    assert.equal(response.ok, true, `reference request failed: ${JSON.stringify(response.error)}`);
  });

  test('defaults equal the explicit reference request', () => {
    assert.equal(JSON.parse(VALID_REQUEST).model, scenario.model_id, 'VALID_REQUEST names the reference model');
    const explicit = evaluate({
      model: scenario.model_id, format: scenario.format_id, context: scenario.context_tokens, batch: scenario.batch,
      kv_dtype: scenario.kv_dtype_id, device: scenario.device_id, runtime: 'reference',
    });
    assert.deepStrictEqual(evaluate(VALID_REQUEST), explicit);
  });

  test('simulator panel', async () => {
    const sim = response.simulator;
    assert.equal(response.schema, 3);
    assert.equal(response.lang, undefined, 'the core answers in ids; the page localizes');
    assert.equal(sim.device, scenario.device_id);
    assert.equal(sim.device_name, scenario.device);
    assert.equal(grouped(sim.context), scenario.context, 'context');
    assert.equal(gb(sim.total_gib), figure('total'), 'total');
    assert.equal(gb(sim.per_device_gib), figure('per_device'), 'per device');
    assert.equal(gb(sim.weights_gib), figure('weights'), 'weights');
    assert.equal(gb(sim.kv_cache_gib), figure('kv_cache'), 'KV cache');
    assert.equal(gb(sim.overhead_gib), figure('overhead'), 'overhead');
    assert.equal(tokS(sim.decode_tps), figure('decode'), 'decode tok/s');
    assert.equal(grouped(sim.max_context), figure('max_context'), 'max context');
    for (const [id, share] of [['weights', 'weights'], ['kv_cache', 'kv'], ['overhead', 'overhead']]) {
      assert.equal(`${sim.share_pct[id]}%`, page.shares[share].value, `share of ${id}`);
    }
    assert.equal(sim.fit, page.fit_id);
    assert.equal(sim.fit_label, undefined);
    const de = JSON.parse(await readFile(path.join(siteDir, 'i18n', 'de.json'), 'utf8'));
    assert.equal(de[`fit.${sim.fit}`], page.fit);
    assert.equal(`${fixed1(sim.kv_saving_pct)} %`, page.kv_saving.saving, 'KV saving vs naive MHA');
    assert.equal(gb(sim.kv_naive_mha_gib), page.kv_saving.naive_mha, 'naive MHA KV cache');
  });

  test('format matrix', () => {
    assert.deepEqual(response.matrix.map((row) => row.format), matrix.rows.map((row) => row.id),
      'matrix rows and their order');
    assert.equal(matrix.rows.length, 8);
    for (const [i, expected] of matrix.rows.entries()) {
      const row = response.matrix[i];
      const t = row.total_gib;
      assert.deepEqual([row.label, `${fixed2(row.bpw)} bpw`, gb(row.weights_gib), gb(t['8192']), gb(t['32768']),
        gb(t['131072'])], cellsOf(expected).slice(0, 6), `${expected.id}: label, bpw, weights, totals at 8K/32K/128K`);
      assert.equal(row.recommended_device, expected.recommended_id, `${expected.id} recommended device`);
      assert.equal(row.recommended_device_count, 1, `${expected.id} recommended device count`);
    }
  });

  test('hardware table (Q4_K_M at 32K)', () => {
    assert.deepEqual(response.hardware.map((row) => row.device), hardware.rows.map((row) => row.id),
      'hardware rows and their order');
    assert.equal(hardware.rows.length, 8);
    for (const [i, expected] of hardware.rows.entries()) {
      const row = response.hardware[i];
      assert.equal(row.name, expected.name, `${row.device} name`);
      assert.equal(`${row.memory_gib} GB · ${row.bandwidth_gbps} GB/s`, expected.memory_bandwidth,
        `${row.device} memory and bandwidth`);
      assert.equal(`${gb(row.needed_gib)} (${row.usage_pct.toFixed(0)}%)`, expected.needed, `${row.device} needed`);
      assert.equal(row.fit, expected.fit_id, `${row.device} fit`);
      assert.equal(tokS(row.decode_tps), expected.decode, `${row.device} decode tok/s`);
    }
  });
});

describe('hostile requests', () => {
  before(loadModule);

  const withModel = (extra) => JSON.stringify({ model: 'glm-4-32b-0414', ...extra });
  const enc = (text) => new TextEncoder().encode(text);
  const bytes = (...parts) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...enc(p)] : p)));

  const cases = [
    ['empty string', '', ''],
    ['not json', 'not json', ''],
    ['truncated object', '{"model":', 'model'],
    ['array', '[]', ''],
    ['number', '42', ''],
    ['null', 'null', ''],
    ['empty object', '{}', 'model'],
    ['model is a number', '{"model":42}', 'model'],
    ['unknown model', '{"model":"nope"}', 'model'],
    ['context -5', withModel({ context: -5 }), 'context'],
    ['context 0', withModel({ context: 0 }), 'context'],
    ['context 1.5', withModel({ context: 1.5 }), 'context'],
    ['context 1e308', '{"model":"glm-4-32b-0414","context":1e308}', 'context'],
    ['context as string', withModel({ context: '32768' }), 'context'],
    ['context true', withModel({ context: true }), 'context'],
    ['context null', withModel({ context: null }), 'context'],
    ['context []', withModel({ context: [] }), 'context'],
    ['batch 0', withModel({ batch: 0 }), 'batch'],
    ['batch 2000', withModel({ batch: 2000 }), 'batch'],
    ['batch -1', withModel({ batch: -1 }), 'batch'],
    ['format Q3', withModel({ format: 'Q3' }), 'format'],
    ['kv_dtype int2', withModel({ kv_dtype: 'int2' }), 'kv_dtype'],
    ['device gtx-480', withModel({ device: 'gtx-480' }), 'device'],
    ['lang (not a request field)', withModel({ lang: 'en' }), 'lang'],
    ['runtime tgi', withModel({ runtime: 'tgi' }), 'runtime'],
    ['unknown key', withModel({ foo: 1 }), 'foo'],
    ['40-deep nested arrays', '['.repeat(40) + ']'.repeat(40), ''],
    ['40-deep nested arrays as context', `{"model":"glm-4-32b-0414","context":${'['.repeat(40)}${']'.repeat(40)}}`, 'context'],
    ['100000-deep nested arrays', '['.repeat(100000) + ']'.repeat(100000), ''],
    ['2 MB model string (request too large)', JSON.stringify({ model: 'x'.repeat(2 * 1024 * 1024) }), ''],
    ['1000-character model id', JSON.stringify({ model: 'm'.repeat(1000) }), 'model'],
    // A lone surrogate cannot be UTF-8: as JSON text, Embind's string conversion writes it paired
    // with the character after it, a well-formed but unknown id (in an object the core refuses
    // it: val_value.h).
    ['lone surrogate in the model value', '{"model":"glm-4-32b-0414\uD800x"}', 'model'],
    ['lone low surrogate in the model value', '{"model":"\uDC00glm-4-32b-0414"}', 'model'],
    // Raw bytes reach the core unchanged (Embind passes a Uint8Array byte for byte).
    ['invalid UTF-8 byte 0xFF in the model value', bytes('{"model":"glm', [0xff], '"}'), 'model'],
    ['UTF-8-encoded surrogate in the model value', bytes('{"model":"glm', [0xed, 0xa0, 0x80], '"}'), 'model'],
    ['truncated UTF-8 sequence in a key', bytes('{"model":"glm-4-32b-0414","x', [0xc3], '":1}'), ''],
    ['overlong UTF-8 encoding of "/"', bytes('{"model":"glm', [0xc0, 0xaf], '"}'), 'model'],
    ['NUL byte inside the request', bytes('{"model":"glm-4-32b-0414"', [0], '}'), ''],
  ];

  for (const [name, request, expectedField] of cases) {
    test(`${name} -> ok:false${expectedField === null ? '' : `, field "${expectedField}"`}`, () => {
      const response = evaluate(request);
      assert.equal(response.ok, false, `expected ok:false, got ${JSON.stringify(response).slice(0, 200)}`);
      assert.equal(response.schema, 3, 'schema');
      const { error } = response;
      assert.equal(typeof error, 'object', 'error object');
      assert.equal(typeof error.code, 'string', 'error.code is a string');
      assert.ok(error.code.length > 0, 'error.code is not empty');
      assert.equal(typeof error.message, 'string', 'error.message is a string');
      assert.ok(error.message.length > 0, 'error.message is not empty');
      assert.ok(error.message.length < 2000, `error.message is ${error.message.length} characters long`);
      for (const word of ['undefined', 'NaN', 'null pointer', '[object']) {
        assert.ok(!error.message.includes(word), `error.message mentions "${word}": ${error.message}`);
      }
      assert.equal(typeof error.field, 'string', 'error.field is a string');
      if (expectedField !== null) assert.equal(error.field, expectedField, `error.field (message: ${error.message})`);

      // The module must still work afterwards (no abort, no corrupted state).
      const followUp = evaluate(VALID_REQUEST);
      assert.equal(followUp.ok, true, `valid request after "${name}" failed: ${JSON.stringify(followUp)}`);
      assert.equal(gb(followUp.simulator.total_gib), referenceTable.simulator.figures.total.value,
        `total after "${name}"`);
    });
  }

  test('1000 hostile requests in a row leave the module intact', () => {
    for (let i = 0; i < 1000; i += 1) {
      const [, request] = cases[i % cases.length];
      assert.equal(evaluate(request).ok, false);
    }
    assert.deepStrictEqual(evaluate(VALID_REQUEST), evaluateNative(VALID_REQUEST));
  });
});

describe('sections (what the page asks for while the slider moves)', () => {
  before(loadModule);
  const CONTEXT_SECTIONS = ['simulator', 'hardware', 'related', 'commands'];

  test('a partial response holds exactly its sections, each equal to the full response\'s', () => {
    const scenarios = [
      { model: 'glm-4-32b-0414', context: 65536 },
      { model: 'gemma-3-27b', context: 4096, batch: 4, kv_dtype: 'q8_0' },
      { model: 'deepseek-v3', format: 'Q8_0', device: 'h100-80gb', device_count: 8, compare: ['mi300x-192gb'] },
    ];
    for (const scenario of scenarios) {
      const full = evaluate(scenario);
      const part = evaluate({ ...scenario, sections: CONTEXT_SECTIONS });
      assert.deepEqual(Object.keys(part), ['ok', 'schema', ...CONTEXT_SECTIONS], scenario.model);
      for (const key of CONTEXT_SECTIONS) assert.deepEqual(part[key], full[key], `${scenario.model}: ${key}`);
    }
  });

  test('bad section lists name the field and leave the module working', () => {
    for (const sections of ['simulator', ['simulator', 'simulator'], ['plot'], [null], {}]) {
      const response = evaluate({ model: 'glm-4-32b-0414', sections });
      assert.equal(response.ok, false, JSON.stringify(sections));
      assert.equal(response.error.field, 'sections');
    }
    assert.equal(grouped(evaluate(VALID_REQUEST).simulator.max_context),
      referenceTable.simulator.figures.max_context.value);
  });
});

describe('sweep()', () => {
  let sweep;
  before(async () => {
    await loadModule();
    sweep = vramcalc.sweep({});
  });
  const cellIndex = (model, format, device) =>
    (sweep.models.indexOf(model) * sweep.formats.length + sweep.formats.indexOf(format)) * sweep.devices.length +
    sweep.devices.indexOf(device);

  test('covers every model × format × device', () => {
    assert.equal(sweep.ok, true);
    const catalog = vramcalc.catalog();
    assert.deepEqual(sweep.models, catalog.models.map((m) => m.id));
    assert.deepEqual(sweep.devices, catalog.devices.map((d) => d.id));
    assert.deepEqual(sweep.formats, FORMATS);
    for (const key of ['total_gib', 'fit', 'decode_tps', 'max_context', 'max_context_capped']) {
      assert.equal(sweep[key].length, sweep.models.length * FORMATS.length * sweep.devices.length, key);
    }
  });

  test('the reference cell: 21.78 GB, tight, 27.3 tok/s, 61,544 tokens of memory on the RTX 3090', () => {
    const { scenario } = referenceTable;
    const i = cellIndex(scenario.model_id, scenario.format_id, scenario.device_id);
    // The exact figures, which round to the page's 21.78 GB and 27.3 tok/s.
    assert.equal(sweep.total_gib[i].toFixed(2), shownNumber(referenceTable.simulator.figures.total.value, 'GB'));
    assert.equal(sweep.fit_ids[sweep.fit[i]], referenceTable.simulator.fit_id);
    assert.equal(sweep.decode_tps[i].toFixed(1), '27.3');
    // The page's 61,544 tokens are memory's; the sweep stops at the model's own 32,768 and says
    // memory would allow more (issue 16).
    const m = sweep.models.indexOf(scenario.model_id);
    assert.equal(referenceTable.simulator.figures.max_context.value, '61,544');
    assert.equal(sweep.max_position[m], 32768);
    assert.equal(sweep.max_context[i], 32768);
    assert.equal(sweep.max_context_capped[i], 1);
  });

  test('every cell agrees with evaluate()\'s hardware table exactly', () => {
    let checked = 0;
    for (const model of sweep.models) {
      for (const format of FORMATS) {
        const response = vramcalc.evaluate({ model, format, device_count: 1 });
        for (const row of response.hardware) {
          const i = cellIndex(model, format, row.device);
          const where = `${model} ${format} ${row.device}`;
          assert.equal(sweep.total_gib[i], row.needed_gib, where);
          assert.equal(sweep.fit_ids[sweep.fit[i]], row.fit, where);
          assert.equal(sweep.decode_tps[i], row.decode_tps, where);
          checked += 1;
        }
      }
    }
    assert.ok(checked >= sweep.models.length * FORMATS.length * 8, `${checked} cells checked`);
  });

  test('answers value for value like `vramcalc sweep`, and names bad fields', () => {
    for (const request of ['{}', '{"context":131072,"batch":4,"kv_dtype":"q4_0"}', '{"context":0}', '{"kv_dtype":7}',
      '{"device":"rtx-4090-24gb","compare":["h100-80gb"],"context":8192}', '{"device":"rtx-9999"}']) {
      const native = spawnSync(cliPath, ['sweep', request], { encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.deepStrictEqual(vramcalc.sweep(JSON.parse(request)), JSON.parse(native.stdout), request);
    }
    assert.equal(vramcalc.sweep({ context: 0 }).error.field, 'context');
    assert.equal(vramcalc.sweep({ model: 'glm-4-32b-0414' }).error.field, 'model');
  });
});

describe('CLI listings', () => {
  test('`vramcalc models --json` prints every model card, the same as catalog() lists', () => {
    const models = JSON.parse(execFileSync(cliPath, ['models', '--json'], { encoding: 'utf8' }));
    assert.ok(models.length >= 40, `only ${models.length} models`);
    for (const model of models) {
      assert.match(model.checkpoint, /^[\w.-]+\/[\w.-]+$/, `${model.id}: checkpoint is a Hugging Face repo id`);
      assert.ok(model.sources.length > 0, `${model.id} names no source`);
    }
    assert.ok(models.some((m) => m.id === 'glm-4-32b-0414' && m.num_hidden_layers === 61));
  });

  test('`vramcalc devices --json` prints every device', () => {
    const devices = JSON.parse(execFileSync(cliPath, ['devices', '--json'], { encoding: 'utf8' }));
    assert.ok(devices.length >= 30, `only ${devices.length} devices`);
    // Estimation model 1.9: the RTX 3090 has 24 GB and 936 GB/s; NVIDIA's CUDA GPU table: compute
    // capability 8.6 ("8.6 | NVIDIA A40 ... GeForce RTX 3090").
    assert.deepEqual(devices.find((d) => d.id === 'rtx-3090-24gb'),
      { id: 'rtx-3090-24gb', name: 'RTX 3090 24GB', memory_gib: 24, bandwidth_gbps: 936, class: 'consumer',
        vendor: 'nvidia', platform: 'cuda', unified_memory: false, compute_capability: 8.6,
        source: devices.find((d) => d.id === 'rtx-3090-24gb').source });
  });
});

describe('catalog()', () => {
  let catalog;
  before(async () => {
    await loadModule();
    catalog = vramcalc.catalog();
    assert.equal(typeof catalog, 'object');
  });

  test('is ok and lists both GLM models among at least 40', () => {
    assert.equal(catalog.ok, true);
    const ids = catalog.models.map((m) => m.id);
    for (const id of MODELS) assert.ok(ids.includes(id), `${id} is missing`);
    assert.ok(ids.length >= 40, `only ${ids.length} models`);
    assert.equal(new Set(ids).size, ids.length, 'model ids repeat');
  });

  test('lists the 11 devices of the estimation model among at least 30', () => {
    const ids = catalog.devices.map((d) => d.id);
    for (const id of DEVICES) assert.ok(ids.includes(id), `${id} is missing`);
    assert.ok(ids.length >= 30, `only ${ids.length} devices`);
    assert.equal(new Set(ids).size, ids.length, 'device ids repeat');
  });

  test('the reference profile lists the 8 formats and 4 KV cache types of the reference page', () => {
    const reference = catalog.runtimes.find((r) => r.id === 'reference');
    assert.deepEqual(reference.formats, FORMATS);
    assert.deepEqual(reference.kv_dtypes, ['fp16', 'fp8', 'q8_0', 'q4_0']);
  });

  test('every profile\'s formats and KV cache types are catalog entries with labels', () => {
    const formats = new Map(catalog.formats.map((f) => [f.id, f]));
    const kvDtypes = new Set(catalog.kv_dtypes.map((k) => k.id));
    assert.deepEqual(catalog.runtimes.map((r) => r.id), ['reference', 'llamacpp', 'ollama', 'vllm', 'sglang', 'mlx']);
    for (const runtime of catalog.runtimes) {
      assert.ok(runtime.formats.length > 0 && runtime.kv_dtypes.length > 0, runtime.id);
      for (const id of runtime.formats) assert.ok(formats.has(id), `${runtime.id}: format ${id}`);
      for (const id of runtime.kv_dtypes) assert.ok(kvDtypes.has(id), `${runtime.id}: KV type ${id}`);
    }
    for (const format of catalog.formats) {
      assert.ok(format.label.length > 0, `${format.id} label is empty`);
      assert.ok(Number.isFinite(format.bpw) && format.bpw > 0, `${format.id} bpw ${format.bpw}`);
      assert.ok(format.source.length > 0, `${format.id} names its source`);
      assert.ok(catalog.runtimes.some((r) => r.formats.includes(format.id)), `${format.id} is offered nowhere`);
    }
  });

  test('carries no UI strings; the site\'s i18n/ has German and English with the same keys, in two parts', async () => {
    // The module leaves them out (the first numbers never need the other language's): the page
    // loads the one it speaks from the site, i18n/<lang>.json before its first numbers and
    // i18n/<lang>.later.json (the keys web/js/i18n.js names in LATER_STRINGS) after them.
    assert.deepEqual(catalog.langs, ['de', 'en']);
    assert.deepEqual(catalog.strings, {});
    const read = async (name) => JSON.parse(await readFile(path.join(siteDir, 'i18n', name), 'utf8'));
    const later = new Set(LATER_STRINGS);
    const tables = {};
    for (const lang of catalog.langs) {
      const [first, rest] = await Promise.all([read(`${lang}.json`), read(`${lang}.later.json`)]);
      const prefix = (key) => key.slice(0, key.indexOf('.'));
      assert.deepEqual(Object.keys(first).filter((key) => later.has(prefix(key))), [], `${lang}.json holds later keys`);
      assert.deepEqual(Object.keys(rest).filter((key) => !later.has(prefix(key))), [], `${lang}.later.json holds first keys`);
      assert.ok(Object.keys(first).length > 100 && Object.keys(rest).length > 50, `${lang}: a part is nearly empty`);
      // Both parts are the strings of assets/i18n/<lang>.json but for the notes ("_" keys).
      const source = JSON.parse(await readFile(path.join(repoRoot, 'assets', 'i18n', `${lang}.json`), 'utf8'));
      const kept = Object.keys(source).filter((key) => !key.startsWith('_')).sort();
      tables[lang] = { ...first, ...rest };
      assert.deepEqual(Object.keys(tables[lang]).sort(), kept, `${lang}: the parts are not the table`);
    }
    const { de, en } = tables;
    assert.deepEqual(Object.keys(en).sort(), Object.keys(de).sort(), 'de and en key sets differ');
    for (const [lang, strings] of Object.entries({ de, en })) {
      for (const [key, value] of Object.entries(strings)) {
        assert.equal(typeof value, 'string', `strings.${lang}.${key} is not a string`);
        assert.ok(value.length > 0, `strings.${lang}.${key} is empty`);
      }
    }
    // Every text the page's markup names is in the tables (a key that is not stays empty): index.html's,
    // and that of the sections below the fold, which web/js/render/below-fold.js builds (its keys
    // are its string literals of the form "section.key").
    const html = await readFile(path.join(repoRoot, 'web', 'index.html'), 'utf8');
    const below = await readFile(path.join(repoRoot, 'web', 'js', 'render', 'below-fold.js'), 'utf8');
    const named = [...html.matchAll(/data-i18n="([^"]+)"/g)].map((match) => match[1]);
    const built = [...below.matchAll(/'([a-z]+\.[a-z0-9_.]+)'/g)].map((match) => match[1]);
    assert.ok(named.length > 40 && built.length > 15, `index.html names ${named.length} texts, below-fold.js ${built.length}`);
    assert.deepEqual([...named, ...built].filter((key) => !(key in de)), [], 'the markup names texts the tables lack');
  });

  test('every catalog id is accepted by evaluate() under every profile that offers it', () => {
    const formats = new Map(catalog.formats.map((f) => [f.id, f]));
    for (const runtime of catalog.runtimes) {
      const device = catalog.devices.find((d) => runtime.runs_on.includes(d.platform)).id;
      for (const model of catalog.models) {
        for (const format of runtime.formats) {
          if (formats.get(format).moe_only && !model.moe) continue;
          const answer = evaluate({ model: model.id, format, device, runtime: runtime.id });
          assert.equal(answer.ok, true, `${runtime.id} ${model.id} ${format}: ${answer.error?.message}`);
        }
      }
      // Every device of a platform it runs on, but CUDA cards below its minimum compute capability
      // (vLLM and SGLang: 7.5, so not the Tesla P40 or the V100), which it refuses by the field.
      for (const d of catalog.devices.filter((x) => runtime.runs_on.includes(x.platform))) {
        const answer = evaluate({ model: MODELS[0], format: runtime.formats[0], device: d.id, runtime: runtime.id });
        const tooOld = d.platform === 'cuda' && d.compute_capability < runtime.min_compute_capability;
        assert.equal(answer.ok, !tooOld, `${runtime.id} ${d.id}`);
        if (tooOld) assert.deepEqual([answer.error.code, answer.error.field], ['unsupported_device', 'device']);
      }
      const refused = catalog.devices.filter((d) => d.platform === 'cuda' && d.compute_capability < runtime.min_compute_capability);
      assert.deepEqual(refused.map((d) => d.id), ['vllm', 'sglang'].includes(runtime.id) ? ['tesla-p40-24gb', 'tesla-v100-sxm2-32gb'] : []);
      for (const kv of runtime.kv_dtypes) {
        const answer = evaluate({ model: MODELS[0], format: runtime.formats[0], device, kv_dtype: kv, runtime: runtime.id });
        assert.equal(answer.ok, true, `${runtime.id} ${kv}`);
      }
    }
  });
});

after(() => {
  vramcalc = undefined;
});
