// The table's page's outbox (report.js; docs/pages.md, "Offline: the outbox"): the proposals of
// this table kept on the phone (outbox.js) and sent, with their own Idempotency-Key, when the
// connection is back (outbox-sync.js), and a line under the page's status that says so — no
// connection (the table as it was at 14:32), the proposal kept and why (not sent yet, refused, a
// link no longer valid) — with "Discard", which asks first.
//
// The page keeps its form and its messages: a send goes through save() and its answer is the
// page's to show; a proposal sent by itself later is handed back by onSent.
//
//   const kept = await mountReportOutbox($("status"), {
//     tournamentId, scope: { round, table }, token: () => state.token, refusal: () => state.refusal,
//     since: () => state.since, onSent, onRevoked, onOnline,
//   });
//   kept.start();                          // what waits is sent, now and later
//   kept.latest();                         // the newest proposal kept for the table (the form shows it)
//   const sent = await kept.save(body);    // {stored, full, answer}: see save()
//   kept.render();                         // the line drawn again (the token, the refusal, the copy)
//
// A browser that keeps nothing on the phone (no IndexedDB) gets the same object with no entries:
// the line still says when there is no connection, and save() answers {stored: false}.
//
// options:
//   tournamentId, scope   the page's tournament, round and table
//   token()               the table's token now (null: none)
//   refusal()             the page's refusal ("token", "round_closed", "off") or null
//   since()               when the table shown was read, if it is the phone's copy (no connection)
//   onSent(answer)        a kept proposal was sent by itself (the connection came back)
//   onRevoked()           the table's token was refused
//   onOnline()            the browser is online again (after the line is drawn)

import { newIdempotencyKey, tournamentPath } from "./api.js";
import { el, setChildren } from "./dom.js";
import { localTime } from "./format.js";
import { t } from "./i18n.js";
import { OutboxFull, openOutbox, tokenTag } from "./outbox.js";
import { createSync, followOutbox, outcomeOf } from "./outbox-sync.js";
import { refusalOf } from "./report-token.js";

const ignore = () => {};

