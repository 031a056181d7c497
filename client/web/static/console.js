// The organizer's venue console (/t/{t}/console): the organizer token entered once (kept in
// localStorage apart from a judge's, forgotten on a 401), the sections shown one at a time
// (the address keeps which: #players, #clock, …, so a reload stays there), and the tournament
// read again whenever the live feed says something happened, so every section shows what the
// server says now. The sections are their own modules; none holds a rule of the games or of
// the tournament: the server decides, the page shows its answers.

import { problemDetail, tournamentIdFromLocation } from "./api.js";
import { say } from "./dom.js";
import { startI18n, t } from "./i18n.js";
import { LiveFeed } from "./live.js";
import { gameName } from "./standings-columns.js";
import { checkOrganizerToken, ConsoleContext, storedOrganizerToken, storeOrganizerToken } from "./console-context.js";
import { mountRegistration } from "./console-registration.js";
import { mountCheckin } from "./console-checkin.js";
import { mountRegistrations } from "./console-registrations.js";
import { mountSeating } from "./console-seating.js";
import { mountClock } from "./console-clock.js";
import { mountTables } from "./console-tables.js";
import { mountSelfReporting } from "./console-self-reporting.js";
import { mountClose } from "./console-close.js";
import { mountStages } from "./console-stages.js";
import { mountJudges } from "./console-judges.js";
import { mountOrganizer } from "./console-organizer.js";
import { mountReplicationNotice } from "./console-replication.js";

const $ = (id) => document.getElementById(id);
const tournamentId = tournamentIdFromLocation();
const SECTIONS = ["players", "registrations", "checkin", "seating", "clock", "tables", "selfreport", "close", "stages", "judges", "organizer"];

const ctx = new ConsoleContext(tournamentId, { onUnauthorized: () => tokenRefused() });
let feed = null;
let clock = null; // the clock section: it follows the live feed's round between reloads
let selfReporting = null; // the self-reporting section: its proposals follow the feed's events
let replicationNotice = null; // stops the replication line's reading

// ---- the token ----------------------------------------------------------------------------------

function showTokenForm(message = "") {
  $("token-section").hidden = false;
  $("signed-in").hidden = true;
  $("sections").hidden = true;
  $("console-main").hidden = true;
  $("token-error").textContent = message;
  $("token-input").setAttribute("aria-invalid", message ? "true" : "false");
  $("token-input").focus();
}

// A 401 anywhere: the token was replaced or is wrong. Forgotten, asked again.
function tokenRefused() {
  storeOrganizerToken(null);
  ctx.token = null;
  showTokenForm(t("console.token.refused"));
}

// Why a token is not the organizer's, or "" when it is.
function tokenProblem(check) {
  if (check.status === 200) return "";
  if (check.status === 401) return t("console.token.invalid");
  if (check.status === 403) return t("console.token.not_organizer");
  return t("console.token.cannot_check", { error: check.detail || String(check.status) });
}

async function saveToken(event) {
  event.preventDefault();
  const token = $("token-input").value.trim();
  if (!token) return showTokenForm(t("console.token.empty"));
  const problem = tokenProblem(await checkOrganizerToken(token));
  if (problem) return showTokenForm(problem);
  storeOrganizerToken(token);
  $("token-input").value = "";
  await start(token);
  $(`${currentSection()}-heading`).focus();
}

function forgetToken() {
  storeOrganizerToken(null);
  ctx.token = null;
  showTokenForm();
}

// The console's token changed (the organizer made a new one): kept, and used from now on.
function useToken(token) {
  ctx.token = token;
  storeOrganizerToken(token);
}

// ---- the sections -------------------------------------------------------------------------------

function currentSection() {
  const wanted = window.location.hash.slice(1);
  return SECTIONS.includes(wanted) ? wanted : SECTIONS[0];
}

function showSection() {
  const shown = currentSection();
  for (const name of SECTIONS) $(name).hidden = name !== shown;
  for (const link of $("sections").querySelectorAll("a")) {
    if (link.dataset.section === shown) link.setAttribute("aria-current", "true");
    else link.removeAttribute("aria-current");
  }
}

