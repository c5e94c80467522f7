// Shrinks what a first visit downloads before the first numbers (the benchmark's budget):
// <site>/app.js is the page's modules and the core's glue (vramcalc.mjs) in one minified
// file, so the browser no longer walks a tree of 20 module requests before it can ask for the
// wasm (what the page loads later, such as the fits view, is a chunk-*.js beside it);
// index.html loads it and the chunks it imports at once, runs boot.js inline (which starts
// the module's compile and the strings' download) and holds css/app.css inline. The other
// stylesheets and the glue files (which the widget imports) are minified in place. The unbundled js/ modules stay for the widget and the
// embed.
// Usage: node web/tools/bundle.mjs build-wasm/site
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { importerLibraries } from './importer-libraries.mjs';

const site = path.resolve(process.argv[2] ?? 'build-wasm/site');
const file = (name) => path.join(site, name);

// A rebuild's chunks have other names: the old ones go first.
for (const old of (await readdir(site)).filter((f) => /^chunk-.*\.js$/.test(f))) await rm(file(old));
const { metafile } = await build({
  entryPoints: { app: file('js/main.js') },
  outdir: site,  // app.js beside vramcalc.wasm: the core's loader finds it from import.meta.url
  // What the page imports only when it shows it (the fits view) is a chunk of its own, loaded
  // after the first numbers.
  splitting: true,
  chunkNames: 'chunk-[hash]',
  metafile: true,
  bundle: true,
  format: 'esm',
  minify: true,
  logLevel: 'warning',
  plugins: [importerLibraries],
});

// boot.js is a classic script (no format: esbuild keeps it one).
for (const [name, loader, format] of [['vramcalc.mjs', 'js', 'esm'], ['vramcalc-full.mjs', 'js', 'esm'], ['boot.js', 'js'],
  ...(await readdir(file('css'))).filter((f) => f.endsWith('.css')).map((f) => [`css/${f}`, 'css'])]) {
  const { code } = await transform(await readFile(file(name), 'utf8'), { loader, minify: true, format });
  await writeFile(file(name), code);
}

// The page's source without what only its readers need: comments, and the indentation before a
// tag (index.html has no <pre>, and its one <textarea> is empty): fewer bytes before the first
// numbers, the same document.
let html = (await readFile(file('index.html'), 'utf8')).replace(/[ \t]*<!--[\s\S]*?-->\n?/g, '').replace(/\n[ \t]+</g, '\n<');
if (/<pre[\s>]|<textarea[^>]*>[^<]/.test(html)) throw new Error('bundle: index.html has preformatted text, which keeps its indentation');
const tag = '<script type="module" src="js/main.js" async></script>';
if (!html.includes(tag)) throw new Error(`bundle: index.html has no ${tag}`);
// boot.js inline where index.html loads it, allowed by its hash: it starts the module's compile
// and the strings' download while the HTML parses, instead of once it has downloaded and the
// skeleton's first style and layout are done (in traces 100-300 ms after the other requests).
// Its fetch of vramcalc.wasm is then the first, so the page preloads nothing else for it.
const bootTag = '<script src="boot.js" async></script>';
const policy = "script-src 'self' 'wasm-unsafe-eval'";
if (!html.includes(bootTag) || !html.includes(policy)) throw new Error(`bundle: index.html has no ${bootTag} or ${policy}`);
const boot = (await readFile(file('boot.js'), 'utf8')).trim();
if (boot.includes('</')) throw new Error('bundle: boot.js cannot be inlined (it holds "</")');
html = html.replace(bootTag, () => `<script>${boot}</script>`)
  .replace(policy, `${policy} 'sha256-${createHash('sha256').update(boot).digest('base64')}'`);
await rm(file('boot.js'));
// css/app.css inline as well, allowed by its hash: the skeleton can be styled, laid out and
// painted as soon as the HTML is parsed, while the module and the wasm are still on their way,
// instead of after one more response (20 interleaved cold loads: the first numbers' median
// 205 -> 178 ms). Its data-later names the stylesheet the page links after the first numbers.
const cssTag = '<link rel="stylesheet" href="css/app.css" data-later="css/later.css">';
const stylePolicy = "style-src 'self'";
const css = (await readFile(file('css/app.css'), 'utf8')).trim();
if (!html.includes(cssTag) || !html.includes(stylePolicy)) throw new Error(`bundle: index.html has no ${cssTag} or ${stylePolicy}`);
if (css.includes('</')) throw new Error('bundle: css/app.css cannot be inlined (it holds "</")');
html = html.replace(cssTag, () => `<style data-later="css/later.css">${css}</style>`)
  .replace(stylePolicy, `${stylePolicy} 'sha256-${createHash('sha256').update(css).digest('base64')}'`);
await rm(file('css/app.css'));
// The chunks app.js imports at once (code it shares with a later chunk) load beside it, preloaded
// from the head; app.js itself stays where index.html has its entry, an async module at the end
// of the body (web/README.md: it runs once the body is parsed, outside the parser's last task).
const app = Object.entries(metafile.outputs).find(([out]) => path.basename(out) === 'app.js')[1];
const startup = app.imports.filter((i) => i.kind === 'import-statement').map((i) => path.basename(i.path));
const preloads = startup.map((name) => `  <link rel="modulepreload" href="${name}">\n`).join('');
html = html.replace(tag, () => '<script type="module" src="app.js" async></script>').replace('</head>', () => `${preloads}</head>`);
await writeFile(file('index.html'), html);
// The importer's modules live in their chunk only: unbundled, their libraries are bare imports
// a browser cannot resolve, and the widget and the embed, which keep js/, do not import.
await rm(file('js/import'), { recursive: true });
// What runs before the first numbers carries V8's explicit compile hint (Chromium 136 and
// later; other engines read a comment): every function in the file is compiled while it
// streams in, off the main thread, instead of on its first call. In traces of cold loads the
// main thread's compiling before the first numbers went from 5.8-24 ms to 0.3-0.5; in three
// runs of 20-25 interleaved cold loads the numbers were painted 12-28 ms sooner (their mark
// moved within the noise); +80 B gzip.
for (const name of ['app.js', ...startup]) {
  await writeFile(file(name), `//# allFunctionsCalledOnLoad\n${await readFile(file(name), 'utf8')}`);
}
console.log(`vramcalc: wrote ${path.join(site, 'app.js')}`);
