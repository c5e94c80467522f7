// Files the user dropped or picked, read on the device: a `fetch` stand-in that answers the
// Hugging Face libraries' requests (Range reads, HEAD, the Hub's URL layout) from Blob.slice, so
// @huggingface/gguf and @huggingface/hub read a local file exactly as they read the Hub's.
// Nothing is sent anywhere: the stand-in never calls the real fetch.

/** The Hub URL and repository the stand-in answers for (never a real host: .invalid). */
export const LOCAL_HUB_URL = 'https://local.invalid';
export const LOCAL_REPO = 'local/files';

/** Parses one `bytes=a-b`, `bytes=a-` or `bytes=-n` range against a size: {start, end} (inclusive), 'invalid' or null. */
export function byteRange(header, size) {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === '' || match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || end < start ? 'invalid' : { start, end };
}

function answer(status, body, headers) {
  return new Response(body, { status, headers: { 'Accept-Ranges': 'bytes', ...headers } });
}

function notFound(name) {
  return answer(404, JSON.stringify({ error: `${name} was not among the files given` }), {
    'Content-Type': 'application/json', 'X-Error-Code': 'EntryNotFound',
  });
}

/** The file name a request asks for: the last part of its URL's path. */
function requestedName(input) {
  const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url);
  return decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
}

/**
 * A `fetch` that serves the given files by name, with Range requests answered from
 * `file.slice()`.
 * @param {{name: string, size: number, slice(start: number, end: number): Blob, lastModified?: number}[]} files
 *   File objects, or anything with a name, a size and a slice() that returns a Blob
 * @returns {(input: string|URL|Request, init?: RequestInit) => Promise<Response>}
 */
export function localFetch(files) {
  const byName = new Map([...files].map((file) => [file.name, file]));
  return async (input, init = {}) => {
    const name = requestedName(input);
    const file = byName.get(name);
    if (!file) return notFound(name);
    const { size } = file;
    const headers = { 'Content-Type': 'application/octet-stream', ETag: `"local-${size}-${file.lastModified ?? 0}"` };
    const range = byteRange(new Headers(init.headers).get('range'), size);
    if (range === 'invalid') return answer(416, null, { ...headers, 'Content-Range': `bytes */${size}` });
    const { start, end } = range ?? { start: 0, end: size - 1 };
    const length = size === 0 ? 0 : end - start + 1;
    const head = (init.method ?? 'GET').toUpperCase() === 'HEAD';
    const body = head || length === 0 ? null : file.slice(start, end + 1);
    return answer(range ? 206 : 200, body, {
      ...headers,
      'Content-Length': String(length),
      ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
    });
  };
}
