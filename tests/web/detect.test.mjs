// "Use my GPU" (issue 16) in headless Chromium: the browser's renderer string, replaced in the
// page by a recorded one (support/gpu-strings.mjs), maps to the catalog device, which the page
// then uses; an Apple chip sold in several memory sizes asks which; a GPU the catalog lacks
// opens the own-device form with its name; nothing is requested while it detects. The mapping
// of every recorded string, in each engine's format, is checked in Node first.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  TEST_TIMEOUT_MS, WAIT_MS, assertHealthy, byTestId, hashParams, openPage, repoRoot, settle, shareBrowser, waitForHash,
} from './support/harness.mjs';
import { GPU_STRINGS } from './support/gpu-strings.mjs';
import { cliCatalog } from './support/sweep-cli.mjs';

const { isStandIn, matchDevices, rendererName } = await import(pathToFileURL(path.join(repoRoot, 'web/js/gpu-detect.js')).href);

test('every recorded renderer string maps to its catalog device', () => {
  const { devices } = cliCatalog();
  for (const { text, name, standIn, devices: expected, source } of GPU_STRINGS) {
    assert.equal(rendererName(text), name, `${text} (${source})`);
    assert.equal(isStandIn(text), standIn, `${text} (${source})`);
    if (!standIn) assert.deepEqual(matchDevices(name, devices).map((d) => d.id), expected, `${text} (${source})`);
  }
  // Every engine's format and every vendor is among them.
  for (const engine of ['chromium-windows', 'chromium-linux', 'chromium-macos', 'firefox', 'safari']) {
    assert.ok(GPU_STRINGS.some((s) => s.engine === engine), engine);
  }
});

/** Makes WebGL in every page of the context report `renderer` (and hides WebGPU). */
async function pretendGpu(page, renderer) {
  await page.addInitScript((text) => {
    Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined });
    const original = WebGLRenderingContext.prototype.getParameter;
    WebGLRenderingContext.prototype.getParameter = function getParameter(name) {
      return name === 0x9246 ? text : original.call(this, name);  // UNMASKED_RENDERER_WEBGL
    };
  }, renderer);
}

describe('use my GPU', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  let env;
  shareBrowser((launched) => { env = launched; }, { options: { locale: 'en-US' } });

  /** A fresh page that reports `renderer`, the simulator open, the detect button pressed. */
  async function detect(renderer) {
    const page = await env.context.newPage();
    await pretendGpu(page, renderer);
    await openPage(env, page, '#model=qwen3-8b&lang=en');
    const requests = [];
    page.on('request', (r) => requests.push({ url: r.url(), method: r.method(), body: r.postData() }));  // from the click on
    await page.locator(byTestId('detect-gpu')).click();
    await page.locator(`${byTestId('detect-result')}:not([hidden])`).waitFor({ timeout: WAIT_MS });
    return { page, requests, result: await page.locator(byTestId('detect-result')).innerText() };
  }

  test('an NVIDIA card in Chromium\'s Windows form becomes the device, and nothing is sent', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, requests, result } = await detect('ANGLE (NVIDIA, NVIDIA GeForce RTX 4090 (0x00002684) Direct3D11 vs_5_0 ps_5_0, D3D11)');
    assert.match(result, /Detected NVIDIA GeForce RTX 4090: the device is now RTX 4090 24GB/);
    const hash = await waitForHash(env, page, (h) => hashParams(h).get('device') === 'rtx-4090-24gb', 'device=rtx-4090-24gb');
    await settle(page);  // the selector follows in the next frame
    assert.equal(await page.locator(byTestId('device')).inputValue(), 'rtx-4090-24gb', hash);
    // Nothing leaves the page: the only requests are GETs of the site's own files (the button's
    // code, a language's strings, an icon, or the manifest Chromium reads when it checks whether
    // the page can be installed, loaded meanwhile), none with a body, a query or the GPU's name.
    for (const { url, method, body } of requests) {
      const { origin, search, pathname } = new URL(url);
      assert.ok(origin === env.origin && method === 'GET' && !body && !search && !/4090|NVIDIA/i.test(url), url);
      assert.match(pathname, /^\/[\w./-]+\.(js|json|svg|webmanifest)$/, url);
    }
    await assertHealthy(env, page, 'detected RTX 4090');
    await page.close();
  });

  test('an Apple chip with two memory sizes asks which; the answer becomes the device', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, result } = await detect('ANGLE (Apple, ANGLE Metal Renderer: Apple M4 Pro, Unspecified Version)');
    assert.match(result, /Detected Apple M4 Pro: its memory size is not in the name/);
    const pick = page.locator(byTestId('detect-pick'));
    assert.deepEqual(await pick.locator('option').evaluateAll((o) => o.map((x) => x.value)),
      ['', 'apple-m4-pro-48gb', 'apple-m4-pro-64gb', 'other']);
    await pick.selectOption('apple-m4-pro-64gb');
    await waitForHash(env, page, (h) => hashParams(h).get('device') === 'apple-m4-pro-64gb', 'device=apple-m4-pro-64gb');
    await assertHealthy(env, page, 'picked M4 Pro 64GB');
    await page.close();
  });

  test('another memory size opens the own-device form with the chip\'s name and bandwidth', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = await detect('ANGLE (Apple, ANGLE Metal Renderer: Apple M2 Max, Unspecified Version)');
    await page.locator(byTestId('detect-pick')).selectOption('other');
    assert.equal(await page.locator(byTestId('own-device')).getAttribute('open'), '');
    assert.equal(await page.locator(byTestId('own-name')).inputValue(), 'Apple M2 Max');
    assert.equal(await page.locator(byTestId('own-bandwidth')).inputValue(), '400');  // the catalog's M2 Max
    assert.equal(await page.locator(byTestId('own-platform')).inputValue(), 'metal');
    await page.locator(byTestId('own-memory')).fill('32');
    await page.locator(byTestId('own-apply')).click();
    await waitForHash(env, page, (h) => hashParams(h).get('device') === 'custom:32:400:metal:Apple M2 Max', 'the own device');
    await assertHealthy(env, page, 'M2 Max 32GB');
    await page.close();
  });

  test('Firefox\'s stand-in for a Mac asks which Apple device; an NVIDIA stand-in says so', { timeout: TEST_TIMEOUT_MS }, async () => {
    const mac = await detect('Apple M1, or similar');
    assert.match(mac.result, /names only an Apple chip \(Apple M1\)/);
    const options = await mac.page.locator(`${byTestId('detect-pick')} option`).evaluateAll((o) => o.map((x) => x.value));
    assert.ok(options.includes('apple-m2-max-96gb') && options.includes('apple-m4-32gb') && !options.includes('rtx-4090-24gb'), options.join());
    await mac.page.close();
    const card = await detect('NVIDIA GeForce GTX 980, or similar');
    assert.match(card.result, /names a stand-in, NVIDIA GeForce GTX 980, not its GPU/);
    assert.equal(await card.page.locator('#detect-pick').isHidden(), true);
    await card.page.close();
  });

  test('a GPU the catalog lacks opens the own-device form with its name', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, result } = await detect('ANGLE (Intel, Intel(R) UHD Graphics 630 (0x00003E9B) Direct3D11 vs_5_0 ps_5_0, D3D11)');
    assert.match(result, /Detected Intel UHD Graphics 630, which is not in the catalog/);
    assert.equal(await page.locator(byTestId('own-device')).getAttribute('open'), '');
    assert.equal(await page.locator(byTestId('own-name')).inputValue(), 'Intel UHD Graphics 630');
    await assertHealthy(env, page, 'unknown GPU');
    await page.close();
  });
});
