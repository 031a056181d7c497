// The outbox: the writes a page could not send (no network, no answer), kept on the device in
// IndexedDB (device-store.js) until they are sent or the person who made them discards them. It
// survives a reload and a browser restart. Each entry is the whole request as it is to be sent
// again — method, path, body and the headers that make a retry safe: its Idempotency-Key (a
// retry of a write that did reach the server is answered with the original answer, never applied
// twice) and its precondition (If-None-Match: * for a first entry, If-Match: "<version>" for a
// correction) — with what the page shows of it: the tournament, round and table, when it was
// entered and by whom, and what the server said when it last answered.
//
//   const outbox = await openOutbox();            // null when the browser keeps nothing
//   const id = await outbox.add(entry);          // throws OutboxFull past OUTBOX_LIMIT
//   await outbox.all();                          // oldest first: the order they are sent in
//   outbox.onChange(() => …);                    // a change here or in another tab
//
// An entry: {id, kind: "result" | "proposal", tournament, round, table, method, path, body,
// headers: {"Idempotency-Key", "If-None-Match" | "If-Match"}, tokenTag, judge (a name or null),
// enteredAt (ISO time), state, answer, attempts, triedAt}. `state`:
//   "waiting"       to be sent (again);
//   "conflict"      answered 412: another entry stands at the table; the judge chooses;
//   "refused"       answered with a refusal (422 and the like) to look at, change or discard;
//   "unauthorized"  its token was refused (revoked): sent again once a valid token adopts it.
// `answer` ({status, etag, body}) is the server's last answer for the last three.

import { asked, transact } from "./device-store.js";

export const OUTBOX_LIMIT = 500;

export class OutboxFull extends Error {
  constructor() {
    super(`the outbox holds ${OUTBOX_LIMIT} entries`);
    this.limit = OUTBOX_LIMIT;
  }
}

// A short tag of a token, kept with each entry instead of the token itself (the outbox outlives
// "Forget the token"): it tells which token an entry is to be sent with. Two 32-bit FNV-1a hashes
// (crypto.subtle, for SHA-256, exists only in a secure context and the venue's http has none);
// a tag of a 256-bit random token gives nothing useful away about it.
export function tokenTag(token) {
  if (!token) return "";
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (i & 0xff), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

const STORE = "outbox";

// Tells the other tabs of this browser that the outbox changed (their counters follow).
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("tallyd-outbox") : null;

export async function openOutbox() {
  try {
    await transact([STORE], "readonly", () => null);
  } catch {
    return null;
  }
  const listeners = new Set();
  const changed = () => {
    for (const listener of listeners) listener();
    if (channel) channel.postMessage("changed");
  };
  if (channel) channel.addEventListener("message", () => listeners.forEach((listener) => listener()));

  return {
    limit: OUTBOX_LIMIT,

    // Adds an entry (its id is given here, in the order of adding). `replacing`: the id of an
    // entry it takes the place of (removed in the same transaction; it does not count).
    async add(entry, replacing = null) {
      const id = await transact([STORE], "readwrite", async (tx) => {
        const store = tx.objectStore(STORE);
        const count = await asked(store.count());
        const freed = replacing !== null && (await asked(store.get(replacing))) ? 1 : 0;
        if (count - freed >= OUTBOX_LIMIT) throw new OutboxFull();
        if (freed) store.delete(replacing);
        const fresh = { ...entry };
        delete fresh.id;
        return asked(store.add(fresh));
      });
      changed();
      return id;
    },

    // Writes an entry back as it is now (its state, its answer, its attempts).
    async put(entry) {
      await transact([STORE], "readwrite", (tx) => asked(tx.objectStore(STORE).put(entry)));
      changed();
    },

    async remove(id) {
      await transact([STORE], "readwrite", (tx) => asked(tx.objectStore(STORE).delete(id)));
      changed();
    },

    async get(id) {
      return (await transact([STORE], "readonly", (tx) => asked(tx.objectStore(STORE).get(id)))) || null;
    },

    // Every entry, oldest first.
    async all() {
      const entries = await transact([STORE], "readonly", (tx) => asked(tx.objectStore(STORE).getAll()));
      return entries.sort((x, y) => x.id - y.id);
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
