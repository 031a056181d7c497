// "New tournament" on the tournaments list (/), for the organizer: the organizer token (asked
// once, then kept like the console keeps it), the tournament's name, id, game and language.
// POST /v1/tournaments; once created, its console opens. Whether an id or a name will do is
// the server's call: its refusals are shown at their fields.

import { tryRequest } from "./api.js";
import { el, setChildren } from "./dom.js";
import { LANGUAGES, language, t } from "./i18n.js";
import { loadGames } from "./games.js";
import { gameName } from "./standings-columns.js";
import { storedOrganizerToken, storeOrganizerToken } from "./console-context.js";
import { clearRefusals, markField, showRefusal } from "./console-refusals.js";

const $ = (id) => document.getElementById(id);

export function consolePath(id) {
  return `/t/${encodeURIComponent(id)}/console`;
}

function showTokenState() {
  const saved = Boolean(storedOrganizerToken());
  $("create-token").hidden = saved;
  $("create-token-saved").hidden = !saved;
}

export async function mountCreate() {
  const message = $("create-message");
  showTokenState();
  // Open for the organizer's browser (a token kept); spectators see one line.
  if (storedOrganizerToken()) $("create").open = true;
  setChildren($("create-locale"), LANGUAGES.map(({ code, name }) => el("option", { value: code, lang: code }, name)));
  $("create-locale").value = language();
  try {
    const games = await loadGames();
    setChildren($("create-game"), [...games.keys()].map((game) => el("option", { value: game }, gameName(game))));
  } catch (e) {
    showRefusal({ status: 0, body: { detail: e.message } }, { box: message });
  }

  $("create-forget").addEventListener("click", () => {
    storeOrganizerToken(null);
    showTokenState();
    $("create-token-input").focus();
  });

  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearRefusals(form, message);
    const typed = $("create-token-input").value.trim();
    const token = storedOrganizerToken() || typed;
    const body = {
      id: $("create-id").value.trim(),
      name: $("create-name").value.trim(),
      game: $("create-game").value,
      locale: $("create-locale").value,
    };
    let answer;
    answer = await tryRequest("POST", "/v1/tournaments", { token, body });
    if (answer.status === 401 || answer.status === 403) {
      // Not the organizer's token (or none, or replaced): asked for again, at its field.
      storeOrganizerToken(null);
      showTokenState();
      const input = $("create-token-input");
      markField(input, t(answer.status === 401 ? (token ? "index.create.token_invalid" : "index.create.token_missing") : "index.create.token_not_organizer"));
      input.focus();
      return;
    }
    if (!answer.ok) {
      return showRefusal(answer, {
        box: message,
        fields: { id: $("create-id"), name: $("create-name"), game: $("create-game"), locale: $("create-locale") },
      });
    }
    if (typed) storeOrganizerToken(typed);
    window.location.assign(consolePath(answer.body.id || body.id));
  });
}
