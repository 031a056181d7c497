// What the pages say about a staged tournament (docs/games/stages.md): the stages as the
// standings carry them (`stages`, `final`), in words. Nothing here decides anything — who is in,
// the seeds, the winners and the places are the server's; this module only names and finds them.
//
//   stageName(stage)                    // "Knockout", "Final tables"
//   stageDetail(stage)                  // "top 4", "2 rounds", "pairing 1-5, with a game for 3rd place"
//   knockoutRoundName(stage, round)     // "Semi-finals" (by its number of games), "Round of 16"
//   liveStage(standings)                // the stage being played that seats tables, or null
//   criterionLabel(game, standings, m)  // a cut's `decided_by` as the standings columns call it

import { t } from "./i18n.js";
import { standingsColumns } from "./standings-columns.js";

const KINDS = {
  rounds: "stage.kind.rounds",
  cut: "stage.kind.cut",
  final_tables: "stage.kind.final_tables",
  final: "stage.kind.final",
  knockout: "stage.kind.knockout",
};

export function stageName(stage) {
  const kind = stage && (stage.kind || stage.stage_kind);
  return Object.hasOwn(KINDS, kind) ? t(KINDS[kind]) : String(kind || "");
}

// The stage's settings in words (those the server wrote into the rules, defaults included).
export function stageDetail(stage) {
  switch (stage.kind) {
    case "rounds":
      return t("stage.detail.rounds", { rounds: stage.rounds });
    case "cut":
      return t("stage.detail.cut", { top: stage.top });
    case "final_tables":
      return t("stage.detail.final_tables", { tables: stage.tables, advance: stage.advance });
    case "knockout":
      return t("stage.detail.knockout", { pairing: stage.pairing || "1-5", third: stage.third_place === false ? "no" : "yes" });
    default:
      return "";
  }
}

export function stateName(state) {
  if (state === "playing") return t("stage.state.playing");
  if (state === "complete") return t("stage.state.complete");
  return t("stage.state.pending");
}

// A knockout round's name by how many games decide a place in it (the game for 3rd place aside):
// one is the final, two the semi-finals, four the quarter-finals, more "Round of 16"…
export function knockoutRoundName(round) {
  const games = round.games.filter((g) => !g.third_place).length;
  if (games === 1) return t("stage.round.final");
  if (games === 2) return t("stage.round.semi");
  if (games === 4) return t("stage.round.quarter");
  return t("stage.round.of", { players: games * 2 });
}

// The knockout's rounds as the server seated them, followed by the rounds still to come as empty
// games (their count halves each round: the shape of a bracket, not who plays in it), so that a
// screen shows the whole bracket from its start. Each: {round, name, games: [{…, placeholder}]}.
export function bracketRounds(stage) {
  const seated = Array.isArray(stage.rounds) ? stage.rounds : [];
  const out = seated.map((r) => ({ round: r.round, name: knockoutRoundName(r), games: r.games }));
  const first = seated.length ? seated[0].games.filter((g) => !g.third_place).length : Math.floor((stage.players || []).length / 2);
  let games = first;
  for (let i = 0; i < seated.length; i++) games = Math.floor(games / 2);
  const placeholder = { players: [null, null], seeds: [null, null], winner: null, placeholder: true };
  while (games >= 1) {
    const list = Array.from({ length: games }, () => ({ ...placeholder }));
    if (games === 1 && stage.third_place !== false) list.push({ ...placeholder, third_place: true });
    const round = { games: list };
    out.push({ round: null, name: knockoutRoundName(round), games: list });
    games = Math.floor(games / 2);
  }
  return out;
}

// The stage a screen shows instead of the standings: a started stage that seats tables (final
// tables, a final, a knockout), the latest such, while the final standings are not there yet.
export function liveStage(standings) {
  if (!standings || !Array.isArray(standings.stages) || Array.isArray(standings.final)) return null;
  const seating = standings.stages.filter((s) => s.state !== "pending" && (Array.isArray(s.tables) || Array.isArray(s.rounds)));
  return seating.length ? seating[seating.length - 1] : null;
}

// The stage whose round `round` is (a number), or null: the qualifying rounds are no stage's.
export function stageOfRound(standings, round) {
  if (!standings || !Array.isArray(standings.stages)) return null;
  // (A rounds stage's `rounds` is its count; a knockout's, its rounds.)
  for (const stage of standings.stages) {
    if (Array.isArray(stage.tables) && stage.tables.some((table) => table.round === round)) return stage;
    if (Array.isArray(stage.rounds) && stage.rounds.some((r) => r.round === round)) return stage;
  }
  return null;
}

// A round of a stage in words: "Knockout · Semi-finals", "Final tables".
export function stageRoundName(standings, round) {
  const stage = stageOfRound(standings, round);
  if (!stage) return null;
  if (stage.kind === "knockout") {
    const r = stage.rounds.find((x) => x.round === round);
    return t("stage.stage_round", { stage: stageName(stage), round: knockoutRoundName(r) });
  }
  return stageName(stage);
}

// A player's seed in a started stage (1 = the best), from the stage's `players` in seed order.
export function seedOf(stage, player) {
  const i = (stage.players || []).indexOf(player);
  return i < 0 ? null : i + 1;
}

// The cut's `decided_by` (a member of the standings' rows) as the standings' column calls it in
// the page's language; `name` and `player` are the last resorts (the sporting criteria were equal).
export function criterionLabel(game, standings, member) {
  if (member === "name") return t("stage.criterion.name");
  if (member === "player") return t("stage.criterion.player");
  const column = standingsColumns(game, standings || { rows: [] }).find((c) => c.key === member);
  return column ? column.label : String(member || "");
}
