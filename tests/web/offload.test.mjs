// A model that does not fit on the GPU but runs with a part in host RAM (llama.cpp's -ngl and
// --n-cpu-moe, Ollama's own placement): the verdict, the speed and flags of the plan llama.cpp's
// --fit chooses, the other splits, the host's RAM controls and their link (ram, ramtype, rambw),
// bad values, a host whose RAM is too small as well, and the widget's attributes. Expected
// figures come from the core's own answer (vramcalc-full.wasm loaded beside the page).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TEST_TIMEOUT_MS, assertHealthy, assertNoProblems, byTestId, dataValue, hashHas, hashParams, loadCore, openPage,
  plainSpaces, settle, shareBrowser, shownText, waitForHash, waitForMatch, waitForText,
} from './support/harness.mjs';

// Qwen3-30B-A3B at Q4_K_M (18 GB) on a 12 GB RTX 5070 under llama.cpp: it does not fit.
const SCENARIO = { model: 'qwen3-30b-a3b-instruct-2507', format: 'Q4_K_M', device: 'rtx-5070-12gb', runtime: 'llamacpp', context: 4096 };
const LINK = `#model=${SCENARIO.model}&format=Q4_K_M&device=${SCENARIO.device}&runtime=llamacpp&context=4096`;

let env;
let core;

/** The core's offload answer for the scenario changed by `request`. */
const offloadOf = (request = {}) => core.evaluate({ ...SCENARIO, ...request, sections: ['simulator', 'offload'] });

/** "12.34 GB" as the English page writes it. */
const gb = (gib) => `${gib.toFixed(2)} GB`;

