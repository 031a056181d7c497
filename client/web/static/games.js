// The games as tallyd describes them (GET /v1/games): for each game the fields of its actions
// (the result a judge enters, claims, picks, scorings …) with their kind, range, choices and
// labels, and its rules. The pages build their forms and slips from it: the server is the one
// source of truth for a game's rules, the pages only present.
//
//   {"game": "catan", "actions": {"result": {"per_player": true, "fields": [{"name":
//    "settlements", "type": "integer", "required": true, "label": "catan.settlements",
//    "text": "settlements", "min": 0, "max": 5}, …]}, …}, "rules": […]}

import { getJson } from "./api.js";
import { language, t } from "./i18n.js";

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

// The names of the choices the pages know, in the page's language (AGoT's houses); any other
// value is shown as it is, capitalized.
const CHOICE_NAMES = {
  stark: "choice.stark",
  lannister: "choice.lannister",
  baratheon: "choice.baratheon",
  greyjoy: "choice.greyjoy",
  tyrell: "choice.tyrell",
  martell: "choice.martell",
};

// A choice's value as shown ("stark" → "Stark", "Старк").
export function choiceName(value) {
  if (value === undefined || value === null || value === "") return "";
  const text = String(value);
  if (Object.hasOwn(CHOICE_NAMES, text)) return t(CHOICE_NAMES[text]);
  return capitalized(text);
}

function capitalized(text) {
  return text.charAt(0).toLocaleUpperCase(language()) + text.slice(1);
}

// A field's text (`text`, in the language the page asked for; `label` is its catalog key) as a
// heading: "longest road" → "Longest road".
export function fieldHeading(field) {
  return capitalized(field.text || field.name);
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
