// "Proposals waiting": the results the players proposed from their tables (self-reporting, with
// the table's QR code) — or a judge on their behalf — that wait for a judge's approval, for one
// round. The judge page (judge.js) and the organizer's console (console-self-reporting.js) show
// the same list through this module.
//
// Every proposal shows what the server says of it (GET …/rounds/{r}/proposals): the table, who
// proposed it (the table, or a judge by name) and when, the result it would give per player
// (the server's `result`, as …/check computes it, worded by the game's fields from GET
// /v1/games), the flags raised against it with their notes, and — when the table already has a
// result — the server's `differences` (field, player, entered → proposed). Nothing is computed
// here: no rule, no comparison of values.
//
// Approving is POST …/proposals/{id}/approve with the precondition a result entry needs, taken
// from the round sheet as the table stands: If-None-Match: * for a table without a result, else
// If-Match: "<version>"; a reason when the proposal replaces an entered result. Its answers are
// shown as the judge page shows a save's: 412 "Already entered by Eva at 14:32." with the entry
// in effect, 422 at its field (the reason), 409 "no longer waiting" with the list read again.
// Rejecting is POST …/reject with a reason. Both carry an Idempotency-Key, so a retried click is
// not doubled.
//
//   const proposals = mountProposals($("proposals"), {
//     tournamentId, call, playerName, game: () => "catan", description: () => games.get("catan"),
//     sheet: () => state.sheet, onApproved: (table) => …, onChange: (pending) => …, level: 2,
//   });
//   proposals.show({ round: 2, enabled: true });   // self_reporting of the tournament
//   proposals.onEvent(message.event);              // the live feed's events
//
// `call(method, path, body, headers)` answers {status, ok, etag, body} (status 0 when the
// server cannot be reached) and never throws.

import { hasRule, newIdempotencyKey, problemDetail, tournamentPath } from "./api.js";
import { clear, el, person, say, setChildren } from "./dom.js";
import { localTime } from "./format.js";
import { t, tParts } from "./i18n.js";
import { differenceLabel, differenceValue } from "./proposal-differences.js";
import { resultTable } from "./table-result.js";

// The round of an event's stream (t/{t}/r/{r}/table/{n}[/proposals]), or null.
export function streamRound(event) {
  const match = /\/r\/(\d+)\/table\/\d+(?:\/proposals)?$/.exec((event && event.stream) || "");
  return match ? Number(match[1]) : null;
}

let counter = 0;
const newId = (prefix) => `${prefix}-${++counter}`;

