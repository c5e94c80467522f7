// vramcalc's service worker: precaches the whole site on install and serves it from the cache,
// so the calculator works offline. The build (web/tools/service_worker.cmake) fills in VERSION,
// a digest of every precached file, and PRECACHE; a changed file gives a new cache that never
// mixes with the old one. Only caches with our prefix are ever deleted: the origin may host
// other applications.
const VERSION = '@VRAMCALC_VERSION@';
const PRECACHE = [@VRAMCALC_PRECACHE@];
const CACHE_PREFIX = 'vramcalc-';
const CACHE = `${CACHE_PREFIX}${VERSION}`;

// Precached past the HTTP cache: the file names carry no digest, so a stale copy the browser
// kept could otherwise be stored under the new version's name.
self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) =>
    cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(CACHE_PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// The page asks before a waiting version takes over (see web/js/pwa.js).
self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const cached = await cache.match(request, { ignoreSearch: true });
    if (cached) return cached;
    try {
      return await fetch(request);
    } catch (error) {
      // Offline and not precached: a navigation still gets the page.
      if (request.mode === 'navigate') {
        const page = await cache.match('./');
        if (page) return page;
      }
      throw error;
    }
  })());
});
