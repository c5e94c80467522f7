// The benchmark: speed and size figures against tests/bench/budget.json, printed as a table
// and written to build-wasm/bench/results.json. Run with `bash tests/dev.sh bench` (after a
// build). Timings depend on the machine and are only reported; sizes are exact, and the exit
// status is 1 when the bytes before the first numbers exceed the enforced ceiling.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../support/static-server.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.join(repoRoot, 'build-wasm/site');
const budget = JSON.parse(await readFile(path.join(repoRoot, 'tests/bench/budget.json'), 'utf8'));
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)];
const kib = (bytes) => bytes / 1024;
const results = {};

// 1. evaluate(): native, then wasm under node, and the whole catalog in one sweep() in wasm.
// Two kinds of call: what the page asks on each slider move (the context's sections only,
// web/js/main.js) and the complete response it asks for when the model or a setting changes.
results.native = JSON.parse(execFileSync(path.join(repoRoot, 'build/tests/vramcalc_bench'), { encoding: 'utf8' }));
const { default: create } = await import(pathToFileURL(path.join(siteDir, 'vramcalc.mjs')).href);
const core = await create({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc.wasm')) });
const SLIDER_SECTIONS = ['simulator', 'hardware', 'related', 'commands'];
const scenarios = [
  { model: 'glm-4-32b-0414' },
  { model: 'deepseek-v3', format: 'Q8_0', context: 131072, device: 'h100-80gb', device_count: 8 },
  { model: 'gemma-3-27b', context: 65536, batch: 4, kv_dtype: 'q8_0' },
];
const timeCalls = (requests, calls) => {
  for (let i = 0; i < 300; i += 1) core.evaluate(requests[i % requests.length]);  // past the baseline tier
  const micros = [];
  for (let i = 0; i < calls; i += 1) {
    const start = performance.now();
    core.evaluate(requests[i % requests.length]);
    micros.push((performance.now() - start) * 1000);
  }
  return { median_us: median(micros), p95_us: p95(micros), calls };
};
results.wasm = timeCalls(scenarios.map((s, i) => JSON.stringify({ ...s, context: 4096 << i, sections: SLIDER_SECTIONS })), 3000);
results.wasm_full = timeCalls(scenarios.map((s) => JSON.stringify(s)), 3000);
const sweeps = [];
let sweepCells = 0;
for (let i = 0; i < 7; i += 1) {
  const start = performance.now();
  const sweep = JSON.parse(core.sweep('{}'));
  sweeps.push(performance.now() - start);
  sweepCells = sweep.fit.length;
}
// The first sweep runs in the baseline compiler's code; the median of the rest is the figure.
results.sweep = { ms: median(sweeps.slice(1)), first_ms: sweeps[0], cells: sweepCells };

// 2. Bytes: what the page loads before its first numbers (seen by the browser below), and
// everything a first visit downloads including the service worker's precache.
const sizeOf = async (file) => {
  const bytes = await readFile(path.join(siteDir, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

// 3. The browser: cold loads in fresh profiles, slider updates, dropped frames.
const server = await startServer(siteDir);
const launch = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'vramcalc-bench-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath, headless: true, locale: 'de-DE',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { context, close: async () => { await context.close(); await rm(dir, { recursive: true, force: true }); } };
};
const coldLoads = [];
let firstNumbersFiles = null;
for (let i = 0; i < 5; i += 1) {
  const { context, close } = await launch();
  const page = context.pages()[0] ?? await context.newPage();
  const loaded = [];
  page.on('requestfinished', (request) => loaded.push({ url: request.url(), at: Date.now() }));
  await page.goto(server.url);
  await page.waitForFunction(() => performance.getEntriesByName('vramcalc:first-numbers').length > 0);
  const doneAt = Date.now();
  coldLoads.push(await page.evaluate(() => performance.getEntriesByName('vramcalc:first-numbers')[0].startTime));
  if (!firstNumbersFiles) {
    firstNumbersFiles = [...new Set(loaded.filter((entry) => entry.at <= doneAt)
      .map((entry) => decodeURIComponent(new URL(entry.url).pathname.slice(1)) || 'index.html'))];
  }
  await close();
}
results.cold_load_ms = { median: median(coldLoads), runs: coldLoads };
results.first_numbers = { files: await Promise.all(firstNumbersFiles.map(sizeOf)) };
results.first_numbers.raw = results.first_numbers.files.reduce((sum, f) => sum + f.raw, 0);
results.first_numbers.gzip = results.first_numbers.files.reduce((sum, f) => sum + f.gzip, 0);
const precache = (await readFile(path.join(siteDir, 'sw.js'), 'utf8')).match(/const PRECACHE = \[(.*)\];/)[1]
  .split(',').map((entry) => JSON.parse(entry.trim())).filter((file) => file !== './');
const visit = await Promise.all([...new Set([...firstNumbersFiles, ...precache, 'sw.js'])].map(sizeOf));
results.first_visit = { raw: visit.reduce((s, f) => s + f.raw, 0), gzip: visit.reduce((s, f) => s + f.gzip, 0) };

{
  const { context, close } = await launch();
  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => performance.getEntriesByName('vramcalc:first-numbers').length > 0);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskDuration = async () => (await cdp.send('Performance.getMetrics')).metrics
    .find((metric) => metric.name === 'TaskDuration').value;
  const UPDATES = 300;
  const before = await taskDuration();
  const frames = await page.evaluate(async (count) => {
    const range = document.querySelector('[data-testid="context"]');
    const stamps = [];
    for (let i = 0; i < count; i += 1) {
      range.value = String(9 + (i % 12));
      range.dispatchEvent(new Event('input', { bubbles: true }));
      stamps.push(await new Promise((resolve) => requestAnimationFrame(resolve)));
    }
    return stamps;
  }, UPDATES);
  const after = await taskDuration();
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  results.slider = {
    updates: UPDATES,
    main_thread_ms_per_update: ((after - before) * 1000) / UPDATES,
    frames_over_16_7ms: gaps.filter((gap) => gap > 16.7).length,
    frames: gaps.length,
  };
  await close();
}
await server.close();

// Report.
const rows = [
  ['evaluate(), native, whole response', `${results.native.median_us.toFixed(1)} µs median, ${results.native.p95_us.toFixed(1)} µs p95`, '', ''],
  ['evaluate(), wasm in node, slider move', `${results.wasm.median_us.toFixed(1)} µs median, ${results.wasm.p95_us.toFixed(1)} µs p95`,
    `≤ ${budget.evaluate_wasm_us} µs`, results.wasm.median_us <= budget.evaluate_wasm_us],
  ['evaluate(), wasm in node, whole response', `${results.wasm_full.median_us.toFixed(1)} µs median, ${results.wasm_full.p95_us.toFixed(1)} µs p95`, '', ''],
  [`catalog sweep, wasm (${results.sweep.cells} cells, one call + parse)`, `${results.sweep.ms.toFixed(1)} ms (first ${results.sweep.first_ms.toFixed(0)} ms)`,
    `≤ ${budget.catalog_sweep_wasm_ms} ms`, results.sweep.ms <= budget.catalog_sweep_wasm_ms],
  ['cold load to first numbers (5 profiles)', `${results.cold_load_ms.median.toFixed(0)} ms median`,
    `≤ ${budget.first_numbers_ms} ms`, results.cold_load_ms.median <= budget.first_numbers_ms],
  ['main thread per slider update', `${results.slider.main_thread_ms_per_update.toFixed(2)} ms`,
    `≤ ${budget.slider_update_main_thread_ms} ms`, results.slider.main_thread_ms_per_update <= budget.slider_update_main_thread_ms],
  ['frames over 16.7 ms while dragging', `${results.slider.frames_over_16_7ms} of ${results.slider.frames}`, '', ''],
  ['bytes before first numbers', `${kib(results.first_numbers.raw).toFixed(1)} KiB raw, ${kib(results.first_numbers.gzip).toFixed(1)} KiB gzip`,
    `≤ ${budget.first_numbers_gzip_kib} KiB gzip`, kib(results.first_numbers.gzip) <= budget.first_numbers_gzip_kib],
  ['first visit incl. precache', `${kib(results.first_visit.raw).toFixed(1)} KiB raw, ${kib(results.first_visit.gzip).toFixed(1)} KiB gzip`, '', ''],
];
const width = Math.max(...rows.map((r) => r[0].length));
console.log('vramcalc benchmark\n');
for (const [name, value, target, ok] of rows) {
  console.log(`${name.padEnd(width)}  ${value.padEnd(44)}  ${target.padEnd(18)}  ${ok === '' ? '' : ok ? 'ok' : 'OVER'}`);
}
console.log('\nbefore first numbers, per file:');
for (const f of results.first_numbers.files.sort((a, b) => b.gzip - a.gzip)) {
  console.log(`  ${f.file.padEnd(28)} ${kib(f.raw).toFixed(1).padStart(8)} KiB ${kib(f.gzip).toFixed(1).padStart(8)} KiB gzip`);
}
const out = path.join(repoRoot, 'build-wasm/bench');
await mkdir(out, { recursive: true });
await writeFile(path.join(out, 'results.json'), `${JSON.stringify({ budget, results }, null, 2)}\n`);
console.log(`\nwritten: ${path.relative(repoRoot, path.join(out, 'results.json'))}`);
// Sizes are deterministic: over the enforced ceiling fails; timings never do.
const firstNumbersKib = kib(results.first_numbers.gzip);
console.log(`size check: ${firstNumbersKib.toFixed(1)} KiB gzip before the first numbers, ceiling ` +
  `${budget.first_numbers_gzip_kib_ceiling} KiB (enforced), target ${budget.first_numbers_gzip_kib} KiB`);
if (firstNumbersKib > budget.first_numbers_gzip_kib_ceiling) {
  console.error('vramcalc bench: the bytes before the first numbers grew past the ceiling in tests/bench/budget.json');
  process.exitCode = 1;
}
