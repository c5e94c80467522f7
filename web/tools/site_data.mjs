// Writes what the wasm modules leave out (wasm/CMakeLists.txt), for the page to load when it
// needs it:
// - <site>/model-sources.json: every catalog model's sources by id, which the architecture card
//   loads when it first shows a model's sources;
// - <site>/measured-runs.json: the published decode and prompt-processing runs of
//   tests/calibration (decode.json, prefill.json) by catalog model id, each as its source
//   states it (device, engine, backend and build, format, test and depth, tok/s, and the
//   source's link), which the page lists below the simulator;
// - <site>/i18n/<lang>.json and <lang>.later.json: each language's UI strings (assets/i18n,
//   without "_" keys) in two parts, split as js/i18n.js says (LATER_STRINGS): what the page's
//   first numbers show, which it loads when it first speaks that language, and the strings of
//   what comes after them, loaded with that code (the widget loads both).
// The single file carries them inline (standalone.mjs).
// Usage: node web/tools/site_data.mjs assets tests/calibration build-wasm/site
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isLaterString } from '../js/i18n.js';

const [assets, calibration, site] = process.argv.slice(2).map((p) => path.resolve(p));
const readJson = async (file) => JSON.parse(await readFile(file, 'utf8'));
const jsonFiles = async (dir) => (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();

const sources = {};
for (const name of await jsonFiles(path.join(assets, 'models'))) {
  const model = await readJson(path.join(assets, 'models', name));
  sources[model.id] = model.sources;
}
await writeFile(path.join(site, 'model-sources.json'), JSON.stringify(sources));

// A run's build or backend as its first words ("b8743 (3f8752b55, 2026-04-11)" → "b8743"; none
// when not stated), and its source's first link (some name a copy of the table after it).
const firstWords = (text) => (text?.startsWith('not stated') ? '' : (text ?? '').split(/ \(|, |; /)[0]);
const firstLink = (source) => source.match(/https?:\/\/[^\s)]+/)[0].replace(/[.,;]$/, '');
const deviceNames = Object.fromEntries((await readJson(path.join(assets, 'devices.json'))).devices.map((d) => [d.id, d.name]));

/**
 * A calibration set's runs by catalog model id (a row's model, or the catalog model it names).
 * Decode rows name their device as the source does, prefill rows by its catalog id; a prefill
 * row's test is ppN (its depth apart) or, for a serving TTFT, null with its prompt's tokens, and
 * its flash attention where the source states it.
 */
async function measuredRuns(file) {
  const { models, rows } = await readJson(file);
  const runs = {};
  for (const row of rows) {
    const id = row.model in sources ? row.model : models[row.model]?.catalog_id;
    if (!(id in sources)) continue;
    const prompt = row.prompt_tokens;
    (runs[id] ??= []).push({
      device: deviceNames[row.device] ?? row.device, gpus: row.gpus ?? 1, split: row.split ?? null,
      engine: row.engine, platform: row.platform, backend: firstWords(row.backend) || null, build: firstWords(row.build),
      format: row.format, depth: row.depth ?? 0, tok_s: row.tok_s, source: row.source_key, url: firstLink(row.source),
      // flash attention as the source ran it, where it says (prefill rows): the rest carry none
      ...(typeof row.flash_attention === 'boolean' ? { fa: row.flash_attention } : {}),
      ...(prompt ? { test: row.test.startsWith('pp') ? `pp${prompt}` : null, prompt } : { test: row.test }),
    });
  }
  return runs;
}
const runsOf = (kind) => measuredRuns(path.join(calibration, `${kind}.json`));
await writeFile(path.join(site, 'measured-runs.json'), JSON.stringify({ decode: await runsOf('decode'), prefill: await runsOf('prefill') }));

await mkdir(path.join(site, 'i18n'), { recursive: true });
for (const name of await jsonFiles(path.join(assets, 'i18n'))) {
  const strings = await readJson(path.join(assets, 'i18n', name));
  const kept = Object.entries(strings).filter(([key]) => !key.startsWith('_'));
  const part = (later) => JSON.stringify(Object.fromEntries(kept.filter(([key]) => isLaterString(key) === later)));
  await writeFile(path.join(site, 'i18n', name), part(false));
  await writeFile(path.join(site, 'i18n', `${path.basename(name, '.json')}.later.json`), part(true));
}
