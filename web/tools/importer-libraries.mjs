// An esbuild plugin for the bundles that hold the importer (web/js/import/: the page's chunk of
// its own, loaded on the first import, and the single file): @huggingface/hub and
// @huggingface/gguf in their browser builds, which their package.json's "browser" field names
// but their "exports" hide from esbuild, and the Node built-ins those builds still name (for
// reading a path on the disk, allowLocalFile, never on a page) as empty modules.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const importerLibraries = {
  name: 'importer-libraries',
  setup(build) {
    build.onResolve({ filter: /^@huggingface\/(hub|gguf)$/ }, (args) => ({
      path: path.join(repo, 'node_modules', args.path, 'dist/browser/index.mjs'),
    }));
    build.onResolve({ filter: /^(node:)?(fs|fs\/promises|stream|path|os|crypto|url|util|readline|child_process)$/ },
      (args) => ({ path: args.path, namespace: 'node-builtin' }));
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};
