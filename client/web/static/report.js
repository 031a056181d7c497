// The table's self-reporting page (/t/{t}/report?round=R&table=N#token=…), opened on a player's
// phone from the QR code on the table's result slip: the players of the table send their result
// to the judges, who approve it (or reject it) on their page; nothing a player sends counts
// before a judge approves it.
//
// What it shows: the tournament, the round and the table, the players seated there, the round
// clock; the game's result form, built from GET /v1/games exactly as the judge page builds it
// (judge-forms.js), with the server's checks as the player types (report-check.js); "Send to the
// judge" (POST …/proposals, with an Idempotency-Key so that a retried send is not doubled), then
// "Waiting for a judge" with what was sent; and the table's proposals (report-proposals.js) —
// waiting, replaced, approved by whom and when, rejected with the judge's reason — where another
// phone at the table can flag a waiting one as wrong, with a note for the judge. The live feed
// brings every phone of the table a new proposal, a flag and the judge's decision within a second.
//
// The page knows no rule of any game: the computed VP, the order and what breaks a rule are the
// server's answers. The token is handled by report-token.js (from the fragment into this tab's
// sessionStorage, only ever in the Authorization header).
//
// Refusals are said plainly, and the page is never left blank: a link that is not this table's
// ("ask a judge for the table's QR code"), a closed round ("ask a judge"), self-reporting turned
// off, too many requests from the table (wait N s), no connection.
//
// Without the network the phone keeps what it sends, as the judge page does (docs/pages.md,
// "Offline: the outbox"): the proposal goes into the device's outbox with its Idempotency-Key
// and is sent by itself when the connection is back, with the same key — never twice
// (report-outbox.js, with its line under the status); the table, its players, the form and the
// tournament's language are the last ones read (offline-cache.js), and a reload brings the page
// back from the service worker where the browser allows one (offline-shell.js).

import { newIdempotencyKey, problemDetail, takeTokenFromFragment, tournamentIdFromLocation, tournamentPath, tryRequest } from "./api.js";
import { createClock } from "./clock.js";
import { el, person, say, setChildren } from "./dom.js";
import { localTime } from "./format.js";
import { startI18n, t, tParts } from "./i18n.js";
import { makeResultForm } from "./judge-forms.js";
import { LiveFeed } from "./live.js";
import { keptCopy, readThrough } from "./offline-cache.js";
import { keepPagesOffline } from "./offline-shell.js";
import { createChecker } from "./report-check.js";
import { mountReportOutbox } from "./report-outbox.js";
import { proposalSummary, renderProposal, stateName } from "./report-proposals.js";
import { forgetToken, refusalOf, scopeOfAddress, scopeOfToken, tokenFor } from "./report-token.js";
import { gameName } from "./standings-columns.js";
import { resultTable } from "./table-result.js";

const $ = (id) => document.getElementById(id);
const tournamentId = tournamentIdFromLocation();
const REFRESH_DELAY_MS = 150; // live events that come together are read once

const state = {
  scope: { round: null, table: null },
  token: null,
  tournament: null,
  description: null, // the game's, from GET /v1/games
  sheet: null, // GET …/rounds/{r}
  table: null, // the table, from the sheet
  form: null, // judge-forms.js
  formKey: "", // the players the form was built for
  proposals: null, // GET …/proposals: newest first
  proposalsSeq: 0, // the seq that read reflects
  shownKey: "", // what the list shows (to redraw only when it changed)
  refusal: null, // "token" | "round_closed" | "off" | null: the page cannot take a result
  sending: null, // {json, key}: the body being sent and its Idempotency-Key (a retry reuses it)
  drafts: new Map(), // proposal id → the flag note being typed
  clock: null,
  feed: null,
  checker: null,
  loaded: false,
  live: false, // the live feed is connected: what changes at the table comes through it
  kept: null, // report-outbox.js: the proposals kept on this phone and not sent yet
  since: null, // when the table shown was read, if it is the phone's copy (no connection)
};

