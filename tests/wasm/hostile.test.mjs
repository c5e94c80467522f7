// The hostile-input table (tests/support/hostile-inputs.mjs) through two of its four entry
// points: the native CLI and the wasm module under Node. (The URL hash and the page's form
// fields: tests/web/hostile.test.mjs.) Every case must answer ok:false with error.field and
// the message naming the field, exit 1 (never a signal), and leave the module answering.
//
// Needs build/core/vramcalc and build-wasm/site/vramcalc{,-full}.{mjs,wasm} (VRAMCALC_CLI and
// VRAMCALC_SITE_DIR override them).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  BASE_CONFIG, CASES, EXTRA_CASES, FIELDS, VALUES, configBytes, expectedField, fieldMatches, forbiddenWordIn, requestBytes,
} from '../support/hostile-inputs.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(repoRoot, process.env.VRAMCALC_SITE_DIR ?? 'build-wasm/site');
const cliPath = path.resolve(repoRoot, process.env.VRAMCALC_CLI ?? 'build/core/vramcalc');
const GOOD_REQUEST = '{"model":"glm-4-32b-0414"}';

// The words a message uses for a field besides its key (lang is a flag, not a request key).
const FIELD_WORDS = { kv_dtype: ['kv_dtype', 'KV cache type'], lang: ['--lang'] };

/** Fails unless `message` names the field (its key, or "model.<key>" for a config key). */
function assertNamesField(message, field, where) {
  const words = FIELD_WORDS[field.id] ?? [field.config ?? field.request];
  assert.ok(words.some((word) => message.includes(word)), `${where}: the message does not name ${words[0]}: ${message}`);
}

/** Checks an error response (parsed JSON): error.field is `fieldName` or `fieldName(actual)` holds. */
function assertError(response, fieldName, where, echoes = []) {
  assert.equal(response.ok, false, `${where}: expected ok:false, got ${JSON.stringify(response).slice(0, 200)}`);
  assert.equal(response.schema, 3, `${where}: schema`);
  const { error } = response;
  assert.equal(typeof error?.code, 'string', `${where}: error.code`);
  assert.equal(typeof error.message, 'string', `${where}: error.message`);
  assert.ok(error.message.length > 10 && error.message.length < 1000,
    `${where}: a message of ${error.message.length} characters: ${error.message.slice(0, 200)}`);
  if (typeof fieldName === 'function') {
    assert.ok(fieldName(error.field), `${where}: error.field ${JSON.stringify(error.field)} (message: ${error.message})`);
  } else {
    assert.equal(error.field, fieldName, `${where}: error.field (message: ${error.message})`);
  }
  const word = forbiddenWordIn(error.message, echoes);  // quoting what was sent back is fine
  assert.equal(word, null, `${where}: the message shows "${word}": ${error.message}`);
}

