// The built site (build-wasm/site) in headless Chromium: the controls (context slider by
// keyboard and pointer, the context field, every selector), row clicks in the three tables and
// the copy buttons. Every test also checks that the page logged no error, opened no dialog,
// requested nothing outside 127.0.0.1 and shows no NaN/undefined/Infinity/[object.
//
// Needs the wasm build (`emcmake cmake -S . -B build-wasm -G Ninja && cmake --build build-wasm`)
// and Debian's Chromium at /usr/bin/chromium (CHROMIUM overrides the path). Run with
// `npm run test:web`. Shared set-up: support/harness.mjs; reference values: support/reference.mjs.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TEST_TIMEOUT_MS, WAIT_MS, assertCleanBodyText, assertClose, assertHealthy, byTestId, dataValue, hashHas, hashParams,
  launch, loadCore, missingPrerequisites, numberValue, openPage, settle, shareBrowser, shownText, waitForDataValue,
  waitForExactDataValue, waitForHash, waitForText,
} from './support/harness.mjs';
import { REFERENCE, toGerman } from './support/reference.mjs';

let env;
let core; // the same wasm module in Node: expected values the reference page does not have

// Reference values used below (tests/golden/reference-page.txt, read from its table
// tests/golden/reference-page.json by support/reference.mjs), in German format.
const referenceMatrix = Object.fromEntries(REFERENCE.matrix.map(([format, ...cells]) => [format, cells]));
const referenceHardware = Object.fromEntries(REFERENCE.hardware.map(([device, ...cells]) => [device, cells]));
const Q4_AT_8K = toGerman(referenceMatrix.Q4_K_M[3]); // "20,35 GB"
const Q4_AT_32K = toGerman(referenceMatrix.Q4_K_M[4]); // "21,78 GB"
const Q4_AT_128K = toGerman(referenceMatrix.Q4_K_M[5]); // "27,50 GB"
// KV cache of the reference scenario in GiB, exactly: 2 (K and V) × 61 layers × 2 KV heads ×
// 128 (head dim) × 32768 tokens × 2 bytes (FP16) / 2^30 = 1.90625 (shown as "1.91 GB").
const KV_FP16_GIB = (2 * 61 * 2 * 128 * 32768 * 2) / 2 ** 30;

/** Chooses an option of a selector and waits until the page has rendered the frame after it. */
async function choose(page, testId, value) {
  const select = page.locator(byTestId(testId));
  const options = await select.locator('option').evaluateAll((nodes) => nodes.map((o) => o.value));
  assert.ok(options.includes(value), `select ${testId} lacks option ${value} (has ${options.join(', ')})`);
  await select.selectOption(value);
  await settle(page);
}

/** Where to put the pointer on the context slider for a position (log2 of the tokens). */
async function sliderPoint(page, position) {
  const range = page.locator(byTestId('context'));
  const box = await range.boundingBox();
  const { min, max } = await range.evaluate((input) => ({ min: Number(input.min), max: Number(input.max) }));
  // The thumb's centre travels from thumb/2 to width − thumb/2. Chromium's default thumb is
  // about 16 px wide; one step is ~50 px at the default 1280 px window, so the estimate is safe.
  const thumb = 16;
  return {
    x: box.x + thumb / 2 + ((position - min) / (max - min)) * (box.width - thumb),
    y: box.y + box.height / 2,
  };
}

/** Waits for context `tokens` on the label, the slider and the total. */
async function expectContext(page, tokens, what) {
  await waitForExactDataValue(env, page, 'context-value', tokens);
  assert.equal(await page.locator(byTestId('context')).inputValue(), String(Math.log2(tokens)), `${what}: slider`);
  assert.equal(await shownText(page, 'context-value'), `${new Intl.NumberFormat('de-DE').format(tokens)} Tokens`,
    `${what}: context label`);
}

// Without the build or the browser this fails with the instructions (the page tests fail too).
test('the site and Chromium are present', async () => {
  const missing = await missingPrerequisites();
  assert.equal(missing, null, missing ?? '');
});

