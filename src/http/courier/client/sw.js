// The courier app's service worker (served at /courier/sw.js, scope /courier/). The server fills in
// the release and its files. It keeps the shell and this release's files so the app opens without a
// network; it never answers for the API or the sign-in pages: those always go to the server, and
// what the app must keep offline (the day, the queue) it keeps itself, in IndexedDB.
const VERSION = '__VERSION__';
const ASSETS = /*ASSETS*/ [];
const CACHE = `dlv-courier-${VERSION}`;
const SHELL = '/courier/';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([SHELL, ...ASSETS]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('dlv-courier-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/courier/assets/')) {
    // Versioned paths never change: the cached copy is the file.
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === 'navigate' && (url.pathname === SHELL || url.pathname === '/courier')) {
    // The network first (a new release, the courier's language), the kept shell when there is none.
    event.respondWith(
      fetch(request)
        .then((response) => {
          // Not a redirect to the sign-in: that page is not the shell.
          if (response.ok && !response.redirected) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(SHELL, copy));
          }
          return response;
        })
        .catch(() => caches.match(SHELL)),
    );
  }
  // Anything else (the JSON API, the sign-in pages) is the browser's ordinary request: never cached here.
});
