// A request object read through Embind (wasm/val_value.h), the path of every number the page
// shows: both modules answer every request object as vramcalc-full.wasm answers its JSON text
// (nlohmann/json), value for value: every catalog model under every runtime, values chosen to
// break a reader, and what JSON.stringify would leave out or refuse.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
const FIRST = ['model', 'simulator'];  // what vramcalc.wasm computes

let light;  // vramcalc.wasm
let full;  // vramcalc-full.wasm
before(async () => {
  const load = async (name) => (await import(pathToFileURL(path.join(siteDir, `${name}.mjs`)).href))
    .default({ wasmBinary: await readFile(path.join(siteDir, `${name}.wasm`)) });
  [light, full] = await Promise.all([load('vramcalc'), load('vramcalc-full')]);
});

/** Asserts both modules answer `request` as vramcalc-full.wasm answers its JSON text; returns it. */
function assertSameAnswer(request) {
  const json = full.evaluateJson(JSON.stringify(request));
  const what = JSON.stringify(request).slice(0, 120);
  assert.deepStrictEqual(full.evaluate(request), json, `vramcalc-full.wasm: ${what}`);
  assert.deepStrictEqual(light.evaluate(request), json, `vramcalc.wasm: ${what}`);
  return json;
}

test('every catalog model under every runtime: the object is answered as its JSON text', () => {
  const catalog = full.catalog();
  let ok = 0;
  for (const model of catalog.models) {
    for (const runtime of catalog.runtimes) {
      for (const context of [1, 4096, 131072]) {
        const answer = assertSameAnswer({ model: model.id, runtime: runtime.id, context, sections: FIRST });
        if (answer.ok) ok += 1;
      }
      // The matrix, vramcalc-full.wasm's (the page draws it once the first numbers are painted).
      const matrix = { model: model.id, runtime: runtime.id, sections: ['matrix'] };
      assert.deepStrictEqual(full.evaluate(matrix), full.evaluateJson(JSON.stringify(matrix)), `matrix: ${model.id}`);
      // And one request with the settings the page sends beside them.
      const format = runtime.formats.at(-1);
      const options = Object.fromEntries(runtime.options.map((name) =>
        [name, { memory_utilization: 0.85, flash_attention: false }[name] ?? 2048]));
      assertSameAnswer({ model: model.id, runtime: runtime.id, format, kv_dtype: runtime.kv_dtypes.at(-1), batch: 4,
        device: 'rtx-4090-24gb', device_count: runtime.multi_device ? 2 : 1, ...options, sections: ['simulator'] });
    }
  }
  // Most combinations are answered (a model may run out of position or a runtime lack a format).
  assert.ok(ok > catalog.models.length * catalog.runtimes.length, `${ok} answered`);
});

test('values chosen to break a reader are answered as their JSON text', () => {
  const base = { model: 'glm-4-32b-0414', sections: FIRST };
  const own = { name: 'Mine', memory_gib: 20, bandwidth_gbps: 800, platform: 'vulkan' };
  const requests = [
    { ...base, model: 'x"\\\u0001\n\t\u007f\u00e9\u{1F600}' }, { ...base, '"\u00e9': 1 }, { ...base, '': 1 },
    { ...base, context: 32768.0 }, { ...base, context: 1e21 }, { ...base, context: 2 ** 53 + 2 }, { ...base, context: 5e-324 },
    { ...base, context: -0 }, { ...base, context: '32768' }, { ...base, context: [32768] }, { ...base, context: true },
    { ...base, context: { value: 1 } }, { ...base, context: [[[1]]] },
    { ...base, memory_utilization: 0.1 + 0.2, runtime: 'vllm', format: 'FP8' }, { ...base, batch: null },
    { ...base, sections: [] }, { ...base, sections: ['model', 'model'] }, { ...base, sections: [1, null, false, 'x'] },
    { ...base, sections: [{ a: 1 }] }, { ...base, sections: Array(8).fill('model') },
    { ...base, compare: Array(65).fill('rtx-3090-24gb') }, { ...base, compare: [['rtx-3090-24gb']] },
    { ...base, device: 'custom:20:800:vulkan:' + 'n'.repeat(65) }, { ...base, device: 'custom:20.5:1e3:cuda:A' },
    { ...base, device: 'custom:24:936:cuda+unified:My \u00e9 card' }, { ...base, device: '' }, { ...base, format: 'q4_k_m' },
    { ...base, device: own }, { ...base, device: { ...own, memory_gib: 24.5, unified_memory: true } },
    { ...base, device: { ...own, memory_gib: -1 } }, { ...base, device: { ...own, memory_gib: '20' } },
    { ...base, device: { name: 'A' } }, { ...base, device: { ...own, platform: 'tpu' } },
    { ...base, model: 'y'.repeat(1000) }, { ...base, flash_attention: 1, runtime: 'llamacpp' },
    // What JSON.stringify leaves out or writes as null.
    { ...base, context: NaN }, { ...base, batch: Infinity }, { ...base, gone: undefined, fn() {} },
    { ...base, compare: [undefined, 'rtx-3090-24gb'] },
    { context: 8192 }, {}, [], [base], null, 42, 'glm-4-32b-0414',
  ];
  for (const request of requests) assertSameAnswer(request);
});

test('text JSON cannot carry is refused, naming its field, as its JSON text would be', () => {
  // A lone surrogate (JSON.stringify escapes it, which nlohmann refuses), a BigInt (which
  // JSON.stringify throws on), nesting past 32 levels.
  const deep = JSON.parse('['.repeat(40) + ']'.repeat(40));
  for (const [request, field] of [[{ model: 'x\uDC00' }, 'model'], [{ model: 'glm\uD800' }, 'model'],
    [{ model: 'glm-4-32b-0414', ['k\uD800']: 1 }, ''], [{ model: 'glm-4-32b-0414', context: 1n }, 'context'],
    [{ model: 'glm-4-32b-0414', context: deep }, 'context'], [deep, '']]) {
    for (const module of [light, full]) {
      const { ok, error } = module.evaluate(request);
      assert.deepEqual([ok, error.code, error.field], [false, 'malformed_json', field], String(Object.keys(request)));
    }
  }
  assert.equal(full.evaluateJson(JSON.stringify({ model: 'x\uDC00' })).error.field, 'model');
  // More than 1 MiB of text, as a request of more than 1 MiB of JSON.
  const large = { model: 'x'.repeat(1 << 20) };
  assert.equal(light.evaluate(large).error.code, 'request_too_large');
  assert.equal(full.evaluateJson(JSON.stringify(large)).error.code, 'request_too_large');
});

test('vramcalc.wasm keeps answering after each of them', () => {
  const good = full.evaluate({ model: 'qwen3-8b', sections: FIRST });
  for (let i = 0; i < 50; i++) light.evaluate({ model: 'z'.repeat(i * 1000), context: -i });
  assert.deepStrictEqual(light.evaluate({ model: 'qwen3-8b', sections: FIRST }), good);
});
