// The columns of a standings table, per game (docs/games/*.md give the rows' members). Used by
// the venue board (the columns marked `board`), the public page and its CSV download.
//
// A column: {key, label, text(row) → what is shown, csv(row) → the CSV cell (default: text),
//            numeric, board, screen (false: CSV only), csvOnly}

import { compact, fixed2, percent2 } from "./format.js";

export const GAME_NAMES = {
  catan: "Catan",
  agot: "A Game of Thrones (2nd ed.)",
  carcassonne: "Carcassonne",
};

export function gameName(game) {
  return GAME_NAMES[game] || game;
}

const rank = { key: "rank", label: "#", text: (r) => String(r.rank), numeric: true, board: true };
const name = { key: "name", label: "Name", text: (r) => r.name, board: true };
const games = { key: "games", label: "Games", text: (r) => String(r.games), numeric: true, board: true };

function catanColumns() {
  return [
    rank,
    name,
    games,
    { key: "round_points", label: "Round points", text: (r) => fixed2(r.round_points), numeric: true, board: true },
    { key: "vp", label: "VP", text: (r) => String(r.vp), numeric: true, board: true },
    { key: "vp_share", label: "VP share", text: (r) => percent2(r.vp_share), numeric: true, board: true },
  ];
}

// One column per round played so far; a dropped result (not counted) is shown in parentheses.
function agotColumns(standings) {
  const rounds = new Set();
  for (const row of standings.rows) for (const r of row.results || []) rounds.add(r.round);
  const roundColumns = [...rounds]
    .sort((a, b) => a - b)
    .map((round) => ({
      key: `round_${round}`,
      label: `R${round}`,
      numeric: true,
      text: (row) => {
        const result = (row.results || []).find((r) => r.round === round);
        if (!result) return "";
        return result.dropped ? `(${compact(result.points)})` : compact(result.points);
      },
      csv: (row) => {
        const result = (row.results || []).find((r) => r.round === round);
        return result ? compact(result.points) : "";
      },
      dropped: (row) => Boolean((row.results || []).find((r) => r.round === round && r.dropped)),
    }));
  return [
    rank,
    name,
    games,
    ...roundColumns,
    {
      key: "dropped_round",
      label: "Dropped round",
      csvOnly: true,
      text: (row) =>
        (row.results || [])
          .filter((r) => r.dropped)
          .map((r) => r.round)
          .join(" "),
    },
    { key: "total", label: "Total", text: (r) => compact(r.total), numeric: true, board: true },
    { key: "wins", label: "Wins", text: (r) => String(r.wins), numeric: true, board: true },
    { key: "capitals_captured", label: "Capitals", text: (r) => String(r.capitals_captured), numeric: true, board: true },
    { key: "lands_captured", label: "Lands", text: (r) => String(r.lands_captured), numeric: true },
    { key: "next_league", label: "Next league", text: (r) => r.next_league || "", board: true },
  ];
}

function carcassonneColumns(standings) {
  const byWins = standings.rows.some((r) => r.wins !== undefined);
  return [
    rank,
    name,
    games,
    byWins
      ? { key: "wins", label: "Wins", text: (r) => compact(r.wins), numeric: true, board: true }
      : { key: "round_points", label: "Round points", text: (r) => compact(r.round_points), numeric: true, board: true },
    { key: "buchholz", label: "Buchholz", text: (r) => compact(r.buchholz), numeric: true, board: true },
    { key: "score_diff", label: "Score diff.", text: (r) => String(r.score_diff), numeric: true, board: true },
    { key: "score", label: "Score", text: (r) => String(r.score), numeric: true, board: true },
  ];
}

function isFraction(v) {
  return v !== null && typeof v === "object" && typeof v.value === "number";
}

// Any other game: every plain or fractional member of the rows, in the order of the first row.
function genericColumns(standings) {
  const first = standings.rows[0] || {};
  const known = new Set(["rank", "player", "name", "games", "dropped"]);
  const extra = Object.keys(first)
    .filter((key) => !known.has(key))
    .filter((key) => typeof first[key] === "number" || isFraction(first[key]))
    .map((key) => ({ key, label: key.replace(/_/g, " "), text: (r) => compact(r[key]), numeric: true, board: true }));
  return [rank, name, games, ...extra];
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

// The standings as CSV (RFC 4180: quoted where needed, CRLF), the columns as on the page.
export function standingsCsv(game, standings) {
  const columns = standingsColumns(game, standings);
  const quote = (text) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = [columns.map((c) => quote(c.label)).join(",")];
  for (const row of standings.rows) {
    lines.push(columns.map((c) => quote(String((c.csv || c.text)(row)))).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
