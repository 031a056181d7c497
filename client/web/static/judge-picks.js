// House picks at an A Game of Thrones table (agot.md §2): players pick in rating order; a pick
// the server refuses shows its reason and the houses that would be accepted, next to the
// player's choice. The organizer may let the server assign the remaining houses. Which houses
// exist comes from the game's description (GET /v1/games: the picks' choices), which a player
// may pick now from the table (`pickable`): the page decides neither.

import { request } from "./api.js";
import { el, setChildren } from "./dom.js";
import { choiceName as houseName } from "./games.js";
import { formatList, t } from "./i18n.js";

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
      return el("li", { dataset: { player } }, el("span", { class: "who" }, name), t("picks.picked", { house: houseName(houses[player]) }));
    }
    const selectId = `pick-${player}`;
    const errorId = `pick-error-${player}`;
    const allowed = pickable[player] || [];
    const taken = new Set(Object.values(houses));
    const select = el(
      "select",
      { id: selectId, dataset: { player }, "aria-describedby": errorId },
      el("option", { value: "" }, t("picks.choose")),
      allowed.map((h) => el("option", { value: h }, houseName(h))),
      el(
        "optgroup",
        { label: t("picks.not_available") },
        choices
          .filter((h) => !allowed.includes(h))
          .map((h) => el("option", { value: h }, taken.has(h) ? t("picks.taken", { house: houseName(h) }) : houseName(h))),
      ),
    );
    const error = el("span", { class: "field-error", id: errorId });
    const button = el("button", { type: "button", class: "secondary" }, t("picks.record"));
    button.addEventListener("click", async () => {
      error.textContent = "";
      select.removeAttribute("aria-invalid");
      if (!select.value) {
        error.textContent = t("picks.choose_first");
        select.setAttribute("aria-invalid", "true");
        select.focus();
        return;
      }
      button.disabled = true;
      const answer = await request("POST", `${tablePath}/picks`, { token, body: { player, house: select.value } });
      button.disabled = false;
      if (answer.ok) {
        status.textContent = t("picks.recorded", { player: name, house: houseName(select.value) });
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
      allowed.length ? el("span", { class: "muted" }, t("picks.can_pick", { houses: formatList(allowed.map(houseName)) })) : null,
      error,
    );
  });

  const auto = el("button", { type: "button", class: "secondary" }, t("picks.assign_rest"));
  const autoError = el("span", { class: "field-error" });
  auto.addEventListener("click", async () => {
    autoError.textContent = "";
    const answer = await request("POST", `${tablePath}/picks/auto`, { token, body: {} });
    if (answer.ok) {
      status.textContent = t("picks.assigned");
      onChange();
    } else {
      autoError.textContent =
        answer.status === 403 ? t("picks.organizer_only") : refusalText(answer);
    }
  });
  const missing = order.some((p) => !houses[p]);

  setChildren(section,
    el("h3", { id: "picks-heading" }, t("picks.heading")),
    el("ol", { class: "picks-list" }, items),
    missing ? el("p", {}, auto, " ", autoError) : null,
    status,
  );
  section.hidden = false;
}

// "G-1: Stark is already taken at this table by Eva (accepted: Lannister or Tyrell)" — the
// server's message, in the page's language (Accept-Language), names the accepted houses once.
function refusalText(answer) {
  const body = answer.body || {};
  const errors = body.errors || [];
  if (!errors.length) return body.detail || t("picks.refused", { status: String(answer.status) });
  return errors
    .map((e) => `${e.rule}: ${e.message}`)
    .join(" ");
}
