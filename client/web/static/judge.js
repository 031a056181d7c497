// The judges' page (/t/{t}/judge): the token entered once (kept in localStorage), a round and
// a table chosen, the game's form (built from GET /v1/games, judge-forms.js) with the server's
// check as the judge types, and the answers of PUT …/result shown where they belong: errors at
// the offending field, a table another judge entered first ("already entered by Eva at 14:32",
// with that entry) and its correction with a reason.
//
// The page knows no rule of any game: the computed score, the order and what breaks a rule are
// the answers of POST …/result/check, the same checks as the save, with nothing saved; they and
// the save's errors are shown at their fields by result-check.js, as on the table's report page.
//
// The page remembers the table in the address (#round=2&table=5), so a reload stays there.
// The organizer's link for a new judge brings the token in the address too (#token=…): it is
// taken as if typed and removed from the address at once.
//
// Above it all, the current round's clock (clock.js), from the live feed and the round sheet.
//
// Between the tables and the form, "Proposals waiting" (judge-proposals.js): the results the
// players proposed for the round's tables when the tournament has self-reporting on, each to be
// approved (the table is then entered) or rejected with a reason.
//
// Without the network the judge goes on (docs/pages.md, "Offline: the outbox"): Save keeps the
// entry on this device first with its Idempotency-Key and precondition, and sends it; one that
// gets no answer stays there — "Saved on this device, not yet sent (3)" — and is sent in order,
// with the same key, once the connection is back (judge-outbox.js, which wires outbox.js,
// outbox-sync.js and outbox-panel.js into the page). The tables, the seating and the game's
// description are the last ones read (offline-cache.js) when the server cannot be reached — and
// so is the tournament's language —, and the page itself comes back after a reload from the
// service worker (offline-shell.js) where the browser allows one.

import { Problem, getJson, newIdempotencyKey, problemDetail, takeTokenFromFragment, tournamentIdFromLocation, tournamentPath, tryRequest } from "./api.js";
import { changesList, fieldTexts } from "./audit-changes.js";
import { createClock } from "./clock.js";
import { clear, el, people, person, say, setChildren } from "./dom.js";
import { compact, localTime } from "./format.js";
import { actionChoices } from "./games.js";
import { startI18n, t, tParts } from "./i18n.js";
import { makeResultForm } from "./judge-forms.js";
import { LiveFeed } from "./live.js";
import { renderPicks } from "./judge-picks.js";
import { learnJudge, mountJudgeOutbox } from "./judge-outbox.js";
import { mountProposals } from "./judge-proposals.js";
import { keepTranslations, keptCopy, readThrough } from "./offline-cache.js";
import { keepPagesOffline } from "./offline-shell.js";
import { tokenTag } from "./outbox.js";
import { createResultCheck } from "./result-check.js";
import { gameName } from "./standings-columns.js";
import { claimants, resultTable } from "./table-result.js";

const TOKEN_KEY = "tallyd.token";
const $ = (id) => document.getElementById(id);
const tournamentId = tournamentIdFromLocation();

const state = {
  token: null,
  tournament: null,
  games: null, // GET /v1/games: Map game → description
  round: null, // the round number shown
  sheet: null, // GET …/rounds/{r}
  table: null, // the table shown (from the sheet)
  form: null, // the game's form (judge-forms.js)
  mode: "first", // "first": If-None-Match: *; "correct": If-Match with `version` and a reason
  version: 0,
  feed: null, // the live feed, for other judges' entries
  saving: false, // a save is under way: its own event is not another judge's
  clock: null, // the current round's clock (clock.js)
  currentRound: 0, // the newest round's number, whose clock is shown
  proposals: null, // the "Proposals waiting" panel (judge-proposals.js)
  proposalTables: new Set(), // the tables of the round shown with a proposal waiting
  outbox: null, // judge-outbox.js: what is saved on this device and not sent yet
};

const playerName = (id) => (state.tournament.players.find((p) => p.id === id) || { name: id }).name;
const tablePath = () => `${tournamentPath(tournamentId)}/rounds/${state.round}/tables/${state.table.table}`;

// ---- the token ----------------------------------------------------------------------------------

function showTokenForm(message = "") {
  $("token-section").hidden = false;
  $("signed-in").hidden = true;
  $("picker").hidden = true;
  $("proposals").hidden = true;
  $("table-section").hidden = true;
  $("token-error").textContent = message;
  $("token-input").setAttribute("aria-invalid", message ? "true" : "false");
  $("token-input").focus();
}

