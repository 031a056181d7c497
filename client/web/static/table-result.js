// One table's result as tallyd computed it from what was entered (the table's `result` in
// GET …/rounds/{r}), as the judge page and the players' page show it: the place ("2=" when
// shared), the player (the name isolated; AGoT's house; "claimed the win" when a claim is on
// record), the in-game score with its breakdown where the game gives one (Catan's `score_lines`:
// "Settlements 2 · Cities 3 · Largest Army", worded by the game's own fields from GET /v1/games),
// and the round's points.
//
//   const table = resultTable("catan", sheet.tables[0], { playerName, description, me: "p3" });

import { el, person } from "./dom.js";
import { compact } from "./format.js";
import { choiceName, fieldHeading } from "./games.js";
import { t } from "./i18n.js";
import { resultHeadings } from "./judge-forms.js";

// The players of a reported table who claimed the win (their ids), from its result.
export function claimants(table) {
  const players = (table.result && table.result.players) || [];
  return players.filter((p) => p.claimed_win === true).map((p) => p.player);
}

// "Settlements 2 · Cities 3 · Largest Army": each line of the score's breakdown by the field of
// the same name (a yes/no field by its name alone), or the rule's own name when no field has it.
function breakdown(lines, fields) {
  if (!Array.isArray(lines) || lines.length === 0) return null;
  const parts = lines.map((line) => {
    const field = fields.get(line.rule);
    const name = field ? fieldHeading(field) : String(line.rule).replace(/_/g, " ");
    return field && field.type === "boolean" ? name : `${name} ${compact(line.count)}`;
  });
  return parts.join(" · ");
}

// A <table class="result-summary">, or null when the table has no result yet. `me`: the player
// whose row is marked; `caption`: for screen readers.
export function resultTable(game, table, { playerName, description = null, me = null, caption = "" }) {
  if (!table.result || !Array.isArray(table.result.players)) return null;
  const [scoreLabel, pointsLabel] = resultHeadings(game);
  const spec = description && description.actions && description.actions.result;
  const fields = new Map(((spec && spec.fields) || []).map((f) => [f.name, f]));
  const houses = table.houses || {};
  const rows = table.result.players.map((p) => {
    const more = breakdown(p.score_lines, fields);
    return el(
      "tr",
      { class: p.player === me ? "me" : "", dataset: { player: p.player } },
      el("td", {}, String(p.place)),
      el(
        "th",
        { scope: "row" },
        person(playerName(p.player)),
        houses[p.player] && el("span", { class: "house" }, ` (${choiceName(houses[p.player])})`),
        p.claimed_win === true && el("span", { class: "badge claimed-win" }, t("standings.claimed_win")),
        more && el("span", { class: "score-lines" }, more),
      ),
      el("td", { class: "number" }, compact(p.score)),
      el("td", { class: "number" }, compact(p.points)),
    );
  });
  return el(
    "table",
    { class: "result-summary" },
    caption && el("caption", { class: "visually-hidden" }, caption),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col" }, t("judge.result.place")),
        el("th", { scope: "col" }, t("judge.result.player")),
        el("th", { scope: "col", class: "number" }, scoreLabel),
        el("th", { scope: "col", class: "number" }, pointsLabel),
      ),
    ),
    el("tbody", {}, rows),
  );
}
