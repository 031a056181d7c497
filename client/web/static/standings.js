// The public page (/t/{t}), the players' phone page, players first: "Find me" (find-me.js) and
// then the chosen player's table, seat, opponents and results (my-results.js); the current
// round's pairings by name and by table at the top while the round is played; the standings,
// live — on a phone compact (rank, name, points, the rest of a row behind a tap on the name), on
// a wider screen with every column; a CSV download; the round clock; and for any round the
// pairings and the result slips, each printable on its own. Once the last round is closed as the
// final one, the standings are the final standings.

import { getJson, tournamentIdFromLocation, tournamentPath } from "./api.js";
import { createClock } from "./clock.js";
import { clear, el, person, say, setChildren } from "./dom.js";
import { createFindMe, rememberedPlayer, rememberPlayer } from "./find-me.js";
import { choiceName, loadGames } from "./games.js";
import { language, startI18n, t, tParts } from "./i18n.js";
import { LiveFeed } from "./live.js";
import { renderMe } from "./my-results.js";
import { resultSlip } from "./slips.js";
import { gameName, standingsColumns, standingsCsv } from "./standings-columns.js";

const $ = (id) => document.getElementById(id);
const tournamentId = tournamentIdFromLocation();
// A screen this narrow (a phone) shows the compact standings.
const narrow = window.matchMedia("(max-width: 40rem)");
let tournament = null; // GET /v1/tournaments/{t}
let description = null; // the game's, from GET /v1/games (the result slips' fields)
let standings = null;
let shownRound = null; // the round whose pairings are shown
let progressKey = "";
let roundClock = null; // clock.js, once the catalog is loaded
let me = null; // the player "Find me" chose (an id), or null
let finder = null;

const playerName = (id) => (tournament.players.find((p) => p.id === id) || { name: id }).name;

// ---- the round sheets, fetched once and again when their round changes -------------------------

const sheets = new Map(); // round → a promise of GET …/rounds/{r}

function sheetOf(number) {
  if (!sheets.has(number)) {
    const loading = getJson(`${tournamentPath(tournamentId)}/rounds/${number}`);
    loading.catch(() => sheets.delete(number)); // a failed read is tried again next time
    sheets.set(number, loading);
  }
  return sheets.get(number);
}

const latestRound = () => (tournament.rounds.length ? tournament.rounds[tournament.rounds.length - 1] : null);

// ---- standings --------------------------------------------------------------------------------

function renderStandings() {
  const all = standingsColumns(tournament.game, standings).filter((c) => !c.csvOnly);
  const compact = narrow.matches;
  const shown = compact ? all.filter((c) => c.key === "rank" || c.key === "name" || c.primary) : all;
  const more = compact ? all.filter((c) => !shown.includes(c)) : [];
  const table = $("standings");
  table.classList.toggle("compact", compact);
  setChildren(table.tHead, el("tr", {}, shown.map((c) => el("th", { scope: "col", class: c.numeric ? "number" : "" }, c.label))));
  const body = clear(table.tBodies[0]);
  const conqueror = standings.conqueror || [];
  for (const row of standings.rows) {
    const tr = el("tr", { class: row.player === me ? "me" : "", dataset: { player: row.player } });
    for (const c of shown) {
      if (c.key === "name") {
        const name = [
          person(c.text(row)),
          row.dropped && el("span", { class: "badge" }, t("common.dropped")),
          conqueror.includes(row.player) && el("span", { class: "badge", title: t("common.conqueror_title") }, t("common.conqueror")),
        ];
        tr.append(el("th", { scope: "row", class: "name" }, compact ? rowDetails(name, row, more) : name));
        continue;
      }
      const classes = [c.key, c.numeric ? "number" : "", c.dropped && c.dropped(row) ? "dropped-result" : ""];
      tr.append(el("td", { class: classes.join(" ").trim() }, c.text(row)));
    }
    body.append(tr);
  }
  $("download-csv").disabled = false;
  $("conqueror").hidden = conqueror.length === 0;
  setChildren(
    $("conqueror"),
    conqueror.length ? tParts("standings.conqueror", { count: conqueror.length, players: nameList(conqueror.map(playerName)) }) : [],
  );
}

