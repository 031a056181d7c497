// The chosen player's part of the players' page (/t/{t}, "Find me"): where they stand, where they
// sit in the round being played (table, seat, opponents; AGoT's league and house), and their
// results round by round, newest first — each table's whole result as tallyd computed it from
// what was entered, who entered it and when, and a correction with its reason — so that a player
// can check what was entered for them. In a staged tournament (docs/games/stages.md): their seat
// at a final table or their knockout game (round, table, opponent and seeds) while the stage is
// played, and their final place once the server gives the final standings.
//
//   renderMe(container, { tournament, standings, sheets, me, description, playerName });
//
// `sheets`: the round sheets (GET …/rounds/{r}) of every round, oldest first.

import { el, people, person } from "./dom.js";
import { localTime, rankText, sharedRanks } from "./format.js";
import { choiceName } from "./games.js";
import { t, tParts } from "./i18n.js";
import { standingsColumns } from "./standings-columns.js";
import { knockoutRoundName, liveStage, seedOf, stageName } from "./stages.js";
import { resultTable } from "./table-result.js";

// Where `player` sits in `sheet`: {table, seat (1-based, seat order)}, {bye: true} for a round
// they sit out (AGoT's `byes`, or a table of one), or null when not seated.
export function seatOf(sheet, player) {
  if ((sheet.byes || []).includes(player)) return { bye: true, table: null };
  for (const table of sheet.tables) {
    const i = table.players.indexOf(player);
    if (i < 0) continue;
    return { table, seat: i + 1, bye: table.players.length === 1 };
  }
  return null;
}

export function renderMe(container, { tournament, standings, sheets, me, description, playerName }) {
  const row = standings && standings.rows.find((r) => r.player === me);
  const stage = stagePart(standings, me, playerName);
  const parts = [stage && stage.final, standingLine(tournament, standings, row), stage && stage.now];
  const latest = sheets[sheets.length - 1];
  // A stage's game or table says where the player sits; the round's line would say it again.
  if (latest && !latest.closed && !(stage && stage.seated)) parts.push(nowPart(latest, me, playerName));
  parts.push(el("h3", { class: "me-results-heading" }, t("standings.me.results")));
  const played = [...sheets].reverse().filter((sheet) => seatOf(sheet, me));
  if (played.length === 0) parts.push(el("p", { class: "muted" }, t("standings.me.no_results")));
  for (const sheet of played) parts.push(roundPart(tournament, sheet, me, description, playerName));
  container.replaceChildren(...parts.filter(Boolean));
}

// "Place 3= of 24 · Round points: 5.00", and "dropped" when they are.
function standingLine(tournament, standings, row) {
  if (!row) return null;
  const primary = standingsColumns(tournament.game, standings).find((c) => c.primary);
  const rank = rankText(row.rank, sharedRanks(standings.rows).has(row.rank));
  // A staged tournament's rows are its qualifying rounds' standings (S-8): said so.
  const staged = Array.isArray(standings.stages);
  const text = primary
    ? t(staged ? "standings.me.standing_rounds" : "standings.me.standing", { rank, players: standings.rows.length, label: primary.label, value: primary.text(row) })
    : t("standings.me.rank", { rank, players: standings.rows.length });
  return el("p", { id: "me-standing", class: "me-standing" }, text, row.dropped && el("span", { class: "badge" }, t("common.dropped")));
}

