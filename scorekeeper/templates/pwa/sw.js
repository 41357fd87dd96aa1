/* Scorekeeper's service worker (served at /sw.js so its scope is the whole app).
   The app shell (styles, scripts, icons, under fingerprinted names) comes from the cache;
   pages come from the network first, and when the network is gone, from the last good
   copy this phone saw, so an open session survives a Wi-Fi blip. POSTs and the API are never
   touched: a round typed offline is kept by offline.js on the page, not here. */
"use strict";

const VERSION = {{ version|tojson }};
const SHELL = `scorekeeper-shell-${VERSION}`;
const PAGES = "scorekeeper-pages";
const MOST_PAGES = 60; // the pages kept: the latest sessions and their forms, not all history
const SHELL_FILES = {{ shell|tojson }};
const CURRENT = {{ current|tojson }}; // plain URL -> its fingerprinted URL now
const STATIC_PREFIX = {{ static_prefix|tojson }};
const SIGN_OUT = {{ sign_out|tojson }};
const SESSIONS = {{ sessions|tojson }}; // a URL pattern: every session's own addresses
const OFFLINE_PAGE = {{ offline_page|tojson }};

self.addEventListener("install", (event) => {
  /* The page's own requests of a session (a round saved, changed or deleted in place, the
     poll, a round's form) go straight to the server: this worker has nothing to do with them,
     and waking it for each cost a few milliseconds a save. Where routes are not known
     (Safari), the fetch listener below lets them pass as before. */
  if (event.addRoutes) {
    event.addRoutes({
      condition: { requestMode: "cors", urlPattern: { pathname: SESSIONS } },
      source: "network",
    });
  }
  event.waitUntil(
    caches.open(SHELL)
      .then((cache) => cache.addAll(SHELL_FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key.startsWith("scorekeeper-shell-") && key !== SHELL)
          .map((key) => caches.delete(key)),
      ))
      .then(() => self.clients.claim()),
  );
});

/* A fingerprinted name (app.1a2b3c4d5e.css) never changes its bytes; its plain name's current
   fingerprinted URL stands in when a page kept from before names an older one. */
const FINGERPRINT = /\.[0-9a-f]{10}(\.\w+)$/;
const standIn = (cache, path) => {
  const url = CURRENT[path.replace(FINGERPRINT, "$1")];
  return url ? cache.match(url) : Promise.resolve(undefined);
};

/* Styles, scripts and icons: the cached copy at once (a plain name is fetched again for next
   time); when none is kept, the network, and failing that the stand-in. */
const fromShell = async (event) => {
  const cache = await caches.open(SHELL);
  const path = new URL(event.request.url).pathname;
  const cached = await cache.match(event.request);
  if (cached && FINGERPRINT.test(path)) return cached;
  const fresh = fetch(event.request).then((response) => {
    if (response.ok) return cache.put(event.request, response.clone()).then(() => response);
    return response;
  });
  if (cached) {
    event.waitUntil(fresh.catch(() => undefined));
    return cached;
  }
  try {
    const response = await fresh;
    return response.ok ? response : (await standIn(cache, path)) || response;
  } catch (error) {
    const kept = await standIn(cache, path);
    if (kept) return kept;
    throw error;
  }
};

/* A page worth keeping: a whole HTML page, not a download, not marked private. */
const keepable = (response) =>
  response.ok && response.type === "basic" && !response.redirected &&
  /^text\/html/.test(response.headers.get("Content-Type") || "") &&
  !/attachment/.test(response.headers.get("Content-Disposition") || "") &&
  !/no-store/.test(response.headers.get("Cache-Control") || "");

/* Forget the pages kept longest ago (a cache lists its keys in the order they were put). */
const trim = async (pages) => {
  const keys = await pages.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MOST_PAGES)).map((key) => pages.delete(key)));
};

/* Pages: the network first; the last good copy of the page when the network is gone. */
const networkFirst = async (event) => {
  const pages = await caches.open(PAGES);
  try {
    const response = await fetch(event.request);
    if (keepable(response)) {
      event.waitUntil(pages.put(event.request, response.clone()).then(() => trim(pages)));
    }
    return response;
  } catch (error) {
    const cached = await pages.match(event.request);
    if (cached) return cached;
    return new Response(OFFLINE_PAGE, {
      status: 503,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === SIGN_OUT) {
    event.waitUntil(caches.delete(PAGES)); // a signed-out phone keeps no pages
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(fromShell(event));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(event));
  }
});
