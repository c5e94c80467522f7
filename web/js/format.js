// Number formatting for the active language through cached Intl.NumberFormat instances.
// Intl rounds half away from zero on the exact binary value, as the estimation model's
// display rules ask (for the positive values shown here: toFixed's half-up).

const cache = new Map();

function formatter(lang, minimumFractionDigits, maximumFractionDigits) {
  const key = `${lang}|${minimumFractionDigits}|${maximumFractionDigits}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(lang, { minimumFractionDigits, maximumFractionDigits });
    cache.set(key, f);
  }
  return f;
}

/** Memory in GB with two decimals: 21.78 → "21,78 GB" (de). */
export const gb = (lang, gib) => `${formatter(lang, 2, 2).format(gib)} GB`;
/** A fixed number of decimals. */
export const fixed = (lang, value, decimals) => formatter(lang, decimals, decimals).format(value);
/** An integer with grouping: 61544 → "61.544" (de). */
export const integer = (lang, value) => formatter(lang, 0, 0).format(value);
/** A share with at most one decimal: 83 → "83", 8.8 → "8,8". */
export const share = (lang, value) => formatter(lang, 0, 1).format(value);
/** Billions of parameters: 32e9 → "32B", 9.4e9 → "9,4B". */
export const params = (lang, value) => `${formatter(lang, 0, 1).format(value / 1e9)}B`;