const playerName = (id) => ((state.tournament && state.tournament.players.find((p) => p.id === id)) || { name: id }).name;
const tablePath = () => `${tournamentPath(tournamentId)}/rounds/${state.scope.round}/tables/${state.scope.table}`;
const roundPath = () => `${tournamentPath(tournamentId)}/rounds/${state.scope.round}`;
// The line of what this phone keeps (report-outbox.js), drawn again.
const renderKept = () => state.kept && state.kept.render();

// ---- what this phone sent --------------------------------------------------------------------------
//
// The ids of the proposals sent from this phone, kept in the tab beside the token: its own
// proposal is not offered for flagging, and "Waiting for a judge" follows it.

const sentKey = () => `tallyd.table-sent.${tournamentId}.${state.scope.round}.${state.scope.table}`;

function sentIds() {
  try {
    const ids = JSON.parse(window.sessionStorage.getItem(sentKey()) || "[]");
    return new Set(Array.isArray(ids) ? ids : []);
  } catch {
    return new Set();
  }
}

const memory = { sent: null };
function ownProposal(id) {
  if (!memory.sent) memory.sent = sentIds();
  return memory.sent.has(id);
}

function rememberSent(id) {
  if (!memory.sent) memory.sent = sentIds();
  memory.sent.add(id);
  try {
    window.sessionStorage.setItem(sentKey(), JSON.stringify([...memory.sent]));
  } catch {
    // kept for this page only
  }
}

// ---- messages -------------------------------------------------------------------------------------

// A line in #status (role=status). A passing one ("Sent.") goes after a few seconds — what was
// sent is in "Waiting for a judge", which follows it —, a refusal stays.
let statusTimer = null;
function status(text, kind = "ok") {
  clearTimeout(statusTimer);
  say($("status"), text, kind);
  if (text && kind === "ok") {
    statusTimer = setTimeout(() => {
      if ($("status").textContent === text) say($("status"), "");
    }, 8000);
  }
}

// A status line with names in it (each a <bdi>).
function statusParts(parts, kind = "ok") {
  clearTimeout(statusTimer);
  const node = $("status");
  node.replaceChildren(...parts);
  node.className = `message ${kind}`;
  node.hidden = false;
}

const REFUSALS = {
  token: "report.refusal.token",
  round_closed: "report.refusal.round_closed",
  off: "report.refusal.off",
};

// The page cannot take a result (the link, the round, self-reporting): said plainly, the form and
// the flag forms put away. What the page already shows of the table stays.
function refuse(kind, answer = null) {
  if (kind === "rate") return rateLimited(answer);
  if (kind === "unreachable") return status(t("report.refusal.unreachable"), "error");
  state.refusal = kind;
  if (kind === "token") forgetToken(tournamentId, state.scope);
  if (state.checker) state.checker.cancel();
  $("propose-section").hidden = true;
  status(t(REFUSALS[kind] || REFUSALS.token), kind === "off" ? "warn" : "error");
  if (kind === "token") $("proposals-section").hidden = true;
  else renderProposals(true);
  renderKept(); // a proposal kept on the phone now waits for a valid link
}

let rateTimer = null;
function rateLimited(answer) {
  const seconds = Math.max(1, (answer && answer.retryAfter) || 2);
  status(t("report.refusal.rate", { seconds }), "warn");
  $("propose").disabled = true;
  clearTimeout(rateTimer);
  rateTimer = setTimeout(() => {
    $("propose").disabled = false;
  }, seconds * 1000);
}

// ---- loading ------------------------------------------------------------------------------------------

// A public read (no token): the server's answer, else the phone's copy when there is no
// connection (savedAt says of when).
async function readPublic(path, localized = false) {
  const answer = await readThrough(path, { localized });
  if (answer.ok) noteRead(answer);
  return answer;
}

function noteRead(answer) {
  if (state.since === answer.savedAt) return;
  state.since = answer.savedAt;
  renderKept();
}

