// House picks at an A Game of Thrones table (agot.md §2): players pick in rating order; a pick
// the server refuses shows its reason and the houses that would be accepted, next to the
// player's choice. The organizer may let the server assign the remaining houses. Which houses
// exist comes from the game's description (GET /v1/games: the picks' choices), which a player
// may pick now from the table (`pickable`): the page decides neither.

import { request } from "./api.js";
import { el, setChildren } from "./dom.js";
import { choiceName as houseName } from "./games.js";

// Renders the picks of `table` into `section`; `choices` are those of the picks' field (the
// game's houses); `onChange()` is called after a pick is recorded.
export function renderPicks(section, { table, tablePath, token, playerName, onChange, choices = [] }) {
  const houses = table.houses || {};
  const pickable = table.pickable || {};
  const order = table.pick_order && table.pick_order.length ? table.pick_order : table.players;
  const status = el("p", { class: "picks-status", role: "status" });

  const items = order.map((player) => {
    const name = playerName(player);
    if (houses[player]) {
      return el("li", { dataset: { player } }, el("span", { class: "who" }, name), `picked ${houseName(houses[player])}`);
    }
    const selectId = `pick-${player}`;
    const errorId = `pick-error-${player}`;
    const allowed = pickable[player] || [];
    const taken = new Set(Object.values(houses));
    const select = el(
      "select",
      { id: selectId, dataset: { player }, "aria-describedby": errorId },
      el("option", { value: "" }, "choose a house"),
      allowed.map((h) => el("option", { value: h }, houseName(h))),
      el(
        "optgroup",
        { label: "Not available to this player" },
        choices.filter((h) => !allowed.includes(h)).map((h) => el("option", { value: h }, `${houseName(h)}${taken.has(h) ? " (taken)" : ""}`)),
      ),
    );
    const error = el("span", { class: "field-error", id: errorId });
    const button = el("button", { type: "button", class: "secondary" }, "Record the pick");
    button.addEventListener("click", async () => {
      error.textContent = "";
      select.removeAttribute("aria-invalid");
      if (!select.value) {
        error.textContent = "Choose the house the player picked.";
        select.setAttribute("aria-invalid", "true");
        select.focus();
        return;
      }
      button.disabled = true;
      const answer = await request("POST", `${tablePath}/picks`, { token, body: { player, house: select.value } });
      button.disabled = false;
      if (answer.ok) {
        status.textContent = `${name} picked ${houseName(select.value)}.`;
        onChange();
        return;
      }
      select.setAttribute("aria-invalid", "true");
      error.textContent = refusalText(answer);
      select.focus();
    });
    return el(
      "li",
      { dataset: { player } },
      el("label", { for: selectId, class: "who" }, name),
      select,
      button,
      allowed.length ? el("span", { class: "muted" }, `can pick: ${allowed.map(houseName).join(", ")}`) : null,
      error,
    );
  });

  const auto = el("button", { type: "button", class: "secondary" }, "Assign the remaining houses (organizer)");
  const autoError = el("span", { class: "field-error" });
  auto.addEventListener("click", async () => {
    autoError.textContent = "";
    const answer = await request("POST", `${tablePath}/picks/auto`, { token, body: {} });
    if (answer.ok) {
      status.textContent = "The remaining houses were assigned.";
      onChange();
    } else {
      autoError.textContent =
        answer.status === 403 ? "Only the organizer can assign houses automatically." : refusalText(answer);
    }
  });
  const missing = order.some((p) => !houses[p]);

  setChildren(section,
    el("h3", { id: "picks-heading" }, "House picks (in rating order)"),
    el("ol", { class: "picks-list" }, items),
    missing ? el("p", {}, auto, " ", autoError) : null,
    status,
  );
  section.hidden = false;
}

// "G-1: Stark is already taken at this table by p1. Accepted now: Lannister, Tyrell." — the
// accepted houses from the error's `accepted` (the server's own wording of them is dropped).
function refusalText(answer) {
  const body = answer.body || {};
  const errors = body.errors || [];
  if (!errors.length) return body.detail || `refused (${answer.status})`;
  return errors
    .map((e) => {
      if (!e.accepted || !e.accepted.length) return `${e.rule}: ${e.message}`;
      const message = e.message.replace(/\s*\(accepted:[^)]*\)\s*$/i, "");
      return `${e.rule}: ${message}. Accepted now: ${e.accepted.map(houseName).join(", ")}.`;
    })
    .join(" ");
}
