// Writes the npm package (build-wasm/package/): the API (web/package/index.js and its types),
// the wasm module and its loader, importModel's reader with the Hub's libraries (import.js), the
// <vram-calculator> widget with the modules, stylesheet and
// strings it loads beside itself, the README and the licence. `npm pack build-wasm/package`
// makes the tarball (tests/web/package.test.mjs packs, installs and uses it).
// Usage: node web/tools/package.mjs build-wasm/site build-wasm/package 0.1.0
import { build } from 'esbuild';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importerLibraries } from './importer-libraries.mjs';

const [site, out, version] = process.argv.slice(2);
if (!site || !out || !/^\d+\.\d+\.\d+/.test(version ?? '')) throw new Error('usage: package.mjs <site> <out> <version>');
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const source = path.join(repo, 'web/package');

await rm(out, { recursive: true, force: true });
await mkdir(path.join(out, 'css'), { recursive: true });
for (const file of ['index.js', 'index.d.ts', 'README.md']) await cp(path.join(source, file), path.join(out, file));
await cp(path.join(repo, 'LICENSE'), path.join(out, 'LICENSE'));
const manifest = (await readFile(path.join(source, 'package.json'), 'utf8')).replace('@VERSION@', version);
await writeFile(path.join(out, 'package.json'), manifest);
for (const file of ['vramcalc.mjs', 'vramcalc.wasm', 'vramcalc-full.mjs', 'vramcalc-full.wasm', 'widget.js', 'css/widget.css']) {
  await cp(path.join(site, file), path.join(out, file));
}
for (const dir of ['js', 'i18n']) await cp(path.join(site, dir), path.join(out, dir), { recursive: true });
// importModel's reader (web/js/import/) with the Hub's libraries in one file, so that the package
// has no runtime dependencies: index.js loads it on the first import.
await build({
  entryPoints: [path.join(repo, 'web/js/import/import.js')],
  outfile: path.join(out, 'import.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  logLevel: 'warning',
  plugins: [importerLibraries],
});
console.log(`vramcalc: wrote the npm package in ${out}`);