async function saveToken(event) {
  event.preventDefault();
  if (!(await acceptToken($("token-input").value.trim()))) return;
  // The token field is gone: a keyboard user goes on from the table, or from choosing one.
  ($("table-section").hidden ? $("picker-heading") : $("table-heading")).focus();
}

// A token typed into the form or brought by the organizer's link: checked, kept in this browser,
// and the page starts with it. False (and the form with the reason) when it is refused.
async function acceptToken(token) {
  if (!token) {
    showTokenForm(t("judge.token.empty"));
    return false;
  }
  // A bad token sent to a public read is refused with 401: that checks it without writing.
  const answer = await tryRequest("GET", tournamentPath(tournamentId), { token });
  if (answer.status === 401) {
    showTokenForm(t("judge.token.invalid"));
    return false;
  }
  if (!answer.ok) {
    showTokenForm(t("judge.token.cannot_check", { error: answer.body?.detail || String(answer.status) }));
    return false;
  }
  localStorage.setItem(TOKEN_KEY, token);
  $("token-input").value = "";
  await start(token);
  return true;
}

function forgetToken() {
  localStorage.removeItem(TOKEN_KEY);
  state.token = null;
  showTokenForm();
  state.outbox.render();
}

// The token was refused (revoked while the page was open, or while it was offline): the judge
// is asked for a new one; what waits in the outbox stays there (sent with the new token once the
// judge says so: "Send them with my token").
function tokenRevoked() {
  localStorage.removeItem(TOKEN_KEY);
  state.token = null;
  const kept = state.outbox.count();
  showTokenForm(kept ? `${t("judge.token.revoked")} ${t("outbox.kept_for_token", { count: kept })}` : t("judge.token.revoked"));
  state.outbox.render();
}

// ---- round and table ------------------------------------------------------------------------------

async function start(token) {
  state.token = token;
  // The tournament and the games as the server has them now, else as this device last read
  // them (no connection).
  const answer = await readThrough(tournamentPath(tournamentId), { token });
  if (answer.status === 401) return tokenRevoked();
  if (!answer.ok) {
    const error = problemDetail(answer);
    say(
      $("load-error"),
      answer.status === 404
        ? t("common.no_tournament", { id: tournamentId })
        : answer.status === 0
          ? t("judge.offline_no_copy")
          : t("common.cannot_load_tournament", { error }),
      "error",
    );
    state.outbox.render();
    return;
  }
  noteRead(answer);
  state.tournament = answer.body;
  const games = await readThrough("/v1/games", { token, localized: true });
  if (!games.ok) {
    say($("load-error"), t("judge.cannot_load_games", { error: problemDetail(games) }), "error");
    return;
  }
  state.games = new Map(games.body.map((g) => [g.game, g]));
  if (!games.savedAt) keepTranslations("/v1/games", { token });
  $("load-error").hidden = true;
  const rounds = state.tournament.rounds;
  const newest = rounds.length ? rounds[rounds.length - 1] : null;
  showClock(newest, Date.now());
  if (!state.feed) {
    state.feed = new LiveFeed(tournamentId, { onMessage: onLiveMessage, onStatus: (status) => state.outbox.feedStatus(status) });
    state.feed.start();
  }
  state.outbox.start();
  state.outbox.render();
  if (!state.proposals) state.proposals = mountProposalsPanel();
  $("tournament-info").textContent = `${state.tournament.name} · ${gameName(state.tournament.game)}`;
  document.title = t("judge.title_named", { name: state.tournament.name });
  $("token-section").hidden = true;
  $("signed-in").hidden = false;
  $("picker").hidden = false;

  if (!rounds.length) {
    $("proposals").hidden = true;
    clear($("round-select"));
    setChildren($("tables"), el("p", {}, t("judge.picker.no_round")));
    return;
  }
  setChildren($("round-select"), rounds.map((r) => el("option", { value: String(r.round) }, t("judge.round", { round: String(r.round) }))));
  const wanted = new URLSearchParams(window.location.hash.slice(1));
  const round = rounds.some((r) => String(r.round) === wanted.get("round")) ? Number(wanted.get("round")) : rounds[rounds.length - 1].round;
  $("round-select").value = String(round);
  await showRoundOrSay(round, Number(wanted.get("table")) || null);
}

