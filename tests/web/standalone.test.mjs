// vramcalc-standalone.html: the whole page in one file, opened from disk (file://) on its own,
// with no server and no network, in German and English.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  TEST_TIMEOUT_MS, assertHealthy, byTestId, launch, shownText, siteDir, waitForDataValue, waitForExactDataValue, waitForText,
} from './support/harness.mjs';
import { REFERENCE, toGerman } from './support/reference.mjs';

let env;
let dir;
let fileUrl;
const requests = [];

describe('single file', { timeout: TEST_TIMEOUT_MS * 3 }, () => {
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vramcalc-standalone-'));
    await copyFile(path.join(siteDir, 'vramcalc-standalone.html'), path.join(dir, 'vramcalc.html'));
    fileUrl = pathToFileURL(path.join(dir, 'vramcalc.html')).href;
    env = await launch();
    env.context.on('request', (request) => requests.push(request.url()));
  }, { timeout: TEST_TIMEOUT_MS });
  after(async () => {
    await env?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, { timeout: TEST_TIMEOUT_MS });
  beforeEach(() => { env.problems.length = 0; requests.length = 0; });

  test('opened from disk, it shows the reference page\'s numbers and fetches nothing', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await page.goto(fileUrl);
      await waitForDataValue(env, page, 'total');
      // The reference page's figures (support/reference.mjs, from tests/golden/reference-page.json),
      // in German number format (browser locale de-DE).
      for (const id of ['total', 'decode', 'weights', 'kv-cache', 'overhead', 'max-context']) {
        assert.equal(await shownText(page, id), toGerman(REFERENCE.simulator[id]), id);
      }
      const cells = await page.locator(byTestId('matrix-cell')).count();
      assert.equal(cells, 32, 'the whole matrix');
      await page.locator(byTestId('context')).focus();
      await page.keyboard.press('ArrowLeft');
      await waitForExactDataValue(env, page, 'context-value', 16384);
      assert.deepEqual(requests, [fileUrl], 'the only request is the file itself');
      await assertHealthy(env, page, 'the single file');
    });

  test('and in English', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    // The same document with another hash (the first test left it at 16K): the page redraws in
    // its next frame, in English and at the link's default context.
    await page.goto(`${fileUrl}#lang=en`);
    await waitForText(env, page, 'total', REFERENCE.simulator.total);
    assert.match(await shownText(page, 'title'), /VRAM requirements/);
    // The model's published runs are in the file too (Gemma 4 26B-A4B has 49 in decode.json).
    await page.goto(`${fileUrl}#lang=en&model=gemma-4-26b-a4b`);
    await waitForText(env, page, `${byTestId('measured')} summary`, 'Published decode runs of Gemma 4 26B-A4B: 49');
    assert.ok(requests.every((url) => url.startsWith('file:')), `only the file: ${requests}`);
    await assertHealthy(env, page, 'the single file in English');
  });
});
