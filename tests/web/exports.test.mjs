// The quantization matrix and the hardware table exported (issue 16) in headless Chromium, on
// the reference page: the CSV parses back to the reference page's figures (tests/golden/
// reference-page.txt: the matrix's totals at 8K / 32K / 128K, the hardware table's memory and
// decode), after a line naming the table and the page's link; the Markdown is the table as
// shown.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { TEST_TIMEOUT_MS, assertHealthy, byTestId, openPage, shareBrowser } from './support/harness.mjs';
import { parseCsv } from './support/csv.mjs';
import { REFERENCE, referenceNumber } from './support/reference.mjs';


describe('table exports', { timeout: TEST_TIMEOUT_MS * 3 }, () => {
  let env;
  shareBrowser((launched) => { env = launched; });

  async function csvOf(page, testId) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(byTestId(testId)).click()]);
    return parseCsv(await readFile(await download.path(), 'utf8'));
  }

  test('the matrix as CSV holds the reference page\'s totals', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    const [[caption], header, ...rows] = await csvOf(page, 'matrix-csv');
    assert.match(caption, /GLM-4-32B-0414/);
    assert.ok(caption.includes(env.url('')), caption);
    assert.deepEqual(header, ['format', 'label', 'bits_per_weight', 'weights_gb', 'total_gb_8192', 'total_gb_32768',
      'total_gb_131072', 'recommended_device', 'recommended_devices']);
    for (const [format, , bpw, weights, at8k, at32k, at128k] of REFERENCE.matrix) {
      const row = rows.find((r) => r[0] === format);
      assert.ok(row, format);
      assert.deepEqual(row.slice(2, 7).map((cell) => Number(cell).toFixed(2)),
        [bpw, weights, at8k, at32k, at128k].map((text) => referenceNumber(text).toFixed(2)), format);
    }
    await assertHealthy(env, page, 'matrix CSV');
  });

  test('the hardware table as CSV holds the reference page\'s memory and decode', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    await page.locator('#hardware').scrollIntoViewIfNeeded();
    const [, header, ...rows] = await csvOf(page, 'hardware-csv');
    assert.deepEqual(header, ['device', 'name', 'memory_gb', 'bandwidth_gb_s', 'needed_gb', 'usage_pct', 'fit', 'decode_tok_s',
      'offload_decode_tok_s', 'gpu_limit_command']);
    for (const [device, , , needed, , decode] of REFERENCE.hardware) {
      const row = rows.find((r) => r[0] === device);
      assert.ok(row, device);
      assert.equal(Number(row[4]).toFixed(2), referenceNumber(needed).toFixed(2), `${device} needed`);
      assert.equal(Number(row[7]).toFixed(1), referenceNumber(decode).toFixed(1), `${device} decode`);
      assert.equal(row[8], '', `${device}: the reference page's profile has no offload`);
      assert.equal(row[9], '', `${device}: nor a Mac's working set`);
    }
  });

  test('the hardware table as CSV gives the offload plan\'s rate where a card runs it with offload', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    // Qwen3-30B-A3B-Instruct-2507 Q4_K_M (18 GB) does not fit a 12 GB RTX 5070 under llama.cpp; it
    // fits the 24 GB cards. The CSV's rate is the one the page shows in the card's row.
    await openPage(env, page, '#model=qwen3-30b-a3b-instruct-2507&format=Q4_K_M&device=rtx-5070-12gb&runtime=llamacpp' +
      '&context=4096&lang=en');
    await page.locator('#hardware').scrollIntoViewIfNeeded();
    const [, , ...rows] = await csvOf(page, 'hardware-csv');
    const card = rows.find((r) => r[0] === 'rtx-5070-12gb');
    assert.equal(card[6], 'no_fit');
    const shown = await page.locator('[data-testid="hw-row"][data-device="rtx-5070-12gb"] [data-testid="hw-decode"]').textContent();
    assert.equal(`${Number(card[8]).toFixed(1)} tok/s`, shown);
    assert.equal(rows.find((r) => r[0] === 'rtx-4090-24gb')[8], '');
    await assertHealthy(env, page, 'hardware CSV with offload');
  });

  test('the matrix as Markdown is the table as shown', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await env.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
    await openPage(env, page);
    await page.locator(byTestId('matrix-copy-md')).click();
    await page.locator(`${byTestId('matrix-copy-md')}[data-copied]`).waitFor();  // it says "copied"
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    const lines = markdown.split('\n').filter((line) => line.startsWith('| '));
    const shown = await page.locator('#matrix tbody tr').count();
    assert.equal(lines.length, shown + 2, markdown);
    const fp16 = lines.find((line) => line.startsWith('| FP16'));
    assert.ok(fp16.includes('63,13 GB'), fp16);  // the German page's own text
    await assertHealthy(env, page, 'matrix Markdown');
  });
});
