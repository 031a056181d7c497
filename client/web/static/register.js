// The public registration page (/t/{t}/register, contract rule Q-7), opened on a phone before the
// day: anyone registers while the organizer keeps registration open, and gets a private link
// (/t/{t}/register#r=…&key=…) with which they see their registration — holding a place, or
// waiting as number N in line — and cancel it.
//
// The page knows no rule: whether registration is open, how many places are left, whether a name
// is acceptable or already registered and where a registration stands are the server's answers
// (GET …/registration, POST …/registrations, GET/DELETE …/registrations/{r}), each refusal shown
// at its field in the page's language. The private key travels in the Registration-Key header
// only; the link keeps it in the fragment (a browser never sends that to a server), and the
// phone remembers it (localStorage) so that the page opened again shows the registration.

import { problemDetail, tournamentPath, tryRequest } from "./api.js";
import { person, say, setChildren } from "./dom.js";
import { startI18n, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const tournamentId = (window.location.pathname.match(/^\/t\/([^/]+)\/register/) || [])[1];
const decodedId = tournamentId ? decodeURIComponent(tournamentId) : null;
const storageKey = `tallyd.registration.${decodedId}`;
const FIELDS = ["name", "club", "email"];

// The registration this phone holds: from the link's fragment, else the one remembered.
function heldRegistration() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  if (fragment.get("r") && fragment.get("key")) {
    const held = { id: fragment.get("r"), key: fragment.get("key").trim() };
    remember(held);
    return held;
  }
  try {
    const kept = JSON.parse(window.localStorage.getItem(storageKey) || "null");
    return kept && kept.id && kept.key ? kept : null;
  } catch {
    return null;
  }
}

function remember(held) {
  try {
    if (held) window.localStorage.setItem(storageKey, JSON.stringify(held));
    else window.localStorage.removeItem(storageKey);
  } catch {
    // this page only
  }
}

const privateLink = (held) =>
  `${window.location.origin}/t/${encodeURIComponent(decodedId)}/register#r=${encodeURIComponent(held.id)}&key=${encodeURIComponent(held.key)}`;

function status(text, kind = "ok") {
  say($("status"), text, kind);
}

function refused(answer) {
  if (answer.status === 429) return status(t("register.rate", { seconds: Math.max(1, answer.retryAfter || 60) }), "warn");
  if (answer.status === 0) return status(t("register.unreachable"), "error");
  status(problemDetail(answer), "error");
}

// ---- the registration held --------------------------------------------------------------------------

function statusText(r) {
  if (r.status === "cancelled") return t("register.status.cancelled");
  if (r.player) return t("register.status.player");
  if (r.status === "waiting") return t("register.status.waiting", { position: r.position });
  return t("register.status.registered");
}

function showMine(held, registration) {
  $("form").hidden = true;
  $("mine").hidden = false;
  setChildren($("mine-name"), person(registration.name), registration.club ? ` · ${registration.club}` : "");
  $("mine-status").textContent = statusText(registration);
  const link = privateLink(held);
  $("mine-link").href = link;
  $("mine-link").textContent = link;
  $("cancel").hidden = registration.status === "cancelled" || registration.player;
  $("cancel").onclick = () => cancel(held, registration);
  $("copy-link").onclick = async () => {
    try {
      await navigator.clipboard.writeText(link);
      status(t("register.copied"));
    } catch {
      window.getSelection().selectAllChildren($("mine-link"));
    }
  };
  $("another").onclick = () => {
    remember(null);
    window.history.replaceState(null, "", window.location.pathname);
    $("mine").hidden = true;
    say($("status"), "");
    showForm();
  };
}

async function loadMine(held) {
  const answer = await tryRequest("GET", `${tournamentPath(decodedId)}/registrations/${encodeURIComponent(held.id)}`, {
    headers: { "Registration-Key": held.key },
  });
  if (answer.status === 404) {
    remember(null);
    status(t("register.not_found"), "error");
    return false;
  }
  if (!answer.ok) {
    refused(answer);
    return false;
  }
  showMine(held, answer.body);
  return true;
}

async function cancel(held, registration) {
  if (!window.confirm(t("register.confirm_cancel", { name: registration.name }))) return;
  $("cancel").disabled = true;
  const answer = await tryRequest("DELETE", `${tournamentPath(decodedId)}/registrations/${encodeURIComponent(held.id)}`, {
    headers: { "Registration-Key": held.key },
  });
  $("cancel").disabled = false;
  if (!answer.ok) return refused(answer);
  status(t("register.cancelled_done"));
  showMine(held, answer.body);
  await loadPlaces();
}

// ---- the form ----------------------------------------------------------------------------------------

function showForm() {
  $("form").hidden = !state.open;
  if (!state.open) status(t("register.closed"), "warn");
}

function clearFieldErrors() {
  for (const field of FIELDS) {
    $(`${field}-error`).hidden = true;
    $(field).removeAttribute("aria-invalid");
  }
}

// Each of the server's errors at its field; the problem's detail in the status line.
function showFieldErrors(answer) {
  const errors = (answer.body && Array.isArray(answer.body.errors) && answer.body.errors) || [];
  let first = null;
  for (const e of errors) {
    if (!FIELDS.includes(e.field)) continue;
    const node = $(`${e.field}-error`);
    node.textContent = e.message || problemDetail(answer);
    node.hidden = false;
    $(e.field).setAttribute("aria-invalid", "true");
    $(e.field).setAttribute("aria-errormessage", `${e.field}-error`);
    first = first || $(e.field);
  }
  if (first) first.focus();
}

async function submit(event) {
  event.preventDefault();
  clearFieldErrors();
  const body = { name: $("name").value.trim() };
  for (const field of ["club", "email"]) {
    const value = $(field).value.trim();
    if (value) body[field] = value;
  }
  $("submit").disabled = true;
  status(t("register.sending"));
  const answer = await tryRequest("POST", `${tournamentPath(decodedId)}/registrations`, { body });
  $("submit").disabled = false;
  if (!answer.ok) {
    refused(answer);
    showFieldErrors(answer);
    return;
  }
  const held = { id: answer.body.id, key: answer.body.key };
  remember(held);
  window.history.replaceState(null, "", `${window.location.pathname}#r=${encodeURIComponent(held.id)}&key=${encodeURIComponent(held.key)}`);
  $("form").reset();
  status(t("register.done"));
  showMine(held, answer.body);
  await loadPlaces();
  $("mine-heading").focus();
}

// ---- the tournament ---------------------------------------------------------------------------------

const state = { open: false };

async function loadPlaces() {
  const answer = await tryRequest("GET", `${tournamentPath(decodedId)}/registration`);
  if (!answer.ok) {
    if (answer.status === 404) status(t("common.no_tournament", { id: decodedId }), "error");
    else refused(answer);
    return false;
  }
  const info = answer.body;
  state.open = info.open;
  $("tournament-info").textContent = info.tournament.name;
  document.title = t("register.title_named", { name: info.tournament.name });
  let places = "";
  if (info.capacity === null) places = t("register.unlimited", { registered: info.registered });
  else if (info.places_left > 0) places = t("register.places", { left: info.places_left, capacity: info.capacity });
  else places = t("register.full", { capacity: info.capacity, waiting: info.waiting });
  $("places").textContent = places;
  return true;
}

async function main() {
  $("standings-link").href = `/t/${tournamentId}`;
  await startI18n({ tournament: decodedId });
  if (!(await loadPlaces())) return;
  $("form").addEventListener("submit", submit);
  const held = heldRegistration();
  if (held && (await loadMine(held))) return;
  showForm();
}

main();
