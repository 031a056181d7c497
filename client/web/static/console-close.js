// The console's "Close the round" section: the last round closed (POST …/rounds/{r}/close),
// as the final one when the organizer ticks it — ticked to begin with when the tournament's
// settings plan this round as the last. Tables without a result make the server refuse
// (409 round.unreported): the page says which and offers to close anyway with a reason.

import { say } from "./dom.js";
import { t } from "./i18n.js";
import { clearRefusals, showRefusal } from "./console-refusals.js";
import { unreportedError, unreportedText } from "./console-unreported.js";

const $ = (id) => document.getElementById(id);

export function mountClose(ctx) {
  const message = $("close-message");
  let force = null; // {reason}
  let roundShown = null;

  function render(tournament) {
    const round = ctx.lastRound();
    const status = $("close-status");
    $("close-form").hidden = !round || round.closed;
    if (!round) {
      status.textContent = t("console.no_round");
      return;
    }
    if (round.round !== roundShown) {
      // Another round: its own choice of "final", and no force given for the one before.
      roundShown = round.round;
      force = null;
      $("close-force").hidden = true;
      const planned = tournament.rules && typeof tournament.rules.rounds === "number" ? tournament.rules.rounds : null;
      $("close-final").checked = planned !== null && round.round >= planned;
    }
    status.dataset.closed = String(Boolean(round.closed));
    status.dataset.final = String(Boolean(tournament.final));
    status.textContent = round.closed
      ? t(round.final ? "console.close.closed_final" : "console.close.closed", { round: round.round })
      : t("console.close.open", { round: round.round, reported: round.reported, total: round.tables_total });
    $("close-button").textContent = t("console.close.button", { round: round.round });
  }

  async function close() {
    const round = ctx.lastRound();
    if (!round) return;
    clearRefusals($("close"), message);
    const body = { final: $("close-final").checked };
    if (force) {
      body.force = true;
      body.reason = force.reason;
    }
    const answer = await ctx.call("POST", ctx.path(`/rounds/${round.round}/close`), body);
    if (!answer.ok) {
      const unreported = unreportedError(answer);
      if (unreported) {
        $("close-force-why").textContent = unreportedText(unreported, round);
        $("close-force").hidden = false;
        $("close-force-reason").focus();
        return;
      }
      return showRefusal(answer, { box: message, fields: { final: $("close-final"), reason: $("close-force-reason") } });
    }
    $("close-force").hidden = true;
    force = null;
    say(message, t(answer.body.final ? "console.close.done_final" : "console.close.done", { round: answer.body.round }), "ok");
    await ctx.reload();
  }

  $("close-form").addEventListener("submit", (event) => {
    event.preventDefault();
    force = null;
    close();
  });
  $("close-force").addEventListener("submit", (event) => {
    event.preventDefault();
    force = { reason: $("close-force-reason").value.trim() };
    close();
  });

  ctx.subscribe(render);
}