// A read refused with 401 means the token was revoked while the page was open (or loading):
// the judge is asked for a new one. Any other failure is said at the top of the page.
function readFailed(error) {
  if (error && error.status === 401) return tokenRevoked();
  say($("load-error"), t("judge.cannot_load_round", { error: String(error && error.message) }), "error");
}

async function showRoundOrSay(round, tableNumber = null) {
  try {
    await showRound(round, tableNumber);
  } catch (e) {
    readFailed(e);
  }
}

async function showRound(round, tableNumber = null) {
  state.round = round;
  state.sheet = await readSheet(round);
  if (state.sheet.round === state.currentRound) showClock(state.sheet, Date.now());
  renderTableChoices();
  showProposals();
  const table = state.sheet.tables.find((candidate) => candidate.table === tableNumber);
  if (table) showTable(table);
  else $("table-section").hidden = true;
}

// GET …/rounds/{r}, or this device's copy of it when there is no connection; a Problem when
// neither is there.
async function readSheet(round) {
  const answer = await readThrough(`${tournamentPath(tournamentId)}/rounds/${round}`, { token: state.token });
  if (!answer.ok) throw new Problem(answer.status, answer.body);
  noteRead(answer);
  return answer.body;
}

// Whether what the page shows is the server's now or the device's copy (and of when).
function noteRead(answer) {
  state.outbox.noteRead(answer.savedAt);
}

function renderTableChoices() {
  const buttons = state.sheet.tables.map((table) => {
    const reported = table.status === "reported";
    const status = !reported
      ? t("judge.picker.open")
      : table.entered_by
        ? t("judge.picker.reported_by", { judge: table.entered_by.name, time: localTime(table.entered_at) })
        : t("judge.picker.reported");
    return el(
      "button",
      {
        type: "button",
        class: `table-choice ${reported ? "reported" : "open"}`,
        "aria-pressed": state.table && state.table.table === table.table ? "true" : "false",
        dataset: { table: table.table },
        onclick: () => showTable(table, true),
      },
      el("strong", {}, tableTitle(table)),
      el("span", { class: "players" }, people(table.players.map(playerName))),
      el("span", { class: "status" }, status),
      claimants(table).map((p) => el("span", { class: "claim" }, tParts("judge.picker.claimed_win", { player: person(playerName(p)) }))),
      state.proposalTables.has(table.table) ? el("span", { class: "proposal-waiting" }, t("proposals.waiting_mark")) : null,
      state.outbox.mark(state.round, table.table),
    );
  });
  // Drawn again (a proposal came or went) while a table's button had the focus: it keeps it.
  const focused = $("tables").contains(document.activeElement) ? document.activeElement.dataset.table : null;
  setChildren($("tables"), buttons);
  if (focused) buttons.find((b) => b.dataset.table === focused)?.focus();
}

// "Table 3", "Table 3 · league A".
function tableTitle(table) {
  return table.league
    ? t("judge.table_in_league", { table: String(table.table), league: table.league })
    : t("judge.table_title", { table: String(table.table) });
}

// Re-reads the round (after a save, a pick, a 412) and shows the same table again.
async function refresh() {
  const number = state.table && state.table.table;
  await showRoundOrSay(state.round, number);
}

// ---- a table ------------------------------------------------------------------------------------

function showTable(table, focus = false) {
  state.table = table;
  window.history.replaceState(null, "", `#round=${state.round}&table=${table.table}`);
  for (const b of $("tables").querySelectorAll("button")) b.setAttribute("aria-pressed", String(Number(b.dataset.table) === table.table));

  $("table-section").hidden = false;
  $("table-heading").textContent = `${t("judge.round", { round: String(state.round) })} · ${tableTitle(table)}`;
  $("conflict").hidden = true;
  $("save-status").hidden = true;

  const reported = table.status === "reported";
  const bye = table.players.length === 1;
  setChildren(
    $("table-status"),
    bye
      ? tParts("judge.table.bye", { player: person(playerName(table.players[0])) })
      : reported
        ? reportedText(table, table.version)
        : t("judge.table.no_result"),
  );
  renderCurrentResult(table);

  const game = state.tournament.game;
  const description = state.games.get(game);
  const picks = $("picks");
  picks.hidden = true;
  if (description && description.actions.picks && !reported && !bye) {
    renderPicks(picks, {
      table,
      tablePath: tablePath(),
      token: state.token,
      playerName,
      onChange: refresh,
      choices: actionChoices(description, "picks"),
    });
  }

  check.cancel();
  state.form = bye ? null : makeResultForm(description, { game, table, playerName });
  if (!state.form) {
    $("result-form").hidden = true;
    if (!bye) $("table-status").textContent += ` ${t("judge.table.no_form", { game: gameName(game) })}`;
    return;
  }
  setChildren($("form-fields"), state.form.element);
  state.form.element.addEventListener("input", check.schedule);
  state.form.element.addEventListener("change", check.schedule);
  check.clearErrors();
  // An entry of this table still on the device is what the form shows.
  const entry = state.outbox.formEntryFor(state.round, table.table);
  if (entry) {
    showEntry(entry, table);
  } else {
    setMode(reported ? "view" : "first", table.version);
    check.now();
  }
  if (focus) $("table-heading").focus();
}