export async function mountReportOutbox(anchor, options) {
  const { tournamentId, scope, token, refusal, since } = options;
  const proposalsPath = `${tournamentPath(tournamentId)}/rounds/${scope.round}/tables/${scope.table}/proposals`;

  const outbox = await openOutbox(); // null: this browser keeps nothing
  let entries = []; // the outbox's proposals for this table, oldest first
  let asking = null; // the entry whose "Discard?" question is open
  let sync = null;

  function latest() {
    return entries.length ? entries[entries.length - 1] : null;
  }

  async function reload() {
    if (!outbox) return;
    const all = await outbox.all();
    entries = all.filter((e) => e.kind === "proposal" && e.tournament === tournamentId && e.round === scope.round && e.table === scope.table);
    render();
  }

  function line() {
    let node = document.getElementById("outbox-line");
    if (!node) {
      node = el("div", { id: "outbox-line", class: "outbox-line-report", role: "status", hidden: true });
      anchor.after(node);
    }
    return node;
  }

  function render() {
    if (!scope.table) return;
    const node = line();
    const copyOf = since();
    const offline = navigator.onLine === false || Boolean(copyOf);
    const parts = [];
    if (offline) {
      parts.push(el("p", { class: "outbox-offline" }, copyOf ? t("report.outbox.offline_since", { time: localTime(copyOf) }) : t("report.outbox.offline")));
    }
    const entry = latest();
    if (entry) {
      const held = !token() || refusal() === "token" || entry.tokenTag !== tokenTag(token());
      const body = (entry.answer && entry.answer.body) || {};
      const text = held
        ? t("report.outbox.token")
        : entry.state === "refused"
          ? t("report.outbox.refused", { detail: body.detail || body.title || String(entry.answer.status) })
          : t("report.outbox.kept", { time: localTime(entry.enteredAt) });
      parts.push(el("p", { class: "outbox-kept", dataset: { state: held ? "held" : entry.state } }, text));
      parts.push(discardButtons(entry));
    }
    setChildren(node, parts);
    node.hidden = !parts.length;
    node.className = `outbox-line-report message ${entry && entry.state !== "waiting" ? "error" : "warn"}`;
  }

  function discardButtons(entry) {
    const where = { round: String(entry.round), table: String(entry.table) };
    if (asking === entry.id) {
      return el(
        "p",
        { class: "outbox-confirm" },
        el("span", {}, t("outbox.discard_question", where)),
        el("button", { type: "button", class: "danger", onclick: () => discard(entry) }, t("outbox.discard_yes")),
        el("button", { type: "button", class: "secondary", onclick: () => ((asking = null), render()) }, t("outbox.keep")),
      );
    }
    const button = el("button", { type: "button", class: "secondary", "aria-label": t("outbox.discard_entry", where) }, t("outbox.discard"));
    button.addEventListener("click", () => {
      asking = entry.id;
      render();
      line().querySelector(".outbox-confirm button")?.focus();
    });
    return el("p", { class: "outbox-actions" }, button);
  }

  // Every proposal kept for this table goes, by the player's choice.
  async function discard(entry) {
    asking = null;
    for (const e of entries.filter((x) => x.id <= entry.id)) await outbox.remove(e.id);
    await reload();
  }

  // A proposal sent from the outbox while the player was not looking (the connection came back).
  async function settled(entry, answer, outcome, own) {
    if (own) return;
    if (outcome === "sent") {
      await (options.onSent || ignore)(answer);
      return;
    }
    if (outcome === "unauthorized") (options.onRevoked || ignore)();
  }

  if (outbox) {
    sync = createSync({
      outbox,
      mine: (e) =>
        Boolean(token()) &&
        !refusal() &&
        e.kind === "proposal" &&
        e.tournament === tournamentId &&
        e.round === scope.round &&
        e.table === scope.table &&
        e.tokenTag === tokenTag(token()),
      token,
      // The table token's refusals as the page reads them: a link no longer valid keeps the
      // proposal (it goes with a valid one); too many requests waits.
      classify: (answer) => {
        const refused = refusalOf(answer);
        if (refused === "token") return "unauthorized";
        if (refused === "rate") return "later";
        return outcomeOf(answer);
      },
      onSettled: settled,
      onPass: () => reload(),
    });
    await followOutbox(outbox, { reload, render, onOnline: options.onOnline || ignore });
  }

  return {
    // Whether this browser keeps proposals on the phone.
    keeps: Boolean(outbox),

    // Sends what waits, now and from now on.
    start() {
      if (sync) sync.start();
    },

    // Now, in the background (the live feed is back).
    poke() {
      if (sync) sync.poke();
    },

    render,
    latest,

    // The proposal kept on the phone first, then sent. The same body as the entry still kept is
    // that entry again, with its key (a send whose answer was lost is answered, not recorded
    // twice); another body takes its place. Answers
    //   {stored: false}               the phone keeps nothing: the page sends it as it is;
    //   {stored: false, full: limit}  the outbox is full: nothing kept, nothing sent;
    //   {stored: true, answer: null}  kept: no answer (no network), sent when the connection is back;
    //   {stored: true, answer}        the server's answer, for the page to show.
    async save(body) {
      if (!outbox) return { stored: false };
      const json = JSON.stringify(body);
      const before = latest();
      let id;
      if (before && before.state === "waiting" && before.tokenTag === tokenTag(token()) && JSON.stringify(before.body) === json) {
        id = before.id;
      } else {
        const entry = {
          kind: "proposal",
          tournament: tournamentId,
          round: scope.round,
          table: scope.table,
          method: "POST",
          path: proposalsPath,
          body,
          headers: { "Idempotency-Key": newIdempotencyKey() },
          tokenTag: tokenTag(token()),
          judge: null,
          enteredAt: new Date().toISOString(),
          state: "waiting",
          answer: null,
          attempts: 0,
        };
        try {
          id = await outbox.add(entry, before ? before.id : null);
        } catch (e) {
          if (!(e instanceof OutboxFull)) return { stored: false };
          return { stored: false, full: e.limit };
        }
      }
      const result = (await sync.run({ immediate: id })).get(id);
      await reload();
      return { stored: true, answer: result && result.answer.status !== 0 ? result.answer : null };
    },
  };
}
