// An offline stand-in for the Hugging Face Hub, for tests that import a model by repo id or link
// without the internet. No dependencies: node:http, node:fs and node:crypto only.
//
//   import { startHubServer } from './hub-server.mjs';
//   const hub = await startHubServer();          // free ports; hub.url and hub.cdnUrl
//   await parseSafetensorsMetadata({ repo, hubUrl: hub.url });
//   hub.requests                                  // every request both origins received
//   await hub.close();
//
// Run directly: `node tests/support/hub-server.mjs [port] [cdn-port]`; it prints one JSON line per
// request.
//
// What it serves comes from a data table, tests/support/hub-fixtures.json: repositories, each a
// list of {path, fixture[, size]}. A file with a size is a header-only fixture standing for a file
// of that size: the server reports that size and answers ranges past the stored header with
// zeros, as @huggingface/gguf needs (it refuses a file too small for its tensors).
//
// The URL layout is the Hub's, as @huggingface/hub 2.17 calls it:
//   GET  /api/models/{owner}/{name}[/revision/{rev}][?blobs=true]  model info: sha, siblings
//   GET  /api/models/{owner}/{name}/tree/{rev}[/{dir}]               files: type, oid, size, path, lfs
//   POST /api/models/{owner}/{name}/paths-info/{rev}                 the same for listed paths
//   GET|HEAD /{owner}/{name}/resolve/{rev}/{path}   small files: 200 with the bytes; header-only
//                                                   fixtures ("LFS"): 302 to the CDN origin
//   GET|HEAD /{owner}/{name}/raw/{rev}/{path}       small files; the LFS pointer of the others
//   GET|HEAD {cdn}/lfs/{oid}                        the bytes, with Range (206) and zeros past
//                                                   the header
// Every response carries CORS headers and exposes Content-Range, ETag, X-Repo-Commit,
// X-Linked-Size, X-Linked-Etag and Location; OPTIONS answers preflights. {rev} is "main" or the
// repository's sha (a fixed hash of its id). Missing repositories, revisions and files answer 404
// with the Hub's X-Error-Code (RepoNotFound, RevisionNotFound, EntryNotFound).
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_TABLE = path.join(ROOT, 'tests/support/hub-fixtures.json');

const EXPOSED = ['Content-Range', 'Content-Length', 'Content-Type', 'Accept-Ranges', 'ETag', 'Location',
  'X-Repo-Commit', 'X-Linked-Size', 'X-Linked-Etag', 'X-Error-Code', 'X-Error-Message', 'X-Cache', 'Link'];
const CORS = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED.join(', '),
});
const LAST_MODIFIED = '2026-01-01T00:00:00.000Z';
const ZEROS = Buffer.alloc(1 << 20);

const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const gitBlobSha = (data) => createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');

/** The table as served: repositories by id, with each file's bytes, size and hashes. */
export function loadTable(tablePath = DEFAULT_TABLE) {
  const table = JSON.parse(readFileSync(tablePath, 'utf8'));
  const repos = new Map();
  const blobs = new Map();
  for (const repo of table.repos) {
    const sha = createHash('sha1').update(`vramcalc offline hub: ${repo.id}`).digest('hex');
    const files = new Map();
    for (const entry of repo.files) {
      const file = describeFile(entry);
      files.set(entry.path, file);
      if (file.lfs) blobs.set(file.oid, file);
    }
    repos.set(repo.id, { id: repo.id, sha, files });
  }
  return { repos, blobs };
}

function describeFile(entry) {
  const bytes = readFileSync(path.join(ROOT, entry.fixture));
  if (entry.size === undefined) {
    return { path: entry.path, bytes, size: bytes.length, lfs: false, oid: gitBlobSha(bytes) };
  }
  if (entry.size < bytes.length) throw new Error(`${entry.path}: size ${entry.size} < ${bytes.length} stored bytes`);
  // A stand-in for the LFS sha256 (the published file's is not known): the stored bytes and size.
  const oid = sha256(Buffer.concat([bytes, Buffer.from(`:${entry.size}`)]));
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${entry.size}\n`;
  return { path: entry.path, bytes, size: entry.size, lfs: true, oid, pointer, blobSha: gitBlobSha(Buffer.from(pointer)) };
}

/** Starts the Hub origin and the CDN origin; resolves once both listen. */
export async function startHubServer({ table = DEFAULT_TABLE, port = 0, cdnPort = 0, host = '127.0.0.1', onRequest } = {}) {
  const data = loadTable(table);
  const requests = [];
  const state = { data, requests, onRequest, cdnUrl: '' };
  const hub = createServer((req, res) => handle(state, 'hub', req, res, routeHub));
  const cdn = createServer((req, res) => handle(state, 'cdn', req, res, routeCdn));
  await Promise.all([listen(hub, port, host), listen(cdn, cdnPort, host)]);
  const url = `http://${host}:${hub.address().port}`;
  state.cdnUrl = `http://${host}:${cdn.address().port}`;
  return {
    url,
    cdnUrl: state.cdnUrl,
    requests,
    clearRequests: () => requests.splice(0, requests.length),
    repos: data.repos,
    close: () => Promise.all([closeServer(hub), closeServer(cdn)]),
  };
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
}

