// The judge page and the table's page ask the browser to keep their shell (offline-worker.js),
// so that a reload without the network still opens them. Only a secure context has a service
// worker (https, or the loopback address); elsewhere — plain http on the venue's network — this
// does nothing, and the outbox and the last tables are kept all the same (docs/pages.md).

const WORKER = "/static/offline-worker.js";
const SCOPE = "/t/";

// Resolves with whether a worker now keeps the pages (never rejects: the page goes on without).
export async function keepPagesOffline() {
  if (!window.isSecureContext || !("serviceWorker" in navigator) || navigator.onLine === false) return false;
  try {
    // The worker's scope (/t/) is above its folder: tallyd allows it with the header
    // Service-Worker-Allowed. A server that does not is not asked (the browser would log the
    // refusal as an error).
    const worker = await fetch(WORKER, { cache: "no-cache" });
    const scopes = (worker.headers.get("Service-Worker-Allowed") || "").split(",").map((s) => s.trim());
    const allowed = worker.ok && scopes.some((s) => s !== "" && SCOPE.startsWith(s));
    await worker.text();
    if (!allowed) return false;
    // updateViaCache "none": the browser asks tallyd for the worker itself at each check, so a
    // new tallyd's worker is taken at once.
    await navigator.serviceWorker.register(WORKER, { scope: SCOPE, updateViaCache: "none" });
    return true;
  } catch {
    return false; // no connection now, or storage refused
  }
}
