// Writes <site>/model-sources.json: every catalog model's sources by id. The wasm module leaves
// them out (the first numbers never need them, core/embed_assets.cmake); the architecture card
// loads this file when it first shows a model's sources, and the single file carries it inline.
// Usage: node web/tools/model_sources.mjs assets/models build-wasm/site
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const [modelsDir, site] = process.argv.slice(2).map((p) => path.resolve(p));
const sources = {};
for (const name of (await readdir(modelsDir)).filter((f) => f.endsWith('.json')).sort()) {
  const model = JSON.parse(await readFile(path.join(modelsDir, name), 'utf8'));
  sources[model.id] = model.sources;
}
await writeFile(path.join(site, 'model-sources.json'), JSON.stringify(sources));
