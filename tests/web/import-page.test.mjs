// Any model on the page (issue 32 items 1-3): a Hugging Face repo id or link, or a GGUF file
// picked on the device, read from its header in the config.json panel, through the offline Hub
// (tests/support/hub-server.mjs). A copy of the built site names that Hub (<html data-hub-url>)
// and adds its two origins to connect-src; everything else is the page as served. Expected
// figures come from tests/golden/headers/SOURCES.md and from the core's own answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHubServer } from '../support/hub-server.mjs';
import {
  TEST_TIMEOUT_MS, WAIT_MS, assertClose, assertHealthy, byTestId, hashHas, launch, loadCore, numberValue, openPage,
  repoRoot, siteDir, waitForHash,
} from './support/harness.mjs';

// unsloth/Qwen3.5-4B-GGUF's UD-IQ2_XXS file: 426 tensors, 1,509,249,024 bytes of tensor data
// (SOURCES.md), a tied embedding of 248,320 × 2,560 Q6_K... read as the core's IQ2_XXS format.
const REPO = 'unsloth/Qwen3.5-4B-GGUF';
const FILE = 'Qwen3.5-4B-UD-IQ2_XXS.gguf';
const TENSOR_BYTES = 1_509_249_024;

let hub;
let env;
let core;
let site;

/** The built site, with the offline Hub named and allowed: the page's own policy otherwise. */
async function siteForHub() {
  const dir = await mkdtemp(path.join(tmpdir(), 'vramcalc-import-site-'));
  await cp(siteDir, dir, { recursive: true });
  const index = path.join(dir, 'index.html');
  const html = await readFile(index, 'utf8');
  const policy = "connect-src 'self'";
  assert.ok(html.includes(policy), 'the page names its connect-src');
  await writeFile(index, html.replace('<html ', `<html data-hub-url="${hub.url}" `)
    .replace(policy, `${policy} ${hub.url} ${hub.cdnUrl}`));
  return dir;
}

/** Opens the config.json panel, whose chunk builds the import form. */
async function openPanel(page) {
  await page.locator('#custom summary').click();
  await page.locator(byTestId('import-source')).waitFor({ state: 'visible', timeout: WAIT_MS });
}

/** The imported description the page applied (the panel's text field holds it). */
async function appliedDescription(page) {
  await page.waitForFunction(() => document.getElementById('custom-config').value.includes('vramcalc.model/1'),
    null, { timeout: WAIT_MS }).catch(async (error) => {
    throw new Error(`no description applied; the status reads ${JSON.stringify(await page.locator(byTestId('import-status')).innerText())}, ` +
      `problems ${JSON.stringify(env.problems)}, the Hub was asked ${JSON.stringify(hub.requests.map((r) => `${r.method} ${r.url} ${r.status}`))}: ${error.message}`);
  });
  return JSON.parse(await page.locator(byTestId('custom-config')).inputValue());
}

