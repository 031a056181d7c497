// What the console's sections share: the tournament as the server last described it, the
// organizer's token, and one way to ask the server (with the token; a 401 forgets the token
// and asks for it again). Each section subscribes to the tournament and renders what it says.
//
//   const ctx = new ConsoleContext("brno-2026", { onUnauthorized });
//   ctx.subscribe((tournament) => …);   // after every reload
//   const answer = await ctx.call("POST", ctx.path("/checkin"), body);
//   if (answer.ok) await ctx.reload();

import { request, tournamentPath, tryRequest } from "./api.js";

// The organizer's token is kept apart from a judge's ("tallyd.token"): one browser may be both.
export const ORGANIZER_TOKEN_KEY = "tallyd.organizer-token";

export function storedOrganizerToken() {
  try {
    return localStorage.getItem(ORGANIZER_TOKEN_KEY);
  } catch {
    return null; // storage refused (a privacy setting): the token is asked every time
  }
}

export function storeOrganizerToken(token) {
  try {
    if (token) localStorage.setItem(ORGANIZER_TOKEN_KEY, token);
    else localStorage.removeItem(ORGANIZER_TOKEN_KEY);
  } catch {
    // kept only for this page's life
  }
}

// Checks a token without writing: the judges' list is the organizer's alone, so it answers
// 200 for the organizer, 403 for a judge and 401 for a token the server does not know.
export async function checkOrganizerToken(token) {
  const answer = await request("GET", "/v1/judges", { token });
  return { status: answer.status, judges: answer.ok ? answer.body : null, detail: answer.body?.detail };
}

export class ConsoleContext {
  constructor(tournamentId, { onUnauthorized = () => {} } = {}) {
    this.tournamentId = tournamentId;
    this.token = null;
    this.tournament = null;
    this.liveRound = null; // {round, receivedAt}: the live feed's latest `round` object
    this.listeners = [];
    this.onUnauthorized = onUnauthorized;
  }

  // The tournament's API path with `suffix` ("/players" → /v1/tournaments/{t}/players).
  path(suffix = "") {
    return `${tournamentPath(this.tournamentId)}${suffix}`;
  }

  // A request with the organizer's token: {status, ok, body}. Never throws for a status; a
  // network failure answers status 0 with the error as the detail. `headers`: more of them
  // (a precondition, an Idempotency-Key).
  async call(method, path, body, headers = {}) {
    const answer = await tryRequest(method, path, { token: this.token, body, headers });
    if (answer.status === 401) this.onUnauthorized();
    return answer;
  }

  subscribe(listener) {
    this.listeners.push(listener);
  }

  // Reads the tournament again and lets every section render it. Answers the read's answer.
  async reload() {
    const answer = await this.call("GET", this.path());
    if (!answer.ok) return answer;
    this.tournament = answer.body;
    for (const listener of this.listeners) listener(this.tournament);
    return answer;
  }

  playerName(id) {
    const player = this.tournament && this.tournament.players.find((p) => p.id === id);
    return player ? player.name : id;
  }

  players() {
    return (this.tournament && this.tournament.players) || [];
  }

  rounds() {
    return (this.tournament && this.tournament.rounds) || [];
  }

  // The last round seated, or null.
  lastRound() {
    const rounds = this.rounds();
    return rounds.length ? rounds[rounds.length - 1] : null;
  }
}
