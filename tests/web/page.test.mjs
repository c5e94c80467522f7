// The built site (build-wasm/site) in headless Chromium: the page must show the reference numbers,
// follow its inputs, load nothing from outside 127.0.0.1 and log no errors.
//
// Needs the wasm build (`emcmake cmake -S . -B build-wasm -G Ninja && cmake --build build-wasm`)
// and Debian's Chromium at /usr/bin/chromium (CHROMIUM overrides the path). Run with
// `npm run test:web`.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../support/static-server.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

const TEST_TIMEOUT_MS = 60_000;
const WAIT_MS = 15_000;
const REFERENCE = { total: 21.78, decode: 27.3, maxContext: 61544, fit: 'tight' }; // shared/reference/glm-4-32b-0414.txt
const FORBIDDEN_TEXT = ['NaN', 'undefined', 'Infinity', '[object'];
// The page falls back to the browser's language when the link names none (German when it is
// neither German nor English). Pin a German browser so the default view is the reference
// page's whatever the machine's locale; #lang=en is tested separately.
const BROWSER_LOCALE = 'de-DE';

let server;
let userDataDir;
let context;
let page;
let core; // the same wasm module, run in Node, for expected values
const problems = []; // console errors, page errors and foreign requests, as they happen

const byTestId = (id) => `[data-testid="${id}"]`;

/** Why the page cannot be tested here (a missing build or browser), or null. */
async function missingPrerequisites() {
  const buildHint = 'build the site first: `emcmake cmake -S . -B build-wasm -G Ninja && cmake --build build-wasm`';
  const required = [
    [path.join(siteDir, 'index.html'), buildHint],
    [path.join(siteDir, 'vramcalc.mjs'), buildHint],
    [path.join(siteDir, 'vramcalc.wasm'), buildHint],
    [chromiumPath, "install Debian's chromium (`apt-get install chromium`) or set CHROMIUM"],
  ];
  const missing = [];
  for (const [file, hint] of required) {
    await access(file).catch(() => missing.push(`${file} is missing: ${hint}`));
  }
  return missing.length > 0 ? missing.join('\n') : null;
}

// Without the build or the browser this fails with the instructions (the page tests are cancelled).
test('the site and Chromium are present', async () => {
  const missing = await missingPrerequisites();
  assert.equal(missing, null, missing ?? '');
});

