// "What runs on my machine?" (#view=fits, issue 16) in headless Chromium: the link lists
// exactly the models `vramcalc sweep --device` says fit, with the same formats, memory, decode
// and max context; no model is listed as fitting beyond its own maximum context; the columns
// sort, the filters filter, a row opens the model's simulator on the device, and the CSV and
// Markdown exports carry the numbers shown. The views switch by their link.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import {
  TEST_TIMEOUT_MS, WAIT_MS, assertHealthy, byTestId, hashParams, launch, openPage, settle, shareBrowser, waitForHash,
} from './support/harness.mjs';
import { parseCsv } from './support/csv.mjs';
import { cliCatalog, cliFits, cliPath } from './support/sweep-cli.mjs';

const LINK = '#view=fits&device=rtx-4090-24gb&context=8192&lang=en';
let env;
let catalog;

/** The fits rows as the page shows them: data attributes and cell texts. */
const readRows = (page) => page.locator(byTestId('fit-row')).evaluateAll((rows) => rows.map((row) => ({
  ...row.dataset, texts: [...row.cells].map((c) => c.innerText.replace(/[\u00a0\u202f]/g, ' ').trim()),
})));

async function openFits(page, hash = LINK) {
  await page.goto('about:blank');
  await page.goto(env.url(hash), { waitUntil: 'load', timeout: WAIT_MS });
  await page.locator(byTestId('fit-row')).first().waitFor({ timeout: WAIT_MS });
  await settle(page);
}

