import type { ServerBuild } from 'react-router'

export const OFFLINE_PAGE = '/offline.html'

/** Every built file the browser may need: the entry, each route module, its imports and CSS. */
export function builtAssetUrls(assets: ServerBuild['assets']): string[] {
  const urls = new Set<string>([assets.url, assets.entry.module, ...assets.entry.imports])
  for (const route of Object.values(assets.routes)) {
    if (!route) continue
    if (route.module) urls.add(route.module)
    for (const url of route.imports ?? []) urls.add(url)
    for (const url of route.css ?? []) urls.add(url)
  }
  return [...urls].filter((url) => url.startsWith('/')).sort()
}

/**
 * The service worker, made for the running build: it keeps the built assets and an offline
 * page, answers pages from the network (never caching a teacher's pages), and takes over at
 * once so open tabs reload into a new version.
 */
export function serviceWorkerScript(assets: ServerBuild['assets']): string {
  const cacheName = `hallil-${assets.version}`
  const precache = [OFFLINE_PAGE, ...builtAssetUrls(assets)]
  return `// Hallil service worker, build ${assets.version}
const CACHE = ${JSON.stringify(cacheName)};
const PRECACHE = ${JSON.stringify(precache)};
const OFFLINE = ${JSON.stringify(OFFLINE_PAGE)};

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => Promise.allSettled(PRECACHE.map((url) => cache.add(url))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('hallil-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })),
    );
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE).then((hit) => hit || Response.error())));
  }
});
`
}
