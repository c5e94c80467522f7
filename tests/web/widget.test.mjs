// <vram-calculator> on a documentation site: the built site copied under a sub-path of a host
// whose page runs under a strict Content-Security-Policy, two widgets for two models side by
// side, a live attribute change with its event, ::part() theming, another tag name, and the
// iframe embed for hosts that run no scripts at all.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_TIMEOUT_MS, assertNoProblems, launch, plainSpaces, siteDir } from './support/harness.mjs';
import { REFERENCE, toGerman } from './support/reference.mjs';
import { cliEvaluate } from './support/sweep-cli.mjs';

const SUB_PATH = 'docs/assets/vramcalc';
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "object-src 'none'; base-uri 'none'";
const NO_SCRIPT_CSP = "default-src 'self'; script-src 'none'; style-src 'self'; object-src 'none'";

const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<link rel="stylesheet" href="host.css">
<script src="host.js"></script>
<script type="module" src="/${SUB_PATH}/widget.js"></script>
</head><body>
<h1>Model docs</h1>
<vram-calculator id="a" model="glm-4-32b-0414" lang="de"></vram-calculator>
<vram-calculator id="b" model="glm-4-9b-0414" format="Q8_0" context="65536" device="rtx-4090-24gb" lang="en"
  sections="simulator,matrix,hardware"></vram-calculator>
</body></html>`;

// A classic script file (allowed by script-src 'self'): records events and CSP violations.
const HOST_SCRIPT = `window.__events = []; window.__violations = [];
document.addEventListener('estimate-change', (e) => window.__events.push({ id: e.target.id, total: e.detail.simulator.total_gib }));
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`;

const HOST_CSS = 'vram-calculator::part(total) { color: rgb(1, 2, 3); } #b { --vram-accent: rgb(4, 5, 6); }';

// A German documentation page that loads only the class: nothing is registered until it asks.
const BARE_PAGE = `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>Doku</title></head><body>
<div lang="en"><p>English part</p></div>
</body></html>`;

const FRAME_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs without scripts</title></head><body>
<iframe id="frame" title="vramcalc" width="640" height="300"
  src="/${SUB_PATH}/embed.html#model=glm-4-9b-0414&amp;format=Q8_0&amp;context=65536&amp;device=rtx-4090-24gb&amp;lang=en"></iframe>
</body></html>`;

let env;
let root;

const widgetValue = (page, id, testid) => page.locator(`#${id} [data-testid="${testid}"]`).getAttribute('data-value');
const widgetText = async (page, id, testid) => plainSpaces(await page.locator(`#${id} [data-testid="${testid}"]`).innerText());