// An outbox entry in the form, as it was saved, with what became of it: not sent yet; refused
// (the server's errors at their fields); entered meanwhile by another judge (the 412 choice).
function showEntry(entry, table) {
  const mine = entry.body.players;
  state.form.fill(mine);
  const correction = Boolean(entry.headers["If-Match"]);
  setMode(correction ? "correct" : "first", correction ? entry.basedOn : table.version);
  if (correction) $("reason").value = entry.body.reason || "";
  const time = localTime(entry.enteredAt);
  const held = entry.tokenTag !== tokenTag(state.token);
  check.setHint("", ""); // the server's answer is what stands now, not a check
  if (!held && entry.state === "conflict") {
    showConflict(entry.answer, mine, entry).catch(readFailed);
    return;
  }
  if (!held && entry.state === "refused") {
    $("table-status").textContent = t("judge.table.kept_refused", { time });
    const errors = entry.answer.body && entry.answer.body.errors;
    if (entry.answer.status === 422 && Array.isArray(errors)) check.showErrors(errors, mine, problemDetail(entry.answer));
    else check.showErrors([{ message: problemDetail(entry.answer) }], mine);
    return;
  }
  $("table-status").textContent = t(held ? "judge.table.kept_held" : "judge.table.kept", { time });
  check.now();
}

// "Reported by Eva at 14:32 (version 2)."
function reportedText(table, version) {
  return t("judge.table.reported", {
    judge: table.entered_by ? table.entered_by.name : t("judge.another_judge"),
    time: localTime(table.entered_at),
    version: String(version),
  });
}

function renderCurrentResult(table) {
  const box = clear($("current-result"));
  const description = state.games && state.games.get(state.tournament.game);
  const result = resultTable(state.tournament.game, table, { playerName, description, caption: t("judge.result.caption") });
  if (!result) return;
  const correct = el("button", { type: "button", id: "start-correction" }, t("judge.result.correct"));
  correct.addEventListener("click", startCorrection);
  const corrected = el("div", { id: "last-correction" });
  box.append(result, corrected, table.players.length > 1 ? el("p", {}, correct) : null);
  showLastCorrection(corrected, table, description).catch(() => {}); // without the audit, no line
}

// A corrected result says what its correction changed, who made it and why (the audit's
// `changes` of the entry in effect, worded as in the console): "Corrected by Eva at 14:40
// (wrong VP card): Jana Nováková: VP cards 1 → 0". A first entry has no changes: nothing shown.
async function showLastCorrection(box, table, description) {
  if (!table.result_seq) return;
  const answer = await tryRequest("GET", `${tournamentPath(tournamentId)}/audit?round=${state.round}&table=${table.table}`, { token: state.token });
  if (!answer.ok || !box.isConnected) return;
  const entry = answer.body.events.find((e) => e.seq === table.result_seq);
  const list = entry && changesList(entry.changes, { fields: fieldTexts(description), playerName });
  if (!list) return;
  const who = entry.by === "organizer" ? t("judge.correction.organizer") : entry.by_name || t("judge.another_judge");
  const heading = t(entry.reason ? "judge.correction.by_because" : "judge.correction.by", { judge: who, time: localTime(entry.at), reason: entry.reason || "" });
  setChildren(box, el("p", { class: "muted" }, heading), list);
}

