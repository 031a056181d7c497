// The result forms of the judges' page, one per game (fields: docs/games/*.md), with the hints
// they show while the judge types (computed VP, game points, the expected order).
//
// makeResultForm(game, context) → {
//   element,              the fields (a table with one row per player, in seat order)
//   players(),            the body's "players" as typed (an empty field is left out)
//   fill(players),        fills the fields from an entry (the payload of a stored result)
//   cell(player, field),  where an error about that player's field is shown (or null)
//   column(field),        where an error about a field of the whole table is shown (or null)
//   describe(players),    an entry as rows of text, to show another judge's entry
//   hint(),               a line summing up the entry so far
// }
// context: {tournament, round, table, playerName}

import { el } from "./dom.js";

export const HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"];
export const houseName = (h) => h.charAt(0).toUpperCase() + h.slice(1);

let idCounter = 0;
const newId = (prefix) => `${prefix}-${++idCounter}`;

// ---- shared pieces ------------------------------------------------------------------------------

function numberInput(player, field, label, { min, max } = {}) {
  return el("input", {
    type: "number",
    inputmode: "numeric",
    id: newId(field),
    min: min === undefined ? undefined : String(min),
    max: max === undefined ? undefined : String(max),
    step: "1",
    "aria-label": label,
    dataset: { player, field },
  });
}

const intOf = (input) => (input.value.trim() === "" ? undefined : Number(input.value));

// A table whose rows are the players; columns [{field, label, make(player, name) → node}].
// Cells carry data-player/data-field so that errors can find them, and data-label for the
// narrow layout (a card per player, judge.css); the footer has one cell per column for errors
// about the whole table (data-field only).
function entryTable(context, columns, extraFooter) {
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, "Player"),
    columns.map((c) => el("th", { scope: "col", dataset: { field: c.field } }, c.label)),
  );
  const rows = context.table.players.map((player) =>
    el(
      "tr",
      { dataset: { player } },
      el("th", { scope: "row", dataset: { player, field: "player" } }, context.playerName(player)),
      columns.map((c) => el("td", { dataset: { player, field: c.field, label: c.label } }, c.make(player, context.playerName(player)))),
    ),
  );
  const foot = el(
    "tr",
    { class: "table-wide" },
    el("td", { dataset: { field: "players" } }, extraFooter ? extraFooter.players : ""),
    columns.map((c) => el("td", { dataset: { field: c.field, label: c.label, tableWide: "yes" } }, extraFooter && extraFooter[c.field])),
  );
  return el("table", { class: "entry-table" }, el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, foot));
}

function finder(element) {
  return {
    cell: (player, field) => element.querySelector(`tbody [data-player="${CSS.escape(player)}"][data-field="${CSS.escape(field)}"]`),
    column: (field) => element.querySelector(`tfoot [data-field="${CSS.escape(field)}"]`),
    input: (player, field) => element.querySelector(`tbody input[data-player="${CSS.escape(player)}"][data-field="${CSS.escape(field)}"], tbody select[data-player="${CSS.escape(player)}"][data-field="${CSS.escape(field)}"]`),
  };
}

// Places by a score, best first; equal scores share ("2="). `first` (optional) takes place 1
// alone (Catan's claimed-win exception).
function places(scores, first) {
  const order = [...scores].sort((a, b) => b.score - a.score);
  if (first) order.sort((a, b) => (b.player === first) - (a.player === first));
  const out = new Map();
  let i = 0;
  while (i < order.length) {
    let j = i + 1;
    if (order[i].player !== first) {
      while (j < order.length && order[j].score === order[i].score && order[j].player !== first) j++;
    }
    for (let k = i; k < j; k++) out.set(order[k].player, j - i > 1 ? `${i + 1}=` : `${i + 1}`);
    i = j;
  }
  return out;
}

// ---- Catan --------------------------------------------------------------------------------------

const CATAN_NUMBERS = [
  { field: "settlements", label: "Settlements", min: 0, max: 5 },
  { field: "cities", label: "Cities", min: 0, max: 4 },
  { field: "vp_cards", label: "VP cards", min: 0, max: 5 },
  { field: "knights", label: "Knights", min: 0, max: 14 },
  { field: "roads", label: "Roads", min: 2, max: 15 },
  { field: "longest_road", label: "Longest road", min: 1, max: 15 },
];