function closeServer(server) {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

// Logs the request once the response is done, then routes it.
function handle(state, origin, req, res, route) {
  const started = Date.now();
  res.on('close', () => {
    const entry = {
      origin, method: req.method, url: req.url, range: req.headers.range ?? null,
      status: res.statusCode, ms: Date.now() - started,
    };
    state.requests.push(entry);
    state.onRequest?.(entry);
  });
  if (req.method === 'OPTIONS') return preflight(req, res);
  Promise.resolve(route(state, req, res)).catch((err) => {
    if (!res.headersSent) send(res, 500, { error: String(err?.message ?? err) });
    else res.destroy(err);
  });
}

function preflight(req, res) {
  res.writeHead(204, {
    ...CORS,
    'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
    'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'Range, Authorization, Accept, Content-Type',
    'Access-Control-Max-Age': '86400',
    'Content-Length': '0',
  });
  res.end();
}

// A JSON (or text) answer; `errorCode` sets the Hub's X-Error-Code.
function send(res, status, body, headers = {}, errorCode) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    ...CORS,
    'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...(errorCode ? { 'X-Error-Code': errorCode, 'X-Error-Message': String(body.error ?? body) } : {}),
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

// ---- Hub origin --------------------------------------------------------------------------------

function routeHub(state, req, res) {
  const url = new URL(req.url, 'http://hub.invalid');
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'api' && parts[1] === 'models') return routeApi(state, req, res, parts.slice(2), url);
  if (parts.length >= 5 && (parts[2] === 'resolve' || parts[2] === 'raw')) {
    return routeFile(state, req, res, parts);
  }
  return send(res, 404, { error: 'Not found' }, {}, 'NotFound');
}

// Finds `owner/name` at `rev`; answers the Hub's 404 and returns null when either is unknown.
function findRepo(state, res, owner, name, rev) {
  const repo = state.data.repos.get(`${owner}/${name}`);
  if (!repo) {
    send(res, 404, { error: 'Repository not found' }, {}, 'RepoNotFound');
    return null;
  }
  if (rev !== undefined && rev !== 'main' && rev !== 'HEAD' && rev !== repo.sha) {
    send(res, 404, { error: `Invalid rev id: ${rev}` }, {}, 'RevisionNotFound');
    return null;
  }
  return repo;
}

function routeApi(state, req, res, parts, url) {
  const [owner, name, verb, rev, ...rest] = parts;
  if (!owner || !name) return send(res, 404, { error: 'Not found' }, {}, 'NotFound');
  if (verb === undefined || verb === 'revision') {
    const repo = findRepo(state, res, owner, name, verb ? rev : undefined);
    return repo && send(res, 200, modelInfo(repo, url.searchParams.get('blobs') === 'true'));
  }
  const repo = findRepo(state, res, owner, name, rev);
  if (!repo) return undefined;
  if (verb === 'tree' && req.method !== 'POST') {
    return send(res, 200, treeEntries(repo, rest.join('/'), url.searchParams.get('recursive') === 'true'));
  }
  if (verb === 'paths-info' && req.method === 'POST') return pathsInfo(repo, req, res);
  return send(res, 404, { error: 'Not found' }, {}, 'NotFound');
}

function modelInfo(repo, blobs) {
  const siblings = [...repo.files.values()].map((file) => (blobs
    ? { rfilename: file.path, size: file.size, blobId: file.lfs ? file.blobSha : file.oid, ...lfsInfo(file) }
    : { rfilename: file.path }));
  const gguf = siblings.some((s) => s.rfilename.endsWith('.gguf'));
  return {
    _id: repo.sha.slice(0, 24), id: repo.id, modelId: repo.id, author: repo.id.split('/')[0],
    sha: repo.sha, lastModified: LAST_MODIFIED, createdAt: LAST_MODIFIED,
    private: false, disabled: false, gated: false, downloads: 0, likes: 0,
    tags: gguf ? ['gguf'] : ['safetensors'], library_name: gguf ? 'gguf' : 'transformers',
    siblings,
  };
}

function lfsInfo(file) {
  return file.lfs ? { lfs: { sha256: file.oid, size: file.size, pointerSize: file.pointer.length } } : {};
}