async function setUp() {
  const missing = await missingPrerequisites();
  if (missing) throw new Error(missing);

  const { default: createVramcalc } = await import(pathToFileURL(path.join(siteDir, 'vramcalc.mjs')).href);
  core = await createVramcalc({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc.wasm')) });

  server = await startServer(siteDir);
  userDataDir = await mkdtemp(path.join(tmpdir(), 'vramcalc-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    locale: BROWSER_LOCALE,
    timeout: WAIT_MS,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);

  // Nothing may leave 127.0.0.1: every other origin is recorded (below) and blocked (here).
  const serverOrigin = new URL(server.url).origin;
  await context.route('**/*', (route) =>
    new URL(route.request().url()).origin === serverOrigin ? route.continue() : route.abort('blockedbyclient'),
  );
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol) && url.hostname !== '127.0.0.1') {
      problems.push(`request to a foreign origin: ${url.href}`);
    }
  });
  context.on('weberror', (webError) => problems.push(`uncaught error: ${webError.error()}`));

  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const { url, lineNumber } = message.location();
      problems.push(`console error: ${message.text()} (${url}:${lineNumber})`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.stack ?? error}`));
  page.on('crash', () => problems.push('the page crashed'));
}

async function tearDown() {
  await context?.close();
  await server?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
}

/** Fails the current test on anything the page has logged or requested so far. */
function assertNoProblems() {
  assert.deepEqual(problems, [], `the page reported problems:\n${problems.join('\n')}`);
}

/** The unrounded number (or word, for fit) that the page exposes on an output. */
async function dataValue(testId) {
  return page.locator(byTestId(testId)).getAttribute('data-value');
}

async function numberValue(testId) {
  const raw = await dataValue(testId);
  const value = Number(raw);
  assert.ok(raw !== null && raw !== '' && Number.isFinite(value), `data-value of ${testId} is not a number: ${raw}`);
  return value;
}

/** Waits until an output has a data-value different from `previous` (any value when undefined). */
async function waitForDataValue(testId, previous) {
  const handle = await page.waitForFunction(
    ([selector, old]) => {
      const value = document.querySelector(selector)?.getAttribute('data-value');
      return value !== null && value !== undefined && value !== '' && value !== old ? value : false;
    },
    [byTestId(testId), previous ?? null],
    { timeout: WAIT_MS },
  ).catch(async (error) => {
    throw new Error(
      `data-value of ${testId} did not ${previous === undefined ? 'appear' : `change from ${previous}`} ` +
        `within ${WAIT_MS} ms (now ${await dataValue(testId).catch(() => '?')}); problems: ${problems.join('; ') || 'none'}`,
      { cause: error },
    );
  });
  return handle.jsonValue();
}

/** Loads the page afresh (hash included) and waits until the first result is rendered. */
async function openPage(hash = '') {
  await page.goto('about:blank'); // a hash-only change would not reload the page
  await page.goto(new URL(hash, server.url).href, { waitUntil: 'load', timeout: WAIT_MS });
  await waitForDataValue('total');
}

/** Lets the page finish what an input started (it renders on animation frames). */
async function settle() {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

function assertClose(actual, expected, tolerance, what) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

async function assertCleanBodyText(where) {
  const text = await page.locator('body').innerText();
  for (const word of FORBIDDEN_TEXT) {
    const at = text.indexOf(word);
    assert.equal(at, -1, `${where}: the page shows "${word}": …${text.slice(Math.max(0, at - 60), at + 60)}…`);
  }
}

function coreTotal(request) {
  const response = JSON.parse(core.evaluate(JSON.stringify({ model: 'glm-4-32b-0414', ...request })));
  assert.equal(response.ok, true, `core rejected ${JSON.stringify(request)}: ${JSON.stringify(response.error)}`);
  return response.simulator.total_gib;
}

describe('vramcalc page', { timeout: TEST_TIMEOUT_MS * 6 }, () => {
  before(setUp, { timeout: TEST_TIMEOUT_MS });
  after(tearDown, { timeout: TEST_TIMEOUT_MS });
  beforeEach(() => {
    problems.length = 0; // each test answers for what happens while it runs
  });

  test('shows the reference numbers by default (German)', { timeout: TEST_TIMEOUT_MS }, async () => {
    await openPage();
    assertClose(await numberValue('total'), REFERENCE.total, 0.005, 'total');
    assertClose(await numberValue('per-device'), REFERENCE.total, 0.005, 'per device');
    assertClose(await numberValue('weights'), 18.07, 0.005, 'weights');
    assertClose(await numberValue('kv-cache'), 1.91, 0.005, 'KV cache');
    assertClose(await numberValue('overhead'), 1.81, 0.005, 'overhead');
    assertClose(await numberValue('decode'), REFERENCE.decode, 0.05, 'decode tok/s');
    assert.equal(await numberValue('max-context'), REFERENCE.maxContext, 'max context');
    assertClose(await numberValue('kv-saving'), 95.8, 0.05, 'KV saving %');
    assert.equal(await dataValue('fit'), REFERENCE.fit, 'fit');
    const totalText = await page.locator(byTestId('total')).innerText();
    assert.ok(totalText.includes('21,78'), `total should read "21,78" (German), reads "${totalText}"`);
    await assertCleanBodyText('default page');
    assertNoProblems();
  });

  test('arrow keys on the context slider move the total', { timeout: TEST_TIMEOUT_MS }, async () => {
    await openPage();
    const original = await dataValue('total');
    const slider = page.locator(byTestId('context'));
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    const larger = await waitForDataValue('total', original);
    assert.ok(Number(larger) > Number(original), `ArrowRight: total ${larger} should exceed ${original}`);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    const smaller = await waitForDataValue('total', larger);
    // Two steps left may pass through the original value; wait for the final one.
    const settled = Number(smaller) < Number(original) ? smaller : await waitForDataValue('total', smaller);
    assert.ok(Number(settled) < Number(original), `ArrowLeft twice: total ${settled} should be below ${original}`);
    await assertCleanBodyText('after the arrow keys');
    assertNoProblems();
  });

  test('typing 65536 into the context field updates the total', { timeout: TEST_TIMEOUT_MS }, async () => {
    await openPage();
    const original = await dataValue('total');
    const sliderBefore = await page.locator(byTestId('context')).inputValue();
    const field = page.locator(byTestId('context-number'));
    await field.fill('65536');
    await field.press('Enter');
    await field.dispatchEvent('change');
    const total = Number(await waitForDataValue('total', original));
    assert.ok(total > Number(original), `context 65536: total ${total} should exceed ${original}`);
    assertClose(total, coreTotal({ context: 65536 }), 0.005, 'total at context 65536 (vs the core)');
    assert.equal(await field.inputValue(), '65536', 'the context field keeps 65536');
    const sliderAfter = await page.locator(byTestId('context')).inputValue();
    assert.notEqual(sliderAfter, sliderBefore, 'the context slider follows the field');
    await assertCleanBodyText('at context 65536');
    assertNoProblems();
  });

  test('choosing FP16 shows its weights', { timeout: TEST_TIMEOUT_MS }, async () => {
    await openPage();
    const weightsBefore = await dataValue('weights');
    await page.locator(byTestId('format')).selectOption('FP16');
    const weights = Number(await waitForDataValue('weights', weightsBefore));
    assert.equal(weights.toFixed(2), '59.60', `FP16 weights: ${weights}`);
    assertClose(await numberValue('total'), coreTotal({ format: 'FP16' }), 0.005, 'FP16 total (vs the core)');
    await assertCleanBodyText('with FP16');
    assertNoProblems();
  });

  test('English, other selections and no errors throughout', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    await openPage('#lang=en');
    const englishTotal = await page.locator(byTestId('total')).innerText();
    assert.ok(englishTotal.includes('21.78'), `#lang=en: total should read "21.78", reads "${englishTotal}"`);
    await assertCleanBodyText('#lang=en');

    await openPage();
    const lastOption = (options) => options.at(-1);
    const selections = [
      ['lang', 'en'], ['model', 'glm-4-9b-0414'], ['device', 'apple-m-max-64gb'], ['kv', 'q8_0'],
      ['batch', lastOption], ['format', 'IQ4_XS'], ['device', 'rtx-3060-12gb'], ['kv', 'q4_0'],
      ['model', 'glm-4-32b-0414'], ['format', 'FP16'], ['lang', 'de'],
    ];
    for (const [testId, choose] of selections) {
      const select = page.locator(byTestId(testId));
      const options = await select.locator('option').evaluateAll((nodes) => nodes.map((o) => o.value));
      const value = typeof choose === 'function' ? choose(options) : choose;
      assert.ok(options.includes(value), `select ${testId} lacks option ${value} (has ${options.join(', ')})`);
      await select.selectOption(value);
      await settle();
      await assertCleanBodyText(`after ${testId}=${value}`);
      for (const id of ['total', 'weights', 'kv-cache', 'decode']) {
        await numberValue(id); // still a number in every state
      }
      assert.ok(['comfortable', 'tight', 'no_fit'].includes(await dataValue('fit')), `fit after ${testId}=${value}`);
    }
    // The final view is the core's answer for what the selectors now say.
    const chosen = async (testId) => page.locator(byTestId(testId)).inputValue();
    const expected = coreTotal({
      model: await chosen('model'), format: await chosen('format'), device: await chosen('device'),
      kv_dtype: await chosen('kv'), batch: Number(await chosen('batch')), lang: await chosen('lang'),
    });
    assertClose(await numberValue('total'), expected, 0.005, 'total after all selections (vs the core)');
    const totalText = await page.locator(byTestId('total')).innerText();
    const german = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(expected);
    assert.ok(totalText.includes(german), `total should read "${german}" (German), reads "${totalText}"`);
    assertNoProblems();
  });
});
