// The service worker of the installable web app (served at the site's root, so its scope is the
// whole site). It keeps a copy of the page's static files as they are fetched (the page itself,
// its scripts, styles and icons) and a "no connection" page: the server is always asked first
// (the files are served with `no-cache`, so a new version is picked up at once); when it cannot
// be reached, a page opened or reloaded shows the "no connection" page, and the files come from
// the copy. The API and the table's WebSocket are never cached.

const CACHE = 'yezi-shell-1';
/** What is fetched when the worker is installed: enough to show the "no connection" page. */
const SHELL = ['/offline.html', '/css/app.css', '/favicon.svg', '/icon-192.png', '/manifest.webmanifest'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** Whether a request is for a static file of the page (not the API, not the WebSocket). */
function isStatic(url) {
  return url.origin === self.location.origin && !url.pathname.startsWith('/api/') && url.pathname !== '/ws';
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (!isStatic(url)) return;
  if (req.mode === 'navigate') {
    // A page: the server's, else the "no connection" page.
    event.respondWith(fetch(req).catch(() => caches.match('/offline.html').then((r) => r ?? Response.error())));
    return;
  }
  event.respondWith(
    fetch(req)
      .then((res) => {
        if (res.ok) {
          const copy = res.clone();
          void caches.open(CACHE).then((c) => c.put(req, copy));
        }
        return res;
      })
      .catch(() => caches.match(req).then((r) => r ?? Response.error())),
  );
});