// "view": a reported table, form hidden; "first": a first entry; "correct": a correction of
// `version`, which needs a reason.
function setMode(mode, version) {
  state.mode = mode;
  state.version = version;
  $("result-form").hidden = mode === "view";
  $("reason-field").hidden = mode !== "correct";
  $("cancel-correction").hidden = mode !== "correct";
  $("form-heading").textContent = mode === "correct" ? t("judge.form.correct_heading", { version: String(version) }) : t("judge.form.heading");
  $("save").textContent = mode === "correct" ? t("judge.form.save_correction") : t("judge.form.save");
  if (mode === "view") {
    check.cancel();
    check.setHint("", "");
  }
}

// The entry in effect at the table, as it was typed (the audit trail's payload), or null.
async function entryOf(table) {
  if (!table.result_seq) return null;
  const answer = await tryRequest(
    "GET",
    `${tournamentPath(tournamentId)}/audit?round=${state.round}&table=${table.table}`,
    { token: state.token },
  );
  if (!answer.ok) return null;
  const event = answer.body.events.find((e) => e.seq === table.result_seq);
  return event && event.payload && event.payload.players ? event.payload.players : null;
}

async function startCorrection() {
  const entry = await entryOf(state.table);
  if (entry) state.form.fill(entry);
  setMode("correct", state.table.version);
  check.now();
  $("reason").focus();
}

// ---- the running hints: the server's check ----------------------------------------------------------
//
// As the judge types, the entry is sent to POST …/result/check (the body the save would send,
// with the reason once typed) after a short pause; the answer is shown at the fields
// (result-check.js). A reported table's form is not shown, nor checked.

const check = createResultCheck({
  form: () => (state.mode === "view" ? null : state.form),
  path: () => `${tablePath()}/result/check`,
  token: () => state.token,
  playerName,
  game: () => state.tournament.game,
  reason: () => (state.mode === "correct" ? $("reason").value.trim() : ""),
  reasonIds: { field: "reason-field", message: "reason-error" },
  names: "row",
  delay: 300, // after the last keystroke
  texts: {
    passes: "judge.check.passes",
    passesOrder: "judge.check.passes_order",
    orderEntry: "judge.check.order_entry",
    broken: "judge.check.broken",
    toFill: "judge.check.to_fill",
    notSent: "judge.save.not_saved",
    notSentBecause: "judge.save.not_saved_because",
    // A first entry asked for a reason: the table was entered meanwhile.
    reason: () => (state.mode === "correct" ? "judge.check.needs_reason" : "judge.check.entered_meanwhile"),
  },
  onOther(answer, { setHint }) {
    const why =
      answer.status === 0
        ? t("judge.check.unreachable")
        : answer.status === 401
          ? t("judge.check.token_invalid")
          : answer.status === 403
            ? t("judge.check.forbidden")
            : problemDetail(answer);
    setHint(t("judge.check.not_checked", { why }), "off");
  },
});

// ---- saving -------------------------------------------------------------------------------------

async function save(event) {
  event.preventDefault();
  check.cancel(); // the save's answer says it all
  check.clearErrors();
  $("save-status").hidden = true;
  const players = state.form.players();
  const body = { players };
  // A new key for every save: a retry of this one (the outbox's) is recognised by it.
  const headers = { "Idempotency-Key": newIdempotencyKey() };
  if (state.mode === "correct") {
    const reason = $("reason").value.trim();
    if (!reason) {
      return check.showErrors([{ field: "reason", message: t("judge.save.reason_missing") }], players);
    }
    body.reason = reason;
    headers["If-Match"] = `"${state.version}"`;
  } else {
    headers["If-None-Match"] = "*";
  }
  $("save").disabled = true;
  state.saving = true;
  try {
    await keepAndSend(body, headers, players);
  } finally {
    state.saving = false;
    $("save").disabled = false;
  }
}

// The entry kept on the device first, then sent (after anything older in the outbox): its answer
// is shown as a direct save's; without one it stays in the outbox and the table says so.
async function keepAndSend(body, headers, players) {
  const number = state.table.table;
  const kept = await state.outbox.save({
    round: state.round,
    table: number,
    path: `${tablePath()}/result`,
    body,
    headers,
    basedOn: state.mode === "correct" ? state.version : null,
  });
  if (kept.full) return check.showErrors([{ message: t("outbox.full", { limit: kept.full }) }], players);
  if (!kept.stored) return submit(body, headers, players); // the device keeps nothing: sent as it is
  if (kept.outcome === "unauthorized") return tokenRevoked();
  if (!kept.answer) {
    // No answer: kept. The table shows the entry as saved on this device.
    const table = state.sheet.tables.find((candidate) => candidate.table === number);
    if (state.table && state.table.table === number && table) showTable(table);
    say($("save-status"), t("judge.save.kept", { table: String(number) }), "warn");
    return;
  }
  await answered(kept.answer, players);
}

