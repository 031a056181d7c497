// The tournaments list (/): each with its standings, venue screen, judges' page and the
// organizer's console; and, for the organizer, a new tournament (console-create.js).

import { getJson } from "./api.js";
import { el, say, setChildren } from "./dom.js";
import { startI18n, t } from "./i18n.js";
import { gameName } from "./standings-columns.js";
import { mountCreate } from "./console-create.js";

async function main() {
  await startI18n();
  mountCreate();
  const body = document.querySelector("#tournaments tbody");
  let tournaments;
  try {
    tournaments = await getJson("/v1/tournaments");
  } catch (e) {
    say(document.getElementById("load-error"), t("index.load_error", { error: e.message }), "error");
    return;
  }
  const page = (tournament, suffix = "") => `/t/${encodeURIComponent(tournament.id)}${suffix}`;
  setChildren(body,
    tournaments.map((tournament) =>
      el(
        "tr",
        { dataset: { tournament: tournament.id } },
        el("th", { scope: "row" }, el("a", { href: page(tournament) }, tournament.name)),
        el("td", {}, gameName(tournament.game)),
        el("td", { class: "number" }, String(tournament.players)),
        el("td", { class: "number" }, String(tournament.rounds)),
        el(
          "td",
          {},
          el("a", { href: page(tournament, "/board"), "aria-label": t("index.board_link_label", { name: tournament.name }) }, t("index.board_link")),
          " · ",
          el("a", { href: page(tournament, "/judge"), "aria-label": t("index.judge_link_label", { name: tournament.name }) }, t("index.judge_link")),
          " · ",
          el("a", { href: page(tournament, "/console"), "aria-label": t("index.console_link_label", { name: tournament.name }) }, t("index.console_link")),
        ),
      ),
    ),
  );
  document.getElementById("none").hidden = tournaments.length > 0;
  if (!tournaments.length) document.getElementById("create").open = true;
  document.getElementById("tournaments").hidden = tournaments.length === 0;
}

main();
