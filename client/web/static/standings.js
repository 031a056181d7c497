// The public standings page (/t/{t}): live standings, the current round's clock, a CSV download,
// and for any round the pairings by table and by name and the result slips, each printable on its
// own. Once the last round is closed as the final one, the standings are the final standings.

import { getJson, tournamentIdFromLocation, tournamentPath } from "./api.js";
import { createClock } from "./clock.js";
import { clear, el, say, setChildren } from "./dom.js";
import { choiceName, loadGames } from "./games.js";
import { formatList, language, startI18n, t } from "./i18n.js";
import { LiveFeed } from "./live.js";
import { resultSlip } from "./slips.js";
import { gameName, standingsColumns, standingsCsv } from "./standings-columns.js";

const $ = (id) => document.getElementById(id);
const tournamentId = tournamentIdFromLocation();
let tournament = null; // GET /v1/tournaments/{t}
let description = null; // the game's, from GET /v1/games (the result slips' fields)
let standings = null;
let shownRound = null; // the round whose pairings are shown
let progressKey = "";
let roundClock = null; // clock.js, once the catalog is loaded

const playerName = (id) => (tournament.players.find((p) => p.id === id) || { name: id }).name;

// ---- standings --------------------------------------------------------------------------------

function renderStandings() {
  const columns = standingsColumns(tournament.game, standings).filter((c) => !c.csvOnly);
  const table = $("standings");
  setChildren(table.tHead,
    el("tr", {}, columns.map((c) => el("th", { scope: "col", class: c.numeric ? "number" : "" }, c.label))),
  );
  const body = clear(table.tBodies[0]);
  for (const row of standings.rows) {
    const tr = el("tr", { dataset: { player: row.player } });
    for (const c of columns) {
      const classes = [c.key, c.numeric ? "number" : "", c.dropped && c.dropped(row) ? "dropped-result" : ""];
      const cell = el(c.key === "name" ? "th" : "td", { class: classes.join(" ").trim() }, c.text(row));
      if (c.key === "name") cell.setAttribute("scope", "row");
      if (c.key === "name" && row.dropped) cell.append(el("span", { class: "badge" }, t("common.dropped")));
      tr.append(cell);
    }
    body.append(tr);
  }
  $("download-csv").disabled = false;
  const conqueror = standings.conqueror || [];
  $("conqueror").hidden = conqueror.length === 0;
  $("conqueror").textContent = conqueror.length
    ? t("standings.conqueror", { count: conqueror.length, players: formatList(conqueror.map(playerName)) })
    : "";
}

// The CSV as a file download: UTF-8 with a byte-order mark (so that spreadsheet programs read
// accented names right), named after the tournament.
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
  const sheet = await getJson(`${tournamentPath(tournamentId)}/rounds/${number}`);
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
    const names = table.players.map((p) => {
      const house = table.houses && table.houses[p];
      return house ? `${playerName(p)} (${choiceName(house)})` : playerName(p);
    });
    if (table.players.length === 1) names.push(t("standings.bye_mark"));
    body.append(
      el(
        "tr",
        { dataset: { table: table.table } },
        el("th", { scope: "row", class: "number" }, String(table.table)),
        hasLeagues && el("td", {}, table.league || ""),
        el("td", {}, names.join(", ")),
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
    for (const p of table.players) seats.push({ name: playerName(p), table: table.table, bye: table.players.length === 1 });
  }
  const collator = new Intl.Collator(tournament.locale || language());
  seats.sort((a, b) => collator.compare(a.name, b.name) || a.table - b.table);
  const body = clear($("pairings-by-name").querySelector("tbody"));
  for (const seat of seats) {
    body.append(
      el(
        "tr",
        {},
        el("th", { scope: "row" }, seat.name),
        el("td", { class: "number" }, seat.bye ? t("standings.table_bye", { table: String(seat.table) }) : String(seat.table)),
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

function printPart(part) {
  document.body.dataset.print = part;
  window.print();
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
  const key = message.round ? `${message.round.round}/${message.round.reported}` : "";
  const rowsKnown = standings.rows.every((r) => tournament.players.some((p) => p.id === r.player));
  if (key !== progressKey || !rowsKnown) {
    // A round was seated or reported, or a player added: names, rounds and pairings may change.
    const newRound = message.round && !tournament.rounds.some((r) => r.round === message.round.round);
    progressKey = key;
    tournament = await getJson(tournamentPath(tournamentId));
    fillRoundSelect();
    if (newRound || shownRound === null) {
      if (tournament.rounds.length) await showRound(Number($("round-select").value));
    } else if (shownRound !== null) {
      await showRound(shownRound);
    }
  }
  renderStandings();
}

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

  $("download-csv").addEventListener("click", downloadCsv);
  $("round-select").addEventListener("change", (e) => showRound(Number(e.target.value)));
  $("print-by-table").addEventListener("click", () => printPart("by-table"));
  $("print-by-name").addEventListener("click", () => printPart("by-name"));
  $("print-slips").addEventListener("click", () => printPart("slips"));
  window.addEventListener("afterprint", () => delete document.body.dataset.print);

  const status = $("live-status");
  let chain = Promise.resolve(); // messages are handled one after the other
  const feed = new LiveFeed(tournamentId, {
    onStatus: (s) => (status.textContent = t(s === "live" ? "common.live" : s === "lost" ? "common.connection_lost" : "common.connecting")),
    onMessage: (message) => {
      if (message.type !== "snapshot" && message.type !== "standings") return;
      renderRound(message.round, Date.now()); // now: the clock counts from the moment it came
      chain = chain.then(() => onStandings(message)).catch((e) => say($("load-error"), e.message, "error"));
    },
  });
  feed.start();
}

main();
