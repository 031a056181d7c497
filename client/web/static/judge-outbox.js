// The judge page's outbox (docs/pages.md, "Offline: the outbox"), wired into the page: the
// tournament's result entries kept on this device (outbox.js), sent in order with their own
// Idempotency-Key and precondition (outbox-sync.js), and shown at the top of the page — "Saved
// on this device, not yet sent (3)" — with the entries to open, discard or send with the judge's
// new token (outbox-panel.js). It also keeps what the panel says of the connection: the live
// feed lost, and the tables shown being this device's copy of when (offline-cache.js).
//
// The page keeps its form: a save goes through save() and its answer is the page's to show; an
// entry sent or answered while the judge looks at it in the form, or discarded, is handed back
// to the page by the callbacks below.
//
//   const outbox = await mountJudgeOutbox(document.querySelector(".page > header"), {
//     tournamentId, token: () => state.token, round: () => state.round,
//     onEntries, onOpen, onSent, onAnswered, onDiscarded, onRevoked, refreshTables, onOnline, onError,
//   });
//   outbox.start();                                   // signed in: what waits is sent, now and later
//   const entry = outbox.formEntryFor(round, table);  // the entry the form shows (or null)
//   outbox.mark(round, table);                        // the table button's "Saved on this device"
//   outbox.noteRead(answer.savedAt);                  // a read: the server's now, or the device's copy
//   outbox.feedStatus(status);                        // the live feed's onStatus
//   const saved = await outbox.save({ round, table, path, body, headers, basedOn });
//   learnJudge(token, answer.body);                   // a save's entered_by: "saved by Eva" later
//
// A browser that keeps nothing on the device (no IndexedDB) gets the same object with no panel
// and no entries: save() answers {stored: false} and the page sends the result as it is.
//
// options (tournamentId, token and round are needed; a callback left out does nothing):
//   tournamentId     the page's tournament
//   token()          the judge's token now (null: none)
//   round()          the round the page shows
//   onEntries()      the entries changed: the table buttons are drawn again (their marks)
//   onOpen(entry)    "Open": the entry's table, its entry in the form
//   onSent(answer)   the entry the form shows was sent meanwhile: its table is entered (answer 200/201)
//   onAnswered(entry) the entry the form shows was answered 412 or refused meanwhile: shown again
//   onDiscarded()    the entry the form shows was discarded by the judge
//   onRevoked()      the token was refused (401)
//   refreshTables()  something was sent, or the connection is back: the tables read again
//   onOnline()       the browser is online again (after the panel is drawn)
//   onError(e)       an action of the panel failed

import { newIdempotencyKey } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { OutboxFull, openOutbox, tokenTag } from "./outbox.js";
import { mountOutboxPanel } from "./outbox-panel.js";
import { createSync, followOutbox } from "./outbox-sync.js";

const JUDGES_KEY = "tallyd.judge-names"; // token tag → the judge's name, as the server answered

// The name the server gave this token's judge, or null.
function knownJudge(token) {
  try {
    return JSON.parse(localStorage.getItem(JUDGES_KEY) || "{}")[tokenTag(token)] || null;
  } catch {
    return null;
  }
}

