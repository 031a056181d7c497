// The round clock as a screen shows it: the time left (mm:ss), paused, "Time!", "+5 min" after an
// extension. One module for the venue board (large), the public and judge pages and the
// organizer's console (small).
//
// tallyd sends the clock as {"state","duration_s","remaining_s","ends_at","server_time",
// "extended_s"} (GET …/rounds/{r}, the live feed's `round`). The screen's own clock may be off by
// minutes, so the time left is never `ends_at - Date.now()`: it is what was left when the server
// answered (`ends_at - server_time`, both the server's clock) less the time that has passed on
// this screen since the answer arrived (both this screen's clock).
//
//   const clock = createClock(document.getElementById("clock"), { size: "large" });
//   clock.update(message.round && message.round.clock);   // received now; null hides it
//   clock.setLabel(t("standings.clock_round", { round: 3 }));
//
// The pure parts (remainingSeconds, clockView, formatRemaining) touch no DOM, so node tests them.

import { el } from "./dom.js";
import { t } from "./i18n.js";

export const WARNING_SECONDS = 10 * 60; // the last ten minutes are shown in the warning colour
const TICK_MS = 250; // the display is checked four times a second and redrawn when it changes

function timeOf(iso) {
  const ms = typeof iso === "string" ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

// Seconds left (a fraction, never below 0) on `clock` at `nowMs` of a screen that received it at
// `receivedAtMs` (both this screen's Date.now()); null when there is no clock to show (none, or
// idle: never started).
export function remainingSeconds(clock, receivedAtMs, nowMs = Date.now()) {
  if (!clock || !clock.state || clock.state === "idle") return null;
  if (clock.state === "expired") return 0;
  const left = Number(clock.remaining_s) || 0;
  if (clock.state !== "running") return Math.max(0, left); // paused, stopped: it stands still
  const endsAt = timeOf(clock.ends_at);
  const serverTime = timeOf(clock.server_time);
  const atReceipt = endsAt !== null && serverTime !== null ? (endsAt - serverTime) / 1000 : left;
  return Math.max(0, atReceipt - (nowMs - receivedAtMs) / 1000);
}

// "65:00", "09:59", "00:00": minutes may pass 59. Whole seconds rounded up, so that "00:00" is the
// moment the time is over, not a second before it.
export function formatRemaining(seconds) {
  const whole = Math.max(0, Math.ceil(seconds - 1e-6));
  const minutes = Math.floor(whole / 60);
  return `${String(minutes).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`;
}

// What a screen shows of `clock` at `nowMs`:
//   {state: "hidden"|"running"|"paused"|"expired"|"stopped", seconds, time: "mm:ss",
//    warning: bool (in the last ten minutes, time not yet over), extendedMinutes}
// A running clock whose time has run out on this screen is "expired" before the server says so.
export function clockView(clock, receivedAtMs, nowMs = Date.now()) {
  const seconds = remainingSeconds(clock, receivedAtMs, nowMs);
  if (seconds === null) return { state: "hidden", seconds: null, time: "", warning: false, extendedMinutes: 0 };
  let state = clock.state;
  if (!["running", "paused", "expired", "stopped"].includes(state)) state = "hidden"; // a state this page does not know
  if (state === "running" && seconds <= 0) state = "expired";
  return {
    state,
    seconds,
    time: formatRemaining(seconds),
    warning: (state === "running" || state === "paused") && seconds > 0 && seconds <= WARNING_SECONDS,
    extendedMinutes: Math.round((Number(clock.extended_s) || 0) / 60),
  };
}

// The clock's display in `element` (emptied and filled here), kept ticking while it runs.
// size "large" (the venue board) or "small" (a line on a page). The element is hidden while there
// is no clock to show. Its data-state attribute is the state shown (for styles and tests), and
// data-warning="true" marks the last ten minutes.
export function createClock(element, { size = "small" } = {}) {
  const label = el("span", { class: "round-clock-label" }, t("clock.label"));
  const time = el("span", { class: "round-clock-time" });
  const status = el("span", { class: "round-clock-status", role: "status" });
  const badge = el("span", { class: "round-clock-badge" });
  element.classList.add("round-clock", `round-clock-${size}`);
  element.setAttribute("role", "timer"); // not read out every second
  element.setAttribute("aria-label", t("clock.timer"));
  element.replaceChildren(label, time, el("span", { class: "round-clock-marks" }, badge, status));
  element.hidden = true;

  let clock = null;
  let receivedAt = 0;
  let timer = null;
  let shown = "";

  function render() {
    const view = clockView(clock, receivedAt, Date.now());
    const key = `${view.state}|${view.time}|${view.warning}|${view.extendedMinutes}`;
    if (view.state !== "running" && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
    if (key === shown) return;
    shown = key;
    element.hidden = view.state === "hidden";
    element.dataset.state = view.state;
    element.dataset.warning = String(view.warning);
    const over = view.state === "expired";
    time.textContent = over ? t("clock.time_up") : view.time;
    // "Time!" is read out once (the status is polite); its figures are the time's own.
    status.textContent = over ? t("clock.time_up") : view.state === "paused" ? t("clock.paused") : view.state === "stopped" ? t("clock.stopped") : "";
    status.hidden = status.textContent === "";
    status.classList.toggle("visually-hidden", over);
    badge.textContent = view.extendedMinutes > 0 && !over ? t("clock.extended", { minutes: view.extendedMinutes }) : "";
    badge.hidden = badge.textContent === "";
  }

  return {
    element,
    // A clock object as tallyd sent it (null or undefined: nothing to show), received at
    // `receivedAtMs`. An answer older than the one shown (by server_time: a slow read that
    // arrives after a live message) is ignored.
    update(next, receivedAtMs = Date.now()) {
      if (next && clock && timeOf(next.server_time) !== null && timeOf(next.server_time) < timeOf(clock.server_time)) return;
      clock = next || null;
      receivedAt = receivedAtMs;
      render();
      if (clock && clock.state === "running" && timer === null && element.dataset.state === "running") {
        timer = setInterval(render, TICK_MS);
      }
    },
    setLabel(text) {
      label.textContent = text;
    },
    // What is shown now (clockView), for a page that words something around it.
    view() {
      return clockView(clock, receivedAt, Date.now());
    },
  };
}
