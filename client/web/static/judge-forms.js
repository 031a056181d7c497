// The result forms of the judges' page, built from the game's description (GET /v1/games) and
// from nothing else: which fields a player has, their kind, range, choices and labels are the
// server's. The page computes nothing: the computed score, the order and the broken rules are
// the answers of the server's check (POST …/result/check, judge.js), shown by the form.
//
// makeResultForm(description, context) → {
//   element,              the fields (a table with one row per player, in seat order)
//   players(),            the body's "players" as typed (an empty optional field is left out;
//                         a derived field is set from the field it is derived from)
//   fill(players),        fills the fields from an entry (the payload of a stored result)
//   cell(player, field),  where a message about that player's field is shown (or null)
//   column(field),        where a message about a field of the whole table is shown (or null)
//   askedField(field),    the field the judge fills for `field`: itself, the one a derived field
//                         comes from, or null when the form has no such field
//   showComputed(result), the server's computed result ({players:[…]}, or null) beside each player
//   describe(players, computed), an entry as rows of text, to show another judge's entry;
//                         `computed` (optional): the server's result for that entry
// }
// or null when the description has no per-player result this page can show.
// context: {game, table, playerName}

import { el } from "./dom.js";
import { compact } from "./format.js";
import { choiceName, fieldHeading as heading, knownValue } from "./games.js";
import { language, t } from "./i18n.js";

// ---- presentation only ------------------------------------------------------------------------------

// What a result's `score` and `points` are called in each game (API.md: the in-game score, the
// round's points), for the result in effect and the check's order. Labels, no rule.
const RESULT_HEADINGS = {
  catan: ["result.catan.score", "result.catan.points"],
  agot: ["result.agot.score", "result.agot.points"],
  carcassonne: ["result.score", "result.points"],
};
// The headings, or (`inText`) as they read inside a sentence: "VP 10, round points 5" (an
// abbreviation as it is, a word in lower case).
export function resultHeadings(game, inText = false) {
  const labels = (Object.hasOwn(RESULT_HEADINGS, game) ? RESULT_HEADINGS[game] : RESULT_HEADINGS.carcassonne).map((key) => t(key));
  if (!inText) return labels;
  return labels.map((label) => (label === label.toLocaleUpperCase(language()) ? label : label.toLocaleLowerCase(language())));
}

// Which member of the server's computed result the form shows in a column beside each player
// (what the judge compares with the score sheet). A game not named here has no such column.
const COMPUTED = {
  catan: { member: "score", label: "result.catan.score" },
  agot: { member: "points", label: "result.agot.points" },
};
const computedText = (spec, p) => (p ? compact(p[spec.member]) : "");

// ---- building the form -----------------------------------------------------------------------------

// A player's control, named "Eva: settlements" (the field's text is the server's, in the
// language the page asked for).
const fieldLabel = (player, field) => `${player}: ${field.text}`;

let idCounter = 0;
const newId = (prefix) => `${prefix}-${++idCounter}`;
const q = (s) => CSS.escape(s);