// Reads the tournament, the games and the round, and shows the table. Answers false when the page
// cannot go on (said on the page).
async function load() {
  const tournament = await readPublic(tournamentPath(tournamentId));
  if (!tournament.ok) {
    if (tournament.status === 404) status(t("common.no_tournament", { id: tournamentId }), "error");
    else if (tournament.status === 0) status(t("report.refusal.unreachable"), "error");
    else status(t("common.cannot_load_tournament", { error: tournament.body?.detail || String(tournament.status) }), "error");
    return false;
  }
  state.tournament = tournament.body;
  $("tournament-info").textContent = `${state.tournament.name} · ${gameName(state.tournament.game)}`;
  $("standings-link").href = `/t/${encodeURIComponent(tournamentId)}`;
  document.title = t("report.title_named", { name: state.tournament.name });
  const games = await readPublic("/v1/games", true);
  if (!games.ok) {
    status(t("report.cannot_load", { error: problemDetail(games) }), "error");
    return false;
  }
  state.description = games.body.find((g) => g.game === state.tournament.game) || null;
  if (!(await readSheet())) return false;
  return true;
}

// GET …/rounds/{r}: the table's players, its result, whether the round is closed, the clock.
async function readSheet() {
  const answer = await readPublic(roundPath());
  if (!answer.ok) {
    if (answer.status === 404) status(t("report.no_round", { round: state.scope.round }), "error");
    else if (answer.status === 0) status(t("report.refusal.unreachable"), "error");
    else status(t("report.cannot_load", { error: answer.body?.detail || String(answer.status) }), "error");
    return false;
  }
  state.sheet = answer.body;
  state.table = state.sheet.tables.find((table) => table.table === state.scope.table) || null;
  showClock(state.sheet, Date.now());
  if (!state.table) {
    status(t("report.no_table", { table: state.scope.table, round: state.scope.round }), "error");
    return false;
  }
  showTable();
  return true;
}

// The heading, the players seated, the result in effect, the form.
function showTable() {
  const { round, table } = state.scope;
  $("report-heading").textContent = t("report.heading_table", { round, table });
  setChildren(
    $("seated-players"),
    state.table.players.map((p) => el("li", { dataset: { player: p } }, person(playerName(p)))),
  );
  $("seated").hidden = false;

  const result = resultTable(state.tournament.game, state.table, { playerName, description: state.description });
  setChildren(
    $("current-result"),
    result
      ? [
          el("h3", {}, t("report.result.heading")),
          el("p", { class: "muted" }, t(state.table.corrected ? "report.result.corrected" : "report.result.entered")),
          el("div", { class: "table-scroll" }, result),
        ]
      : null,
  );

  if (state.table.players.length === 1) {
    statusParts(tParts("report.bye", { player: person(playerName(state.table.players[0])) }), "ok");
    $("propose-section").hidden = true;
    return;
  }
  if (state.sheet.closed) return refuse("round_closed");
  if (state.tournament.self_reporting === false) return refuse("off");
  if (!state.token) return refuse("token");
  if (state.refusal) return; // refused by the server meanwhile: the form stays away
  showForm();
}

function showForm() {
  const key = state.table.players.join(",");
  if (!state.form || state.formKey !== key) {
    state.form = makeResultForm(state.description, { game: state.tournament.game, table: state.table, playerName });
    state.formKey = key;
    if (!state.form) {
      status(t("report.no_form", { game: gameName(state.tournament.game) }), "error");
      $("propose-section").hidden = true;
      return;
    }
    setChildren($("form-fields"), state.form.element);
    state.form.element.addEventListener("input", state.checker.schedule);
    state.form.element.addEventListener("change", state.checker.schedule);
    state.checker.clearErrors();
    // What this phone kept and has not sent yet is what the form shows (after a reload).
    const kept = state.kept.latest();
    if (kept) {
      state.form.fill(kept.body.players);
      $("note").value = kept.body.reason || "";
    }
    state.checker.now();
  }
  const reported = state.table.status === "reported";
  $("form-heading").textContent = t(reported ? "report.form.heading_correction" : "report.form.heading");
  $("form-intro").textContent = t(reported ? "report.form.intro_correction" : "report.form.intro");
  $("propose-section").hidden = false;
  updateSendButton();
}

