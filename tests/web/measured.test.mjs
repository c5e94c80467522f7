// The model's published runs (web/js/render/measured.js): the runs of tests/calibration/decode.json
// for the model on the page below the simulator, then those of prefill.json, each with its
// device, speed, format, test, engine and source as the source states them, runs a source
// repeated on stacks the row does not name merged into their range, the page's engine and the
// chosen device's platform first, in either language; none for a model without published runs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  TEST_TIMEOUT_MS, assertHealthy, byTestId, openPage, repoRoot, shareBrowser, shownText, waitForText,
} from './support/harness.mjs';

let env;
const calibration = async (kind) => JSON.parse(await readFile(path.join(repoRoot, `tests/calibration/${kind}.json`), 'utf8'));
const sets = { decode: await calibration('decode'), prefill: await calibration('prefill') };
// A set's runs of a catalog model: its rows of that key, or of a shape that names it (catalog_id).
const runsOf = (model, kind = 'decode') => sets[kind].rows
  .filter((row) => (row.model in sets[kind].models ? sets[kind].models[row.model].catalog_id ?? row.model : row.model) === model).length;
// Pavlo Khmel's llama-server table (2026-06-07): "gemma-4-26B-A4B-it 16.9 x 32 x x 84 108 116 x 149
// 178 181 188 185", the RTX 4090 column 149 tok/s.
const PK_URL = 'https://pavlokhmel.com/llm_throughput_benchmark_on_13_gpus_and_10_models.html';

/** The table's rows as the page shows them (the details open), each cell's text. */
const rowsShown = (page, id = 'measured') => page.locator(`${byTestId(`${id}-table`)} tbody tr`)
  .evaluateAll((rows) => rows.map((row) => [...row.cells].map((cell) => cell.innerText.replace(/\u00a0/g, ' ').trim())));

