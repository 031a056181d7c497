// The judge page's outbox, as the judge sees it (judge-outbox.js mounts it for judge.js; the
// entries are outbox.js's):
//
//  - a line that stays at the top of the screen while anything waits: "Saved on this device, not
//    yet sent (3)" with "Send now";
//  - under it, why: "No connection: the tables as they were at 14:32. …"; "1 entry needs your
//    decision."; entries saved with another token (a revoked one, or another judge's) with "Send
//    them with my token";
//  - the entries, oldest first (the order they are sent in), behind "The entries on this
//    device" (open by itself when one needs a decision): round and table, saved by whom and
//    when, what became of it (not sent yet; entered meanwhile by Petr — choose which stands;
//    refused — why), each with "Open" (the table, its entry in the form) and "Discard", which
//    asks first: nothing leaves the outbox unsent without the judge saying so.
//
//   const panel = mountOutboxPanel(anchor, { onOpen, onDiscard, onAdopt, onSendNow });
//   panel.render({ entries, tag, offline, since, sending, full });

import { el, person, setChildren } from "./dom.js";
import { localTime } from "./format.js";
import { t, tParts } from "./i18n.js";

const SENT_SHOWN_MS = 8000; // "Everything … has been sent." stays that long

// Inserts the line, the note and the list after `anchor` (the page's header).
export function mountOutboxPanel(anchor, { onOpen, onDiscard, onAdopt, onSendNow }) {
  const summary = el("p", { id: "outbox-summary", class: "outbox-summary", role: "status", tabindex: "-1" });
  const sendNow = el("button", { type: "button", id: "outbox-send", class: "secondary" }, t("outbox.send_now"));
  sendNow.addEventListener("click", onSendNow);
  const bar = el("div", { id: "outbox-bar", class: "outbox-bar", hidden: true }, summary, sendNow);
  const note = el("p", { id: "outbox-note", class: "outbox-note message warn", hidden: true });

  const adopt = el("button", { type: "button", id: "outbox-adopt" }, t("outbox.adopt"));
  adopt.addEventListener("click", onAdopt);
  const heldLine = el("p", { id: "outbox-held", class: "outbox-held" });
  const heldBox = el("div", { class: "outbox-held-box" }, heldLine, adopt);
  const list = el("ol", { id: "outbox-entries", class: "outbox-entries" });
  const details = el("details", { id: "outbox", class: "outbox", hidden: true }, el("summary", {}, t("outbox.heading")), heldBox, list);
  anchor.after(bar, note, details);

  const asking = new Set(); // the entries whose "Discard?" question is open
  let last = { entries: [] };
  let hadEntries = false;
  let decided = 0; // the entries that needed a decision at the last render
  let heldBefore = 0; // and those saved with another token
  let sentUntil = 0;
  let sentTimer = null;

  function stateText(entry, held) {
    if (held) return t("outbox.state.held");
    if (entry.state === "conflict") {
      const table = entry.answer && entry.answer.body && entry.answer.body.table;
      const judge = table && table.entered_by ? table.entered_by.name : t("judge.another_judge");
      return tParts("outbox.state.conflict", { judge: person(judge) });
    }
    if (entry.state === "refused") {
      const body = (entry.answer && entry.answer.body) || {};
      return t("outbox.state.refused", { detail: body.detail || body.title || String(entry.answer && entry.answer.status) });
    }
    return t("outbox.state.waiting");
  }

  function entryItem(entry, tag) {
    const held = entry.tokenTag !== tag;
    const where = { round: String(entry.round), table: String(entry.table) };
    const when = localTime(entry.enteredAt);
    const open = el("button", { type: "button", class: "secondary", "aria-label": t("outbox.open_entry", where) }, t("outbox.open"));
    open.addEventListener("click", () => onOpen(entry));
    const discard = el("button", { type: "button", class: "secondary", "aria-label": t("outbox.discard_entry", where) }, t("outbox.discard"));
    discard.addEventListener("click", () => {
      asking.add(entry.id);
      render(last);
      list.querySelector(`[data-entry="${entry.id}"] .outbox-confirm button`)?.focus();
    });
    const keep = () => {
      asking.delete(entry.id);
      render(last);
    };
    const buttons = asking.has(entry.id)
      ? el(
          "p",
          { class: "outbox-confirm" },
          el("span", {}, t("outbox.discard_question", where)),
          el("button", { type: "button", class: "danger", onclick: () => (asking.delete(entry.id), onDiscard(entry)) }, t("outbox.discard_yes")),
          el("button", { type: "button", class: "secondary", onclick: keep }, t("outbox.keep")),
        )
      : el("p", { class: "outbox-actions" }, open, discard);
    return el(
      "li",
      { dataset: { entry: entry.id, state: held ? "held" : entry.state } },
      el(
        "div",
        { class: "outbox-what" },
        el("strong", {}, t("outbox.entry", where)),
        el("span", { class: "outbox-when" }, entry.judge ? tParts("outbox.saved_by", { judge: person(entry.judge), time: when }) : t("outbox.saved_at", { time: when })),
        el("span", { class: "outbox-state" }, stateText(entry, held)),
      ),
      buttons,
    );
  }

  // options: entries (the tournament's, oldest first), tag (the token's, outbox.js tokenTag; null
  // while the page has none), offline (no connection now), since (the time the tables shown were
  // read, when they are this device's copy), sending (a pass under way), full (the limit, when
  // the last save found the outbox full), sent (the last pass sent something: the server took
  // it). "Everything … has been sent" only then: an entry that left because it was refused, or
  // discarded, was not sent.
  function render(options) {
    last = options;
    const { entries, tag, offline, since, sending, full, sent } = options;
    const count = entries.length;
    if (hadEntries && count === 0 && sent) sentUntil = Date.now() + SENT_SHOWN_MS;
    hadEntries = count > 0;
    const sentNote = count === 0 && Date.now() < sentUntil;
    if (sentNote) {
      clearTimeout(sentTimer);
      sentTimer = setTimeout(() => render(last), sentUntil - Date.now() + 10);
    }

    const decide = entries.filter((e) => e.tokenTag === tag && (e.state === "conflict" || e.state === "refused")).length;
    const held = tag ? entries.filter((e) => e.tokenTag !== tag).length : 0; // no token yet: none is another's
    const waiting = entries.filter((e) => e.tokenTag === tag && e.state === "waiting").length;
    summary.textContent = count ? t("outbox.summary", { count }) : t("outbox.all_sent");
    summary.dataset.count = String(count);
    bar.hidden = !(count || sentNote);
    bar.dataset.state = decide ? "decide" : count ? "waiting" : "sent";
    sendNow.hidden = !waiting || offline;
    sendNow.disabled = Boolean(sending);
    sendNow.textContent = sending ? t("outbox.sending") : t("outbox.send_now");

    const notes = [];
    if (full) notes.push(t("outbox.full", { limit: full }));
    if (offline || since) notes.push(since ? t("outbox.offline_since", { time: localTime(since) }) : t("outbox.offline"));
    if (decide) notes.push(t("outbox.decide", { count: decide }));
    note.textContent = notes.join(" ");
    note.hidden = !notes.length;
    note.className = `outbox-note message ${decide || full ? "error" : "warn"}`;

    details.hidden = !count;
    if (decide > decided || held > heldBefore) details.open = true; // a decision to make: shown
    decided = decide;
    heldBefore = held;
    heldLine.textContent = held ? t("outbox.held", { count: held }) : "";
    heldBox.hidden = !held;
    adopt.hidden = !tag; // no token yet: the judge enters one first
    setChildren(list, entries.map((entry) => entryItem(entry, tag)));
  }

  return { render };
}
