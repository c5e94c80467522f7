// The npm package (issue 16): `npm pack build-wasm/package`, installed from the tarball into a
// fresh project with no network, has no dependencies and no install scripts, and works from
// Node (import { evaluate, sweep, catalog } from 'vramcalc') and from a page served from that
// project (the API and the <vram-calculator> widget from node_modules). The expected figures
// are the reference page's (tests/golden/reference-page.txt).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { TEST_TIMEOUT_MS, WAIT_MS, launch, repoRoot } from './support/harness.mjs';
import { installedProject } from './support/package-project.mjs';
import { REFERENCE, referenceNumber } from './support/reference.mjs';
import { cliEvaluate, cliPath } from './support/sweep-cli.mjs';
import { startHubServer } from '../support/hub-server.mjs';
const REFERENCE_TOTAL = referenceNumber(REFERENCE.matrix.find(([format]) => format === 'Q4_K_M')[5]);  // 21.78 GB at 32K

describe('the npm package, installed in a fresh project', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  let project;
  before(async () => { project = await installedProject(); }, { timeout: TEST_TIMEOUT_MS * 2 });
  after(async () => { if (project) await rm(project, { recursive: true, force: true }); });

  test('has no runtime dependencies and no install scripts', async () => {
    const manifest = JSON.parse(await readFile(path.join(project, 'node_modules/vramcalc/package.json'), 'utf8'));
    assert.equal(manifest.dependencies, undefined);
    assert.equal(manifest.scripts, undefined);
    assert.equal(manifest.types, './index.d.ts');
    for (const file of ['index.js', 'index.d.ts', 'import.js', 'vramcalc.mjs', 'vramcalc.wasm', 'vramcalc-full.wasm', 'widget.js', 'css/widget.css', 'i18n/en.json',
      'i18n/en.later.json', 'LICENSE']) {
      await readFile(path.join(project, 'node_modules/vramcalc', file));
    }
  });

  test('works from Node', () => {
    const script = `import { evaluate, sweep, catalog } from 'vramcalc';
      const answer = await evaluate({ model: 'glm-4-32b-0414' });
      const one = await sweep({ device: 'rtx-4090-24gb', context: 8192 });
      const all = await catalog();
      const bad = await evaluate({ model: 'glm-4-32b-0414', context: -5 });
      console.log(JSON.stringify({ total: answer.simulator.total_gib, devices: one.devices, models: all.models.length,
        bad: bad.ok, field: bad.error?.field }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' }));
    assert.equal(out.total.toFixed(2), REFERENCE_TOTAL.toFixed(2));
    assert.deepEqual(out.devices, ['rtx-4090-24gb']);
    assert.ok(out.models >= 90, String(out.models));
    assert.deepEqual([out.bad, out.field], [false, 'context']);
  });

  test('answers serving from Node as the CLI does (the full module)', () => {
    const request = { model: 'qwen3-8b', runtime: 'llamacpp', device: 'rtx-4090-24gb', prompt_tokens: 20000, output_tokens: 1000,
      sections: ['serving'] };
    const script = `import { evaluate } from 'vramcalc';
      console.log(JSON.stringify((await evaluate(${JSON.stringify(request)})).serving));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' }));
    assert.deepEqual(out, cliEvaluate(request).serving);
    assert.equal(out.gap, 'none');
    assert.ok(out.ttft_s > 0 && out.prefill_tps > 0, JSON.stringify(out));
  });

  test('reads a config.json from Node (the full module), as `vramcalc evaluate --config` does', () => {
    const config = path.join(repoRoot, 'tests/golden/configs/qwen3.json');
    const script = `import { evaluate } from 'vramcalc';
      import { readFile } from 'node:fs/promises';
      const text = await readFile(${JSON.stringify(config)}, 'utf8');
      const beside = await evaluate({ format: 'Q8_0' }, text);
      const inside = await evaluate({ model: JSON.parse(text), format: 'Q8_0' });
      console.log(JSON.stringify([beside.simulator.total_gib, inside.simulator.total_gib]));`;
    const [beside, inside] = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' }));
    const cli = JSON.parse(execFileSync(cliPath, ['evaluate', '--config', config, '{"format": "Q8_0"}'], { encoding: 'utf8' }));
    assert.equal(beside, cli.simulator.total_gib);
    assert.equal(inside, cli.simulator.total_gib);
  });

  test('reads a model description from Node, as `vramcalc evaluate --model-file` does: the file\'s bytes under its format', () => {
    const file = path.join(repoRoot, 'tests/golden/descriptions/deepseek-v2-lite-mla-f16.json');
    const script = `import { evaluate } from 'vramcalc';
      import { readFile } from 'node:fs/promises';
      const text = await readFile(${JSON.stringify(file)}, 'utf8');
      const request = { runtime: 'vllm', format: 'BF16', device: 'h100-80gb' };
      const beside = await evaluate(request, text);
      const inside = await evaluate({ ...request, model: JSON.parse(text) });
      console.log(JSON.stringify([beside.simulator.weights_gib, inside.simulator.weights_gib]));`;
    const [beside, inside] = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' }));
    const cli = JSON.parse(execFileSync(cliPath, ['evaluate', '--model-file', file, '{"runtime": "vllm", "format": "BF16", "device": "h100-80gb"}'],
      { encoding: 'utf8' }));
    // The F16 GGUF's 431 tensors: 31,533,283,328 B (tests/golden/headers/SOURCES.md), all on the GPU under vLLM.
    assert.equal(Math.round(beside * 2 ** 30), 31_533_283_328);
    assert.equal(beside, cli.simulator.weights_gib);
    assert.equal(inside, cli.simulator.weights_gib);
  });

  test('imports a model from the Hub under Node (the offline Hub), to the bytes its header states', async () => {
    const hub = await startHubServer();
    try {
      // Node runs the script in a child (this process serves the Hub meanwhile).
      const script = `import { evaluate, importModel } from 'vramcalc';
        const hubUrl = ${JSON.stringify(hub.url)};
        const gguf = await importModel('unsloth/Qwen3.5-4B-GGUF', { hubUrl });
        const answer = await evaluate({ model: gguf.description, runtime: 'llamacpp', format: gguf.format.id, sections: ['simulator'] });
        const vl = await importModel(hubUrl + '/vramcalc-fixtures/Qwen3-VL-8B-Instruct-GGUF', { hubUrl });
        const bad = await importModel('not a repo', { hubUrl });
        const missing = await importModel('nobody/nothing', { hubUrl });
        console.log(JSON.stringify({ ok: gguf.ok, params: gguf.params_total, format: gguf.format.id, total: gguf.total_bytes,
          checkpoint: gguf.description.checkpoint, fit: answer.simulator.fit, vision: vl.description.weights.vision,
          bad: [bad.ok, bad.error.field], missing: [missing.ok, missing.error.field] }));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
      const out = JSON.parse(stdout);
      // tests/golden/headers/SOURCES.md: Qwen3.5-4B UD-IQ2_XXS, 426 tensors, 4,205,751,296 parameters,
      // 1,509,249,024 bytes of tensor data; converted from Qwen/Qwen3.5-4B; Qwen3-VL-8B's mmproj
      // 1,159,009,216 bytes.
      assert.deepEqual([out.ok, out.params, out.format, out.total, out.checkpoint],
        [true, 4_205_751_296, 'IQ2_XXS', 1_509_249_024, 'Qwen/Qwen3.5-4B']);
      assert.equal(typeof out.fit, 'string');
      assert.equal(out.vision, 1_159_009_216);
      assert.deepEqual(out.bad, [false, 'source']);
      assert.deepEqual(out.missing, [false, 'source']);
      assert.ok(hub.requests.length > 0, 'it asked the offline Hub, nothing else');
    } finally {
      await hub.close();
    }
  });

  test('works in a page served from the project: the API and the widget', { timeout: TEST_TIMEOUT_MS }, async () => {
    const env = await launch({ root: project, locale: 'en-US' });
    try {
      const { page } = env;
      await page.goto(env.url(''), { waitUntil: 'load' });
      await page.waitForFunction(() => document.body.dataset.total, null, { timeout: WAIT_MS });
      assert.equal(await page.evaluate(() => document.body.dataset.total), REFERENCE_TOTAL.toFixed(2));
      await page.waitForFunction(() => document.querySelector('#w').shadowRoot
        ?.querySelector('[data-testid="total"]')?.dataset.value, null, { timeout: WAIT_MS });
      const shown = await page.evaluate(() => document.querySelector('#w').shadowRoot.querySelector('[data-testid="total"]').textContent);
      assert.equal(shown.replace(/\s/g, ' '), `${REFERENCE_TOTAL.toFixed(2)} GB`);
      assert.deepEqual(env.problems, []);
    } finally {
      await env.close();
    }
  });
});