// A save sent at once (a browser that keeps nothing on the device).
async function submit(body, headers, players) {
  const answer = await tryRequest("PUT", `${tablePath()}/result`, { token: state.token, body, headers });
  if (answer.status === 0) {
    return check.showErrors([{ message: t("judge.save.unreachable", { error: answer.body.detail }) }], players);
  }
  await answered(answer, players);
}

// The server's answer to a save, shown where it belongs.
async function answered(answer, players) {
  if (answer.status === 200 || answer.status === 201) {
    const table = answer.body;
    learnJudge(state.token, table);
    const saved = { table: String(table.table), version: String(table.version) };
    await refresh();
    say($("save-status"), t(answer.status === 201 ? "judge.save.saved" : "judge.save.corrected", saved), "ok");
    return;
  }
  if (answer.status === 412) return showConflict(answer, players);
  if (answer.status === 401) return tokenRevoked();
  const detail = problemDetail(answer);
  if (answer.status === 422 && answer.body?.errors) return check.showErrors(answer.body.errors, players, detail);
  if (answer.status === 403) return check.showErrors([{ message: t("judge.save.forbidden") }], players);
  check.showErrors([{ message: detail }], players);
}

// ---- another judge was first (412) ----------------------------------------------------------------

// `kept`: the outbox entry the 412 answered (a save sent from the outbox while the judge was
// elsewhere), which stays there until the judge chooses.
async function showConflict(answer, mine, kept = null) {
  const table = answer.body.table;
  const version = Number(String(answer.etag || table.version).replace(/\D/g, "")) || table.version;
  const who = table.entered_by ? table.entered_by.name : t("judge.another_judge");
  const entry = await entryOf(table);
  const box = clear($("conflict"));
  const when = { judge: who, time: localTime(table.entered_at), version: String(version) };
  const headline = t(state.mode === "correct" ? "judge.conflict.changed" : "judge.conflict.already", when);
  box.append(el("p", {}, el("strong", { id: "conflict-headline" }, headline)));
  $("table-status").textContent = reportedText(table, version);

  if (entry) {
    // The computed columns are the server's: of the stored result for hers, of the last check
    // for this judge's (when it was about exactly these values).
    const shown = state.form.describe(entry, table.result);
    // This judge's computed values are known when the last check was of exactly these values
    // (an entry from the outbox was never checked: its computed column is not compared).
    const computed = check.checkedResult(mine);
    const unknown = !computed && state.form.element.querySelector("output[data-computed]") ? shown.head.length - 1 : -1;
    const differences = differencesFrom(shown, state.form.describe(mine, computed)).filter((d) => d.column !== unknown);
    const differs = new Set(differences.map((d) => `${d.row}/${d.column}`));
    const theirTable = el(
      "table",
      { id: "their-entry" },
      el("caption", {}, t("judge.conflict.their_entry", { judge: who })),
      el("thead", {}, el("tr", {}, shown.head.map((h) => el("th", { scope: "col" }, h)))),
      el(
        "tbody",
        {},
        shown.rows.map((r, row) =>
          el(
            "tr",
            {},
            r.map((c, i) => (i === 0 ? el("th", { scope: "row" }, c) : el("td", { class: differs.has(`${row}/${i}`) ? "differs" : "" }, c))),
          ),
        ),
      ),
    );
    box.append(
      // A phone scrolls the entry inside itself, never the page sideways.
      el("div", { class: "table-scroll" }, theirTable),
      el(
        "p",
        { id: "differences" },
        differences.length
          ? t("judge.conflict.differ", {
              differences: differences
                .map((d) =>
                  t("judge.conflict.difference", { player: d.name, field: d.label, theirs: d.theirs || "—", yours: d.yours || "—" }),
                )
                .join("; "),
            })
          : t("judge.conflict.same"),
      ),
    );
  } else if (table.result) {
    box.append(el("p", {}, table.result.players.map((p) => `${p.place}. ${playerName(p.player)} ${compact(p.score)}`).join(" · ")));
  }

  const keepMine = el("button", { type: "button", id: "correct-with-mine" }, t("judge.conflict.correct_with_mine"));
  keepMine.addEventListener("click", () => {
    box.hidden = true;
    state.form.fill(mine);
    setMode("correct", version);
    check.now();
    $("reason").focus();
  });
  const theirs = el("button", { type: "button", class: "secondary", id: "keep-theirs" }, t("judge.conflict.keep_theirs", { judge: who }));
  theirs.addEventListener("click", async () => {
    box.hidden = true;
    // Theirs stands: this judge's entry is discarded, by this choice.
    await state.outbox.dropFormEntry(kept);
    await refresh();
  });
  box.append(el("p", { class: "form-buttons" }, keepMine, theirs));
  box.hidden = false;
  // The table as it is now; the form stays as the judge typed it until they choose.
  state.sheet.tables = state.sheet.tables.map((other) => (other.table === table.table ? table : other));
  renderTableChoices();
  keepMine.focus();
}

