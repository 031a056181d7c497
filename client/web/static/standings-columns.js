// The columns of a standings table, per game (docs/games/*.md give the rows' members). Used by
// the venue board (the columns marked `board`), the public page and its CSV download.
//
// A column: {key, label (in the page's language), header (the CSV's, the same in every
//            language), text(row) → what is shown, csv(row) → the CSV cell, numeric, board,
//            csvOnly, person (the cell is a person's name: shown isolated, dom.js person()),
//            people (the cell is text people typed: neutralised in the CSV), primary (the
//            column the standings are first ordered by: the one the phone's compact table
//            shows beside the name)}
// The CSV is for spreadsheets and scripts: English headers and "2.50" in every language, like
// the `tally --csv` of the CLI.

import { compact, fixed2, percent2, plainCompact, plainFixed2, plainPercent2, rankText, sharedRanks } from "./format.js";
import { t } from "./i18n.js";

const GAME_NAMES = {
  catan: "game.catan",
  agot: "game.agot",
  carcassonne: "game.carcassonne",
};

export function gameName(game) {
  return Object.hasOwn(GAME_NAMES, game) ? t(GAME_NAMES[game]) : game;
}

// A column whose cell is a whole number as it is (no locale form needed below 1000).
const count = (member) => (r) => String(r[member]);

function column(key, label, header, text, csv, extra = {}) {
  return { key, label, header, text, csv: csv || text, ...extra };
}

// Rank ("3=" where tallyd gives two rows the same rank; the CSV keeps the number), name, games.
function common(standings) {
  const shared = sharedRanks(standings.rows || []);
  return [
    column("rank", "#", "#", (r) => rankText(r.rank, shared.has(r.rank)), count("rank"), { numeric: true, board: true }),
    column("name", t("columns.name"), "Name", (r) => r.name, null, { board: true, person: true, people: true }),
    column("games", t("columns.games"), "Games", count("games"), null, { numeric: true, board: true }),
  ];
}

function catanColumns(standings) {
  return [
    ...common(standings),
    column("round_points", t("columns.round_points"), "Round points", (r) => fixed2(r.round_points), (r) => plainFixed2(r.round_points), {
      numeric: true,
      board: true,
      primary: true,
    }),
    column("vp", t("columns.vp"), "VP", count("vp"), null, { numeric: true, board: true }),
    column("vp_share", t("columns.vp_share"), "VP share", (r) => percent2(r.vp_share), (r) => plainPercent2(r.vp_share), {
      numeric: true,
      board: true,
    }),
  ];
}

// One column per round played so far; a dropped result (not counted) is shown in parentheses.
function agotColumns(standings) {
  const rounds = new Set();
  for (const row of standings.rows) for (const r of row.results || []) rounds.add(r.round);
  const resultOf = (row, round) => (row.results || []).find((r) => r.round === round);
  const roundColumns = [...rounds]
    .sort((a, b) => a - b)
    .map((round) =>
      column(
        `round_${round}`,
        t("columns.round_short", { round: String(round) }),
        `R${round}`,
        (row) => {
          const result = resultOf(row, round);
          if (!result) return "";
          return result.dropped ? `(${compact(result.points)})` : compact(result.points);
        },
        (row) => {
          const result = resultOf(row, round);
          return result ? plainCompact(result.points) : "";
        },
        { numeric: true, dropped: (row) => Boolean(resultOf(row, round) && resultOf(row, round).dropped) },
      ),
    );
  const droppedRounds = (row) =>
    (row.results || [])
      .filter((r) => r.dropped)
      .map((r) => r.round)
      .join(" ");
  return [
    ...common(standings),
    ...roundColumns,
    column("dropped_round", "", "Dropped round", droppedRounds, null, { csvOnly: true }),
    column("total", t("columns.total"), "Total", (r) => compact(r.total), (r) => plainCompact(r.total), { numeric: true, board: true, primary: true }),
    column("wins", t("columns.wins"), "Wins", count("wins"), null, { numeric: true, board: true }),
    column("capitals_captured", t("columns.capitals"), "Capitals", count("capitals_captured"), null, { numeric: true, board: true }),
    column("lands_captured", t("columns.lands"), "Lands", count("lands_captured"), null, { numeric: true }),
    column("next_league", t("columns.next_league"), "Next league", (r) => r.next_league || "", null, { board: true }),
  ];
}

function carcassonneColumns(standings) {
  const byWins = standings.rows.some((r) => r.wins !== undefined);
  return [
    ...common(standings),
    byWins
      ? column("wins", t("columns.wins"), "Wins", (r) => compact(r.wins), (r) => plainCompact(r.wins), { numeric: true, board: true, primary: true })
      : column("round_points", t("columns.round_points"), "Round points", (r) => compact(r.round_points), (r) => plainCompact(r.round_points), {
          numeric: true,
          board: true,
          primary: true,
        }),
    column("buchholz", t("columns.buchholz"), "Buchholz", (r) => compact(r.buchholz), (r) => plainCompact(r.buchholz), { numeric: true, board: true }),
    column("score_diff", t("columns.score_diff"), "Score diff.", (r) => compact(r.score_diff), (r) => String(r.score_diff), { numeric: true, board: true }),
    column("score", t("columns.score"), "Score", (r) => compact(r.score), (r) => String(r.score), { numeric: true, board: true }),
  ];
}

function isFraction(v) {
  return v !== null && typeof v === "object" && typeof v.value === "number";
}

// Any other game: every plain or fractional member of the rows, in the order of the first row,
// headed by the member's name (a game the pages have no words for yet).
function genericColumns(standings) {
  const first = standings.rows[0] || {};
  const known = new Set(["rank", "player", "name", "games", "dropped"]);
  const extra = Object.keys(first)
    .filter((key) => !known.has(key))
    .filter((key) => typeof first[key] === "number" || isFraction(first[key]))
    .map((key, i) =>
      column(key, key.replace(/_/g, " "), key, (r) => compact(r[key]), (r) => plainCompact(r[key]), { numeric: true, board: true, primary: i === 0 }),
    );
  return [...common(standings), ...extra];
}

export function standingsColumns(game, standings) {
  switch (game) {
    case "catan":
      return catanColumns(standings);
    case "agot":
      return agotColumns(standings);
    case "carcassonne":
      return carcassonneColumns(standings);
    default:
      return genericColumns(standings);
  }
}

// A text people typed (a name), made harmless for a spreadsheet: a cell that begins with "=",
// "+", "-", "@", a tab or a carriage return would be read as a formula (OWASP, "CSV Injection"),
// so it gets a leading apostrophe and is shown as text. The numbers the page writes itself
// ("-3" as a score difference) are not neutralised: they are numbers, and must stay numbers.
export function neutralised(text) {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

// One CSV field as RFC 4180 writes it: quoted when it holds a quote, a comma or a line break.
export function csvField(text) {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// The standings as CSV (RFC 4180: quoted where needed, CRLF), the columns as on the page; the
// cells people typed neutralised.
export function standingsCsv(game, standings) {
  const columns = standingsColumns(game, standings);
  const lines = [columns.map((c) => csvField(c.header)).join(",")];
  for (const row of standings.rows) {
    lines.push(columns.map((c) => csvField(c.people ? neutralised(String(c.csv(row))) : String(c.csv(row)))).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
