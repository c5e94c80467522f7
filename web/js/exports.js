// A table as Markdown and as CSV, each after a line naming the scenario and the page's link,
// and the CSV read back: what the fits view, the quantization matrix and the hardware table
// export. A download is made in the page; nothing leaves the browser.

const markdownCell = (text) => String(text).replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');

/** The table ([header, ...rows] of strings) as Markdown; columns from `numericFrom` on align right. */
export function toMarkdown(table, caption, link, numericFrom = Infinity) {
  const [header, ...rows] = table;
  const line = (cells) => `| ${cells.map(markdownCell).join(' | ')} |`;
  const align = header.map((_, i) => (i >= numericFrom ? '---:' : '---'));
  return [`${caption} (${link})`, '', line(header), `| ${align.join(' | ')} |`, ...rows.map(line)].join('\n') + '\n';
}

const csvField = (text) => (/[",\r\n]/.test(text) ? `"${String(text).replace(/"/g, '""')}"` : String(text));

/** The rows (arrays of strings and numbers) as CSV (RFC 4180) after the caption line and the header. */
export function toCsv(header, rows, caption, link) {
  const lines = [[`${caption} (${link})`], header, ...rows.map((cells) => cells.map(String))];
  return lines.map((cells) => cells.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Parses CSV text (RFC 4180) into rows of fields: the inverse of toCsv's quoting. */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 1; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
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

/** Puts `text` on the clipboard and says "copied" on the button for a moment. */
export async function copyText(button, text, t) {
  await navigator.clipboard.writeText(text);
  button.textContent = t('cmd.copied');
  button.dataset.copied = 'true';
  setTimeout(() => {
    button.textContent = t(button.dataset.i18n);
    delete button.dataset.copied;
  }, 1500);
}
