// A table as Markdown and as CSV, each after a line naming the scenario and the page's link:
// what the fits view, the quantization matrix and the hardware table export. A download is
// made in the page; nothing leaves the browser.
import { copyToClipboard } from './dom.js';

const markdownCell = (text) => String(text).replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');

/** A table ([header, ...rows] of strings) as Markdown lines; the columns `numeric(index)` names align right. */
function markdownLines([header, ...rows], numeric = () => false) {
  const line = (cells) => `| ${cells.map(markdownCell).join(' | ')} |`;
  return [line(header), `| ${header.map((_, i) => (numeric(i) ? '---:' : '---')).join(' | ')} |`, ...rows.map(line)];
}

/**
 * The table as Markdown after the caption line, then each of `more` ({ heading, table, numeric }:
 * a table kept apart, the fits view's models that run with offload) under its heading.
 */
export function toMarkdown(table, caption, link, numeric = () => false, more = []) {
  return [`${caption} (${link})`, '', ...markdownLines(table, numeric),
    ...more.flatMap((part) => ['', part.heading, '', ...markdownLines(part.table, part.numeric)])].join('\n') + '\n';
}

const csvField = (text) => (/[",\r\n]/.test(text) ? `"${String(text).replace(/"/g, '""')}"` : String(text));

/** The rows (arrays of strings and numbers) as CSV (RFC 4180) after the caption line and the header. */
export function toCsv(header, rows, caption, link) {
  const lines = [[`${caption} (${link})`], header, ...rows.map((cells) => cells.map(String))];
  return lines.map((cells) => cells.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Saves `text` as a file named `name` (a download made in the page). */
export function download(name, text, type = 'text/csv;charset=utf-8') {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/**
 * Puts `text` on the clipboard and says "copied" on the button; where the browser refuses, the
 * text shows selected in a box below the button's row, to copy by hand.
 */
export const copyText = (button, text, t) => copyToClipboard(button, text, t, () => showToCopy(button, text, t));

function showToCopy(button, text, t) {
  const row = button.closest('.table-actions') ?? button;
  let box = row.nextElementSibling;
  if (!box?.classList.contains('copy-by-hand')) {
    box = document.createElement('textarea');
    box.className = 'copy-by-hand';
    box.readOnly = true;
    box.rows = 6;
    box.dataset.testid = 'copy-by-hand';
    row.after(box);
  }
  box.setAttribute('aria-label', t('copy.by_hand'));
  box.title = t('copy.by_hand');
  box.value = text;
  box.focus();
  box.select();
}
