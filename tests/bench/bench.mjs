// The benchmark: speed and size figures against tests/bench/budget.json, printed as a table
// and written to build-wasm/bench/results.json. Run with `bash tests/dev.sh bench` (after a
// build). Timings depend on the machine and are only reported; sizes are exact, and the exit
// status is 1 when the bytes before the first numbers, or vramcalc-full.wasm's, exceed their
// enforced ceilings.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHANGES, MISSED_GAP_MS, measurePage, median, sizeOf } from './page.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.join(repoRoot, 'build-wasm/site');
const budget = JSON.parse(await readFile(path.join(repoRoot, 'tests/bench/budget.json'), 'utf8'));
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)];
const kib = (bytes) => bytes / 1024;
const results = {};

// 1. evaluate(): native, then wasm under node, and the whole catalog in one sweep() in wasm.
// Two kinds of call: what the page asks on each slider move (the context's sections only,
// web/js/main.js) and the complete response it asks for when the model or a setting changes.
results.native = JSON.parse(execFileSync(path.join(repoRoot, 'build/tests/vramcalc_bench'), { encoding: 'utf8' }));
const { default: create } = await import(pathToFileURL(path.join(siteDir, 'vramcalc-full.mjs')).href);
// vramcalc-full.wasm: the module with the sweep and the sections below the simulator, which the
// page asks every frame once it has loaded after the first numbers.
const full = await create({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc-full.wasm')) });
const SLIDER_SECTIONS = ['simulator', 'hardware', 'related', 'commands'];
const scenarios = [
  { model: 'glm-4-32b-0414' },
  { model: 'deepseek-v3', format: 'Q8_0', context: 131072, device: 'h100-80gb', device_count: 8 },
  { model: 'gemma-3-27b', context: 65536, batch: 4, kv_dtype: 'q8_0' },
];
const timeCalls = (requests, calls) => {
  for (let i = 0; i < 300; i += 1) full.evaluate(requests[i % requests.length]);  // past the baseline tier
  const micros = [];
  for (let i = 0; i < calls; i += 1) {
    const start = performance.now();
    full.evaluate(requests[i % requests.length]);
    micros.push((performance.now() - start) * 1000);
  }
  return { median_us: median(micros), p95_us: p95(micros), calls };
};
results.wasm = timeCalls(scenarios.map((s, i) => ({ ...s, context: 4096 << i, sections: SLIDER_SECTIONS })), 3000);
results.wasm_full = timeCalls(scenarios, 3000);
const sweeps = [];
let sweepCells = 0;
for (let i = 0; i < 7; i += 1) {
  const start = performance.now();
  const sweep = full.sweep({});
  sweeps.push(performance.now() - start);
  sweepCells = sweep.fit.length;
}
// The first sweep runs in the baseline compiler's code; the median of the rest is the figure.
results.sweep = { ms: median(sweeps.slice(1)), first_ms: sweeps[0], cells: sweepCells };

// 2. Bytes: what a page loads before its first numbers (seen by the browser below), and
// everything a first visit downloads including the service worker's precache (page.mjs sizeOf).

// 3. The browser (page.mjs), for the page and for a bare control page (tests/bench/control/: one input,
// one number) in the same run, so that each figure is also a ratio to the control: this
// machine's speed drifts 15-25 % between runs. Issue 15's method:
// - first result: the first numbers painted, median of five fresh profiles: Element Timing's
//   renderTime for the total, the same way for both pages (painted.mjs says how, and what it
//   takes where the browser has no Element Timing); the script mark `vramcalc:first-numbers`,
//   which the tests wait for, is reported beside it;
// - bytes: the responses completed before the first numbers are painted (the first load's);
// - whole (reported beside it): when nothing on the page is `aria-busy` any more, as the tests
//   wait for it (the page: the sections below the simulator drawn; the control: once painted);
// - per change: (a loop of input changes − a loop that only waits the same frames) / changes,
//   for Chrome's own ScriptDuration + RecalcStyleDuration + LayoutDuration, and TaskDuration.
results.control = await measurePage(path.join(repoRoot, 'tests/bench/control'));
results.page = await measurePage(siteDir);
results.first_numbers = results.page.first_result_bytes;
const precache = (await readFile(path.join(siteDir, 'sw.js'), 'utf8')).match(/const PRECACHE = \[(.*)\];/)[1]
  .split(',').map((entry) => JSON.parse(entry.trim())).filter((file) => file !== './');
const visit = await Promise.all([...new Set([...results.first_numbers.files.map((f) => f.file), ...precache, 'sw.js'])]
  .map((file) => sizeOf(siteDir, file)));
results.first_visit = { raw: visit.reduce((s, f) => s + f.raw, 0), gzip: visit.reduce((s, f) => s + f.gzip, 0) };

// Report: the core's figures, then the pages side by side with the ratios to the control.
const fixed = (value, digits = 1) => value.toFixed(digits);
const rows = [
  ['evaluate(), native, whole response', `${fixed(results.native.median_us)} µs median, ${fixed(results.native.p95_us)} µs p95`, '', ''],
  ['evaluate(), wasm in node, slider move', `${fixed(results.wasm.median_us)} µs median, ${fixed(results.wasm.p95_us)} µs p95`,
    `≤ ${budget.evaluate_wasm_us} µs`, results.wasm.median_us <= budget.evaluate_wasm_us],
  ['evaluate(), wasm in node, whole response', `${fixed(results.wasm_full.median_us)} µs median, ${fixed(results.wasm_full.p95_us)} µs p95`, '', ''],
  [`catalog sweep, wasm (${results.sweep.cells} cells, one call + parse)`, `${fixed(results.sweep.ms)} ms (first ${fixed(results.sweep.first_ms, 0)} ms)`,
    `≤ ${budget.catalog_sweep_wasm_ms} ms`, results.sweep.ms <= budget.catalog_sweep_wasm_ms],
  [`frames missed while dragging (a gap over ${MISSED_GAP_MS} ms), page / control`,
    `${results.page.per_change.frames_missed} / ${results.control.per_change.frames_missed} of ${results.page.per_change.frames}`, '', ''],
  ['first visit incl. precache', `${fixed(kib(results.first_visit.raw))} KiB raw, ${fixed(kib(results.first_visit.gzip))} KiB gzip`, '', ''],
];
const width = Math.max(...rows.map((r) => r[0].length));
const verdict = (ok) => (ok === '' ? '' : ok ? 'ok' : 'OVER');
console.log('vramcalc benchmark\n');
for (const [name, value, target, ok] of rows) console.log(`${name.padEnd(width)}  ${value.padEnd(44)}  ${target.padEnd(18)}  ${verdict(ok)}`);

const { control, page } = results;
const cells = (r) => [`${fixed(kib(r.first_result_bytes.gzip))} KiB`, `${fixed(r.first_result_ms.median, 0)} ms`,
  `${fixed(r.whole_ms.median, 0)} ms`,
  `${fixed(r.per_change.script_style_layout_ms, 2)} / ${fixed(r.per_change.task_ms, 2)} ms`];
const ratio = (a, b) => (b > 0 ? a / b : Infinity);
results.ratios = {
  bytes: ratio(page.first_result_bytes.gzip, control.first_result_bytes.gzip),
  first_result_over_control_ms: page.first_result_ms.median - control.first_result_ms.median,
  whole_over_control_ms: page.whole_ms.median - control.whole_ms.median,
  script_style_layout: ratio(page.per_change.script_style_layout_ms, control.per_change.script_style_layout_ms),
  task: ratio(page.per_change.task_ms, control.per_change.task_ms),
};
const r = results.ratios;
const table = [
  ['page', 'gzip before first result', 'first result (painted)', 'whole', 'script+style+layout / all main thread per change'],
  ['bare control page', ...cells(control)],
  ['vramcalc', ...cells(page)],
  ['vramcalc against the control', `×${fixed(r.bytes)}`, `+${fixed(r.first_result_over_control_ms, 0)} ms`,
    `+${fixed(r.whole_over_control_ms, 0)} ms`, `×${fixed(r.script_style_layout)} / ×${fixed(r.task)}`],
  ['target', `≤ ${budget.first_numbers_gzip_kib} KiB`, `≤ +${budget.first_result_over_control_ms} ms`, '',
    `≤ ×${budget.per_change_ratio_to_control} / ≤ ×${budget.per_change_ratio_to_control}`],
  ['', verdict(kib(page.first_result_bytes.gzip) <= budget.first_numbers_gzip_kib),
    verdict(r.first_result_over_control_ms <= budget.first_result_over_control_ms), '',
    verdict(Math.max(r.script_style_layout, r.task) <= budget.per_change_ratio_to_control)],
];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
console.log(`\nside by side (${CHANGES} changes per loop, five fresh profiles per page):`);
for (const row of table) console.log(`  ${row.map((cell, i) => cell.padEnd(widths[i])).join('  ')}`);
console.log(`  (the script mark vramcalc:first-numbers, not budgeted: the control ${fixed(control.first_numbers_mark_ms.median, 0)} ms, ` +
  `vramcalc ${fixed(page.first_numbers_mark_ms.median, 0)} ms)`);
console.log('\nbefore the first numbers were painted, per file:');
for (const f of results.first_numbers.files.sort((a, b) => b.gzip - a.gzip)) {
  console.log(`  ${f.file.padEnd(28)} ${fixed(kib(f.raw)).padStart(8)} KiB ${fixed(kib(f.gzip)).padStart(8)} KiB gzip`);
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
// The module the page loads after its first numbers (and the package and the single file use).
const fullKib = kib((await sizeOf(siteDir, 'vramcalc-full.wasm')).gzip);
console.log(`size check: ${fullKib.toFixed(1)} KiB gzip vramcalc-full.wasm, ceiling ${budget.full_module_gzip_kib_ceiling} KiB (enforced)`);
if (fullKib > budget.full_module_gzip_kib_ceiling) {
  console.error('vramcalc bench: vramcalc-full.wasm grew past its ceiling in tests/bench/budget.json');
  process.exitCode = 1;
}
