// Writes <site>/vramcalc-standalone.html: the whole page in one file — styles, the bundled
// modules (esbuild) and the wasm (base64) inline — that works opened from disk (file://),
// with no server and no network.
// Usage: node web/tools/standalone.mjs build-wasm/site
import { build } from 'esbuild';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { importerLibraries } from './importer-libraries.mjs';

const site = path.resolve(process.argv[2] ?? 'build-wasm/site');
const read = (file, encoding = 'utf8') => readFile(path.join(site, file), encoding);

// vramcalc-full.wasm: the single file answers everything from one module, pasted config.json files too.
const wasmBase64 = (await read('vramcalc-full.wasm', null)).toString('base64');
// The entry hands the inline wasm to the core first, then runs the page: module order matters,
// the core must have its bytes before main.js asks for it. Modules come from the assembled
// site, so the file matches what is served.
const WASM_SETUP = `import { useWasmBinary } from './js/core.js';
const text = atob(${JSON.stringify(wasmBase64)});
const bytes = new Uint8Array(text.length);
for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
useWasmBinary(bytes);`;
const bundle = await build({
  stdin: { contents: "import 'vramcalc:wasm-setup';\nimport './js/main.js';\n", resolveDir: site, loader: 'js' },
  bundle: true,
  format: 'esm',
  minify: true,
  write: false,
  logLevel: 'warning',
  plugins: [importerLibraries, {
    name: 'vramcalc-inline-wasm',
    setup(b) {
      b.onResolve({ filter: /^vramcalc:wasm-setup$/ }, () => ({ path: 'wasm-setup', namespace: 'vramcalc' }));
      b.onLoad({ filter: /.*/, namespace: 'vramcalc' }, () => ({ contents: WASM_SETUP, resolveDir: site, loader: 'js' }));
    },
  }],
});
const script = bundle.outputFiles[0].text.replaceAll('</script', '<\\/script');
// Both stylesheets, inline and without the first's data-later (the page links that later
// stylesheet only where the first names it).
const css = [await read('css/app.css'), await read('css/later.css')].join('\n').replaceAll('</style', '<\\/style');
const icon = `data:image/svg+xml;base64,${(await read('icons/icon.svg', null)).toString('base64')}`;

let html = await read('index.html');
const replace = (pattern, replacement) => {
  if (!pattern.test(html)) throw new Error(`standalone: index.html has no ${pattern}`);
  html = html.replace(pattern, replacement);
};
replace(/<link rel="stylesheet" href="css\/app\.css" data-later="css\/later\.css">/, () => `<style>${css}</style>`);
// The models' sources, the published runs and each language's strings, which the page fetches
// (model-sources.json, measured-runs.json, i18n/<lang>.json), inline: nothing may be fetched.
const inlineText = (id, json) => `<script type="application/json" id="${id}">${json.replaceAll('<', '\\u003c')}</script>\n  `;
const inlineJson = async (id, file) => inlineText(id, await read(file));
let data = await inlineJson('vramcalc-model-sources', 'model-sources.json') +
  await inlineJson('vramcalc-measured-runs', 'measured-runs.json');
// Each language's table whole: its two parts (site_data.mjs) merged.
for (const name of (await readdir(path.join(site, 'i18n'))).filter((f) => !f.endsWith('.later.json')).sort()) {
  const lang = path.basename(name, '.json');
  const [first, later] = await Promise.all([`i18n/${name}`, `i18n/${lang}.later.json`].map(async (f) => JSON.parse(await read(f))));
  data += inlineText(`vramcalc-strings-${lang}`, JSON.stringify({ ...first, ...later }));
}
replace(/<script type="module" src="js\/main\.js" async><\/script>/, () => `${data}<script type="module">${script}</script>`);
// Its module is inline: nothing to compile while a download runs (boot.js).
replace(/<script src="boot\.js" async><\/script>\n?\s*/, '');
// Everything is inline now, and nothing may be fetched: a policy that says exactly that.
replace(/<meta http-equiv="Content-Security-Policy"\s+content="[^"]*">/, '<meta http-equiv="Content-Security-Policy" ' +
  `content="default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; ` +
  `img-src data:; base-uri 'none'; form-action 'none'">`);
html = html.replaceAll('icons/icon.svg', icon);
await writeFile(path.join(site, 'vramcalc-standalone.html'), html);
console.log(`vramcalc: wrote ${path.join(site, 'vramcalc-standalone.html')} (${Math.round(html.length / 1024)} KiB)`);
