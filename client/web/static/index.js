// The tournaments list (/): each with its standings, venue screen and judges' page.

import { getJson } from "./api.js";
import { el, say, setChildren } from "./dom.js";
import { gameName } from "./standings-columns.js";

async function main() {
  const body = document.querySelector("#tournaments tbody");
  let tournaments;
  try {
    tournaments = await getJson("/v1/tournaments");
  } catch (e) {
    say(document.getElementById("load-error"), `Cannot load the tournaments: ${e.message}`, "error");
    return;
  }
  const page = (t, suffix = "") => `/t/${encodeURIComponent(t.id)}${suffix}`;
  setChildren(body,
    tournaments.map((t) =>
      el(
        "tr",
        { dataset: { tournament: t.id } },
        el("th", { scope: "row" }, el("a", { href: page(t) }, t.name)),
        el("td", {}, gameName(t.game)),
        el("td", { class: "number" }, String(t.players)),
        el("td", { class: "number" }, String(t.rounds)),
        el(
          "td",
          {},
          el("a", { href: page(t, "/board"), "aria-label": `${t.name}: venue screen` }, "Venue screen"),
          " · ",
          el("a", { href: page(t, "/judge"), "aria-label": `${t.name}: result entry` }, "Result entry"),
        ),
      ),
    ),
  );
  document.getElementById("none").hidden = tournaments.length > 0;
  document.getElementById("tournaments").hidden = tournaments.length === 0;
}

main();
