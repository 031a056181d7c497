// The console's Check-in section: who is present for the round to be seated next (a tick per
// player, sent at once: POST …/checkin), "all present", the counts, and the players who did
// not come dropped with a reason (POST …/checkin/drop-absent). Which round that is, and who
// is seated once check-in has opened, is the server's: the page shows `checkin` as it reads it.

import { el, person, say, setChildren } from "./dom.js";
import { formatList, t } from "./i18n.js";
import { clearRefusals, markField, problemText, showRefusal } from "./console-refusals.js";

const $ = (id) => document.getElementById(id);

export function mountCheckin(ctx) {
  const message = $("checkin-message");
  const boxes = new Map(); // player id → its check box (kept across renders: the focus stays)

  function render(tournament) {
    const checkin = tournament.checkin || { round: ctx.rounds().length + 1, open: false, present: [] };
    const active = tournament.players.filter((p) => !p.dropped);
    const present = active.filter((p) => p.present);
    const absent = active.filter((p) => !p.present);
    $("checkin-round").textContent = t(checkin.open ? "console.checkin.round_open" : "console.checkin.round_not_open", {
      round: checkin.round,
    });
    const counts = $("checkin-counts");
    counts.textContent = t("console.checkin.counts", { present: present.length, active: active.length, absent: absent.length });
    counts.dataset.present = present.length;
    counts.dataset.absent = absent.length;

    const items = active.map((player) => {
      let box = boxes.get(player.id);
      if (!box) {
        box = el("input", { type: "checkbox", id: `present-${player.id}`, dataset: { player: player.id } });
        box.addEventListener("change", () => tick(box));
        boxes.set(player.id, box);
      }
      box.checked = Boolean(player.present);
      return el("p", { class: "check" }, box, el("label", { for: box.id }, person(player.name)));
    });
    setChildren($("checkin-list"), items);
    for (const id of [...boxes.keys()]) if (!active.some((p) => p.id === id)) boxes.delete(id);

    $("drop-absent-who").textContent = !checkin.open
      ? t("console.checkin.nobody_yet")
      : absent.length
        ? t("console.checkin.absent", { count: absent.length, names: formatList(absent.map((p) => p.name)) })
        : t("console.checkin.none_absent");
  }

  async function send(players, present) {
    return ctx.call("POST", ctx.path("/checkin"), { players, present });
  }

  async function tick(box) {
    clearRefusals($("checkin"), message);
    const wanted = box.checked;
    const answer = await send([box.dataset.player], wanted);
    if (!answer.ok) {
      box.checked = !wanted;
      markField(box, problemText(answer));
      return;
    }
    await ctx.reload();
  }

  $("checkin-all").addEventListener("click", async () => {
    clearRefusals($("checkin"), message);
    const missing = ctx.players().filter((p) => !p.dropped && !p.present).map((p) => p.id);
    if (!missing.length) return say(message, t("console.checkin.all_already"), "ok");
    const answer = await send(missing, true);
    if (!answer.ok) return showRefusal(answer, { box: message });
    say(message, t("console.checkin.marked_present", { count: missing.length }), "ok");
    await ctx.reload();
  });

  $("drop-absent-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearRefusals(form, message);
    const answer = await ctx.call("POST", ctx.path("/checkin/drop-absent"), { reason: $("drop-absent-reason").value.trim() });
    if (!answer.ok) return showRefusal(answer, { box: message, fields: { reason: $("drop-absent-reason") } });
    const dropped = answer.body.dropped || [];
    // the waiting registrants who were here moved up into the places, named.
    const movedUp = answer.body.moved_up || [];
    const said = dropped.length
      ? t("console.checkin.dropped", { count: dropped.length, names: formatList(dropped.map((id) => ctx.playerName(id))) })
      : t("console.checkin.dropped_none");
    say(
      message,
      movedUp.length ? `${said} ${t("console.checkin.moved_up", { count: movedUp.length, names: formatList(movedUp.map((p) => p.name)) })}` : said,
      "ok",
    );
    form.reset();
    await ctx.reload();
  });

  ctx.subscribe(render);
}
