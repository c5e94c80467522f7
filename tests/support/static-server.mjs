// A zero-dependency static file server for the built site (build-wasm/site).
//
//   import { startServer } from './static-server.mjs';
//   const server = await startServer('build-wasm/site');   // port 0: a free port
//   ... fetch(server.url) ...
//   await server.close();
//
// Run directly: `node tests/support/static-server.mjs <root> [port]` (default 8080).
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const MIME_TYPES = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
});

const mimeTypeOf = (file) => MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

function sendText(req, res, status, text, extraHeaders = {}) {
  const body = `${text}\n`;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ...extraHeaders,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

// Maps a request URL to an absolute file path inside root, or null when it would leave root
// (or cannot be decoded). The query string and fragment are ignored.
export function resolveRequestPath(root, requestUrl) {
  const rawPath = (requestUrl ?? '/').split(/[?#]/, 1)[0];
  let decoded;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null; // malformed percent-encoding
  }
  if (decoded.includes('\0')) return null;
  // Treat backslashes as separators too, then normalise against root: '..' cannot climb out.
  const relative = path.posix.normalize(`/${decoded.replaceAll('\\', '/')}`).replace(/^\/+/, '');
  const resolved = path.resolve(root, relative);
  if (resolved !== root && !resolved.startsWith(root + path.sep)) return null;
  return resolved;
}

async function findFile(filePath) {
  let info;
  try {
    info = await stat(filePath);
  } catch {
    return null;
  }
  if (info.isDirectory()) return findFile(path.join(filePath, 'index.html'));
  return info.isFile() ? { filePath, size: info.size } : null;
}

function handler(root, extraHeaders) {
  return async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendText(req, res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
        return;
      }
      const target = resolveRequestPath(root, req.url);
      if (target === null) {
        sendText(req, res, 403, 'Forbidden');
        return;
      }
      // A directory asked for without its trailing slash: redirect, so relative URLs resolve.
      const pathname = req.url.split(/[?#]/, 1)[0];
      if (!pathname.endsWith('/') && (await stat(target).catch(() => null))?.isDirectory()) {
        const query = req.url.slice(pathname.length);
        sendText(req, res, 301, 'Moved Permanently', { Location: `${pathname}/${query}` });
        return;
      }
      const found = await findFile(target);
      if (found === null) {
        sendText(req, res, 404, 'Not Found');
        return;
      }
      res.writeHead(200, {
        'Content-Type': mimeTypeOf(found.filePath),
        'Content-Length': found.size,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        ...extraHeaders(path.relative(root, found.filePath).split(path.sep).join('/')),
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      const stream = createReadStream(found.filePath);
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    } catch (error) {
      if (res.headersSent) res.destroy();
      else sendText(req, res, 500, `Internal Server Error: ${error.message}`);
    }
  };
}

/**
 * @param {string} root the folder to serve
 * @param {{host?: string, port?: number, headers?: (file: string) => object}} options
 *   headers: extra response headers for a file (its path relative to root, with '/'),
 *   e.g. a Content-Security-Policy for a test's host page
 */
export async function startServer(root, { host = '127.0.0.1', port = 0, headers = () => ({}) } = {}) {
  const absoluteRoot = path.resolve(root);
  const rootInfo = await stat(absoluteRoot).catch(() => null);
  if (!rootInfo?.isDirectory()) throw new Error(`static-server: root ${absoluteRoot} is not a directory`);

  const server = createServer(handler(absoluteRoot, headers));
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = server.address().port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${actualPort}/`,
    port: actualPort,
    root: absoluteRoot,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections (e.g. a browser's) would otherwise hold close() open.
        for (const socket of sockets) socket.destroy();
      }),
  };
}

async function main(argv) {
  const [root, portArg = '8080'] = argv;
  if (!root) {
    console.error('usage: node tests/support/static-server.mjs <root> [port]');
    return 2;
  }
  const port = Number(portArg);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`vramcalc: invalid port ${JSON.stringify(portArg)} (use 0-65535; 0 picks a free port)`);
    return 2;
  }
  let server;
  try {
    server = await startServer(root, { port });
  } catch (error) {
    if (error.code === 'EADDRINUSE') {
      console.error(`vramcalc: port ${port} on 127.0.0.1 is already in use; stop the other server or pass another port, e.g. \`node tests/support/static-server.mjs ${root} 8081\` (0 picks a free one)`);
    } else if (error.code === 'EACCES') {
      console.error(`vramcalc: not allowed to listen on port ${port}; pick a port above 1023`);
    } else {
      console.error(`vramcalc: ${error.message}`);
    }
    return 1;
  }
  console.log(`vramcalc: serving ${root} at ${server.url}`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined; // keep running
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const code = await main(process.argv.slice(2));
  if (code !== undefined) process.exitCode = code;
}
