// An interleaved A/B of two builds of the site with the benchmark's own measurements (page.mjs):
// round after round, one cold load of each (the order alternating) and one loop of slider
// changes of each, so that both see the same drift of the machine; then each figure's median and
// range per build, and B's median against A's. Sizes are those the first load counted.
//
//   node tests/bench/ab.mjs <site A> <site B> [--rounds 10] [--json out.json]
//   e.g. A: a checkout of main built in its own build-wasm/site, B: this tree's build-wasm/site.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startServer } from '../support/static-server.mjs';
import { coldLoads, median, perChange, sizeOf } from './page.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at < 0 ? fallback : argv.splice(at, 2)[1];
};
const rounds = Number(option('--rounds', '10'));
const jsonOut = option('--json', null);
if (argv.length !== 2) throw new Error('usage: node tests/bench/ab.mjs <site A> <site B> [--rounds N] [--json FILE]');
const builds = argv.map((dir, i) => ({ name: 'AB'[i], dir: path.resolve(dir), runs: [] }));

/** One round of one build: a cold load and a loop of changes, on a server of its own. */
async function round(build) {
  const server = await startServer(build.dir);
  try {
    const load = await coldLoads(server.url, 1);
    const change = await perChange(server.url);
    build.files ??= load.files;
    build.runs.push({ painted: load.runs[0], mark: load.mark.runs[0], whole: load.whole.runs[0],
      script_style_layout: change.script_style_layout_ms, task: change.task_ms });
  } finally {
    await server.close();
  }
}

for (let r = 0; r < rounds; r += 1) {
  for (const build of r % 2 === 0 ? builds : [...builds].reverse()) await round(build);
  console.log(`round ${r + 1} of ${rounds}`);
}

const FIGURES = [['painted', 'first numbers painted', 'ms', 0], ['mark', 'script mark', 'ms', 0],
  ['whole', 'page whole', 'ms', 0], ['script_style_layout', 'script+style+layout per change', 'ms', 2],
  ['task', 'main thread per change', 'ms', 2]];
const summary = {};
for (const build of builds) {
  const sizes = await Promise.all(build.files.map((file) => sizeOf(build.dir, file)));
  summary[build.name] = { dir: build.dir, gzip_before_painted: sizes.reduce((sum, f) => sum + f.gzip, 0) };
  for (const [key] of FIGURES) {
    const values = build.runs.map((run) => run[key]);
    summary[build.name][key] = { median: median(values), min: Math.min(...values), max: Math.max(...values) };
  }
}
console.log(`\n${rounds} interleaved rounds; A ${builds[0].dir}, B ${builds[1].dir}`);
console.log('| figure | A: median (range) | B: median (range) | B − A |\n|---|---|---|---|');
for (const [key, label, unit, digits] of FIGURES) {
  const [a, b] = builds.map((build) => summary[build.name][key]);
  const cell = (f) => `${f.median.toFixed(digits)} (${f.min.toFixed(digits)}–${f.max.toFixed(digits)}) ${unit}`;
  console.log(`| ${label} | ${cell(a)} | ${cell(b)} | ${(b.median - a.median).toFixed(digits)} ${unit} |`);
}
const bytes = builds.map((build) => summary[build.name].gzip_before_painted);
console.log(`| gzip before the first numbers painted | ${bytes[0]} B | ${bytes[1]} B | ${bytes[1] - bytes[0]} B |`);
if (jsonOut) await writeFile(jsonOut, `${JSON.stringify({ rounds, summary, runs: builds.map((b) => b.runs) }, null, 2)}\n`);