describe('vramcalc page: controls, tables, copy buttons', { timeout: TEST_TIMEOUT_MS * 10 }, () => {
  shareBrowser((launched) => { env = launched; }, { setUp: async () => { core = await loadCore(); } });

  test('the context slider by keyboard: ArrowRight, ArrowLeft, Home, End', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    const slider = page.locator(byTestId('context'));
    await slider.focus();

    await page.keyboard.press('ArrowRight');
    await expectContext(page, 65536, 'ArrowRight');
    assertClose(await numberValue(page, 'total'), core.simulator({ context: 65536 }).total_gib, 1e-9,
      'total at 65536 (vs the core)');

    await page.keyboard.press('ArrowRight');
    await expectContext(page, 131072, 'ArrowRight twice');
    await waitForText(env, page, 'total', Q4_AT_128K); // the matrix's Q4_K_M @ 128K
    const at128k = await page.locator('[data-testid="matrix-cell"][data-format="Q4_K_M"][data-context="131072"]')
      .getAttribute('data-value');
    assertClose(await numberValue(page, 'total'), Number(at128k), 1e-9, 'total at 131072 vs the matrix cell');

    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowLeft');
    await expectContext(page, 8192, 'ArrowLeft four times');
    await waitForText(env, page, 'total', Q4_AT_8K); // the matrix's Q4_K_M @ 8K
    assert.equal(await dataValue(page, 'fit'), 'comfortable', 'fit at 8192 on the RTX 3090');

    await page.keyboard.press('Home');
    await expectContext(page, 512, 'Home');
    assertClose(await numberValue(page, 'total'), core.simulator({ context: 512 }).total_gib, 1e-9, 'total at 512');

    await page.keyboard.press('End');
    await expectContext(page, 2 ** 20, 'End');
    assertClose(await numberValue(page, 'total'), core.simulator({ context: 2 ** 20 }).total_gib, 1e-9,
      'total at 1,048,576');
    assert.equal(await dataValue(page, 'fit'), 'no_fit', 'fit at 1,048,576 tokens on the RTX 3090');
    assert.equal(await slider.getAttribute('aria-valuetext'), await page.locator(byTestId('context-value')).innerText(),
      'the slider announces the same text as its label');
    // Keys change the value at once: each is a change, so the link follows.
    await waitForHash(env, page, hashHas('context', String(2 ** 20)), 'hash has context=1048576 after End');
    await assertHealthy(env, page, 'after the slider keys');
  });

  test('the context slider by pointer: a click on the track and a drag of the thumb', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await openPage(env, page);

      const at17 = await sliderPoint(page, 17);
      await page.mouse.click(at17.x, at17.y);
      await expectContext(page, 131072, 'click at position 17');
      await waitForText(env, page, 'total', Q4_AT_128K);
      await waitForHash(env, page, hashHas('context', '131072'), 'hash has context=131072 after the click');

      // Drag from the thumb to position 13: the view follows while the button is held; the link
      // is written only on release (the change event).
      await page.mouse.move(at17.x, at17.y);
      await page.mouse.down();
      const at13 = await sliderPoint(page, 13);
      await page.mouse.move(at13.x, at13.y, { steps: 8 });
      await expectContext(page, 8192, 'dragged to position 13');
      await waitForText(env, page, 'total', Q4_AT_8K);
      assert.equal(hashParams(await page.evaluate(() => location.hash)).get('context'), '131072',
        'the link is not rewritten while dragging');
      await page.mouse.up();
      await waitForHash(env, page, hashHas('context', '8192'), 'hash has context=8192 after the release');
      await assertHealthy(env, page, 'after the pointer');
    });

  test('typing a context into the field applies it on Enter; a bad one is refused', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await openPage(env, page);
      const field = page.locator(byTestId('context-number'));
      const sliderBefore = await page.locator(byTestId('context')).inputValue();
      await field.fill('65536');
      await field.press('Enter');
      await waitForExactDataValue(env, page, 'context-value', 65536);
      assertClose(await numberValue(page, 'total'), core.simulator({ context: 65536 }).total_gib, 1e-9,
        'total at context 65536 (vs the core)');
      assert.equal(await field.inputValue(), '65536', 'the context field keeps 65536');
      assert.notEqual(await page.locator(byTestId('context')).inputValue(), sliderBefore, 'the slider follows the field');
      await waitForHash(env, page, hashHas('context', '65536'), 'hash has context=65536');

      // A context that is not a power of two is kept exactly; the slider snaps to the nearest.
      await field.fill('50000');
      await field.press('Enter');
      await waitForExactDataValue(env, page, 'context-value', 50000);
      assert.equal(await page.locator(byTestId('context')).inputValue(), '16', 'the slider shows the nearest power');
      assertClose(await numberValue(page, 'total'), core.simulator({ context: 50000 }).total_gib, 1e-9, 'total at 50000');

      const totalBefore = await dataValue(page, 'total');
      await field.fill('0');
      await field.press('Enter');
      await page.locator(byTestId('notice')).waitFor({ state: 'visible' });
      assert.equal(await dataValue(page, 'total'), totalBefore, 'context 0 changes nothing');
      assert.equal(await dataValue(page, 'context-value'), '50000', 'context 0 is not applied');
      assert.equal(await field.inputValue(), '50000', 'the field shows the context in force again');
      await assertHealthy(env, page, 'after typing contexts');
    });

  test('model selector: GLM-4-9B-0414 changes the title, the card and the numbers', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await openPage(env, page);
      await choose(page, 'model', 'glm-4-9b-0414');
      await waitForText(env, page, 'title', 'GLM-4-9B-0414 — VRAM-Anforderungen, Quantisierungsmatrix & GPU-Leitfaden');
      assert.equal(await page.title(), 'GLM-4-9B-0414 — VRAM-Anforderungen, Quantisierungsmatrix & GPU-Leitfaden');
      assert.equal(await shownText(page, 'arch-checkpoint'), 'THUDM/GLM-4-9B-0414');
      assert.ok((await shownText(page, 'summary')).startsWith('GLM-4-9B-0414 '), 'the summary names the model');
      assertClose(await numberValue(page, 'total'), core.simulator({ model: 'glm-4-9b-0414' }).total_gib, 1e-9,
        'GLM-4-9B total (vs the core)');
      // Related models are the catalog's nearest in total memory at these settings (per the core).
      const related = await page.locator(byTestId('related-row')).evaluateAll((rows) => rows.map((r) => r.dataset.model));
      const expected = core.evaluate({ model: 'glm-4-9b-0414' }).related.map((r) => r.id);
      assert.deepEqual(related, expected, 'the related table follows the model');
      assert.ok(!related.includes('glm-4-9b-0414'), 'the model is not related to itself');
      await waitForHash(env, page, hashHas('model', 'glm-4-9b-0414'), 'hash has model=glm-4-9b-0414');
      await assertHealthy(env, page, 'with GLM-4-9B-0414');
    });

  test('format selector: FP16 shows its weights and total', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    await choose(page, 'format', 'FP16');
    await waitForText(env, page, 'weights', toGerman(referenceMatrix.FP16[2])); // "59,60 GB"
    assert.equal(await shownText(page, 'total'), toGerman(referenceMatrix.FP16[4])); // FP16 @ 32K: "64,56 GB"
    assert.ok((await page.locator(`${byTestId('device')} option[value="auto"]`).textContent()).includes('NVIDIA A100 80GB'),
      '"auto" now follows the FP16 row\'s recommended class');
    assert.equal(await page.locator('tr[data-format="FP16"]').getAttribute('class'), 'selected');
    await waitForHash(env, page, hashHas('format', 'FP16'), 'hash has format=FP16');
    await assertHealthy(env, page, 'with FP16');
  });

  test('device selector: RTX 4090 decodes at 29,4 tok/s, "auto" brings the RTX 3090 back', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await openPage(env, page);
      await choose(page, 'device', 'rtx-4090-24gb');
      await waitForText(env, page, 'decode', toGerman(referenceHardware['rtx-4090-24gb'][4])); // "29,4 tok/s"
      assert.equal(await dataValue(page, 'fit'), 'tight');
      assert.equal(await shownText(page, '#cmd-vllm-heading'), 'vLLM CLI (RTX 4090 24GB)');
      assert.deepEqual(await page.locator(`${byTestId('hw-row')}.selected`).evaluateAll((rows) => rows.map((r) => r.dataset.device)),
        ['rtx-4090-24gb'], 'the RTX 4090 row is the selected one');
      await waitForHash(env, page, hashHas('device', 'rtx-4090-24gb'), 'hash has device=rtx-4090-24gb');

      await choose(page, 'device', 'auto');
      await waitForText(env, page, 'decode', toGerman(REFERENCE.simulator.decode)); // "27,3 tok/s"
      await waitForHash(env, page, (hash) => !hashParams(hash).has('device'), 'no device in the hash for "auto"');
      await assertHealthy(env, page, 'after the device selector');
    });

  test('batch selector: 4 sequences need 4 × the KV cache', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    assert.equal(await numberValue(page, 'kv-cache'), KV_FP16_GIB, 'the reference KV cache is exactly 1.90625 GiB');
    await choose(page, 'batch', '4');
    await waitForExactDataValue(env, page, 'kv-cache', 4 * KV_FP16_GIB);
    assert.equal(await shownText(page, 'kv-cache'), '7,63 GB', '7.625 rounds half up');
    assert.ok((await shownText(page, '#matrix-caption')).includes('Batch = 4'), 'the matrix caption says batch 4');
    await waitForHash(env, page, hashHas('batch', '4'), 'hash has batch=4');
    await assertHealthy(env, page, 'with batch 4');
  });

  test('KV-cache selector: Q8_0 stores 34 bytes per 32 values', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    await choose(page, 'kv', 'q8_0');
    const kv = Number(await waitForDataValue(env, page, 'kv-cache', String(KV_FP16_GIB)));
    // Q8_0: 32 values in 34 bytes (32 int8 and an FP16 scale) instead of 64 bytes in FP16.
    assertClose(kv, (KV_FP16_GIB * 34) / 64, 1e-9, 'Q8_0 KV cache');
    assert.equal(await shownText(page, 'kv-cache'), '1,01 GB');
    assert.equal(await shownText(page, '#kv-cache-label'), 'KV-Cache (Q8_0)');
    await waitForHash(env, page, hashHas('kv', 'q8_0'), 'hash has kv=q8_0');
    await assertHealthy(env, page, 'with a Q8_0 KV cache');
  });

  test('language selector: English labels and number format', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    await choose(page, 'lang', 'en');
    await waitForText(env, page, 'fit', 'Tight (>90 % in use)');
    assert.equal(await shownText(page, 'total'), REFERENCE.simulator.total); // "21.78 GB"
    assert.equal(await shownText(page, '.figure-main dt'), 'Total memory required');
    assert.equal(await shownText(page, 'max-context'), REFERENCE.simulator['max-context'].replace('Tokens', 'tokens'));
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    await assertHealthy(env, page, 'in English');
  });

  test('every selector in turn keeps the page consistent with the core', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    const { page } = env;
    await openPage(env, page);
    const lastOption = (options) => options.at(-1);
    const selections = [
      ['lang', 'en'], ['model', 'glm-4-9b-0414'], ['device', 'apple-m-max-64gb'], ['kv', 'q8_0'],
      ['batch', lastOption], ['format', 'IQ4_XS'], ['device', 'rtx-3060-12gb'], ['kv', 'q4_0'],
      ['model', 'glm-4-32b-0414'], ['format', 'FP16'], ['gpus', '2'], ['lang', 'de'],
    ];
    for (const [testId, pick] of selections) {
      const options = await page.locator(byTestId(testId)).locator('option').evaluateAll((nodes) => nodes.map((o) => o.value));
      const value = typeof pick === 'function' ? pick(options) : pick;
      await choose(page, testId, value);
      await assertHealthy(env, page, `after ${testId}=${value}`);
      for (const id of ['total', 'weights', 'kv-cache', 'decode']) await numberValue(page, id);
      assert.ok(['comfortable', 'tight', 'no_fit'].includes(await dataValue(page, 'fit')), `fit after ${testId}=${value}`);
    }
    const chosen = async (testId) => page.locator(byTestId(testId)).inputValue();
    const request = {
      model: await chosen('model'), format: await chosen('format'), device: await chosen('device'),
      kv_dtype: await chosen('kv'), batch: Number(await chosen('batch')),
    };
    // The GPU count: "auto" leaves the choice to the core, a number is sent as device_count.
    const gpus = await chosen('gpus');
    if (gpus !== 'auto') request.device_count = Number(gpus);
    const expected = core.simulator(request).total_gib;
    assertClose(await numberValue(page, 'total'), expected, 1e-9, 'total after all selections (vs the core)');
    const german = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(expected);
    assert.equal(await shownText(page, 'total'), `${german} GB`);
  });

  test('50 input events in one task: the total is rendered once, for the last position', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await openPage(env, page);
      const positions = Array.from({ length: 50 }, (_, i) => 9 + (i % 12));
      positions[positions.length - 1] = 17; // end at 131072 tokens
      const result = await page.evaluate(async (list) => {
        const range = document.querySelector('[data-testid="context"]');
        const total = document.querySelector('[data-testid="total"]');
        const seen = [];
        const observer = new MutationObserver((records) => {
          for (const record of records) {
            seen.push(record.type === 'attributes' ? `data-value (was ${record.oldValue})` : `text (${record.type})`);
          }
        });
        observer.observe(total, {
          attributes: true, attributeFilter: ['data-value'], attributeOldValue: true,
          childList: true, characterData: true, subtree: true,
        });
        for (const position of list) {
          range.value = String(position);
          range.dispatchEvent(new Event('input', { bubbles: true }));
        }
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        observer.disconnect();
        return { seen, value: total.dataset.value, context: document.querySelector('[data-testid="context-value"]').dataset.value };
      }, positions);
      const matrixAt128k = await page.locator('[data-testid="matrix-cell"][data-format="Q4_K_M"][data-context="131072"]')
        .getAttribute('data-value');
      assert.equal(result.context, '131072', 'the label shows the last position');
      assertClose(Number(result.value), Number(matrixAt128k), 1e-9, 'the total is the one for the last position');
      const valueChanges = result.seen.filter((entry) => entry.startsWith('data-value'));
      assert.equal(valueChanges.length, 1, `the total's data-value changed ${valueChanges.length} times: ${result.seen.join(', ')}`);
      assert.ok(result.seen.length <= 2, `the total was written more than once (one text, one data-value): ${result.seen.join(', ')}`);
      assert.equal(await shownText(page, 'total'), Q4_AT_128K);
      await assertHealthy(env, page, 'after 50 input events');
    });

  test('while the slider moves, tables out of view catch up when it rests, and at once in view', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await openPage(env, page);
      const cell = (context) => `[data-testid="matrix-cell"][data-format="Q4_K_M"][data-context="${context}"]`;
      const matrixAt8k = Number(await page.locator(cell(8192)).getAttribute('data-value'));
      const matrixAt128k = Number(await page.locator(cell(131072)).getAttribute('data-value'));
      const needed = '[data-testid="hw-row"][data-device="rtx-3090-24gb"] [data-testid="hw-needed"]';
      const moveTo = (position) => page.evaluate(async ([value, selector]) => {
        const range = document.querySelector('[data-testid="context"]');
        range.value = String(value);
        range.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        return Number(document.querySelector(selector).dataset.value);
      }, [position, needed]);

      // At the top of the page the hardware table is out of view: a move leaves it for later.
      await page.evaluate(() => window.scrollTo(0, 0));
      const at32k = Number(await page.locator(needed).getAttribute('data-value'));
      assert.equal(await moveTo(13), at32k, 'the table out of view still shows 32K two frames after the move');
      assert.equal(await shownText(page, 'total'), Q4_AT_8K, 'the simulator follows at once');
      await page.waitForFunction(([selector, value]) => Number(document.querySelector(selector).dataset.value) === value,
        [needed, matrixAt8k], { timeout: WAIT_MS });  // caught up once the slider rests: the matrix's 8K total

      // In view, the table follows every frame.
      await page.locator(needed).scrollIntoViewIfNeeded();
      await page.waitForTimeout(100);  // the visibility observer reports
      assertClose(await moveTo(17), matrixAt128k, 1e-9, 'the table in view shows 128K two frames after the move');
      await assertHealthy(env, page, 'after moves with the table out of view and in view');
    });

  test('while the slider moves, the number field and the view link wait until it rests', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await openPage(env, page);
      // An input event and two frames: the figures follow, the copies of the context wait.
      const shown = await page.evaluate(async () => {
        const range = document.querySelector('[data-testid="context"]');
        range.value = '13';
        range.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        return { number: document.querySelector('[data-testid="context-number"]').value,
          link: document.querySelector('[data-testid="view-link"]').getAttribute('href') };
      });
      assert.equal(await shownText(page, 'total'), Q4_AT_8K, 'the total follows at once');
      assert.equal(shown.number, '32768', 'the number field still shows 32K two frames after the move');
      assert.ok(!hashParams(shown.link).has('context'), `the view link still has the default 32K: ${shown.link}`);
      // At rest: both show 8K.
      await page.waitForFunction(() => document.querySelector('[data-testid="context-number"]').value === '8192',
        null, { timeout: WAIT_MS });
      assert.equal(hashParams(await page.locator(byTestId('view-link')).getAttribute('href')).get('context'), '8192');
      await assertHealthy(env, page, 'after the slider rested');
    });

  test("the bar's segments are the reference page's shares, side by side", { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    // Weights 83 %, KV 8.8 %, overhead 8.2 % (rounded as the reference page shows them; the
    // state is none): each segment as wide as its share of the bar, starting where the last ends.
    const shares = ['share-weights', 'share-kv', 'share-overhead'].map((id) => Number(REFERENCE.simulator[id].replace('%', '')));
    const { bar, segments } = await page.locator('#bar').evaluate((element) => ({
      bar: element.getBoundingClientRect().toJSON(),
      segments: Object.fromEntries([...element.children].map((span) => [span.className, span.getBoundingClientRect().toJSON()])),
    }));
    assert.ok(bar.width > 100, `the bar is laid out (${bar.width} px)`);
    const tolerance = 0.006 * bar.width + 1;  // half a percent of rounding, a pixel of snapping
    assertClose(segments['bar-state'].width, 0, 1, 'no state segment');
    let at = bar.left;
    ['bar-weights', 'bar-kv', 'bar-overhead'].forEach((name, i) => {
      assertClose(segments[name].left, at, tolerance, `${name} starts where the one before ends`);
      assertClose(segments[name].width, (shares[i] / 100) * bar.width, tolerance, `${name}: ${shares[i]} % of the bar`);
      at = segments[name].right;
    });
    assertClose(at, bar.right, tolerance, 'the segments fill the bar');
  });

  test('a matrix row click chooses its format', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    const selectedFormats = () => page.locator('tr[data-format].selected').evaluateAll((rows) => rows.map((r) => r.dataset.format));
    assert.deepEqual(await selectedFormats(), ['Q4_K_M'], 'Q4_K_M is selected at first');

    // A click anywhere in the row (here: its bpw cell).
    await page.locator('tr[data-format="FP16"] td').first().click();
    await waitForText(env, page, 'weights', toGerman(referenceMatrix.FP16[2])); // "59,60 GB"
    assert.equal(await page.locator(byTestId('format')).inputValue(), 'FP16', 'the format select follows');
    assert.deepEqual(await selectedFormats(), ['FP16'], 'only the FP16 row is selected');
    assert.equal(await page.locator('tr[data-format="FP16"] button.row-select').getAttribute('aria-pressed'), 'true');
    await waitForHash(env, page, hashHas('format', 'FP16'), 'hash has format=FP16');

    // The row's button, by keyboard.
    await page.locator('tr[data-format="Q8_0"] button.row-select').focus();
    await page.keyboard.press('Enter');
    await waitForText(env, page, 'weights', toGerman(referenceMatrix.Q8_0[2])); // "31,66 GB"
    assert.equal(await page.locator(byTestId('format')).inputValue(), 'Q8_0');
    assert.deepEqual(await selectedFormats(), ['Q8_0']);
    await assertHealthy(env, page, 'after matrix row clicks');
  });

  test('a hardware row click chooses its device', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    const selectedDevices = () => page.locator(`${byTestId('hw-row')}.selected`).evaluateAll((rows) => rows.map((r) => r.dataset.device));
    assert.deepEqual(await selectedDevices(), ['rtx-3090-24gb'], 'the recommended RTX 3090 is selected at first');

    await page.locator(`${byTestId('hw-row')}[data-device="h100-80gb"] ${byTestId('hw-memory')}`).click();
    await waitForText(env, page, 'decode', toGerman(referenceHardware['h100-80gb'][4])); // "103,5 tok/s"
    assert.equal(await page.locator(byTestId('device')).inputValue(), 'h100-80gb', 'the device select follows');
    assert.deepEqual(await selectedDevices(), ['h100-80gb']);
    assert.equal(await dataValue(page, 'fit'), 'comfortable');
    await waitForHash(env, page, hashHas('device', 'h100-80gb'), 'hash has device=h100-80gb');

    await page.locator(`${byTestId('hw-row')}[data-device="rtx-5090-32gb"] button.row-select`).focus();
    await page.keyboard.press('Enter');
    await waitForText(env, page, 'decode', toGerman(referenceHardware['rtx-5090-32gb'][4])); // "52,3 tok/s"
    assert.equal(await page.locator(byTestId('device')).inputValue(), 'rtx-5090-32gb');
    assert.deepEqual(await selectedDevices(), ['rtx-5090-32gb']);
    await assertHealthy(env, page, 'after hardware row clicks');
  });

  test('a related row click opens that model', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    // The nearest model in total memory to the reference scenario: Qwen3-30B-A3B (21.77 GB,
    // hand-calculated in tests/core/page_markdown_test.cc).
    await page.locator(`${byTestId('related-row')}[data-model="qwen3-30b-a3b"] td`).first().click();
    await waitForText(env, page, 'arch-checkpoint', 'Qwen/Qwen3-30B-A3B');
    assert.equal(await page.locator(byTestId('model')).inputValue(), 'qwen3-30b-a3b', 'the model select follows');
    assert.ok((await shownText(page, 'title')).startsWith('Qwen3-30B-A3B '), 'the title names Qwen3-30B-A3B');
    await waitForHash(env, page, hashHas('model', 'qwen3-30b-a3b'), 'hash has model=qwen3-30b-a3b');

    await choose(page, 'model', 'glm-4-32b-0414');
    await waitForText(env, page, 'arch-checkpoint', 'THUDM/GLM-4-32B-0414');
    assert.equal(await shownText(page, 'total'), Q4_AT_32K, 'back at the reference total');
    await assertHealthy(env, page, 'after related row clicks');
  });

  test('the copy buttons put the command on the clipboard and say so', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await env.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
    await openPage(env, page);
    // The reference profile's commands, by id (the response's commands list).
    const names = ['vllm', 'ollama-modelfile', 'ollama-env'];
    const clickedAt = {};
    for (const name of names) {
      const button = page.locator(byTestId(`copy-${name}`));
      assert.equal(await button.innerText(), 'Kopieren', `copy-${name} before the click`);
      const code = await page.locator(byTestId(`cmd-${name}`)).textContent();
      assert.ok(code.trim().length > 0, `cmd-${name} is empty`);
      clickedAt[name] = Date.now();
      await button.click();
      await waitForText(env, page, `copy-${name}`, 'Kopiert');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code, `the clipboard holds cmd-${name}`);
    }
    // Each button says "Kopiert" for about 1.5 s, then "Kopieren" again.
    for (const name of names) {
      await waitForText(env, page, `copy-${name}`, 'Kopieren');
      const shownFor = Date.now() - clickedAt[name];
      assert.ok(shownFor >= 1000 && shownFor <= 4000, `copy-${name}: "Kopiert" stayed ${shownFor} ms (about 1.5 s expected)`);
    }
    // In English the button says "Copied".
    await choose(page, 'lang', 'en');
    await waitForText(env, page, 'copy-vllm', 'Copy');
    await page.locator(byTestId('copy-vllm')).click();
    await waitForText(env, page, 'copy-vllm', 'Copied');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()),
      await page.locator(byTestId('cmd-vllm')).textContent());
    await assertHealthy(env, page, 'after copying');
  });

  test('the answer at a glance: verdict, total and speed in the first screen at 1280×800 and 390×844',
    { timeout: TEST_TIMEOUT_MS }, async () => {
      const { page } = env;
      const viewport = page.viewportSize();
      const offload = '#model=qwen3-30b-a3b-instruct-2507&device=rtx-5070-12gb&runtime=llamacpp&context=4096';
      try {
        for (const [width, height] of [[1280, 800], [390, 844]]) {
          await page.setViewportSize({ width, height });
          for (const [hash, verdict] of [['', `Knapp (>90 % nutzbar) · ${Q4_AT_32K} · 27,3 tok/s`], [offload, /^Läuft mit Auslagerung · /]]) {
            await openPage(env, page, hash);
            await settle(page);
            const box = await page.locator(byTestId('answer')).boundingBox();
            assert.ok(box && box.y >= 0 && box.y + box.height <= height, `${width}×${height} ${hash}: ${JSON.stringify(box)}`);
            // The figures' own verdict, total and decode (with offload: the plan that runs).
            const text = await shownText(page, 'answer');
            // The reference page's verdict, total and decode; with offload its verdict.
            if (typeof verdict === 'string') assert.equal(text, verdict); else assert.match(text, verdict);
            assert.equal(text, `${await shownText(page, 'fit')} · ${await shownText(page, 'total')} · ${await shownText(page, 'decode')}`);
          }
        }
        // Where nothing runs (Qwen3-32B on the 12 GB RTX 5070 in the reference profile, no
        // offload there), the answer gives no speed.
        await openPage(env, page, '#model=qwen3-32b&device=rtx-5070-12gb');
        assert.equal(await shownText(page, 'answer'), `${await shownText(page, 'fit')} · ${await shownText(page, 'total')}`);
      } finally {
        if (viewport) await page.setViewportSize(viewport);
      }
      await assertHealthy(env, page, 'the answer at a glance');
    });
});