// "Eva, Petr and Jana" in the page's language, each name isolated.
function nameList(names) {
  const parts = new Intl.ListFormat(language(), { type: "conjunction" }).formatToParts(names);
  return el("span", {}, parts.map((part) => (part.type === "element" ? person(part.value) : part.value)));
}

// On a phone the name opens the rest of its row: a disclosure per row, its columns as a list.
function rowDetails(name, row, columns) {
  return el(
    "details",
    { class: "row-details" },
    el("summary", {}, name),
    el(
      "dl",
      { class: "row-more" },
      columns.map((c) =>
        el("div", { class: c.dropped && c.dropped(row) ? "dropped-result" : "" }, el("dt", {}, c.label), el("dd", { class: "number" }, c.text(row) || "–")),
      ),
    ),
  );
}

// The CSV as a file download: UTF-8 with a byte-order mark (so that spreadsheet programs read
// accented names right), named after the tournament; names people typed are neutralised there
// (standings-columns.js).
function downloadCsv() {
  const blob = new Blob(["\ufeff", standingsCsv(tournament.game, standings)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: `${tournamentId}-standings.csv` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// ---- a round: pairings and slips --------------------------------------------------------------

async function showRound(number) {
  const sheet = await sheetOf(number);
  shownRound = number;
  $("round-heading").textContent = t("standings.round", { round: String(number) });
  renderByTable(sheet);
  renderByName(sheet);
  setChildren($("slips"), sheet.tables.map((table) => resultSlip(tournament, sheet, table, playerName, description)));
}

function renderByTable(sheet) {
  const hasLeagues = sheet.tables.some((table) => table.league);
  const hasHouses = sheet.tables.some((table) => table.houses && Object.keys(table.houses).length);
  const section = $("pairings-by-table");
  setChildren(section.querySelector("thead"),
    el(
      "tr",
      {},
      el("th", { scope: "col", class: "number" }, t("standings.column.table")),
      hasLeagues && el("th", { scope: "col" }, t("standings.column.league")),
      el("th", { scope: "col" }, t("standings.column.players")),
    ),
  );
  const body = clear(section.querySelector("tbody"));
  for (const table of [...sheet.tables].sort((a, b) => a.table - b.table)) {
    // Each name isolated on its own: a right-to-left override in one cannot reverse the next.
    const names = table.players.flatMap((p, i) => {
      const house = table.houses && table.houses[p];
      return [i > 0 && ", ", person(playerName(p)), house && ` (${choiceName(house)})`];
    });
    if (table.players.length === 1) names.push(" ", t("standings.bye_mark"));
    body.append(
      el(
        "tr",
        { class: table.players.includes(me) ? "me" : "", dataset: { table: table.table } },
        el("th", { scope: "row", class: "number" }, String(table.table)),
        hasLeagues && el("td", {}, table.league || ""),
        el("td", {}, names),
      ),
    );
  }
  section.dataset.houses = hasHouses ? "yes" : "no";
}

// Everyone seated, by name in the tournament's collation (e.g. Czech puts "Ch" after "H"; the
// names are the tournament's, whatever the page's language), else the page language's.
function renderByName(sheet) {
  const seats = [];
  for (const table of sheet.tables) {
    for (const p of table.players) seats.push({ player: p, name: playerName(p), table: table.table, bye: table.players.length === 1 });
  }
  // AGoT's byes sit at no table.
  for (const p of sheet.byes || []) seats.push({ player: p, name: playerName(p), table: null, bye: true });
  const collator = new Intl.Collator(tournament.locale || language());
  seats.sort((a, b) => collator.compare(a.name, b.name) || (a.table ?? 0) - (b.table ?? 0));
  const body = clear($("pairings-by-name").querySelector("tbody"));
  for (const seat of seats) {
    body.append(
      el(
        "tr",
        { class: seat.player === me ? "me" : "" },
        el("th", { scope: "row" }, person(seat.name)),
        el(
          "td",
          { class: "number" },
          seat.table === null ? t("standings.bye_mark") : seat.bye ? t("standings.table_bye", { table: String(seat.table) }) : String(seat.table),
        ),
      ),
    );
  }
}

function fillRoundSelect() {
  const select = $("round-select");
  const current = select.value;
  setChildren(select,
    tournament.rounds.map((r) =>
      el("option", { value: String(r.round) }, t("standings.round_option", { round: String(r.round), reported: r.reported, total: r.tables_total })),
    ),
  );
  const latest = tournament.rounds.length ? String(tournament.rounds[tournament.rounds.length - 1].round) : "";
  select.value = current && tournament.rounds.some((r) => String(r.round) === current) ? current : latest;
  $("round-section").hidden = tournament.rounds.length === 0;
}

// While a round is played its pairings come first (after "Find me"); once it is closed, the
// standings do.
function placeRoundSection() {
  const latest = latestRound();
  const running = Boolean(latest && !latest.closed);
  const main = $("main");
  if (running) main.insertBefore($("round-section"), $("standings-section"));
  else main.append($("round-section"));
  document.body.classList.toggle("round-running", running);
}

function printPart(part) {
  document.body.dataset.print = part;
  window.print();
}

// ---- "Find me" and the chosen player's results ------------------------------------------------

// The players to search, in the server's order: the standings' rows (every registered player),
// or the registration order before the standings came.
const searchable = () =>
  standings ? standings.rows.map((r) => ({ id: r.player, name: r.name, dropped: r.dropped })) : tournament.players;

function choose(player) {
  me = player;
  rememberPlayer(tournamentId, player);
  if (!player && finder) finder.clear();
  renderFindMe();
  if (standings) renderStandings();
  if (shownRound !== null) showRound(shownRound).catch(showError);
  return renderMeCard();
}

function renderFindMe() {
  const chosen = me !== null;
  $("find-form").hidden = chosen;
  $("me-card").hidden = !chosen;
  $("not-me").hidden = !chosen;
  setChildren($("find-me-heading"), chosen ? person(playerName(me)) : t("standings.find.heading"));
  if (!chosen) clear($("me-card"));
}

async function renderMeCard() {
  if (me === null || !standings) return;
  const rounds = tournament.rounds.map((r) => r.round);
  const all = await Promise.all(rounds.map(sheetOf));
  if (me === null) return; // forgotten meanwhile
  renderMe($("me-card"), { tournament, standings, sheets: all, me, description, playerName });
}

// ---- the live round: its clock, and the end of the event --------------------------------------

// `round`: the live feed's (null before the first round); `receivedAt`: when it arrived.
function renderRound(round, receivedAt) {
  const open = round && !round.closed;
  if (open) roundClock.setLabel(t("standings.clock_round", { round: String(round.round) }));
  roundClock.update(open ? round.clock : null, receivedAt);
  showFinal(Boolean(round && round.closed && round.final));
}

function showFinal(final) {
  document.body.classList.toggle("final", final);
  $("standings-heading").textContent = t(final ? "standings.final_heading" : "standings.heading");
  $("standings").caption.textContent = t(final ? "standings.final_caption" : "standings.caption");
}

// ---- live updates -----------------------------------------------------------------------------

async function onStandings(message) {
  standings = message.standings;
  const round = message.round;
  const key = round ? `${round.round}/${round.reported}/${Boolean(round.closed)}` : "";
  const rowsKnown = standings.rows.every((r) => tournament.players.some((p) => p.id === r.player));
  if (key !== progressKey || !rowsKnown) {
    // A round was seated, reported or closed, or a player added: names, rounds and pairings may
    // change.
    const newRound = round && !tournament.rounds.some((r) => r.round === round.round);
    progressKey = key;
    tournament = await getJson(tournamentPath(tournamentId));
    if (round) sheets.delete(round.round);
    fillRoundSelect();
    placeRoundSection();
    if (newRound || shownRound === null) {
      if (tournament.rounds.length) await showRound(Number($("round-select").value));
    } else if (shownRound !== null) {
      await showRound(shownRound);
    }
  }
  if (me !== null && !tournament.players.some((p) => p.id === me)) choose(null);
  renderStandings();
  finder.refresh();
  await renderMeCard();
}

// An event at a table (a result, its correction, a claim, a pick) changes that round's sheet:
// it is read again, and what shows it drawn anew.
let refreshTimer = null;
function onEvent(message) {
  const match = /\/r\/(\d+)(\/|$)/.exec((message.event && message.event.stream) || "");
  if (!match) return;
  const round = Number(match[1]);
  sheets.delete(round);
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    chain = chain
      .then(async () => {
        if (shownRound === round) await showRound(round);
        await renderMeCard();
      })
      .catch(showError);
  }, 300);
}

let chain = Promise.resolve(); // messages are handled one after the other
const showError = (e) => say($("load-error"), e.message, "error");

async function main() {
  await startI18n({ tournament: tournamentId });
  if (!tournamentId) return;
  $("board-link").href = `/t/${encodeURIComponent(tournamentId)}/board`;
  $("judge-link").href = `/t/${encodeURIComponent(tournamentId)}/judge`;
  try {
    tournament = await getJson(tournamentPath(tournamentId));
  } catch (e) {
    const text = e.status === 404 ? t("common.no_tournament", { id: tournamentId }) : t("common.cannot_load_tournament", { error: e.message });
    say($("load-error"), text, "error");
    return;
  }
  try {
    description = (await loadGames()).get(tournament.game) || null;
  } catch {
    description = null; // the slips then have a score column only; the rest of the page works
  }
  $("tournament-name").textContent = tournament.name;
  roundClock = createClock($("round-clock"), { size: "small" });
  showFinal(Boolean(tournament.final));
  document.title = t("standings.title_named", { name: tournament.name });
  $("tournament-info").textContent = t("standings.info", { game: gameName(tournament.game), players: tournament.players.length });
  fillRoundSelect();
  placeRoundSection();

  const remembered = rememberedPlayer(tournamentId);
  me = remembered && tournament.players.some((p) => p.id === remembered) ? remembered : null;
  finder = createFindMe({
    form: $("find-form"),
    input: $("find-input"),
    results: $("find-results"),
    status: $("find-status"),
    players: searchable,
    onChoose: (player) => {
      chain = chain.then(() => choose(player)).catch(showError);
      chain.then(() => $("find-me-heading").focus());
    },
  });
  $("find-me-heading").tabIndex = -1; // focused when a player is chosen: the card is read from there
  $("not-me").addEventListener("click", () => {
    chain = chain.then(() => choose(null)).catch(showError);
    chain.then(() => $("find-input").focus());
  });
  renderFindMe();

  $("download-csv").addEventListener("click", downloadCsv);
  $("round-select").addEventListener("change", (e) => showRound(Number(e.target.value)).catch(showError));
  $("print-by-table").addEventListener("click", () => printPart("by-table"));
  $("print-by-name").addEventListener("click", () => printPart("by-name"));
  $("print-slips").addEventListener("click", () => printPart("slips"));
  window.addEventListener("afterprint", () => delete document.body.dataset.print);
  narrow.addEventListener("change", () => standings && renderStandings());

  const status = $("live-status");
  const feed = new LiveFeed(tournamentId, {
    onStatus: (s) => (status.textContent = t(s === "live" ? "common.live" : s === "lost" ? "common.connection_lost" : "common.connecting")),
    onMessage: (message) => {
      if (message.type === "event") onEvent(message);
      if (message.type !== "snapshot" && message.type !== "standings") return;
      renderRound(message.round, Date.now()); // now: the clock counts from the moment it came
      chain = chain.then(() => onStandings(message)).catch(showError);
    },
  });
  feed.start();
}

main();
