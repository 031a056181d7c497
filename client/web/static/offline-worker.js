// The pages' service worker: the judge page (/t/{t}/judge) and the table's page (/t/{t}/report)
// load without the network — reloaded while the venue's Wi-Fi is down — from the copies kept
// here. Registered by offline-shell.js with the scope /t/; tallyd serves this file with the
// header "Service-Worker-Allowed: /t/" (a worker's scope is otherwise its own folder, /static/).
// A browser gives a service worker only to a secure context: https (tallyd's TLS), or the
// loopback address. Over plain http on the venue's network there is none, and the pages keep
// their outbox and their last tables without it (outbox.js, offline-cache.js).
//
// It keeps the pages' shell only — the two pages' HTML, the /static/ files they load (found by
// following their <link>, <script> and import lines) and the four catalogs —, never an API
// answer: the data the pages show offline is theirs to keep (offline-cache.js), and an API call
// goes to the network untouched. Every shell request goes to the network first, so a page is
// always the server's when there is one; the kept copy answers when there is none, or when the
// network has not answered within a few seconds.

const CACHE = "tallyd-shell-v1";
// The pages, each kept under one address whatever the tournament (their HTML is the same).
const PAGES = { judge: "/t/-/judge", report: "/t/-/report" };
const CATALOGS = ["en", "cs", "it", "ru"].map((lang) => `/static/locale/${lang}.json`);
const NETWORK_WAIT_MS = 4000;
const MAX_FILES = 200; // what the shell may hold at most (it holds about 35)

// The key a shell request is kept under, or null for what this worker leaves alone.
function shellKey(request) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return null;
  const page = /^\/t\/[^/]+\/(judge|report)$/.exec(url.pathname);
  if (page && request.mode === "navigate") return PAGES[page[1]];
  if (url.pathname.startsWith("/static/")) return url.pathname;
  return null;
}

// The /static/ files a text names: <link href>, <script src>, import … from "./x.js",
// import "./x.js", export … from "./x.js", @import url("x.css").
function namedFiles(text, base) {
  const found = new Set();
  const patterns = [
    /(?:href|src)="(\/static\/[^"#?]+)"/g,
    /\b(?:import|export)\b[^"'`;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g,
    /\bimport\s*["'](\.{1,2}\/[^"']+)["']/g,
    /@import\s+(?:url\()?["']?([^"')\s]+)["']?\)?/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const url = new URL(match[1], base);
      if (url.origin === self.location.origin && url.pathname.startsWith("/static/")) found.add(url.pathname);
    }
  }
  return found;
}

// Fetches the pages and every file they need, following the imports, into the cache.
async function keepShell() {
  const cache = await caches.open(CACHE);
  const seen = new Set();
  const queue = [...Object.values(PAGES), ...CATALOGS];
  const required = new Set(queue);
  while (queue.length && seen.size < MAX_FILES) {
    const path = queue.shift();
    if (seen.has(path)) continue;
    seen.add(path);
    const response = await fetch(path, { cache: "no-cache", credentials: "same-origin" });
    if (!response.ok) {
      // The pages and the catalogs must be there; a file only named in a comment need not.
      if (required.has(path)) throw new Error(`${path}: ${response.status}`);
      continue;
    }
    await cache.put(path, response.clone());
    if (/\.(html|js|css)$/.test(path) || Object.values(PAGES).includes(path)) {
      const base = new URL(path, self.location.origin);
      for (const file of namedFiles(await response.text(), base)) if (!seen.has(file)) queue.push(file);
    }
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith("tallyd-shell-") && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const key = shellKey(event.request);
  if (!key) return; // the network's, untouched: API calls, the live feed, the other pages
  event.respondWith(networkFirst(event, key));
});

// The network's answer (kept for next time), else the kept copy: when the network fails, or has
// not answered within NETWORK_WAIT_MS and a copy is there.
async function networkFirst(event, key) {
  const cache = await caches.open(CACHE);
  const fromNetwork = fetch(event.request).then(async (response) => {
    if (response.ok) await cache.put(key, response.clone());
    return response;
  });
  event.waitUntil(fromNetwork.catch(() => null));
  let timer = null;
  const slow = new Promise((resolve) => {
    timer = setTimeout(resolve, NETWORK_WAIT_MS, "slow");
  });
  try {
    const first = await Promise.race([fromNetwork, slow]);
    if (first !== "slow") return first;
    const copy = await cache.match(key);
    return copy || (await fromNetwork);
  } catch (e) {
    const copy = await cache.match(key);
    if (copy) return copy;
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