// The first numbers need only vramcalc.wasm; the curve (its plot), the hardware table, the
// related models and the commands are vramcalc-full.wasm's, which the page loads right after them. A fresh browser
// each (no service worker answers in between), the full module held back or refused.
describe('vramcalc page: the sections below the simulator come with the full module', { timeout: TEST_TIMEOUT_MS * 3 }, () => {
  let fresh;
  after(async () => fresh?.close(), { timeout: TEST_TIMEOUT_MS });

  /**
   * A fresh page whose request for vramcalc-full.wasm (and for each of `also`, URL patterns)
   * waits for `answer(route)`; `init` runs in it before its own scripts.
   */
  async function freshPage(answer, also = [], init = null) {
    await fresh?.close();
    fresh = await launch();
    if (init) await fresh.page.addInitScript(init);
    for (const pattern of ['**/vramcalc-full.wasm', ...also]) await fresh.page.route(pattern, answer);
    await fresh.page.goto(fresh.url(), { waitUntil: 'load', timeout: WAIT_MS });
    await waitForDataValue(fresh, fresh.page, 'total');
    return fresh.page;
  }

  test('the first numbers come before it; the page is busy until the sections below are drawn', { timeout: TEST_TIMEOUT_MS },
    async () => {
      let release;
      const held = new Promise((resolve) => { release = resolve; });
      // The strings of what comes after the first numbers (i18n/de.later.json) held back too.
      const page = await freshPage(async (route) => { await held; await route.continue(); }, ['**/i18n/*.later.json']);
      // The reference page's simulator (21,78 GB), no matrix, no plot and nothing below yet; no text
      // it shows is a key of a string it does not have yet.
      await assertCleanBodyText(page, 'before the later strings');
      // The footer and the own device's form (opened now) speak later strings: empty until then.
      await page.locator('#own-device summary').click();
      assert.equal(await page.locator('#own-device-form [data-i18n="own.memory"]').textContent(), '');
      assert.equal(await page.locator('#footer-text').textContent(), '');
      await assertCleanBodyText(page, 'with the own device\'s form open');
      assert.equal(await shownText(page, 'total'), toGerman(REFERENCE.simulator.total));
      assert.equal(await page.locator('#page').getAttribute('aria-busy'), 'true');
      assert.equal(await page.locator('#matrix tbody tr').count(), 0, 'no matrix before the full module');
      assert.equal(await page.locator(byTestId('hw-row')).count(), 0, 'no hardware rows before the full module');
      assert.equal(await page.locator('#plot-figure').isHidden(), true, 'no plot before the curve');
      assert.equal(await page.evaluate(() => performance.getEntriesByName('vramcalc:first-numbers').length), 1);
      // The module and the strings were each asked for once (index.html's inline boot script
      // starts both; the page takes what it started).
      const requested = await page.evaluate(() => performance.getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname.split('/').pop()));
      assert.deepEqual(['vramcalc.wasm', 'de.json'].map((file) => requested.filter((name) => name === file).length), [1, 1],
        requested.join(', '));
      release();
      await page.locator('#page[aria-busy="false"]').waitFor({ state: 'attached', timeout: WAIT_MS });
      // The later strings came once, and with them the texts of the sections below.
      const later = await page.evaluate(() => performance.getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('/de.later.json')).length);
      assert.equal(later, 1);
      assert.equal(await shownText(page, '#related-heading'), 'Verwandte & ähnlich große Open-Weight-Modelle vergleichen');
      // assets/i18n/de.json's "own.memory" and "footer.text" (with the core's version: CMakeLists.txt's
      // project VERSION, 0.1.0).
      assert.equal(await shownText(page, '#own-device-form [data-i18n="own.memory"]'), 'Speicher (GB)');
      assert.match(await shownText(page, '#footer-text'), /\(Version 0\.1\.0\)/);
      assert.match(await shownText(page, '#footer-text'), /^Alle Werte rechnet der vramcalc-Kern .* GB bedeutet GiB \(2³⁰ Byte\), GB\/s dezimal\.$/);
      // The reference page's matrix (Q4_K_M at 32K) and hardware table (the RTX 4090 at 29,4 tok/s).
      assert.equal(await shownText(page, '[data-testid="matrix-cell"][data-format="Q4_K_M"][data-context="32768"]'), Q4_AT_32K);
      assert.equal(await shownText(page, '[data-testid="hw-row"][data-device="rtx-4090-24gb"] [data-testid="hw-decode"]'),
        toGerman(referenceHardware['rtx-4090-24gb'][4]));
      assert.ok((await page.locator(byTestId('cmd-vllm')).textContent()).includes('vllm serve'), 'the commands');
      assert.ok(await page.locator(byTestId('related-row')).count() > 0, 'the related models');
      // The curve's plot, with its heading (a later string).
      assert.equal(await shownText(page, '#plot-heading'), 'Speicherbedarf über die Kontextlänge');
      assert.ok(await page.locator('#plot svg path').count() > 0, 'the plot is drawn');
      await assertHealthy(fresh, page, 'whole');
    });

  test('the first frame holds the header and the simulator; the sections below the fold and every option show once it is painted',
    { timeout: TEST_TIMEOUT_MS }, async () => {
      let release;
      const held = new Promise((resolve) => { release = resolve; });
      // What the page holds below the fold (index.html's data-below-fold) as it marks its first numbers.
      const page = await freshPage(async (route) => { await held; await route.continue(); }, [], () => {
        const mark = performance.mark.bind(performance);
        performance.mark = (name, ...rest) => {
          if (name === 'vramcalc:first-numbers') {
            window.belowAtMark = [...document.querySelectorAll('[data-below-fold]')].map((element) => element.hidden);
            window.matrixRowsAtMark = document.querySelectorAll('#matrix tbody tr').length;
            window.optionsAtMark = ['model', 'device'].map((name) => document.querySelectorAll(`[data-testid="${name}"] option`).length);
          }
          return mark(name, ...rest);
        };
      });
      assert.deepEqual(await page.evaluate(() => window.belowAtMark), Array(6).fill(true),
        'the matrix, the hardware table, the card, the commands, the related models and the footer hidden');
      assert.equal(await page.evaluate(() => window.matrixRowsAtMark), 0, 'the matrix not drawn in the first frame');
      assert.deepEqual(await page.evaluate(() => window.optionsAtMark), [1, 1], 'the model and device selectors: the chosen one');
      // A frame later, with the full module still held: shown.
      await page.waitForFunction(() => !document.querySelector('[data-below-fold][hidden]'), null, { timeout: WAIT_MS });
      assert.deepEqual(await page.locator('[data-below-fold]').evaluateAll((all) => all.map((element) => element.hidden)),
        Array(6).fill(false));
      // Every catalog model; "auto" and every device the reference profile runs on.
      core ??= await loadCore();
      const catalog = core.catalog();
      const runsOn = catalog.runtimes.find((runtime) => runtime.id === 'reference').runs_on;
      assert.equal(await page.locator(`${byTestId('model')} option`).count(), catalog.models.length);
      assert.equal(await page.locator(`${byTestId('device')} option`).count(),
        1 + catalog.devices.filter((device) => runsOn.includes(device.platform)).length);
      assert.equal(await page.locator(byTestId('model')).inputValue(), 'glm-4-32b-0414');
      assert.equal(await page.locator('#page').getAttribute('aria-busy'), 'true');
      release();
      await page.locator('#page[aria-busy="false"]').waitFor({ state: 'attached', timeout: WAIT_MS });
      // Then the matrix, with the reference page's values, and the hardware table.
      assert.equal(await shownText(page, '[data-testid="matrix-cell"][data-format="Q4_K_M"][data-context="32768"]'), Q4_AT_32K);
      assert.equal(await page.locator(byTestId('hw-row')).count() > 0, true, 'the hardware table drawn');
      await assertHealthy(fresh, page, 'whole');
    });

  test('without it, a notice says so and the rest of the page works', { timeout: TEST_TIMEOUT_MS }, async () => {
    const page = await freshPage((route) => route.abort('failed'));
    await page.locator('#page[aria-busy="false"]').waitFor({ state: 'attached', timeout: WAIT_MS });
    assert.match(await shownText(page, 'notice'), /^Matrix, Kurve, Hardware-Tabelle, verwandte Modelle und Befehle konnten nicht geladen werden/);
    assert.equal(await page.locator(byTestId('hw-row')).count(), 0);
    await choose(page, 'format', 'Q8_0');
    assert.notEqual(await shownText(page, 'total'), toGerman(REFERENCE.simulator.total), 'the simulator still follows');
    // The one problem: the refused request, which the browser reports.
    assert.ok(fresh.problems.every((problem) => /vramcalc-full\.wasm|Failed to load resource/.test(problem)),
      fresh.problems.join('\n'));
    fresh.problems.length = 0;
    await assertCleanBodyText(page, 'without the full module');
  });
});
