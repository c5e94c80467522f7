// Determinism: the native build and the wasm module give identical answers for a seeded random
// sweep of 10,000 scenarios across the whole catalog: the module's object equals JSON.parse of
// the CLI's JSON text, every number the same double.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
const cliPath = path.resolve(repoRoot, process.env.VRAMCALC_CLI ?? 'build/core/vramcalc');
const SCENARIOS = 10_000;
const SEED = 20261130;

/** mulberry32: a small seeded generator, so every run sweeps the same scenarios. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let vramcalc;
let catalog;

before(async () => {
  const { default: create } = await import(pathToFileURL(path.join(siteDir, 'vramcalc-full.mjs')).href);
  // The module that answers every section (vramcalc.wasm leaves those below the simulator out).
  vramcalc = await create({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc-full.wasm')) });
  catalog = vramcalc.catalog();
});

test(`${SCENARIOS} seeded scenarios: native and wasm answer value for value`, { timeout: 120_000 }, async () => {
  const next = random(SEED);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const formats = new Map(catalog.formats.map((f) => [f.id, f]));
  const requests = [];
  while (requests.length < SCENARIOS) {
    const runtime = pick(catalog.runtimes);
    const model = pick(catalog.models);
    const request = {
      model: model.id,
      format: pick(runtime.formats.filter((id) => model.moe || !formats.get(id).moe_only)),
      context: 1 + Math.floor(next() * 2 ** (9 + Math.floor(next() * 14))),  // 1 … 4M tokens
      batch: 1 + Math.floor(next() * 16),
      kv_dtype: pick(runtime.kv_dtypes),
      runtime: runtime.id === 'reference' && next() < 0.5 ? undefined : runtime.id,
    };
    const devices = catalog.devices.filter((d) => runtime.runs_on.includes(d.platform));
    if (next() < 0.7 || runtime.id === 'mlx') request.device = pick(devices).id;
    if (next() < 0.05) {  // a device of one's own
      const platform = pick(runtime.runs_on);
      request.device = `custom:${Math.round(1 + next() * 255)}:${Math.round(50 + next() * 4000)}:${platform}${next() < 0.3 ? '+unified' : ''}:Own ${requests.length}`;
    }
    if (runtime.multi_device && next() < 0.3) request.device_count = pick([1, 2, 4, 8]);
    if (runtime.options.includes('memory_utilization') && next() < 0.3) request.memory_utilization = 0.5 + next() / 2;
    if (runtime.options.includes('max_num_batched_tokens') && next() < 0.3) request.max_num_batched_tokens = pick([512, 2048, 16384]);
    if (runtime.options.includes('ubatch') && next() < 0.3) request.ubatch = pick([128, 512, 2048]);
    if (runtime.options.includes('flash_attention') && next() < 0.3) request.flash_attention = request.kv_dtype !== 'fp16' || next() < 0.5;
    if (runtime.options.includes('parallel') && next() < 0.3) request.parallel = request.batch + pick([0, 1, 3]);
    // The host (the offload section's, for models that do not fit under llamacpp and ollama).
    if (next() < 0.3) request.host_memory = pick([8, 16, 64, 512]);
    if (next() < 0.2) request.host_memory_type = pick(catalog.host_memory_types).id;
    else if (next() < 0.1) request.host_bandwidth = Math.round(20 + next() * 480);
    const text = JSON.stringify(request);
    // Combinations an engine refuses (Apple devices in tensor parallel, a quantized
    // sliding-window cache in mlx-lm) are drawn again.
    const answer = vramcalc.evaluateJson(text);
    if (!answer.ok && /^unsupported_/.test(answer.error.code)) continue;
    requests.push(text);
  }
  const native = spawnSync(cliPath, ['evaluate', '--lines'], {
    input: `${requests.join('\n')}\n`, maxBuffer: 1 << 30, encoding: 'utf8',
  });
  assert.equal(native.error, undefined, `could not run ${cliPath}`);
  const lines = native.stdout.split('\n');
  assert.equal(lines.at(-1), '', 'the output ends with a newline');
  assert.equal(lines.length - 1, SCENARIOS, 'one response line per request');
  // The module leaves the models' sources to the site's model-sources.json (the native build
  // keeps them): value for value with the native response's sources emptied, and the file holds
  // exactly those.
  const sources = JSON.parse(await readFile(path.join(siteDir, 'model-sources.json'), 'utf8'));
  let ok = 0;
  for (let i = 0; i < SCENARIOS; i += 1) {
    const wasm = vramcalc.evaluate(JSON.parse(requests[i]));
    const native = JSON.parse(lines[i]);
    assert.deepEqual(sources[native.model.id], native.model.sources, `model-sources.json for ${native.model.id}`);
    native.model.sources = [];
    assert.deepStrictEqual(wasm, native, `scenario ${i} differs: ${requests[i]}`);
    if (wasm.ok) ok += 1;
  }
  assert.equal(ok, SCENARIOS, 'every scenario is a valid request');
});