// "Send to the judge", or "Send a corrected result" while this phone's proposal waits.
function updateSendButton() {
  const waiting = (state.proposals || []).some((p) => p.status === "pending" && ownProposal(p.id));
  $("propose").textContent = t(waiting ? "report.form.send_again" : "report.form.send");
}

// ---- the table's proposals ----------------------------------------------------------------------------

let refreshing = null;
let refreshAgain = false;
let retryTimer = null;

// GET …/proposals with the token, then the list and "Waiting for a judge" redrawn. One read at a
// time: a refresh asked for meanwhile runs once after it.
async function refreshProposals() {
  if (!state.token || state.refusal === "token") return;
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    const answer = await tryRequest("GET", `${tablePath()}/proposals`, { token: state.token });
    if (answer.ok) {
      state.proposals = Array.isArray(answer.body.proposals) ? answer.body.proposals : [];
      state.proposalsSeq = Number(answer.body.seq) || 0;
      renderProposals();
      updateSendButton();
      return;
    }
    const refusal = refusalOf(answer);
    if (refusal === "rate") {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(refreshProposals, Math.max(1, answer.retryAfter || 2) * 1000);
    } else if (refusal === "unreachable") {
      // the live feed says when the connection is back (a snapshot), and the list is read again
    } else if (refusal) {
      refuse(refusal, answer);
    } else {
      status(t("report.cannot_load", { error: answer.body?.detail || String(answer.status) }), "error");
    }
  })();
  try {
    await refreshing;
  } finally {
    refreshing = null;
  }
  if (refreshAgain) {
    refreshAgain = false;
    await refreshProposals();
  }
}

const context = () => ({
  game: state.tournament.game,
  description: state.description,
  playerName,
  own: ownProposal,
  drafts: state.drafts,
  canFlag: !state.refusal,
  onFlag: sendFlag,
});

// The list, redrawn when what it shows changed; a flag note being typed keeps its text and focus.
function renderProposals(force = false) {
  const list = state.proposals;
  if (!list) return;
  $("proposals-section").hidden = false;
  const key = JSON.stringify([list, state.refusal, [...(memory.sent || [])]]);
  if (key === state.shownKey && !force) return renderWaiting();
  state.shownKey = key;
  const active = document.activeElement;
  const typing =
    active && active.matches && active.matches("textarea[name=note]")
      ? { id: active.dataset.proposal, start: active.selectionStart, end: active.selectionEnd }
      : null;
  $("proposals-empty").hidden = list.length > 0;
  const ctx = context();
  setChildren($("proposals"), list.map((p) => renderProposal(p, ctx)));
  if (typing) {
    const again = $("proposals").querySelector(`textarea[name=note][data-proposal="${CSS.escape(String(typing.id))}"]`);
    if (again) {
      again.focus();
      again.setSelectionRange(typing.start, typing.end);
    }
  }
  renderWaiting();
}

