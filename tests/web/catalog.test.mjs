// The catalog on the page: bring your own config.json, compare any device, tensor parallelism,
// and the attention families' KV numbers against hand calculations.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  TEST_TIMEOUT_MS, WAIT_MS, assertClose, assertHealthy, byTestId, hashHas, loadCore, numberValue, openPage, repoRoot,
  shareBrowser, shownText, waitForExactDataValue, waitForHash, waitForMatch, waitForText,
} from './support/harness.mjs';
import { REFERENCE, toGerman } from './support/reference.mjs';

const fixture = (type) => readFile(path.join(repoRoot, 'tests/golden/configs', `${type}.json`), 'utf8');

let env;
let core;

describe('catalog, own models and comparisons', { timeout: TEST_TIMEOUT_MS * 8 }, () => {
  shareBrowser((launched) => { env = launched; }, { setUp: async () => { core = await loadCore(); } });

  test('a pasted config.json becomes the page\'s model, and survives a reload', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    const text = await fixture('qwen3_moe');
    await page.locator('#custom summary').click();
    await page.locator(byTestId('custom-config')).fill(text);
    await page.locator(byTestId('custom-apply')).click();
    await waitForText(env, page, 'title', 'Custom qwen3_moe — VRAM-Anforderungen, Quantisierungsmatrix & GPU-Leitfaden');
    assert.equal(await page.locator(byTestId('model')).inputValue(), 'custom');
    await waitForHash(env, page, hashHas('model', 'custom'), 'hash has model=custom');
    const expected = core.evaluate({ model: JSON.parse(text) }).simulator;
    assertClose(await numberValue(page, 'total'), expected.total_gib, 1e-9, 'total of the pasted model');
    // Qwen3-30B-A3B's KV cache at 32K: 48 layers × 4 KV heads × 128 × 2 × 2 B × 32,768 = 3 GiB.
    assertClose(await numberValue(page, 'kv-cache'), 3, 1e-12, 'KV cache of the pasted model');
    const formula = await shownText(page, 'arch-params-formula');
    assert.match(formula, /128 experts × 4,718,592/, 'the card shows how the parameters were counted');
    await assertHealthy(env, page, 'with a pasted config');

    await page.reload();
    await waitForText(env, page, 'title', 'Custom qwen3_moe — VRAM-Anforderungen, Quantisierungsmatrix & GPU-Leitfaden');
    assertClose(await numberValue(page, 'total'), expected.total_gib, 1e-9, 'total after a reload');
    await assertHealthy(env, page, 'after a reload with a pasted config');

    // A link to another model: its first numbers do not wait for localStorage (whose first read
    // blocks a fresh profile's page for milliseconds); the stored config.json is read once the
    // page is idle, and the model selector then offers it.
    await page.addInitScript(() => {
      const read = Storage.prototype.getItem;
      Storage.prototype.getItem = function getItem(...args) {
        window.storageReadAt ??= performance.now();
        return read.apply(this, args);
      };
    });
    await openPage(env, page, '#model=qwen3-8b');
    await page.locator(`${byTestId('model')} option[value="custom"]`).waitFor({ state: 'attached', timeout: WAIT_MS });
    const [mark, readAt] = await page.evaluate(
      () => [performance.getEntriesByName('vramcalc:first-numbers')[0].startTime, window.storageReadAt]);
    assert.ok(readAt > mark, `localStorage read at ${readAt} ms, the first numbers at ${mark} ms`);
    assert.equal(await page.locator(byTestId('model')).inputValue(), 'qwen3-8b');
    await page.evaluate(() => localStorage.clear());
  });

  test('a quantized checkpoint\'s config.json is estimated in its published format', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#model=qwen3-8b&runtime=vllm&device=h100-80gb&lang=en');
    // Kimi-K2-Instruct's config.json: {"quant_method": "fp8", "fmt": "e4m3", …}.
    await page.locator('#custom summary').click();
    await page.locator(byTestId('custom-config')).fill(await fixture('kimi_k2'));
    await page.locator(byTestId('custom-apply')).click();
    await waitForHash(env, page, hashHas('format', 'FP8'), 'the published format');
    await waitForMatch(env, page, 'notice', /published in FP8/);  // the notice follows on the next frame
    await assertHealthy(env, page, 'with a quantized config.json');
  });

  test('a broken config.json is refused with the field named, and the page keeps working',
    { timeout: TEST_TIMEOUT_MS }, async () => {
      const { page } = env;
      await openPage(env, page);
      await page.locator('#custom summary').click();
      const field = page.locator(byTestId('custom-config'));
      await field.fill('{"model_type": "llama", "hidden_size": 4096}');
      await page.locator(byTestId('custom-apply')).click();
      const notice = page.locator(byTestId('notice'));
      await notice.waitFor({ state: 'visible' });
      assert.match(await notice.innerText(), /model\.num_hidden_layers/);
      await field.fill('{"model_type": "bert"');
      await page.locator(byTestId('custom-apply')).click();
      await waitForText(env, page, 'notice', 'Die config.json wurde nicht übernommen (config.json): Der Text ist kein gültiges JSON.');
      // Still the reference model, still moving with the slider.
      assert.equal(await shownText(page, 'total'), toGerman(REFERENCE.simulator.total));
      await page.locator(byTestId('context')).focus();
      await page.keyboard.press('ArrowRight');
      await waitForExactDataValue(env, page, 'context-value', 65536);
      await assertHealthy(env, page, 'after broken configs');
    });

  test('any device can be added to the hardware table and taken out again', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    await page.locator(byTestId('hw-add')).selectOption('rtx-4080-16gb');
    const row = page.locator(`${byTestId('hw-row')}[data-device="rtx-4080-16gb"]`);
    await row.waitFor();
    // 21.78 GB on a 16 GB card does not fit (usage 136 %).
    assert.equal(await row.locator(byTestId('hw-fit')).getAttribute('data-value'), 'no_fit');
    await waitForHash(env, page, hashHas('compare', 'rtx-4080-16gb'), 'hash has compare=rtx-4080-16gb');
    await row.locator(byTestId('hw-remove')).click();
    await row.waitFor({ state: 'detached' });
    assert.equal(await page.locator(byTestId('model')).inputValue(), 'glm-4-32b-0414', 'removing is not a row choice');
    await assertHealthy(env, page, 'after adding and removing a device');
  });

  test('two GPUs in tensor parallel halve what each holds', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#device=rtx-3090-24gb');
    await page.locator(byTestId('gpus')).selectOption('2');
    // Hand calculation in tests/core/evaluate_test.cc (TensorParallel): 11.77297 GiB per device.
    await waitForText(env, page, 'per-device', '11,77 GB');
    assertClose(await numberValue(page, 'per-device'), 11.77297, 1e-5, 'per device on 2 × RTX 3090');
    assert.match(await shownText(page, 'cmd-vllm'), /--tensor-parallel-size 2/);
    await waitForHash(env, page, hashHas('gpus', '2'), 'hash has gpus=2');
    await assertHealthy(env, page, 'with two GPUs');
  });

  test('a Gated DeltaNet hybrid shows its recurrent state, and its card the sources it was read from',
    { timeout: TEST_TIMEOUT_MS }, async () => {
      const { page } = env;
      await openPage(env, page, '#model=qwen3.5-9b&runtime=llamacpp&lang=en');
      // 24 linear layers × (24,576 conv + 524,288 recurrent elements) × 4 B (llama.cpp's F32) =
      // 52,690,944 B = 0.05 GB per sequence.
      await waitForText(env, page, 'state', '0.05 GB');
      await waitForText(env, page, 'arch-pattern',
        '32 layers: 8 full attention + 24 linear attention / SSM; 50.25 MiB recurrent state per sequence at 32 bits');
      // The sources are not in the module: the card loads them (model-sources.json) once it
      // comes into view.
      const entry = JSON.parse(await readFile(path.join(repoRoot, 'assets/models/qwen3.5-9b.json'), 'utf8'));
      const card = page.locator(byTestId('arch-sources'));
      await card.scrollIntoViewIfNeeded();
      const link = entry.sources.find((source) => source.url.startsWith('https://')).url;
      await card.locator(`a[href="${link}"]`).waitFor();
      assert.equal(await card.locator('li').count(), entry.sources.length);
      await assertHealthy(env, page, 'with a hybrid model');
    });

  test('a multimodal checkpoint shows its vision and audio towers on a line of their own', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await openPage(env, page, '#model=gemma-3-12b&runtime=vllm&device=h100-80gb&lang=en');
      // Gemma 3 12B's tower: its checkpoint's 12,187,325,040 parameters (the Hub's safetensors
      // total) less the language model's 11,766,034,176 = 421,290,864, in BF16 under vLLM:
      // 842,581,728 B = 0.78 GB (core/ESTIMATION.md section 5.2).
      await waitForText(env, page, 'vision', '0.78 GB');
      assertClose(await numberValue(page, 'vision'), 421290864 * 2 / 2 ** 30, 1e-9, 'the towers in GiB');
      assert.equal(await page.locator('#share-vision-key').isVisible(), true, 'their share in the bar\'s key');
      await page.locator(byTestId('arch-params-vision')).scrollIntoViewIfNeeded();
      await waitForText(env, page, 'arch-params-vision', '0.4B');
      // Gemma 4 26B-A4B's down projections of widths 2,112 and 704, which K-quants store larger:
      // 30 × 2,816 × (2,112 + 128 × 704) = 7,791,083,520 parameters, a card row of their own.
      await openPage(env, page, '#model=gemma-4-26b-a4b&runtime=llamacpp&lang=en');
      await page.locator(byTestId('arch-params-unaligned')).scrollIntoViewIfNeeded();
      await waitForText(env, page, 'arch-params-unaligned', '7.8B');
      // Nemotron-3-Nano's hidden size 2,688 adds every matrix reading it: 229,490,688 +
      // 14,687,404,032 down projections, 940,843,008 + 14,687,404,032 readers = 30.5B.
      await openPage(env, page, '#model=nemotron-3-nano-30b-a3b&runtime=llamacpp&lang=en');
      await page.locator(byTestId('arch-params-unaligned')).scrollIntoViewIfNeeded();
      await waitForText(env, page, 'arch-params-unaligned', '30.5B');
      // The reference page's model has neither: no line.
      await openPage(env, page, '#model=glm-4-32b-0414&lang=en');
      await waitForText(env, page, 'total', '21.78 GB');
      assert.equal(await page.locator(byTestId('vision')).isVisible(), false);
      assert.equal(await page.locator('#share-vision-key').isVisible(), false);
      assert.equal(await page.locator(byTestId('arch-params-unaligned')).count(), 0);
      await assertHealthy(env, page, 'with a multimodal model');
    });

  test('the model picker filters as one types, by family groups, and Enter picks the first match',
    { timeout: TEST_TIMEOUT_MS }, async () => {
      const { page } = env;
      await openPage(env, page, '#model=qwen3-8b&lang=en');
      const shown = () => page.locator(`${byTestId('model')} option:not([hidden])`).evaluateAll(
        (list) => list.map((o) => o.value));
      const filter = page.locator(byTestId('model-filter'));
      await filter.fill('nemotron');
      // The two Nemotron entries, and the model in use, which a filter never hides.
      assert.deepEqual((await shown()).sort(), ['nemotron-3-nano-30b-a3b', 'nemotron-nano-9b-v2', 'qwen3-8b']);
      const groups = await page.locator(`${byTestId('model')} optgroup:not([hidden])`).evaluateAll(
        (list) => list.map((g) => g.label));
      assert.deepEqual(groups.sort(), ['Alibaba Qwen', 'NVIDIA Nemotron']);
      await filter.fill('qwen3.5 moe');  // every word must match: no Qwen3.5 id or name says "moe"
      assert.deepEqual(await shown(), ['qwen3-8b']);
      await filter.fill('nano 30b');
      await filter.press('Enter');
      await waitForHash(env, page, hashHas('model', 'nemotron-3-nano-30b-a3b'), 'Enter picks the match');
      await filter.fill('');
      assert.equal(await page.locator(`${byTestId('model')} option[hidden], ${byTestId('model')} optgroup[hidden]`).count(), 0,
        'an empty filter shows every model');
      assert.ok((await shown()).length >= core.catalog().models.length);
      await assertHealthy(env, page, 'after filtering the models');
    });

  test('a related model that stops short of the context says so instead of a rating', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#model=gemma-2-9b&context=8192&lang=en');
    // OLMo-2-1124-7B's config.json stops at 4,096 positions.
    const row = page.locator('#related tr[data-model="olmo-2-7b"]');
    await row.scrollIntoViewIfNeeded();
    await waitForText(env, page, '#related tr[data-model="olmo-2-7b"] td:last-child',
      'context longer than the model supports (4,096 tokens)');
    await assertHealthy(env, page, 'with a related model beyond its context');
  });

  test('DeepSeek-V3 and Gemma 3 27B show their KV caches and sentences', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#model=deepseek-v3&device=h100-80gb');
    // MLA: 61 × (512 + 64) × 2 B × 32,768 = 2.14453125 GiB.
    await waitForExactDataValue(env, page, 'kv-cache', 2.14453125);
    assert.match(await shownText(page, 'kv-saving'), /^Multi-head Latent Attention komprimiert/);
    await openPage(env, page, '#model=gemma-3-27b&lang=en');
    // 5 local : 1 global: 8,192 B × (10 × 32,768 + 52 × 1,024) = 2.90625 GiB.
    await waitForExactDataValue(env, page, 'kv-cache', 2.90625);
    assert.match(await shownText(page, 'kv-saving'), /^Grouped-query attention and sliding-window layers/);
    await assertHealthy(env, page, 'MLA and window models');
  });
});
