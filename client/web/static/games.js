// The games as tallyd describes them (GET /v1/games): for each game the fields of its actions
// (the result a judge enters, claims, picks, scorings …) with their kind, range, choices and
// labels, and its rules. The pages build their forms and slips from it: the server is the one
// source of truth for a game's rules, the pages only present.
//
//   {"game": "catan", "actions": {"result": {"per_player": true, "fields": [{"name":
//    "settlements", "type": "integer", "required": true, "label": "catan.settlements",
//    "text": "settlements", "min": 0, "max": 5}, …]}, …}, "rules": […]}

import { getJson } from "./api.js";

let games = null;

// GET /v1/games, fetched once per page load: Map game → description. (A failed fetch is tried
// again by the next call.)
export function loadGames(token) {
  if (!games) {
    games = getJson("/v1/games", { token })
      .then((list) => new Map(list.map((g) => [g.game, g])))
      .catch((e) => {
        games = null;
        throw e;
      });
  }
  return games;
}

// A choice's value as shown ("stark" → "Stark").
export function choiceName(value) {
  if (value === undefined || value === null || value === "") return "";
  const text = String(value);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// A field's English text (`text`; `label` is its key for the language catalogs) as a heading:
// "longest road" → "Longest road".
export function fieldHeading(field) {
  return choiceName(field.text || field.name);
}

// The fields of a game's action a judge or a player fills in: those not derived from another.
export function askedFields(description, action) {
  const spec = description && description.actions && description.actions[action];
  return spec && Array.isArray(spec.fields) ? spec.fields.filter((f) => !f.derived) : [];
}

// The choices of a game's action field (e.g. the houses a pick may name).
export function actionChoices(description, action, type = "choice") {
  const field = askedFields(description, action).find((f) => f.type === type && Array.isArray(f.choices));
  return field ? field.choices : [];
}

// A value of a player's field the table already knows, to fill in for the judge or print on the
// slip: AGoT's house, from the table's accepted picks (`houses`). Undefined when not known.
const KNOWN = { house: (table) => table.houses };
export function knownValue(table, field, player) {
  const values = KNOWN[field] && KNOWN[field](table);
  return values ? values[player] : undefined;
}
