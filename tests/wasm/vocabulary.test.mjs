// The vocabularies the page and the documents keep beside the core's tables: each is checked
// against the catalog the built module returns, so none can drift.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
let catalog;

before(async () => {
  const { default: create } = await import(pathToFileURL(path.join(siteDir, 'vramcalc.mjs')).href);
  const module = await create({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc.wasm')) });
  catalog = module.catalog();
});

test('the page\'s link keys and languages are the core\'s', async () => {
  const { LINK_KEYS, linkKeys } = await import(pathToFileURL(path.join(repoRoot, 'web/js/state.js')).href);
  const { LANGS } = await import(pathToFileURL(path.join(repoRoot, 'web/js/i18n.js')).href);
  // A widget's observedAttributes must be known before the catalog loads: the same list.
  assert.deepEqual(LINK_KEYS, linkKeys(catalog));
  assert.deepEqual(LINK_KEYS.slice(0, 3), ['model', 'format', 'context']);
  assert.ok(LINK_KEYS.includes('kv') && LINK_KEYS.includes('gpus'), 'short names: kv, gpus');
  assert.deepEqual(LANGS, catalog.langs);
});

test('the documents list what the tables hold', async () => {
  const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
  const counts = /(\d+) models, (\d+) devices and (\d+) formats/.exec(readme);
  assert.ok(counts, 'README.md states the catalog\'s size');
  assert.deepEqual([Number(counts[1]), Number(counts[2]), Number(counts[3])],
    [catalog.models.length, catalog.devices.length, catalog.formats.length]);
  // It documents every runtime profile.
  for (const runtime of catalog.runtimes) assert.ok(readme.includes(`| \`${runtime.id}\``), `README.md: ${runtime.id}`);
  // web/README.md's attribute table names every attribute the widget observes.
  const web = await readFile(path.join(repoRoot, 'web/README.md'), 'utf8');
  const table = web.slice(web.indexOf('| attribute'), web.indexOf('\n\n', web.indexOf('| attribute')));
  const named = [...table.matchAll(/^\| ([^|]+) \|/gm)].slice(1)
    .flatMap(([, cell]) => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
  const { WIDGET_KEYS } = await import(pathToFileURL(path.join(repoRoot, 'web/js/state.js')).href);
  assert.deepEqual([...named].sort(), [...WIDGET_KEYS, 'sections'].sort(), 'every widget attribute');
  // wasm/README.md lists every request field.
  const contract = await readFile(path.join(repoRoot, 'wasm/README.md'), 'utf8');
  for (const { name } of catalog.request_fields) assert.ok(contract.includes(`"${name}"`), `wasm/README.md: ${name}`);
});