// One tree entry as /api/models/{id}/tree returns it.
function treeEntry(file) {
  return {
    type: 'file', oid: file.lfs ? file.blobSha : file.oid, size: file.size, path: file.path,
    ...(file.lfs ? { lfs: { oid: file.oid, size: file.size, pointerSize: file.pointer.length } } : {}),
  };
}

function treeEntries(repo, dir, recursive) {
  const prefix = dir ? `${dir.replace(/\/$/, '')}/` : '';
  const out = [];
  const dirs = new Set();
  for (const file of repo.files.values()) {
    if (!file.path.startsWith(prefix)) continue;
    const rest = file.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash >= 0 && !recursive) dirs.add(prefix + rest.slice(0, slash));
    else out.push(treeEntry(file));
  }
  const dirEntries = [...dirs].map((p) => ({ type: 'directory', oid: gitBlobSha(Buffer.from(p)), size: 0, path: p }));
  return [...dirEntries, ...out];
}

async function pathsInfo(repo, req, res) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  let paths = [];
  if ((req.headers['content-type'] ?? '').includes('json')) paths = JSON.parse(text || '{}').paths ?? [];
  else paths = new URLSearchParams(text).getAll('paths');
  return send(res, 200, paths.filter((p) => repo.files.has(p)).map((p) => treeEntry(repo.files.get(p))));
}

// /{owner}/{name}/resolve|raw/{rev}/{path...}
function routeFile(state, req, res, parts) {
  const [owner, name, kind, rev, ...rest] = parts;
  const repo = findRepo(state, res, owner, name, rev);
  if (!repo) return undefined;
  const file = repo.files.get(rest.join('/'));
  if (!file) return send(res, 404, { error: 'Entry not found' }, { 'X-Repo-Commit': repo.sha }, 'EntryNotFound');
  const common = { 'X-Repo-Commit': repo.sha };
  if (!file.lfs) return sendBytes(req, res, file.bytes, file.size, { ...common, ETag: `"${file.oid}"` });
  if (kind === 'raw') {
    return sendBytes(req, res, Buffer.from(file.pointer), file.pointer.length, { ...common, ETag: `"${file.blobSha}"` });
  }
  const location = `${state.cdnUrl}/lfs/${file.oid}?filename=${encodeURIComponent(path.posix.basename(file.path))}`;
  return send(res, 302, `Found. Redirecting to ${location}`, {
    ...common,
    Location: location,
    ETag: `"${file.blobSha}"`,
    'X-Linked-Size': String(file.size),
    'X-Linked-Etag': `"${file.oid}"`,
  });
}

// ---- CDN origin --------------------------------------------------------------------------------

function routeCdn(state, req, res) {
  const { pathname } = new URL(req.url, 'http://cdn.invalid');
  const match = /^\/lfs\/([0-9a-f]{64})$/.exec(pathname);
  const file = match && state.data.blobs.get(match[1]);
  if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
    return send(res, 404, 'Not Found');
  }
  return sendBytes(req, res, file.bytes, file.size, {
    ETag: `"${file.oid}"`,
    'Content-Type': 'application/octet-stream',
    'X-Cache': 'Hit from cloudfront',
  });
}

// ---- bytes and ranges --------------------------------------------------------------------------

/** Parses a single-range `Range` header against `size`: {start, end} (inclusive), 'invalid' or null. */
export function parseRange(header, size) {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  let start;
  let end;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || end < start) return 'invalid';
  return { start, end };
}

// Answers GET/HEAD for a file of `size` bytes whose first bytes are `stored` (zeros after them).
function sendBytes(req, res, stored, size, headers) {
  const range = parseRange(req.headers.range, size);
  const base = { ...CORS, 'Accept-Ranges': 'bytes', 'Content-Type': 'application/octet-stream', ...headers };
  if (range === 'invalid') {
    res.writeHead(416, { ...base, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' });
    return res.end();
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : end - start + 1;
  res.writeHead(range ? 206 : 200, {
    ...base,
    'Content-Length': String(length),
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (req.method === 'HEAD' || length === 0) return res.end();
  return streamBytes(res, stored, start, end + 1);
}

// Writes stored[start, end) and zeros past the stored bytes, waiting for the socket to drain.
async function streamBytes(res, stored, start, end) {
  let pos = start;
  while (pos < end && !res.destroyed) {
    const chunk = pos < stored.length
      ? stored.subarray(pos, Math.min(end, stored.length))
      : ZEROS.subarray(0, Math.min(end - pos, ZEROS.length));
    pos += chunk.length;
    if (!res.write(chunk)) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
  }
  res.end();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [port = 8090, cdnPort = 8091] = process.argv.slice(2).map(Number);
  const hub = await startHubServer({ port, cdnPort, onRequest: (entry) => console.log(JSON.stringify(entry)) });
  console.error(`offline Hub at ${hub.url} (CDN ${hub.cdnUrl}), ${hub.repos.size} repositories`);
}
