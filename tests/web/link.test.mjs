// The URL hash: a shared link reopens the same view, a reload keeps it, an edited hash is
// followed, and garbage in the hash is reported as text (never run as HTML) while the defaults
// apply.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TEST_TIMEOUT_MS, WAIT_MS, assertHealthy, byTestId, openPage, settle, shareBrowser, shownText, waitForDataValue,
  waitForExactDataValue, waitForHash, waitForText,
} from './support/harness.mjs';
import { REFERENCE, toGerman } from './support/reference.mjs';

let env;

const OUTPUTS = ['total', 'per-device', 'weights', 'kv-cache', 'overhead', 'decode', 'max-context', 'kv-saving', 'fit',
  'share-weights', 'share-kv', 'share-overhead', 'context-value'];

/** What a view consists of: every output's data-value and text, every control's value. */
async function snapshot(page) {
  return page.evaluate((outputs) => {
    const plain = (text) => text.replace(/[\u00a0\u202f]/g, ' ');
    const values = {};
    for (const id of outputs) {
      const element = document.querySelector(`[data-testid="${id}"]`);
      values[id] = { value: element?.getAttribute('data-value') ?? null, text: element ? plain(element.innerText) : null };
    }
    const controls = {};
    for (const element of document.querySelectorAll('select[data-testid], input[data-testid]')) {
      controls[element.dataset.testid] = element.value;
    }
    return {
      values,
      controls,
      lang: document.documentElement.lang,
      title: document.title,
      checkpoint: document.querySelector('[data-testid="arch-checkpoint"]')?.innerText ?? null,
      selectedFormat: [...document.querySelectorAll('tr[data-format].selected')].map((row) => row.dataset.format),
      selectedDevice: [...document.querySelectorAll('[data-testid="hw-row"].selected')].map((row) => row.dataset.device),
      notice: document.querySelector('[data-testid="notice"]')?.hidden === false,
    };
  }, OUTPUTS);
}

describe('links', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  shareBrowser((launched) => { env = launched; });

  test('a shared link reopens the same view, and a reload keeps it', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    const before = await snapshot(page);

    await page.locator(byTestId('format')).selectOption('Q8_0');
    const field = page.locator(byTestId('context-number'));
    await field.fill('65536');
    await field.press('Enter');
    await waitForExactDataValue(env, page, 'context-value', 65536);
    await page.locator(byTestId('batch')).selectOption('2');
    await page.locator(byTestId('kv')).selectOption('q8_0');
    await page.locator(byTestId('device')).selectOption('rtx-5090-32gb');
    await page.locator(byTestId('lang')).selectOption('en');
    // The page speaks English once its strings are there (loaded when idle, else on the switch).
    await page.waitForFunction(() => document.documentElement.lang === 'en' &&
      document.getElementById('page').getAttribute('aria-busy') === 'false');
    await waitForText(env, page, '#cmd-vllm-heading', 'vLLM CLI (RTX 5090 32GB)');
    const hash = await waitForHash(env, page, (h) => new URLSearchParams(h.slice(1)).get('lang') === 'en', 'hash has lang=en');
    const params = new URLSearchParams(hash.slice(1));
    for (const [key, value] of [['format', 'Q8_0'], ['context', '65536'], ['batch', '2'], ['kv', 'q8_0'],
      ['device', 'rtx-5090-32gb'], ['lang', 'en']]) {
      assert.equal(params.get(key), value, `the link ${hash} carries ${key}=${value}`);
    }
    const view = await snapshot(page);
    assert.notDeepEqual(view.values, before.values, 'the controls changed the view');
    assert.equal(view.values['context-value'].text, '65,536 tokens');

    // The link in another tab.
    const shared = await env.context.newPage();
    try {
      await shared.goto(env.url(hash), { waitUntil: 'load' });
      await waitForDataValue(env, shared, 'total');
      // Whole: the card and the tables below come once the first numbers are painted.
      await shared.locator('#page[aria-busy="false"]').waitFor({ state: 'attached', timeout: WAIT_MS });
      await settle(shared);
      assert.deepEqual(await snapshot(shared), view, `the link ${hash} shows the same view in a new tab`);
      assert.equal(await shared.evaluate(() => location.hash), hash, 'opening the link leaves it as it is');
      await assertHealthy(env, shared, 'the shared link');
    } finally {
      await shared.close();
    }

    // A reload of the same tab.
    await page.reload({ waitUntil: 'load' });
    await waitForDataValue(env, page, 'total');
    await page.locator('#page[aria-busy="false"]').waitFor({ state: 'attached', timeout: WAIT_MS });
    await settle(page);
    assert.deepEqual(await snapshot(page), view, 'a reload keeps the settings');
    await assertHealthy(env, page, 'after the reload');
  });

  test('an edited hash is followed without a reload', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    await page.evaluate(() => { location.hash = '#format=FP16&lang=en'; });
    await waitForText(env, page, 'weights', '59.60 GB'); // the reference's FP16 weights, in English
    assert.equal(await page.locator(byTestId('format')).inputValue(), 'FP16');
    assert.equal(await shownText(page, 'fit'), 'Fits comfortably'); // FP16 on its recommended A100
    await assertHealthy(env, page, 'after editing the hash');
  });

  test('garbage in the hash: a notice as text, no markup run, the defaults apply', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      const garbage = '#context=abc&model=<img src=x onerror=alert(1)>&batch=-3&format=Q3&foo=bar';
      await openPage(env, page, garbage);
      await page.waitForTimeout(300); // time for an injected image to fail and its onerror to run
      await settle(page);

      const notice = page.locator(byTestId('notice'));
      assert.equal(await notice.isVisible(), true, 'the notice is visible');
      const text = (await notice.innerText()).replace(/[\u00a0\u202f]/g, ' ');
      for (const bad of ['context=abc', 'model=<img src=x onerror=alert(1)>', 'batch=-3', 'format=Q3', 'foo=bar']) {
        assert.ok(text.includes(bad), `the notice mentions ${bad}: ${text}`);
      }
      assert.ok(text.includes('<img'), 'the notice shows "<img" as text');
      assert.equal(await notice.evaluate((element) => element.children.length), 0, 'the notice holds text only');
      assert.equal(await page.evaluate(() => document.querySelectorAll('img[src=x], img[src$="/x"]').length), 0,
        'no <img src=x> was created');
      const images = await page.evaluate(() => [...document.querySelectorAll('img')].map((img) => img.getAttribute('src')));
      assert.deepEqual(images.filter((src) => src !== 'icons/icon.svg'), [], 'no image but the page\'s icon');

      // The defaults: the reference view.
      assert.equal(await shownText(page, 'total'), toGerman(REFERENCE.simulator.total)); // "21,78 GB"
      const controls = Object.fromEntries(await Promise.all(['model', 'format', 'batch', 'context-number'].map(
        async (id) => [id, await page.locator(byTestId(id)).inputValue()])));
      assert.deepEqual(controls, { model: 'glm-4-32b-0414', format: 'Q4_K_M', batch: '1', 'context-number': '32768' });
      await assertHealthy(env, page, 'with garbage in the hash'); // includes: no dialog opened

      // The next choice replaces the bad link and clears the notice.
      await page.locator(byTestId('format')).selectOption('Q8_0');
      await notice.waitFor({ state: 'hidden' });
      const hash = await page.evaluate(() => location.hash);
      assert.deepEqual([...new URLSearchParams(hash.slice(1)).keys()].sort(), ['format', 'lang'],
        `the link holds only valid settings: ${hash}`);
      await assertHealthy(env, page, 'after a choice');
    });
});
