// Writes what the wasm module leaves out (core/embed_assets.cmake), for the page to load when it
// needs it:
// - <site>/model-sources.json: every catalog model's sources by id, which the architecture card
//   loads when it first shows a model's sources;
// - <site>/i18n/<lang>.json: each language's UI strings (assets/i18n, without "_" keys), which
//   the page and the widget load when they first speak that language.
// The single file carries both inline (standalone.mjs).
// Usage: node web/tools/site_data.mjs assets build-wasm/site
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const [assets, site] = process.argv.slice(2).map((p) => path.resolve(p));
const readJson = async (file) => JSON.parse(await readFile(file, 'utf8'));
const jsonFiles = async (dir) => (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();

const sources = {};
for (const name of await jsonFiles(path.join(assets, 'models'))) {
  const model = await readJson(path.join(assets, 'models', name));
  sources[model.id] = model.sources;
}
await writeFile(path.join(site, 'model-sources.json'), JSON.stringify(sources));

await mkdir(path.join(site, 'i18n'), { recursive: true });
for (const name of await jsonFiles(path.join(assets, 'i18n'))) {
  const strings = await readJson(path.join(assets, 'i18n', name));
  const kept = Object.fromEntries(Object.entries(strings).filter(([key]) => !key.startsWith('_')));
  await writeFile(path.join(site, 'i18n', name), JSON.stringify(kept));
}
