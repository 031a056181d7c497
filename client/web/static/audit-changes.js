// What a correction or a void changed, as the audit trail says it (`changes` of
// GET …/audit: [{"player","player_name","field","from","to"}]), in words: one line per leaf,
// "Jana Nováková: VP cards 1 → 0", the field named as the game's forms name it (GET /v1/games).
// Used by the console's table audit and the judge page's "last correction" line.
//
//   const fields = fieldTexts(description);          // once per game
//   box.append(changesList(event.changes, { fields, playerName }));

import { el, person } from "./dom.js";
import { choiceName, fieldHeading } from "./games.js";

// The game's fields by name, as headings ("vp_cards" → "VP cards"), from its description.
export function fieldTexts(description) {
  const texts = new Map();
  for (const action of Object.values((description && description.actions) || {})) {
    for (const field of action.fields || []) if (!texts.has(field.name)) texts.set(field.name, fieldHeading(field));
  }
  return texts;
}

// A value before or after: nothing is "—", a list its choices, a choice by its name.
function changeValue(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map(choiceName).join(", ") || "—";
  return typeof value === "string" ? choiceName(value) : String(value);
}

// The list of changes, or null when the entry changed nothing earlier (a first entry).
// `fields`: fieldTexts() of the game (a field without a text is named by its id);
// `playerName(id)`: a player's name when the change does not carry it.
export function changesList(changes, { fields = new Map(), playerName = (id) => id } = {}) {
  if (!Array.isArray(changes) || changes.length === 0) return null;
  return el(
    "ul",
    { class: "changes" },
    changes.map((c) => {
      const field = fields.get(c.field) || c.field;
      const who = c.player ? c.player_name || playerName(c.player) : null;
      return el("li", {}, who ? [person(who), ": "] : null, `${field} ${changeValue(c.from)} → ${changeValue(c.to)}`);
    }),
  );
}