// One kind of control per field type: {make(player, name) → node, read(player) → value or
// undefined (empty), write(player, value), text(value) → as shown in describe()}. `root()` is the
// form's element (the controls are looked up in it).
function controlFor(field, root, extra) {
  const input = (player) =>
    root().querySelector(`tbody :is(input, select)[data-player="${q(player)}"][data-field="${q(field.name)}"]`);
  const common = { dataset: { field: field.name, labelKey: field.label || "" } };
  switch (field.type) {
    case "integer":
      return {
        make: (player, name) =>
          el("input", {
            type: "number",
            inputmode: "numeric",
            id: newId(field.name),
            min: field.min === undefined ? undefined : String(field.min),
            max: field.max === undefined ? undefined : String(field.max),
            step: "1",
            "aria-label": fieldLabel(name, field),
            dataset: { ...common.dataset, player },
          }),
        read: (player) => {
          const v = input(player).value.trim();
          return v === "" ? undefined : Number(v);
        },
        write: (player, value) => {
          input(player).value = value === undefined || value === null ? "" : String(value);
        },
        text: (value) => (value === undefined || value === null ? "" : String(value)),
      };
    case "boolean":
      if (field.one_holder) {
        // A title at most one player holds: one radio group per column, "nobody" in the footer.
        const group = newId(field.name);
        return {
          make: (player, name) =>
            el("input", {
              type: "radio",
              name: group,
              value: player,
              id: newId(field.name),
              "aria-label": t("form.holds", { player: name, field: field.text }),
              dataset: { ...common.dataset, player },
            }),
          footer: () =>
            el(
              "label",
              {},
              el("input", {
                type: "radio",
                name: group,
                value: "",
                checked: true,
                "aria-label": t("form.nobody_holds", { field: field.text }),
                dataset: { field: field.name, nobody: "yes" },
              }),
              " ",
              t("form.nobody"),
            ),
          read: (player) => input(player).checked,
          write: (player, value) => {
            if (value) input(player).checked = true;
          },
          reset: () => {
            root().querySelector(`tfoot input[data-field="${q(field.name)}"][data-nobody]`).checked = true;
          },
          text: (value) => (value ? t("form.yes") : ""),
        };
      }
      return {
        make: (player, name) =>
          el("input", {
            type: "checkbox",
            id: newId(field.name),
            "aria-label": fieldLabel(name, field),
            dataset: { ...common.dataset, player },
          }),
        // An optional box left unticked is left out of the body.
        read: (player) => (input(player).checked ? true : field.required ? false : undefined),
        write: (player, value) => {
          input(player).checked = Boolean(value);
        },
        text: (value) => (value ? t("form.yes") : ""),
      };
    case "choice":
      return {
        make: (player, name) =>
          el(
            "select",
            { id: newId(field.name), "aria-label": fieldLabel(name, field), dataset: { ...common.dataset, player } },
            el("option", { value: "" }, "—"),
            (field.choices || []).map((c) => el("option", { value: c }, choiceName(c))),
          ),
        read: (player) => input(player).value || undefined,
        write: (player, value) => {
          input(player).value = value || "";
        },
        text: (value) => choiceName(value),
      };
    case "choices": {
      const boxes = (player) => root().querySelectorAll(`tbody fieldset[data-player="${q(player)}"][data-field="${q(field.name)}"] input`);
      return {
        make: (player, name) =>
          el(
            "fieldset",
            { class: "choices", dataset: { ...common.dataset, player } },
            // Seen, the column's heading names the field; heard, the legend names player and field.
            el("legend", {}, el("span", { class: "visually-hidden" }, fieldLabel(name, field))),
            (field.choices || []).map((c) =>
              el("label", {}, el("input", { type: "checkbox", value: c, dataset: { player, choice: c } }), ` ${choiceName(c)}`),
            ),
          ),
        read: (player) => {
          const picked = [...boxes(player)].filter((b) => b.checked).map((b) => b.value);
          return picked.length || field.required ? picked : undefined;
        },
        write: (player, value) => {
          for (const b of boxes(player)) b.checked = (value || []).includes(b.value);
        },
        // excludes_own: the value the same player's field F holds is not offered.
        sync: (player) => {
          if (!field.excludes_own) return;
          const own = extra.read(player, field.excludes_own);
          for (const b of boxes(player)) {
            b.disabled = b.value === own;
            if (b.disabled) b.checked = false;
          }
        },
        text: (value) => (value || []).map(choiceName).join(", "),
      };
    }
    default:
      return null; // "player", "object": not a per-player field this page can ask for
  }
}

