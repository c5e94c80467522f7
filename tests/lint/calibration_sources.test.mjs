// tests/calibration/README.md lists every source the calibration sets use: each link in a row's
// `source` of every JSON file there must appear in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const DIR = new URL('../calibration/', import.meta.url);
const README = readFileSync(new URL('README.md', DIR), 'utf8');

/** Every `source` string below `value`, the files' left-out lists aside. */
function sources(value, out = []) {
  if (Array.isArray(value)) value.forEach((v) => sources(v, out));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'left_out') continue;
      if (key === 'source' && typeof v === 'string') out.push(v);
      else sources(v, out);
    }
  }
  return out;
}

test('the README lists every link of every calibration set', () => {
  const files = readdirSync(DIR).filter((name) => name.endsWith('.json'));
  assert.ok(files.includes('offload.json') && files.includes('decode.json'));
  for (const file of files) {
    const named = sources(JSON.parse(readFileSync(new URL(file, DIR), 'utf8')));
    assert.ok(named.length > 0, `${file} names no source`);
    const links = named
      .flatMap((text) => text.match(/https?:\/\/[^\s,;)\]"']+/g) ?? [])
      .map((url) => url.replace(/\.$/, ''));
    for (const url of links) assert.ok(README.includes(`<${url}>`), `${file}: ${url} is not in tests/calibration/README.md`);
  }
});
