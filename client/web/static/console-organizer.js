// The console's "Organizer token" section: a new organizer token made (POST
// /v1/organizer/token) after a confirmation. The old token is refused from that moment, so the
// page keeps the new one at once (useToken) and shows it this one time, to be copied into
// wherever else the organizer uses it (the tally command).

import { el, say } from "./dom.js";
import { t } from "./i18n.js";
import { clearRefusals, showRefusal } from "./console-refusals.js";

const $ = (id) => document.getElementById(id);

export function mountOrganizer(ctx, { useToken }) {
  const message = $("organizer-message");

  $("rotate-ask").addEventListener("click", () => {
    $("rotate-confirm").hidden = false;
    $("new-organizer-token").hidden = true;
    $("rotate-no").focus();
  });
  $("rotate-no").addEventListener("click", () => {
    $("rotate-confirm").hidden = true;
    $("rotate-ask").focus();
  });

  $("rotate-yes").addEventListener("click", async () => {
    clearRefusals($("organizer"), message);
    $("rotate-yes").disabled = true;
    try {
      const answer = await ctx.call("POST", "/v1/organizer/token", {});
      if (!answer.ok) return showRefusal(answer, { box: message });
      useToken(answer.body.token);
      $("rotate-confirm").hidden = true;
      say(message, t("console.organizer.done"), "ok");
      const box = $("new-organizer-token");
      box.replaceChildren(
        el("h3", {}, t("console.organizer.new_heading")),
        el("p", {}, t("console.organizer.token_once")),
        el("p", {}, el("code", { id: "organizer-token", class: "token" }, answer.body.token)),
        el("p", {}, el("button", { type: "button", class: "secondary", onclick: () => (box.hidden = true) }, t("console.organizer.hide_token"))),
      );
      box.hidden = false;
    } finally {
      $("rotate-yes").disabled = false;
    }
  });
}
