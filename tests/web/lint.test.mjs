// No HTML is ever built from strings in web/: every text goes through textContent or
// attributes, so nothing from a link, a pasted config.json or the catalog can become markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const FORBIDDEN = /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser)\b|\beval\s*\(|new\s+Function\s*\(/;

async function* scripts(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* scripts(file);
    else if (/\.(m?js|html)$/.test(entry.name)) yield file;
  }
}

test('web/ builds no HTML from strings and evaluates no code', async () => {
  const findings = [];
  let files = 0;
  for await (const file of scripts(webDir)) {
    files += 1;
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.forEach((line, i) => {
      if (FORBIDDEN.test(line)) findings.push(`${path.relative(webDir, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.ok(files >= 15, `only ${files} files scanned`);
  assert.deepEqual(findings, [], `forbidden HTML/code construction:\n${findings.join('\n')}`);
});
