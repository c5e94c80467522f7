// tests/golden/reference-page.json against tests/golden/reference-page.txt: the table the tests
// take their reference values from must say what the page says. Every string of the table
// occurs verbatim on the page; each table row is one line of the page, cell after cell; each
// label stands next to its value; everything is in the page's order; and every line of the
// page is made of the table's strings, so the table leaves nothing out. Editing a figure of the
// table (or of the page) fails here.
//
// Needs no build: `node --test tests/wasm/reference-table.test.mjs`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  REFERENCE_PAGE_FILE, cellsOf, grouped, isIdKey, isNoteKey, referencePageText as page, referenceTable as table,
} from '../support/reference-page.mjs';

const lines = page.split('\n');

/** Every [path, value] of the table's leaves, notes left out. */
function leaves(value, at = '') {
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).filter(([key]) => !isNoteKey(key))
      .flatMap(([key, item]) => leaves(item, at ? `${at}.${key}` : key));
  }
  return [[at, value]];
}
const keyOf = (at) => at.replace(/\[\d+\]$/, '').split('.').pop();

/** The index of the line equal to `text` at or after `from`, or -1. */
const lineIndex = (text, from = 0) => lines.findIndex((line, i) => i >= from && line === text);

/** Asserts each text is a whole line of the page, each after the one before; returns their indexes. */
function assertLinesInOrder(what, texts, from = 0) {
  const found = [];
  for (const text of texts) {
    const at = lineIndex(text, from);
    assert.ok(at >= 0, `${what}: ${JSON.stringify(text)} is not a line of the page after line ${from + 1}`);
    found.push(at);
    from = at + 1;
  }
  return found;
}

/** A label followed by its value: "label: value" on one line, or the label's line and then the value's. */
function assertLabelled(what, label, value, from) {
  const sameLine = lines.findIndex((line, i) => i >= from && line.includes(`${label}: ${value}`));
  const ownLines = lines.findIndex((line, i) => i >= from && line === label && lines[i + 1] === value);
  const candidates = [sameLine, ownLines].filter((i) => i >= 0);
  assert.ok(candidates.length > 0, `${what}: ${JSON.stringify(label)} is not followed by ${JSON.stringify(value)} ` +
    `(on its line after ": ", or on the next line) after line ${from + 1}`);
  return Math.min(...candidates);
}

const TOP_LEVEL = ['_source', 'scenario', 'title', 'summary', 'simulator', 'matrix', 'hardware', 'architecture',
  'explanations', 'commands', 'related'];

