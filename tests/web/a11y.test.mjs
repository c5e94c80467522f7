// Accessibility (axe-core, run inside the page) and screenshots of the built page: desktop
// 1280×900 and phone 390×844, light and dark, full page, written to build-wasm/screenshots/.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  TEST_TIMEOUT_MS, assertHealthy, launch, openPage, settle, siteDir,
} from './support/harness.mjs';

const require = createRequire(import.meta.url);
const screenshotDir = path.join(path.dirname(siteDir), 'screenshots'); // build-wasm/screenshots
const BLOCKING = new Set(['serious', 'critical']);

let env;
let axeSource;

/** Runs axe on the whole document; returns its violations (rule id, impact, node selectors). */
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    // As a DevTools expression, not a <script>: the page's Content-Security-Policy allows no
    // inline script, and the scan needs no exception to it.
    await page.evaluate(axeSource);
  }
  return page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({
        target: node.target.join(' '),
        summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
      })),
    }));
  });
}

function describeViolation(violation) {
  const nodes = violation.nodes.map((node) => `    ${node.target} — ${node.summary}`).join('\n');
  return `${violation.impact}: ${violation.id} (${violation.help}), ${violation.nodes.length} node(s):\n${nodes}`;
}

/** Fails on serious or critical violations; reports the others as diagnostics. */
async function assertAccessible(t, page, where) {
  const violations = await axeViolations(page);
  for (const violation of violations.filter((v) => !BLOCKING.has(v.impact))) {
    // One diagnostic line each (TAP escapes line breaks inside one).
    t.diagnostic(`${where}: ${violation.impact}: ${violation.id} (${violation.help}), ${violation.nodes.length} node(s)`);
    for (const node of violation.nodes) t.diagnostic(`${where}:   ${node.target} — ${node.summary}`);
  }
  const blocking = violations.filter((v) => BLOCKING.has(v.impact));
  assert.deepEqual(blocking.map(describeViolation), [], `${where}: axe reports serious or critical violations`);
}

describe('accessibility and screenshots', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  before(async () => {
    axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    env = await launch();
  }, { timeout: TEST_TIMEOUT_MS });
  after(async () => env?.close(), { timeout: TEST_TIMEOUT_MS });
  beforeEach(async () => {
    env.problems.length = 0;
    await env.page.setViewportSize({ width: 1280, height: 900 });
    await env.page.emulateMedia({ colorScheme: 'light' });
  });

  for (const [where, hash] of [['the default German page', ''], ['the English page', '#lang=en']]) {
    test(`axe finds no serious or critical violation on ${where}`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
      const { page } = env;
      await openPage(env, page, hash);
      await assertAccessible(t, page, where);
      await assertHealthy(env, page, where);
    });
  }

  test('axe finds no serious or critical violation in dark mode', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const { page } = env;
    await page.emulateMedia({ colorScheme: 'dark' });
    await openPage(env, page);
    await assertAccessible(t, page, 'the German page, dark');
    await assertHealthy(env, page, 'dark mode');
  });

  test('screenshots: desktop and phone, light and dark, full page', { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const { page } = env;
    await mkdir(screenshotDir, { recursive: true });
    const shots = [];
    for (const [device, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]]) {
      await page.setViewportSize({ width, height });
      await openPage(env, page);
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await settle(page);
        const file = path.join(screenshotDir, `${device}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        shots.push(file);
        t.diagnostic(`screenshot: ${file}`);
      }
      // Wide tables scroll inside their own box: the page itself never scrolls sideways.
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= width, `${device}: the page is ${scrollWidth} px wide in a ${width} px window`);
      await assertHealthy(env, page, `${device} screenshots`);
    }
    assert.equal(shots.length, 4);
  });
});