describe('the fits view', { timeout: TEST_TIMEOUT_MS * 5 }, () => {
  shareBrowser((launched) => { env = launched; }, { options: { locale: 'en-US' }, setUp: () => { catalog = cliCatalog(); } });

  test('the link lists exactly what `vramcalc sweep --device` says fits, with its numbers', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openFits(page);
    const shown = await readRows(page);
    const cli = cliFits('rtx-4090-24gb', 8192);
    const sweep = JSON.parse(execFileSync(cliPath, ['sweep', '{"device":"rtx-4090-24gb","context":8192,"runtime":"llamacpp"}'],
      { encoding: 'utf8' }));
    // A link that names no engine opens under llama.cpp's, and says so.
    assert.equal(await page.locator(byTestId('runtime')).inputValue(), 'llamacpp');
    assert.match(await page.locator('#fits-summary').innerText(), /, llama\.cpp\.$/);
    const name = (id) => catalog.models.find((m) => m.id === id).name;
    assert.deepEqual(shown.map((r) => name(r.model)).sort(), cli.fitting.map((c) => c[0]).sort(), 'the models that fit');
    for (const row of shown) {
      const [, format, memory, decode, ttft, context] = cli.fitting.find((c) => c[0] === name(row.model));
      const where = `${row.model}: ${JSON.stringify(row.texts)}`;
      assert.equal(row.format, format, where);
      assert.deepEqual([1, 3, 4, 5, 6].map((i) => row.texts[i]), [format, memory, decode, ttft, context], where);
      // The data attributes are the sweep's own figures (0.001 GiB, 0.01 tok/s, tokens).
      const m = sweep.models.indexOf(row.model);
      const i = m * sweep.formats.length + sweep.formats.indexOf(format);
      assert.deepEqual([Number(row.total), Number(row.decode), Number(row.ttft), Number(row.maxContext), row.fit],
        [sweep.total_gib[i], sweep.decode_tps[i], sweep.ttft_s[i], sweep.max_context[i], sweep.fit_ids[sweep.fit[i]]], where);
      // Never beyond the model's own maximum context, and never asked past it.
      assert.ok(Number(row.maxContext) <= sweep.max_position[m], where);
      assert.ok(sweep.max_position[m] >= 8192, where);
    }
    // Yi-1.5-34B and OLMo-2 stop at 4,096 tokens: apart, as the CLI lists them.
    const beyond = await page.locator('#fits-beyond-list li').evaluateAll((items) => items.map((li) => li.textContent));
    assert.deepEqual(beyond.map((line) => line.split(':')[0]).sort(), [...cli.beyond].sort());
    assert.ok(cli.beyond.includes('Yi-1.5-34B-Chat') && cli.beyond.includes('OLMo-2-1124-7B-Instruct'), cli.beyond.join());
    await assertHealthy(env, page, 'fits view');
  });

  test('the columns sort, the filters filter, a row opens the simulator', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openFits(page);
    // Its header's sort buttons look like headings (css/later.css, which the view loads: no
    // button border).
    assert.equal(await page.locator('#fits-table button[data-sort="decode"]').evaluate((b) => getComputedStyle(b).borderTopStyle), 'none');
    const decodes = async () => (await readRows(page)).map((r) => Number(r.decode));
    await page.locator('#fits-table button[data-sort="decode"]').click();
    await settle(page);
    const up = await decodes();
    assert.deepEqual(up, [...up].sort((a, b) => a - b), 'ascending');
    await page.locator('#fits-table button[data-sort="decode"]').click();
    await settle(page);
    const down = await decodes();
    assert.deepEqual(down, [...up].sort((a, b) => b - a), 'descending');
    assert.equal(await page.locator('#fits-table th:has(button[data-sort="decode"])').getAttribute('aria-sort'), 'descending');
    await page.locator(byTestId('fits-family')).selectOption('Alibaba Qwen');
    await page.locator(byTestId('fits-comfortable')).check();
    await settle(page);
    const kept = await readRows(page);
    assert.ok(kept.length > 0);
    for (const row of kept) {
      assert.equal(catalog.models.find((m) => m.id === row.model).family, 'Alibaba Qwen', row.model);
      assert.equal(row.fit, 'comfortable', row.model);
    }
    const [first] = kept;
    await page.locator(`tr[data-model="${first.model}"] .row-select`).click();
    const hash = await waitForHash(env, page, (h) => hashParams(h).get('model') === first.model, 'the row opens the model');
    assert.equal(hashParams(hash).get('device'), 'rtx-4090-24gb');
    assert.equal(hashParams(hash).get('format'), first.format);
    assert.equal(hashParams(hash).get('view'), null);
    assert.equal(hashParams(hash).get('runtime'), 'llamacpp', 'the model opens under the engine the view showed');
    await page.locator(byTestId('total')).and(page.locator('[data-value]')).waitFor({ timeout: WAIT_MS });
    assert.equal(await page.locator('#fits').isHidden(), true, 'the simulator shows');
    // And back: the view link.
    await page.locator(byTestId('view-link')).click();
    await waitForHash(env, page, (h) => hashParams(h).get('view') === 'fits', 'the view link');
    await page.locator(byTestId('fit-row')).first().waitFor({ timeout: WAIT_MS });
    await assertHealthy(env, page, 'sorted, filtered, opened');
  });

  test('a widget with view="fits" lists what the page lists, and leaves the host\'s title alone', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openFits(page);
    const title = await page.title();
    // The page's rows before the widget comes: the locator reaches into its shadow root too.
    const expected = (await readRows(page)).map((r) => [r.model, r.format, r.total]);
    await page.evaluate(async () => {
      await import('./widget.js');
      const widget = document.createElement('vram-calculator');
      widget.id = 'fits-widget';
      for (const [name, value] of Object.entries({ view: 'fits', device: 'rtx-4090-24gb', context: '8192', lang: 'en' })) {
        widget.setAttribute(name, value);
      }
      document.body.append(widget);
    });
    const inWidget = () => page.evaluate(() => [...(document.querySelector('#fits-widget').shadowRoot
      ?.querySelectorAll('[data-testid="fit-row"]') ?? [])].map((r) => [r.dataset.model, r.dataset.format, r.dataset.total]));
    let shown = [];
    for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await settle(page)) {
      shown = await inWidget();
      if (JSON.stringify(shown) === JSON.stringify(expected)) break;
    }
    const state = await page.evaluate(() => {
      const root = document.querySelector('#fits-widget').shadowRoot;
      return { error: root?.getElementById('error')?.textContent, fits: root?.getElementById('fits')?.hidden,
        rows: root?.querySelectorAll('[data-testid="fit-row"]').length, summary: root?.getElementById('fits-summary')?.textContent };
    });
    assert.deepEqual(shown, expected, JSON.stringify(state));
    assert.equal(await page.title(), title);
    await assertHealthy(env, page, 'the fits widget');
  });

  test('what fits in no format but runs with offload is listed apart, as `vramcalc sweep --device --ram` lists it', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openFits(page, '#view=fits&device=rtx-3060-12gb&context=8192&ram=128&lang=en');
    const cli = cliFits('rtx-3060-12gb', 8192, 'llamacpp', ['--ram', '128']);
    const shown = await page.locator(byTestId('fit-offload-row')).evaluateAll((rows) => rows.map((row) => ({
      ...row.dataset, texts: [...row.cells].slice(0, 5).map((c) => c.innerText.replace(/[\u00a0\u202f]/g, ' ').trim()),
    })));
    assert.ok(cli.offload.length >= 10, `the CLI lists ${cli.offload.length}`);
    const byName = (a, b) => a[0].localeCompare(b[0]);
    // Name, format, in RAM and decode as the CLI prints them; the split in words for its flags
    // (-ngl K: the output layer and K − 1 layers on the GPU; --n-cpu-moe N; --cpu-moe).
    const words = (flags) => {
      const [, ngl] = /^-ngl (\d+)$/.exec(flags) ?? [];
      if (ngl) return `${Number(ngl) - 1} layers on the GPU`;
      const [, n] = /--n-cpu-moe (\d+)$/.exec(flags) ?? [];
      return n ? `Experts of ${n} layers in RAM` : flags.endsWith('--cpu-moe') ? 'All experts in RAM' : flags;
    };
    assert.deepEqual(shown.map((r) => r.texts).sort(byName),
      cli.offload.map(([name, format, flags, ram, decode]) => [name, format, words(flags), ram, decode]).sort(byName));
    assert.match(await page.locator('#fits-offload-heading').innerText(), new RegExp(`^Runs with offload: ${cli.offload.length} models$`));
    assert.match(await page.locator('#fits-offload-note').innerText(), /128 GB of system RAM: in Q4_K_M, split as llama\.cpp splits it/);
    // What neither fits nor runs with offload, apart again.
    const none = await page.locator('#fits-none-list li').evaluateAll((items) => items.map((li) => li.textContent));
    assert.ok(none.length > 0 && none.every((model) => !shown.some((r) => r.texts[0] === model)), none.join());
    assert.match(await page.locator('#fits-none-heading').innerText(), /^Does not run, not even with offload: \d+ models$/);
    // A row opens the model on the device in that format, the plan and its speed as the row says.
    const [first] = shown;
    await page.locator(`${byTestId('fit-offload-row')}[data-model="${first.model}"] .row-select`).click();
    const hash = await waitForHash(env, page, (h) => hashParams(h).get('model') === first.model, 'the row opens the model');
    assert.deepEqual(['device', 'ram', 'runtime'].map((key) => hashParams(hash).get(key)), ['rtx-3060-12gb', '128', 'llamacpp']);
    await page.locator(byTestId('offload-summary')).waitFor({ timeout: WAIT_MS });
    assert.equal(await page.locator(byTestId('format')).inputValue(), first.format);
    const summary = (await page.locator(byTestId('offload-summary')).innerText()).replace(/[\u00a0\u202f]/g, ' ');
    assert.ok(summary.endsWith(` ${first.texts[4]}.`), summary);
    await assertHealthy(env, page, 'runs with offload');
  });

  test('the CSV and the Markdown carry the numbers shown, what runs with offload after what fits', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openFits(page);
    const rows = await readRows(page);
    const offload = await page.locator(byTestId('fit-offload-row')).evaluateAll((list) => list.map((row) => ({
      ...row.dataset, texts: [...row.cells].filter((c) => !c.hidden).map((c) => c.innerText.replace(/[\u00a0\u202f]/g, ' ').trim()),
    })));
    // Llama 3.1 70B and the other models too large for 24 GB in every format run with a part in
    // the default 32 GB of RAM.
    assert.ok(offload.length > 0, 'the link has models that run with offload');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(byTestId('fits-csv')).click()]);
    const text = await readFile(await download.path(), 'utf8');
    const [caption, header, ...lines] = parseCsv(text);
    assert.match(caption[0], /RTX 4090 24GB, 8,192 tokens × 1, KV cache FP16/);
    assert.ok(caption[0].includes('view=fits'), caption[0]);
    assert.deepEqual(header, ['model', 'model_id', 'format', 'fit', 'memory_gb', 'decode_tok_s', 'first_token_s', 'max_context',
      'device_id', 'offload_plan', 'gpu_layers', 'ram_expert_layers', 'ram_gb', 'ram_share_pct']);
    const fitting = lines.slice(0, rows.length);
    assert.deepEqual(fitting.map(([, id, format, fit, memory, decode, ttft, context, device, ...plan]) =>
      [id, format, fit, Number(memory), Number(decode), Number(ttft), Number(context), device, plan.join('')]),
    rows.map((r) => [r.model, r.format, r.fit, Number(r.total), Number(r.decode), Number(r.ttft), Number(r.maxContext), r.device, '']));
    // Then one line per plan: the GPU's part, the speed, no first token or context, the split and RAM's part.
    assert.deepEqual(lines.slice(rows.length).map(([, id, format, fit, memory, decode, ttft, context, device, kind, layers, experts, ram, share]) =>
      [id, format, fit, Number(memory), Number(decode), ttft + context, device, kind, Number(layers), Number(experts), Number(ram), Number(share)]),
    offload.map((r) => [r.model, r.format, 'offload', Number(r.deviceGib), Number(r.decode), '', r.device, r.kind,
      Number(r.gpuLayers), Number(r.ramExpertLayers), Number(r.ram), Number(r.share)]));
    await env.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
    await page.locator(byTestId('fits-copy-md')).click();
    await page.locator(`${byTestId('fits-copy-md')}[data-copied]`).waitFor();  // it says "copied"
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(markdown.startsWith(caption[0]), markdown.slice(0, 200));
    // Two tables, the second under the offload table's heading, each line as its row shows it.
    const [fitsPart, offloadPart] = markdown.split(`\n${await page.locator('#fits-offload-heading').innerText()}\n`);
    const tableLines = (part) => part.split('\n').filter((line) => line.startsWith('| '));
    assert.equal(tableLines(fitsPart).length, rows.length + 2, 'header, alignment and one line per row');
    assert.ok(tableLines(fitsPart)[2].includes(rows[0].texts[3]), tableLines(fitsPart)[2]);
    assert.deepEqual(tableLines(offloadPart).slice(2), offload.map((r) => `| ${r.texts.join(' | ')} |`));
  });

  test('each device lists what `vramcalc sweep --device` says fits on it; devices are added and taken out', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const devices = ['rtx-4090-24gb', 'rtx-3060-12gb'];
    await openFits(page, `#view=fits&device=${devices[0]}&compare=${devices[1]}&context=8192&lang=en`);
    const shown = await readRows(page);
    const name = (id) => catalog.models.find((m) => m.id === id).name;
    const deviceName = (id) => catalog.devices.find((d) => d.id === id).name;
    const fitsBy = new Map(devices.map((d) => [d, cliFits(d, 8192)]));
    for (const device of devices) {
      const rows = shown.filter((r) => r.device === device);
      const cli = fitsBy.get(device);
      assert.deepEqual(rows.map((r) => name(r.model)).sort(), cli.fitting.map((c) => c[0]).sort(), `what fits on ${device}`);
      for (const row of rows) {
        const [, format, memory, decode, ttft, context] = cli.fitting.find((c) => c[0] === name(row.model));
        assert.deepEqual([row.format, ...[1, 3, 4, 5, 6, 7].map((i) => row.texts[i])],
          [format, format, memory, decode, ttft, context, deviceName(device)], `${row.model} on ${device}`);
      }
    }
    assert.equal(shown.length, fitsBy.get(devices[0]).fitting.length + fitsBy.get(devices[1]).fitting.length);
    // Models that fit on neither are listed apart; a model beyond its maximum context on none.
    const none = await page.locator('#fits-none-list li').evaluateAll((items) => items.map((li) => li.textContent));
    const fitting = new Set(shown.map((r) => name(r.model)));
    assert.ok(none.every((model) => !fitting.has(model)), none.join());
    assert.match(await page.locator(byTestId('title')).innerText(), /RTX 4090 24GB and RTX 3060 12GB/);
    assert.equal(await page.locator('#fits-table thead th:last-child').isVisible(), true, 'the device column');
    // Taken out: the link loses its compare, the table its column.
    await page.locator(`${byTestId('fits-devices')} button[data-remove="${devices[1]}"]`).click();
    let hash = await waitForHash(env, page, (h) => !hashParams(h).has('compare'), 'the device taken out');
    await settle(page);
    assert.equal((await readRows(page)).length, fitsBy.get(devices[0]).fitting.length);
    assert.equal(await page.locator('#fits-table thead th:last-child').isVisible(), false, 'no device column');
    // And added again from the list.
    await page.locator(byTestId('fits-add-device')).selectOption(devices[1]);
    hash = await waitForHash(env, page, (h) => hashParams(h).get('compare') === devices[1], 'the device added');
    assert.equal(hashParams(hash).get('device'), devices[0]);
    await assertHealthy(env, page, 'several devices');
  });
});

