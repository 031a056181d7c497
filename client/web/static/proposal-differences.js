// A proposal's `differences` in words, the same on the judges' list (judge-proposals.js) and on
// the table's page (report-proposals.js): the server says which result field differs from the
// entered result, for which player, and both values (nothing is compared here); the pages name
// the field as the game's description words it and show the values as the form takes them.
//
//   differenceLabel("vp_cards", { game: "catan", description })  → "VP cards"
//   differenceValue(true) → "yes"; differenceValue(null) → "—"

import { compact } from "./format.js";
import { choiceName, fieldHeading } from "./games.js";
import { t } from "./i18n.js";
import { resultHeadings } from "./judge-forms.js";

// A result field's name as the game's description words it (GET /v1/games, in the page's
// language); the computed score and points by their headings; any other name as it is.
export function differenceLabel(name, { game, description }) {
  const fields = (description && description.actions && description.actions.result && description.actions.result.fields) || [];
  const field = fields.find((f) => f.name === name);
  if (field) return fieldHeading(field);
  const [score, points] = resultHeadings(game);
  if (name === "score") return score;
  if (name === "points") return points;
  return String(name || "").replace(/_/g, " ");
}

// A value of a difference: a number as a number (points as "2.5"), yes or no, a choice by its
// name, "—" for nothing.
export function differenceValue(value) {
  if (value === undefined || value === null || value === "") return "—";
  if (value === true) return t("proposals.yes");
  if (value === false) return t("proposals.no");
  if (Array.isArray(value)) return value.length ? value.map(choiceName).join(", ") : "—";
  if (typeof value === "number" || (typeof value === "object" && "value" in value)) return compact(value);
  if (typeof value === "string") return choiceName(value);
  return String(value);
}