/** Runs the CLI; it must exit with `status` by itself (no signal, no timeout). */
function run(args, input, status = 1) {
  const result = spawnSync(cliPath, args, { input, maxBuffer: 64 << 20, timeout: 10_000 });
  assert.equal(result.error, undefined, `vramcalc ${args[0]}: ${result.error?.message}`);
  assert.equal(result.signal, null, `vramcalc ${args.join(' ').slice(0, 80)} was killed by ${result.signal}`);
  assert.equal(result.status, status, `vramcalc ${args.join(' ').slice(0, 80)} exited ${result.status}: ${
    result.stderr.toString().slice(0, 300)}`);
  return { stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
}

const requestCases = () => CASES.filter(({ field }) => field.request || field.config);

describe('hostile inputs: the CLI', () => {
  let dir;
  before(async () => { dir = await mkdtemp(path.join(tmpdir(), 'vramcalc-hostile-')); });
  after(async () => rm(dir, { recursive: true, force: true }));

  test('`vramcalc evaluate --lines`: every case of the table, one per line', () => {
    const cases = requestCases();
    const input = Buffer.concat(cases.flatMap(({ field, value }) => [requestBytes(field, value), Buffer.from('\n')]));
    const lines = run(['evaluate', '--lines'], input).stdout.split('\n');
    assert.equal(lines.length, cases.length + 1, 'one answer per request line');
    for (const [i, { name, field }] of cases.entries()) {
      const response = JSON.parse(lines[i]);
      assertError(response, (actual) => fieldMatches(field, actual), name);
      assertNamesField(response.error.message, field, name);
    }
  });

  test('`vramcalc evaluate -`: every value of the table on stdin, one process each', () => {
    for (const field of FIELDS.filter((f) => f.id === 'context' || f.id === 'model_type')) {
      for (const value of VALUES) {
        const name = `${field.id} = ${value.id}`;
        const response = JSON.parse(run(['evaluate', '-'], requestBytes(field, value)).stdout);
        assertError(response, expectedField(field), name);
        assertNamesField(response.error.message, field, name);
      }
    }
  });

  test('`vramcalc evaluate -`: unknown keys, whole requests, accepted values', () => {
    for (const extra of EXTRA_CASES.filter((c) => c.request)) {
      const { stdout } = run(['evaluate', '-'], extra.request, extra.accepted ? 0 : 1);
      const response = JSON.parse(stdout);
      if (extra.accepted) assert.equal(response.ok, true, `${extra.id} is accepted (${extra.why})`);
      else assertError(response, extra.field, extra.id);
    }
  });

  test('`vramcalc evaluate --config FILE` and `page --config FILE`: every config.json case', async () => {
    const file = path.join(dir, 'config.json');
    for (const { name, field, value } of CASES.filter((c) => c.field.config)) {
      await writeFile(file, configBytes(field, value));
      const { stdout } = run(['evaluate', '--config', file, '{"context":8192}']);
      const response = JSON.parse(stdout);
      assertError(response, expectedField(field), `--config, ${name}`);
      assertNamesField(response.error.message, field, `--config, ${name}`);
      if (['NaN', 'invalid UTF-8', '10,000 nested arrays', 'zero'].includes(value.id)) {
        // `page` reads the file the same way; a few values suffice to show it reports them.
        const page = run(['page', '--config', file, '--lang', 'en']);
        assert.equal(page.stdout, '', `page --config, ${name}: no page on stdout`);
        assertNamesField(page.stderr, field, `page --config, ${name}`);
      }
    }
    // A config.json may carry fields the estimate does not use.
    await writeFile(file, JSON.stringify({ ...BASE_CONFIG, my_own_flag: [1, { deep: true }] }));
    assert.equal(JSON.parse(run(['evaluate', '--config', file], undefined, 0).stdout).ok, true);
  });

  test('`vramcalc evaluate --config FILE`: a deeply nested or oversized file, and a broken request beside it', async () => {
    const file = path.join(dir, 'config.json');
    await writeFile(file, '['.repeat(100_000) + ']'.repeat(100_000));  // crashed the CLI (SIGSEGV)
    assertError(JSON.parse(run(['evaluate', '--config', file]).stdout), 'model', '100,000-deep config.json');
    await writeFile(file, JSON.stringify({ ...BASE_CONFIG, _name_or_path: 'x'.repeat(2_000_000) }));
    assertError(JSON.parse(run(['evaluate', '--config', file]).stdout), 'model', '2 MB config.json');
    await writeFile(file, JSON.stringify(BASE_CONFIG));
    assertError(JSON.parse(run(['evaluate', '--config', file, '{"context":NaN}']).stdout), 'context',
      'NaN beside a good config.json');
    assertError(JSON.parse(run(['evaluate', '--config', file, '['.repeat(50_000)]).stdout), '',
      '50,000 open brackets beside a good config.json');
  });

  test('`vramcalc page --flag VALUE`: every value a command line can carry', () => {
    // argv holds no invalid UTF-8 and no argument over 128 KiB (Linux's MAX_ARG_STRLEN).
    const values = VALUES.filter((v) => typeof v.hash === 'string' && !v.hash.includes('%') && v.hash.length < 100_000);
    for (const field of FIELDS.filter((f) => f.flag)) {
      for (const value of values) {
        const args = ['page', ...(field.flag === '--model' ? [] : ['--model', 'glm-4-32b-0414']), field.flag, value.hash];
        const { stdout, stderr } = run(args);
        const where = `page ${field.flag} ${value.id}`;
        assert.equal(stdout, '', `${where}: no page on stdout`);
        assertNamesField(stderr, field, where);
        assert.ok(stderr.length < 1000, `${where}: ${stderr.length} characters on stderr`);
      }
    }
  });
});

// vramcalc-full.wasm: the module with the config.json importer, so every config case reaches
// it (core.test.mjs checks that vramcalc.wasm answers the same without a config.json).
describe('hostile inputs: the wasm module', () => {
  let vramcalc;
  let good;
  before(async () => {
    const { default: createVramcalc } = await import(pathToFileURL(path.join(siteDir, 'vramcalc-full.mjs')).href);
    vramcalc = await createVramcalc({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc-full.wasm')) });
    good = vramcalc.evaluateJson(GOOD_REQUEST);
    assert.equal(good.ok, true);
  });

  /** After every hostile request the module answers a good one exactly as before. */
  const assertStillWorks = (where) => assert.deepStrictEqual(vramcalc.evaluateJson(GOOD_REQUEST), good, `after ${where}`);

  test('evaluateJson(request text): every case of the table, as raw bytes', () => {
    for (const { name, field, value } of requestCases()) {
      const response = vramcalc.evaluateJson(new Uint8Array(requestBytes(field, value)));
      assertError(response, (actual) => fieldMatches(field, actual), name);
      assertNamesField(response.error.message, field, name);
      assertStillWorks(name);
    }
  });

  test('evaluate(request): every case as the page sends it, an object, answered as its JSON text', () => {
    // V8's JSON.stringify cannot write 10,000 nested arrays (RangeError): no page sends them.
    for (const { name, field, value } of requestCases().filter((c) => !c.value.id.includes('nested'))) {
      const js = 'js' in value ? value.js : JSON.parse(value.json);
      const request = field.config
        ? { model: { ...BASE_CONFIG, [field.config]: js } }
        : { model: 'glm-4-32b-0414', [field.request]: js };
      const response = vramcalc.evaluate(request);
      assert.deepStrictEqual(response, vramcalc.evaluateJson(JSON.stringify(request)), `${name}: the object and its text`);
      if (field.nullable && JSON.stringify(js) === 'null') {
        assert.equal(response.ok, true, `${name}: ${field.id}: null is accepted as "not given"`);
        continue;
      }
      assertError(response, (actual) => fieldMatches(field, actual), `${name} (object)`,
        typeof js === 'string' ? [`"${js}"`] : []);
      assertNamesField(response.error.message, field, `${name} (object)`);
      assertStillWorks(name);
    }
  });

  test('evaluate(request): every request case, read by vramcalc.wasm as the full module reads it', async () => {
    // The first module reads no JSON: the object itself (wasm/val_value.h), answered as the full
    // module answers its JSON text.
    const { default: createVramcalc } = await import(pathToFileURL(path.join(siteDir, 'vramcalc.mjs')).href);
    const light = await createVramcalc({ wasmBinary: await readFile(path.join(siteDir, 'vramcalc.wasm')) });
    let answered = 0;
    for (const { name, field, value } of requestCases().filter((c) => c.field.request && !c.value.id.includes('nested'))) {
      const js = 'js' in value ? value.js : JSON.parse(value.json);
      const request = { model: 'glm-4-32b-0414', [field.request]: js, sections: ['simulator'] };
      if (field.request === 'model') request.model = js;
      const answer = light.evaluate(request);
      if (field.request === 'model' && typeof js === 'object' && js !== null && !Array.isArray(js)) {
        assert.equal(answer.error.code, 'config_import_unavailable', name);  // a config.json: the full module's
        continue;
      }
      assert.deepStrictEqual(answer, vramcalc.evaluateJson(JSON.stringify(request)), name);
      answered += 1;
    }
    assert.ok(answered >= 150, `${answered} cases answered`);
  });

  test('unknown keys, whole requests, accepted values', () => {
    for (const extra of EXTRA_CASES.filter((c) => c.request)) {
      const response = vramcalc.evaluateJson(extra.request);
      if (extra.accepted) assert.equal(response.ok, true, `${extra.id} is accepted (${extra.why})`);
      else assertError(response, extra.field, extra.id);
      assertStillWorks(extra.id);
    }
    const config = vramcalc.evaluate({ model: { ...BASE_CONFIG, my_own_flag: [1, { deep: true }] } });
    assert.equal(config.ok, true, 'an unknown config.json key is ignored');
  });
});
