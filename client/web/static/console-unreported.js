// The refusal both seating and closing a round may get: tables of the round without a result
// (409, rule round.unreported, `tables: [3, 5]`). Said in words ("Tables 3 and 5 of round 1
// have no result yet."), with the server's message when it names no tables.

import { formatList, t } from "./i18n.js";

export function unreportedError(answer) {
  const errors = Array.isArray(answer.body?.errors) ? answer.body.errors : [];
  return errors.find((e) => e.rule === "round.unreported") || null;
}

export function unreportedText(error, round) {
  const tables = Array.isArray(error.tables) ? error.tables : [];
  if (!tables.length) return error.message || "";
  return t("console.unreported", {
    count: tables.length,
    tables: formatList(tables.map(String)),
    round: round ? round.round : "",
  });
}
