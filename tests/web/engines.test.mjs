// "Opens in any browser": the core scenarios, written once and run in every engine that
// support/engines.mjs drives here (Chromium, Firefox, WebKit): the reference page's numbers
// in German and English, the context slider by keyboard, a shared link reopened, serving, a model
// that does not fit with the plan that runs it with offload and its command, garbage in the link,
// the fits view and the tables' exports, the widget in a host page under a strict
// Content-Security-Policy, the npm package in a documentation project, the single file opened
// from disk, the page reloaded offline through its service worker, and a model imported from the
// offline Hub (tests/support/hub-server.mjs) by its repo id.
//
// Every page carries support/page-probe.js, so each engine reports uncaught errors, CSP
// violations, console.error, dialogs and foreign requests the same way; the drivers add what
// they see themselves. An engine that fails a scenario is a bug in web/, not in this file.
//
//   node --test --test-concurrency=1 tests/web/engines.test.mjs
//   VRAMCALC_ENGINES=firefox node --test tests/web/engines.test.mjs   # one engine
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startHubServer } from '../support/hub-server.mjs';
import { startServer } from '../support/static-server.mjs';
import { selectedEngines } from './support/engines.mjs';
import {
  FORBIDDEN_TEXT, TEST_TIMEOUT_MS, WAIT_MS, hashParams, missingPrerequisites, repoRoot, siteDir,
} from './support/harness.mjs';
import { REFERENCE, referenceNumber, toGerman } from './support/reference.mjs';
import { cliEvaluate, cliFits } from './support/sweep-cli.mjs';
import { parseCsv } from './support/csv.mjs';
import { installedProject } from './support/package-project.mjs';
import { readReferenceView, referenceViewDifferences } from './support/reference-view.mjs';

