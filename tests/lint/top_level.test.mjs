// The repository's top level is fixed: CMakeLists.txt, core/, wasm/, web/, assets/, tests/ and
// emsdk-version.txt, beside the README, the LICENSE, the package files, .ci/ and dotfiles. A file
// committed anywhere else at the root (a screenshot script, a build output) fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ALLOWED = new Set([
  'CMakeLists.txt', 'core', 'wasm', 'web', 'assets', 'tests', 'emsdk-version.txt',
  'README.md', 'LICENSE', 'package.json', 'package-lock.json',
]);

/** The tracked files, or null outside a git checkout (a source tarball). */
function trackedFiles() {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

test('every tracked file sits in the fixed top level', (t) => {
  const files = trackedFiles();
  if (files === null) {
    t.skip('not a git checkout');
    return;
  }
  const top = [...new Set(files.map((file) => file.split('/')[0]))];
  assert.ok(top.includes('core') && top.includes('web'), top.join());
  assert.deepEqual(top.filter((name) => !ALLOWED.has(name) && !name.startsWith('.')), []);
});