// "Waiting for a judge": the newest proposal this phone sent, as it stands now.
function renderWaiting() {
  const box = $("waiting");
  const mine = (state.proposals || []).find((p) => ownProposal(p.id));
  if (!mine) {
    box.hidden = true;
    return;
  }
  box.dataset.proposal = String(mine.id);
  box.dataset.status = mine.status;
  box.className = `waiting ${mine.status}`;
  $("waiting-heading").textContent = stateName(mine.status);
  const d = mine.decision;
  // A table's token is not told which judge decided (docs/api.md, issue 39 F9); the sentence then
  // starts with "a judge", capitalised.
  const unnamed = t("report.a_judge");
  const judge = person((d && d.by) || unnamed.charAt(0).toLocaleUpperCase() + unnamed.slice(1));
  const text = {
    pending: () => t("report.waiting.pending", { time: localTime(mine.at) }),
    superseded: () => t("report.waiting.superseded"),
    approved: () => tParts("report.waiting.approved", { judge, time: localTime(d && d.at) }),
    rejected: () => [
      ...tParts("report.waiting.rejected", { judge, time: localTime(d && d.at) }),
      d && d.reason ? [" ", el("q", { dir: "auto", class: "reason" }, d.reason)] : null,
    ],
  }[mine.status];
  setChildren($("waiting-text"), text ? text() : "");
  setChildren(
    $("waiting-proposal"),
    // What was sent while it waits or after it was rejected (to correct it); once approved it is
    // the result in effect, shown above.
    mine.status === "pending" || mine.status === "rejected" ? proposalSummary(mine, context()) : null,
    (mine.flags || []).length ? el("p", { class: "waiting-flags" }, t("report.waiting.flagged", { count: mine.flags.length })) : null,
  );
  box.hidden = false;
}

// ---- sending -----------------------------------------------------------------------------------------

// The same body sent again (a retry after no answer) carries the same key: tallyd then answers
// the first send's proposal instead of recording a second one.
async function sendAsItIs(body) {
  const json = JSON.stringify(body);
  if (!state.sending || state.sending.json !== json) state.sending = { json, key: newIdempotencyKey() };
  return tryRequest("POST", `${tablePath()}/proposals`, { token: state.token, body, headers: { "Idempotency-Key": state.sending.key } });
}

// The proposal kept on the phone first, then sent (report-outbox.js). Answers the server's
// answer, or null when it is kept unsent or the outbox is full (said here).
async function keepAndSend(body, players) {
  const kept = await state.kept.save(body);
  if (kept.full) {
    say($("status"), "");
    state.checker.showErrors([{ message: t("outbox.full", { limit: kept.full }) }], players);
    return null;
  }
  if (!kept.stored) return sendAsItIs(body); // the phone keeps nothing: sent as it is
  if (!kept.answer) {
    status(t("report.send.unreachable"), "error");
    return null;
  }
  return kept.answer;
}

async function propose(event) {
  event.preventDefault();
  if (!state.form || state.refusal) return;
  state.checker.cancel(); // the answer to the proposal says it all
  state.checker.clearErrors();
  const players = state.form.players();
  const body = { players };
  const note = $("note").value.trim();
  if (note) body.reason = note;
  const button = $("propose");
  button.disabled = true;
  status(t("report.send.sending"), "ok");
  let answer;
  try {
    answer = await keepAndSend(body, players);
  } finally {
    button.disabled = false;
  }
  if (!answer) return; // kept on the phone, or the outbox full: said
  if (answer.status === 201 || answer.status === 200) {
    state.sending = null;
    const proposal = answer.body && answer.body.proposal;
    if (proposal) {
      rememberSent(proposal.id);
      // Shown at once; the read that follows brings the list as the server has it.
      const others = (state.proposals || []).filter((p) => p.id !== proposal.id);
      state.proposals = [proposal, ...others.map((p) => (p.status === "pending" ? { ...p, status: "superseded" } : p))];
      renderProposals(true);
      updateSendButton();
    }
    status(t("report.send.sent"), "ok");
    $("waiting").focus();
    $("waiting").scrollIntoView({ block: "start" });
    // The live feed brings the proposal's event, after which the list is read again; without the
    // feed it is read now. (Every read spends the table's shared request budget.)
    if (!state.live) refreshProposals();
    return;
  }
  if (answer.status === 0) {
    status(t("report.send.unreachable"), "error");
    return;
  }
  const refusal = refusalOf(answer);
  if (refusal) {
    refuse(refusal, answer);
    return;
  }
  state.sending = null; // refused as it is: a changed body gets a new key anyway
  const detail = problemDetail(answer);
  if (answer.status === 422 && Array.isArray(answer.body?.errors)) {
    say($("status"), "");
    state.checker.showErrors(answer.body.errors, players, detail);
    return;
  }
  status(t("report.send.refused", { detail }), "error");
}