describe('importing a model from the Hub or a file', { timeout: TEST_TIMEOUT_MS * 6 }, () => {
  before(async () => {
    hub = await startHubServer();
    site = await siteForHub();
    env = await launch({ root: site, allowOrigins: [hub.url, hub.cdnUrl] });
    core = await loadCore();
  }, { timeout: TEST_TIMEOUT_MS });
  after(async () => {
    await env?.close();
    await hub?.close();
    if (site) await rm(site, { recursive: true, force: true });
  }, { timeout: TEST_TIMEOUT_MS });

  test('nothing is asked of the Hub until the user asks; then a repo id imports its GGUF', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#lang=en&runtime=llamacpp');
    await openPanel(page);
    assert.deepEqual(hub.requests, [], 'the page and its panel asked the Hub nothing');
    await page.locator(byTestId('import-source')).fill(`https://huggingface.co/${REPO}/blob/main/${FILE}`);
    await page.locator(byTestId('import-apply')).click();
    const description = await appliedDescription(page);
    await waitForHash(env, page, hashHas('model', 'custom'), 'the imported model is the page\'s');
    assert.ok(hub.requests.length > 0, 'the import asked the Hub');
    const language = Object.entries(description.weights)
      .filter(([role]) => !['format', 'file', 'vision', 'mtp'].includes(role)).reduce((sum, [, bytes]) => sum + bytes, 0);
    assert.equal(language, TENSOR_BYTES, 'the header\'s tensor bytes, exactly');
    assert.equal(description.weights.file, FILE);
    // The page shows the core's figures for it at the file's format.
    const expected = core.evaluate({ model: description, runtime: 'llamacpp', format: description.weights.format }).simulator;
    assertClose(await numberValue(page, 'total'), expected.total_gib, 1e-9, 'the total of the imported model');
    const status = await page.locator(byTestId('import-status')).innerText();
    assert.match(status, /Qwen3\.5-4B-UD-IQ2_XXS: .*1\.41 GB/, status);
    await assertHealthy(env, page, 'after an import');

    // The link names the import (hf=repo/file); in a browser without it, the link offers to
    // import it again and asks the Hub nothing until the user does.
    const link = await waitForHash(env, page, hashHas('hf', `${REPO}/${FILE}`), 'the link names the Hub source');
    await page.evaluate(() => localStorage.clear());
    hub.clearRequests();
    await openPage(env, page, link);
    await page.locator(byTestId('import-source')).waitFor({ state: 'visible', timeout: WAIT_MS });
    assert.equal(await page.locator(byTestId('import-source')).inputValue(), `https://huggingface.co/${REPO}/blob/main/${FILE}`);
    assert.match(await page.locator(byTestId('import-status')).innerText(), /This link names .*huggingface\.co/);
    assert.deepEqual(hub.requests, [], 'a link imports nothing before the user asks');
    await page.locator(byTestId('import-apply')).click();
    await appliedDescription(page);
    await waitForHash(env, page, hashHas('model', 'custom'), 'the link\'s model is the page\'s again');
    assertClose(await numberValue(page, 'total'), expected.total_gib, 1e-9, 'the same total from the link');
  });

  test('a bad source and an offline import say why, and a local file still imports offline', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#lang=en');
    await openPanel(page);
    await page.locator(byTestId('import-source')).fill('https://example.com/not/a-model');
    await page.locator(byTestId('import-apply')).click();
    await page.waitForFunction(() => /not imported \(source\)/.test(document.getElementById('import-status').textContent),
      null, { timeout: WAIT_MS });
    hub.clearRequests();
    await env.context.setOffline(true);
    try {
      await page.locator(byTestId('import-source')).fill(REPO);
      await page.locator(byTestId('import-apply')).click();
      await page.waitForFunction(() => /needs a connection/.test(document.getElementById('import-status').textContent),
        null, { timeout: WAIT_MS });
      // The file on the device: its header is read there, and the model is the page's.
      const fixture = path.join(repoRoot, 'tests/golden/headers/gguf/qwen3-8b-q4km-ollama/qwen3-8b-Q4_K_M.gguf');
      await page.locator(byTestId('custom-file')).setInputFiles(fixture);
      await page.waitForFunction(() => document.getElementById('custom-config').value.includes('qwen3-8b-Q4_K_M'),
        null, { timeout: WAIT_MS });
      const description = JSON.parse(await page.locator(byTestId('custom-config')).inputValue());
      // Ollama's qwen3:8b (SOURCES.md): 399 tensors, 5,219,418,112 bytes of tensor data.
      const bytes = ['embedding', 'head', 'attention', 'dense_ffn', 'other'].reduce((sum, role) => sum + (description.weights[role] ?? 0), 0);
      assert.equal(bytes, 5_219_418_112);
      assert.equal(description.params_total, 8_190_735_360);
      await waitForHash(env, page, hashHas('model', 'custom'), 'the file\'s model is the page\'s');
    } finally {
      await env.context.setOffline(false);
    }
    assert.deepEqual(hub.requests, [], 'offline, nothing reached the Hub');
  });
});
