// Shared set-up for the browser tests (tests/web/*.test.mjs): the built site (build-wasm/site)
// served on 127.0.0.1, Debian's Chromium driven by playwright-core, and a record of everything
// the page must never do (console errors, uncaught errors, dialogs, requests leaving 127.0.0.1).
//
// One browser context per test file: `launch()` in before(), `env.close()` in after(),
// `env.problems.length = 0` in beforeEach() so each test answers for what happens while it runs.
import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../support/static-server.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
export const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

export const TEST_TIMEOUT_MS = 60_000;
export const WAIT_MS = 15_000;
export const FORBIDDEN_TEXT = ['NaN', 'undefined', 'Infinity', '[object'];
// The page falls back to the browser's language when the link names none (German when it is
// neither German nor English). Pin a German browser so the default view is the reference
// page's whatever the machine's locale; English is tested through #lang=en and the lang select.
export const BROWSER_LOCALE = 'de-DE';

export const byTestId = (id) => `[data-testid="${id}"]`;

// Chromium's switches on this closed network: no first-run, sync or update traffic that the
// machine would refuse, no GPU (tests/web/support/engines.mjs launches it with the same).
export const CHROMIUM_ARGS = Object.freeze([
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
]);

/** Why the page cannot be tested here (a missing build or browser), or null. */
export async function missingPrerequisites() {
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

/**
 * The hooks a block of page tests shares (call it inside `describe`): one browser, launched with
 * `options` before the first test and handed to `use`, then `setUp()` awaited (the core, strings
 * or a catalog beside it); closed after the last test; its problems cleared before each.
 */
export function shareBrowser(use, { options, setUp } = {}) {
  let env;
  before(async () => {
    env = await launch(options);
    use(env);
    await setUp?.();
  }, { timeout: TEST_TIMEOUT_MS });
  after(async () => env?.close(), { timeout: TEST_TIMEOUT_MS });
  beforeEach(() => { env.problems.length = 0; });
}

/**
 * Starts the server and one persistent Chromium context; every page of the context is watched.
 * Requests to other origins are blocked, but those of `allowOrigins` (a test's offline Hub).
 * @returns {Promise<{server, context, page, origin: string, url: (hash?: string) => string,
 *                    problems: string[], close: () => Promise<void>}>}
 */
export async function launch({ locale = BROWSER_LOCALE, root = siteDir, headers, allowOrigins = [] } = {}) {
  const missing = await missingPrerequisites();
  if (missing) throw new Error(missing);

  const problems = [];
  const server = await startServer(root, { headers });
  const origin = new URL(server.url).origin;
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'vramcalc-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      locale,
      timeout: WAIT_MS,
      args: [...CHROMIUM_ARGS],
    });
  } catch (error) {
    await server.close();
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);

  // Nothing may leave 127.0.0.1: every other origin is recorded (below) and blocked (here).
  // (file: URLs are the disk, not the network: the single-file build is opened from there.)
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    const allowed = url.origin === origin || allowOrigins.includes(url.origin) || url.protocol === 'file:';
    return allowed ? route.continue() : route.abort('blockedbyclient');
  });
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol) && url.hostname !== '127.0.0.1') {
      problems.push(`request to a foreign origin: ${url.href}`);
    }
  });
  context.on('weberror', (webError) => problems.push(`uncaught error: ${webError.error()}`));

  const watch = (page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') {
        const { url, lineNumber } = message.location();
        problems.push(`console error: ${message.text()} (${url}:${lineNumber})`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.stack ?? error}`));
    page.on('crash', () => problems.push('the page crashed'));
    // alert(), confirm(), prompt() or beforeunload: the page never opens one; an injected
    // script would (see the garbage-in-the-hash test).
    page.on('dialog', (dialog) => {
      problems.push(`a ${dialog.type()} dialog opened: ${dialog.message()}`);
      dialog.dismiss().catch(() => {});
    });
  };
  context.on('page', watch);
  context.pages().forEach(watch);
  const page = context.pages()[0] ?? (await context.newPage());

  return {
    server,
    context,
    page,
    origin,
    problems,
    url: (hash = '') => new URL(hash, server.url).href,
    async close() {
      await context.close().catch(() => {});
      await server.close().catch(() => {});  // a test may have stopped it already
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Fails the current test on anything the page has logged, opened or requested so far. */
export function assertNoProblems(env) {
  assert.deepEqual(env.problems, [], `the page reported problems:\n${env.problems.join('\n')}`);
}

// The UI strings' keys (assets/i18n/de.json; en.json has the same): a translator shows the key
// itself when its table lacks one, as when a later string is asked for before it has loaded.
const STRING_KEYS = Object.keys(JSON.parse(await readFile(path.join(repoRoot, 'assets', 'i18n', 'de.json'), 'utf8')))
  .filter((key) => !key.startsWith('_'));

/**
 * The page must never show a broken value (NaN, undefined, Infinity or [object …]) or a UI
 * string's key in place of its text.
 */
export async function assertCleanBodyText(page, where) {
  const text = await page.locator('body').innerText();
  const words = new Set(text.split(/[^\w.]+/).map((word) => word.replace(/\.+$/, '')));
  for (const word of [...FORBIDDEN_TEXT, ...STRING_KEYS.filter((key) => words.has(key))]) {
    const at = text.indexOf(word);
    assert.equal(at, -1, `${where}: the page shows "${word}": …${text.slice(Math.max(0, at - 60), at + 60)}…`);
  }
}

/** Both of the above: what every test checks at its end (and wherever it likes in between). */
export async function assertHealthy(env, page, where) {
  await assertCleanBodyText(page, where);
  assertNoProblems(env);
}

/** The unrounded number (or word, for fit) that the page exposes on an output. */
export async function dataValue(page, testId) {
  return page.locator(byTestId(testId)).first().getAttribute('data-value');
}

export async function numberValue(page, testId) {
  const raw = await dataValue(page, testId);
  const value = Number(raw);
  assert.ok(raw !== null && raw !== '' && Number.isFinite(value), `data-value of ${testId} is not a number: ${raw}`);
  return value;
}

/**
 * Text as a reader sees it, with no-break spaces as spaces: the page keeps a number and its
 * unit on one line ("21,78\u00a0GB"), which reads the same as "21,78 GB".
 */
export const plainSpaces = (text) => (text === null || text === undefined ? text : text.replace(/[\u00a0\u202f]/g, ' '));

const selectorFor = (selectorOrTestId) =>
  (/^[a-z][a-z0-9-]*$/.test(selectorOrTestId) ? byTestId(selectorOrTestId) : selectorOrTestId);

/** The text an element shows (innerText, no-break spaces as spaces). */
export async function shownText(page, selectorOrTestId) {
  return plainSpaces(await page.locator(selectorFor(selectorOrTestId)).first().innerText());
}

/**
 * Waits until `read()` inside the page returns something for which `accept` holds; fails with
 * `what`, the last value seen and the problems so far. `read` runs in the page (a function).
 */
async function waitInPage(env, page, read, arg, accept, what) {
  let last;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    last = await page.evaluate(read, arg);
    if (accept(last)) return last;
    if (Date.now() > deadline) {
      assert.fail(`${what} (still ${JSON.stringify(last)} after ${WAIT_MS} ms); problems: ${
        env.problems.join('; ') || 'none'}`);
    }
    await page.waitForTimeout(25);
  }
}

/** Waits until an output has a data-value different from `previous` (any value when undefined). */
export async function waitForDataValue(env, page, testId, previous) {
  return waitInPage(env, page,
    (selector) => document.querySelector(selector)?.getAttribute('data-value') ?? null,
    byTestId(testId),
    (value) => value !== null && value !== '' && value !== (previous ?? null),
    `data-value of ${testId} did not ${previous === undefined ? 'appear' : `change from ${previous}`}`);
}

/** In the page: the shown text (innerText, no-break spaces as spaces) of the element `sel` selects. */
const readShownText = (sel) => document.querySelector(sel)?.innerText?.replace(/[\u00a0\u202f]/g, ' ') ?? null;

/** Waits until the element's shown text (innerText, no-break spaces as spaces) equals `expected`. */
export async function waitForText(env, page, selectorOrTestId, expected) {
  return waitInPage(env, page, readShownText, selectorFor(selectorOrTestId), (text) => text === expected,
    `${selectorOrTestId} should read ${JSON.stringify(expected)}`);
}

/** Waits until the element's shown text (as waitForText reads it) matches the regular expression `pattern`. */
export async function waitForMatch(env, page, selectorOrTestId, pattern) {
  return waitInPage(env, page, readShownText, selectorFor(selectorOrTestId), (text) => text !== null && pattern.test(text),
    `${selectorOrTestId} should match ${pattern}`);
}

/** Waits until the element's data-value equals `expected` (compared as strings). */
export async function waitForExactDataValue(env, page, testId, expected) {
  return waitInPage(env, page,
    (sel) => document.querySelector(sel)?.getAttribute('data-value') ?? null,
    byTestId(testId),
    (value) => value === String(expected),
    `data-value of ${testId} should become ${expected}`);
}

/** The page link's settings: "#model=x&lang=en" → URLSearchParams. */
export const hashParams = (hash) => new URLSearchParams(hash.replace(/^#/, ''));
/** A waitForHash predicate: the link sets `key` to `value` (null: leaves it out). */
export const hashHas = (key, value) => (hash) => hashParams(hash).get(key) === value;

/** Waits until a predicate on location.hash holds (the page writes the hash with replaceState). */
export async function waitForHash(env, page, accept, what) {
  return waitInPage(env, page, () => location.hash, null, accept, what);
}

/** Loads the page afresh (hash included) and waits until the first result is rendered. */
export async function openPage(env, page, hash = '') {
  await page.goto('about:blank'); // a hash-only change would not reload the page
  await page.goto(env.url(hash), { waitUntil: 'load', timeout: WAIT_MS });
  await waitForDataValue(env, page, 'total');
  // The sections below the fold come a moment after the first numbers: the page is whole once
  // it is no longer busy.
  await page.locator('#page[aria-busy="false"]').waitFor({ state: 'attached', timeout: WAIT_MS });
}

/** Lets the page finish what an input started (it renders on animation frames). */
export async function settle(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

export function assertClose(actual, expected, tolerance, what) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

/**
 * The same wasm core run in Node: the expected value where the reference page has none
 * (e.g. context 65536). Reference values are never taken from here: see support/reference.mjs.
 */
export async function loadCore() {
  const { default: createVramcalc } = await import(pathToFileURL(path.join(siteDir, 'vramcalc-full.mjs')).href);
  // vramcalc-full.wasm: the one that also reads config.json files (the page loads it for those).
  const core = await createVramcalc({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc-full.wasm')) });
  return {
    /** The core's simulator answer for the reference scenario changed by `request`. */
    simulator(request) {
      const response = core.evaluate({ model: 'glm-4-32b-0414', ...request });
      assert.equal(response.ok, true, `core rejected ${JSON.stringify(request)}: ${JSON.stringify(response.error)}`);
      return response.simulator;
    },
    /** The catalog the page reads (selectors, strings, vocabularies). */
    catalog() {
      return core.catalog();
    },
    /** The core's whole answer for the reference scenario changed by `request`. */
    evaluate(request) {
      const response = core.evaluate({ model: 'glm-4-32b-0414', ...request });
      assert.equal(response.ok, true, `core rejected ${JSON.stringify(request)}: ${JSON.stringify(response.error)}`);
      return response;
    },
  };
}