const PROBE_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/page-probe.js');
const LANGUAGES = ['de-DE', 'de'];  // a German browser: the default view is the reference page's
const WIDGET_PATH = 'docs/assets/vramcalc';
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "object-src 'none'; base-uri 'none'";
const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<link rel="icon" href="/${WIDGET_PATH}/icons/icon.svg">
<script src="/test-probe.js"></script>
<script type="module" src="/${WIDGET_PATH}/widget.js"></script>
</head><body>
<h1>Model docs</h1>
<vram-calculator id="a" model="glm-4-32b-0414" lang="de" sections="simulator,matrix"></vram-calculator>
<vram-calculator id="b" model="glm-4-9b-0414" format="Q8_0" context="65536" device="rtx-4090-24gb" lang="en">
</vram-calculator>
<vram-calculator id="c" view="fits" device="rtx-4090-24gb" context="8192" lang="en"></vram-calculator>
</body></html>`;
// The README's kind of shared link. GLM-4-9B-0414 at Q8_0, 65,536 tokens on an RTX 4090:
// W = 9,400,279,040 × 8.5 / 8 B = 9.3019 GiB, K = 2 × 40 × 2 × 128 × 2 B × 65,536 = 2.5 GiB,
// O = 0.85 + 0.03 W + 0.04 + 0.25 = 1.4191: 13.22 GB (as tests/web/widget.test.mjs).
const SHARED_LINK = '#model=glm-4-9b-0414&format=Q8_0&context=65536&device=rtx-4090-24gb&lang=en';
const GARBAGE = '#context=abc&model=<img src=x onerror=alert(1)>&batch=-3&format=Q3&foo=bar';

// The reference page's totals for Q4_K_M at the matrix's contexts (support/reference.mjs).
const Q4_K_M = REFERENCE.matrix.find(([format]) => format === 'Q4_K_M');
const TOTAL_AT = { 8192: Q4_K_M[4], 32768: Q4_K_M[5], 131072: Q4_K_M[6] };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- run in the page (each uses nothing from outside itself) ----

/** An output's shown text (no-break spaces as spaces) and data-value, in a widget when host is set. */
function readOutput({ host, testid }) {
  const root = host ? document.querySelector(host)?.shadowRoot : document;
  const element = root?.querySelector(`[data-testid="${testid}"]`);
  if (!element) return null;
  return { text: element.innerText.replace(/[\u00a0\u202f]/g, ' '), value: element.getAttribute('data-value') };
}

/** Focuses an element (in a widget when host is set); true when it has the focus. */
function focusElement({ host, selector }) {
  const root = host ? document.querySelector(host)?.shadowRoot : document;
  const element = root?.querySelector(selector);
  element?.focus();
  return element !== null && element !== undefined && root.activeElement === element;
}

/** Every output and control of the page: what a shared link must reproduce. */
function readSnapshot() {
  const plain = (text) => text.replace(/[\u00a0\u202f]/g, ' ');
  const outputs = {};
  for (const element of document.querySelectorAll('output[data-testid], dd[data-testid], [data-testid^="share-"],'
    + ' [data-testid="fit"], [data-testid="kv-saving"], [data-testid="per-device"]')) {
    outputs[element.dataset.testid] = { text: plain(element.innerText), value: element.getAttribute('data-value') };
  }
  const controls = {};
  for (const element of document.querySelectorAll('select[data-testid], input[data-testid]')) {
    controls[element.dataset.testid] = element.value;
  }
  return { outputs, controls, lang: document.documentElement.lang, title: document.title };
}

/**
 * Clicks the button `testid` and returns the CSV it saves: the page's download (a Blob behind
 * an <a download> it clicks) is caught before it leaves, whatever the engine does with files.
 */
async function csvDownload(testid) {
  const click = HTMLAnchorElement.prototype.click;
  const createObjectURL = URL.createObjectURL;
  const blobs = new Map();
  let saved = null;
  URL.createObjectURL = (blob) => {
    const url = createObjectURL.call(URL, blob);
    blobs.set(url, blob);
    return url;
  };
  HTMLAnchorElement.prototype.click = function catchDownload() {
    if (this.download && blobs.has(this.href)) saved = { name: this.download, blob: blobs.get(this.href) };
    else click.call(this);
  };
  try {
    document.querySelector(`[data-testid="${testid}"]`).click();
    for (let i = 0; i < 100 && !saved; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    HTMLAnchorElement.prototype.click = click;
    URL.createObjectURL = createObjectURL;
  }
  return saved && { name: saved.name, type: saved.blob.type, text: await saved.blob.text() };
}

/** Clicks "Copy as Markdown" (`testid`): what the clipboard got, or the box it shows instead. */
async function markdownCopy(testid) {
  const button = document.querySelector(`[data-testid="${testid}"]`);
  let written = null;
  const clipboard = navigator.clipboard;
  const original = clipboard?.writeText;
  if (clipboard) clipboard.writeText = (text) => { written = text; return original.call(clipboard, text); };
  try {
    button.click();
    for (let i = 0; i < 100; i += 1) {
      const box = document.querySelector('[data-testid="copy-by-hand"]');
      if (button.dataset.copied || box) return { copied: Boolean(button.dataset.copied), text: box?.value ?? written };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return null;
  } finally {
    if (clipboard) clipboard.writeText = original;
  }
}

/** All the text a reader sees, widgets' shadow roots included, and the page probe's report. */
function readHealth() {
  const texts = [document.body?.innerText ?? ''];
  for (const element of document.querySelectorAll('*')) {
    if (element.shadowRoot) for (const child of element.shadowRoot.children) texts.push(child.innerText ?? '');
  }
  return { text: texts.join('\n'), report: window.__vramcalcProbe?.report() ?? null };
}

// ---- engine-neutral steps ----

/** Polls `fn(arg)` in the page until `accept` holds for its result; fails with `what`. */
async function waitUntil(session, fn, arg, accept, what) {
  const deadline = Date.now() + WAIT_MS;
  let last;
  for (;;) {
    last = await session.evaluate(fn, arg);
    if (accept(last)) return last;
    if (Date.now() > deadline) {
      assert.fail(`${session.version}: ${what} (still ${JSON.stringify(last)} after ${WAIT_MS} ms); ` +
        `driver problems: ${session.problems.join('; ') || 'none'}`);
    }
    await sleep(50);
  }
}

const waitForOutput = (session, testid, accept, what, host = null) =>
  waitUntil(session, readOutput, { host, testid }, (output) => output !== null && accept(output), what);

/**
 * A fresh load of `url` (a hash-only change would not reload), until the first numbers show and,
 * on the page, until it is whole (no longer aria-busy: the sections below the fold come later).
 */
async function open(session, url, host = null) {
  await session.goto('about:blank');
  await session.goto(url);
  const total = await waitForOutput(session, 'total', (output) => output.value !== null && output.value !== '',
    `${url}: the total appears`, host);
  if (!host) {
    await waitUntil(session, () => document.getElementById('page')?.getAttribute('aria-busy') ?? 'false', null,
      (busy) => busy === 'false', `${url}: the page is whole`);
  }
  return total;
}

async function pressOn(session, selector, keys, host = null) {
  assert.equal(await session.evaluate(focusElement, { host, selector }), true, `${selector} takes the focus`);
  for (const key of keys) await session.press(key);
}

/** The page shows no broken value, the probe saw nothing wrong, the driver neither. */
async function assertHealthy(session, where) {
  const { text, report } = await session.evaluate(readHealth);
  for (const word of FORBIDDEN_TEXT) {
    const at = text.indexOf(word);
    assert.equal(at, -1, `${where}: the page shows "${word}": …${text.slice(Math.max(0, at - 60), at + 60)}…`);
  }
  assert.ok(report, `${where}: the page probe did not run`);
  assert.deepEqual([...session.problems, ...report.problems], [], `${where}: problems`);
  assert.deepEqual(report.foreign, [], `${where}: resources from another origin`);
}

// ---- the sites under test: copies of the build with the probe in every page ----

let work;
let siteRoot;  // build-wasm/site with the probe first in index.html
let hostRoot;  // a documentation host: its page at /host/, the site under /docs/assets/vramcalc/
let standaloneUrl;
let siteServer;
let hostServer;
let packageProject;  // a documentation project with the npm package installed
let packageServer;
let hub;  // the offline Hub
let importServer;  // the site again, naming the offline Hub (<html data-hub-url>, connect-src)

async function insertAfterHead(file, markup) {
  const html = await readFile(file, 'utf8');
  assert.ok(html.includes('<head>'), `${file} has a <head>`);
  await writeFile(file, html.replace('<head>', `<head>\n${markup}`));
}

async function prepareSites() {
  const missingBuild = await missingPrerequisites();
  if (missingBuild) throw new Error(missingBuild);
  work = await mkdtemp(path.join(tmpdir(), 'vramcalc-engines-'));
  const probe = await readFile(PROBE_FILE, 'utf8');

  siteRoot = path.join(work, 'site');
  await cp(siteDir, siteRoot, { recursive: true });
  await writeFile(path.join(siteRoot, 'test-probe.js'), probe);
  await insertAfterHead(path.join(siteRoot, 'index.html'), '<script src="test-probe.js"></script>');
  // The service worker precaches the probe too (the build's own step, as tests/web/pwa.test.mjs).
  execFileSync('cmake', [`-DSITE_DIR=${siteRoot}`, `-DTEMPLATE=${path.join(repoRoot, 'web/sw.js')}`, '-P',
    path.join(repoRoot, 'web/tools/service_worker.cmake')]);

  hostRoot = path.join(work, 'host-site');
  await cp(siteDir, path.join(hostRoot, WIDGET_PATH), { recursive: true });
  await mkdir(path.join(hostRoot, 'host'));
  await writeFile(path.join(hostRoot, 'host/index.html'), HOST_PAGE);
  await writeFile(path.join(hostRoot, 'test-probe.js'), probe);

  // The single file allows inline scripts (its own are inline), so the probe goes in inline.
  const standalone = path.join(work, 'vramcalc.html');
  await copyFile(path.join(siteDir, 'vramcalc-standalone.html'), standalone);
  await insertAfterHead(standalone, `<script>${probe}</script>`);
  standaloneUrl = pathToFileURL(standalone).href;

  packageProject = await installedProject();
  await writeFile(path.join(packageProject, 'test-probe.js'), probe);
  await insertAfterHead(path.join(packageProject, 'index.html'), '<script src="test-probe.js"></script>');
  packageServer = await startServer(packageProject);

  hub = await startHubServer();
  const importRoot = path.join(work, 'import-site');
  await cp(siteRoot, importRoot, { recursive: true });
  const importIndex = path.join(importRoot, 'index.html');
  const policy = "connect-src 'self'";
  await writeFile(importIndex, (await readFile(importIndex, 'utf8'))
    .replace('<html ', `<html data-hub-url="${hub.url}" `).replace(policy, `${policy} ${hub.url} ${hub.cdnUrl}`));
  importServer = await startServer(importRoot);

  siteServer = await startServer(siteRoot);
  hostServer = await startServer(hostRoot, {
    headers: (file) => (file === 'host/index.html' ? { 'Content-Security-Policy': STRICT_CSP } : {}),
  });
}

before(prepareSites, { timeout: TEST_TIMEOUT_MS });
after(async () => {
  await siteServer?.close();
  await hostServer?.close();
  await packageServer?.close();
  await importServer?.close();
  await hub?.close();
  if (work) await rm(work, { recursive: true, force: true });
  if (packageProject) await rm(packageProject, { recursive: true, force: true });
}, { timeout: TEST_TIMEOUT_MS });

for (const engine of selectedEngines()) {
  describe(engine.name, { timeout: TEST_TIMEOUT_MS * 10 }, () => {
    let session;
    const siteUrl = (hash = '') => new URL(hash, siteServer.url).href;

    before(async () => {
      const missing = await engine.prerequisites();
      if (missing) throw new Error(missing);
      session = await engine.launch({ languages: LANGUAGES });
    }, { timeout: TEST_TIMEOUT_MS });
    after(async () => session?.close(), { timeout: TEST_TIMEOUT_MS });
    beforeEach(() => { session.problems.length = 0; });

    test('the default page shows every number of the reference page in German', { timeout: TEST_TIMEOUT_MS },
      async (t) => {
        await open(session, siteUrl());
        const languages = await session.evaluate(() => navigator.languages.join(', '));
        t.diagnostic(`${session.version}; navigator.languages: ${languages}`);
        const wrong = referenceViewDifferences(await session.evaluate(readReferenceView), 'de');
        assert.deepEqual(wrong, [], `${session.version}: the German page differs from the reference:\n${wrong.join('\n')}`);
        assert.equal(await session.evaluate(() => document.querySelector('[data-testid="notice"]').hidden), true,
          'no notice on the default page');
        await assertHealthy(session, 'the default page');
      });

    test('#lang=en shows the same numbers in English', { timeout: TEST_TIMEOUT_MS }, async () => {
      await open(session, siteUrl('#lang=en'));
      const wrong = referenceViewDifferences(await session.evaluate(readReferenceView), 'en');
      assert.deepEqual(wrong, [], `${session.version}: the English page differs from the reference:\n${wrong.join('\n')}`);
      await assertHealthy(session, '#lang=en');
    });

    test('the context slider moves by keyboard, and the link follows', { timeout: TEST_TIMEOUT_MS }, async () => {
      await open(session, siteUrl());
      await pressOn(session, '[data-testid="context"]', ['ArrowLeft', 'ArrowLeft']);
      await waitForOutput(session, 'context-value', (o) => o.value === '8192', 'two steps left: 8,192 tokens');
      await waitForOutput(session, 'total', (o) => o.text === toGerman(TOTAL_AT[8192]), `the total at 8K: ${TOTAL_AT[8192]}`);
      assert.equal(hashParams(await session.evaluate(() => location.hash)).get('context'), '8192');

      await pressOn(session, '[data-testid="context"]', ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight']);
      await waitForOutput(session, 'context-value', (o) => o.value === '131072', 'four steps right: 131,072 tokens');
      const total = await waitForOutput(session, 'total', (o) => o.text === toGerman(TOTAL_AT[131072]),
        `the total at 128K: ${TOTAL_AT[131072]}`);
      assert.equal(Number(total.value).toFixed(2), referenceNumber(TOTAL_AT[131072]).toFixed(2));
      assert.equal(hashParams(await session.evaluate(() => location.hash)).get('context'), '131072');
      await assertHealthy(session, 'after the slider');
    });

    test('a shared link reopens the same view', { timeout: TEST_TIMEOUT_MS }, async () => {
      // The link the page wrote after a keyboard change, opened afresh.
      await open(session, siteUrl());
      await pressOn(session, '[data-testid="context"]', ['ArrowRight', 'ArrowRight']);
      await waitForOutput(session, 'total', (o) => o.text === toGerman(TOTAL_AT[131072]), 'the total at 128K');
      const hash = await waitUntil(session, () => location.hash, null,
        (h) => hashParams(h).get('context') === '131072', 'the link carries context=131072');
      // While the slider moves, sections out of view are not rendered (their text reads empty);
      // the view to compare is the one at rest.
      await waitUntil(session, () => document.getElementById('page').classList.contains('sliding'), null,
        (sliding) => sliding === false, 'the page at rest after the slider');
      const view = await session.evaluate(readSnapshot);
      await open(session, siteUrl(hash));
      await waitForOutput(session, 'context-value', (o) => o.value === '131072', 'the link restores 131,072 tokens');
      assert.deepEqual(await session.evaluate(readSnapshot), view, `${hash} reopens the same view`);
      assert.equal(await session.evaluate(() => location.hash), hash, 'opening the link leaves it as it is');
      await assertHealthy(session, 'the reopened link');

      // A link with every kind of setting, in English.
      await open(session, siteUrl(SHARED_LINK));
      const total = await waitForOutput(session, 'total', (o) => o.text === '13.22 GB', 'GLM-4-9B Q8_0 64K: 13.22 GB');
      assert.equal(Number(total.value).toFixed(2), '13.22');
      const { controls, lang } = await session.evaluate(readSnapshot);
      assert.equal(lang, 'en');
      assert.deepEqual([controls.model, controls.format, controls['context-number'], controls.device],
        ['glm-4-9b-0414', 'Q8_0', '65536', 'rtx-4090-24gb']);
      await assertHealthy(session, 'the shared link');
    });

    test('serving: a prompt typed in sets the time to first token, and the link keeps it', { timeout: TEST_TIMEOUT_MS }, async () => {
      // The CLI's answer for Qwen3-8B Q4_K_M on an RTX 4090 under llama.cpp, as the page writes it.
      const servingOf = (prompt) => cliEvaluate({ model: 'qwen3-8b', runtime: 'llamacpp', device: 'rtx-4090-24gb', prompt_tokens: prompt,
        sections: ['serving'] }).serving;
      const shown = (s) => [`${s.ttft_s.toFixed(2)} s`, `${Math.round(s.prefill_tps).toLocaleString('en')} tok/s`];
      const link = '#model=qwen3-8b&device=rtx-4090-24gb&runtime=llamacpp&lang=en';
      await open(session, siteUrl(link));
      const atDefault = servingOf(4096);
      await waitForOutput(session, 'serving-ttft', (o) => o.text === shown(atDefault)[0], 'the TTFT of a 4,096-token prompt');
      const selected = await session.evaluate((selector) => {
        const input = document.querySelector(selector);
        input.focus();
        input.select();  // the typing below replaces it
        return document.activeElement === input;
      }, '[data-testid="serving-prompt"]');
      assert.equal(selected, true, 'the prompt field takes the focus');
      for (const key of [...'20000', 'Enter']) await session.press(key);
      const longer = servingOf(20000);
      await waitForOutput(session, 'serving-ttft', (o) => o.text === shown(longer)[0], 'the TTFT of a 20,000-token prompt');
      assert.equal((await waitForOutput(session, 'serving-prefill', () => true, 'the prefill rate')).text, shown(longer)[1]);
      // The concurrency curve: a point per sequence count, each one's rate in its title.
      const one = (v) => v.toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      const titles = await session.evaluate(() => [...document.querySelectorAll('[data-testid="serving-curve"] circle.per_user title')]
        .map((title) => title.textContent));
      assert.deepEqual(titles, longer.concurrency.map((p) => `${p.sequences.toLocaleString('en')} × Per user: ${one(p.per_user_tps)} tok/s`));
      const hash = await waitUntil(session, () => location.hash, null, (h) => hashParams(h).get('prompt') === '20000', 'the link carries prompt=20000');
      await open(session, siteUrl(hash));
      await waitForOutput(session, 'serving-ttft', (o) => o.text === shown(longer)[0], 'the link reopens the 20,000-token prompt');
      await assertHealthy(session, 'serving');
    });

    test('a model that does not fit: the plan that runs it with offload, its speed and its command', { timeout: TEST_TIMEOUT_MS }, async () => {
      // The CLI's answer for Qwen3-30B-A3B-Instruct-2507 at Q4_K_M (18 GB of weights) on a 12 GB RTX
      // 5070 under llama.cpp: no fit on the GPU alone; the plan --fit would choose keeps some
      // layers' experts in RAM.
      const request = { model: 'qwen3-30b-a3b-instruct-2507', format: 'Q4_K_M', device: 'rtx-5070-12gb', runtime: 'llamacpp',
        context: 4096 };
      const answer = cliEvaluate({ ...request, sections: ['simulator', 'offload'] });
      assert.equal(answer.simulator.fit, 'no_fit');
      const plan = answer.offload.plans[answer.offload.chosen];
      await open(session, siteUrl(`#model=${request.model}&format=Q4_K_M&device=${request.device}&runtime=llamacpp` +
        '&context=4096&lang=en'));
      await waitForOutput(session, 'fit', (o) => o.text === 'Runs with offload', 'the verdict: runs with offload');
      await waitForOutput(session, 'decode', (o) => o.text === `${plan.decode_tps.toFixed(1)} tok/s`, 'the plan\'s speed');
      assert.equal((await waitForOutput(session, 'offload-flags', () => true, 'the plan\'s flags')).text, plan.flags);
      const command = await waitForOutput(session, 'cmd-llama-server', (o) => o.text.includes(plan.flags),
        'the llama-server command with the plan\'s flags');
      assert.match(command.text, /llama-server -m \.\/Qwen3-30B-A3B-Instruct-2507-Q4_K_M\.gguf/);
      // The hardware table's row of the card says the same, at the plan's rate, and so does a related
      // model of the same shapes (Qwen3-30B-A3B).
      const rate = `${plan.decode_tps.toFixed(1)} tok/s`;
      const cellsOf = (selector) => {
        const row = document.querySelector(selector);
        return row ? [...row.cells].map((c) => c.textContent.replace(/[\u00a0\u202f]/g, ' ').trim()) : null;
      };
      const hardware = await waitUntil(session, cellsOf, '[data-testid="hw-row"][data-device="rtx-5070-12gb"]',
        (cells) => cells?.[3] === 'Runs with offload', 'the hardware row: runs with offload');
      assert.equal(hardware[4], rate);
      const related = await waitUntil(session, cellsOf, '[data-testid="related-row"][data-model="qwen3-30b-a3b"]',
        (cells) => cells !== null, 'Qwen3-30B-A3B among the related models');
      assert.equal(related[3], `Runs with offload, ${rate}`);
      await assertHealthy(session, 'with offload');
    });

    test('the fits view lists what `vramcalc sweep --device` says fits', { timeout: TEST_TIMEOUT_MS }, async () => {
      await session.goto('about:blank');
      await session.goto(siteUrl('#view=fits&device=rtx-4090-24gb&context=8192&lang=en'));
      const rows = await waitUntil(session, () => [...document.querySelectorAll('[data-testid="fit-row"]')]
        .map((row) => [...row.cells].map((c) => c.innerText.replace(/[\u00a0\u202f]/g, ' ').trim())), null,
      (shown) => shown.length > 0, 'the fits rows');
      const cli = cliFits('rtx-4090-24gb', 8192);
      const byName = (a, b) => a[0].localeCompare(b[0]);
      // Model, best format, memory, decode, first token, max context as the CLI prints them (the
      // page's rating column aside).
      assert.deepEqual(rows.map(([name, format, , memory, decode, ttft, context]) => [name, format, memory, decode, ttft, context])
        .sort(byName),
        [...cli.fitting].sort(byName));
      await assertHealthy(session, 'the fits view');
    });

    test('the tables export: the CSV parses back to the numbers shown, the Markdown is the table', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
      await session.goto('about:blank');
      await session.goto(siteUrl('#view=fits&device=rtx-4090-24gb&compare=rtx-3060-12gb&context=8192&lang=en'));
      const rows = await waitUntil(session, () => [...document.querySelectorAll('[data-testid="fit-row"]')]
        .map((row) => ({ ...row.dataset })), null, (shown) => shown.length > 0, 'the fits rows');
      const fits = await session.evaluate(csvDownload, 'fits-csv');
      assert.ok(fits, 'the fits view saves a CSV');
      const [[caption], header, ...lines] = parseCsv(fits.text);
      assert.match(caption, /RTX 4090 24GB and RTX 3060 12GB, 8,192 tokens/);
      assert.equal(header[8], 'device_id');
      // What fits, then a line per model and device that runs with offload.
      const offload = await session.evaluate(() => document.querySelectorAll('[data-testid="fit-offload-row"]').length);
      assert.ok(offload > 0 && lines.length === rows.length + offload, `${lines.length} lines, ${offload} with offload`);
      assert.deepEqual(lines.slice(0, rows.length).map(([, id, format, fit, memory, decode, ttft, context, device]) =>
        [id, format, fit, Number(memory), Number(decode), Number(ttft), Number(context), device]),
      rows.map((r) => [r.model, r.format, r.fit, Number(r.total), Number(r.decode), Number(r.ttft), Number(r.maxContext), r.device]));
      const markdown = await session.evaluate(markdownCopy, 'fits-copy-md');
      assert.ok(markdown, 'Copy as Markdown copies, or shows the text to copy');
      const shown = await session.evaluate(() => document.getElementById('fits-md').textContent);
      assert.ok(markdown.text === null || markdown.text === shown, markdown.text?.slice(0, 200));
      assert.equal(shown.split('\n').filter((line) => line.startsWith('| ')).length, rows.length + 2 + offload + 2);
      await assertHealthy(session, 'the fits exports');

      // The reference page's matrix and hardware table, figures as the core gives them.
      await open(session, siteUrl('#lang=en'));
      const cells = await session.evaluate(() => [...document.querySelectorAll('[data-testid="matrix-cell"]')]
        .map((cell) => [cell.dataset.format, cell.dataset.context, Number(cell.getAttribute('data-value'))]));
      const matrix = parseCsv((await session.evaluate(csvDownload, 'matrix-csv')).text);
      const contexts = matrix[1].filter((column) => column.startsWith('total_gb_')).map((column) => column.slice(9));
      for (const [format, , , weights, ...totals] of matrix.slice(2)) {
        const value = (context) => cells.find(([f, c]) => f === format && c === context)?.[2];
        assert.equal(Number(weights), value('weights'), `${format} weights`);
        contexts.forEach((context, i) => assert.equal(Number(totals[i]), value(context), `${format} at ${context}`));
      }
      // The hardware table is drawn once it scrolls into view.
      await session.evaluate(() => document.querySelector('[data-testid="hardware-csv"]').scrollIntoView());
      const needed = await waitUntil(session, () => [...document.querySelectorAll('[data-testid="hw-row"]')]
        .map((row) => [row.dataset.device, Number(row.querySelector('[data-testid="hw-needed"]').dataset.value)]), null,
      (shown) => shown.length > 0, 'the hardware table');
      const hardware = parseCsv((await session.evaluate(csvDownload, 'hardware-csv')).text);
      assert.deepEqual(hardware.slice(2).map(([device, , , , gb]) => [device, Number(gb)]), needed);
      await assertHealthy(session, 'the matrix and hardware exports');
    });

    test('the npm package, installed in a fresh project, works in a page: the API and the widget', { timeout: TEST_TIMEOUT_MS }, async () => {
      await session.goto('about:blank');
      await session.goto(packageServer.url);
      // GLM-4-32B-0414 at the reference page's defaults: 21.78 GB (the API's and the widget's).
      const total = referenceNumber(TOTAL_AT[32768]).toFixed(2);
      assert.equal(await waitUntil(session, () => document.body.dataset.total ?? null, null, Boolean, 'the API answers'), total);
      const widget = await waitForOutput(session, 'total', (o) => o.value !== null && o.value !== '', 'the widget computes', '#w');
      assert.equal(widget.text, `${total} GB`);
      await assertHealthy(session, 'the package in a page');
    });

    test('"Use my GPU" says what this browser reports, and the page stays whole', { timeout: TEST_TIMEOUT_MS }, async () => {
      // A headless browser has a software GPU (SwiftShader, llvmpipe) or names none: the line
      // says so instead of setting a device (the mapping itself: detect.test.mjs).
      await open(session, siteUrl('#lang=en'));
      await session.evaluate(() => document.querySelector('[data-testid="detect-gpu"]').click());
      const result = await waitUntil(session, () => {
        const line = document.querySelector('[data-testid="detect-result"]');
        return line && !line.hidden ? line.textContent : null;
      }, null, (text) => Boolean(text), 'the detection line');
      assert.match(result, /^(Detected |This browser does not say|Your browser names)/, result);
      await assertHealthy(session, 'after "Use my GPU"');
    });

    test('garbage in the link: a notice as text, no markup run, the defaults apply', { timeout: TEST_TIMEOUT_MS },
      async () => {
        await open(session, siteUrl(GARBAGE));
        await sleep(300);  // time for an injected image to fail and its onerror to run
        const notice = await session.evaluate(() => {
          const element = document.querySelector('[data-testid="notice"]');
          return { hidden: element.hidden, text: element.innerText.replace(/[\u00a0\u202f]/g, ' '),
            children: element.children.length };
        });
        assert.equal(notice.hidden, false, 'the notice is shown');
        for (const bad of ['context=abc', 'model=<img src=x onerror=alert(1)>', 'batch=-3', 'format=Q3', 'foo=bar']) {
          assert.ok(notice.text.includes(bad), `the notice mentions ${bad}: ${notice.text}`);
        }
        assert.equal(notice.children, 0, 'the notice holds text only');
        const images = await session.evaluate(() => [...document.querySelectorAll('img')].map((img) => img.getAttribute('src')));
        assert.deepEqual(images, ['icons/icon.svg'], 'no image but the page\'s icon');
        const { outputs, controls } = await session.evaluate(readSnapshot);
        assert.equal(outputs.total.text, toGerman(REFERENCE.simulator.total), 'the defaults: the reference total');
        assert.deepEqual([controls.model, controls.format, controls.batch, controls['context-number']],
          ['glm-4-32b-0414', 'Q4_K_M', '1', '32768']);
        await assertHealthy(session, 'garbage in the link');

        // The next choice replaces the bad link with valid settings and clears the notice.
        await pressOn(session, '[data-testid="context"]', ['ArrowLeft']);
        await waitUntil(session, () => document.querySelector('[data-testid="notice"]').hidden, null, (h) => h === true,
          'the notice goes');
        const hash = await session.evaluate(() => location.hash);
        assert.deepEqual([...hashParams(hash).keys()].sort(), ['context', 'lang'], `only valid settings: ${hash}`);
        await assertHealthy(session, 'after a choice');
      });

    test('the widget in a host page under a strict CSP', { timeout: TEST_TIMEOUT_MS }, async () => {
      const hostUrl = new URL('host/index.html', hostServer.url).href;
      await open(session, hostUrl, '#a');
      await waitForOutput(session, 'total', (o) => o.value !== null, 'the second widget computes', '#b');
      // GLM-4-32B at the reference page's defaults, in German.
      for (const id of ['total', 'decode']) {
        const output = await session.evaluate(readOutput, { host: '#a', testid: id });
        assert.equal(output.text, toGerman(REFERENCE.simulator[id]), `widget #a ${id}`);
      }
      assert.equal((await session.evaluate(readOutput, { host: '#a', testid: 'fit' })).value, 'tight');
      // Its matrix: every reference cell.
      const cells = await session.evaluate(() => [...document.querySelector('#a').shadowRoot
        .querySelectorAll('[data-testid="matrix-cell"]')].map((cell) => [cell.dataset.format, cell.dataset.context,
        cell.getAttribute('data-value')]));
      const wrong = [];
      for (const [format, , , weights, at8k, at32k, at128k] of REFERENCE.matrix) {
        for (const [context, text] of [['weights', weights], ['8192', at8k], ['32768', at32k], ['131072', at128k]]) {
          const cell = cells.find(([f, c]) => f === format && c === context);
          const expected = referenceNumber(text).toFixed(2);
          if (!cell || Number(cell[2]).toFixed(2) !== expected) wrong.push(`${format} @ ${context}: ${cell?.[2]}, expected ${expected}`);
        }
      }
      assert.deepEqual(wrong, [], 'the widget\'s matrix is the reference\'s');
      assert.equal((await session.evaluate(readOutput, { host: '#b', testid: 'total' })).text, '13.22 GB', 'widget #b');
      // The third lists what runs on its device (view="fits"), as `vramcalc sweep --device` does.
      const fitting = await waitUntil(session, () => [...(document.querySelector('#c').shadowRoot
        ?.querySelectorAll('[data-testid="fit-row"]') ?? [])].map((row) => row.cells[0].innerText.trim()), null,
      (names) => names.length > 0, 'widget #c lists the models that fit');
      assert.deepEqual(fitting.sort(), cliFits('rtx-4090-24gb', 8192).fitting.map(([name]) => name).sort(), 'widget #c');

      await pressOn(session, '[data-testid="context"]', ['ArrowLeft', 'ArrowLeft'], '#a');
      await waitForOutput(session, 'total', (o) => o.text === toGerman(TOTAL_AT[8192]), 'the widget\'s slider: 8K', '#a');
      assert.equal((await session.evaluate(readOutput, { host: '#b', testid: 'total' })).text, '13.22 GB',
        'the other widget is untouched');

      const wasm = await session.evaluate(() => performance.getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname).filter((p) => p.endsWith('.wasm')));
      // One shared instance of each module, found beside widget.js: vramcalc.wasm for the three,
      // vramcalc-full.wasm for the sweep of the one with view="fits".
      assert.deepEqual(wasm.sort(), [`/${WIDGET_PATH}/vramcalc-full.wasm`, `/${WIDGET_PATH}/vramcalc.wasm`],
        'each module once, found beside widget.js');
      assert.equal(await session.evaluate(async () => (await navigator.serviceWorker?.getRegistrations())?.length ?? 0),
        0, 'no service worker on the host');
      await assertHealthy(session, 'the widget host page');
      // The policy is in force (and a violation would be seen): an inline script does not run.
      await session.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__inlineScriptRan = true;';
        document.head.append(script);
      });
      const violations = await waitUntil(session, () => window.__vramcalcProbe.report().problems, null,
        (problems) => problems.length > 0, 'the probe reports the blocked inline script');
      assert.match(violations.join('\n'), /^CSP violation: script-src/, 'reported as a CSP violation');
      assert.equal(await session.evaluate(() => window.__inlineScriptRan ?? false), false,
        'the host page runs under the strict CSP');
    });

    test('a repo id imports from the Hub once asked, and the page computes the model from its header', { timeout: TEST_TIMEOUT_MS }, async () => {
      hub.clearRequests();
      await open(session, new URL('#lang=en&runtime=llamacpp', importServer.url).href);
      await session.evaluate(() => document.querySelector('#custom summary').click());
      await waitUntil(session, () => document.querySelector('[data-testid="import-source"]') !== null, null, (shown) => shown,
        'the panel shows the import form');
      assert.deepEqual(hub.requests, [], 'nothing asked of the Hub before the user asks');
      await session.evaluate(() => {
        document.querySelector('[data-testid="import-source"]').value = 'unsloth/Qwen3.5-4B-GGUF';
        document.querySelector('[data-testid="import-apply"]').click();
      });
      // Until then, the status line: what a failure shows, with what the Hub was asked.
      const read = () => document.getElementById('custom-config').value || document.getElementById('import-status').textContent;
      const text = await waitUntil(session, read, null, (value) => value.includes('vramcalc.model/1'),
        'the imported description is applied').catch((error) => {
        throw new Error(`${error.message}; the Hub was asked: ${JSON.stringify(hub.requests.map((r) => [r.url, r.range, r.status]))}`);
      });
      const { weights } = JSON.parse(text);
      // tests/golden/headers/SOURCES.md: 1,509,249,024 bytes of tensor data.
      const bytes = ['embedding', 'head', 'attention', 'dense_ffn', 'other'].reduce((sum, role) => sum + (weights[role] ?? 0), 0);
      assert.equal(bytes, 1_509_249_024);
      await waitUntil(session, () => location.hash, null, (hash) => hashParams(hash).get('model') === 'custom',
        'the imported model is the page\'s');
      assert.ok(hub.requests.length > 0, 'the import asked the Hub');
      const { report } = await session.evaluate(readHealth);
      assert.deepEqual([...session.problems, ...report.problems], [], 'no problems');
      const hubOrigins = [hub.url, hub.cdnUrl];
      assert.deepEqual(report.foreign.filter((url) => !hubOrigins.includes(new URL(url).origin)), [], 'only the Hub besides the page');
    });

    test('the single file opened from disk shows the reference numbers and fetches nothing',
      { timeout: TEST_TIMEOUT_MS }, async () => {
        await open(session, standaloneUrl);
        for (const id of ['total', 'decode', 'weights', 'kv-cache', 'overhead', 'max-context']) {
          const output = await session.evaluate(readOutput, { host: null, testid: id });
          assert.equal(output.text, toGerman(REFERENCE.simulator[id]), id);
        }
        assert.equal(await session.evaluate(() => document.querySelectorAll('[data-testid="matrix-cell"]').length), 32,
          'the whole matrix');
        await pressOn(session, '[data-testid="context"]', ['ArrowLeft', 'ArrowLeft']);
        await waitForOutput(session, 'total', (o) => o.text === toGerman(TOTAL_AT[8192]), 'the slider: 8K');
        await assertHealthy(session, 'the single file');

        await open(session, `${standaloneUrl}#lang=en`);
        assert.equal((await session.evaluate(readOutput, { host: null, testid: 'total' })).text, REFERENCE.simulator.total);
        await assertHealthy(session, 'the single file in English');
      });

    test('after the first visit, the page reloads with no server through its service worker',
      { timeout: TEST_TIMEOUT_MS }, async () => {
        // An origin of its own: a fresh service worker, whatever the other tests did.
        const server = await startServer(siteRoot);
        let closed = false;
        try {
          await open(session, server.url);
          await waitUntil(session, () => navigator.serviceWorker?.controller?.state ?? null, null,
            (state) => state === 'activated', 'a service worker controls the page');
          const banner = await waitUntil(session, () => {
            const element = document.querySelector('[data-testid="sw-banner"]');
            return element && !element.hidden ? element.innerText : null;
          }, null, (text) => text !== null, 'the first visit says that the page works offline');
          assert.match(banner, /offline/);

          await server.close();
          closed = true;
          // No server any more: only the service worker can answer.
          await open(session, server.url);
          assert.equal((await session.evaluate(readOutput, { host: null, testid: 'total' })).text,
            toGerman(REFERENCE.simulator.total));
          assert.equal(await session.evaluate(() => navigator.serviceWorker.controller !== null), true,
            'the reloaded page is controlled by the service worker');
          await pressOn(session, '[data-testid="context"]', ['ArrowLeft', 'ArrowLeft']);
          await waitForOutput(session, 'total', (o) => o.text === toGerman(TOTAL_AT[8192]), 'offline, the slider: 8K');
          await assertHealthy(session, 'offline');
        } finally {
          if (!closed) await server.close();
        }
      });
  });
}