// ---- kept on this phone ---------------------------------------------------------------------------
//
// A line under the status (report-outbox.js): the proposals kept on this phone and not sent yet,
// and why — no connection (the table as it was at 14:32), a refusal, a link no longer valid —
// each with "Discard", which asks first.

function mountKept() {
  return mountReportOutbox($("status"), {
    tournamentId,
    scope: state.scope,
    token: () => state.token,
    refusal: () => state.refusal,
    since: () => state.since,
    // A proposal sent from the outbox while the player was not looking (the connection came back).
    onSent: async (answer) => {
      const proposal = answer.body && answer.body.proposal;
      if (proposal) rememberSent(proposal.id);
      status(t("report.send.sent"), "ok");
      await refreshProposals();
    },
    onRevoked: () => refuse("token"),
    onOnline: () => {
      if (state.since) scheduleReload(); // the table as it is now, not the phone's copy
    },
  });
}

// "This is wrong": the note is required (said at its field before anything is sent).
async function sendFlag(proposal, textarea, error) {
  const note = textarea.value.trim();
  textarea.removeAttribute("aria-invalid");
  error.textContent = "";
  if (!note) {
    error.textContent = t("report.flag.note_missing");
    textarea.setAttribute("aria-invalid", "true");
    textarea.focus();
    return;
  }
  const button = textarea.form && textarea.form.querySelector("button[type=submit]");
  if (button) button.disabled = true;
  let answer;
  try {
    answer = await tryRequest("POST", `${tablePath()}/proposals/${encodeURIComponent(proposal.id)}/flag`, {
      token: state.token,
      body: { note },
      headers: { "Idempotency-Key": newIdempotencyKey() },
    });
  } finally {
    if (button) button.disabled = false;
  }
  if (answer.status === 201 || answer.status === 200) {
    state.drafts.delete(proposal.id);
    status(t("report.flag.sent"), "ok");
    const flagged = answer.body && answer.body.proposal;
    if (flagged && state.proposals) {
      state.proposals = state.proposals.map((p) => (p.id === flagged.id ? flagged : p));
      renderProposals(true);
    }
    if (!state.live) refreshProposals();
    return;
  }
  const refusal = refusalOf(answer);
  if (refusal) return refuse(refusal, answer);
  const rules = Array.isArray(answer.body?.errors) ? answer.body.errors : [];
  if (answer.status === 409) {
    status(t("report.flag.not_pending"), "warn");
    refreshProposals();
    return;
  }
  const atNote = rules.filter((e) => e.field === "note");
  const text = (atNote.length ? atNote : rules).map((e) => e.message).filter(Boolean).join(" ") || problemDetail(answer);
  error.textContent = text;
  textarea.setAttribute("aria-invalid", "true");
  textarea.focus();
}

// ---- the round clock and the live feed ---------------------------------------------------------------

function showClock(round, receivedAt) {
  if (!round || round.round !== state.scope.round) return;
  if (!round.closed) state.clock.setLabel(t("report.clock_round", { round: round.round }));
  state.clock.update(round.closed ? null : round.clock, receivedAt);
}

let refreshTimer = null;
let sheetWanted = false;
let firstSnapshot = true;

// A change at this table (its result, a proposal, a flag, a decision), the round (closed) or the
// tournament (self-reporting turned on or off): read again what it touches, once for a burst.
function onLiveMessage(message) {
  if (message.type === "snapshot" || message.type === "standings") {
    showClock(message.round, Date.now());
    const ours = message.round && message.round.round === state.scope.round;
    if (ours && message.round.closed && state.refusal !== "round_closed" && state.loaded) {
      sheetWanted = true;
      scheduleRefresh();
    }
    if (message.type === "snapshot") {
      // After a reconnect, what was missed is read again; the first snapshot too when it is newer
      // than the proposals read at the start.
      if (!firstSnapshot || !(message.seq <= state.proposalsSeq)) {
        sheetWanted = true;
        scheduleRefresh();
      }
      firstSnapshot = false;
    }
    return;
  }
  if (message.type !== "event" || !message.event) return;
  const event = message.event;
  if (event.type === "self_reporting") {
    scheduleReload();
    return;
  }
  const stream = String(event.stream || "");
  const ours = `t/${tournamentId}/r/${state.scope.round}/table/${state.scope.table}`;
  if (stream === ours || stream === `${ours}/proposals`) {
    if (stream === ours) sheetWanted = true;
    scheduleRefresh();
  } else if (event.type === "round_closed" || stream === `t/${tournamentId}/r/${state.scope.round}`) {
    sheetWanted = true;
    scheduleRefresh();
  }
}