function catanForm(context) {
  const radioName = { largest_army: newId("largest-army"), longest_road_holder: newId("longest-road") };
  const columns = [
    ...CATAN_NUMBERS.map((n) => ({
      field: n.field,
      label: n.label,
      make: (player, name) => numberInput(player, n.field, `${name}: ${n.label.toLowerCase()}`, n),
    })),
    ...["largest_army", "longest_road_holder"].map((field) => ({
      field,
      label: field === "largest_army" ? "Largest Army" : "Longest Road",
      make: (player, name) =>
        el("input", {
          type: "radio",
          name: radioName[field],
          value: player,
          id: newId(field),
          "aria-label": `${name} holds ${field === "largest_army" ? "Largest Army" : "Longest Road"}`,
          dataset: { player, field },
        }),
    })),
    {
      field: "claimed_win",
      label: "Claimed win",
      make: (player, name) =>
        el("input", { type: "checkbox", id: newId("claim"), "aria-label": `${name} claimed the win`, dataset: { player, field: "claimed_win" } }),
    },
    { field: "vp", label: "VP", make: (player) => el("output", { dataset: { player, vp: "computed" } }, "") },
  ];
  // "Nobody holds it" for each title, in the footer under its column.
  const nobody = (field, label) =>
    el(
      "label",
      {},
      el("input", { type: "radio", name: radioName[field], value: "", checked: true, dataset: { field, nobody: "yes" } }),
      ` nobody`,
      el("span", { class: "visually-hidden" }, ` holds ${label}`),
    );
  const element = entryTable(context, columns, {
    largest_army: nobody("largest_army", "Largest Army"),
    longest_road_holder: nobody("longest_road_holder", "Longest Road"),
  });
  const find = finder(element);
  const players = context.table.players;

  const sheet = (player) => {
    const out = { player };
    for (const n of CATAN_NUMBERS) {
      const v = intOf(find.input(player, n.field));
      if (v !== undefined) out[n.field] = v;
    }
    out.largest_army = find.input(player, "largest_army").checked;
    out.longest_road_holder = find.input(player, "longest_road_holder").checked;
    if (find.input(player, "claimed_win").checked) out.claimed_win = true;
    return out;
  };
  const vpOf = (s) =>
    (s.settlements || 0) + 2 * (s.cities || 0) + (s.vp_cards || 0) + 2 * s.largest_army + 2 * s.longest_road_holder;

  return {
    element,
    players: () => players.map(sheet),
    fill(entry) {
      for (const p of entry) {
        for (const n of CATAN_NUMBERS) {
          const input = find.input(p.player, n.field);
          if (input) input.value = p[n.field] ?? "";
        }
        for (const field of ["largest_army", "longest_road_holder"]) {
          const input = find.input(p.player, field);
          if (input && p[field]) input.checked = true;
        }
        const claim = find.input(p.player, "claimed_win");
        if (claim) claim.checked = Boolean(p.claimed_win);
      }
    },
    cell: find.cell,
    column: find.column,
    describe: (entry) => ({
      head: ["Player", ...CATAN_NUMBERS.map((n) => n.label), "Largest Army", "Longest Road", "Claimed win", "VP"],
      rows: entry.map((p) => [
        context.playerName(p.player),
        ...CATAN_NUMBERS.map((n) => String(p[n.field] ?? "")),
        p.largest_army ? "yes" : "",
        p.longest_road_holder ? "yes" : "",
        p.claimed_win ? "yes" : "",
        String(vpOf(p)),
      ]),
    }),
    // Computed VP per player; the table's sums against their limits; the order the VP give.
    hint() {
      const sheets = players.map(sheet);
      for (const s of sheets) element.querySelector(`output[data-player="${CSS.escape(s.player)}"]`).textContent = String(vpOf(s));
      const sum = (f) => sheets.reduce((a, s) => a + (s[f] || 0), 0);
      const scores = sheets.map((s) => ({ player: s.player, score: vpOf(s) }));
      const eligible = scores.filter((s) => s.score >= 10).map((s) => s.player);
      const claimants = sheets.filter((s) => s.claimed_win && eligible.includes(s.player));
      const first = eligible.length >= 2 && claimants.length === 1 ? claimants[0].player : undefined;
      const placed = places(scores, first);
      const order = [...scores]
        .sort((a, b) => parseInt(placed.get(a.player)) - parseInt(placed.get(b.player)))
        .map((s) => `${placed.get(s.player)}. ${context.playerName(s.player)} (${s.score} VP)`);
      return `VP cards ${sum("vp_cards")} of at most 5 · knights ${sum("knights")} of at most 14 · order: ${order.join(", ")}`;
    },
  };
}

