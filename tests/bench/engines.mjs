// The page in every browser engine the tests drive (tests/web/support/engines.mjs: Chromium,
// Firefox ESR, WebKitGTK), beside the control page in the same engine: the first numbers painted
// (painted.mjs: Element Timing where the engine has it, else the task after the frame that
// follows the write; median of five loads with nothing cached, Cache-Control: no-store) and one
// evaluate() of a slider move inside the page (median over 2,000 calls after
// 300 to warm up): with every section a move changes (the lower ones in view), and with the
// simulator alone (at the top of the page, what the page asks for there). Timings only: it prints a table and writes build-wasm/bench/engines.json,
// and fails only when an engine cannot run. Not part of `dev.sh test` (issue 15's
// re-measurement; tests/bench/README.md has the figures).
//
//   node tests/bench/engines.mjs          VRAMCALC_ENGINES=firefox node tests/bench/engines.mjs
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../support/static-server.mjs';
import { selectedEngines } from '../web/support/engines.mjs';
import { paintedAt } from './painted.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
const LOADS = 5;
const noStore = () => ({ 'Cache-Control': 'no-store' });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** When the first numbers were painted, in ms after navigation. */
async function firstNumbers(session, url) {
  await session.goto('about:blank');
  await session.goto(url);
  const at = await session.evaluate(paintedAt, 30_000);
  if (at === null) throw new Error(`${url}: no first numbers painted within 30 s`);
  return at;
}

/**
 * In the page, one instance of the core: evaluate() for a slider move asking for each of
 * `sectionLists`, µs per call (median of 20 batches of 100, after 300 calls to warm up).
 */
async function evaluatePerCall(sectionLists) {
  const { default: create } = await import('./vramcalc-full.mjs');
  const core = await create();  // the module that has every section
  return sectionLists.map((sections) => {
    const requests = [4096, 8192, 16384, 32768].map((context) => ({ model: 'glm-4-32b-0414', context, sections }));
    for (let i = 0; i < 300; i += 1) core.evaluate(requests[i % requests.length]);
    const batches = [];
    for (let b = 0; b < 20; b += 1) {
      const start = performance.now();
      for (let i = 0; i < 100; i += 1) core.evaluate(requests[i % requests.length]);
      batches.push(((performance.now() - start) * 1000) / 100);
    }
    return batches.sort((x, y) => x - y)[10];
  });
}

async function measure(engine, site, control) {
  const session = await engine.launch({ languages: ['de-DE', 'de'] });
  try {
    const page = [];
    const bare = [];
    for (let i = 0; i < LOADS; i += 1) {  // interleaved, so that drift touches both alike
      bare.push(await firstNumbers(session, control.url));
      page.push(await firstNumbers(session, site.url));
    }
    const [evaluateUs, simulatorUs] = await session.evaluate(evaluatePerCall,
      [['simulator', 'hardware', 'related', 'commands'], ['simulator']]);
    return {
      engine: session.version, control_ms: median(bare), page_ms: median(page),
      evaluate_us: evaluateUs, evaluate_simulator_us: simulatorUs,
    };
  } finally {
    await session.close();
  }
}

const site = await startServer(siteDir, { headers: noStore });
const control = await startServer(path.join(repoRoot, 'tests/bench/control'), { headers: noStore });
const results = [];
try {
  for (const engine of selectedEngines()) results.push(await measure(engine, site, control));
} finally {
  await site.close();
  await control.close();
}
console.log('engine'.padEnd(58), 'control', 'first numbers', 'over control',
  'evaluate() per slider move: every section / the simulator alone');
for (const r of results) {
  console.log(r.engine.padEnd(58), `${r.control_ms.toFixed(0)} ms`.padEnd(7), `${r.page_ms.toFixed(0)} ms`.padEnd(13),
    `+${(r.page_ms - r.control_ms).toFixed(0)} ms`.padEnd(12),
    `${r.evaluate_us.toFixed(0)} µs / ${r.evaluate_simulator_us.toFixed(0)} µs`);
}
await mkdir(path.join(repoRoot, 'build-wasm/bench'), { recursive: true });
await writeFile(path.join(repoRoot, 'build-wasm/bench/engines.json'), `${JSON.stringify(results, null, 2)}\n`);
process.exit(0);  // every session is closed; a driver's leftover handle must not keep Node waiting
