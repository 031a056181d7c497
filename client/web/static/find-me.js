// "Find me" on the players' page (/t/{t}): a player types a part of their name and picks
// themselves from the matches; the choice is remembered in this browser, per tournament, so the
// page opens with their table and results next time.
//
// tallyd has no search: the page searches the names it already has. Names are compared folded —
// decomposed (NFD), combining marks removed, lower case — so "novakova" finds "Nováková" and
// "CENEK" finds "Čeněk". The matches keep the order they are given in (the server's standings
// rows): the page sorts nothing.
//
//   const finder = createFindMe({ input, results, status, players: () => rows, onChoose: (id) => … });
//   finder.refresh();   // the players changed

import { el, person, setChildren } from "./dom.js";
import { t } from "./i18n.js";

const MATCHES_SHOWN = 8; // more: "and 12 more: type more of your name"

export function fold(text) {
  return String(text).normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

// The players of `players` ([{id, name, …}], in the order to show) whose folded name contains
// every word of the folded `query`, in any order ("jana nov" finds "Jana Nováková").
export function findPlayers(players, query) {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return players.filter((p) => {
    const name = fold(p.name);
    return words.every((word) => name.includes(word));
  });
}

// ---- remembered in the browser ------------------------------------------------------------------

const storageKey = (tournament) => `tallyd.me.${tournament}`;

export function rememberedPlayer(tournament) {
  try {
    return localStorage.getItem(storageKey(tournament));
  } catch {
    return null; // storage refused (a privacy setting): nothing remembered
  }
}

// Remembers `player` (an id) for `tournament`, or forgets the choice (null).
export function rememberPlayer(tournament, player) {
  try {
    if (player) localStorage.setItem(storageKey(tournament), player);
    else localStorage.removeItem(storageKey(tournament));
  } catch {
    // nowhere to remember it: the page still shows the player until it is closed
  }
}

// ---- the search ---------------------------------------------------------------------------------

// The search field's matches as buttons (a player's name each, isolated), a status line for
// none or too many, Enter choosing the only match. `players()` answers the list to search
// ([{id, name, dropped}]), `onChoose(id)` is called with the one chosen.
export function createFindMe({ form, input, results, status, players, onChoose }) {
  function refresh() {
    const query = input.value.trim();
    const found = query ? findPlayers(players(), query) : [];
    setChildren(
      results,
      found.slice(0, MATCHES_SHOWN).map((p) =>
        el(
          "li",
          {},
          el(
            "button",
            { type: "button", class: "secondary find-match", dataset: { player: p.id }, onclick: () => onChoose(p.id) },
            person(p.name),
            p.dropped && el("span", { class: "badge" }, t("common.dropped")),
          ),
        ),
      ),
    );
    if (!query) status.textContent = "";
    else if (found.length === 0) status.textContent = t("standings.find.none", { query });
    else if (found.length > MATCHES_SHOWN) status.textContent = t("standings.find.more", { count: found.length - MATCHES_SHOWN });
    else status.textContent = "";
    return found;
  }

  input.addEventListener("input", refresh);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const found = refresh();
    if (found.length === 1) onChoose(found[0].id);
  });
  return {
    refresh,
    clear() {
      input.value = "";
      refresh();
    },
  };
}