// ---- A Game of Thrones --------------------------------------------------------------------------

function agotForm(context) {
  const { tournament, table, round } = context;
  const columns = [
    {
      field: "house",
      label: "House",
      make: (player, name) =>
        el(
          "select",
          { id: newId("house"), "aria-label": `${name}: house`, dataset: { player, field: "house" } },
          el("option", { value: "" }, "—"),
          HOUSES.map((h) => el("option", { value: h }, houseName(h))),
        ),
    },
    {
      field: "place",
      label: "Place",
      make: (player, name) =>
        el(
          "select",
          { id: newId("place"), "aria-label": `${name}: place`, dataset: { player, field: "place" } },
          el("option", { value: "" }, "—"),
          [1, 2, 3, 4, 5, 6].map((p) => el("option", { value: String(p) }, String(p))),
        ),
    },
    { field: "castles", label: "Castles", make: (player, name) => numberInput(player, "castles", `${name}: castles and strongholds`, { min: 0, max: 7 }) },
    {
      field: "capitals_captured",
      label: "Capitals captured",
      make: (player, name) =>
        el(
          "fieldset",
          { class: "capitals", dataset: { player, field: "capitals_captured" } },
          el("legend", {}, el("span", { class: "visually-hidden" }, `${name}: `), "captured"),
          HOUSES.map((h) =>
            el(
              "label",
              {},
              el("input", { type: "checkbox", value: h, dataset: { player, capital: h } }),
              ` ${houseName(h)}`,
            ),
          ),
        ),
    },
    { field: "capitals_held", label: "Capitals held", make: (player, name) => numberInput(player, "capitals_held", `${name}: capitals held`, { min: 0, max: 6 }) },
    { field: "lands_captured", label: "Lands captured", make: (player, name) => numberInput(player, "lands_captured", `${name}: lands captured`, { min: 0 }) },
    { field: "points", label: "Game points", make: (player) => el("output", { dataset: { player, points: "computed" } }, "") },
  ];
  const element = entryTable(context, columns);
  const find = finder(element);
  const players = table.players;
  // A player's own house is not a capital they capture.
  const syncCapitals = (player) => {
    const own = find.input(player, "house").value;
    for (const box of element.querySelectorAll(`input[data-player="${CSS.escape(player)}"][data-capital]`)) {
      box.disabled = box.value === own;
      if (box.disabled) box.checked = false;
    }
  };
  element.addEventListener("change", (e) => {
    if (e.target.dataset.field === "house") syncCapitals(e.target.dataset.player);
  });
  // Houses from the accepted picks.
  for (const [player, house] of Object.entries(table.houses || {})) {
    const select = find.input(player, "house");
    if (select) select.value = house;
  }
  players.forEach(syncCapitals);

  const captured = (player) =>
    [...element.querySelectorAll(`input[data-player="${CSS.escape(player)}"][data-capital]:checked`)].map((b) => b.value);
  const sheet = (player) => {
    const out = { player };
    const house = find.input(player, "house").value;
    if (house) out.house = house;
    const place = intOf(find.input(player, "place"));
    if (place !== undefined) {
      out.place = place;
      out.winner = place === 1; // the winner is the player in place 1 (G-3)
    }
    for (const field of ["castles", "capitals_held", "lands_captured"]) {
      const v = intOf(find.input(player, field));
      if (v !== undefined) out[field] = v;
    }
    out.capitals_captured = captured(player);
    return out;
  };

  // Game points as agot.md §3 counts them, with this tournament's rules.
  const rules = tournament.rules || {};
  const bonusLeague = (player) => {
    const i = players.indexOf(player);
    const league = (table.rating_leagues && table.rating_leagues[i]) || table.league || "";
    return round >= (rules.league_bonus_from_round ?? 2) ? league : "";
  };
  const pointsOf = (s) => {
    if (s.place === undefined || s.castles === undefined) return null;
    const place = (rules.place_points || [12, 8, 6, 4, 2, 1])[s.place - 1] ?? 0;
    const league = bonusLeague(s.player);
    const bonus = league ? ((rules.league_bonus || { A: [1, 1] })[league] || [])[s.place - 1] ?? 0 : 0;
    const castles = (rules.castle_points || [0, 0, 1, 1, 2, 2, 3, 4])[s.castles] ?? 0;
    const capitals = Math.min(rules.capitals_cap ?? 3, new Set(s.capitals_captured).size + (s.capitals_held || 0));
    return place + bonus + castles + capitals;
  };

  return {
    element,
    players: () => players.map(sheet),
    fill(entry) {
      for (const p of entry) {
        if (!players.includes(p.player)) continue;
        find.input(p.player, "house").value = p.house || "";
        find.input(p.player, "place").value = p.place ? String(p.place) : "";
        for (const field of ["castles", "capitals_held", "lands_captured"]) find.input(p.player, field).value = p[field] ?? "";
        syncCapitals(p.player);
        for (const box of element.querySelectorAll(`input[data-player="${CSS.escape(p.player)}"][data-capital]`)) {
          box.checked = (p.capitals_captured || []).includes(box.value);
        }
      }
    },
    cell: find.cell,
    column: find.column,
    describe: (entry) => ({
      head: ["Player", "House", "Place", "Castles", "Capitals captured", "Capitals held", "Lands captured"],
      rows: entry.map((p) => [
        context.playerName(p.player),
        p.house ? houseName(p.house) : "",
        String(p.place ?? ""),
        String(p.castles ?? ""),
        (p.capitals_captured || []).map(houseName).join(", "),
        String(p.capitals_held ?? ""),
        String(p.lands_captured ?? ""),
      ]),
    }),
    hint() {
      const sheets = players.map(sheet);
      const parts = [];
      for (const s of sheets) {
        const points = pointsOf(s);
        element.querySelector(`output[data-player="${CSS.escape(s.player)}"]`).textContent = points === null ? "" : String(points);
        if (points !== null) parts.push(`${context.playerName(s.player)} ${points}`);
      }
      const league = table.league ? `league ${table.league}` : "no league bonus";
      return parts.length ? `Game points (${league}): ${parts.join(", ")}` : `Enter places and castles to see the game points (${league}).`;
    },
  };
}