// Remembers the name the server gives this token's judge (a save's entered_by, `table`), for the
// entries saved later ("saved by Eva at 14:32").
export function learnJudge(token, table) {
  const name = table && table.entered_by && table.entered_by.name;
  if (!name || !token) return;
  try {
    const names = JSON.parse(localStorage.getItem(JUDGES_KEY) || "{}");
    names[tokenTag(token)] = name;
    const kept = Object.entries(names).slice(-20); // a device sees few judges
    localStorage.setItem(JUDGES_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // not remembered: the entries say "saved at 14:32" without the name
  }
}

const ignore = () => {};

export async function mountJudgeOutbox(anchor, options) {
  const { tournamentId, token, round } = options;
  const onEntries = options.onEntries || ignore;
  const onRevoked = options.onRevoked || ignore;
  const refreshTables = options.refreshTables || (async () => {});
  const onError = options.onError || ignore;

  const outbox = await openOutbox(); // null: this browser keeps nothing
  let entries = []; // the outbox's entries of this tournament, oldest first
  let formEntry = null; // the entry shown in the form
  let since = null; // when the tables shown were read, if they are the device's copy (no connection)
  let feedLost = false; // the live feed lost the server
  let full = 0; // the outbox was full at the last save (its limit)
  let panel = null;
  let sync = null;
  // Something reached the server since the outbox last emptied: only then is its emptying
  // "everything has been sent" (a refused or discarded entry leaves it unsent).
  let sentSome = false;

  // The newest entry of a table still on the device, or null.
  function latestEntry(r, number) {
    const found = entries.filter((e) => e.round === r && e.table === number);
    return found.length ? found[found.length - 1] : null;
  }

  function render() {
    if (!panel) return;
    const now = token();
    panel.render({
      entries,
      tag: now ? tokenTag(now) : null,
      offline: navigator.onLine === false || feedLost,
      since,
      sending: Boolean(sync && sync.sending()),
      full,
      sent: sentSome,
    });
    if (entries.length === 0) sentSome = false;
  }

  async function reload() {
    if (!outbox) return;
    const all = await outbox.all();
    entries = all.filter((e) => e.kind === "result" && e.tournament === tournamentId);
    render();
    onEntries();
  }

  // An entry sent from the outbox while the judge was elsewhere: the table shown follows it.
  async function settled(entry, answer, outcome, own) {
    if (outcome === "sent") {
      sentSome = true;
      learnJudge(token(), answer.body);
    }
    if (own || outcome === "later") return;
    if (outcome === "unauthorized") return onRevoked();
    const shown = formEntry && formEntry.id === entry.id && round() === entry.round;
    if (!shown) return;
    formEntry = null;
    await reload();
    if (outcome === "sent") await (options.onSent || ignore)(answer);
    else await (options.onAnswered || ignore)(entry); // its 412 choice or its errors
  }

  // After each pass: the counter, and the tables as the server has them now when any was sent.
  async function passed(results) {
    const sent = [...results.values()].some((r) => r.outcome === "sent");
    if (sent) sentSome = true;
    await reload();
    if (sent) await refreshTables();
  }

  // Discarded by the judge's choice (the panel asked first).
  async function discardEntry(entry) {
    await outbox.remove(entry.id);
    const shown = formEntry && formEntry.id === entry.id;
    await reload();
    if (shown) {
      formEntry = null;
      await (options.onDiscarded || ignore)();
    }
    document.getElementById("outbox-summary").focus();
  }

  // The entries saved with another token (revoked meanwhile, or another judge's on this device)
  // are sent with this one, as the judge asked. Each gets a new Idempotency-Key: a key belongs to
  // the token that sent it (tallyd refuses it with another), and the entry's precondition still
  // keeps it from being applied over anything entered since.
  async function adoptEntries() {
    const tag = tokenTag(token());
    for (const entry of entries.filter((e) => e.tokenTag !== tag)) {
      await outbox.put({
        ...entry,
        tokenTag: tag,
        judge: knownJudge(token()),
        headers: { ...entry.headers, "Idempotency-Key": newIdempotencyKey() },
      });
    }
    await reload();
    sync.poke();
  }

  if (outbox) {
    panel = mountOutboxPanel(anchor, {
      onOpen: (entry) => (options.onOpen || ignore)(entry),
      onDiscard: (entry) => discardEntry(entry).catch(onError),
      onAdopt: () => adoptEntries().catch(onError),
      onSendNow: () => sync.poke(),
    });
    sync = createSync({
      outbox,
      // This tournament's results saved with the token the page has now.
      mine: (e) => Boolean(token()) && e.kind === "result" && e.tournament === tournamentId && e.tokenTag === tokenTag(token()),
      token,
      onSettled: settled,
      onPass: passed,
    });
    await followOutbox(outbox, { reload, render, onOnline: options.onOnline || ignore });
  }

  return {
    // Whether this browser keeps entries on the device.
    keeps: Boolean(outbox),

    // Sends what waits (with the page's token), now and from now on.
    start() {
      if (sync) sync.start();
    },

    // The panel drawn again (the token changed, the connection, …).
    render,

    // How many entries of this tournament the device keeps, whatever their token.
    count: () => entries.length,

    // The entry the form shows for a table: its newest one still on the device, or null.
    formEntryFor(r, number) {
      formEntry = latestEntry(r, number);
      return formEntry;
    },

    // "Saved on this device" / "Needs your decision" for a table's button, or null.
    mark(r, number) {
      const entry = latestEntry(r, number);
      if (!entry) return null;
      const decide = entry.state === "conflict" || entry.state === "refused";
      return el("span", { class: `outbox-mark${decide ? " decide" : ""}` }, t(decide ? "outbox.mark.decide" : "outbox.mark.waiting"));
    },

    // A read the page made: the server's now (savedAt null), or this device's copy of savedAt.
    noteRead(savedAt) {
      if (since === savedAt) return;
      since = savedAt;
      render();
    },

    // The live feed's connection: lost is said in the panel; back, what waits is sent and the
    // tables are read again (also when they were this device's copy).
    feedStatus(status) {
      const back = status === "live" && feedLost;
      feedLost = status === "lost";
      render();
      if (status !== "live") return;
      if (sync) sync.poke();
      if (back || since) refreshTables();
    },

    // A table's result kept on the device first, then sent (after anything older in the
    // outbox), replacing the entry the form showed (the judge's newer word; had the older one
    // reached the server, the new one's precondition says so with a 412). Answers
    //   {stored: false}               the device keeps nothing: the page sends it as it is;
    //   {stored: false, full: limit}  the outbox is full: nothing kept, nothing sent;
    //   {stored: true, outcome: "unauthorized"}  kept; the token was refused;
    //   {stored: true, answer: null}  kept: no answer (no network), sent when the connection is back;
    //   {stored: true, answer}        the server's answer, for the page to show (the entry is gone).
    async save({ round: r, table, path, body, headers, basedOn }) {
      if (!outbox) return { stored: false };
      const entry = {
        kind: "result",
        tournament: tournamentId,
        round: r,
        table,
        method: "PUT",
        path,
        body,
        headers,
        basedOn,
        tokenTag: tokenTag(token()),
        judge: knownJudge(token()),
        enteredAt: new Date().toISOString(),
        state: "waiting",
        answer: null,
        attempts: 0,
      };
      const replaced = formEntry;
      let id;
      try {
        id = await outbox.add(entry, replaced ? replaced.id : null);
      } catch (e) {
        if (!(e instanceof OutboxFull)) return { stored: false };
        full = e.limit;
        render();
        return { stored: false, full: e.limit };
      }
      full = 0;
      formEntry = null;
      await reload();
      const result = (await sync.run({ immediate: id })).get(id);
      if (result && result.outcome === "unauthorized") return { stored: true, outcome: "unauthorized", answer: null };
      if (!result || result.answer.status === 0) {
        await reload();
        return { stored: true, answer: null };
      }
      return { stored: true, outcome: result.outcome, answer: result.answer };
    },

    // The form's entry is no longer shown (the judge chose another judge's entry over it);
    // `discarded`, an entry that waited for that choice, leaves the device.
    async dropFormEntry(discarded = null) {
      if (discarded && outbox) await outbox.remove(discarded.id);
      formEntry = null;
      await reload();
    },
  };
}