// A staged tournament: the player's final place once there is one ({final}); else, while final
// tables, a final or a knockout are played, their table and opponents with their seeds, or
// their knockout game and how it went ({now, seated}). All as the server gives it.
function stagePart(standings, me, playerName) {
  if (!standings) return null;
  if (Array.isArray(standings.final)) {
    const row = standings.final.find((f) => f.player === me);
    if (!row) return null;
    const place = rankText(row.place, row.shared);
    return { final: el("p", { id: "me-final", class: "me-final", dataset: { place: row.place } }, t("standings.me.final_place", { place, players: standings.final.length })) };
  }
  const stage = liveStage(standings);
  if (!stage) return null;
  const box = (heading, ...lines) => el("div", { id: "me-stage", class: "me-now me-stage", dataset: { kind: stage.kind } }, el("h3", {}, heading), ...lines);
  if (!(stage.players || []).includes(me)) return { now: box(stageName(stage), el("p", { class: "muted" }, t("standings.me.stage_not_in"))) };
  const seeded = (p) => tParts("standings.me.seeded", { name: person(playerName(p)), seed: seedOf(stage, p) });
  if (stage.kind === "knockout") {
    let game = null;
    let round = null;
    for (const r of stage.rounds || []) for (const g of r.games) if (g.players.includes(me)) [game, round] = [g, r];
    if (!game) return { now: box(stageName(stage), el("p", { class: "muted" }, t("standings.me.stage_waiting"))) };
    const name = game.third_place ? t("stage.third_place") : knockoutRoundName(round);
    const opponent = game.players.find((p) => p !== me);
    const heading = t("stage.stage_round", { stage: stageName(stage), round: name });
    if (!game.winner) {
      return {
        seated: true,
        now: box(
          heading,
          el("p", { class: "me-seat" }, t("standings.me.stage_seat", { round: String(round.round), table: String(game.table), seed: seedOf(stage, me) })),
          el("p", { class: "me-opponents" }, tParts("standings.me.match_against", { opponent: el("span", {}, seeded(opponent)) })),
        ),
      };
    }
    const won = game.winner === me;
    return {
      now: box(
        heading,
        el("p", { class: `me-match ${won ? "won" : "lost"}` }, tParts(won ? "standings.me.match_won" : "standings.me.match_lost", { opponent: el("span", {}, seeded(opponent)) })),
      ),
    };
  }
  const table = (stage.tables || []).filter((x) => x.players.includes(me)).pop();
  if (!table) return { now: box(stageName(stage), el("p", { class: "muted" }, t("standings.me.stage_waiting"))) };
  const others = table.players.filter((p) => p !== me);
  const done = Array.isArray(table.order);
  return {
    seated: !done,
    now: box(
      stageName(stage),
      el("p", { class: "me-seat" }, t("standings.me.stage_seat", { round: String(table.round), table: String(table.table), seed: seedOf(stage, me) })),
      el("p", { class: "me-opponents" }, tParts("standings.me.opponents", { players: el("span", {}, others.flatMap((p, i) => (i ? [", ", ...seeded(p)] : seeded(p)))) })),
      done ? el("p", { class: "me-match" }, t("standings.me.table_place", { place: table.order.indexOf(me) + 1 })) : null,
    ),
  };
}

// The round being played: "Round 2: table 5, seat 3", the league and house, the opponents.
function nowPart(sheet, me, playerName) {
  const seat = seatOf(sheet, me);
  const round = String(sheet.round);
  if (!seat) return el("p", { id: "me-now", class: "me-now" }, t("standings.me.not_seated", { round }));
  if (seat.bye) return el("p", { id: "me-now", class: "me-now" }, t("standings.me.bye", { round }));
  const { table } = seat;
  const house = table.houses && table.houses[me];
  const opponents = table.players.filter((p) => p !== me).map(playerName);
  return el(
    "div",
    { id: "me-now", class: "me-now" },
    el("p", { class: "me-seat" }, t("standings.me.seat", { round, table: String(table.table), seat: String(seat.seat) })),
    (table.league || house) &&
      el(
        "p",
        {},
        [table.league && t("standings.me.league", { league: table.league }), house && t("standings.me.house", { house: choiceName(house) })]
          .filter(Boolean)
          .join(" · "),
      ),
    el("p", { class: "me-opponents" }, tParts("standings.me.opponents", { players: el("span", {}, people(opponents)) })),
  );
}

// One round of the player's: its table's result as entered (or that none is yet), by whom, when,
// and a correction's reason.
function roundPart(tournament, sheet, me, description, playerName) {
  const seat = seatOf(sheet, me);
  const round = String(sheet.round);
  const heading = seat.bye
    ? t("standings.me.round_bye", { round })
    : t("standings.me.round_table", { round, table: String(seat.table.table) });
  const article = el("article", { class: "my-round", dataset: { round } }, el("h4", {}, heading));
  const table = seat.table;
  if (!table) return article; // an AGoT bye: no table, no result
  const result = resultTable(tournament.game, table, {
    playerName,
    description,
    me,
    caption: t("standings.result_caption", { table: String(table.table), round }),
  });
  if (!result) {
    article.append(el("p", { class: "muted" }, t("standings.me.open")));
    return article;
  }
  article.append(el("div", { class: "result-scroll" }, result));
  if (table.entered_by) {
    const who = { judge: person(table.entered_by.name), time: localTime(table.entered_at) };
    article.append(
      table.corrected
        ? el("p", { class: "correction" }, tParts("standings.me.corrected", { ...who, reason: el("q", { dir: "auto", class: "reason" }, table.correction_reason || "") }))
        : el("p", { class: "muted entered" }, tParts("standings.me.entered", who)),
    );
  } else if (table.corrected) {
    // Without a token the server says that a result was corrected, not who did it or why
    // (docs/api.md "What the public may read").
    article.append(el("p", { class: "correction" }, t("standings.me.corrected_public")));
  }
  return article;
}