// Where two entries described alike (form.describe) differ: [{row, column, name, label,
// theirs, yours}], rows matched by the player's name, "VP"-like computed columns included.
function differencesFrom(theirs, yours) {
  const mine = new Map(yours.rows.map((r) => [r[0], r]));
  const out = [];
  theirs.rows.forEach((r, row) => {
    const other = mine.get(r[0]);
    if (!other) return;
    for (let column = 1; column < r.length; column++) {
      if (r[column] !== other[column]) {
        out.push({ row, column, name: r[0], label: theirs.head[column], theirs: r[column], yours: other[column] });
      }
    }
  });
  return out;
}

// ---- the outbox: what is saved on this device and not sent yet -------------------------------------

// "Open" in the outbox's list: the entry's table, with the entry in its form.
async function openEntry(entry) {
  if (!state.tournament || !state.token) return;
  if (entry.round !== state.round || !state.sheet) {
    $("round-select").value = String(entry.round);
    await showRoundOrSay(entry.round, entry.table);
  } else {
    const table = state.sheet.tables.find((candidate) => candidate.table === entry.table);
    if (table) showTable(table);
  }
  $("table-heading").focus();
}

// The panel at the top of the page and the sending (judge-outbox.js); the page keeps the form.
function mountOutbox() {
  return mountJudgeOutbox(document.querySelector(".page > header"), {
    tournamentId,
    token: () => state.token,
    round: () => state.round,
    onEntries: () => {
      if (state.sheet && !$("picker").hidden) renderTableChoices();
    },
    onOpen: (entry) => openEntry(entry).catch(readFailed),
    // The entry in the form was sent meanwhile: the table shown follows it.
    onSent: async (answer) => {
      await refresh();
      const saved = { table: String(answer.body.table), version: String(answer.body.version) };
      say($("save-status"), t(answer.status === 201 ? "judge.save.saved" : "judge.save.corrected", saved), "ok");
    },
    // … or answered 412 or refused: its choice, or its errors at their fields.
    onAnswered: (entry) => {
      const table = state.sheet.tables.find((candidate) => candidate.table === entry.table);
      if (table) showTable(table);
    },
    onDiscarded: refresh,
    onRevoked: tokenRevoked,
    refreshTables: () => (state.sheet ? refreshChoices().catch(readFailed) : undefined),
    // The feed tries again at once (not after its back-off), to say the connection is back.
    onOnline: () => {
      if (state.feed) {
        state.feed.stop();
        state.feed.start();
      }
    },
    onError: readFailed,
  });
}

// ---- the round clock -------------------------------------------------------------------------------

// The current round's clock: `round` is the live feed's round, an entry of the tournament's
// rounds or a round sheet (each has round, closed and clock); `receivedAt` when it arrived.
// A closed round's clock is not shown.
function showClock(round, receivedAt) {
  if (round) state.currentRound = Math.max(state.currentRound, round.round);
  const open = round && !round.closed;
  if (open) state.clock.setLabel(t("judge.clock_round", { round: String(round.round) }));
  state.clock.update(open ? round.clock : null, receivedAt);
}

// ---- other judges, live ----------------------------------------------------------------------

