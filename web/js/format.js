// Number formatting for the active language through cached Intl.NumberFormat instances.
// Intl rounds half away from zero on the exact binary value, as the estimation model's
// display rules ask (for the positive values shown here: toFixed's half-up).

const cache = new Map();

function formatter(lang, minimumFractionDigits, maximumFractionDigits, useGrouping = true) {
  const key = `${lang}|${minimumFractionDigits}|${maximumFractionDigits}|${useGrouping}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(lang, { minimumFractionDigits, maximumFractionDigits, useGrouping });
    cache.set(key, f);
  }
  return f;
}

/**
 * Builds the page's number formats for `lang` ahead of time. The first Intl.NumberFormat of a
 * language loads its locale data (tens of milliseconds); the page does this while the wasm
 * module downloads and compiles, not in its first render.
 */
export function prepare(lang) {
  for (const [min, max, grouping] of [[2, 2, true], [0, 0, true], [0, 1, true], [0, 1, false], [1, 1, true]]) {
    formatter(lang, min, max, grouping).format(1234.5);
  }
}

/** Memory in GB with two decimals: 21.78 → "21,78 GB" (de). */
export const gb = (lang, gib) => `${formatter(lang, 2, 2).format(gib)} GB`;
/** A fixed number of decimals. */
export const fixed = (lang, value, decimals) => formatter(lang, decimals, decimals).format(value);
/** An integer with grouping: 61544 → "61.544" (de). */
export const integer = (lang, value) => formatter(lang, 0, 0).format(value);
/** As the reference page writes bandwidths: no grouping, at most one decimal (1008). */
export const plain = (lang, value) => formatter(lang, 0, 1, false).format(value);
/** A share with at most one decimal: 83 → "83", 8.8 → "8,8". */
export const share = (lang, value) => formatter(lang, 0, 1).format(value);
/** Billions of parameters: 32e9 → "32B", 9.4e9 → "9,4B". */
export const params = (lang, value) => `${formatter(lang, 0, 1).format(value / 1e9)}B`;

/** The decode rate as shown: none where the model does not fit (it does not run at all). */
export const decodeRate = (t, lang, fit, tokensPerSecond) =>
  (fit === 'no_fit' ? t('out.decode_no_fit') : `${fixed(lang, tokensPerSecond, 1)} ${t('unit.tps')}`);

/** A token count as a short binary label: 512 → "512", 32768 → "32K", 1048576 → "1M". */
export function contextLabel(tokens) {
  if (tokens >= 1048576 && tokens % 1048576 === 0) return `${tokens / 1048576}M`;
  if (tokens >= 1024 && tokens % 1024 === 0) return `${tokens / 1024}K`;
  return String(tokens);
}

/** Keeps a number and its unit on one line: "95,8 %" → "95,8\u00a0%". */
export const keepUnits = (text) => text.replace(/(\d) (%|GB|tok\/s|Tokens|tokens)/g, '$1\u00a0$2');
