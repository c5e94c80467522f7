// The page's number formats (web/js/format.js) write what Intl.NumberFormat writes for German and
// English, which they no longer call (its locale data cost the first numbers tens of
// milliseconds): the same separators, grouping and trailing zeros, rounded half-up on the exact
// binary value as the estimation model's display rule says (design: "as JavaScript toFixed";
// 1.005 is 1.00499999999999989... and rounds down, 0.125 is exact and rounds up). Intl rounds a
// Number's shortest decimal instead (1.005 → 1.01), so the reference here is Intl given the
// value's exact decimal expansion, worked out with BigInt. Runs under Node (full ICU).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fmt from '../../web/js/format.js';

/** The exact decimal expansion of a finite double: mantissa × 2^exponent, written out in full. */
function exactDecimal(value) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? '-' : '';
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  if (exponent >= 0) return sign + (mantissa << BigInt(exponent)).toString();
  // mantissa / 2^k = mantissa × 5^k / 10^k
  const k = -exponent;
  const digits = (mantissa * 5n ** BigInt(k)).toString().padStart(k + 1, '0');
  return `${sign}${digits.slice(0, -k)}.${digits.slice(-k)}`;
}

const intl = (lang, min, max, useGrouping = true) => (value) => {
  const format = new Intl.NumberFormat(lang, { minimumFractionDigits: min, maximumFractionDigits: max, useGrouping });
  return format.format(Number.isFinite(value) ? exactDecimal(value) : value);
};

// Halves, near-halves, grouping boundaries, zeros and the figures of the reference page.
const EDGES = [0, -0, 0.5, 1.5, 2.5, 0.125, 0.375, 1.005, 2.675, 1.045, 8.345, 21.775, 21.785, 999.995,
  999.5, 1000, 1234.5, 9999.95, 61544, 131072, 1048576, 123456789.125, 0.001, 0.049, 0.05, 0.95, 99.95,
  -0.001, -1.5, -1234.5, -21.785, 1e20, 2 ** 53, 2 ** 53 + 2, 4.35, 20.05, 95.8, 83.0000001];

function values() {
  const list = [...EDGES];
  let seed = 15;
  const random = () => {  // a fixed sequence (xorshift), so a failure repeats
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  for (let i = 0; i < 4000; i += 1) {
    const scale = 10 ** Math.floor(random() * 8 - 2);
    const value = random() * scale;
    list.push(value, Math.round(value * 1000) / 1000, Math.round(value * 100) / 100 + 0.005);
  }
  return list;
}

const FORMATS = [
  ['gb', (lang, v) => fmt.gb(lang, v), (lang) => (v) => `${intl(lang, 2, 2)(v)} GB`],
  ['fixed 1', (lang, v) => fmt.fixed(lang, v, 1), (lang) => intl(lang, 1, 1)],
  ['fixed 3', (lang, v) => fmt.fixed(lang, v, 3), (lang) => intl(lang, 3, 3)],
  ['integer', (lang, v) => fmt.integer(lang, v), (lang) => intl(lang, 0, 0)],
  ['plain', (lang, v) => fmt.plain(lang, v), (lang) => intl(lang, 0, 1, false)],
  ['share', (lang, v) => fmt.share(lang, v), (lang) => intl(lang, 0, 1)],
  ['params', (lang, v) => fmt.params(lang, v * 1e9), (lang) => (v) => `${intl(lang, 0, 1)(v * 1e9 / 1e9)}B`],
];

for (const lang of ['de', 'en']) {
  test(`${lang}: every format writes what Intl.NumberFormat writes`, () => {
    const list = values();
    for (const [name, ours, theirs] of FORMATS) {
      const reference = theirs(lang);
      const wrong = list.filter((v) => ours(lang, v) !== reference(v))
        .map((v) => `${v}: ${ours(lang, v)} (Intl: ${reference(v)})`);
      assert.deepEqual(wrong.slice(0, 5), [], `${name}: ${wrong.length} of ${list.length} differ`);
    }
  });
}

test('the reference page\'s figures as it writes them (German)', () => {
  // reference/glm-4-32b-0414.txt: "21,78 GB" total, "61.544" tokens, "1008" GB/s.
  assert.equal(fmt.gb('de', 21.7816), '21,78 GB');
  assert.equal(fmt.integer('de', 61544), '61.544');
  assert.equal(fmt.plain('de', 1008), '1008');
  assert.equal(fmt.share('de', 8.8), '8,8');
  assert.equal(fmt.share('en', 83), '83');
  assert.equal(fmt.params('en', 32e9), '32B');
});

test('not-finite values and numbers beyond toFixed\'s range', () => {
  for (const lang of ['de', 'en']) {
    for (const v of [NaN, Infinity, -Infinity, 1e21, 1.5e25, -3e22]) {
      assert.equal(fmt.fixed(lang, v, 1), intl(lang, 1, 1)(v), `${lang} ${v}`);
    }
  }
});
