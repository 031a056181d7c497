// A printed result slip for one table: who sits there, in seat order, and an empty box for
// every value the judge will type in: the fields of the game's result as its description
// (GET /v1/games, games.js) gives them, those derived from another left out.
//
// With self-reporting (the organizer's console), a slip also carries the QR code of its table's
// report page (`qr`: the address, origin + the key's url): the players scan it to propose their
// result. The public standings page prints slips without it (it has no table keys).

import { el } from "./dom.js";
import { askedFields, choiceName, fieldHeading, knownValue } from "./games.js";
import { t } from "./i18n.js";
import { encodeQr, qrSvg } from "./qr-code.js";

// The columns of the slip: the heading of each field asked, a tick for a yes/no, the names to
// write for several choices. AGoT's house is printed when the table's picks are known.
function slipFields(description) {
  const fields = askedFields(description, "result");
  if (!fields.length) return [{ name: "score", label: t("slip.score") }];
  return fields.map((f) => ({
    name: f.name,
    label: f.type === "boolean" ? `${fieldHeading(f)} ✓` : f.type === "choices" ? t("slip.names", { field: fieldHeading(f) }) : fieldHeading(f),
  }));
}

// `description`: the game's (GET /v1/games), or null (the slip then has one column, a score).
// `qr`: the address of the table's report page, printed as a QR code (a bye gets none).
export function resultSlip(tournament, sheet, table, playerName, description, { qr = null } = {}) {
  const fields = slipFields(description);
  const title = [
    tournament.name,
    t("slip.round", { round: String(sheet.round) }),
    t("slip.table", { table: String(table.table) }),
  ];
  if (table.league) title.push(t("slip.league", { league: table.league }));
  const bye = table.players.length === 1;

  const rows = table.players.map((p, seat) =>
    el(
      "tr",
      {},
      el("th", { scope: "row" }, `${seat + 1}. ${playerName(p)}`),
      fields.map((f) => {
        const known = knownValue(table, f.name, p);
        return el("td", { class: known ? "" : "blank" }, known ? choiceName(known) : "");
      }),
    ),
  );

  const heading = el("h3", {}, title.join(" · "));
  const code = qr && !bye ? slipQr(qr, table) : null;
  return el(
    "article",
    { class: code ? "slip with-qr" : "slip", dataset: { table: table.table } },
    code ? el("div", { class: "slip-head" }, heading, code) : heading,
    bye
      ? el("p", {}, t("slip.bye", { player: playerName(table.players[0]) }))
      : el(
          "table",
          {},
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("slip.player")), fields.map((f) => el("th", { scope: "col" }, f.label)))),
          el("tbody", {}, rows),
        ),
    bye
      ? null
      : el("p", { class: "signatures" }, el("span", {}, t("slip.judge_signature")), el("span", {}, t("slip.players_signatures"))),
  );
}

// The QR code of a table's report page, with a line saying what it is for.
function slipQr(address, table) {
  const svg = qrSvg(document, encodeQr(address), { title: t("slip.qr_title", { table: String(table.table) }) });
  svg.setAttribute("class", "qr");
  return el("figure", { class: "slip-qr" }, svg, el("figcaption", {}, t("slip.qr_caption")));
}
