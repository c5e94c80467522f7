// A time as the page shows it (core display.h FormatSeconds, which the CLI prints): two
// decimals below 10 s, one below 2 minutes, else minutes and seconds; "—" for 0 (no estimate).
// Imported by what comes after the first numbers only (serving, the fits view), not format.js.
import * as fmt from './format.js';

export function duration(lang, seconds) {
  if (!(seconds > 0)) return '—';
  if (seconds < 10) return `${fmt.fixed(lang, seconds, 2)} s`;
  if (seconds < 120) return `${fmt.fixed(lang, seconds, 1)} s`;
  return `${fmt.integer(lang, Math.floor(seconds / 60))} min ${fmt.integer(lang, Math.round(seconds % 60))} s`;
}
