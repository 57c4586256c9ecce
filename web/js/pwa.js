// The installable web app: the service worker (`/sw.js`, at the site's root so that it serves the
// whole site) keeps the page's static files and shows a "no connection" page when the server
// cannot be reached. The manifest (`/manifest.webmanifest`) is linked from index.html.

/** Registers the service worker, where the browser has them (and the page is served over HTTP(S)). */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    // Not allowed here (a private window, an insecure origin): the page works without it.
  });
}
