// Number formatting for the page's two languages. Each language's separators are fixed
// (de: 1.234,5; en: 1,234.5), so the digits come from toFixed, which rounds half-up on the exact
// binary value as the estimation model's display rule says and the core's FormatFixed does
// (Intl.NumberFormat rounds a Number's shortest decimal: 21.775 → 21,78, toFixed 21,77).
// tests/web/format.test.mjs checks every format against Intl given the exact decimal. No
// Intl.NumberFormat here: its first instance loads the locale's data, tens of milliseconds on the
// main thread before the first numbers, and each call costs more than toFixed.

// [grouping, decimal] separators, as Intl.NumberFormat writes them for each language.
const SEPARATORS = { de: ['.', ','], en: [',', '.'] };
const LARGEST_FIXED = 1e21;  // from here toFixed writes an exponent (and there is no fraction)

/**
 * `value` in `lang` with min to max fraction digits (toFixed's digits at max, trailing zeros
 * dropped down to min), the whole part grouped by thousands when `useGrouping`.
 */
function format(lang, minimumFractionDigits, maximumFractionDigits, useGrouping, value) {
  if (Number.isNaN(value)) return 'NaN';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const magnitude = Math.abs(value);
  if (magnitude === Infinity) return `${sign}∞`;
  let [whole, fraction = ''] = magnitude < LARGEST_FIXED ? magnitude.toFixed(maximumFractionDigits).split('.')
    : [BigInt(magnitude).toString(), '0'.repeat(maximumFractionDigits)];
  let kept = fraction.length;
  while (kept > minimumFractionDigits && fraction[kept - 1] === '0') kept -= 1;
  fraction = fraction.slice(0, kept);
  const [group, point] = SEPARATORS[lang] ?? SEPARATORS.en;
  if (useGrouping) whole = whole.replace(/\B(?=(\d{3})+$)/g, group);
  return sign + whole + (fraction ? point + fraction : '');
}

/** Memory in GB with two decimals: 21.78 → "21,78 GB" (de). */
export const gb = (lang, gib) => `${format(lang, 2, 2, true, gib)} GB`;
/** A fixed number of decimals. */
export const fixed = (lang, value, decimals) => format(lang, decimals, decimals, true, value);
/** An integer with grouping: 61544 → "61.544" (de). */
export const integer = (lang, value) => format(lang, 0, 0, true, value);
/** As the reference page writes bandwidths: no grouping, at most one decimal (1008). */
export const plain = (lang, value) => format(lang, 0, 1, false, value);
/** A share with at most one decimal: 83 → "83", 8.8 → "8,8". */
export const share = (lang, value) => format(lang, 0, 1, true, value);
/** Billions of parameters: 32e9 → "32B", 9.4e9 → "9,4B". */
export const params = (lang, value) => `${format(lang, 0, 1, true, value / 1e9)}B`;

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

/** A kind of device in words, as the decode error's line and table name it: "CUDA · datacenter GPUs". */
export const devicesOfKind = (t, platform, unified, kind) => `${t(`platform.${platform}`)} · ${t(unified ? 'class.unified' : `class.${kind}`)}`;

/** A quantization format's label (the catalog's), else its id. */
export const quantLabel = (catalog, id) => catalog.formats.find((f) => f.id === id)?.label ?? id;