describe(`reference-page.json says what ${REFERENCE_PAGE_FILE} says`, () => {
  test('the table has every section, and a _source', () => {
    assert.deepEqual(Object.keys(table), TOP_LEVEL);
    assert.match(table._source, /reference-page\.txt/);
    assert.equal(table.matrix.rows.length, 8, 'matrix rows');
    assert.equal(table.hardware.rows.length, 8, 'hardware rows');
    assert.equal(Object.keys(table.architecture.fields).length, 10, 'architecture card fields');
  });

  test('every string of the table occurs verbatim on the page (ids aside)', () => {
    const missing = [];
    let checked = 0;
    for (const [at, value] of leaves(table)) {
      if (typeof value !== 'string' || isIdKey(keyOf(at))) continue;
      checked += 1;
      if (value.length === 0 || !page.includes(value)) missing.push(`${at}: ${JSON.stringify(value)}`);
    }
    assert.deepEqual(missing, [], `not on the page:\n${missing.join('\n')}`);
    assert.ok(checked > 150, `only ${checked} strings checked`);
  });

  test('values that are not strings are the scenario\'s numbers only', () => {
    const others = leaves(table).filter(([at, value]) => typeof value !== 'string')
      .map(([at, value]) => `${at}=${value}`);
    assert.deepEqual(others, ['scenario.context_tokens=32768', 'scenario.batch=1']);
  });

  test('the scenario\'s ids and numbers are the page\'s scenario', () => {
    const s = table.scenario;
    assert.equal(s.model_id, s.model.toLowerCase(), 'model id');
    assert.equal(s.format_id, s.format, 'format id');
    assert.equal(grouped(s.context_tokens), s.context, 'context');
    assert.ok(page.includes(`--max-model-len ${s.context_tokens} `), 'the vLLM command\'s context');
    assert.ok(page.includes(`(Batch = ${s.batch}, ${s.kv_cache}-KV-Cache)`),
      'batch and KV cache: the matrix caption\'s');
    assert.equal(s.kv_dtype_id, s.kv_cache.toLowerCase(), 'kv_dtype id');
    assert.equal(s.device_id, s.device.toLowerCase().replaceAll(' ', '-'), 'device id');
    assert.equal(table.commands.vllm.heading, `vLLM CLI (${s.device})`, 'the recommended device');
    assert.equal(table.hardware.rows[0].id, s.device_id, 'the hardware table starts with the scenario\'s device');
    assert.ok(table.title.startsWith(`${s.model} — `), 'the title names the model');
    assert.ok(table.hardware.heading.includes(`(${s.model} @ ${s.format}, 32K Kontext)`), 'the hardware heading');
  });

  test('title, headings, captions and paragraphs are whole lines, in the page\'s order', () => {
    const { simulator: sim, matrix, hardware, architecture, explanations, commands, related } = table;
    assertLinesInOrder('page order', [
      table.title, table.summary, sim.heading, sim.context_label, sim.breakdown_heading, sim.fit,
      sim.kv_saving.text, matrix.heading, matrix.caption, matrix.header.join(' '), hardware.heading,
      hardware.caption, hardware.header.join(' '), architecture.heading, explanations.bpw, explanations.attention,
      commands.heading, commands.vllm.heading, commands.ollama_modelfile.heading, related.heading,
    ]);
  });

  test('simulator: the shares on one line, each figure next to its label, in order', () => {
    const sim = table.simulator;
    const shares = Object.values(sim.shares).map(({ label, value }) => `${label}: ${value}`).join(' ');
    const sharesLine = lineIndex(shares, lineIndex(sim.fit));
    assert.equal(sharesLine, lineIndex(sim.fit) + 1, `the line after the fit is ${JSON.stringify(shares)}`);
    let from = sharesLine + 1;
    for (const [id, { label, value, unit }] of Object.entries(sim.figures)) {
      const at = assertLabelled(id, label, value, from);
      if (unit !== undefined) {
        assert.equal(lines[at + 2], unit, `${id}: the unit's line`);
      }
      from = at + 1;
    }
    assert.ok(lineIndex(sim.kv_saving.text) > from, 'the KV saving follows the figures');
    const { text, saving, naive_mha: naive } = sim.kv_saving;
    assert.ok(text.includes(` spart ${saving} `), `the sentence's saving is ${saving}`);
    assert.ok(text.includes(`(${naive})`), `the sentence's naive MHA cache is ${naive}`);
  });

  for (const section of ['matrix', 'hardware']) {
    test(`${section}: each row is one line of the page, cell after cell, in the page's order`, () => {
      const { header, rows } = table[section];
      const headerLine = lineIndex(header.join(' '));
      const keys = Object.keys(rows[0]).filter((key) => !isNoteKey(key) && !isIdKey(key));
      assert.equal(keys.length, header.length, 'one cell per column');
      const found = assertLinesInOrder(section, rows.map((row) => cellsOf(row).join(' ')), headerLine + 1);
      assert.deepEqual(found, rows.map((_, i) => headerLine + 1 + i), 'the rows follow the header, one a line');
      for (const row of rows) {
        assert.deepEqual(Object.keys(row).filter((key) => !isNoteKey(key) && !isIdKey(key)), keys, `${row.id}'s cells`);
      }
      const ids = rows.map((row) => row.id);
      assert.equal(new Set(ids).size, ids.length, 'row ids repeat');
    });
  }

  test('hardware: one fit id per rating, the simulator\'s too', () => {
    const byRating = new Map();
    for (const { rating, fit_id: fit } of table.hardware.rows) {
      assert.equal(byRating.get(rating) ?? fit, fit, `rating ${rating}`);
      byRating.set(rating, fit);
    }
    assert.equal(new Set(byRating.values()).size, byRating.size, 'two ratings share a fit id');
    assert.equal(byRating.get(table.simulator.fit), table.simulator.fit_id, 'the simulator\'s fit id');
  });

  test('architecture card: each label on its line, its value on the next, in order', () => {
    let from = lineIndex(table.architecture.heading) + 1;
    assert.ok(from > 0);
    for (const [id, { label, value }] of Object.entries(table.architecture.fields)) {
      const at = lineIndex(label, from);
      assert.ok(at >= 0, `${id}: ${JSON.stringify(label)} is not a line after line ${from + 1}`);
      assert.equal(lines[at + 1], value, `${id}: the value after ${JSON.stringify(label)}`);
      from = at + 2;
    }
  });

  test('explanations: the bpw paragraph\'s numbers, in order', () => {
    let from = 0;
    for (const number of table.explanations.bpw_numbers) {
      const at = table.explanations.bpw.indexOf(number, from);
      assert.ok(at >= 0, `${number} is not in the bpw paragraph after character ${from}`);
      from = at + number.length;
    }
  });

  test('commands: each block\'s lines follow its heading, and its shared fragments are in them, in order', () => {
    for (const [id, block] of Object.entries(table.commands)) {
      if (isNoteKey(id) || typeof block !== 'object') continue;
      const texts = block.heading === undefined ? block.lines : [block.heading, ...block.lines];
      const found = assertLinesInOrder(`commands.${id}`, texts);
      assert.deepEqual(found, texts.map((_, i) => found[0] + i), `commands.${id}: the lines follow one another`);
      const code = block.lines.join('\n');
      let from = 0;
      for (const fragment of block.shared) {
        const escaped = fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const match = new RegExp(`(?<=^|\\s)${escaped}(?=\\s|$)`, 'm').exec(code.slice(from));
        assert.ok(match, `commands.${id}: ${JSON.stringify(fragment)} is not a word group of the block after ${from}`);
        from += match.index + fragment.length;
      }
    }
  });

  test('every line of the page is made of the table\'s strings (nothing left out)', () => {
    const strings = leaves(table).filter(([at, value]) => typeof value === 'string' && !isIdKey(keyOf(at)))
      .map(([, value]) => value);
    const uncovered = [];
    lines.forEach((line, i) => {
      const covered = new Array(line.length).fill(false);
      for (const text of strings) {
        for (let at = line.indexOf(text); at >= 0; at = line.indexOf(text, at + 1)) {
          covered.fill(true, at, at + text.length);
        }
      }
      const rest = line.split('').map((c, j) => (covered[j] || c === ' ' || c === ':' ? ' ' : c)).join('').trim();
      if (rest) uncovered.push(`line ${i + 1}: ${JSON.stringify(rest)} of ${JSON.stringify(line)}`);
    });
    assert.deepEqual(uncovered, [], `text of the page missing from the table:\n${uncovered.join('\n')}`);
  });
});
