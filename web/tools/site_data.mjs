// Writes what the wasm modules leave out (wasm/CMakeLists.txt), for the page to load when it
// needs it:
// - <site>/model-sources.json: every catalog model's sources by id, which the architecture card
//   loads when it first shows a model's sources;
// - <site>/i18n/<lang>.json and <lang>.later.json: each language's UI strings (assets/i18n,
//   without "_" keys) in two parts, split as js/i18n.js says (LATER_STRINGS): what the page's
//   first numbers show, which it loads when it first speaks that language, and the strings of
//   what comes after them, loaded with that code (the widget loads both).
// The single file carries both inline (standalone.mjs).
// Usage: node web/tools/site_data.mjs assets build-wasm/site
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isLaterString } from '../js/i18n.js';

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
  const kept = Object.entries(strings).filter(([key]) => !key.startsWith('_'));
  const part = (later) => JSON.stringify(Object.fromEntries(kept.filter(([key]) => isLaterString(key) === later)));
  await writeFile(path.join(site, 'i18n', name), part(false));
  await writeFile(path.join(site, 'i18n', `${path.basename(name, '.json')}.later.json`), part(true));
}