// Another judge's action at a table of the round shown: the table list is brought up to date,
// and a judge typing a table someone else just entered is told so before saving.
let refreshTimer = null;
function onLiveMessage(message) {
  if (message.type === "snapshot" || message.type === "standings") showClock(message.round, Date.now());
  if (message.type !== "event" || !state.sheet) return;
  if (message.event.type === "self_reporting") {
    reloadTournament().catch(readFailed);
    return;
  }
  if (state.proposals) state.proposals.onEvent(message.event);
  const match = /\/r\/(\d+)\/table\/(\d+)$/.exec(message.event.stream || "");
  if (!match || Number(match[1]) !== state.round) return;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refreshChoices().catch(readFailed), 200);
}

async function refreshChoices() {
  const round = state.round;
  const sheet = await readSheet(round);
  if (round !== state.round) return;
  state.sheet = sheet;
  renderTableChoices();
  const now = state.table && sheet.tables.find((table) => table.table === state.table.table);
  if (!now || now.version === state.table.version || state.mode === "view" || state.saving) return;
  const who = now.entered_by ? now.entered_by.name : t("judge.another_judge");
  const version = String(now.version);
  $("table-status").textContent =
    now.status === "reported"
      ? t("judge.table.entered_meanwhile", { judge: who, time: localTime(now.entered_at), version })
      : t("judge.table.changed_meanwhile", { version });
}

// ---- proposals waiting ----------------------------------------------------------------------------

// A request with the judge's token that never throws: a network failure is status 0.
const judgeCall = (method, path, body, headers = {}) => tryRequest(method, path, { token: state.token, body, headers });

function mountProposalsPanel() {
  return mountProposals($("proposals"), {
    tournamentId,
    call: judgeCall,
    playerName,
    level: 2,
    game: () => state.tournament.game,
    description: () => state.games.get(state.tournament.game) || null,
    sheet: () => state.sheet, // the precondition of an approval: the table as this page has it
    // Approved: the table is entered. The table shown is shown again (entered); another one's
    // form, if the judge is typing it, is left as it is.
    onApproved: async (table) => {
      if (state.table && state.table.table === table.table) await refresh();
      else await refreshChoices().catch(readFailed);
    },
    // Entered meanwhile (412): the round as it is now, for the next approval's precondition.
    onConflict: () => refreshChoices().catch(readFailed),
    onChange: (pending) => {
      const tables = new Set(pending.map((p) => p.table));
      const same = tables.size === state.proposalTables.size && [...tables].every((n) => state.proposalTables.has(n));
      state.proposalTables = tables;
      if (!same && state.sheet) renderTableChoices();
    },
    onUnauthorized: tokenRevoked,
  });
}

// The panel for the round shown; it says so when the tournament has self-reporting off.
function showProposals() {
  if (!state.proposals) return;
  $("proposals").hidden = false;
  state.proposals.show({ round: state.round, enabled: state.tournament.self_reporting === true });
}

// The organizer turned self-reporting on or off: the tournament is read again.
async function reloadTournament() {
  state.tournament = await getJson(tournamentPath(tournamentId), { token: state.token });
  showProposals();
}

// ---- start --------------------------------------------------------------------------------------

async function main() {
  // The organizer's link brings the token (#token=…), taken out of the address at once.
  const linked = takeTokenFromFragment();
  await startI18n({
    tournament: tournamentId,
    token: linked || localStorage.getItem(TOKEN_KEY),
    // Without the network, the tournament's language as this device last read it.
    keptLocale: async () => ((await keptCopy(tournamentPath(tournamentId))) || {}).locale,
  });
  if (!tournamentId) return;
  state.clock = createClock($("round-clock"), { size: "small" });
  keepPagesOffline();
  state.outbox = await mountOutbox();
  $("standings-link").href = `/t/${encodeURIComponent(tournamentId)}`;
  $("board-link").href = `/t/${encodeURIComponent(tournamentId)}/board`;
  $("token-form").addEventListener("submit", saveToken);
  $("forget-token").addEventListener("click", forgetToken);
  $("result-form").addEventListener("submit", save);
  $("reason").addEventListener("input", check.schedule);
  $("cancel-correction").addEventListener("click", () => showTable(state.table));
  $("round-select").addEventListener("change", (e) => showRoundOrSay(Number(e.target.value)));
  const token = localStorage.getItem(TOKEN_KEY);
  if (linked !== null) acceptToken(linked);
  else if (token) start(token);
  else showTokenForm();
}

main();