describe('offload to host RAM', { timeout: TEST_TIMEOUT_MS * 8 }, () => {
  shareBrowser((launched) => { env = launched; }, { setUp: async () => { core = await loadCore(); } });

  test('a model that does not fit runs with offload: the chosen plan, its flags and speed', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const answer = offloadOf();
    assert.equal(answer.simulator.fit, 'no_fit', 'the scenario does not fit on the GPU alone');
    const { offload } = answer;
    assert.notEqual(offload.chosen, null, 'a plan runs');
    const plan = offload.plans[offload.chosen];
    await openPage(env, page, `${LINK}&lang=en`);
    await waitForText(env, page, 'fit', 'Runs with offload');
    assert.equal(await dataValue(page, 'decode'), String(plan.decode_tps), 'the chosen plan\'s speed, unrounded');
    assert.equal(await shownText(page, 'decode'), `${plan.decode_tps.toFixed(1)} tok/s`);
    assert.equal(await shownText(page, 'offload-flags'), plan.flags);
    assert.equal(await shownText(page, 'offload-summary'), `${Math.round(plan.ram_share_pct)} % of the weights in RAM: ` +
      `${gb(plan.host_gib)} in RAM, ${gb(plan.device_gib)} on the GPU, ${plan.decode_tps.toFixed(1)} tok/s.`);
    // The figures beside it say the same: the weights in RAM are the plan's, not the token
    // embedding alone, and the longest context is the GPU's alone (none at all here).
    assert.ok(plan.host_gib > answer.simulator.host_gib + 1, 'the plan keeps more in RAM than the embedding');
    assert.equal(await shownText(page, 'host'), `${gb(plan.host_gib)} (the plan above)`);
    assert.equal(answer.simulator.max_context, 0);
    assert.equal(await shownText(page, 'max-context'), '0 tokens on the GPU alone');
    // With offload it runs up to a context of its own (tests/core/offload_test.cc).
    assert.ok(offload.max_context > 4096);
    assert.equal(await shownText(page, 'max-offload'), `With offload: up to ${offload.max_context.toLocaleString('en')} tokens`);
    const error = await shownText(page, 'decode-error');
    if (offload.holdout.points > 0) {
      assert.match(error, new RegExp(`^± ${offload.holdout.median_error_pct.toFixed(1)} % \\(median error with offload on ` +
        `${offload.holdout.points} runs the fit never saw\\)$`));
    } else {
      assert.match(error, /error unknown/);
    }
    // The other splits, each with its speed and RAM.
    const others = await page.locator(`${byTestId('offload-plans')} li:not(.offload-plans-heading)`).allInnerTexts();
    assert.equal(others.length, offload.plans.length - 1);
    const all = offload.plans.find((p) => p.kind === 'experts' && p.ram_expert_layers === p.gpu_layers);
    // The experts' plans with their prompt's time (core/ESTIMATION.md section 8.3: the RTX 5070's
    // PCIe 5.0 x16), a prompt of the serving section's default length; whole layers without one.
    assert.equal(offload.prompt_tokens, core.catalog().defaults.prompt_tokens);
    assert.ok(all.prompt_s > 0);
    assert.ok(others.map(plainSpaces).includes(`All experts in RAM (${all.flags}): ${all.decode_tps.toFixed(1)} tok/s, ` +
      `a ${offload.prompt_tokens.toLocaleString('en')}-token prompt in ${all.prompt_s.toFixed(all.prompt_s < 10 ? 2 : 1)} s, ` +
      `${gb(all.host_gib)} RAM`), others.join(' | '));
    const layers = offload.plans.find((p) => p.kind === 'layers');
    assert.equal(layers.prompt_s, 0);
    assert.ok(others.map(plainSpaces).includes(
      `${layers.gpu_layers} layers on the GPU (${layers.flags}): ${layers.decode_tps.toFixed(1)} tok/s, ${gb(layers.host_gib)} RAM`),
      others.join(' | '));
    // The host controls, at the core's defaults.
    const { defaults } = core.catalog();
    assert.equal(await page.locator(byTestId('ram')).inputValue(), String(defaults.host_memory));
    assert.equal(await page.locator(byTestId('ramtype')).inputValue(), defaults.host_memory_type);
    assert.equal(await page.locator(byTestId('rambw')).isVisible(), false);
    await assertHealthy(env, page, 'with offload');

    // German, and Ollama, which places the layers itself with the same split.
    await page.locator(byTestId('lang')).selectOption('de');
    await waitForText(env, page, 'fit', 'Läuft mit Auslagerung');
    // The RAM types' labels in German, written from their ids: 89.6 GB/s = 5,600 MT/s × 8 B × 2.
    assert.equal((await page.locator(`${byTestId('ramtype')} option[value="ddr5-5600-2ch"]`).textContent()).trim(),
      'DDR5-5600, 2 Kanäle (Desktop) · 89,6 GB/s');
    assert.equal((await page.locator(`${byTestId('ramtype')} option[value="ddr5-4800-12ch"]`).textContent()).trim(),
      'DDR5-4800, 12 Kanäle (Server) · 460,8 GB/s');
    await page.locator(byTestId('runtime')).selectOption('ollama');
    await waitForHash(env, page, hashHas('runtime', 'ollama'), 'the link names Ollama');
    const ollama = offloadOf({ runtime: 'ollama' }).offload;
    assert.notEqual(ollama.chosen, null);
    const chosen = ollama.plans[ollama.chosen];
    const split = chosen.kind === 'layers' ? `${chosen.gpu_layers} Schichten auf der GPU`
      : chosen.ram_expert_layers === chosen.gpu_layers ? 'Alle Experten im RAM' : `Experten von ${chosen.ram_expert_layers} Schichten im RAM`;
    await waitForText(env, page, 'offload-run', `Ollama verteilt das selbst, mit derselben Aufteilung (${split}).`);
    assert.equal(await dataValue(page, 'decode'), String(ollama.plans[ollama.chosen].decode_tps));
    assert.equal(await page.locator(byTestId('offload-flags')).count(), 0, 'no llama.cpp flags under Ollama');
    // An engine that does not offload: no host controls, no offload block, the plain verdict.
    await page.locator(byTestId('runtime')).selectOption('vllm');
    await waitForHash(env, page, hashHas('runtime', 'vllm'), 'the link names vLLM');
    await settle(page);
    assert.equal(await page.locator(byTestId('ram')).isVisible(), false);
    assert.equal(await page.locator(byTestId('offload')).isVisible(), false);
    await assertHealthy(env, page, 'after Ollama and vLLM');
  });

  test('with the layers split over two cards, the plan gives each card\'s share', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    // Llama 3.3 70B Q4_K_M at 32K does not fit two 24 GB RTX 3090s: whole layers stay in RAM.
    const request = { model: 'llama-3.3-70b', format: 'Q4_K_M', device: 'rtx-3090-24gb', device_count: 2, context: 32768 };
    const { offload } = offloadOf(request);
    const plan = offload.plans[offload.chosen];
    await openPage(env, page, '#model=llama-3.3-70b&format=Q4_K_M&device=rtx-3090-24gb&gpus=2&runtime=llamacpp&lang=en');
    await waitForText(env, page, 'offload-summary', `${Math.round(plan.ram_share_pct)} % of the weights in RAM: ` +
      `${gb(plan.host_gib)} in RAM, ${gb(plan.device_gib)} on each of the 2 GPUs, ${plan.decode_tps.toFixed(1)} tok/s.`);
    await assertHealthy(env, page, 'offload on two cards');
  });

  test('a Strix Halo whose GPU must map more than Linux\'s default says how to raise it', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    // Llama 3.3 70B Q8_0 at 32K fits the 128 GB Strix Halo under llama.cpp, but needs more than the
    // 62.82 GB its GPU maps by default (AMD's ROCm docs; tests/core/engine_profiles_test.cc).
    const request = { model: 'llama-3.3-70b', format: 'Q8_0', device: 'ryzen-ai-max-395-128gb', runtime: 'llamacpp', context: 32768 };
    const map = core.evaluate({ ...request, sections: ['simulator', 'offload'] }).gpu_map;
    assert.equal(map.set_gib, 82);
    await openPage(env, page, '#model=llama-3.3-70b&format=Q8_0&device=ryzen-ai-max-395-128gb&runtime=llamacpp&lang=en');
    await waitForText(env, page, 'gpu-map', `Linux lets the GPU map 62.82 GB of the RAM by default; this needs ${gb(map.needed_gib)}: ` +
      'raise it once with amd-ttm --set 82 and reboot (AMD\'s ROCm docs).');
    assert.equal(await page.locator(`${byTestId('gpu-map')} code`).textContent(), 'amd-ttm --set 82');
    assert.match(await shownText(page, 'cmd-llama-server'), /\n# amd-ttm --set 82\n/);
    // Its hardware row names the command too, at the rate it has; an RTX 4090's row does not.
    const strix = page.locator('[data-testid="hw-row"][data-device="ryzen-ai-max-395-128gb"]');
    assert.equal(await strix.locator(byTestId('hw-fit')).textContent(), 'Fits with amd-ttm --set 82');
    assert.equal(await page.locator(`[data-testid="hw-row"][data-device="rtx-4090-24gb"] ${byTestId('hw-fit')}`).textContent(), 'Does not fit');
    // A model that needs no more than the default: no line.
    await page.locator(byTestId('model')).selectOption('qwen3-8b');
    await page.locator(`${byTestId('gpu-map')}[hidden]`).waitFor({ state: 'attached' });
    await assertHealthy(env, page, 'Strix Halo GPU map');
  });

  test('a Mac whose model fits only past its default working set says how to raise the wired limit', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    // Llama 3.3 70B Q8_0 at 32K needs 81.25 GB under llama.cpp, past the 77.76 GB a 96 GB M2 Max's GPU
    // wires by default, below the 91 GB exo's configure_mlx.sh would set (tests/core/engine_profiles_test.cc).
    const request = { model: 'llama-3.3-70b', format: 'Q8_0', device: 'apple-m2-max-96gb', runtime: 'llamacpp', context: 32768 };
    const answer = core.evaluate({ ...request, sections: ['simulator', 'offload'] });
    assert.equal(answer.gpu_map.os, 'macos');
    assert.equal(answer.gpu_map.set_mib, 83968);
    await openPage(env, page, '#model=llama-3.3-70b&format=Q8_0&device=apple-m2-max-96gb&runtime=llamacpp&lang=en');
    await waitForText(env, page, 'gpu-map', `macOS lets the GPU wire 77.76 GB by default; this needs ${gb(answer.gpu_map.needed_gib)}: ` +
      `raise it with sudo sysctl iogpu.wired_limit_mb=83968 (until a restart; mlx-lm's README), then it runs at about ${answer.simulator.decode_tps.toFixed(1)} tok/s.`);
    assert.equal(await page.locator(`${byTestId('gpu-map')} code`).textContent(), 'sudo sysctl iogpu.wired_limit_mb=83968');
    assert.equal(await shownText(page, 'fit'), 'Does not fit');
    // Unified memory is the RAM: llama.cpp puts nothing elsewhere, so the host's controls stay hidden.
    await page.locator(`[data-host="ram"][hidden] ${byTestId('ram')}`).waitFor({ state: 'attached' });
    assert.equal(await page.locator(byTestId('ram')).isVisible(), false);
    assert.equal(await page.locator(byTestId('ramtype')).isVisible(), false);
    assert.match(await shownText(page, 'cmd-llama-server'), /\nsudo sysctl iogpu\.wired_limit_mb=83968\n/);
    // The hardware table's row for the same Mac: the command and the rate then;
    // the 64 GB M-Max's ceiling (59 GB) is too low.
    const row = (device) => page.locator(`[data-testid="hw-row"][data-device="${device}"]`);
    await page.locator('#hardware').scrollIntoViewIfNeeded();
    assert.equal(await row('apple-m2-max-96gb').locator(byTestId('hw-fit')).textContent(), 'Fits with sudo sysctl iogpu.wired_limit_mb=83968');
    assert.equal(await row('apple-m2-max-96gb').locator(byTestId('hw-decode')).textContent(),
      `${answer.simulator.decode_tps.toFixed(1)} tok/s`);
    assert.equal(await row('apple-m-max-64gb').locator(byTestId('hw-fit')).textContent(), 'Does not fit');
    // In German, the same figures.
    await openPage(env, page, '#model=llama-3.3-70b&format=Q8_0&device=apple-m2-max-96gb&runtime=llamacpp&lang=de');
    await waitForMatch(env, page, 'gpu-map', /^macOS lässt die GPU standardmäßig 77,76 GB belegen; .*sudo sysctl iogpu\.wired_limit_mb=83968 /);
    // A model that fits the default: no line.
    await page.locator(byTestId('model')).selectOption('qwen3-8b');
    await page.locator(`${byTestId('gpu-map')}[hidden]`).waitFor({ state: 'attached' });
    await assertHealthy(env, page, 'Mac wired limit');
  });

  test('the link carries the host\'s RAM, its type and a bandwidth of one\'s own, and reopens them', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, `${LINK}&lang=en`);
    const ram = page.locator(byTestId('ram'));
    await ram.fill('64');
    await ram.press('Enter');
    await waitForHash(env, page, hashHas('ram', '64'), 'the link carries the RAM');
    await page.locator(byTestId('ramtype')).selectOption('ddr4-3200-2ch');
    await waitForHash(env, page, hashHas('ramtype', 'ddr4-3200-2ch'), 'the link carries the RAM type');
    let plan = ((o) => o.plans[o.chosen])(offloadOf({ host_memory: 64, host_memory_type: 'ddr4-3200-2ch' }).offload);
    await waitForText(env, page, 'decode', `${plan.decode_tps.toFixed(1)} tok/s`);
    assert.equal(await dataValue(page, 'decode'), String(plan.decode_tps));
    // "Custom bandwidth…" starts from the type's and shows its field.
    await page.locator(byTestId('ramtype')).selectOption('custom');
    await waitForHash(env, page, (hash) => hashParams(hash).get('rambw') === '51.2' && !hashParams(hash).has('ramtype'),
      'the type\'s bandwidth becomes one\'s own');
    await settle(page);
    const bandwidth = page.locator(byTestId('rambw'));
    assert.equal(await bandwidth.isVisible(), true);
    assert.equal(await bandwidth.inputValue(), '51.2');
    await bandwidth.fill('120');
    await bandwidth.press('Enter');
    await waitForHash(env, page, hashHas('rambw', '120'), 'the link carries the bandwidth');
    plan = ((o) => o.plans[o.chosen])(offloadOf({ host_memory: 64, host_bandwidth: 120 }).offload);
    await waitForText(env, page, 'decode', `${plan.decode_tps.toFixed(1)} tok/s`);
    const hash = await page.evaluate(() => location.hash);

    // The same link in a fresh page: the same controls and figures.
    await openPage(env, page, hash);
    assert.equal(await page.locator(byTestId('ram')).inputValue(), '64');
    assert.equal(await page.locator(byTestId('ramtype')).inputValue(), 'custom');
    assert.equal(await page.locator(byTestId('rambw')).inputValue(), '120');
    await waitForText(env, page, 'fit', 'Runs with offload');
    assert.equal(await dataValue(page, 'decode'), String(plan.decode_tps));
    assert.match(await shownText(page, 'offload-host'), /^System RAM: 64\.00 GB, .* · custom bandwidth, 120 GB\/s$/);
    // A type again drops the bandwidth of one's own.
    await page.locator(byTestId('ramtype')).selectOption('ddr5-6400-2ch');
    await waitForHash(env, page, (h) => hashParams(h).get('ramtype') === 'ddr5-6400-2ch' && !hashParams(h).has('rambw'),
      'a type replaces the bandwidth');
    await settle(page);
    assert.equal(await page.locator(byTestId('rambw')).isVisible(), false);
    await assertHealthy(env, page, 'after the host\'s link');
  });

  test('bad host values in the link and the form are named, and the page keeps working', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const plan = ((o) => o.plans[o.chosen])(offloadOf().offload);
    await openPage(env, page, `${LINK}&ram=-5&lang=en`);
    assert.equal(await shownText(page, 'notice'), 'Invalid value in the link: ram=-5. The default applies instead.');
    await waitForText(env, page, 'fit', 'Runs with offload');
    assert.equal(await dataValue(page, 'decode'), String(plan.decode_tps), 'the default RAM applies');
    await assertHealthy(env, page, 'after ram=-5');

    for (const [link, pattern] of [
      ['ram=NaN', /Invalid value in the link: ram=NaN\./],
      ['rambw=0', /Invalid value in the link: rambw=0\./],
      ['rambw=1e3', /Invalid value in the link: rambw=1e3\./],
      ['ramtype=ddr9-9999', /Invalid value in the link: ramtype=ddr9-9999\./],
    ]) {
      await openPage(env, page, `${LINK}&${link}&lang=en`);
      assert.match(await shownText(page, 'notice'), pattern, link);
      await waitForText(env, page, 'fit', 'Runs with offload');
      if (link.includes('NaN')) assertNoProblems(env);  // the notice quotes the link's "NaN" back
      else await assertHealthy(env, page, `after ${link}`);
    }
    // Both a type and a bandwidth of one's own: the bandwidth applies, as in the core; no notice.
    await openPage(env, page, `${LINK}&ramtype=ddr4-3200-2ch&rambw=70&lang=en`);
    const both = offloadOf({ host_bandwidth: 70 }).offload;
    await waitForText(env, page, 'fit', 'Runs with offload');
    assert.equal(await dataValue(page, 'decode'), String(both.plans[both.chosen].decode_tps));
    assert.equal(await page.locator(byTestId('notice')).isVisible(), false);
    // ram under an engine that does not offload: reported, the page shows vLLM's verdict.
    await openPage(env, page, `${LINK.replace('llamacpp', 'vllm')}&ram=64&lang=en`);
    assert.match(await shownText(page, 'notice'), /ram=64/);

    // Typed into the form: the notice names it and the field shows what applies.
    await openPage(env, page, `${LINK}&lang=en`);
    const ram = page.locator(byTestId('ram'));
    await ram.fill('-5');
    await ram.press('Enter');
    await waitForText(env, page, 'notice',
      'System RAM must be a number of GB above 0 and at most 65,536 (ram=-5); 32 GB applies.');
    assert.equal(await ram.inputValue(), '32');
    assert.equal(hashParams(await page.evaluate(() => location.hash)).has('ram'), false);
    await assertHealthy(env, page, 'after a bad RAM size in the form');
  });

  test('with 8 GB of RAM it does not run at all: the RAM is too small as well', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const { offload } = offloadOf({ host_memory: 8 });
    assert.equal(offload.chosen, null, 'nothing runs');
    const needed = Math.min(...offload.plans.filter((p) => p.fit !== 'no_fit').map((p) => p.host_gib));
    await openPage(env, page, `${LINK}&ram=8&lang=en`);
    await waitForText(env, page, 'offload-summary', 'It does not run with offload either: the RAM is too small as well ' +
      `(${gb(needed)} needed in RAM, ${gb(offload.host_usable_gib)} usable of ${gb(8)}).`);
    assert.equal(await shownText(page, 'fit'), 'Does not fit');
    assert.equal(await shownText(page, 'decode'), '—');
    assert.equal(await page.locator(byTestId('offload-run')).isVisible(), false);
    assert.equal(await page.locator(`${byTestId('offload-plans')} li:not(.offload-plans-heading)`).count(), offload.plans.length);
    assert.equal(offload.max_context, 0);
    assert.equal(await page.locator(byTestId('max-offload')).isVisible(), false, 'no context runs with offload');
    // German.
    await page.locator(byTestId('lang')).selectOption('de');
    await waitForText(env, page, 'fit', 'Passt nicht');
    assert.match(await shownText(page, 'offload-summary'), /^Auch mit Auslagerung läuft es nicht: auch der Arbeitsspeicher ist zu klein/);
    await assertHealthy(env, page, 'with too little RAM');
  });

  test('when it does not fit, the nearest ways to make it run are one click each, under the verdict', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    // Llama 3.1 8B in FP16 (16 GB of weights) on a 12 GB RTX 3060 under the reference profile.
    const request = { model: 'llama-3.1-8b', format: 'FP16', device: 'rtx-3060-12gb', context: 16384 };
    const { ways } = core.evaluate({ ...request, sections: ['simulator', 'offload'] });
    assert.ok(ways?.format && ways.device, JSON.stringify(ways));
    await openPage(env, page, '#model=llama-3.1-8b&format=FP16&device=rtx-3060-12gb&context=16384&lang=en');
    await waitForText(env, page, 'ways', `To make it run: ${ways.format} fits (${gb(ways.format_total_gib)}) · ${ways.device_name} holds it`);
    // The format: the verdict turns.
    await page.locator(`${byTestId('ways')} button`).first().click();
    await waitForHash(env, page, hashHas('format', ways.format), `format=${ways.format}`);
    await waitForText(env, page, 'total', gb(ways.format_total_gib));
    assert.notEqual(await shownText(page, 'fit'), 'Does not fit');
    assert.equal(await page.locator(byTestId('ways')).isVisible(), false, 'no ways once it fits');
    // Qwen3-32B Q4_K_M at 32K on 16 GB: llama.cpp with offload at its plan's speed, or a larger card.
    const qwen = { model: 'qwen3-32b', format: 'Q4_K_M', device: 'rtx-4060-ti-16gb', context: 32768 };
    const more = core.evaluate({ ...qwen, sections: ['simulator', 'offload'] }).ways;
    const plan = ((o) => o.plans[o.chosen])(core.evaluate({ ...qwen, runtime: 'llamacpp', sections: ['simulator', 'offload'] }).offload);
    assert.equal(more.offload_decode_tps, plan.decode_tps);
    await openPage(env, page, '#model=qwen3-32b&format=Q4_K_M&device=rtx-4060-ti-16gb&context=32768&lang=en');
    const offloadWay = `llama.cpp with offload in Q4_K_M: ${plan.decode_tps.toFixed(1)} tok/s`;
    await waitForText(env, page, 'ways', `To make it run: ${offloadWay} · ${more.device_name} holds it`);
    await page.locator(`${byTestId('ways')} button`, { hasText: 'offload' }).click();
    await waitForHash(env, page, hashHas('runtime', 'llamacpp'), 'runtime=llamacpp');
    await waitForText(env, page, 'fit', 'Runs with offload');
    assert.equal(await shownText(page, 'decode'), `${plan.decode_tps.toFixed(1)} tok/s`);
    // The device, from the reference profile again.
    await openPage(env, page, '#model=qwen3-32b&format=Q4_K_M&device=rtx-4060-ti-16gb&context=32768&lang=de');
    await page.locator(`${byTestId('ways')} button`, { hasText: more.device_name }).click();
    await waitForHash(env, page, hashHas('device', more.device), `device=${more.device}`);
    const { fit } = core.evaluate({ ...qwen, device: more.device }).simulator;
    await waitForText(env, page, 'fit', { comfortable: 'Passt komfortabel', tight: 'Knapp (>90 % nutzbar)' }[fit]);
    await assertHealthy(env, page, 'the ways');
  });

  test('the widget takes ram, ramtype and rambw as attributes', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const widget = (testId) => page.locator(`#calculator [data-testid="${testId}"]`);
    const plan = ((o) => o.plans[o.chosen])(offloadOf({ host_memory: 64, host_bandwidth: 120 }).offload);
    await page.goto('about:blank');
    await page.goto(env.url(`embed.html${LINK}&ram=64&rambw=120&lang=en`));
    await widget('fit').filter({ hasText: 'Runs with offload' }).waitFor();
    assert.equal(await widget('decode').getAttribute('data-value'), String(plan.decode_tps));
    await page.evaluate(() => { document.getElementById('calculator').ram = '8'; });
    await widget('fit').filter({ hasText: 'Does not fit' }).waitFor();
    await page.evaluate(() => { document.getElementById('calculator').setAttribute('ram', 'NaN'); });
    await widget('widget-error').filter({ hasText: 'ram' }).waitFor();
    await assertHealthy(env, page, 'in the widget');
  });
});
