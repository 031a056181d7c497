// The last reads a page made (the tournament, its round sheets, the games' descriptions), kept
// on the device (device-store.js, store "reads") so that a page without the network — the
// venue's Wi-Fi gone, the page reloaded — still shows the tables it had and builds their forms.
// Only reads are kept; what the page shows from here is said to be "as it was at 14:32".
//
//   const answer = await readThrough(path, { token, localized: true });
//   answer.ok, answer.body; answer.savedAt: null when it is the server's answer now, else the
//   time (ISO) the kept copy was read. A read the server refused is its answer, as it is.
//   const tournament = await keptCopy(path);   // the kept copy's body, or null; no request
//
// `localized`: the body has texts in the page's language (GET /v1/games): a copy is kept per
// language, and without one in the page's language another language's copy serves.

import { tryRequest } from "./api.js";
import { asked, transact } from "./device-store.js";
import { LANGUAGES, language } from "./i18n.js";

const STORE = "reads";
const READS_LIMIT = 100; // copies kept; the oldest goes first
const TRANSLATIONS_FRESH_MS = 6 * 3600 * 1000; // a copy in another language younger than this is kept as it is

const keyOf = (path, lang) => `${lang || "-"} ${path}`;

async function remember(path, lang, body) {
  const savedAt = new Date().toISOString();
  await transact([STORE], "readwrite", async (tx) => {
    const store = tx.objectStore(STORE);
    store.put({ key: keyOf(path, lang), path, lang, body, savedAt });
    const count = await asked(store.count());
    if (count <= READS_LIMIT) return;
    // The oldest copies beyond the limit, by the time they were read.
    let excess = count - READS_LIMIT;
    const cursor = store.index("savedAt").openCursor();
    await new Promise((resolve, reject) => {
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at || excess <= 0) return resolve();
        at.delete();
        excess--;
        at.continue();
      };
      cursor.onerror = () => reject(cursor.error);
    });
  });
}

async function recall(path, lang) {
  return transact([STORE], "readonly", async (tx) => {
    const store = tx.objectStore(STORE);
    const own = await asked(store.get(keyOf(path, lang)));
    if (own || !lang) return own || null;
    const all = await asked(store.getAll());
    const others = all.filter((copy) => copy.path === path).sort((x, y) => (x.savedAt < y.savedAt ? 1 : -1));
    return others[0] || null;
  });
}

// A GET through the network, falling back to the kept copy when there is no answer (status 0).
export async function readThrough(path, { token, localized = false } = {}) {
  const lang = localized ? language() : "";
  const answer = await tryRequest("GET", path, { token });
  if (answer.ok) {
    remember(path, lang, answer.body).catch(() => {}); // a full or refused store keeps nothing
    return { ...answer, savedAt: null };
  }
  if (answer.status !== 0) return { ...answer, savedAt: null };
  let kept = null;
  try {
    kept = await recall(path, lang);
  } catch {
    kept = null;
  }
  if (!kept) return { ...answer, savedAt: null };
  return { status: 200, ok: true, etag: null, body: kept.body, retryAfter: null, savedAt: kept.savedAt };
}

// The body of the copy this device keeps of a (not localized) read, or null; the server is not
// asked. For what a page needs before it reads anything: the tournament's language offline.
export async function keptCopy(path) {
  try {
    const kept = await recall(path, "");
    return kept ? kept.body : null;
  } catch {
    return null; // the device keeps nothing
  }
}

// Keeps a copy of a localized read in the pages' other languages too (in the background, each
// at most every few hours), so that a language switched to without the network still has the
// game's texts in it.
export async function keepTranslations(path, { token } = {}) {
  for (const { code } of LANGUAGES) {
    if (code === language()) continue;
    try {
      const kept = await transact([STORE], "readonly", (tx) => asked(tx.objectStore(STORE).get(keyOf(path, code))));
      if (kept && Date.now() - Date.parse(kept.savedAt) < TRANSLATIONS_FRESH_MS) continue;
      const answer = await tryRequest("GET", path, { token, headers: { "Accept-Language": code } });
      if (!answer.ok) return; // no connection, or refused: another time
      await remember(path, code, answer.body);
    } catch {
      return; // the device keeps nothing
    }
  }
}
