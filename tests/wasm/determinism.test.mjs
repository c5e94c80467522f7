// Determinism: the native build and the wasm module give identical JSON for a seeded random
// sweep of 10,000 scenarios across the whole catalog (same doubles, same digits).
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
  const { default: create } = await import(pathToFileURL(path.join(siteDir, 'vramcalc.mjs')).href);
  vramcalc = await create({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc.wasm')) });
  catalog = JSON.parse(vramcalc.catalog());
});

test(`${SCENARIOS} seeded scenarios: native and wasm answer byte for byte`, { timeout: 120_000 }, () => {
  const next = random(SEED);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const requests = [];
  for (let i = 0; i < SCENARIOS; i += 1) {
    const request = {
      model: pick(catalog.models).id,
      format: pick(catalog.formats).id,
      context: 1 + Math.floor(next() * 2 ** (9 + Math.floor(next() * 14))),  // 1 … 4M tokens
      batch: 1 + Math.floor(next() * 16),
      kv_dtype: pick(catalog.kv_dtypes).id,
      runtime: next() < 0.5 ? 'reference' : undefined,
    };
    if (next() < 0.7) request.device = pick(catalog.devices).id;
    if (next() < 0.3) request.device_count = pick([1, 2, 4, 8]);
    requests.push(JSON.stringify(request));
  }
  const native = spawnSync(cliPath, ['evaluate', '--lines'], {
    input: `${requests.join('\n')}\n`, maxBuffer: 1 << 30, encoding: 'utf8',
  });
  assert.equal(native.error, undefined, `could not run ${cliPath}`);
  const lines = native.stdout.split('\n');
  assert.equal(lines.at(-1), '', 'the output ends with a newline');
  assert.equal(lines.length - 1, SCENARIOS, 'one response line per request');
  let ok = 0;
  for (let i = 0; i < SCENARIOS; i += 1) {
    const wasm = vramcalc.evaluate(requests[i]);
    if (wasm !== lines[i]) assert.fail(`scenario ${i} differs: ${requests[i]}\nwasm:   ${wasm.slice(0, 400)}\nnative: ${lines[i].slice(0, 400)}`);
    if (wasm.startsWith('{"ok":true')) ok += 1;
  }
  assert.equal(ok, SCENARIOS, 'every scenario is a valid request');
});
