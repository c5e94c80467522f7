// A request object as fields (core/src/request_fields.h): the loader's writer (vramcalc.mjs
// requestFields) against the layout worked out by hand, and vramcalc.wasm, which reads no JSON,
// answering every request object byte for byte as vramcalc-full.wasm answers its JSON text:
// every catalog model under every runtime, and values chosen to break a writer or a reader.
// The first numbers the page shows come from this path.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
const FIRST = ['model', 'simulator', 'matrix'];  // what vramcalc.wasm computes

let requestFields;
let light;  // vramcalc.wasm
let full;  // vramcalc-full.wasm
before(async () => {
  const loader = await import(pathToFileURL(path.join(siteDir, 'vramcalc.mjs')).href);
  requestFields = loader.requestFields;
  light = await loader.default({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc.wasm')) });
  full = await loader.default({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc-full.wasm')) });
});

const bytes = (text) => [...Buffer.from(text, 'utf8')];

test('the loader writes the layout of request_fields.h', () => {
  const id = 'x'.repeat(200);
  const fields = requestFields({ model: id, context: 8, flash_attention: true, device: null, sections: ['model'] });
  assert.deepEqual([...fields], [
    5, ...bytes('model'), 0x73, 0xc8, 0x01, ...bytes(id),  // s, a length of 200 as a varint: C8 01
    7, ...bytes('context'), 0x64, 0, 0, 0, 0, 0, 0, 0x20, 0x40, 1, ...bytes('8'),  // d, 8.0 as f64 LE, "8"
    15, ...bytes('flash_attention'), 0x74,  // t
    6, ...bytes('device'), 0x6e,  // n
    8, ...bytes('sections'), 0x61, 1, 0x73, 5, ...bytes('model'),  // a, one element
  ]);
  // What JSON.stringify would write is what goes: members left out, NaN as null, -0 as "0".
  assert.deepEqual([...requestFields({ model: 'm', gone: undefined, context: NaN, batch: -0 })], [
    5, ...bytes('model'), 0x73, 1, ...bytes('m'),
    7, ...bytes('context'), 0x6e,
    5, ...bytes('batch'), 0x64, 0, 0, 0, 0, 0, 0, 0, 0, 1, ...bytes('0'),  // 0, not -0
  ]);
});

test('what the fields do not carry is left to the JSON text', () => {
  const members = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i]));
  for (const request of ['{"model":"qwen3-8b"}', null, 42, [], [{ model: 'qwen3-8b' }],
    { model: { model_type: 'llama' } }, { model: 'qwen3-8b', device: { name: 'A' } },
    { model: 'qwen3-8b', compare: [['rtx-3090-24gb']] }, { model: 'x\uDC00' }, { ['\uD800']: 1 }, members,
    { model: 'x'.repeat(1 << 20) }, { model: '\u00e9'.repeat(600_000) }]) {
    assert.equal(requestFields(request), null, JSON.stringify(request)?.slice(0, 60));
  }
  assert.ok(requestFields(Object.fromEntries(Object.entries(members).slice(0, 64))));
  assert.ok(requestFields({ model: '\u00e9'.repeat(300_000) }));  // 600 KB of UTF-8
});

/** Asserts vramcalc.wasm answers `request` as vramcalc-full.wasm answers its JSON text, and so
 * does vramcalc-full.wasm's own fields path; returns that answer. */
function assertSameAnswer(request) {
  const json = full.evaluate(JSON.stringify(request));
  const what = JSON.stringify(request).slice(0, 120);
  assert.ok(requestFields(request), `the fields carry ${what}`);
  assert.equal(full.evaluate(request), json, `vramcalc-full.wasm, fields: ${what}`);
  assert.equal(light.evaluate(request), json, `vramcalc.wasm: ${what}`);
  return JSON.parse(json);
}

test('every catalog model under every runtime: vramcalc.wasm answers as vramcalc-full.wasm', () => {
  const catalog = JSON.parse(full.catalog());
  let ok = 0;
  for (const model of catalog.models) {
    for (const runtime of catalog.runtimes) {
      for (const context of [1, 4096, 131072]) {
        const answer = assertSameAnswer({ model: model.id, runtime: runtime.id, context, sections: FIRST });
        if (answer.ok) ok += 1;
      }
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

test('values chosen to break a writer or a reader are answered as their JSON text', () => {
  const base = { model: 'glm-4-32b-0414', sections: FIRST };
  const requests = [
    { ...base, model: 'x"\\\u0001\n\t\u007f\u00e9\u{1F600}' }, { ...base, '"\u00e9': 1 }, { ...base, '': 1 },
    { ...base, context: 32768.0 }, { ...base, context: 1e21 }, { ...base, context: 2 ** 53 + 2 }, { ...base, context: 5e-324 },
    { ...base, context: -0 }, { ...base, context: '32768' }, { ...base, context: [32768] }, { ...base, context: true },
    { ...base, memory_utilization: 0.1 + 0.2, runtime: 'vllm', format: 'FP8' }, { ...base, batch: null },
    { ...base, sections: [] }, { ...base, sections: ['model', 'model'] }, { ...base, sections: [1, null, false, 'x'] },
    { ...base, sections: Array(8).fill('model') }, { ...base, compare: Array(65).fill('rtx-3090-24gb') },
    { ...base, device: 'custom:20:800:vulkan:' + 'n'.repeat(65) }, { ...base, device: 'custom:20.5:1e3:cuda:A' },
    { ...base, device: 'custom:24:936:cuda+unified:My \u00e9 card' }, { ...base, device: '' }, { ...base, format: 'q4_k_m' },
    { ...base, model: 'y'.repeat(1000) }, { ...base, flash_attention: 1, runtime: 'llamacpp' },
    { context: 8192 }, {},
  ];
  for (const request of requests) assertSameAnswer(request);
});

test('vramcalc.wasm keeps answering after each of them', () => {
  const good = full.evaluate(JSON.stringify({ model: 'qwen3-8b', sections: FIRST }));
  for (let i = 0; i < 50; i++) light.evaluate({ model: 'z'.repeat(i * 1000), context: -i });
  assert.equal(light.evaluate({ model: 'qwen3-8b', sections: FIRST }), good);
});
