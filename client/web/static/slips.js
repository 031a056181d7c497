// A printed result slip for one table: who sits there, in seat order, and an empty box for
// every value the judge will type in (the fields of the game's result, docs/games/*.md).

import { el } from "./dom.js";

// Per game: the columns of the slip. AGoT's house is printed when the table's picks are known.
const SLIP_FIELDS = {
  catan: ["Settlements", "Cities", "VP cards", "Knights", "Roads", "Longest road", "Largest Army ✓", "Longest Road ✓", "VP", "Claimed win ✓"],
  agot: ["House", "Place", "Castles", "Capitals captured (houses)", "Capitals held", "Lands captured"],
  carcassonne: ["Final score"],
};

export function resultSlip(tournament, sheet, table, playerName) {
  const fields = SLIP_FIELDS[tournament.game] || ["Score"];
  const title = [`${tournament.name}`, `Round ${sheet.round}`, `Table ${table.table}`];
  if (table.league) title.push(`League ${table.league}`);
  const bye = table.players.length === 1;

  const rows = table.players.map((p, seat) =>
    el(
      "tr",
      {},
      el("th", { scope: "row" }, `${seat + 1}. ${playerName(p)}`),
      fields.map((f) => {
        const house = f === "House" && table.houses && table.houses[p];
        return el("td", { class: house ? "" : "blank" }, house ? capitalize(house) : "");
      }),
    ),
  );

  return el(
    "article",
    { class: "slip", dataset: { table: table.table } },
    el("h3", {}, title.join(" · ")),
    bye
      ? el("p", {}, `${playerName(table.players[0])}: bye — nothing to enter.`)
      : el(
          "table",
          {},
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player (seat order)"), fields.map((f) => el("th", { scope: "col" }, f)))),
          el("tbody", {}, rows),
        ),
    bye ? null : el("p", { class: "signatures" }, el("span", {}, "Judge: ____________"), el("span", {}, "Players' signatures: ______________________________")),
  );
}

function capitalize(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
