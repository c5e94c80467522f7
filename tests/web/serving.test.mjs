// The serving section (core/ESTIMATION.md section 8): the time to first token, the prompt's rate
// and the time for a prompt and its answer as the core computes them, the prefill rule's error,
// the concurrency curve on its log scale, why there are no figures where there are none, another engine's rule named, and bad lengths
// named and dropped. Expected figures come from the core's own answer (vramcalc-full.wasm loaded
// beside the page).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TEST_TIMEOUT_MS, assertHealthy, byTestId, hashHas, loadCore, openPage, shareBrowser, shownText, waitForHash,
  waitForMatch, waitForText,
} from './support/harness.mjs';

const SCENARIO = { model: 'qwen3-8b', runtime: 'llamacpp', device: 'rtx-4090-24gb' };
const LINK = '#model=qwen3-8b&device=rtx-4090-24gb&runtime=llamacpp';

let env;
let core;

const servingOf = (request = {}) => core.evaluate({ ...SCENARIO, ...request, sections: ['serving'] }).serving;
/** Seconds as the English page writes them: two decimals below 10 s, one below 2 minutes. */
const seconds = (s) => `${s.toFixed(s < 10 ? 2 : 1)} s`;

describe('serving', { timeout: TEST_TIMEOUT_MS * 6 }, () => {
  shareBrowser((launched) => { env = launched; }, { setUp: async () => { core = await loadCore(); } });

  test('the figures and the rule\'s error, as the core computes them', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const s = servingOf({ prompt_tokens: 8000, output_tokens: 300 });
    await openPage(env, page, `${LINK}&prompt=8000&output=300&lang=en`);
    await waitForText(env, page, 'serving-ttft', seconds(s.ttft_s));
    assert.equal(await shownText(page, 'serving-prefill'), `${Math.round(s.prefill_tps).toLocaleString('en')} tok/s`);
    assert.equal(await shownText(page, 'serving-total'), seconds(s.total_s));
    assert.equal(await shownText(page, 'serving-answer'), `the answer at ${s.decode_tps.toFixed(1)} tok/s`);
    assert.equal(await page.locator(byTestId('serving-prompt')).inputValue(), '8000');
    assert.equal(await page.locator(byTestId('serving-output')).inputValue(), '300');
    const { holdout } = s.rule;
    const error = `± ${holdout.median_error_pct.toFixed(1)} % (median error on published ` +
      `prompt-processing runs the fit never saw, ${holdout.points} of them, p90 ${holdout.p90_error_pct.toFixed(1)} %; ` +
      `${s.rule.median_error_pct.toFixed(1)} % on the ${s.rule.points} it was fitted to)`;
    assert.equal(await shownText(page, 'serving-note'), error);
    // Several users at once: how many get 20 tok/s each, and the curve's points.
    assert.equal(await shownText(page, 'serving-users'), `${s.users_at_min_tps.toLocaleString('en')} users at 20 tok/s or more ` +
      `each (memory admits ${s.max_sequences.toLocaleString('en')} sequences of this prompt and answer at once).`);
    const table = await page.locator(`${byTestId('serving-table')} tbody tr`).allInnerTexts();
    assert.equal(table.length, s.concurrency.length);
    const [first] = s.concurrency;
    assert.equal(table[0].replace(/\s+/g, ' ').trim(), `1 ${first.per_user_tps.toFixed(1)} tok/s ` +
      `${Math.round(first.aggregate_tps).toLocaleString('en')} tok/s`);
    // The curve: log tok/s up, so a dot's height from the first is the log of its rate's ratio to
    // the first's, the dashed line's too; per user falls and all together rises with the sequences.
    const curve = await page.locator(byTestId('serving-curve')).evaluate((svg) => ({
      perUser: [...svg.querySelectorAll('circle.per_user')].map((c) => Number(c.getAttribute('cy'))),
      aggregate: [...svg.querySelectorAll('circle.aggregate')].map((c) => Number(c.getAttribute('cy'))),
      rate: Number(svg.querySelector('line.rate').getAttribute('y1')),
    }));
    assert.equal(curve.perUser.length, s.concurrency.length);
    const last = s.concurrency[s.concurrency.length - 1];
    const pixelsPerDecade = (curve.aggregate[0] - curve.aggregate[curve.aggregate.length - 1]) / Math.log10(last.aggregate_tps / first.aggregate_tps);
    assert.ok(Math.abs((curve.perUser[curve.perUser.length - 1] - curve.perUser[0]) -
      pixelsPerDecade * Math.log10(first.per_user_tps / last.per_user_tps)) < 0.01, 'per user on the same log scale');
    assert.ok(Math.abs((curve.perUser[0] - curve.rate) - pixelsPerDecade * Math.log10(20 / first.per_user_tps)) < 0.01,
      'the dashed line at 20 tok/s');
    // A rate of one's own: the link keeps it, the count follows the core.
    const rate = page.locator(byTestId('serving-usertps'));
    await rate.fill('45.5');
    await rate.press('Enter');
    await waitForHash(env, page, hashHas('usertps', '45.5'), 'the link carries usertps=45.5');
    const at = servingOf({ prompt_tokens: 8000, output_tokens: 300, min_user_tps: 45.5 });
    await waitForText(env, page, 'serving-users', `${at.users_at_min_tps.toLocaleString('en')} users at 45.5 tok/s or more ` +
      `each (memory admits ${at.max_sequences.toLocaleString('en')} sequences of this prompt and answer at once).`);
    // Flash attention off: the rule's attention without it, a slower prompt (tests/core/serving_test.cc).
    const off = servingOf({ prompt_tokens: 8000, output_tokens: 300, flash_attention: false });
    assert.ok(off.ttft_s > s.ttft_s, `${off.ttft_s} s without flash attention, ${s.ttft_s} s with it`);
    await openPage(env, page, `${LINK}&prompt=8000&output=300&fa=false&lang=en`);
    await waitForText(env, page, 'serving-ttft', seconds(off.ttft_s));
    assert.equal(await shownText(page, 'serving-note'), error);
    await assertHealthy(env, page, 'serving');
  });

  test('another engine\'s rule is named, its error unknown; no figures where none can be had', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    // vLLM's own rule covers consumer cards; on an H100 it borrows its kin SGLang's.
    await openPage(env, page, '#model=qwen3-8b&device=h100-80gb&runtime=vllm&lang=en');
    assert.equal(servingOf({ runtime: 'vllm', device: 'h100-80gb' }).rule_runtime, 'sglang');
    await waitForText(env, page, 'serving-note',
      'No published prompt-processing runs of this engine on this kind of device yet: SGLang\'s rule, error unknown');
    // A device of one's own without its peak compute.
    await openPage(env, page, '#model=qwen3-8b&runtime=llamacpp&device=custom:24:1000:cuda:Mine&lang=en');
    await waitForText(env, page, 'serving-note', 'The device\'s peak compute (FP16 TFLOPS) is not known, so there is no ' +
      'estimate: give it in your own device\'s form (the vendor\'s spec sheet states it).');
    assert.equal(await shownText(page, 'serving-ttft'), '—');
    // Qwen3-32B BF16 (65 GB) on an 8 GB card beside 32 GB of RAM does not run.
    await openPage(env, page, '#model=qwen3-32b&format=BF16&runtime=llamacpp&device=rtx-4060-8gb&ram=32&lang=de');
    await waitForText(env, page, 'serving-note', 'Das Modell passt bei diesem Kontext nicht in den Gerätespeicher, und kein ' +
      'Auslagerungsplan führt es aus (siehe oben), daher keine Schätzung.');
    // In Q4_K_M it runs with whole layers in RAM: not modelled.
    await openPage(env, page, '#model=qwen3-32b&format=Q4_K_M&runtime=llamacpp&device=rtx-4060-8gb&ram=32&lang=en');
    assert.equal(servingOf({ model: 'qwen3-32b', format: 'Q4_K_M', device: 'rtx-4060-8gb', host_memory: 32 }).gap, 'layers_in_ram');
    await waitForText(env, page, 'serving-note', 'The model runs with whole layers in system RAM, whose attention runs on the ' +
      'CPU: prompt processing is not modelled for that (no published runs yet), only with a MoE model\'s experts in RAM.');
    assert.equal(await shownText(page, 'serving-ttft'), '—');
    await assertHealthy(env, page, 'serving gaps');
  });

  test('a MoE model with experts in system RAM: the prompt copies them over PCIe, with the offload rule\'s error', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const request = { model: 'qwen3-coder-30b-a3b-instruct', format: 'Q4_K_M', device: 'rtx-4070-ti-super-16gb', context: 8192,
      prompt_tokens: 4096 };
    const s = servingOf(request);
    assert.equal(s.gap, 'none');
    assert.deepEqual(s.concurrency, []);
    await openPage(env, page, '#model=qwen3-coder-30b-a3b-instruct&format=Q4_K_M&device=rtx-4070-ti-super-16gb&runtime=llamacpp' +
      '&context=8192&prompt=4096&lang=en');
    await waitForText(env, page, 'serving-ttft', seconds(s.ttft_s));
    assert.equal(await shownText(page, 'serving-answer'), `the answer at ${s.decode_tps.toFixed(1)} tok/s`);
    const { offload } = s;
    assert.equal(offload.link_gbps, 31.5);  // PCIe 4.0 x16 (assets/devices.json)
    assert.equal(await shownText(page, 'serving-note'), `With the experts of ${offload.ram_expert_layers} layers in system RAM ` +
      `(--n-cpu-moe ${offload.ram_expert_layers}): ${seconds(offload.copy_s)} of the prompt copy them to the GPU over PCIe (31.5 GB/s); one user at a time · ` +
      `± ${offload.holdout.median_error_pct.toFixed(1)} % (median error on published prompt-processing runs the fit never saw, ` +
      `${offload.holdout.points} of them, p90 ${offload.holdout.p90_error_pct.toFixed(1)} %; ` +
      `${offload.error.median_error_pct.toFixed(1)} % on the ${offload.error.points} it was fitted to)`);
    assert.ok(await page.locator(byTestId('serving-table')).isHidden(), 'no concurrency table');
    await assertHealthy(env, page, 'serving with offload');
  });

  test('a device of one\'s own with its peaks: the form\'s figures, the link, the catalog card\'s time to first token', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, `${LINK}&lang=en`);
    await page.locator('#own-device summary').click();
    // The RTX 4090's figures (assets/devices.json) as one's own.
    for (const [name, value] of [['name', 'My 4090'], ['memory', '24'], ['bandwidth', '1008'], ['tflops', '165.2'], ['tops', '660.6']]) {
      await page.locator(byTestId(`own-${name}`)).fill(value);
    }
    await page.locator(byTestId('own-apply')).click();
    await waitForHash(env, page, hashHas('device', 'custom:24:1008:165.2/660.6:cuda:My 4090'), 'the link carries the peaks');
    await waitForText(env, page, 'serving-ttft', seconds(servingOf().ttft_s));
    // An INT8 peak without the FP16 one is refused, named.
    await page.locator(byTestId('own-tflops')).fill('');
    await page.locator(byTestId('own-apply')).click();
    await waitForText(env, page, 'notice', 'Your own device needs a name (up to 64 characters), memory from 1 to 16,384 GB and ' +
      'bandwidth from 1 to 100,000 GB/s; its peaks, where given, up to 100,000 (INT8 only beside FP16), its compute capability ' +
      'above 0 up to 99.');
    await assertHealthy(env, page, 'own device with peaks');
  });

  test('a length it cannot take is named and dropped; Enter applies one it can', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, `${LINK}&lang=en`);
    const prompt = page.locator(byTestId('serving-prompt'));
    await prompt.fill('12abc');
    await prompt.press('Enter');
    await waitForText(env, page, 'notice', 'Serving takes a whole number of tokens from 1 to 134,217,728, not “12abc”.');
    assert.equal(await prompt.inputValue(), '4096', 'the field shows the default again');
    await prompt.fill('30000');
    await prompt.press('Enter');
    await waitForHash(env, page, hashHas('prompt', '30000'), 'the link carries prompt=30000');
    await waitForText(env, page, 'serving-ttft', seconds(servingOf({ prompt_tokens: 30000 }).ttft_s));
    // Shorter than every calibration run: said beside the error.
    await prompt.fill('256');
    await prompt.press('Enter');
    await waitForHash(env, page, hashHas('prompt', '256'), 'the link carries prompt=256');
    // The link follows the input at once, the note on the next frame: wait for it.
    await waitForMatch(env, page, 'serving-note',
      / · no published run has a prompt under 512 tokens: shorter ones take longer than shown/);
    await assertHealthy(env, page, 'serving fields');
  });
});