export function mountProposals(root, options) {
  const { tournamentId, call, playerName } = options;
  const level = options.level || 2;
  const onApproved = options.onApproved || (() => {});
  const onChange = options.onChange || (() => {});
  const state = {
    round: null,
    enabled: false,
    proposals: [], // the pending ones, by table number, as the server last said
    sheet: null, // the round sheet read by this module (when the page has none of its own)
    loaded: false,
    loadFailed: false, // the last read of the proposals failed (its error is shown)
    loading: 0,
    timer: null,
    notes: new Map(), // proposal id → a message node kept across re-renders (a 412's entry)
    keys: new Map(), // "id/action" → the Idempotency-Key of a request not answered yet
    busy: new Set(), // proposal ids with a request under way
  };

  // The panel: its heading, the off / empty line, the status of the last action, the list.
  const heading = el(`h${level}`, { id: newId("proposals-heading"), class: "proposals-heading" }, t("proposals.heading"));
  const info = el("p", { class: "proposals-info muted" });
  const status = el("p", { class: "proposals-status message", role: "status", hidden: true });
  const list = el("ul", { class: "proposal-list" });
  root.setAttribute("aria-labelledby", heading.id);
  setChildren(root, heading, info, status, list);

  const roundPath = () => `${tournamentPath(tournamentId)}/rounds/${state.round}`;
  const proposalPath = (p, action) => `${roundPath()}/tables/${p.table}/proposals/${p.id}/${action}`;

  // The table as the page has it (its status and version: the approval's precondition).
  function tableOf(number) {
    const pageSheet = options.sheet ? options.sheet() : null;
    const sheet = pageSheet && pageSheet.round === state.round ? pageSheet : state.sheet;
    return (sheet && sheet.tables.find((table) => table.table === number)) || null;
  }

  // ---- reading -------------------------------------------------------------------------------

  function show({ round, enabled }) {
    const changed = round !== state.round || Boolean(enabled) !== state.enabled;
    if (round !== state.round) {
      state.proposals = [];
      state.loaded = false;
      state.notes.clear();
      say(status, "");
    }
    state.round = round;
    state.enabled = Boolean(enabled);
    if (changed || !state.loaded) refresh();
  }

  // Reads the round's pending proposals again (and the round sheet, when the page has none).
  async function refresh() {
    clearTimeout(state.timer);
    const ticket = ++state.loading;
    if (!state.round || !state.enabled) {
      state.proposals = [];
      state.loaded = true;
      render();
      return;
    }
    const round = state.round;
    const needSheet = !options.sheet;
    const [answer, sheetAnswer] = await Promise.all([
      call("GET", `${roundPath()}/proposals`),
      needSheet ? call("GET", roundPath()) : Promise.resolve(null),
    ]);
    if (ticket !== state.loading || round !== state.round) return; // a newer read is under way
    if (sheetAnswer && sheetAnswer.ok) state.sheet = sheetAnswer.body;
    if (answer.status === 409 && hasRule(answer, "self_reporting.off")) {
      state.enabled = false;
      state.proposals = [];
      state.loaded = true;
      render();
      return;
    }
    if (!answer.ok) {
      say(status, t("proposals.cannot_load", { error: problemText(answer) }), "error");
      state.loadFailed = true;
      return;
    }
    // Read again (the connection is back): the old "cannot be read" is no longer true.
    if (state.loadFailed) say(status, "");
    state.loadFailed = false;
    state.proposals = (answer.body.proposals || []).filter((p) => p.status === "pending");
    state.loaded = true;
    render();
  }

  // A live event: the round's proposals are read again a moment later (several events of one
  // action, a burst of tables, come as one read). A result entered at a table of the round
  // changes what its proposal replaces, so every table event of the round counts.
  function onEvent(event) {
    if (!event || !state.enabled || !state.round) return;
    if (streamRound(event) !== state.round) return;
    clearTimeout(state.timer);
    state.timer = setTimeout(refresh, 200);
  }

  // ---- drawing ---------------------------------------------------------------------------------

  function render() {
    // Off, the panel is one line saying so (the judge page's pages of a tournament that never
    // uses self-reporting stay quiet).
    list.hidden = !state.enabled;
    heading.hidden = !state.enabled;
    if (!state.enabled) {
      info.textContent = t("proposals.off");
      setChildren(list);
      onChange([]);
      return;
    }
    info.textContent = !state.round
      ? t("proposals.no_round")
      : state.proposals.length
        ? t("proposals.count", { count: state.proposals.length, round: state.round })
        : t("proposals.none", { round: state.round });
    // An item already shown keeps its node (and what is typed in it, and the focus) when the
    // server says the same of it; a changed one is drawn again with the reason carried over.
    const before = new Map([...list.querySelectorAll(":scope > li[data-proposal]")].map((li) => [li.dataset.proposal, li]));
    const items = state.proposals.map((p) => {
      const signature = JSON.stringify([p, tableOf(p.table)?.version ?? null]);
      const old = before.get(String(p.id));
      if (old && old.dataset.signature === signature) return old;
      const item = proposalItem(p);
      item.dataset.signature = signature;
      if (old) carryOver(old, item);
      return item;
    });
    for (const id of state.notes.keys()) if (!state.proposals.some((p) => p.id === id)) state.notes.delete(id);
    place(items);
    onChange(state.proposals);
  }

  // The list made `items` with the fewest moves: a kept item is never taken out and put back
  // (that would take the focus from a reason being typed). Should the focus be lost all the
  // same, it is put back where it was.
  function place(items) {
    const active = list.contains(document.activeElement) ? document.activeElement : null;
    const selection = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
    const wanted = new Set(items);
    for (const child of [...list.children]) if (!wanted.has(child)) child.remove();
    items.forEach((item, i) => {
      const at = list.children[i];
      if (at !== item) list.insertBefore(item, at || null);
    });
    if (active && active.isConnected && document.activeElement !== active) {
      active.focus();
      if (selection) active.setSelectionRange(...selection);
    }
  }

  function carryOver(old, item) {
    const from = old.querySelector('textarea[name="reason"]');
    const to = item.querySelector('textarea[name="reason"]');
    if (!from || !to) return;
    to.value = from.value;
    if (document.activeElement === from) {
      // Re-rendered while typed in: the focus stays where it was.
      queueMicrotask(() => {
        to.focus();
        to.setSelectionRange(from.selectionStart, from.selectionEnd);
      });
    }
  }

  function tableTitle(p) {
    const table = tableOf(p.table);
    return table && table.league
      ? t("proposals.table_in_league", { table: String(p.table), league: table.league })
      : t("proposals.table", { table: String(p.table) });
  }

  function proposalItem(p) {
    const reasonId = newId("proposal-reason");
    const hintId = newId("proposal-reason-hint");
    const errorId = newId("proposal-reason-error");
    const table = tableOf(p.table);
    const who = p.from_table
      ? t("proposals.from_table", { time: localTime(p.at) })
      : tParts("proposals.by_judge", { judge: person(p.by || t("proposals.someone")), time: localTime(p.at) });
    const result = p.result
      ? resultTable(options.game(), { result: p.result, houses: table && table.houses }, {
          playerName,
          description: options.description(),
          caption: t("proposals.result_caption", { table: String(p.table) }),
        })
      : el("p", { class: "muted" }, t("proposals.no_result"));
    // Heard, every proposal's controls name their table ("Approve, table 2"); seen, the card does.
    const named = (text) => `${text}${t("proposals.for_table", { table: String(p.table) })}`;
    const reason = el("textarea", {
      id: reasonId,
      name: "reason",
      "aria-label": named(t("proposals.reason")),
      rows: "2",
      maxlength: "1000",
      "aria-describedby": hintId,
    });
    const approve = el("button", { type: "button", "aria-label": named(t("proposals.approve")), dataset: { action: "approve" } }, t("proposals.approve"));
    const reject = el("button", { type: "button", class: "secondary", "aria-label": named(t("proposals.reject")), dataset: { action: "reject" } }, t("proposals.reject"));
    const item = el(
      "li",
      { class: `proposal${p.replaces_result ? " replaces" : ""}`, dataset: { proposal: p.id, table: p.table } },
      el(`h${level + 1}`, { class: "proposal-title" }, tableTitle(p)),
      el("p", { class: "proposal-meta" }, who),
      p.note ? el("p", { class: "proposal-note" }, tParts("proposals.note", { note: el("q", { dir: "auto" }, p.note) })) : null,
      el("div", { class: "table-scroll" }, result),
      state.notes.get(p.id) || null,
      p.replaces_result ? differencesBlock(p) : null,
      flagsBlock(p),
      el("div", { class: "proposal-errors message error", role: "alert", tabindex: "-1", hidden: true }),
      el(
        "p",
        { class: "proposal-reason" },
        el("label", { for: reasonId }, t("proposals.reason")),
        reason,
        el("span", { id: hintId, class: "hint muted" }, t(p.replaces_result ? "proposals.reason_hint_correction" : "proposals.reason_hint")),
        el("span", { id: errorId, class: "field-error" }),
      ),
      el("p", { class: "buttons proposal-buttons" }, approve, reject),
    );
    approve.addEventListener("click", () => approveProposal(p, item));
    reject.addEventListener("click", () => rejectProposal(p, item));
    if (state.busy.has(p.id)) for (const b of [approve, reject]) b.disabled = true;
    return item;
  }

  // What approving changes in the entered result: the server's `differences`, each a row
  // "Eva Nováková · Knights: 3 → 2".
  function differencesBlock(p) {
    const differences = Array.isArray(p.differences) ? p.differences : [];
    return el(
      "div",
      { class: "proposal-replaces" },
      el("p", { class: "message warn" }, t("proposals.replaces", { table: String(p.table) })),
      differences.length
        ? el(
            "ul",
            { class: "proposal-differences", "aria-label": t("proposals.differences") },
            differences.map((d) =>
              el(
                "li",
                { class: "proposal-difference", dataset: { field: d.field, player: d.player || "" } },
                d.player
                  ? tParts("proposals.difference", {
                      player: person(playerName(d.player)),
                      field: fieldLabel(d.field),
                      entered: el("span", { class: "entered" }, differenceValue(d.entered)),
                      proposed: el("strong", { class: "proposed" }, differenceValue(d.proposed)),
                    })
                  : tParts("proposals.difference_table", {
                      field: fieldLabel(d.field),
                      entered: el("span", { class: "entered" }, differenceValue(d.entered)),
                      proposed: el("strong", { class: "proposed" }, differenceValue(d.proposed)),
                    }),
              ),
            ),
          )
        : el("p", { class: "muted" }, t("proposals.no_differences")),
    );
  }

  function flagsBlock(p) {
    const flags = Array.isArray(p.flags) ? p.flags : [];
    if (!flags.length) return null;
    return el(
      "div",
      { class: "proposal-flags" },
      el("p", { class: "proposal-flags-heading" }, t("proposals.flags", { count: flags.length })),
      el(
        "ul",
        {},
        flags.map((f) =>
          el(
            "li",
            { class: "proposal-flag", dataset: { seq: f.seq } },
            el("q", { dir: "auto" }, f.note || ""),
            " ",
            el(
              "span",
              { class: "muted" },
              f.from_table
                ? t("proposals.flag_from_table", { time: localTime(f.at) })
                : tParts("proposals.flag_by", { judge: person(f.by || t("proposals.someone")), time: localTime(f.at) }),
            ),
          ),
        ),
      ),
    );
  }

  const fieldLabel = (name) => differenceLabel(name, { game: options.game(), description: options.description() });

  // ---- acting ----------------------------------------------------------------------------------

  function parts(item) {
    return {
      reason: item.querySelector('textarea[name="reason"]'),
      error: item.querySelector(".proposal-reason .field-error"),
      hint: item.querySelector(".proposal-reason .hint"),
      errors: item.querySelector(".proposal-errors"),
      buttons: [...item.querySelectorAll("button[data-action]")],
    };
  }

  function clearItemErrors(item) {
    const { reason, error, hint, errors } = parts(item);
    error.textContent = "";
    reason.removeAttribute("aria-invalid");
    reason.setAttribute("aria-describedby", hint.id);
    errors.hidden = true;
    clear(errors);
  }

  // A message at the reason: the textarea marked invalid and described by it.
  function reasonError(item, text) {
    const { reason, error, hint } = parts(item);
    error.textContent = text;
    reason.setAttribute("aria-invalid", "true");
    reason.setAttribute("aria-describedby", `${error.id} ${hint.id}`);
    reason.focus();
  }

  function itemErrors(item, lines) {
    const { errors } = parts(item);
    setChildren(errors, lines.length === 1 ? el("p", {}, lines[0]) : el("ul", {}, lines.map((line) => el("li", {}, line))));
    errors.hidden = false;
    errors.focus();
  }

  // The server's errors of a 422: the reason's at the reason, the others (a rule the proposal
  // breaks now) with their rule id and the player's name, above the buttons.
  function showUnprocessable(item, answer) {
    const errors = Array.isArray(answer.body?.errors) ? answer.body.errors : [];
    const others = [];
    for (const error of errors) {
      const text = error.rule && error.rule !== "reason" ? `${error.rule}: ${error.message}` : error.message || error.rule;
      if (error.field === "reason" || error.rule === "reason") reasonError(item, text);
      else others.push(error.player ? `${playerName(error.player)}: ${text}` : text);
    }
    if (others.length || !errors.length) itemErrors(item, others.length ? others : [problemText(answer)]);
  }

  async function send(p, item, action, body, headers) {
    const keyName = `${p.id}/${action}`;
    if (!state.keys.has(keyName)) state.keys.set(keyName, newIdempotencyKey());
    const { buttons } = parts(item);
    state.busy.add(p.id);
    for (const b of buttons) b.disabled = true;
    let answer;
    try {
      answer = await call("POST", proposalPath(p, action), body, { ...headers, "Idempotency-Key": state.keys.get(keyName) });
    } finally {
      state.busy.delete(p.id);
      for (const b of buttons) b.disabled = false;
    }
    // Answered: a new click is a new request. Unanswered (the network): the retry keeps the key.
    if (answer.status !== 0) state.keys.delete(keyName);
    return answer;
  }

  async function approveProposal(p, item) {
    clearItemErrors(item);
    const reason = parts(item).reason.value.trim();
    if (p.replaces_result && !reason) return reasonError(item, t("proposals.reason_missing_correction"));
    const table = tableOf(p.table);
    const headers = table && table.status === "reported" ? { "If-Match": `"${table.version}"` } : { "If-None-Match": "*" };
    const answer = await send(p, item, "approve", reason ? { reason } : {}, headers);
    if (answer.status === 200 || answer.status === 201) {
      state.notes.delete(p.id);
      const done = { table: String(answer.body.table), version: String(answer.body.version) };
      say(status, t(answer.status === 201 ? "proposals.approved" : "proposals.approved_correction", done), "ok");
      await onApproved(answer.body);
      await refresh();
      return;
    }
    if (answer.status === 412) return showConflict(p, item, answer, headers["If-Match"] !== undefined);
    commonRefusal(p, item, answer);
  }

  async function rejectProposal(p, item) {
    clearItemErrors(item);
    const reason = parts(item).reason.value.trim();
    if (!reason) return reasonError(item, t("proposals.reason_missing_reject"));
    const answer = await send(p, item, "reject", { reason }, {});
    if (answer.ok) {
      state.notes.delete(p.id);
      say(status, t("proposals.rejected", { table: String(p.table) }), "ok");
      await refresh();
      return;
    }
    commonRefusal(p, item, answer);
  }

  // The answers approving and rejecting share: 422 at the field, 409 not waiting any more (or
  // self-reporting turned off), the rest said in the item.
  async function commonRefusal(p, item, answer) {
    if (answer.status === 422) return showUnprocessable(item, answer);
    if (answer.status === 409 && hasRule(answer, "self_reporting.off")) {
      say(status, t("proposals.turned_off"), "warn");
      state.enabled = false;
      render();
      return;
    }
    if (answer.status === 409) {
      say(status, t("proposals.not_pending", { table: String(p.table) }), "warn");
      await refresh();
      status.scrollIntoView({ block: "nearest" });
      return;
    }
    if (answer.status === 401 && options.onUnauthorized) return options.onUnauthorized();
    if (answer.status === 403) return itemErrors(item, [t("proposals.forbidden")]);
    itemErrors(item, [problemText(answer)]);
  }

  // 412: the table was entered (or changed) after this page read it. The entry now in effect is
  // shown in the item, as the judge page shows another judge's; the round is read again, so the
  // proposal shows what it changes in that entry (and asks for the reason a correction needs).
  async function showConflict(p, item, answer, correcting) {
    const table = answer.body && answer.body.table;
    const who = table && table.entered_by ? table.entered_by.name : t("proposals.another_judge");
    const version = table ? String(table.version) : "";
    const headline = t(correcting ? "proposals.conflict_changed" : "proposals.conflict_already", {
      judge: who,
      time: table ? localTime(table.entered_at) : "",
      version,
    });
    const entry =
      table && table.result
        ? resultTable(options.game(), table, { playerName, description: options.description(), caption: t("proposals.conflict_entry", { judge: who }) })
        : null;
    const note = el(
      "div",
      { class: "proposal-conflict message warn", role: "alert" },
      el("p", {}, el("strong", { class: "conflict-headline" }, headline)),
      entry ? el("p", { class: "conflict-entry" }, t("proposals.conflict_entry", { judge: who })) : null,
      entry ? el("div", { class: "table-scroll" }, entry) : null,
      el("p", {}, t("proposals.conflict_next")),
    );
    state.notes.set(p.id, note);
    await (options.onConflict ? options.onConflict(table) : null);
    // Drawn again with the table as it is now: its version, the differences.
    const old = list.querySelector(`li[data-proposal="${p.id}"]`);
    if (old) old.dataset.signature = "";
    await refresh();
    const shown = list.querySelector(`li[data-proposal="${p.id}"]`) || item;
    if (!shown.contains(note)) shown.querySelector(".table-scroll").after(note);
    note.scrollIntoView({ block: "nearest" });
  }

  return {
    show,
    refresh,
    onEvent,
    pending: () => state.proposals,
    element: root,
  };
}

// What a refused answer says: its detail, or that the server cannot be reached.
function problemText(answer) {
  if (answer.status === 0) return t("proposals.unreachable", { error: answer.body?.detail || "" });
  return problemDetail(answer);
}