function scheduleRefresh() {
  if (!state.loaded) return;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(async () => {
    const sheet = sheetWanted;
    sheetWanted = false;
    if (sheet) await readSheet();
    if (state.refusal !== "token") await refreshProposals();
  }, REFRESH_DELAY_MS);
}

let reloadTimer = null;
function scheduleReload() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(async () => {
    const wasOff = state.refusal === "off";
    if (wasOff) {
      state.refusal = null;
      say($("status"), "");
    }
    if (await load()) await refreshProposals();
  }, REFRESH_DELAY_MS);
}

// ---- start -----------------------------------------------------------------------------------------

async function main() {
  const linked = takeTokenFromFragment() || null;
  let scope = scopeOfAddress();
  const fromToken = scopeOfToken(linked);
  if ((!scope.round || !scope.table) && fromToken && fromToken.tournament === tournamentId) {
    // A link without ?round=&table=: the token names its table; the address says it from now on,
    // so that a reload finds the token kept for it.
    scope = { round: fromToken.round, table: fromToken.table };
    window.history.replaceState(null, "", `${window.location.pathname}?round=${scope.round}&table=${scope.table}`);
  }
  state.scope = scope;
  await startI18n({
    tournament: tournamentId, // a table token is not sent to read the locale
    // Without the network, the tournament's language as this phone last read it.
    keptLocale: async () => ((await keptCopy(tournamentPath(tournamentId))) || {}).locale,
  });
  state.clock = createClock($("round-clock"), { size: "small" });
  if (!tournamentId) return;
  if (!scope.round || !scope.table) {
    status(t("report.refusal.token"), "error");
    return;
  }
  state.token = tokenFor(tournamentId, scope, linked);
  keepPagesOffline();
  state.kept = await mountKept();
  state.checker = createChecker({
    getForm: () => (state.refusal ? null : state.form),
    checkPath: () => `${tablePath()}/result/check`,
    token: () => state.token,
    playerName,
    game: () => (state.tournament ? state.tournament.game : ""),
    // The note goes with a check only where the proposal would correct an entered result.
    note: () => (state.table && state.table.status === "reported" ? $("note").value.trim() : ""),
    onRefusal: refuse,
  });
  $("result-form").addEventListener("submit", propose);
  // The note goes with a check only for a correction (see `note` above): otherwise typing it
  // checks nothing new.
  $("note").addEventListener("input", () => state.table && state.table.status === "reported" && state.checker.schedule());

  const ready = await load();
  if (ready && state.token && !state.refusal) await refreshProposals();
  state.loaded = true;
  state.kept.start();
  // The feed after the first read of the proposals: its snapshot says whether anything happened
  // between the two (then they are read again).
  if (state.tournament) {
    state.feed = new LiveFeed(tournamentId, {
      onMessage: onLiveMessage,
      onStatus: (s) => {
        const back = s === "live" && !state.live;
        state.live = s === "live";
        if (!back) return;
        state.kept.poke();
        if (state.since) scheduleReload(); // the table as it is now, not the phone's copy
      },
    });
    state.feed.start();
  }
}

main().catch((e) => {
  // Never a blank page: whatever went wrong is said.
  say($("status"), t("report.cannot_load", { error: String((e && e.message) || e) }), "error");
});
