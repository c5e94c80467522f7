// The npm package as a documentation site gets it: `npm pack build-wasm/package`, installed
// from the tarball into a fresh project with no network, with a page that uses both the API and
// the widget from node_modules. tests/web/package.test.mjs checks it under Node and in
// Chromium; tests/web/engines.test.mjs opens the same page in Firefox and WebKit.
import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './harness.mjs';

export const packageDir = path.resolve(repoRoot, process.env.VRAMCALC_PACKAGE_DIR ?? 'build-wasm/package');

const npm = (args, cwd) => execFileSync('npm', args, {
  cwd, encoding: 'utf8',
  env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
});

// The page: evaluate() from the package's API puts the total in body[data-total]; the widget
// shows its own.
const DEMO_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<link rel="icon" href="data:,">
<script type="module">
  import { evaluate } from './node_modules/vramcalc/index.js';
  const answer = await evaluate({ model: 'glm-4-32b-0414' });
  document.body.dataset.total = answer.simulator.total_gib.toFixed(2);
</script>
<script type="module" src="./node_modules/vramcalc/widget.js"></script>
</head><body><vram-calculator id="w" model="glm-4-32b-0414" lang="en"></vram-calculator></body></html>`;

/** A fresh project (a temporary folder the caller removes) with the package installed and index.html. */
export async function installedProject() {
  const project = await mkdtemp(path.join(tmpdir(), 'vramcalc-package-'));
  const tarball = npm(['pack', packageDir, '--pack-destination', project, '--silent'], project).trim().split('\n').pop();
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'docs-site', private: true, type: 'module' }));
  npm(['install', '--offline', '--no-package-lock', path.join(project, tarball)], project);
  await writeFile(path.join(project, 'index.html'), DEMO_PAGE);
  return project;
}