// Shows the section in the address, its heading focused (a screen reader says where it is) and
// on the screen: on a laptop right under the links, which stay at the top (sticky), never behind
// them; on a phone, where the links scroll away with the page (nine of them would take the first
// screen), at the top of the screen.
function openSection() {
  showSection();
  const heading = $(`${currentSection()}-heading`);
  heading.focus({ preventScroll: true });
  const links = $("sections");
  const sticky = getComputedStyle(links).position === "sticky";
  const gap = 8;
  const under = sticky ? links.getBoundingClientRect().height + gap : gap;
  const top = heading.getBoundingClientRect().top;
  if (top < under || top > window.innerHeight / 3) window.scrollBy(0, top - under);
}

// ---- start --------------------------------------------------------------------------------------

async function start(token) {
  ctx.token = token;
  const answer = await ctx.reload();
  if (answer.status === 401) return; // tokenRefused() has asked for another
  if (!answer.ok) {
    const error = problemDetail(answer);
    say($("load-error"), answer.status === 404 ? t("common.no_tournament", { id: tournamentId }) : t("common.cannot_load_tournament", { error }), "error");
    return;
  }
  say($("load-error"), "");
  const tournament = ctx.tournament;
  $("tournament-info").textContent = `${tournament.name} · ${gameName(tournament.game)}`;
  document.title = t("console.title_named", { name: tournament.name });
  $("token-section").hidden = true;
  $("signed-in").hidden = false;
  $("sections").hidden = false;
  $("console-main").hidden = false;
  showSection();
  if (!replicationNotice) replicationNotice = mountReplicationNotice(ctx, $("replication-notice"));
  if (!feed) {
    // Whatever happens (a judge's entry, a check-in from a judge's phone, a clock action), the
    // tournament is read again, a moment later when many things happen at once.
    let timer = null;
    feed = new LiveFeed(tournamentId, {
      onMessage: (message) => {
        if (message.round) ctx.liveRound = { round: message.round, receivedAt: Date.now() };
        if (message.type === "event") selfReporting.onEvent(message.event);
        if (message.type === "event" || message.type === "standings") {
          clearTimeout(timer);
          timer = setTimeout(() => ctx.token && ctx.reload(), 250);
        }
        if (message.round) clock.onLiveRound();
      },
    });
    feed.start();
  }
}

async function main() {
  await startI18n({ tournament: tournamentId, token: storedOrganizerToken() });
  if (!tournamentId) return;
  const page = (suffix) => `/t/${encodeURIComponent(tournamentId)}${suffix}`;
  $("standings-link").href = page("");
  $("board-link").href = page("/board");
  $("judge-link").href = page("/judge");
  $("token-form").addEventListener("submit", saveToken);
  $("forget-token").addEventListener("click", forgetToken);
  // A section link shows its section without the browser's jump to the anchor (which would
  // put the heading under the links): the address keeps the section, Back goes to the last one.
  $("sections").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-section]");
    if (!link) return;
    event.preventDefault();
    if (link.dataset.section !== currentSection()) window.history.pushState(null, "", `#${link.dataset.section}`);
    openSection();
  });
  window.addEventListener("popstate", openSection);
  window.addEventListener("hashchange", openSection);
  mountRegistration(ctx);
  mountRegistrations(ctx);
  mountCheckin(ctx);
  mountSeating(ctx);
  clock = mountClock(ctx);
  mountTables(ctx);
  selfReporting = mountSelfReporting(ctx);
  mountClose(ctx);
  mountStages(ctx);
  mountJudges(ctx);
  mountOrganizer(ctx, { useToken });
  const token = storedOrganizerToken();
  if (!token) return showTokenForm();
  // A stored token that is no longer the organizer's (replaced elsewhere) is asked again.
  const problem = tokenProblem(await checkOrganizerToken(token));
  if (problem) {
    storeOrganizerToken(null);
    return showTokenForm(problem);
  }
  await start(token);
}

main();
