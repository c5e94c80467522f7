// Shrinks what a first visit downloads before the first numbers (the benchmark's budget):
// <site>/app.js is the page's modules and the core's loader (vramcalc.mjs) in one minified
// file, so the browser no longer walks a tree of 20 module requests before it can ask for the
// wasm; index.html loads it and preloads vramcalc.wasm alongside. The stylesheets and
// vramcalc.mjs (which the widget imports) are minified in place. The unbundled js/ modules stay
// for the widget and the embed.
// Usage: node web/tools/bundle.mjs build-wasm/site
import { build, transform } from 'esbuild';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const site = path.resolve(process.argv[2] ?? 'build-wasm/site');
const file = (name) => path.join(site, name);

await build({
  entryPoints: [file('js/main.js')],
  outfile: file('app.js'),  // beside vramcalc.wasm: the core's loader finds it from import.meta.url
  bundle: true,
  format: 'esm',
  minify: true,
  logLevel: 'warning',
});

for (const [name, loader] of [['vramcalc.mjs', 'js'],
  ...(await readdir(file('css'))).filter((f) => f.endsWith('.css')).map((f) => [`css/${f}`, 'css'])]) {
  const { code } = await transform(await readFile(file(name), 'utf8'), { loader, minify: true, format: loader === 'js' ? 'esm' : undefined });
  await writeFile(file(name), code);
}

let html = await readFile(file('index.html'), 'utf8');
const tag = '<script type="module" src="js/main.js"></script>';
if (!html.includes(tag)) throw new Error(`bundle: index.html has no ${tag}`);
html = html.replace(tag, '<link rel="preload" href="vramcalc.wasm" as="fetch" type="application/wasm" crossorigin>\n' +
  '  <script type="module" src="app.js"></script>');
await writeFile(file('index.html'), html);
console.log(`vramcalc: wrote ${path.join(site, 'app.js')}`);