/** The simulator at `hash`, then its link to the fits view followed: the view's hash. */
async function fitsFromSimulator(page, hash) {
  await openPage(env, page, hash);
  await page.locator(byTestId('view-link')).click();
  return waitForHash(env, page, (h) => hashParams(h).get('view') === 'fits', 'view=fits');
}

/**
 * The fits view's rows on `device` at 32K under llama.cpp against `vramcalc sweep --device`'s: the
 * same format and memory in each, a "†" where the row carries a command to let the GPU use more.
 */
async function rowsAsTheCliHasThem(page, device) {
  await openFits(page, `#view=fits&device=${device}&context=32768&runtime=llamacpp&lang=en`);
  const shown = await readRows(page);
  const cli = cliFits(device, 32768);
  const name = (id) => catalog.models.find((m) => m.id === id).name;
  assert.equal(shown.length, cli.fitting.length, device);
  for (const row of shown) {
    const [, format, memory] = cli.fitting.find((c) => c[0] === name(row.model));
    assert.deepEqual([row.texts[1], row.texts[3]], [format, memory], row.model);
    assert.equal(memory.endsWith(' †'), row.gpuMapCommand !== '', row.model);
  }
  return shown;
}

describe('the simulator links to the fits view', { timeout: TEST_TIMEOUT_MS * 2 }, () => {
  before(async () => { env = await launch({ locale: 'de-DE' }); }, { timeout: TEST_TIMEOUT_MS });
  after(async () => env?.close(), { timeout: TEST_TIMEOUT_MS });

  test('on a Strix Halo, what needs more than the memory Linux lets its GPU map is marked, as the CLI marks it', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    // AMD's ROCm docs: 62.82 GB by default (tests/core/engine_profiles_test.cc); Llama 3.3 70B's best
    // format there, Q8_0 at 32K, needs 81.70 GB mapped under llama.cpp: amd-ttm --set 82.
    const shown = await rowsAsTheCliHasThem(page, 'ryzen-ai-max-395-128gb');
    const llama = shown.find((r) => r.model === 'llama-3.3-70b');
    assert.deepEqual([llama.format, llama.gpuMapCommand, llama.texts[3]], ['Q8_0', 'amd-ttm --set 82', '80.70 GB †']);
    assert.equal(await page.locator('[data-testid="fit-row"][data-model="llama-3.3-70b"] td:nth-of-type(3)').getAttribute('title'),
      'amd-ttm --set 82');
    assert.match(await page.locator(byTestId('fits-gpu-map-note')).innerText(), /^† More than the 62\.82 GB Linux lets the GPU map/);
    assert.ok(shown.some((r) => r.gpuMapCommand === ''), 'smaller models need no more');
    // A discrete card: no mark, no note.
    await openFits(page);
    assert.equal(await page.locator(byTestId('fits-gpu-map-note')).isVisible(), false);
    await assertHealthy(env, page, 'fits on a Strix Halo');
  });

  test('on a Mac, what fits only once its wired limit is raised is marked, as the CLI marks it', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    // macOS 26 lets a 96 GB M2 Max's GPU wire 77.76 GB (76.76 under llama.cpp's --fit). Qwen3.5-397B-A17B
    // fits it in no format, but at IQ1_M, 85.55 GB, once raised to 85.55 + 1 GB: 87 GiB = 89,088 MiB.
    // Llama 3.3 70B keeps its Q6_K as the Mac is set up (its Q8_0 needs the limit raised: the simulator says so).
    const shown = await rowsAsTheCliHasThem(page, 'apple-m2-max-96gb');
    for (const row of shown) assert.equal(row.texts[2] === 'Fits once raised', row.gpuMapCommand !== '', row.model);
    const qwen = shown.find((r) => r.model === 'qwen3.5-397b-a17b');
    assert.deepEqual([qwen.format, qwen.gpuMapCommand, qwen.texts[2], qwen.texts[3]],
      ['IQ1_M', 'sudo sysctl iogpu.wired_limit_mb=89088', 'Fits once raised', '85.55 GB †']);
    assert.equal(await page.locator('[data-testid="fit-row"][data-model="qwen3.5-397b-a17b"] td:nth-of-type(3)').getAttribute('title'),
      'sudo sysctl iogpu.wired_limit_mb=89088');
    const llama = shown.find((r) => r.model === 'llama-3.3-70b');
    assert.deepEqual([llama.format, llama.gpuMapCommand], ['Q6_K', '']);
    assert.match(await page.locator(byTestId('fits-gpu-map-note')).innerText(), /^† More than macOS lets the GPU wire by default/);
    assert.equal(shown.find((r) => r.model === 'qwen3-8b').texts[2], 'Fits comfortably');
    await assertHealthy(env, page, 'fits on a Mac');
  });

  test('with the device and context it shows', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const hash = await fitsFromSimulator(page, '#model=qwen3-8b&device=rtx-3090-24gb&context=16384');
    assert.equal(hashParams(hash).get('device'), 'rtx-3090-24gb');
    assert.equal(hashParams(hash).get('context'), '16384');
    await page.locator(byTestId('fit-row')).first().waitFor({ timeout: WAIT_MS });
    assert.match(await page.locator(byTestId('title')).innerText(), /RTX 3090/);
    // From the reference page's own engine, the view opens under llama.cpp's (the link names none);
    // back to the model, the link keeps the engine the view showed.
    assert.equal(hashParams(hash).get('runtime'), null);
    assert.equal(await page.locator(byTestId('runtime')).inputValue(), 'llamacpp');
    assert.equal(hashParams(await page.locator(byTestId('view-link')).getAttribute('href')).get('runtime'), 'llamacpp');
    await assertHealthy(env, page, 'from the simulator');
  });

  test('an engine the simulator or the link names stays the fits view\'s', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    const hash = await fitsFromSimulator(page, '#model=qwen3-8b&device=rtx-3090-24gb&runtime=vllm');
    assert.equal(hashParams(hash).get('runtime'), 'vllm');
    await page.locator(byTestId('fit-row')).first().waitFor({ timeout: WAIT_MS });
    await openFits(page, '#view=fits&device=rtx-3090-24gb&runtime=reference');
    assert.equal(await page.locator(byTestId('runtime')).inputValue(), 'reference');
    await assertHealthy(env, page, 'an engine named');
  });
});
