// Sending the outbox (outbox.js): its entries go in the order they were made, each with its own
// Idempotency-Key and precondition exactly as it was entered, one at a time. A retry of a write
// that did reach the server (its answer was lost) is answered by tallyd with the original answer
// and nothing is applied twice; a write that never arrived is applied now, or refused by its
// precondition when the table was entered meanwhile (412).
//
// What each answer does to an entry (outcomeOf; a page may read some refusals its own way):
//   "sent"          2xx: it is on the server; it leaves the outbox;
//   "conflict"      412: kept as "conflict" with the table as it is now, for the judge to choose;
//   "refused"       422, 403, 409 …: kept as "refused" with the server's errors, to be opened;
//   "unauthorized"  401: kept as it is, and nothing more is sent with that token;
//   "later"         no answer, 408, 429 or 5xx: kept as it is, and nothing more is sent now
//                   (the order holds), tried again later.
// An entry that waits for a decision holds back the later entries of its table (a correction
// made after it is about what it says), not the other tables'.
//
// The entry just saved by the person looking at the page (`immediate`) is the page's own: any
// answer to it is shown at once in the form, where its values still are (a 412's choice, the
// errors at their fields, "wait 7 seconds"), as without an outbox, so it does not stay in the
// outbox; only no answer at all (status 0) or a refused token keeps it.
//
// Sent: at once when the page asks (a save, "Send now"), when the browser is back online, when
// the page is shown again, and every 20 s — then only what was not tried in the last 15 s, so
// that a send just made by hand is not raced by the timer.
//
//   const sync = createSync({ outbox, mine, token, onSettled, onPass });
//   sync.start();
//   sync.poke();                                          // now, in the background
//   const results = await sync.run({ immediate: id });   // Map id → {outcome, answer}

import { tryRequest } from "./api.js";

export const SYNC_EVERY_MS = 20000;
const RESTING_MS = 15000; // the timer leaves an entry tried this recently alone
const ANSWER_WITHIN_MS = 30000; // a send not answered by then counts as no answer (a hung Wi-Fi)

export function outcomeOf(answer) {
  const status = answer.status;
  if (status >= 200 && status < 300) return "sent";
  if (status === 412) return "conflict";
  if (status === 401) return "unauthorized";
  if (status === 0 || status === 408 || status === 429 || status >= 500) return "later";
  return "refused";
}

// One entry sent as it was saved. No answer within ANSWER_WITHIN_MS is status 0, as no network is:
// the entry stays, and its key makes the next try safe whether or not this one arrived.
async function send(entry, token) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ANSWER_WITHIN_MS);
  try {
    return await tryRequest(entry.method, entry.path, { token, body: entry.body, headers: entry.headers, signal: controller.signal });
  } catch {
    return { status: 0, ok: false, etag: null, body: { detail: "no answer" }, retryAfter: null };
  } finally {
    clearTimeout(timer);
  }
}

// The server's answer as an entry keeps it (for the 412 choice and the errors at their fields).
const kept = (answer) => ({ status: answer.status, etag: answer.etag, body: answer.body });

// options:
//   outbox          outbox.js's
//   mine(entry)     whether this page sends it (its tournament, its kind, its token's tag)
//   token()         the token to send with
//   classify(a)     the outcome of an answer (default outcomeOf)
//   onSettled(entry, answer, outcome, immediate): after the outbox has what the answer did
//   onPass(results): after each pass, sent or not (the page redraws its counter)
export function createSync({ outbox, mine, token, classify = outcomeOf, onSettled = async () => {}, onPass = async () => {} }) {
  let chain = Promise.resolve();
  let timer = null;
  let retryTimer = null;
  let sending = false;

  async function pass({ immediate = null, patient = false } = {}) {
    const results = new Map();
    // The browser knows it has no network: nothing is tried (the online event brings it back).
    if (navigator.onLine === false) {
      await onPass(results);
      return results;
    }
    const entries = (await outbox.all()).filter(mine);
    const held = new Set(); // the tables with an entry that waits for a decision
    sending = true;
    try {
      for (const entry of entries) {
        const where = `${entry.tournament}/${entry.round}/${entry.table}`;
        if (entry.state !== "waiting") {
          held.add(where);
          continue;
        }
        if (held.has(where)) continue;
        if (patient && entry.triedAt && Date.now() - Date.parse(entry.triedAt) < RESTING_MS) break; // the order holds
        // Counted before it leaves: an entry tried once may have reached the server.
        entry.attempts = (entry.attempts || 0) + 1;
        entry.triedAt = new Date().toISOString();
        await outbox.put(entry);
        const answer = await send(entry, token());
        const outcome = classify(answer);
        const own = entry.id === immediate;
        results.set(entry.id, { outcome, answer });
        if (outcome === "sent" || (own && answer.status !== 0 && outcome !== "unauthorized")) {
          await outbox.remove(entry.id);
        } else if (!own && (outcome === "conflict" || outcome === "refused")) {
          entry.state = outcome;
          entry.answer = kept(answer);
          await outbox.put(entry);
          held.add(where);
        }
        await onSettled(entry, answer, outcome, own);
        if (outcome === "later" || outcome === "unauthorized") {
          if (outcome === "later" && answer.retryAfter && !own) later(answer.retryAfter * 1000);
          break;
        }
      }
    } finally {
      sending = false;
    }
    await onPass(results);
    return results;
  }

  // One pass at a time; a pass asked for meanwhile runs after it. Background passes asked for
  // while one already waits to start are that one (the queue never grows with the timer).
  let waiting = null;
  let waitingOptions = null;
  function run(options = {}) {
    const background = options.immediate === undefined || options.immediate === null;
    if (background && waiting) {
      waitingOptions.patient = waitingOptions.patient && Boolean(options.patient); // "now" wins
      return waiting;
    }
    const own = { ...options };
    const next = chain.then(() => {
      if (waiting === next) waiting = null;
      return pass(own);
    });
    if (background) {
      waiting = next;
      waitingOptions = own;
    }
    chain = next.catch(() => {});
    return next;
  }

  function poke(options) {
    run(options).catch(() => {});
  }

  function later(ms) {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => poke(), ms);
  }

  function start() {
    if (timer) return;
    window.addEventListener("online", () => poke());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") poke({ patient: true });
    });
    timer = setInterval(() => poke({ patient: true }), SYNC_EVERY_MS);
    poke();
  }

  return { run, poke, start, sending: () => sending };
}

// Keeps a page's view of its outbox current: reads it again after a change (here or in another
// tab; once for a burst), redraws when the browser goes online or offline, and reads it now.
// Resolves once the first read is drawn.
export function followOutbox(outbox, { reload, render, onOnline = () => {} }) {
  let timer = null;
  outbox.onChange(() => {
    clearTimeout(timer);
    timer = setTimeout(() => reload().catch(() => {}), 50);
  });
  window.addEventListener("online", () => {
    render();
    onOnline();
  });
  window.addEventListener("offline", render);
  return reload();
}
