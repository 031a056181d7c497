// The console's Tables section: a round's tables at a glance (open, reported, corrected; who
// entered the result in effect and when), filtered to those not reported yet if wanted; one
// table's audit trail (GET …/audit?round=&table=: every event, who, when, why, what it
// superseded) and an event voided with a reason (POST …/events/{seq}/void). Which events
// may be voided is the server's call: a refusal is shown at the event.

import { el, people, person, say, setChildren } from "./dom.js";
import { localTime } from "./format.js";
import { changesList, fieldTexts } from "./audit-changes.js";
import { choiceName, loadGames } from "./games.js";
import { formatList, t } from "./i18n.js";
import { clearRefusals, showRefusal } from "./console-refusals.js";

const $ = (id) => document.getElementById(id);

// The events of a table, by their type (literal keys: the catalogs' test reads them).
const EVENT_TYPE = {
  catan_result: () => t("console.event.result"),
  agot_result: () => t("console.event.result"),
  carcassonne_result: () => t("console.event.result"),
  claimed_win: () => t("console.event.claimed_win"),
  house_pick: () => t("console.event.house_pick"),
  carcassonne_scoring: () => t("console.event.scoring"),
  void: () => t("console.event.void"),
  round_seated: () => t("console.event.seating"),
};

export function mountTables(ctx) {
  const message = $("tables-message");
  let round = null; // the round shown
  let lastRoundSeen = 0;
  let sheet = null; // GET …/rounds/{round}
  let auditTable = null; // the table whose audit is open
  let judges = null; // id → name, for the audit's authors

  function render() {
    const rounds = ctx.rounds();
    const last = rounds.length ? rounds[rounds.length - 1].round : 0;
    // A new round seated: shown, unless the organizer had chosen an older one to look at.
    if (round === null || round === lastRoundSeen) round = last || null;
    lastRoundSeen = last;
    const select = $("tables-round");
    if (select.options.length !== rounds.length) {
      setChildren(select, rounds.map((r) => el("option", { value: String(r.round) }, t("console.round", { round: r.round }))));
    }
    if (round) select.value = String(round);
    select.hidden = !rounds.length;
    if (!round) {
      $("tables-progress").textContent = t("console.no_round");
      setChildren($("table-list"));
      return;
    }
    loadRound();
  }

  let loading = 0;
  async function loadRound() {
    const ticket = ++loading;
    const shownRound = round;
    const answer = await ctx.call("GET", ctx.path(`/rounds/${shownRound}`));
    if (ticket !== loading) return; // a newer read is under way
    if (!answer.ok) return showRefusal(answer, { box: message });
    sheet = answer.body;
    drawTables();
    if (auditTable !== null) loadAudit(auditTable, false);
  }

  function tableStatus(table) {
    if (table.status !== "reported") return "open";
    return table.corrected ? "corrected" : "reported";
  }

  function drawTables() {
    const progress = $("tables-progress");
    const parts = [t("console.tables.progress", { reported: sheet.reported, total: sheet.tables_total })];
    if (sheet.closed) parts.push(t(sheet.final ? "console.tables.closed_final" : "console.tables.closed"));
    progress.textContent = parts.join(" · ");
    progress.dataset.reported = sheet.reported;
    progress.dataset.total = sheet.tables_total;
    const openOnly = $("tables-open-only").checked;
    const byes = Array.isArray(sheet.byes) ? sheet.byes : [];
    const items = sheet.tables
      .filter((table) => !openOnly || table.status !== "reported")
      .map((table) => tableItem(table));
    setChildren(
      $("table-list"),
      items.length ? items : el("li", { class: "muted" }, t("console.tables.all_reported")),
      byes.length ? el("li", { class: "muted byes" }, t("console.tables.byes", { count: byes.length, names: formatList(byes.map((id) => ctx.playerName(id))) })) : null,
    );
  }

  function tableItem(table) {
    const status = tableStatus(table);
    const who = table.entered_by ? table.entered_by.name : t("console.someone");
    const when = table.entered_at ? localTime(table.entered_at) : "";
    const statusText =
      status === "open"
        ? t("console.tables.open")
        : status === "corrected"
          ? t("console.tables.corrected_by", { judge: who, time: when })
          : t("console.tables.entered_by", { judge: who, time: when });
    return el(
      "li",
      { class: `table-card ${status}`, dataset: { table: table.table, status } },
      el(
        "strong",
        {},
        table.league ? t("console.table_in_league", { table: table.table, league: table.league }) : t("console.table_title", { table: table.table }),
      ),
      el("span", { class: "players" }, people(table.players.map((id) => ctx.playerName(id)))),
      el("span", { class: "status" }, statusText),
      status === "corrected" && table.correction_reason ? el("span", { class: "reason" }, t("console.tables.because", { reason: table.correction_reason })) : null,
      el(
        "button",
        { type: "button", class: "secondary", onclick: () => loadAudit(table.table, true) },
        t("console.tables.audit", { table: table.table }),
      ),
    );
  }

  // ---- one table's audit --------------------------------------------------------------------

  async function judgeNames() {
    if (!judges) {
      const answer = await ctx.call("GET", "/v1/judges");
      judges = new Map(answer.ok ? answer.body.map((j) => [j.id, j.name]) : []);
    }
    return judges;
  }

  // The author: the organizer in the page's words, else the name the server gives (by_name),
  // else the judge's name from GET /v1/judges.
  function authorName(by, byName) {
    if (by === "organizer") return t("console.organizer_name");
    return byName || (judges && judges.get(by)) || by;
  }

  // The game's fields by name (GET /v1/games): a change's field named as the forms name it.
  let fields = null;
  async function gameFields() {
    if (fields) return fields;
    try {
      fields = fieldTexts((await loadGames(ctx.token)).get(ctx.tournament.game));
    } catch {
      fields = new Map(); // without the games' texts a field is named by its id
    }
    return fields;
  }

  // What an event's payload says, in words: the players it names, a house.
  function payloadText(payload) {
    if (!payload || typeof payload !== "object") return "";
    const parts = [];
    if (typeof payload.player === "string") parts.push(ctx.playerName(payload.player));
    if (typeof payload.house === "string") parts.push(choiceName(payload.house));
    if (Array.isArray(payload.players)) {
      parts.push(payload.players.map((p) => ctx.playerName(typeof p === "object" && p ? p.player : p)).join(", "));
    }
    return parts.join(" · ");
  }

  async function loadAudit(tableNumber, focus) {
    auditTable = tableNumber;
    const box = $("audit");
    box.hidden = false;
    $("audit-heading").textContent = t("console.audit.heading", { round, table: tableNumber });
    await judgeNames();
    await gameFields();
    const answer = await ctx.call("GET", ctx.path(`/audit?round=${round}&table=${tableNumber}`));
    if (!answer.ok) return showRefusal(answer, { box: $("audit-message") });
    const events = answer.body.events || [];
    // A void being typed survives the list read again (the live feed re-reads it often).
    const open = $("audit-events").querySelector("form[data-seq]");
    const typing = open && { seq: Number(open.dataset.seq), value: open.querySelector("input").value, focused: open.contains(document.activeElement) };
    setChildren(
      $("audit-events"),
      events.length ? events.map(eventItem) : el("li", { class: "muted" }, t("console.audit.none")),
    );
    if (typing) {
      const event = events.find((e) => e.seq === typing.seq && !e.superseded_by);
      const item = event && $("audit-events").querySelector(`li[data-seq="${event.seq}"]`);
      if (item) openVoid(item, event, typing);
    }
    if (focus) $("audit-heading").focus();
  }

  function eventItem(event) {
    const what = (EVENT_TYPE[event.type] || (() => event.type))();
    const item = el(
      "li",
      { class: event.superseded_by ? "superseded" : "", dataset: { seq: event.seq, type: event.type } },
      el("strong", {}, t("console.audit.event", { seq: event.seq, what })),
      " ",
      el("span", { class: "muted" }, t("console.audit.by", { who: authorName(event.by, event.by_name), time: localTime(event.at) })),
      payloadText(event.payload) ? el("span", { class: "payload" }, payloadText(event.payload)) : null,
      event.reason ? el("span", { class: "reason" }, t("console.tables.because", { reason: event.reason })) : null,
      event.supersedes ? el("span", { class: "muted" }, t("console.audit.supersedes", { seq: event.supersedes })) : null,
      event.superseded_by ? el("span", { class: "muted" }, t("console.audit.superseded_by", { seq: event.superseded_by })) : null,
      changesList(event.changes, { fields: fields || new Map(), playerName: ctx.playerName }),
    );
    // The void only where the server says it would be taken (`voidable`; a result is corrected,
    // never voided); a server without `voidable` offers it on every entry still in effect.
    if (event.voidable === true || (event.voidable === undefined && !event.superseded_by)) {
      item.append(el("button", { type: "button", class: "secondary", onclick: () => openVoid(item, event) }, t("console.audit.void")));
    }
    return item;
  }

  // The reason asked for voiding `event`, in its row. `restored`: what was typed before the
  // list was read again.
  function openVoid(item, event, restored = null) {
    for (const open of $("audit-events").querySelectorAll("form")) open.remove();
    const id = `void-reason-${event.seq}`;
    const input = el("input", { id, autocomplete: "off", value: restored ? restored.value : "" });
    const form = el(
      "form",
      { class: "inline-form", novalidate: true, dataset: { seq: event.seq } },
      el("label", { for: id }, t("console.audit.void_reason", { seq: event.seq })),
      input,
      el("button", { type: "submit" }, t("console.audit.void_confirm")),
      el("button", { type: "button", class: "secondary", onclick: () => form.remove() }, t("console.cancel")),
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      clearRefusals(form, $("audit-message"));
      const answer = await ctx.call("POST", ctx.path(`/events/${event.seq}/void`), { reason: input.value.trim() });
      if (!answer.ok) {
        showRefusal(answer, { box: $("audit-message"), fields: { reason: input } });
        if (!answer.body?.errors?.some((x) => x.field === "reason")) input.setAttribute("aria-describedby", "audit-message");
        return;
      }
      say($("audit-message"), t("console.audit.voided", { seq: event.seq }), "ok");
      await ctx.reload(); // the round and this audit are read again
    });
    item.append(form);
    if (!restored || restored.focused) input.focus();
  }

  $("tables-round").addEventListener("change", (e) => {
    round = Number(e.target.value);
    auditTable = null;
    $("audit").hidden = true;
    clearRefusals($("tables"), message);
    loadRound();
  });
  $("tables-open-only").addEventListener("change", () => sheet && drawTables());

  ctx.subscribe(render);
}
