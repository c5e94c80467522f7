// The installed, offline calculator: the manifest is installable, the service worker serves
// the page with no server and no network, and a rebuilt site takes over only after the prompt,
// with its own cache (never a mix of two versions, never another application's cache deleted).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFile, cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../support/static-server.mjs';
import {
  TEST_TIMEOUT_MS, assertHealthy, byTestId, launch, openPage, repoRoot, siteDir, waitForDataValue,
  waitForExactDataValue,
} from './support/harness.mjs';

let env;
let root;  // a copy of the built site that the tests may rebuild
let restarted = null;  // the server started again after the offline test

const fetchText = (page, file) => page.evaluate((f) => fetch(f).then((r) => r.text()), file);
const ourCaches = (page) => page.evaluate(async () => (await caches.keys()).sort());

describe('offline PWA', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'vramcalc-site-'));
    await cp(siteDir, root, { recursive: true });
    env = await launch({ root });
  }, { timeout: TEST_TIMEOUT_MS });
  after(async () => {
    await env?.close();
    await restarted?.close();
    if (root) await rm(root, { recursive: true, force: true });
  }, { timeout: TEST_TIMEOUT_MS });
  beforeEach(() => { env.problems.length = 0; });

  test('the manifest is installable, and the first visit says it works offline', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    // The first visit installs the service worker and says so, once.
    await page.locator(byTestId('sw-banner')).waitFor({ state: 'visible' });
    assert.match(await page.locator(byTestId('sw-banner')).innerText(), /offline/);
    const cdp = await env.context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], 'Chromium reports no installability errors');
    const manifest = JSON.parse(await readFile(path.join(root, 'manifest.webmanifest'), 'utf8'));
    assert.equal(manifest.display, 'standalone');
    assert.equal(manifest.start_url, './');
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
    for (const wanted of ['192x192 any', '512x512 any', '512x512 maskable']) assert.ok(sizes.includes(wanted), wanted);
    await cdp.detach();
  });

  test('after the first visit, the page works with no server and no network', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null);

    const port = new URL(env.server.url).port;
    await env.server.close();
    await env.context.setOffline(true);
    const response = await page.reload();
    assert.ok(response.fromServiceWorker(), 'the reload was served by the service worker');
    await waitForDataValue(env, page, 'total');
    assert.equal(await page.locator(byTestId('sw-banner')).isVisible(), false, 'the offline notice came once');
    await page.locator(byTestId('context')).focus();
    await page.keyboard.press('ArrowRight');
    await waitForExactDataValue(env, page, 'context-value', 65536);
    assert.notEqual(await page.locator(byTestId('total')).getAttribute('data-value'), '21.780937685966492');
    await assertHealthy(env, page, 'offline');

    await env.context.setOffline(false);
    restarted = await startServer(root, { port: Number(port) });  // same origin, same scope
  });

  test('a rebuilt site is used only after the prompt, with its own cache', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null);
    await page.evaluate(() => caches.open('another-app-v1'));  // someone else's cache on this origin
    const before = await ourCaches(page);
    const oldCss = await fetchText(page, 'css/later.css');

    // Rebuild: a changed file and the service worker the build writes for it.
    await appendFile(path.join(root, 'css/later.css'), '\n/* rebuilt */\n');
    execFileSync('cmake', [`-DSITE_DIR=${root}`, `-DTEMPLATE=${path.join(repoRoot, 'web/sw.js')}`, '-P',
      path.join(repoRoot, 'web/tools/service_worker.cmake')]);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());

    const banner = page.locator(byTestId('sw-banner'));
    await page.locator(byTestId('sw-reload')).waitFor({ state: 'visible' });
    assert.match(await banner.innerText(), /neue Version/);
    assert.equal(await fetchText(page, 'css/later.css'), oldCss, 'before the prompt the old version serves');

    await Promise.all([page.waitForEvent('load'), page.locator(byTestId('sw-reload')).click()]);
    await waitForDataValue(env, page, 'total');
    assert.match(await fetchText(page, 'css/later.css'), /rebuilt/, 'after the prompt the new version serves');
    const after = await ourCaches(page);
    assert.ok(after.includes('another-app-v1'), 'another application\'s cache is kept');
    const ours = after.filter((name) => name.startsWith('vramcalc-'));
    assert.equal(ours.length, 1, `one vramcalc cache remains (${after})`);
    assert.ok(!before.includes(ours[0]), 'and it is the new version\'s');
    await assertHealthy(env, page, 'after the update');
  });
});