describe('widget', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'vramcalc-host-'));
    await cp(siteDir, path.join(root, SUB_PATH), { recursive: true });
    await mkdir(path.join(root, 'host'));
    await writeFile(path.join(root, 'host/index.html'), HOST_PAGE);
    await writeFile(path.join(root, 'host/host.js'), HOST_SCRIPT);
    await writeFile(path.join(root, 'host/host.css'), HOST_CSS);
    await writeFile(path.join(root, 'host/frame.html'), FRAME_PAGE);
    await writeFile(path.join(root, 'host/bare.html'), BARE_PAGE);
    const headers = (file) => (file === 'host/index.html' ? { 'Content-Security-Policy': STRICT_CSP }
      : file === 'host/frame.html' ? { 'Content-Security-Policy': NO_SCRIPT_CSP } : {});
    env = await launch({ root, headers });
  }, { timeout: TEST_TIMEOUT_MS });
  after(async () => {
    await env?.close();
    if (root) await rm(root, { recursive: true, force: true });
  }, { timeout: TEST_TIMEOUT_MS });
  beforeEach(() => { env.problems.length = 0; });

  test('two widgets for two models under a strict CSP, from a sub-path', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const wasmRequests = [];
    page.on('request', (request) => { if (request.url().endsWith('.wasm')) wasmRequests.push(request.url()); });
    await page.goto(env.url('host/index.html'));
    await page.locator('#a [data-testid="total"][data-value]').waitFor();
    await page.locator('#b [data-testid="total"][data-value]').waitFor();
    // GLM-4-32B at the reference page's defaults: 21.78 GB, "Knapp", 27.3 tok/s (German).
    assert.equal(await widgetText(page, 'a', 'total'), toGerman(REFERENCE.simulator.total));
    assert.equal(await widgetValue(page, 'a', 'fit'), 'tight');
    assert.equal(await widgetText(page, 'a', 'decode'), toGerman(REFERENCE.simulator.decode));
    // GLM-4-9B-0414 at Q8_0, 65,536 tokens: W = 9,400,279,040 × 8.5 / 8 B = 9.3019 GiB,
    // K = 2 × 40 × 2 × 128 × 2 B × 65,536 = 2.5 GiB, O = 0.85 + 0.03 W + 0.04 + 0.25 = 1.4191:
    // 13.22 GB.
    assert.equal(await widgetText(page, 'b', 'total'), '13.22 GB');
    assert.equal(await page.locator('#b [data-testid="matrix-cell"]').count(), 32, 'sections add the matrix');
    assert.ok(await page.locator('#b [data-testid="hw-row"]').count() >= 8, 'and the hardware table');
    // The hardware table is vramcalc-full.wasm's: #b loads it; each module once, beside widget.js.
    assert.deepEqual(wasmRequests.map((url) => new URL(url).pathname),
      [`/${SUB_PATH}/vramcalc.wasm`, `/${SUB_PATH}/vramcalc-full.wasm`],
      'both widgets share the instances, found beside widget.js');
    assert.equal((await page.locator('#a [data-testid="total"]').evaluate((n) => getComputedStyle(n).color)),
      'rgb(1, 2, 3)', '::part(total) themes the total');
    assert.deepEqual(await page.evaluate(() => window.__violations), [], 'no CSP violation');
    assert.deepEqual(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0,
      'no service worker on the host');
    assertNoProblems(env);
  });

  test('an attribute change updates its widget and fires estimate-change', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await page.goto(env.url('host/index.html'));
    await page.locator('#b [data-testid="total"][data-value]').waitFor();
    const aBefore = await widgetValue(page, 'a', 'total');
    await page.evaluate(() => { window.__events.length = 0; document.getElementById('b').setAttribute('context', '8192'); });
    // At 8,192 tokens the KV cache is a quarter: 9.3019 + 0.625 + 1.4191 = 11.03 GB.
    await page.waitForFunction(() => window.__events.some((e) => e.id === 'b' && Math.abs(e.total - 11.0334) < 1e-4));
    assert.equal(await widgetText(page, 'b', 'total'), '11.03 GB');
    assert.equal(await widgetValue(page, 'a', 'total'), aBefore, 'the other widget is untouched');
    // A bad attribute is named inside the widget; the widget keeps working with the default.
    await page.evaluate(() => document.getElementById('b').setAttribute('format', 'Q3_XL'));
    await page.locator('#b [data-testid="widget-error"]').waitFor({ state: 'visible' });
    assert.match(await widgetText(page, 'b', 'widget-error'), /format="Q3_XL"/);
    // The slider moves the numbers too.
    await page.locator('#a [data-testid="context"]').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('#a').shadowRoot
      .querySelector('[data-testid="context-value"]').dataset.value === '65536');
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    assertNoProblems(env);
  });

  test('define() registers the element under another tag', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await page.goto(env.url('host/index.html'));
    await page.locator('#a [data-testid="total"][data-value]').waitFor();
    await page.evaluate(async (src) => {
      const { VramCalculator } = await import(src);
      VramCalculator.define('docs-vram');
      const element = document.createElement('docs-vram');
      element.id = 'c';
      element.setAttribute('model', 'glm-4-32b-0414');
      element.setAttribute('lang', 'en');
      document.body.append(element);
    }, `/${SUB_PATH}/widget.js`);
    await page.locator('#c [data-testid="total"][data-value]').waitFor();
    assert.equal(await widgetText(page, 'c', 'total'), REFERENCE.simulator.total);
    assertNoProblems(env);
  });

  test('the class module registers nothing; properties reflect attributes; the host page sets the language',
    { timeout: TEST_TIMEOUT_MS }, async () => {
      const { page } = env;
      await page.goto(env.url('host/bare.html'));
      const registered = await page.evaluate(async (src) => {
        const { VramCalculator } = await import(src);
        const before = customElements.get('vram-calculator') !== undefined;
        VramCalculator.define('doc-calc');
        // No lang of its own: one inherits the page's German, one the English part's.
        const german = document.createElement('doc-calc');
        german.id = 'de';
        german.model = 'glm-4-32b-0414';
        document.body.append(german);
        const english = document.createElement('doc-calc');
        english.id = 'en';
        english.setAttribute('model', 'glm-4-32b-0414');
        document.querySelector('[lang="en"]').append(english);
        return { before, reflected: german.getAttribute('model'), property: english.model };
      }, `/${SUB_PATH}/js/widget-element.js`);
      assert.deepEqual(registered, { before: false, reflected: 'glm-4-32b-0414', property: 'glm-4-32b-0414' });
      await page.locator('#de [data-testid="total"][data-value]').waitFor();
      await page.locator('#en [data-testid="total"][data-value]').waitFor();
      assert.equal(await widgetText(page, 'de', 'total'), toGerman(REFERENCE.simulator.total), 'German from <html lang="de">');
      assert.equal(await widgetText(page, 'en', 'total'), REFERENCE.simulator.total, 'English from <div lang="en">');
      // A property sets the attribute and recomputes; setting the same value again does nothing.
      await page.evaluate(() => {
        window.__changes = 0;
        document.getElementById('en').addEventListener('estimate-change', () => { window.__changes += 1; });
        document.getElementById('en').context = 8192;
      });
      // 8,192 tokens: 18.0677 + 0.4766 (a quarter of 1.90625) + 1.807 = 20.35 GB (the matrix's 8K).
      await page.waitForFunction(() => document.getElementById('en').shadowRoot
        .querySelector('[data-testid="total"]').dataset.value.startsWith('20.35'));
      assert.equal(await page.evaluate(() => document.getElementById('en').getAttribute('context')), '8192');
      const changes = await page.evaluate(async () => {
        const element = document.getElementById('en');
        const before = window.__changes;
        element.setAttribute('context', '8192');
        await new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(resolve)); });
        return window.__changes - before;
      });
      assert.equal(changes, 0, 'an unchanged attribute recomputes nothing');
      assertNoProblems(env);
    });

  test('a matrix row chosen in the widget sets its format', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await page.goto(env.url('host/index.html'));
    await page.locator('#b [data-testid="matrix-cell"]').first().waitFor();
    // GLM-4-9B-0414 at FP16, 65,536 tokens on an RTX 4090: W = 9,400,279,040 × 2 B = 17.5098 GiB,
    // K = 2.5 GiB, O = 0.85 + 0.03 W + 0.04 + 4,096 × 32,768 × 2 B (0.25 GiB) = 1.6653: 21.67 GB.
    await page.locator('#b tr[data-format="FP16"] .row-select').click();
    await page.waitForFunction(() => document.getElementById('b').shadowRoot
      .querySelector('tr[data-format="FP16"]').classList.contains('selected'));
    assert.equal(await widgetText(page, 'b', 'total'), '21.67 GB');
    assertNoProblems(env);
  });

  test('sections="serving": the first token as the CLI says, its fields keep their lengths', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await page.goto(env.url('host/index.html'));
    await page.locator('#b [data-testid="total"][data-value]').waitFor();
    const request = { model: 'qwen3-8b', runtime: 'llamacpp', device: 'rtx-4090-24gb', prompt_tokens: 20000, sections: ['serving'] };
    // Added to the strict-CSP host page by its own script (the page's CSP allows no inline one).
    await page.evaluate(() => {
      const widget = document.createElement('vram-calculator');
      Object.assign(widget, { id: 'c' });
      for (const [name, value] of Object.entries({ model: 'qwen3-8b', runtime: 'llamacpp', device: 'rtx-4090-24gb', prompt: '20000',
        sections: 'simulator,serving', lang: 'en' })) widget.setAttribute(name, value);
      document.body.append(widget);
    });
    const ttft = cliEvaluate(request).serving.ttft_s;
    await page.locator('#c [data-testid="serving-ttft"]').filter({ hasText: /s$/ }).waitFor();
    assert.equal(await widgetText(page, 'c', 'serving-ttft'), `${ttft.toFixed(ttft < 10 ? 2 : 1)} s`);
    assert.equal(await page.locator('#c [data-testid="serving-prompt"]').inputValue(), '20000');
    // The answer's field: Enter applies a length; the widget recomputes and keeps it.
    const output = page.locator('#c [data-testid="serving-output"]');
    await output.fill('2000');
    await output.press('Enter');
    const total = cliEvaluate({ ...request, output_tokens: 2000 }).serving.total_s;
    await page.waitForFunction((expected) => document.getElementById('c').shadowRoot
      .querySelector('[data-testid="serving-total"]').textContent === expected, `${total.toFixed(total < 10 ? 2 : 1)} s`);
    assert.equal(await output.inputValue(), '2000');
    assert.deepEqual(await page.evaluate(() => window.__violations), [], 'no CSP violation');
    assertNoProblems(env);
  });

  test('the iframe embed works on a host that runs no scripts', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await page.goto(env.url('host/frame.html'));
    const frame = page.frameLocator('#frame');
    await frame.locator('[data-testid="total"][data-value]').waitFor();
    assert.equal(plainSpaces(await frame.locator('[data-testid="total"]').innerText()), '13.22 GB');
    assertNoProblems(env);
  });
});
