// The console's Clock section: the current round's clock in big mm:ss, its state and the
// minutes added, and the organizer's actions on it (POST …/rounds/{r}/clock: start with
// minutes, pause, resume, extend with minutes and a reason, stop). The time left is the
// server's, as every page shows it (clock.js clockView: ends_at − server_time as the server
// last said, less the time since it said it, so a computer whose clock is off still shows the
// server's). Whether an action is allowed now is the server's call too: a refused one (409) is
// shown with the server's message.

import { clockView } from "./clock.js";
import { say } from "./dom.js";
import { t } from "./i18n.js";
import { clearRefusals, showRefusal } from "./console-refusals.js";

const $ = (id) => document.getElementById(id);

const STATE_TEXT = {
  idle: () => t("console.clock.state_idle"),
  running: () => t("console.clock.state_running"),
  paused: () => t("console.clock.state_paused"),
  expired: () => t("console.clock.state_expired"),
  stopped: () => t("console.clock.state_stopped"),
};

export function mountClock(ctx) {
  const message = $("clock-message");
  let shown = null; // {round, clock, receivedAt}
  let timer = null;

  // A clock of `round` as the server sent it, received at `receivedAt`. An answer older than the
  // one shown (by server_time: a slow read arriving after a live message) is left out.
  function take(round, clock, receivedAt) {
    if (!clock) return;
    const older = shown && shown.round === round && Date.parse(clock.server_time) < Date.parse(shown.clock.server_time);
    if (older) return draw();
    shown = { round, clock, receivedAt };
    draw();
  }

  function draw() {
    clearTimeout(timer);
    const round = ctx.lastRound();
    const controls = ["clock-start", "clock-extend"].map($).concat([...$("clock").querySelectorAll(".clock-buttons button")]);
    for (const c of controls) c.hidden = !round;
    if (!round) {
      $("clock-round").textContent = t("console.no_round");
      $("clock-time").textContent = "--:--";
      $("clock-state").textContent = "";
      $("clock-extended").hidden = true;
      return;
    }
    $("clock-round").textContent = t("console.clock.round", { round: round.round });
    if (!shown || shown.round !== round.round) {
      $("clock-time").textContent = "--:--";
      $("clock-state").textContent = STATE_TEXT.idle();
      $("clock-extended").hidden = true;
      return;
    }
    const { clock, receivedAt } = shown;
    const view = clockView(clock, receivedAt);
    const state = view.state === "hidden" ? "idle" : view.state; // never started
    const face = $("clock-time");
    face.textContent = view.state === "hidden" ? "--:--" : view.time;
    face.dataset.state = state;
    face.dataset.warning = String(view.warning);
    $("clock").dataset.state = state;
    $("clock-state").textContent = (STATE_TEXT[state] || (() => state))();
    const extended = $("clock-extended");
    extended.hidden = view.extendedMinutes <= 0;
    extended.textContent = view.extendedMinutes > 0 ? t("console.clock.extended", { minutes: view.extendedMinutes }) : "";
    if (state === "running") timer = setTimeout(draw, 250);
  }

  function render() {
    const round = ctx.lastRound();
    if (round && round.clock) take(round.round, round.clock, Date.now());
    else draw();
  }

  // The live feed's round (snapshot and standings messages carry it): fresher than the last read.
  function onLiveRound() {
    const live = ctx.liveRound;
    const round = ctx.lastRound();
    if (!live || !round || !live.round || live.round.round !== round.round || !live.round.clock) return;
    take(live.round.round, live.round.clock, live.receivedAt);
  }

  // A number typed as a number; anything else is sent as typed and the server says what is wrong.
  const number = (text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : text.trim());

  async function act(body, fields = {}) {
    const round = ctx.lastRound();
    if (!round) return false;
    clearRefusals($("clock"), message);
    const answer = await ctx.call("POST", ctx.path(`/rounds/${round.round}/clock`), body);
    if (!answer.ok) {
      showRefusal(answer, { box: message, fields });
      return false;
    }
    take(round.round, answer.body.clock, Date.now());
    return true;
  }

  $("clock-start").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await act({ action: "start", minutes: number($("clock-minutes").value) }, { minutes: $("clock-minutes") })) {
      say(message, "");
    }
  });
  $("clock-pause").addEventListener("click", () => act({ action: "pause" }));
  $("clock-resume").addEventListener("click", () => act({ action: "resume" }));
  $("clock-stop").addEventListener("click", () => act({ action: "stop" }));
  $("clock-extend").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { action: "extend", minutes: number($("clock-extend-minutes").value), reason: $("clock-extend-reason").value.trim() };
    const done = await act(body, { minutes: $("clock-extend-minutes"), reason: $("clock-extend-reason") });
    if (done) $("clock-extend-reason").value = "";
  });

  ctx.subscribe(render);
  return { onLiveRound };
}