// ---- Carcassonne --------------------------------------------------------------------------------

function carcassonneForm(context) {
  const { table } = context;
  const totals = table.totals || {};
  const hasScorings = (table.scorings || 0) > 0;
  const columns = [
    { field: "score", label: "Final score", make: (player, name) => numberInput(player, "score", `${name}: final score`) },
  ];
  if (hasScorings) {
    columns.push({ field: "totals", label: "Scorings' total", make: (player) => el("span", {}, String(totals[player] ?? 0)) });
  }
  const element = entryTable(context, columns);
  const find = finder(element);
  const players = table.players;
  if (hasScorings) {
    const fillTotals = el("button", { type: "button", class: "secondary" }, "Use the scorings' totals");
    fillTotals.addEventListener("click", () => {
      for (const p of players) find.input(p, "score").value = String(totals[p] ?? 0);
      find.input(players[0], "score").dispatchEvent(new Event("input", { bubbles: true }));
    });
    element.querySelector("tfoot td").append(fillTotals);
  }
  const sheet = (player) => {
    const v = intOf(find.input(player, "score"));
    return v === undefined ? { player } : { player, score: v };
  };
  return {
    element,
    players: () => players.map(sheet),
    fill(entry) {
      for (const p of entry) {
        const input = find.input(p.player, "score");
        if (input) input.value = p.score ?? "";
      }
    },
    cell: find.cell,
    column: find.column,
    describe: (entry) => ({
      head: ["Player", "Final score"],
      rows: entry.map((p) => [context.playerName(p.player), String(p.score ?? "")]),
    }),
    hint() {
      const sheets = players.map(sheet);
      if (sheets.some((s) => s.score === undefined)) return "Enter every player's final score.";
      if (sheets.length === 2) {
        const [a, b] = sheets;
        if (a.score === b.score) return "A draw: ½ point each.";
        const winner = a.score > b.score ? a : b;
        return `${context.playerName(winner.player)} wins.`;
      }
      const placed = places(sheets.map((s) => ({ player: s.player, score: s.score })));
      return `Order: ${sheets
        .sort((x, y) => y.score - x.score)
        .map((s) => `${placed.get(s.player)}. ${context.playerName(s.player)} (${s.score})`)
        .join(", ")}`;
    },
  };
}

export function makeResultForm(game, context) {
  switch (game) {
    case "catan":
      return catanForm(context);
    case "agot":
      return agotForm(context);
    case "carcassonne":
      return carcassonneForm(context);
    default:
      return null;
  }
}