export function makeResultForm(description, context) {
  const action = description && description.actions && description.actions.result;
  if (!action || !action.per_player || !Array.isArray(action.fields)) return null;
  const { table, playerName } = context;
  const players = table.players;
  const asked = action.fields.filter((f) => !f.derived);
  const derived = action.fields.filter((f) => f.derived);
  let element = null;
  const controls = new Map();
  const read = (player, name) => (controls.has(name) ? controls.get(name).read(player) : undefined);
  for (const field of asked) {
    const control = controlFor(field, () => element, { read });
    if (!control) return null;
    controls.set(field.name, control);
  }
  const computed = COMPUTED[context.game] || null;

  // Carcassonne's final score can be taken from the scorings recorded at the table.
  const totals = table.totals || {};
  const scoreFromTotals = (table.scorings || 0) > 0 && asked.some((f) => f.name === "score" && f.type === "integer");

  // Columns: every asked field, the scorings' totals, the server's computed value.
  const columns = asked.map((field) => ({ field: field.name, label: heading(field), labelKey: field.label, make: controls.get(field.name).make }));
  if (scoreFromTotals) {
    const at = columns.findIndex((c) => c.field === "score") + 1;
    columns.splice(at, 0, { field: "totals", label: t("form.scorings_total"), make: (player) => el("span", {}, String(totals[player] ?? 0)) });
  }
  if (computed) {
    columns.push({
      field: "computed",
      label: t(computed.label),
      make: (player) => el("output", { dataset: { player, computed: computed.member } }, ""),
    });
  }

  // A table whose rows are the players. Cells carry data-player/data-field so that messages can
  // find them, and data-label for the narrow layout (a card per player, judge.css); the footer
  // has one cell per column for messages about the whole table (data-field only).
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t("form.player")),
    columns.map((c) => el("th", { scope: "col", dataset: { field: c.field, labelKey: c.labelKey || "" } }, c.label)),
  );
  const rows = players.map((player) =>
    el(
      "tr",
      { dataset: { player } },
      el("th", { scope: "row", dataset: { player, field: "player" } }, playerName(player)),
      columns.map((c) => el("td", { dataset: { player, field: c.field, label: c.label } }, c.make(player, playerName(player)))),
    ),
  );
  const footFor = (c) => {
    const control = controls.get(c.field);
    return control && control.footer ? control.footer() : null;
  };
  const foot = el(
    "tr",
    { class: "table-wide" },
    el("td", { dataset: { field: "players" } }),
    columns.map((c) => el("td", { dataset: { field: c.field, label: c.label, tableWide: "yes" } }, footFor(c))),
  );
  element = el("table", { class: "entry-table" }, el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, foot));

  if (scoreFromTotals) {
    const fillTotals = el("button", { type: "button", class: "secondary" }, t("form.use_scorings_totals"));
    fillTotals.addEventListener("click", () => {
      for (const p of players) controls.get("score").write(p, totals[p] ?? 0);
      element.querySelector("tbody input[data-field=score]").dispatchEvent(new Event("input", { bubbles: true }));
    });
    element.querySelector("tfoot td").append(fillTotals);
  }

  const sync = (player) => {
    for (const control of controls.values()) if (control.sync) control.sync(player);
  };
  element.addEventListener("change", (e) => {
    const player = e.target.dataset.player;
    if (player) sync(player);
  });
  // What the table already knows (AGoT's houses from the picks) is filled in.
  for (const field of asked) {
    for (const p of players) {
      const known = knownValue(table, field.name, p);
      if (known !== undefined) controls.get(field.name).write(p, known);
    }
  }
  players.forEach(sync);

  const sheet = (player) => {
    const out = { player };
    for (const field of asked) {
      const v = read(player, field.name);
      if (v !== undefined) out[field.name] = v;
    }
    // A derived field is not asked: it is what the description says of the field it comes from.
    for (const field of derived) {
      const from = out[field.derived.from];
      if (from !== undefined) out[field.name] = from === field.derived.equals;
    }
    return out;
  };

  const find = {
    cell(player, field) {
      const d = derived.find((f) => f.name === field);
      const name = d ? d.derived.from : field;
      return element.querySelector(`tbody td[data-player="${q(player)}"][data-field="${q(name)}"]`);
    },
    column: (field) => element.querySelector(`tfoot [data-field="${q(field)}"]`),
  };

  return {
    element,
    players: () => players.map(sheet),
    // How many values the game's description marks `required` are still empty (GET /v1/games).
    missing: () => players.map(sheet).reduce((n, p) => n + asked.filter((f) => f.required && p[f.name] === undefined).length, 0),
    fill(entry) {
      for (const control of controls.values()) if (control.reset) control.reset();
      for (const p of entry) {
        if (!players.includes(p.player)) continue;
        for (const field of asked) {
          if (field.type === "choices") continue; // after the fields they exclude (sync)
          controls.get(field.name).write(p.player, p[field.name]);
        }
        sync(p.player);
        for (const field of asked) if (field.type === "choices") controls.get(field.name).write(p.player, p[field.name]);
      }
    },
    cell: find.cell,
    column: find.column,
    askedField(field) {
      const d = derived.find((f) => f.name === field);
      const name = d ? d.derived.from : field;
      return controls.has(name) ? name : null;
    },
    showComputed(result) {
      if (!computed) return;
      const byPlayer = new Map(((result && result.players) || []).map((p) => [p.player, p]));
      for (const output of element.querySelectorAll("output[data-computed]")) {
        output.textContent = computedText(computed, byPlayer.get(output.dataset.player));
      }
    },
    describe(entry, result) {
      const byPlayer = new Map(((result && result.players) || []).map((p) => [p.player, p]));
      return {
        head: [t("form.player"), ...asked.map(heading), ...(computed ? [t(computed.label)] : [])],
        rows: entry.map((p) => [
          playerName(p.player),
          ...asked.map((f) => controls.get(f.name).text(p[f.name])),
          ...(computed ? [computedText(computed, byPlayer.get(p.player))] : []),
        ]),
      };
    },
  };
}