describe('published runs of the model', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  shareBrowser((launched) => { env = launched; });

  test('Gemma 4 26B-A4B: its runs, the page\'s engine and device platform first, with their sources', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#model=gemma-4-26b-a4b&device=rtx-4090-24gb&runtime=llamacpp&lang=en');
    // pavlokhmel.com's 8, kyuz0's 18 (Strix Halo, ROCm) and 6 (Vulkan RADV), the M2 Max's 1, 2 more
    // under Vulkan (the Strix Halo guide, PR #27952), 3 on an RX 7900 XTX (Q6_K: PR #26284's tg64 at
    // 0 and 4,096 tokens, PR #26705's microbatch-1 run), PR #26705's on an MI100, PR #29152's 2
    // on an RTX 3090, 5 on a 40-core M5 Max (ax-engine's 4, metaljax's 1) and daScript's 2 on a
    // 32-core M1 Max (Q8_0 and Q4_K_M), and daimonionnn's 1 on a Radeon AI PRO R9700 (ROCm 7.2.3).
    const count = runsOf('gemma-4-26b-a4b');
    assert.equal(count, 49);
    await waitForText(env, page, `${byTestId('measured')} summary`, `Published decode runs of Gemma 4 26B-A4B: ${count}`);
    await page.locator(`${byTestId('measured')} summary`).click();
    const rows = await rowsShown(page);
    // llama.cpp on CUDA first (the device is an RTX 4090), then ROCm, Vulkan and Metal.
    const cuda = rows.findIndex((cells) => !cells[4].includes('CUDA'));
    assert.ok(cuda > 0 && rows.slice(cuda).every((cells) => !cells[4].includes('CUDA')), 'the CUDA runs first');
    const rtx4090 = rows.find((cells) => cells[0] === 'NVIDIA GeForce RTX 4090');
    assert.deepEqual(rtx4090, ['NVIDIA GeForce RTX 4090', '149.0', 'Q4_K_M', 'server decode (1 request)', 'llama.cpp · CUDA',
      'pavlokhmel.com']);
    const link = page.locator(`${byTestId('measured-table')} a`, { hasText: 'pavlokhmel.com' }).first();
    assert.equal(await link.getAttribute('href'), PK_URL);
    // kyuz0's BF16 tg128 under ROCm 6.4.4 and 7.2.3 (23.37 and 24.64 tok/s, build 0253fb21f): one
    // row with the range and a link to each log.
    const bf16 = rows.find((cells) => cells[2] === 'BF16' && cells[3] === 'tg128');
    assert.deepEqual(bf16, ['AMD Ryzen AI Max+ 395 (Radeon 8060S, gfx1151)', '23.4–24.6', 'BF16', 'tg128',
      'llama.cpp · ROCm · 0253fb21f', 'kyuz0/amd-strix-halo-toolboxes (2)']);
    assert.ok(rows.some((cells) => cells[3] === 'tg32 after 32,768 tokens'), 'a run at depth says after how many tokens');
    await assertHealthy(env, page, 'published runs');
  });

  test('in German, and another model\'s runs when the model changes', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#model=gemma-4-26b-a4b&device=rtx-4090-24gb&runtime=llamacpp&lang=de');
    await waitForText(env, page, `${byTestId('measured')} summary`, 'Veröffentlichte Decode-Messungen von Gemma 4 26B-A4B: 49');
    await page.locator(`${byTestId('measured')} summary`).click();
    assert.ok((await rowsShown(page)).some((cells) => cells[3] === 'tg32 nach 32.768 Tokens'));
    await page.locator(byTestId('model')).selectOption('gpt-oss-20b');
    await waitForText(env, page, `${byTestId('measured')} summary`, `Veröffentlichte Decode-Messungen von gpt-oss-20b: ${runsOf('gpt-oss-20b')}`);
    await assertHealthy(env, page, 'published runs in German');
  });

  test('prompt-processing runs after them', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#model=qwen3.6-35b-a3b&device=h200-141gb&runtime=sglang&lang=en');
    const count = runsOf('qwen3.6-35b-a3b', 'prefill');
    const summary = `${byTestId('measured-prefill')} summary`;
    await waitForText(env, page, summary, `Published prompt-processing runs of Qwen3.6-35B-A3B: ${count}`);
    await page.locator(summary).click();
    const rows = await rowsShown(page, 'measured-prefill');
    // SGLang's cookbook (qwen3.6-benchmarks.jsx @ ec170fd): on an H200, BF16, a cold 8,192-token
    // request's P50 time to first token 182 ms, 8,192 / 0.182 s = 45,011 tok/s; SGLang's runs first.
    assert.ok(rows[0][4].startsWith('SGLang'), 'the engine on the page first');
    assert.deepEqual(rows.find((cells) => cells[0] === 'NVIDIA H200 141GB' && cells[2] === 'BF16'), ['NVIDIA H200 141GB',
      '45,011', 'BF16', 'TTFT, 8,192-token prompt', 'SGLang · CUDA · sglang 0.5.16', 'sgl-project/sglang cookbook']);
    await assertHealthy(env, page, 'published prompt-processing runs');
  });

  test('a run with flash attention and the same run without it are two rows, each saying which', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#model=llama-3.1-8b&device=rtx-3090-24gb&runtime=llamacpp&lang=en');
    const summary = `${byTestId('measured-prefill')} summary`;
    await waitForText(env, page, summary, `Published prompt-processing runs of Llama 3.1 8B: ${runsOf('llama-3.1-8b', 'prefill')}`);
    await page.locator(summary).click();
    const rows = await rowsShown(page, 'measured-prefill');
    // sztlink/boring-receipts (2026-05-23, llama-bench b9286 on an RTX 3090): "32K … pp prefill
    // t/s fa0 532, fa1 2026", one row each, not the range of the two.
    const at32k = rows.filter((cells) => cells[5] === 'sztlink/boring-receipts' && cells[3].startsWith('pp512 after 32,768 tokens'));
    assert.deepEqual(at32k.map((cells) => [cells[0], cells[1], cells[3]]).sort(), [
      ['RTX 3090 24GB', '2,026', 'pp512 after 32,768 tokens, flash attention on'],
      ['RTX 3090 24GB', '532.0', 'pp512 after 32,768 tokens, flash attention off']]);
    await assertHealthy(env, page, 'runs with and without flash attention');
  });

  test('none for a model without published runs', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#model=gemma-4-26b-a4b&runtime=llamacpp&lang=en');
    await page.locator(byTestId('measured')).waitFor({ state: 'visible' });
    await page.locator(byTestId('model')).selectOption('glm-4-32b-0414');
    await page.locator(byTestId('measured')).waitFor({ state: 'hidden' });
    assert.equal(runsOf('glm-4-32b-0414'), 0);
    assert.equal(await shownText(page, 'total') !== '', true);
  });
});
