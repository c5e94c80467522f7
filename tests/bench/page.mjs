// The benchmark's measurements of a page in Chromium (bench.mjs, and ab.mjs for an interleaved
// A/B of two builds): cold loads and the main-thread time per input change.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../support/static-server.mjs';
import { paintedAt } from './painted.mjs';

const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * A file's size, raw and gzip at level 9; a file the site does not have counts nothing (a
 * browser's own request, such as the control page's /favicon.ico, answered 404).
 */
export const sizeOf = async (dir, file) => {
  const bytes = await readFile(path.join(dir, file)).catch((error) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (bytes === null) return { file, raw: 0, gzip: 0, missing: true };
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

const launch = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'vramcalc-bench-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath, headless: true, locale: 'de-DE',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { context, close: async () => { await context.close(); await rm(dir, { recursive: true, force: true }); } };
};
const firstNumbers = (page) => page.waitForFunction(() => performance.getEntriesByName('vramcalc:first-numbers').length > 0);

/**
 * Five cold loads: when the first numbers were painted, the script mark, the time the page is
 * whole, and which files finished before the first numbers were painted in every load.
 */
export async function coldLoads(url, count = 5) {
  const times = [];
  const marks = [];
  const wholes = [];
  let files = null;
  for (let i = 0; i < count; i += 1) {
    const { context, close } = await launch();
    const page = context.pages()[0] ?? await context.newPage();
    await page.addInitScript(() => {  // the moment the last aria-busy="true" goes
      new MutationObserver(() => {
        if (!window.vramcalcWhole && !document.querySelector('[aria-busy="true"]')) window.vramcalcWhole = performance.now();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
      // A build from before 2026-12-04 has no elementtiming on its total: given it as it is
      // parsed, an A/B (ab.mjs) measures both builds the same way.
      const timing = new MutationObserver(() => {
        const total = document.getElementById('total');
        if (!total) return;
        if (!total.hasAttribute('elementtiming')) total.setAttribute('elementtiming', 'total');
        timing.disconnect();
      });
      timing.observe(document, { subtree: true, childList: true });
    });
    await page.goto(url);
    const painted = await page.evaluate(paintedAt);
    if (painted === null) throw new Error(`${url}: the first numbers were not painted within 30 s`);
    await page.waitForFunction(() => window.vramcalcWhole || !document.querySelector('[aria-busy]'));
    // The page's own Resource Timing: the document and every response that ended before the
    // first numbers were painted (one that ends after it, while the test waits, does not count).
    const seen = await page.evaluate((at) => {
      const mark = performance.getEntriesByName('vramcalc:first-numbers')[0].startTime;
      const ended = performance.getEntriesByType('resource').filter((e) => e.responseEnd > 0 && e.responseEnd <= at);
      return { mark, paths: [location.pathname, ...ended.map((e) => new URL(e.name).pathname)] };
    }, painted);
    times.push(painted);
    marks.push(seen.mark);
    // Not before its first numbers are painted (the control: then).
    wholes.push(Math.max(painted, await page.evaluate((mark) => window.vramcalcWhole ?? mark, seen.mark)));
    // The files every load had before its first numbers: what the paint waits for. A response
    // that one load's idle time let finish first (another language's strings) is not.
    const loaded = [...new Set(seen.paths.map((p) => decodeURIComponent(p.slice(1)) || 'index.html'))];
    files = files === null ? loaded : files.filter((file) => loaded.includes(file));
    await close();
  }
  return {
    median: median(times), runs: times, mark: { median: median(marks), runs: marks },
    whole: { median: median(wholes), runs: wholes }, files,
  };
}

export const CHANGES = 200;
const METRICS = ['ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'TaskDuration'];
// A frame is missed when the gap between two animation frames is over one and a half frame
// intervals at 60 Hz: headless Chromium's frame clock alone spaces frames 16.5-16.8 ms apart, so
// 15-35 % of the control's own gaps are over 16.7 ms.
export const MISSED_GAP_MS = 25;
/** Main-thread time per input change, net of the frames alone, and the frames missed. */
export async function perChange(url) {
  const { context, close } = await launch();
  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(url);
  await firstNumbers(page);
  // The page is whole (its sections below the simulator come with vramcalc-full.wasm after the
  // first numbers); the control page has nothing busy.
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics
    .filter((m) => METRICS.includes(m.name)).map((m) => [m.name, m.value * 1000]));
  const loop = async (change) => {
    const before = await metrics();
    const stamps = await page.evaluate(async ({ count, change: moves }) => {
      const range = document.querySelector('[data-testid="context"]');
      const frames = [];
      for (let i = 0; i < count; i += 1) {
        if (moves) {
          range.value = String(9 + (i % 12));
          range.dispatchEvent(new Event('input', { bubbles: true }));
        }
        frames.push(await new Promise((resolve) => requestAnimationFrame(resolve)));
      }
      return frames;
    }, { count: CHANGES, change });
    const after = await metrics();
    return { delta: Object.fromEntries(METRICS.map((m) => [m, after[m] - before[m]])), stamps };
  };
  await loop(true);  // warm-up: the baseline compiler's code, the first layouts
  const idle = await loop(false);
  const moving = await loop(true);
  await close();
  const net = (names) => names.reduce((sum, m) => sum + moving.delta[m] - idle.delta[m], 0) / CHANGES;
  const gaps = moving.stamps.slice(1).map((t, i) => t - moving.stamps[i]);
  return {
    changes: CHANGES,
    script_style_layout_ms: net(METRICS.slice(0, 3)),
    task_ms: net(['TaskDuration']),
    frames_missed: gaps.filter((gap) => gap > MISSED_GAP_MS).length,
    frames: gaps.length,
  };
}

export async function measurePage(dir) {
  const server = await startServer(dir);
  const loads = await coldLoads(server.url);
  const change = await perChange(server.url);
  await server.close();
  const sizes = await Promise.all(loads.files.map((file) => sizeOf(dir, file)));
  return {
    first_result_ms: { median: loads.median, runs: loads.runs },
    first_numbers_mark_ms: loads.mark,
    whole_ms: loads.whole,
    first_result_bytes: { files: sizes, raw: sizes.reduce((s, f) => s + f.raw, 0), gzip: sizes.reduce((s, f) => s + f.gzip, 0) },
    per_change: change,
  };
}

