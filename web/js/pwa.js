// The offline side of the page: registers the service worker, says once that the page now
// works offline, and asks before reloading into a new version (never mixing two versions).
const OFFLINE_READY_KEY = 'vramcalc.offline-ready';
const $ = (id) => document.getElementById(id);

/**
 * The web app manifest and the home-screen icon, which only installing needs: linked here, after
 * the first numbers, rather than in index.html, where their downloads ran beside the module's.
 */
function linkManifest() {
  if (document.querySelector('link[rel="manifest"]')) return;
  for (const [rel, href] of [['manifest', 'manifest.webmanifest'], ['apple-touch-icon', 'icons/icon-192.png']]) {
    const link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    document.head.append(link);
  }
}

/**
 * @param {() => (key: string) => string} translator the current language's t()
 */
export function registerServiceWorker(translator) {
  // A page opened from disk (the single-file build) or a non-secure origin has none.
  if (!('serviceWorker' in navigator) || !window.isSecureContext || location.protocol === 'file:') return;
  linkManifest();
  let reloading = false;

  const show = (message, worker = null) => {
    const t = translator();
    $('sw-message').textContent = t(message);
    const reload = $('sw-reload');
    reload.hidden = worker === null;
    reload.textContent = t('pwa.reload');
    reload.onclick = () => {
      reloading = true;
      worker.postMessage('skip-waiting');
    };
    $('sw-dismiss').textContent = t('pwa.dismiss');
    $('sw-dismiss').onclick = () => { $('sw-banner').hidden = true; };
    $('sw-banner').hidden = false;
  };
  const offlineReady = () => {
    try {
      if (localStorage.getItem(OFFLINE_READY_KEY)) return;
      localStorage.setItem(OFFLINE_READY_KEY, '1');
    } catch {
      return;  // no storage: better silent than repeated on every visit
    }
    show('pwa.offline_ready');
  };

  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) location.reload();
  });
  // Whether this page loaded under a worker, read before registering: a first worker claims the
  // page when it activates, which WebKit may report before the worker's "installed" state.
  const controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.register('sw.js').then((registration) => {
    if (registration.waiting && controlled) show('pwa.update', registration.waiting);
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      worker?.addEventListener('statechange', () => {
        if (worker.state !== 'installed') return;
        // A controlled page gets a new version; an uncontrolled one its first.
        if (controlled) show('pwa.update', worker);
        else offlineReady();
      });
    });
  }).catch(() => {
    // Registration can fail (private mode, blocked storage); the page works online anyway.
  });
}
